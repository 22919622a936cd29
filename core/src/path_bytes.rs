//! `Path::parent`, `Path::file_name` and `Path::ancestors` answered from the bytes around
//! the last `/` when that is enough, as it is for the paths discovery builds (a root joined
//! with plain names): std parses components from the end for each call, and naming,
//! validating and plugin lookups asked ~10 times per skill (~5% of a 10,000-skill `list`,
//! bench/PROFILE.md item 204). Anything else (a trailing `/`, a `.` or `..` next to the
//! last `/`, a doubled `/`, a path of one component) goes to std, so the answers are std's
//! (a test compares both on every short path).

use std::ffi::OsStr;
use std::path::Path;

/// Where the last name of `path` starts and the slice before its `/` ends, when both are
/// plain: the last name is not empty, `.` or `..`, the `/` before it is not the first byte
/// nor doubled, and what precedes it is not `.` or does not end with `/.`.
#[cfg(unix)]
fn split_last(path: &Path) -> Option<(&Path, &OsStr)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let slash = memchr::memrchr(b'/', bytes)?;
    let (head, name) = (bytes.get(..slash)?, bytes.get(slash + 1..)?);
    let plain_name = !name.is_empty() && name != b"." && name != b"..";
    let plain_head =
        !head.is_empty() && !head.ends_with(b"/") && head != b"." && !head.ends_with(b"/.");
    (plain_name && plain_head)
        .then(|| (Path::new(OsStr::from_bytes(head)), OsStr::from_bytes(name)))
}

#[cfg(not(unix))]
fn split_last(_path: &Path) -> Option<(&Path, &OsStr)> {
    None
}

/// `path.parent()`.
pub(crate) fn parent(path: &Path) -> Option<&Path> {
    match split_last(path) {
        Some((head, _)) => Some(head),
        None => path.parent(),
    }
}

/// `path.file_name()`.
pub(crate) fn file_name(path: &Path) -> Option<&OsStr> {
    match split_last(path) {
        Some((_, name)) => Some(name),
        None => path.file_name(),
    }
}

/// `path.ancestors()`: `path`, its parent, its parent's parent, ...
pub(crate) fn ancestors(path: &Path) -> impl Iterator<Item = &Path> {
    std::iter::successors(Some(path), |p| parent(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path of up to six pieces over `/`, `.`, `..`, `a` and `bc`: the same answers as
    /// std's `parent`, `file_name` and `ancestors`, byte for byte (`Path`'s own equality
    /// would take `a/` for `a`).
    #[test]
    fn answers_as_std_does() {
        let pieces = ["/", ".", "..", "a", "bc"];
        let mut paths = vec![String::new()];
        let mut all = vec![String::new()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for p in &paths {
                for piece in pieces {
                    next.push(format!("{p}{piece}"));
                }
            }
            all.extend(next.iter().cloned());
            paths = next;
        }
        for p in &all {
            let path = Path::new(p);
            assert_eq!(
                parent(path).map(Path::as_os_str),
                path.parent().map(Path::as_os_str),
                "parent of {p:?}"
            );
            assert_eq!(file_name(path), path.file_name(), "file name of {p:?}");
            assert!(
                ancestors(path)
                    .map(Path::as_os_str)
                    .eq(path.ancestors().map(Path::as_os_str)),
                "ancestors of {p:?}"
            );
        }
    }
}
