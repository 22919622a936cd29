//! [`SharedStr`]: one buffer for text that many values of a loaded deck repeat. A skill's
//! `id` is nearly always its `name`; a [`crate::Shadowed`] entry names the loser as its
//! candidate did and gives one of a few reasons; thousands of files carry the same warning
//! ("unknown frontmatter key `source`"). A `String` each was a heap block each, and glibc
//! adds 8-16 bytes and rounding to every block a deck keeps (bench/PROFILE.md items 110, 170).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::sync::Arc;

/// Immutable text whose clones share one buffer. Reads as a `str` (`Deref`, [`as_str`]),
/// compares, orders, hashes and prints as one, and serialises as a string: the JSON form is
/// the same as a `String`'s. Build it with `.into()` from a `String` or `&str`; get a
/// `String` back with `.to_string()` or `String::from`.
///
/// [`as_str`]: SharedStr::as_str
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedStr(Arc<str>);

/// The most distinct texts [`SharedStr::interned`] remembers per thread.
const INTERNED_MAX: usize = 256;
/// Longer texts are not remembered: the ones that repeat are short.
const INTERNED_MAX_LEN: usize = 128;

thread_local! {
    static INTERNED: RefCell<crate::FastSet<SharedStr>> = RefCell::new(crate::FastSet::default());
}

impl SharedStr {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether both name the very same buffer (not just equal text).
    pub fn ptr_eq(&self, other: &SharedStr) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// `text`, sharing the buffer of an equal text this thread interned before: for text
    /// many files repeat (a warning naming a common key). Each thread remembers at most
    /// 256 texts of at most 128 bytes (a bounded cost for a thread that lives long) and
    /// forgets them all when the table is full; longer text gets its own buffer.
    pub fn interned(text: &str) -> SharedStr {
        if text.len() > INTERNED_MAX_LEN {
            return SharedStr::from(text);
        }
        INTERNED
            .try_with(|set| {
                let mut set = set.borrow_mut();
                if let Some(found) = set.get(text) {
                    return found.clone();
                }
                let new = SharedStr::from(text);
                if set.len() >= INTERNED_MAX {
                    // Start again rather than stop: a thread that lives long (a worker pool)
                    // keeps sharing the texts its current work repeats.
                    set.clear();
                }
                set.insert(new.clone());
                new
            })
            // The thread is exiting: nothing to share with.
            .unwrap_or_else(|_| SharedStr::from(text))
    }
}

impl Default for SharedStr {
    /// The empty text, one buffer for all.
    fn default() -> Self {
        static EMPTY: std::sync::OnceLock<SharedStr> = std::sync::OnceLock::new();
        EMPTY.get_or_init(|| SharedStr(Arc::from(""))).clone()
    }
}

impl std::ops::Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Display for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<&str> for SharedStr {
    fn from(text: &str) -> Self {
        SharedStr(Arc::from(text))
    }
}

impl From<String> for SharedStr {
    fn from(text: String) -> Self {
        SharedStr(Arc::from(text))
    }
}

impl From<&String> for SharedStr {
    fn from(text: &String) -> Self {
        SharedStr::from(text.as_str())
    }
}

impl From<Box<str>> for SharedStr {
    fn from(text: Box<str>) -> Self {
        SharedStr(Arc::from(text))
    }
}

impl From<std::borrow::Cow<'_, str>> for SharedStr {
    fn from(text: std::borrow::Cow<'_, str>) -> Self {
        SharedStr::from(&*text)
    }
}

impl From<Arc<str>> for SharedStr {
    fn from(text: Arc<str>) -> Self {
        SharedStr(text)
    }
}

impl From<SharedStr> for String {
    fn from(text: SharedStr) -> Self {
        text.0.as_ref().to_owned()
    }
}

impl From<&SharedStr> for String {
    fn from(text: &SharedStr) -> Self {
        text.0.as_ref().to_owned()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == &*other.0
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_str() == &*other.0
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(SharedStr::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_compares_and_serialises_as_a_string() {
        let s = SharedStr::from("demo");
        assert_eq!(s, "demo");
        assert_eq!("demo", s);
        assert_eq!(s, String::from("demo"));
        assert_eq!(s.len(), 4);
        assert_eq!(format!("{s} {s:?}"), r#"demo "demo""#);
        assert_eq!(serde_json::to_string(&s).ok().as_deref(), Some(r#""demo""#));
        let back: Result<SharedStr, _> = serde_json::from_str(r#""demo""#);
        assert_eq!(back.ok(), Some(s.clone()));
        assert_eq!(String::from(s), "demo");
        assert!(SharedStr::default().ptr_eq(&SharedStr::default()));
    }

    #[test]
    fn interned_text_shares_one_buffer_per_thread() {
        let a = SharedStr::interned("unknown frontmatter key `source`");
        let b = SharedStr::interned(&format!("unknown frontmatter key `{}`", "source"));
        assert!(a.ptr_eq(&b));
        assert!(!a.ptr_eq(&SharedStr::interned("unknown frontmatter key `risk`")));
        let long = "x".repeat(INTERNED_MAX_LEN + 1);
        assert!(!SharedStr::interned(&long).ptr_eq(&SharedStr::interned(&long)));
        let other = std::thread::spawn(|| SharedStr::interned("unknown frontmatter key `source`"))
            .join()
            .unwrap_or_default();
        assert_eq!(
            other, a,
            "another thread has its own buffer of the same text"
        );
    }

    #[test]
    fn a_full_table_starts_again() {
        let run = std::thread::spawn(|| {
            for i in 0..INTERNED_MAX + 10 {
                assert_eq!(SharedStr::interned(&i.to_string()), i.to_string());
            }
            // The table started again at `INTERNED_MAX`: the first texts were forgotten, the
            // latest are shared.
            let first = SharedStr::interned("0");
            assert!(!first.ptr_eq(&SharedStr::interned(&(INTERNED_MAX + 20).to_string())));
            let late = (INTERNED_MAX + 5).to_string();
            assert!(SharedStr::interned(&late).ptr_eq(&SharedStr::interned(&late)));
        })
        .join();
        assert!(run.is_ok());
    }
}
