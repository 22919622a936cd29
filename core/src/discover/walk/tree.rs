//! The directory walk of one root: `getdents64` on Linux, `std::fs::read_dir` elsewhere.
//!
//! The entry's type comes from the directory listing (`d_type`: no `stat` per entry); only
//! a symbolic link is `stat`ed, to follow it. Each directory's entries are read
//! whole and sorted by name before any is visited, so a walk on one thread is a pre-order,
//! name-ordered walk: its files come out in [`super::cmp_paths`] order and its directory
//! limit cuts the same directories on every run. Directories are read whole (not kept open
//! while their subdirectories are walked) so a deep tree needs one open descriptor, not one
//! per level.
//!
//! Replaces the `ignore` crate's walker with every filter off (bench/PROFILE.md item 150):
//! its per-entry `DirEntry` paths, ignore-matcher chain and work-stealing queue were ~26% of
//! `list`'s instructions. The behaviour is the one `ignore` 0.4.34's `WalkParallel` had
//! (`walk.rs`: `generate_work`, `run_one`, `check_symlink_loop`): links followed when the
//! rules say so, a followed directory checked against every directory above it by device
//! and inode, the entry filter applied after following, a directory at the depth limit
//! visited but not read.

use super::{Globs, Walked, WalkedFile};
use crate::cache::Stamp;
use crate::diagnostic::Diagnostic;
use crate::discover::profile::{Loose, WalkRules};
use std::ffi::OsStr;
use std::fs::Metadata;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What every thread walking one root shares.
pub(super) struct Config<'a> {
    pub root: &'a Path,
    /// `depth(root)`, for every file's [`WalkedFile::rel`].
    pub root_depth: u32,
    pub rules: &'a WalkRules,
    pub markers: &'a [String],
    pub globs: &'a Globs,
    pub loose: Option<&'a Loose>,
    /// The deepest entry listed ([`super::entry_depth_limit`]).
    pub limit: Option<usize>,
    pub stamp_dirs: bool,
    /// Directories accepted below the root so far, for `max_dirs`.
    pub dirs: AtomicUsize,
    /// Set when a directory was refused for `max_dirs`.
    pub truncated: AtomicBool,
}

/// A directory to read.
#[derive(Clone, Debug)]
pub(super) struct Task {
    pub path: PathBuf,
    /// The directories above it up to the root, root first (loop detection).
    pub above: Vec<PathBuf>,
    /// Its depth (the root is 0).
    pub depth: usize,
}

/// What the directory listing says an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Dir,
    File,
    Link,
    /// A FIFO, socket or device: listed as a file that is not regular.
    Other,
}

impl Kind {
    fn of(t: std::fs::FileType) -> Kind {
        if t.is_dir() {
            Kind::Dir
        } else if t.is_file() {
            Kind::File
        } else if t.is_symlink() {
            Kind::Link
        } else {
            Kind::Other
        }
    }
}

/// One entry of a directory listing: its name and kind (or why the kind is unknown).
#[derive(Debug)]
struct Listed {
    /// On Unix, the name's range in [`Listing::names`].
    #[cfg(unix)]
    name: (usize, usize),
    #[cfg(not(unix))]
    name: std::ffi::OsString,
    kind: io::Result<Kind>,
}

/// A directory's entries. On Unix every name sits in one buffer instead of an allocation
/// per entry (the per-entry `OsString`s and their frees were ~13M instructions of a
/// 10,000-skill walk, bench/PROFILE.md item 201); both vectors are reused from directory
/// to directory.
#[derive(Debug, Default)]
struct Listing {
    #[cfg(unix)]
    names: Vec<u8>,
    entries: Vec<Listed>,
}

impl Listing {
    fn push(&mut self, name: &OsStr, kind: io::Result<Kind>) {
        #[cfg(unix)]
        let name = {
            use std::os::unix::ffi::OsStrExt;
            let start = self.names.len();
            self.names.extend_from_slice(name.as_bytes());
            (start, self.names.len())
        };
        #[cfg(not(unix))]
        let name = name.to_os_string();
        self.entries.push(Listed { name, kind });
    }

    fn name_of<'l>(&'l self, entry: &'l Listed) -> &'l OsStr {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let (start, end) = entry.name;
            OsStr::from_bytes(self.names.get(start..end).unwrap_or_default())
        }
        #[cfg(not(unix))]
        {
            &entry.name
        }
    }

    fn name(&self, at: usize) -> &OsStr {
        self.entries
            .get(at)
            .map_or(OsStr::new(""), |entry| self.name_of(entry))
    }

    /// In name order (the order `walkdir`'s `sort_by_file_name` gives: `OsStr`'s, bytes on
    /// Unix).
    fn sort(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_unstable_by(|a, b| self.name_of(a).cmp(self.name_of(b)));
        self.entries = entries;
    }

    fn clear(&mut self) {
        #[cfg(unix)]
        self.names.clear();
        self.entries.clear();
    }
}

/// One directory being walked: its sorted entries, visited in order from `next`.
struct Level {
    path: PathBuf,
    depth: usize,
    listing: Listing,
    next: usize,
}

/// One thread's walk: what it found, and a path buffer reused for every entry.
pub(super) struct Walker<'c, 'a> {
    config: &'c Config<'a>,
    pub out: Walked,
    scratch: PathBuf,
    /// Listings of directories already walked, for the next ones to fill.
    spare: Vec<Listing>,
    /// The `getdents64` buffer, reused for every directory.
    #[cfg(target_os = "linux")]
    buffer: Vec<std::mem::MaybeUninit<u8>>,
}

impl<'c, 'a> Walker<'c, 'a> {
    pub fn new(config: &'c Config<'a>) -> Self {
        Walker {
            config,
            out: Walked::default(),
            scratch: PathBuf::new(),
            spare: Vec::new(),
            #[cfg(target_os = "linux")]
            buffer: vec![std::mem::MaybeUninit::uninit(); 32 * 1024],
        }
    }

    /// Walk everything below `task`, depth first in name order.
    pub fn run(&mut self, task: &Task) {
        let mut stack: Vec<Level> = Vec::new();
        if let Some(level) = self.read(task.path.clone(), task.depth) {
            stack.push(level);
        }
        while let Some(top) = stack.last_mut() {
            let at = top.next;
            let Some(entry) = top.listing.entries.get_mut(at) else {
                if let Some(done) = stack.pop() {
                    self.spare.push(done.listing);
                }
                continue;
            };
            top.next += 1;
            let file_type = std::mem::replace(&mut entry.kind, Ok(Kind::Other));
            let depth = top.depth + 1;
            let Some(top) = stack.last() else { break };
            let name = top.listing.name(at);
            let above = stack
                .iter()
                .rev()
                .map(|l| l.path.as_path())
                .chain(task.above.iter().rev().map(PathBuf::as_path));
            if let Some(dir) = self.entry(&top.path, name, file_type, depth, above) {
                if let Some(level) = self.read(dir, depth) {
                    stack.push(level);
                }
            }
        }
    }

    /// Read `task`'s directory and visit its entries, returning its subdirectories to read
    /// (in name order) instead of walking them.
    pub fn expand(&mut self, task: &Task) -> Vec<Task> {
        let Some(mut level) = self.read(task.path.clone(), task.depth) else {
            return Vec::new();
        };
        let depth = task.depth + 1;
        let mut next = Vec::new();
        for at in 0..level.listing.entries.len() {
            let file_type = match level.listing.entries.get_mut(at) {
                Some(entry) => std::mem::replace(&mut entry.kind, Ok(Kind::Other)),
                None => continue,
            };
            let name = level.listing.name(at);
            let above = std::iter::once(task.path.as_path())
                .chain(task.above.iter().rev().map(PathBuf::as_path));
            if let Some(path) = self.entry(&task.path, name, file_type, depth, above) {
                let mut above = task.above.clone();
                above.push(task.path.clone());
                next.push(Task { path, above, depth });
            }
        }
        self.spare.push(level.listing);
        next
    }

    /// Read a directory whole, sorted by name.
    fn read(&mut self, path: PathBuf, depth: usize) -> Option<Level> {
        let mut listing = self.spare.pop().unwrap_or_default();
        listing.clear();
        if let Err(err) = self.list(&path, &mut listing) {
            self.out.diagnostics.push(io_diagnostic(&err, &path));
            self.spare.push(listing);
            return None;
        }
        listing.sort();
        Some(Level {
            path,
            depth,
            listing,
            next: 0,
        })
    }

    /// The entries of the directory `path` (`.` and `..` left out), by `getdents64` into
    /// the walker's buffer: `std::fs::read_dir` allocates a `CString` per entry and a
    /// 32 KiB buffer per directory (~40% of the walk's instructions, bench/PROFILE.md
    /// item 153). An error past the opening ends the listing with a diagnostic, as
    /// `read_dir`'s iterator does.
    #[cfg(target_os = "linux")]
    fn list(&mut self, path: &Path, listing: &mut Listing) -> io::Result<()> {
        use rustix::fs::{FileType, Mode, OFlags, RawDir};
        use std::os::unix::ffi::OsStrExt;
        let dir = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let mut entries = RawDir::new(&dir, &mut self.buffer);
        while let Some(entry) = entries.next() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    self.out
                        .diagnostics
                        .push(io_diagnostic(&io::Error::from(err), path));
                    break;
                }
            };
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Directory => Ok(Kind::Dir),
                FileType::RegularFile => Ok(Kind::File),
                FileType::Symlink => Ok(Kind::Link),
                // `DT_UNKNOWN` (some file systems): an `lstat`, as std's `file_type` does.
                FileType::Unknown => std::fs::symlink_metadata(path.join(OsStr::from_bytes(name)))
                    .map(|m| Kind::of(m.file_type())),
                _ => Ok(Kind::Other),
            };
            listing.push(OsStr::from_bytes(name), kind);
        }
        Ok(())
    }

    /// The entries of the directory `path`.
    #[cfg(not(target_os = "linux"))]
    fn list(&mut self, path: &Path, listing: &mut Listing) -> io::Result<()> {
        for entry in std::fs::read_dir(path)? {
            match entry {
                Ok(entry) => listing.push(&entry.file_name(), entry.file_type().map(Kind::of)),
                Err(err) => self.out.diagnostics.push(io_diagnostic(&err, path)),
            }
        }
        Ok(())
    }

    /// Visit the entry `name` of the directory `parent` (at `depth`; `above`: the directories
    /// above it, nearest first). Returns the entry's path when it is a directory to read.
    fn entry<'p>(
        &mut self,
        parent: &Path,
        name: &OsStr,
        file_type: io::Result<Kind>,
        depth: usize,
        above: impl Iterator<Item = &'p Path>,
    ) -> Option<PathBuf> {
        let config = self.config;
        let path = &mut self.scratch;
        path.as_mut_os_string().clear();
        path.as_mut_os_string().push(parent.as_os_str());
        path.push(name);
        let listed = match file_type {
            Ok(t) => t,
            Err(err) => {
                self.out.diagnostics.push(io_diagnostic(&err, path));
                return None;
            }
        };
        let link = listed == Kind::Link;
        let mut followed = None;
        let file_type = if link && config.rules.follow_links {
            let meta = match std::fs::metadata(&*path) {
                Ok(meta) => meta,
                Err(err) => {
                    self.out.diagnostics.push(io_diagnostic(&err, path));
                    return None;
                }
            };
            if meta.is_dir() {
                if let Err(diagnostic) = check_loop(path, &meta, above) {
                    self.out.diagnostics.push(diagnostic);
                    return None;
                }
            }
            let kind = Kind::of(meta.file_type());
            followed = Some(meta);
            kind
        } else {
            listed
        };
        if file_type == Kind::Dir {
            if !self.keep_dir(name) {
                return None;
            }
            let path = self.scratch.clone();
            if config.stamp_dirs {
                let meta = followed.map_or_else(|| std::fs::symlink_metadata(&path), Ok);
                self.out
                    .dirs
                    .push((path.clone(), meta.ok().map(|m| Stamp::of(&m))));
            }
            if config.limit.is_some_and(|limit| depth >= limit) {
                return None;
            }
            return Some(path);
        }
        if config.rules.skip_symlinked_files && link {
            // The rule of `lists_file`, without a second `lstat`.
            return None;
        }
        self.file(name, file_type);
        None
    }

    /// The entry filter for a directory below the root (`scratch` is its path): note a
    /// plugin marker, refuse an excluded name, count it against `max_dirs`.
    fn keep_dir(&mut self, name: &OsStr) -> bool {
        let config = self.config;
        let name = name.to_string_lossy();
        if config.markers.iter().any(|m| *m == name) {
            if let Some(parent) = self.scratch.parent() {
                self.out.plugin_dirs.push(parent.to_path_buf());
            }
        }
        if super::dir_excluded(&name, config.rules.hidden, &config.rules.skip).is_some() {
            return false;
        }
        if let Some(max) = config.rules.max_dirs {
            if config.dirs.fetch_add(1, Ordering::Relaxed) >= max {
                config.truncated.store(true, Ordering::Relaxed);
                return false;
            }
        }
        true
    }

    /// A file (or anything not a directory) at `scratch`: kept when it matches the root's
    /// pattern or its loose pattern.
    fn file(&mut self, name: &OsStr, file_type: Kind) {
        let config = self.config;
        let Some(rel) = super::relative_to(&self.scratch, config.root) else {
            return;
        };
        let loose = if config.globs.glob.is_match(rel) {
            false
        } else if let (Some(glob), Some(rules)) = (&config.globs.loose, config.loose) {
            if !glob.is_match(rel)
                || !super::super::loose::keeps_name(rules, &name.to_string_lossy())
            {
                return;
            }
            true
        } else {
            return;
        };
        self.out.files.push(WalkedFile {
            regular: file_type == Kind::File,
            path: self.scratch.as_path().into(),
            root_depth: config.root_depth,
            loose,
        });
    }
}

/// Whether the directory `child` (a followed link, `meta` its target's metadata) is one of
/// the directories `above` it, nearest first: the one it leads back to is the diagnostic.
fn check_loop<'p>(
    child: &Path,
    meta: &Metadata,
    above: impl Iterator<Item = &'p Path>,
) -> Result<(), Diagnostic> {
    let Some(id) = identity(meta) else {
        return Ok(());
    };
    for ancestor in above {
        let theirs = std::fs::metadata(ancestor).map_err(|err| io_diagnostic(&err, child))?;
        if identity(&theirs) == Some(id) {
            return Err(loop_diagnostic(ancestor, child));
        }
    }
    Ok(())
}

/// Device and inode: what `same-file`'s `Handle` compares on Unix.
#[cfg(unix)]
fn identity(meta: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

/// Without inodes (std has no stable file index elsewhere), a loop is not detected here; it
/// ends at the depth limit.
#[cfg(not(unix))]
fn identity(_meta: &Metadata) -> Option<(u64, u64)> {
    None
}

/// `errno` for "too many levels of symbolic links" (links pointing at each other).
#[cfg(target_os = "linux")]
const ELOOP: i32 = 40;
#[cfg(not(target_os = "linux"))]
const ELOOP: i32 = 62;

pub(super) fn loop_diagnostic(ancestor: &Path, child: &Path) -> Diagnostic {
    Diagnostic::warning(
        "symlink-loop",
        format!(
            "symbolic link loop: this directory leads back to {}",
            ancestor.display()
        ),
    )
    .with_path(child)
    .with_hint("remove the link or point it outside its own parent directories")
}

/// A failed `stat` or directory read at `path`; the walk goes on.
pub(super) fn io_diagnostic(io: &io::Error, path: &Path) -> Diagnostic {
    if io.raw_os_error() == Some(ELOOP) {
        return Diagnostic::warning(
            "symlink-loop",
            "symbolic links point at each other and never reach a file or directory",
        )
        .with_path(path)
        .with_hint("remove or repoint one of the links");
    }
    match io.kind() {
        io::ErrorKind::NotFound => {
            Diagnostic::warning("dangling-symlink", "symbolic link points to nothing")
                .with_path(path)
                .with_hint("remove the link or restore its target")
        }
        io::ErrorKind::PermissionDenied => Diagnostic::warning(
            "unreadable-dir",
            format!("cannot read this directory: {io}"),
        )
        .with_path(path)
        .with_hint("fix its permissions, or ignore this if it holds no skills"),
        _ => Diagnostic::warning("walk-error", io.to_string()).with_path(path),
    }
}
