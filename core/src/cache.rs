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

    /// The stamp of a raw `stat` result; equal to [`Stamp::of`] for the same file.
    #[cfg(unix)]
    pub fn of_stat(st: &rustix::fs::Stat) -> Stamp {
        // Field widths differ between platforms; widening through i128 fits them all.
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        Stamp {
            size: i128::from(st.st_size) as u64,
            mtime_ns: i128::from(st.st_mtime) * 1_000_000_000 + i128::from(st.st_mtime_nsec),
            inode: i128::from(st.st_ino) as u64,
            device: i128::from(st.st_dev) as u64,
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
///
/// Paths below a walked root are kept relative to it: a check opens each root once and
/// stats its entries from there (`fstatat`), so a lookup starts at the root instead of at
/// `/`. In deep trees the full-path lookups were most of the cost of a no-change load.
///
/// A reloadable deck keeps one entry per walked directory for its life (21,434 on the
/// real-world benchmark tree), so they are stored as a tree: each entry below a base names
/// only what its path adds to its parent entry's (one component, for the walk's sorted
/// directories), and a check rebuilds the paths in one reused buffer as it goes. Whole
/// relative paths repeated every prefix, four times the bytes of the names alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    bases: Vec<PathBuf>,
    /// Paths kept whole ([`Entry::at`] indexes here when [`Entry::up`] is [`ABSOLUTE`]):
    /// few, so the common entry does not carry a `PathBuf`'s width.
    absolute: Vec<PathBuf>,
    entries: Vec<Entry>,
    /// What each entry below a base adds to its parent's path, NUL-terminated, back to
    /// back: a check joins an entry's names into one reused buffer, walking them in order.
    names: Vec<u8>,
    /// The entries' stamps' wide halves.
    wide: WideHalves,
    /// Paths whose mere existence matters (`.git` markers: their mtimes change with every
    /// git command, which must not invalidate the cache).
    exists: Vec<(PathBuf, bool)>,
    /// While pushing: the last pushed entry's ancestors below its base, to find the next
    /// entry's parent. Dropped by [`Fingerprint::shrink_to_fit`]; a push without it only
    /// stores a longer name.
    building: Chain,
}

/// `Entry::up` of an entry kept whole.
const ABSOLUTE: u32 = u32::MAX;
/// Set in `Entry::up` of an entry without a parent entry: the rest is its base's index.
const BASE: u32 = 1 << 31;
/// `SlimStamp::wide` of a path that did not exist.
const ABSENT: u32 = u32::MAX;

/// An `Option<Stamp>` in 28 bytes (a [`Stamp`] alone is 48, an `Option<Stamp>` 64): the
/// size, inode and low half of the mtime, the rest as an index into a [`WideHalves`].
/// Aligned to 4 so that no padding follows the `u32`: a reloadable deck keeps one per
/// walked directory and file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
struct SlimStamp {
    size: u64,
    mtime_lo: u64,
    inode: u64,
    /// The stamp's (device, high half of the mtime) in its [`WideHalves`], or [`ABSENT`].
    wide: u32,
}

/// The distinct (device, high half of the mtime) pairs of a list of [`SlimStamp`]s: one or
/// two per file system (the high half is 0 from 1970 to 2262), so a stamp keeps a 4-byte
/// index here instead of 16 bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct WideHalves(Vec<(u64, i64)>);

impl WideHalves {
    fn pack(&mut self, stamp: Option<Stamp>) -> SlimStamp {
        let (packed, present) = PackedStamp::pack(stamp);
        let key = (packed.device, packed.mtime_hi);
        let wide = match present {
            false => ABSENT,
            true => match self.0.iter().rposition(|w| *w == key) {
                Some(i) => u32::try_from(i).unwrap_or(ABSENT),
                None => {
                    self.0.push(key);
                    // Four billion distinct devices cannot happen; were it to, the stamp
                    // would read as absent and so as changed, never as current.
                    u32::try_from(self.0.len() - 1).unwrap_or(ABSENT)
                }
            },
        };
        SlimStamp {
            size: packed.size,
            mtime_lo: packed.mtime_lo,
            inode: packed.inode,
            wide,
        }
    }

    fn unpack(&self, stamp: &SlimStamp) -> Option<Stamp> {
        let &(device, mtime_hi) = self.0.get(stamp.wide as usize)?;
        Some(
            PackedStamp {
                size: stamp.size,
                mtime_lo: stamp.mtime_lo,
                mtime_hi,
                inode: stamp.inode,
                device,
            }
            .get(),
        )
    }

    fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

/// One recorded path and its stamp in 36 bytes: a deck keeps one per walked directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
struct Entry {
    stamp: SlimStamp,
    /// The parent entry's index (always lower than this entry's), `BASE | base`, or
    /// [`ABSOLUTE`].
    up: u32,
    /// Where this entry's path is: its name's offset in `names`, or (for [`ABSOLUTE`]) its
    /// index in `absolute`.
    at: u32,
}

/// The ancestors of the path in `path` that are entries: (entry, length of its path in
/// `path`), outermost first. A check keeps one per chunk so that siblings reuse their
/// parent's path; a fingerprint keeps one while pushing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Chain {
    base: Option<u32>,
    links: Vec<(u32, usize)>,
    path: Vec<u8>,
}

/// A [`Stamp`] in 8-byte-aligned words, the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PackedStamp {
    size: u64,
    mtime_lo: u64,
    mtime_hi: i64,
    inode: u64,
    device: u64,
}

impl PackedStamp {
    fn pack(stamp: Option<Stamp>) -> (PackedStamp, bool) {
        let s = stamp.unwrap_or(Stamp {
            size: 0,
            mtime_ns: 0,
            inode: 0,
            device: 0,
        });
        let packed = PackedStamp {
            size: s.size,
            // The i128's two halves, exact: joined again in `unpack`.
            mtime_lo: s.mtime_ns as u64,
            mtime_hi: (s.mtime_ns >> 64) as i64,
            inode: s.inode,
            device: s.device,
        };
        (packed, stamp.is_some())
    }

    fn get(self) -> Stamp {
        Stamp {
            size: self.size,
            mtime_ns: (i128::from(self.mtime_hi) << 64) | i128::from(self.mtime_lo),
            inode: self.inode,
            device: self.device,
        }
    }
}

/// What a check found: the entries whose stamp differs now, by push index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub entries: Vec<usize>,
    /// A path recorded with [`Fingerprint::push_exists`] appeared or vanished.
    pub markers: bool,
}

impl Changes {
    /// Nothing changed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && !self.markers
    }
}

impl Fingerprint {
    pub fn push(&mut self, path: PathBuf, stamp: Option<Stamp>) {
        // Past 4 billion whole paths the index cannot be packed; such a fingerprint is not
        // possible in memory anyway, but the entry is still never lost: it stays unchecked
        // as "changed" through a missing path.
        let index = u32::try_from(self.absolute.len()).unwrap_or(u32::MAX);
        self.absolute.push(path);
        let entry = self.entry(stamp, ABSOLUTE, index);
        self.entries.push(entry);
    }

    /// An entry at `up`/`at` with `stamp`, its wide half interned.
    fn entry(&mut self, stamp: Option<Stamp>, up: u32, at: u32) -> Entry {
        Entry {
            stamp: self.wide.pack(stamp),
            up,
            at,
        }
    }

    /// The stamp `entry` records.
    fn stamp(&self, entry: &Entry) -> Option<Stamp> {
        self.wide.unpack(&entry.stamp)
    }

    /// Give back the spare capacity of a finished fingerprint: a deck keeps its
    /// fingerprints for its whole life, and grown vectors are up to twice their length.
    pub fn shrink_to_fit(&mut self) {
        self.bases.shrink_to_fit();
        self.absolute.shrink_to_fit();
        self.entries.shrink_to_fit();
        self.names.shrink_to_fit();
        self.wide.shrink_to_fit();
        self.exists.shrink_to_fit();
        self.building = Chain::default();
    }

    /// Record `path`, found below `base` (a walked root), relative to it. Pushing a
    /// directory right after its parent or a sibling (the walk's sorted order) stores only
    /// its name.
    #[cfg(unix)]
    pub fn push_under(&mut self, base: &Path, path: PathBuf, stamp: Option<Stamp>) {
        use std::os::unix::ffi::OsStrExt;
        let rel = match into_relative(path, base) {
            Ok(rel) => rel,
            Err(path) => return self.push(path, stamp),
        };
        let bytes = rel.as_os_str().as_bytes();
        let index = match self
            .bases
            .iter()
            .rposition(|b| b.as_os_str() == base.as_os_str())
        {
            Some(i) => i,
            None => {
                self.bases.push(base.to_path_buf());
                self.bases.len() - 1
            }
        };
        // A NUL cannot be in a path the system listed; a base index, entry count or name
        // buffer past 2 GiB would need wider fields. Either way the path is kept whole.
        let (Ok(index), Ok(entry), Ok(start)) = (
            u32::try_from(index),
            u32::try_from(self.entries.len()),
            u32::try_from(self.names.len()),
        ) else {
            return self.push(base.join(rel), stamp);
        };
        if bytes.contains(&0) || index >= BASE || entry >= BASE {
            return self.push(base.join(rel), stamp);
        }
        let chain = &mut self.building;
        if chain.base != Some(index) {
            *chain = Chain {
                base: Some(index),
                ..Chain::default()
            };
        }
        let (up, name) = chain.parent_of(bytes).unwrap_or((BASE | index, bytes));
        self.names.extend_from_slice(name);
        self.names.push(0);
        chain.links.push((entry, bytes.len()));
        chain.path.clear();
        chain.path.extend_from_slice(bytes);
        let entry = self.entry(stamp, up, start);
        self.entries.push(entry);
    }

    /// Record `path` (found below `base`). Only unix checks from an open base; elsewhere
    /// the path is kept whole.
    #[cfg(not(unix))]
    pub fn push_under(&mut self, _base: &Path, path: PathBuf, stamp: Option<Stamp>) {
        self.push(path, stamp);
    }

    pub fn push_exists(&mut self, path: PathBuf) {
        let exists = std::fs::symlink_metadata(&path).is_ok();
        self.exists.push((path, exists));
    }

    /// Record that entry `index` (a push index) now has `stamp`.
    #[cfg(test)]
    pub fn update(&mut self, index: usize, stamp: Option<Stamp>) {
        if let Some(&Entry { up, at, .. }) = self.entries.get(index) {
            let entry = self.entry(stamp, up, at);
            self.entries[index] = entry;
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len() + self.exists.len()
    }

    /// Re-`stat` everything and report whether all of it is as recorded.
    #[cfg(test)]
    pub fn is_current(&self) -> bool {
        check_all(&[self]).iter().all(Changes::is_empty)
    }

    fn markers_changed(&self) -> bool {
        self.exists
            .iter()
            .any(|(p, e)| std::fs::symlink_metadata(p).is_ok() != *e)
    }

    /// What entry `index` adds to its parent's path, without its NUL.
    fn name(&self, index: u32) -> Option<&[u8]> {
        let entry = self.entries.get(index as usize)?;
        let rest = self.names.get(entry.at as usize..)?;
        Some(std::ffi::CStr::from_bytes_until_nul(rest).ok()?.to_bytes())
    }

    /// Put entry `index`'s path below its base in `chain.path` (reusing what the chain
    /// already holds of its ancestors) and return the base; `None` when the entry is kept
    /// whole or its links are broken.
    fn rebuild(&self, index: u32, chain: &mut Chain, missing: &mut Vec<u32>) -> Option<u32> {
        missing.clear();
        let mut at = index;
        loop {
            if let Some(pos) = chain.links.iter().rposition(|&(e, _)| e == at) {
                chain.links.truncate(pos + 1);
                break;
            }
            missing.push(at);
            let up = self.entries.get(at as usize)?.up;
            if up == ABSOLUTE {
                return None;
            }
            if up & BASE != 0 {
                chain.links.clear();
                chain.base = Some(up & !BASE);
                break;
            }
            // Parents are pushed before their children: this also ends every loop.
            if up >= at {
                return None;
            }
            at = up;
        }
        chain
            .path
            .truncate(chain.links.last().map_or(0, |&(_, end)| end));
        for &entry in missing.iter().rev() {
            // No separator after the base's own (empty) path.
            if !chain.path.is_empty() {
                chain.path.push(b'/');
            }
            chain.path.extend_from_slice(self.name(entry)?);
            chain.links.push((entry, chain.path.len()));
        }
        chain.base
    }

    /// The indices in `range` whose stamp differs now.
    fn changed_in(&self, range: std::ops::Range<usize>) -> Vec<usize> {
        let mut bases = OpenBases::new(&self.bases);
        let mut chain = Chain::default();
        let mut missing = Vec::new();
        let mut changed = Vec::new();
        for (index, entry) in self.entries[range.clone()].iter().enumerate() {
            let index = range.start + index;
            let now = if entry.up == ABSOLUTE {
                self.absolute
                    .get(entry.at as usize)
                    .and_then(|path| Stamp::read(path))
            } else {
                u32::try_from(index)
                    .ok()
                    .and_then(|i| self.rebuild(i, &mut chain, &mut missing))
                    .and_then(|base| {
                        let empty = chain.path.is_empty();
                        chain.path.push(0);
                        let now = std::ffi::CStr::from_bytes_with_nul(&chain.path)
                            .ok()
                            .and_then(|rel| bases.stamp(base as usize, rel, empty));
                        chain.path.pop();
                        now
                    })
            };
            if now != self.stamp(entry) {
                changed.push(index);
            }
        }
        changed
    }
}

impl Chain {
    /// The last pushed entry that is an ancestor of `rel`, and what `rel` adds to its path.
    #[cfg_attr(not(unix), allow(dead_code))]
    fn parent_of<'r>(&mut self, rel: &'r [u8]) -> Option<(u32, &'r [u8])> {
        while let Some(&(entry, end)) = self.links.last() {
            let prefix = self.path.get(..end)?;
            let name = match rel.strip_prefix(prefix) {
                // Below the base itself (an empty path): all of `rel`.
                Some(rest) if end == 0 && !rest.is_empty() => Some(rest),
                Some([b'/', rest @ ..]) if !rest.is_empty() && end > 0 => Some(rest),
                _ => None,
            };
            match name {
                Some(name) => return Some((entry, name)),
                None => {
                    self.links.pop();
                }
            }
        }
        None
    }
}

/// `path` relative to `base`, reusing the path's buffer (a fingerprint takes over tens of
/// thousands of walked paths); `Err(path)` when `base` is not a prefix of it. Compares
/// bytes: the walk builds every path by joining onto its root, and a component-wise
/// `strip_prefix` per path was a measurable part of a cold load.
#[cfg(unix)]
fn into_relative(path: PathBuf, base: &Path) -> Result<PathBuf, PathBuf> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let prefix = base.as_os_str().as_bytes();
    let bytes = path.as_os_str().as_bytes();
    let rest = match bytes.strip_prefix(prefix) {
        Some([]) => 0,
        Some([b'/', ..]) => bytes.len() - prefix.len() - 1,
        // `base` ends with a separator (the root `/`).
        Some(_) if prefix.ends_with(b"/") => bytes.len() - prefix.len(),
        _ => return Err(path),
    };
    let mut bytes = path.into_os_string().into_vec();
    bytes.drain(..bytes.len() - rest);
    Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn into_relative(path: PathBuf, base: &Path) -> Result<PathBuf, PathBuf> {
    match path.strip_prefix(base) {
        Ok(rel) => Ok(rel.to_path_buf()),
        Err(_) => Err(path),
    }
}

/// [`check_all_with_files`] without files.
#[cfg(test)]
pub fn check_all(prints: &[&Fingerprint]) -> Vec<Changes> {
    check_all_with_files(prints, &FileStamps::default(), &FilePaths::default()).0
}

/// The stamps of a walk's files in walk order, without their paths: the walk's own list
/// has those ([`FilePaths`]), and a reloadable deck keeps both for its life, where a
/// [`Fingerprint`] kept a second copy of every file's relative path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileStamps {
    stamps: Vec<SlimStamp>,
    wide: WideHalves,
}

impl FileStamps {
    pub fn with_capacity(n: usize) -> FileStamps {
        FileStamps {
            stamps: Vec::with_capacity(n),
            wide: WideHalves::default(),
        }
    }

    /// Record the next file's stamp (`None`: it could not be `stat`ed).
    pub fn push(&mut self, stamp: Option<Stamp>) {
        let slim = self.wide.pack(stamp);
        self.stamps.push(slim);
    }

    /// Record that file `index` now has `stamp`.
    pub fn update(&mut self, index: usize, stamp: Option<Stamp>) {
        if index < self.stamps.len() {
            self.stamps[index] = self.wide.pack(stamp);
        }
    }

    pub fn shrink_to_fit(&mut self) {
        self.stamps.shrink_to_fit();
        self.wide.shrink_to_fit();
    }

    /// Whether a file other than `index` has `identity` (device, inode): the same file
    /// reached through another path, which a discovery loads once.
    pub fn identity_elsewhere(&self, index: usize, identity: (u64, u64)) -> bool {
        (0..self.len())
            .any(|i| i != index && self.get(i).is_some_and(|s| (s.device, s.inode) == identity))
    }

    fn len(&self) -> usize {
        self.stamps.len()
    }

    fn get(&self, index: usize) -> Option<Stamp> {
        self.wide.unpack(self.stamps.get(index)?)
    }

    /// The indices in `range` whose stamp differs now (an index past either list counts
    /// as changed).
    fn changed_in(&self, paths: &FilePaths<'_>, range: std::ops::Range<usize>) -> Vec<usize> {
        let mut bases = OpenBases::new(&paths.bases);
        let mut changed = Vec::new();
        for index in range {
            let (Some(&(base, path)), true) = (paths.files.get(index), index < self.len()) else {
                changed.push(index);
                continue;
            };
            let now = match relative(path, paths.bases.get(base).copied()) {
                Some(rel) => bases.stamp(base, rel, rel.as_os_str().is_empty()),
                None => Stamp::read(path),
            };
            if now != self.get(index) {
                changed.push(index);
            }
        }
        changed
    }
}

/// The files a [`FileStamps`] records, in its order, each with the index in `bases` of the
/// walked root it was found below (a check `stat`s it from there, as a [`Fingerprint`]
/// does its entries below a base).
#[derive(Debug, Default)]
pub struct FilePaths<'a> {
    pub bases: Vec<&'a Path>,
    pub files: Vec<(usize, &'a Path)>,
}

/// `path` below `base`, borrowed (see [`into_relative`]); `None` when it is not below it.
#[cfg(unix)]
fn relative<'p>(path: &'p Path, base: Option<&Path>) -> Option<&'p Path> {
    use std::os::unix::ffi::OsStrExt;
    let prefix = base?.as_os_str().as_bytes();
    let bytes = path.as_os_str().as_bytes();
    let rest = match bytes.strip_prefix(prefix) {
        Some([]) => &[][..],
        Some([b'/', rest @ ..]) => rest,
        Some(rest) if prefix.ends_with(b"/") => rest,
        _ => return None,
    };
    Some(Path::new(std::ffi::OsStr::from_bytes(rest)))
}

/// Without `fstatat` every file is `stat`ed by its whole path.
#[cfg(not(unix))]
fn relative<'p>(_path: &'p Path, _base: Option<&Path>) -> Option<&'p Path> {
    None
}

/// Check several fingerprints, and the walked files' stamps against `paths`, in one
/// parallel pass (one result per fingerprint, in order, then the files'): a no-change load
/// is nothing but this pass, and one pass over all entries keeps both cores busy where a
/// pass per fingerprint waited for its slowest half each time.
pub fn check_all_with_files(
    prints: &[&Fingerprint],
    files: &FileStamps,
    paths: &FilePaths<'_>,
) -> (Vec<Changes>, Changes) {
    // Large enough that opening a chunk's roots is noise, small enough to balance.
    const CHUNK: usize = 1024;
    let mut tasks = Vec::new();
    for (which, print) in prints.iter().enumerate() {
        let n = print.entries.len();
        tasks.extend(
            (0..n)
                .step_by(CHUNK)
                .map(|start| (which, start..n.min(start + CHUNK))),
        );
    }
    let n = files.len().max(paths.files.len());
    tasks.extend(
        (0..n)
            .step_by(CHUNK)
            .map(|start| (prints.len(), start..n.min(start + CHUNK))),
    );
    // Each result names its task: a task lost to a panic in `par` (a bug) must not shift
    // the results after it onto the wrong entries; it counts as all changed instead.
    let mut found: Vec<Option<Vec<usize>>> = vec![None; tasks.len()];
    let numbered: Vec<usize> = (0..tasks.len()).collect();
    for (task, changed) in crate::par::map(&numbered, 1, |&task| {
        let changed = tasks
            .get(task)
            .map(|(which, range)| match prints.get(*which) {
                Some(print) => print.changed_in(range.clone()),
                None => files.changed_in(paths, range.clone()),
            });
        (task, changed)
    }) {
        if let Some(slot) = found.get_mut(task) {
            *slot = changed;
        }
    }
    let mut out: Vec<Changes> = prints
        .iter()
        .map(|p| Changes {
            entries: Vec::new(),
            markers: p.markers_changed(),
        })
        .collect();
    let mut file_changes = Changes::default();
    for ((which, range), changed) in tasks.iter().zip(found) {
        let changed = changed.unwrap_or_else(|| range.clone().collect());
        match out.get_mut(*which) {
            Some(changes) => changes.entries.extend(changed),
            None => file_changes.entries.extend(changed),
        }
    }
    (out, file_changes)
}

/// The bases of one fingerprint, each opened on first use during one check.
struct OpenBases<'a, P: AsRef<Path>> {
    // Read only where entries can be base-relative (unix).
    #[cfg_attr(not(unix), allow(dead_code))]
    paths: &'a [P],
    #[cfg(unix)]
    open: Vec<Option<Option<rustix::fd::OwnedFd>>>,
}

impl<'a, P: AsRef<Path>> OpenBases<'a, P> {
    fn new(paths: &'a [P]) -> OpenBases<'a, P> {
        OpenBases {
            paths,
            #[cfg(unix)]
            open: std::iter::repeat_with(|| None).take(paths.len()).collect(),
        }
    }

    /// The stamp of `rel` below base `index` (`rel` empty: the base itself).
    #[cfg(unix)]
    fn stamp<R: rustix::path::Arg>(&mut self, index: usize, rel: R, empty: bool) -> Option<Stamp> {
        use rustix::fs::{AtFlags, Mode, OFlags};
        let (Some(slot), Some(path)) = (self.open.get_mut(index), self.paths.get(index)) else {
            return None;
        };
        let fd = slot.get_or_insert_with(|| {
            // O_PATH: only a handle to look up from, no read permission needed.
            rustix::fs::open(
                path.as_ref(),
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok()
        });
        // The base is gone or no longer a directory: so is everything below it.
        let fd = fd.as_ref()?;
        let stat = if empty {
            rustix::fs::fstat(fd)
        } else {
            rustix::fs::statat(fd, rel, AtFlags::empty())
        };
        stat.ok().map(|st| Stamp::of_stat(&st))
    }

    /// Without `fstatat` every entry is kept whole ([`Fingerprint::push_under`]).
    #[cfg(not(unix))]
    fn stamp<R>(&mut self, _index: usize, _rel: R, _empty: bool) -> Option<Stamp> {
        None
    }
}

/// Parsed frontmatter per file, reused while the file's stamp is unchanged.
#[derive(Clone, Debug, Default)]
pub struct ParseCache {
    // Shared entries: a cache hit costs a reference count, not a deep copy of the manifest.
    map: HashMap<Key, std::sync::Arc<CachedParse>>,
}

/// A cache key: the walked path, hashed and compared by its bytes (the walk builds every
/// path the same way; hashing a `Path` walks its components, a measurable cost at one
/// lookup per file). It shares its buffer with the entry's `location` when they are the
/// same path, as they are unless a profile resolves links: one copy of each path per
/// cached file instead of two.
#[derive(Clone, Debug)]
struct Key(std::sync::Arc<Path>);

impl Key {
    fn bytes(&self) -> &[u8] {
        self.0.as_os_str().as_encoded_bytes()
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // As `[u8]` hashes, so lookups by `&[u8]` (the `Borrow` below) find the entry.
        self.bytes().hash(state);
    }
}

impl std::borrow::Borrow<[u8]> for Key {
    fn borrow(&self) -> &[u8] {
        self.bytes()
    }
}

/// One cached read: what naming a file and building its candidate need, and no more. A
/// reloadable deck keeps one per walked file (shadowed ones too), so everything here is
/// memory held per file for the deck's life:
/// - the manifest, shared with every catalog built from this read;
/// - only the keys naming reads (`name`, `description`, the profile's field rules), not
///   every key of the frontmatter;
/// - the lenient validation at `location`, not the parse's own diagnostics and strict
///   notes (those are inside `checked` already, or only needed for strict validation,
///   which reads the file again).
#[derive(Clone, Debug)]
pub struct CachedParse {
    /// The file's stamp when read ([`CachedParse::stamp`]), packed: a `Stamp`'s `i128`
    /// aligns the whole entry to 16 bytes.
    stamp: PackedStamp,
    pub manifest: Frontmatter,
    /// The keys naming reads, by their index in the profile's list of them (see
    /// [`CachedKey`]).
    pub keys: Box<[CachedKey]>,
    /// The file starts with a UTF-8 byte-order mark.
    pub bom: bool,
    /// Where the skill is reported (the walked path, or its real path for profiles that
    /// resolve links) and the lenient validation of the parse at that location.
    pub location: std::sync::Arc<Path>,
    /// Shared with the file's skill when naming added nothing (`Skill::diagnostics`).
    pub checked: std::sync::Arc<[crate::diagnostic::Diagnostic]>,
}

/// A key of the frontmatter as a cache entry keeps it: what a [`crate::parse::KeyInfo`]
/// says, with the key's name as an index into the profile's list of keys naming reads (the
/// caller's numbering: the same profile gives the same list) instead of a `String`. 12
/// bytes and no allocation where a `KeyInfo` is 40 and one: a deck keeps a few per file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachedKey {
    pub line: u32,
    pub column: u32,
    pub index: u16,
    kind: crate::parse::ValueKind,
    lax_bool: bool,
    texts: bool,
}

impl CachedKey {
    /// The key as the parse reported it, without its name (which naming already knows).
    pub fn info(&self) -> crate::parse::KeyInfo {
        crate::parse::KeyInfo {
            key: String::new(),
            line: self.line,
            column: self.column,
            kind: self.kind,
            lax_bool: self.lax_bool,
            texts: self.texts,
            unread: false,
        }
    }
}

/// A cached file's frontmatter as naming reads it.
#[derive(Clone, Debug)]
pub enum Frontmatter {
    /// The manifest, shared with every catalog built from this read.
    Whole(std::sync::Arc<crate::manifest::Manifest>),
    /// Only what naming reads (see `candidates::slim`), and `checked` holds only errors:
    /// kept for a file whose skill lost to another (on a tree with many duplicate names, a
    /// third of a reloadable deck's files). A discovery in which such a file's skill loads
    /// reads the file again.
    Slim(Box<SlimFields>),
}

/// The fields of a slim entry's frontmatter: the name, and the description (empty when
/// naming reads only whether there is one).
#[derive(Clone, Debug, Default)]
pub struct SlimFields {
    pub name: Option<Box<str>>,
    pub description: Option<Box<str>>,
}

impl Frontmatter {
    /// The manifest naming starts from: the whole one, or one holding only the slim fields.
    pub fn manifest(&self) -> std::sync::Arc<crate::manifest::Manifest> {
        match self {
            Frontmatter::Whole(manifest) => std::sync::Arc::clone(manifest),
            Frontmatter::Slim(fields) => std::sync::Arc::new(crate::manifest::Manifest {
                name: fields.name.as_deref().map(Into::into),
                description: fields.description.as_deref().map(Into::into),
                ..crate::manifest::Manifest::default()
            }),
        }
    }
}

impl CachedParse {
    /// The file's stamp when it was read.
    pub fn stamp(&self) -> Stamp {
        self.stamp.get()
    }

    /// A copy of this read with another frontmatter and lenient validation (see
    /// [`Frontmatter::Slim`]).
    pub fn with(
        &self,
        manifest: Frontmatter,
        checked: std::sync::Arc<[crate::diagnostic::Diagnostic]>,
    ) -> CachedParse {
        CachedParse {
            stamp: self.stamp,
            manifest,
            keys: self.keys.clone(),
            bom: self.bom,
            location: std::sync::Arc::clone(&self.location),
            checked,
        }
    }

    /// See [`Frontmatter::Slim`].
    pub fn is_slim(&self) -> bool {
        matches!(self.manifest, Frontmatter::Slim(_))
    }
}

impl CachedParse {
    /// Store `parsed` (read when the file had `stamp`), found at `location` with the lenient
    /// validation `checked`, keeping the keys `key_index` numbers.
    pub fn new(
        stamp: Stamp,
        parsed: Parsed,
        bom: bool,
        location: std::sync::Arc<Path>,
        checked: Vec<crate::diagnostic::Diagnostic>,
        key_index: impl Fn(&str) -> Option<u16>,
    ) -> CachedParse {
        let keys: Vec<CachedKey> = parsed
            .keys
            .iter()
            // An entry the host does not read (a snake_case spelling beside the dashed one,
            // an unused repeat) is never checked against the field's rules.
            .filter(|k| !k.unread)
            .filter_map(|k| {
                Some(CachedKey {
                    line: k.line,
                    column: k.column,
                    index: key_index(&k.key)?,
                    kind: k.kind,
                    lax_bool: k.lax_bool,
                    texts: k.texts,
                })
            })
            .collect();
        // Kept for the deck's life: one copy of the path for the file's diagnostics and its
        // location, and (as a shared slice) no spare capacity.
        let mut checked = checked;
        let shared = crate::SharedPath::from(std::sync::Arc::clone(&location));
        crate::diagnostic::Diagnostic::share_path(&mut checked, &shared);
        CachedParse {
            stamp: PackedStamp::pack(Some(stamp)).0,
            manifest: Frontmatter::Whole(std::sync::Arc::new(parsed.manifest)),
            keys: keys.into_boxed_slice(),
            bom,
            location,
            checked: crate::diagnostic::Diagnostic::shared(checked),
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
        self.entry(path).filter(|c| c.stamp() == *stamp)
    }

    /// Every entry, in no particular order, to be replaced in place.
    pub fn entries_mut(&mut self) -> impl Iterator<Item = &mut std::sync::Arc<CachedParse>> {
        self.map.values_mut()
    }

    /// The entry of `path`, whatever its stamp.
    pub fn entry(&self, path: &Path) -> Option<&std::sync::Arc<CachedParse>> {
        self.map.get(path.as_os_str().as_encoded_bytes())
    }

    /// Cache `entry` as the read of the walked file `path`.
    pub fn insert(&mut self, path: &Path, entry: std::sync::Arc<CachedParse>) {
        let bytes = path.as_os_str().as_encoded_bytes();
        let key = if entry.location.as_os_str().as_encoded_bytes() == bytes {
            Key(std::sync::Arc::clone(&entry.location))
        } else {
            Key(std::sync::Arc::from(path))
        };
        self.map.insert(key, entry);
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
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

    #[cfg(unix)]
    #[test]
    fn a_raw_stat_stamps_like_std() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("f");
        std::fs::write(&file, "abc").unwrap();
        for path in [t.path(), file.as_path()] {
            let raw = rustix::fs::stat(path).unwrap();
            assert_eq!(Some(Stamp::of_stat(&raw)), Stamp::read(path));
        }
    }

    #[test]
    fn entries_below_a_base_are_checked_from_it() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let file = root.join("a/SKILL.md");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "a").unwrap();
        let mut fp = Fingerprint::default();
        fp.push_under(&root, root.clone(), Stamp::read(&root));
        fp.push_under(&root, file.clone(), Stamp::read(&file));
        fp.push_under(&root, root.join("a/absent"), None);
        fp.push_under(&root, t.path().join("outside"), None);
        assert!(fp.is_current());

        std::fs::write(&file, "ab").unwrap();
        assert_eq!(check_all(&[&fp])[0].entries, [1]);
        fp.update(1, Stamp::read(&file));
        assert!(fp.is_current());

        // The base moved away: its own entry and every entry below it changed.
        std::fs::rename(&root, t.path().join("moved")).unwrap();
        assert_eq!(check_all(&[&fp])[0].entries, [0, 1]);
    }

    #[cfg(unix)]
    #[test]
    fn relative_entries_keep_any_bytes_and_their_order() {
        use std::os::unix::ffi::OsStrExt;
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let odd = root.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
        std::fs::create_dir_all(&odd).unwrap();
        let mut fp = Fingerprint::default();
        let mut expected = Vec::new();
        for i in 0..50 {
            let file = odd.join(format!("f{i}"));
            std::fs::write(&file, "x").unwrap();
            fp.push_under(&root, file.clone(), Stamp::read(&file));
            expected.push(file);
        }
        fp.push_under(&root, odd.clone(), Stamp::read(&odd));
        assert!(fp.is_current());
        std::fs::write(&expected[17], "longer").unwrap();
        std::fs::write(&expected[42], "longer").unwrap();
        assert_eq!(check_all(&[&fp])[0].entries, [17, 42]);
    }

    #[test]
    fn file_stamps_are_checked_against_the_walks_paths() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let a = root.join("a/SKILL.md");
        let b = root.join("b/SKILL.md");
        let outside = t.path().join("elsewhere/SKILL.md");
        for file in [&a, &b, &outside] {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, "x").unwrap();
        }
        let gone = root.join("c/SKILL.md");
        let mut stamps = FileStamps::with_capacity(4);
        for file in [&a, &b, &outside, &gone] {
            stamps.push(Stamp::read(file));
        }
        let paths = FilePaths {
            bases: vec![root.as_path()],
            files: vec![(0, &a), (0, &b), (0, &outside), (0, &gone)]
                .into_iter()
                .map(|(base, p)| (base, p.as_path()))
                .collect(),
        };
        let check = |stamps: &FileStamps| check_all_with_files(&[], stamps, &paths).1.entries;
        assert!(check(&stamps).is_empty());

        std::fs::write(&b, "longer").unwrap();
        std::fs::write(&outside, "longer").unwrap();
        std::fs::create_dir_all(gone.parent().unwrap()).unwrap();
        std::fs::write(&gone, "").unwrap();
        assert_eq!(check(&stamps), [1, 2, 3]);
        for (index, file) in [(1, &b), (2, &outside), (3, &gone)] {
            stamps.update(index, Stamp::read(file));
        }
        assert!(check(&stamps).is_empty());
        // A path without a recorded stamp counts as changed.
        let mut fewer = FileStamps::default();
        fewer.push(Stamp::read(&a));
        assert_eq!(check(&fewer), [1, 2, 3]);
        // The root moved away: everything below it changed.
        std::fs::rename(&root, t.path().join("moved")).unwrap();
        assert_eq!(check(&stamps), [0, 1, 3]);
    }

    #[test]
    fn packed_stamps_keep_every_value() {
        let mut fp = Fingerprint::default();
        for (mtime_ns, device) in [
            (0, u64::MAX - 1),
            (-1, u64::MAX - 1),
            (1, 0),
            (i128::MIN, 3),
            (i128::MAX, 3),
            (1_764_000_000_123_456_789, u64::MAX - 1),
            (-5_000_000_000, 0),
        ] {
            let stamp = Stamp {
                size: u64::MAX,
                mtime_ns,
                inode: 7,
                device,
            };
            assert_eq!(PackedStamp::pack(Some(stamp)).0.get(), stamp);
            let entry = fp.entry(Some(stamp), ABSOLUTE, 0);
            assert_eq!(fp.stamp(&entry), Some(stamp));
        }
        let absent = fp.entry(None, ABSOLUTE, 0);
        assert_eq!(fp.stamp(&absent), None);
        // Shared wide halves: the devices and the mtimes' high halves, not one per entry.
        assert_eq!(fp.wide.0.len(), 6);
        // The point of packing: a deck keeps one entry per walked directory.
        assert_eq!(std::mem::size_of::<Entry>(), 36);
        // And one per walked file.
        assert_eq!(std::mem::size_of::<SlimStamp>(), 28);
    }

    #[cfg(unix)]
    #[test]
    fn a_tree_of_directories_stores_each_name_once() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let mut dirs = vec![root.clone()];
        for a in ["alpha", "beta"] {
            for b in ["one", "two", "three"] {
                dirs.push(root.join(a));
                dirs.push(root.join(a).join(b));
                dirs.push(root.join(a).join(b).join("deep"));
            }
        }
        dirs.sort();
        dirs.dedup();
        for dir in &dirs {
            std::fs::create_dir_all(dir).unwrap();
        }
        let mut fp = Fingerprint::default();
        for dir in &dirs {
            fp.push_under(&root, dir.clone(), Stamp::read(dir));
        }
        fp.shrink_to_fit();
        // Every entry but the base's holds one component: `alpha`, `one`, `deep`, ...
        let names: usize = ["alpha", "beta"].iter().map(|n| n.len() + 1).sum::<usize>()
            + 2 * ["one", "two", "three"]
                .iter()
                .map(|n| n.len() + 1 + "deep".len() + 1)
                .sum::<usize>()
            + 1;
        assert_eq!(fp.names.len(), names);
        assert!(fp.is_current());
        // Every entry's rebuilt path, from any chunk start, is the path pushed.
        for (index, dir) in dirs.iter().enumerate() {
            let mut chain = Chain::default();
            let base = fp.rebuild(index as u32, &mut chain, &mut Vec::new());
            assert_eq!(base, Some(0));
            assert_eq!(root.join(std::str::from_utf8(&chain.path).unwrap()), *dir);
        }
    }

    /// A change deep in the tree is seen at the directory holding it, whatever the change.
    #[cfg(unix)]
    #[test]
    fn deep_directory_changes_are_detected() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        let deep = root.join("a/b/c/d");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(root.join("a/b/x")).unwrap();
        std::fs::create_dir_all(root.join("e")).unwrap();
        let record = || {
            let mut dirs: Vec<PathBuf> = walkdir(&root);
            dirs.sort();
            let mut fp = Fingerprint::default();
            for dir in &dirs {
                fp.push_under(&root, dir.clone(), Stamp::read(dir));
            }
            fp.shrink_to_fit();
            assert!(fp.is_current());
            (fp, dirs)
        };
        let changed = |fp: &Fingerprint, dirs: &[PathBuf]| -> Vec<PathBuf> {
            check_all(&[fp])[0]
                .entries
                .iter()
                .map(|&i| dirs[i].clone())
                .collect()
        };
        // Added below `d`.
        let (fp, dirs) = record();
        std::fs::create_dir(deep.join("new")).unwrap();
        assert_eq!(changed(&fp, &dirs), std::slice::from_ref(&deep));
        // Removed again: `d` changed, and `new` itself is gone.
        let (fp, dirs) = record();
        std::fs::remove_dir(deep.join("new")).unwrap();
        assert_eq!(changed(&fp, &dirs), [deep.clone(), deep.join("new")]);
        // Renamed: `d` to `d2` changes `c`, and `d` itself is gone.
        let (fp, dirs) = record();
        std::fs::rename(&deep, root.join("a/b/c/d2")).unwrap();
        assert_eq!(changed(&fp, &dirs), [root.join("a/b/c"), deep.clone()]);
        // A whole branch moved elsewhere: its old directories are all missing.
        let (fp, dirs) = record();
        std::fs::rename(root.join("a/b"), root.join("e/b")).unwrap();
        let mut expected = vec![root.join("a")];
        expected.extend(
            dirs.iter()
                .filter(|d| d.starts_with(root.join("a/b")))
                .cloned(),
        );
        expected.push(root.join("e"));
        assert_eq!(changed(&fp, &dirs), expected);
    }

    /// Every directory at or below `dir`.
    fn walkdir(dir: &Path) -> Vec<PathBuf> {
        let mut out = vec![dir.to_path_buf()];
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                out.extend(walkdir(&path));
            }
        }
        out
    }

    /// Pushed in any order, or with directories left out, the paths are still right.
    #[cfg(unix)]
    #[test]
    fn directories_pushed_out_of_order_are_checked_at_their_paths() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        for dir in ["a/b/c", "a/bc", "ab/c", "z"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        let order = ["a/b/c", "a", "ab/c", "a/bc", "", "a/b", "z", "ab", "a/b/c"];
        let mut fp = Fingerprint::default();
        for rel in order {
            let dir = root.join(rel);
            fp.push_under(&root, dir.clone(), Stamp::read(&dir));
        }
        assert!(fp.is_current());
        std::fs::create_dir(root.join("ab/c/new")).unwrap();
        // `ab/c`, pushed after `a`'s subtree: not confused with `a/b/c` (twice).
        assert_eq!(check_all(&[&fp])[0].entries, [2]);
    }

    #[test]
    fn relative_paths_are_byte_suffixes() {
        let rel = |p: &str, b: &str| into_relative(PathBuf::from(p), Path::new(b));
        assert_eq!(rel("/a/b/c", "/a"), Ok(PathBuf::from("b/c")));
        assert_eq!(rel("/a/b", "/a/b"), Ok(PathBuf::new()));
        assert_eq!(rel("/ab/c", "/a"), Err(PathBuf::from("/ab/c")));
        assert_eq!(rel("/a/b", "/"), Ok(PathBuf::from("a/b")));
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
