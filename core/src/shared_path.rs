//! [`SharedPath`]: one buffer for a path that many values name. A loaded deck names each
//! skill file from its parse cache entry, its [`crate::Skill::location`], every diagnostic
//! about it and the [`crate::Shadowed`] entries it wins or loses, and each root from every
//! skill found under it ([`crate::Skill::source`]); a copy per value was a few hundred bytes
//! per skill (bench/PROFILE.md items 45-46).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An immutable path whose clones share one buffer. Reads as a [`Path`] (`Deref`), compares,
/// hashes and prints as one, and serialises as a string like any path of the JSON form
/// (non-UTF-8 bytes replaced, see `serialize_path_lossy`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedPath(Arc<Path>);

impl SharedPath {
    /// Whether both name the very same buffer (not just an equal path).
    pub fn ptr_eq(&self, other: &SharedPath) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The path as an `Arc`, shared.
    pub fn as_arc(&self) -> &Arc<Path> {
        &self.0
    }
}

impl std::ops::Deref for SharedPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for SharedPath {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl std::borrow::Borrow<Path> for SharedPath {
    fn borrow(&self) -> &Path {
        &self.0
    }
}

impl std::fmt::Debug for SharedPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Arc<Path>> for SharedPath {
    fn from(path: Arc<Path>) -> Self {
        SharedPath(path)
    }
}

impl From<&Path> for SharedPath {
    fn from(path: &Path) -> Self {
        SharedPath(Arc::from(path))
    }
}

impl From<PathBuf> for SharedPath {
    fn from(path: PathBuf) -> Self {
        SharedPath(Arc::from(path))
    }
}

impl From<&str> for SharedPath {
    fn from(path: &str) -> Self {
        SharedPath::from(Path::new(path))
    }
}

impl From<String> for SharedPath {
    fn from(path: String) -> Self {
        SharedPath::from(PathBuf::from(path))
    }
}

impl From<SharedPath> for PathBuf {
    fn from(path: SharedPath) -> Self {
        path.0.to_path_buf()
    }
}

impl PartialEq<Path> for SharedPath {
    fn eq(&self, other: &Path) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&Path> for SharedPath {
    fn eq(&self, other: &&Path) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<PathBuf> for SharedPath {
    fn eq(&self, other: &PathBuf) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<SharedPath> for Path {
    fn eq(&self, other: &SharedPath) -> bool {
        *self == *other.0
    }
}

impl PartialEq<SharedPath> for PathBuf {
    fn eq(&self, other: &SharedPath) -> bool {
        **self == *other.0
    }
}

impl Serialize for SharedPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::serde_path::lossy(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for SharedPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        PathBuf::deserialize(deserializer).map(SharedPath::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_and_read_as_the_path() {
        let a = SharedPath::from(Path::new("/p/SKILL.md"));
        let b = a.clone();
        assert!(a.ptr_eq(&b));
        assert!(!a.ptr_eq(&SharedPath::from(PathBuf::from("/p/SKILL.md"))));
        assert_eq!(a, SharedPath::from(PathBuf::from("/p/SKILL.md")));
        assert_eq!(a.parent(), Some(Path::new("/p")));
        assert_eq!(format!("{a:?}"), format!("{:?}", Path::new("/p/SKILL.md")));
        assert_eq!(
            serde_json::to_string(&a).ok().as_deref(),
            Some(r#""/p/SKILL.md""#)
        );
    }
}
