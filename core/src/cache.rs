//! Stat-based change detection: a fingerprint of everything a discovery looked at, and a
//! parse cache keyed by file identity, so an unchanged tree costs one `stat` per directory
//! and file instead of a walk and a parse.

use crate::parse::Parsed;
use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// What `stat` says about a file or directory, enough to notice an edit, a replacement or
/// a move: size, modification time (nanoseconds) and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    pub size: u64,
    pub mtime_ns: i128,
    pub inode: u64,
    pub device: u64,
}

impl Stamp {
    pub fn of(meta: &Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                size: meta.size(),
                mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let mtime_ns = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos() as i128)
                .unwrap_or(0);
            Stamp {
                size: meta.len(),
                mtime_ns,
                inode: 0,
                device: 0,
            }
        }
    }

    /// `stat` following symlinks; `None` when the path does not exist or cannot be read.
    pub fn read(path: &Path) -> Option<Stamp> {
        std::fs::metadata(path).ok().map(|m| Stamp::of(&m))
    }
}

/// Every path a discovery depended on, with what `stat` said at the time (`None`: absent).
/// A directory's mtime changes when an entry is added, removed or renamed in it; a file's
/// stamp changes when it is edited; so an unchanged fingerprint means an unchanged result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    entries: Vec<(PathBuf, Option<Stamp>)>,
    /// Paths whose mere existence matters (`.git` markers: their mtimes change with every
    /// git command, which must not invalidate the cache).
    exists: Vec<(PathBuf, bool)>,
}

impl Fingerprint {
    pub fn push(&mut self, path: PathBuf, stamp: Option<Stamp>) {
        self.entries.push((path, stamp));
    }

    pub fn push_exists(&mut self, path: PathBuf) {
        let exists = std::fs::symlink_metadata(&path).is_ok();
        self.exists.push((path, exists));
    }

    pub fn len(&self) -> usize {
        self.entries.len() + self.exists.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Re-`stat` everything (in parallel on large trees) and report whether all of it is as
    /// recorded.
    pub fn is_current(&self) -> bool {
        const CHUNK: usize = 2048;
        let check = |slice: &[(PathBuf, Option<Stamp>)]| {
            slice
                .iter()
                .all(|(path, stamp)| Stamp::read(path) == *stamp)
        };
        let markers_same = self
            .exists
            .iter()
            .all(|(p, e)| std::fs::symlink_metadata(p).is_ok() == *e);
        if !markers_same {
            return false;
        }
        if self.entries.len() <= CHUNK {
            return check(&self.entries);
        }
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 8);
        let per = self.entries.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .entries
                .chunks(per)
                .map(|slice| scope.spawn(move || check(slice)))
                .collect();
            // A panicking checker (it cannot, but be safe) counts as "changed".
            handles.into_iter().all(|h| h.join().unwrap_or(false))
        })
    }
}

/// Parsed frontmatter per file, reused while the file's stamp is unchanged.
#[derive(Clone, Debug, Default)]
pub struct ParseCache {
    // Shared entries: a cache hit costs a reference count, not a deep copy of the manifest.
    // Keyed by the path's bytes (the walk builds every path the same way); hashing a `Path`
    // walks its components, a measurable cost at one lookup per file.
    map: HashMap<std::ffi::OsString, std::sync::Arc<CachedParse>>,
}

/// One cached read: a [`Parsed`] taken apart so that its manifest is stored once, shared by
/// every catalog built from this read (a `Parsed` keeps its manifest inline, and an emptied
/// one still costs its ~1 KB of fields per file).
#[derive(Clone, Debug)]
pub struct CachedParse {
    pub stamp: Stamp,
    pub manifest: std::sync::Arc<crate::manifest::Manifest>,
    pub diagnostics: Vec<crate::diagnostic::Diagnostic>,
    pub body_line: Option<u32>,
    pub keys: Vec<crate::parse::KeyInfo>,
    pub strict_notes: Vec<crate::diagnostic::Diagnostic>,
    /// The file starts with a UTF-8 byte-order mark.
    pub bom: bool,
    /// Where the skill is reported (the walked path, or its real path for profiles that
    /// resolve links) and the lenient validation of `parsed` at that location.
    pub location: PathBuf,
    pub checked: Vec<crate::diagnostic::Diagnostic>,
}

impl CachedParse {
    /// Store `parsed` (read when the file had `stamp`), found at `location` with the lenient
    /// validation `checked`.
    pub fn new(
        stamp: Stamp,
        parsed: Parsed,
        bom: bool,
        location: PathBuf,
        checked: Vec<crate::diagnostic::Diagnostic>,
    ) -> CachedParse {
        CachedParse {
            stamp,
            manifest: std::sync::Arc::new(parsed.manifest),
            diagnostics: parsed.diagnostics,
            body_line: parsed.body_line,
            keys: parsed.keys,
            strict_notes: parsed.strict_notes,
            bom,
            location,
            checked,
        }
    }

    /// The parse as [`crate::parse::read_frontmatter`] returned it.
    pub fn parsed(&self) -> Parsed {
        Parsed {
            manifest: crate::manifest::Manifest::clone(&self.manifest),
            diagnostics: self.diagnostics.clone(),
            body_line: self.body_line,
            keys: self.keys.clone(),
            strict_notes: self.strict_notes.clone(),
        }
    }
}

impl ParseCache {
    /// An empty cache with room for `n` files.
    pub fn with_capacity(n: usize) -> ParseCache {
        ParseCache {
            map: HashMap::with_capacity(n),
        }
    }

    pub fn get(&self, path: &Path, stamp: &Stamp) -> Option<&std::sync::Arc<CachedParse>> {
        self.map.get(path.as_os_str()).filter(|c| c.stamp == *stamp)
    }

    pub fn insert(&mut self, path: PathBuf, entry: std::sync::Arc<CachedParse>) {
        self.map.insert(path.into_os_string(), entry);
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_notices_edit_add_and_remove() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("SKILL.md");
        std::fs::write(&file, "a").unwrap();
        let mut fp = Fingerprint::default();
        fp.push(t.path().to_path_buf(), Stamp::read(t.path()));
        fp.push(file.clone(), Stamp::read(&file));
        fp.push(t.path().join("absent"), None);
        assert!(fp.is_current());

        std::fs::write(&file, "ab").unwrap();
        assert!(!fp.is_current(), "size change");

        let mut fp = Fingerprint::default();
        fp.push(t.path().join("absent"), None);
        std::fs::write(t.path().join("absent"), "").unwrap();
        assert!(!fp.is_current(), "appeared");
    }

    #[test]
    fn large_fingerprints_check_in_parallel() {
        let t = tempfile::tempdir().unwrap();
        let mut fp = Fingerprint::default();
        for i in 0..5000 {
            fp.push(t.path().join(format!("missing-{i}")), None);
        }
        assert!(fp.is_current());
        std::fs::write(t.path().join("missing-4999"), "").unwrap();
        assert!(!fp.is_current());
    }
}
