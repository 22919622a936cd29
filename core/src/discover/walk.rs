//! Walk one root in parallel (the `ignore` crate's walker with every gitignore/hidden filter
//! off: local skills are often git-ignored) and collect the files matching the root's glob.
//!
//! Bounded by the root's depth and directory limits; symlinked directories are followed with
//! loop detection; unreadable directories, dangling links and loops become diagnostics. The
//! output is sorted, so it does not depend on thread timing; a root that hits its directory
//! limit is walked again single-threaded in name order, so even the cut is deterministic.

use super::profile::WalkRules;
use super::roots::Root;
use crate::cache::Stamp;
use crate::diagnostic::Diagnostic;
use glob::RootGlob;
use globset::{GlobBuilder, GlobMatcher};

mod glob;
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A file that matched the root's pattern.
///
/// Ordered by `path`, which within one root is the order of [`WalkedFile::rel`] (the same
/// root components come first).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkedFile {
    /// Path as walked (root joined with `rel`, symlinks not resolved). Kept for the deck's
    /// life by a reloadable load's layout, and shared with the file's parse cache entry
    /// and its skill's location, so it is one buffer.
    pub path: crate::SharedPath,
    /// How many leading components of `path` are the root's. The path relative to the
    /// root is read from `path` ([`WalkedFile::rel`]) instead of kept as a second copy.
    root_depth: u32,
    /// The directory listing said it is a regular file (so it can be opened without a
    /// `stat` first: opening a FIFO or a device could block).
    pub regular: bool,
    /// Matched the root's loose pattern (`[loose]`), not its own pattern.
    pub loose: bool,
}

impl WalkedFile {
    /// The file at `path`, found below the root `root` (`path` must start with its
    /// components, as a walked path does).
    #[cfg(test)]
    pub(crate) fn new(
        root: &Path,
        path: impl Into<crate::SharedPath>,
        regular: bool,
        loose: bool,
    ) -> Self {
        WalkedFile {
            path: path.into(),
            root_depth: depth(root),
            regular,
            loose,
        }
    }

    /// Path relative to the root.
    pub fn rel(&self) -> &Path {
        let mut components = self.path.components();
        for _ in 0..self.root_depth {
            components.next();
        }
        components.as_path()
    }
}

/// The number of components of `root`, saturated (no real path has 4 billion).
fn depth(root: &Path) -> u32 {
    u32::try_from(root.components().count()).unwrap_or(u32::MAX)
}

/// Everything one root's walk produced.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<WalkedFile>,
    /// Every directory read, with its stamp (for the cache fingerprint).
    pub dirs: Vec<(PathBuf, Option<Stamp>)>,
    /// Directories holding a plugin marker (`.claude-plugin`, ...), seen in passing so that
    /// plugin lookups need no extra `stat` per skill.
    pub plugin_dirs: Vec<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Compile a root pattern. `*` and `?` stay within one path segment; `**` crosses them.
pub fn matcher(pattern: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("invalid pattern `{pattern}`: {e}"))
}

/// Walk `root` with `threads` worker threads (0: one per core; 1: on the calling thread).
/// `stamp_dirs`: record every directory with its stamp (one `stat` each) for the cache.
pub fn walk(root: &Root, threads: usize, stamp_dirs: bool) -> Walked {
    let glob = match matcher(&root.pattern) {
        Ok(m) => m,
        Err(message) => {
            return Walked {
                diagnostics: vec![Diagnostic::error("invalid-pattern", message)
                    .with_path(&root.path)
                    .with_hint("fix the glob in the profile or the root option")],
                ..Walked::default()
            }
        }
    };
    let loose = match root.loose.as_deref().map(|l| matcher(&l.pattern)) {
        Some(Ok(m)) => Some(m),
        Some(Err(message)) => {
            return Walked {
                diagnostics: vec![Diagnostic::error("invalid-pattern", message)
                    .with_path(&root.path)
                    .with_hint("fix `loose.pattern` in the profile")],
                ..Walked::default()
            }
        }
        None => None,
    };
    let glob = Globs {
        glob: RootGlob::new(glob),
        loose: loose.map(RootGlob::new),
    };
    let shared = Shared::new(root, glob, stamp_dirs);
    if threads == 1 {
        // The caller already runs walks side by side: ignore's sequential walker, on this
        // thread, instead of a one-worker pool on yet another thread.
        let mut visitor = Visitor::new(&shared);
        for result in builder(root, &shared, 1).build() {
            visitor.handle(result);
        }
        drop(visitor);
    } else {
        builder(root, &shared, threads)
            .build_parallel()
            .visit(&mut VisitorBuilder { shared: &shared });
    }
    if shared.truncated.load(Ordering::Relaxed) {
        // Which directories fit under the limit depended on thread timing; redo this root in
        // name order so the cut is always the same.
        let shared = Shared::new(root, shared.glob.clone(), stamp_dirs);
        let mut b = builder(root, &shared, 1);
        b.sort_by_file_name(|a, b| a.cmp(b));
        let mut visitor = Visitor::new(&shared);
        for result in b.build() {
            visitor.handle(result);
        }
        drop(visitor);
        let mut out = shared.finish();
        out.diagnostics.push(
            Diagnostic::warning(
                "walk-truncated",
                format!(
                    "stopped after {} directories below this root; skills deeper in the tree were not loaded",
                    root.walk.max_dirs.unwrap_or_default()
                ),
            )
            .with_path(&root.path)
            .with_hint("move skills closer to the root or raise `walk.max_dirs` in a custom profile"),
        );
        return out;
    }
    shared.finish()
}

/// Why the walk does not enter a directory below its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Excluded {
    /// A dot directory, and the rules do not enter hidden directories.
    Hidden,
    /// Named in the rules' `skip` list.
    Skipped,
}

/// Whether the walk refuses to enter a directory named `name` below its root: the one rule
/// the walker's entry filter applies, shared with `doctor`'s explanations.
pub fn dir_excluded(name: &str, hidden: bool, skip: &[String]) -> Option<Excluded> {
    if !hidden && name.starts_with('.') {
        return Some(Excluded::Hidden);
    }
    if skip.iter().any(|s| s == name) {
        return Some(Excluded::Skipped);
    }
    None
}

/// The deepest entry the walk lists, the root's own entries being depth 1 (`max_depth`
/// counts directories read; their entries are one level deeper). `None`: unbounded.
pub fn entry_depth_limit(rules: &WalkRules) -> Option<usize> {
    rules.max_depth.map(|d| d.saturating_add(1))
}

/// Whether a walk with `rules` lists the file at `path`, once reached: a symlinked file is
/// ignored where the host skips them.
pub fn lists_file(rules: &WalkRules, path: &Path) -> bool {
    !(rules.skip_symlinked_files
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()))
}

fn builder(root: &Root, shared: &Shared, threads: usize) -> WalkBuilder {
    let rules = &root.walk;
    let mut b = WalkBuilder::new(&root.path);
    b.standard_filters(false)
        .follow_links(rules.follow_links)
        .max_depth(entry_depth_limit(rules))
        .threads(threads);
    let rules = EntryRules {
        skip: rules.skip.clone(),
        hidden: rules.hidden,
        max_dirs: rules.max_dirs,
        markers: root.plugin_markers.clone(),
    };
    let dirs = shared.dir_count.clone();
    let truncated = shared.truncated.clone();
    let plugins = shared.plugin_dirs.clone();
    b.filter_entry(move |entry| keep(entry, &rules, &dirs, &truncated, &plugins));
    b
}

/// What decides, entry by entry, whether the walk goes on (one root's rules).
struct EntryRules {
    skip: Vec<String>,
    hidden: bool,
    max_dirs: Option<usize>,
    /// The profile's plugin marker directories, noted as the walk passes them.
    markers: std::sync::Arc<[String]>,
}

/// Whether to visit (and, for a directory, descend into) `entry`.
fn keep(
    entry: &DirEntry,
    rules: &EntryRules,
    dirs: &AtomicUsize,
    truncated: &AtomicBool,
    plugins: &Mutex<Vec<PathBuf>>,
) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
    if !is_dir {
        return true;
    }
    let name = entry.file_name().to_string_lossy();
    if rules.markers.iter().any(|m| *m == name) {
        if let Some(parent) = entry.path().parent() {
            plugins
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(parent.to_path_buf());
        }
    }
    if dir_excluded(&name, rules.hidden, &rules.skip).is_some() {
        return false;
    }
    if let Some(max) = rules.max_dirs {
        if dirs.fetch_add(1, Ordering::Relaxed) >= max {
            truncated.store(true, Ordering::Relaxed);
            return false;
        }
    }
    true
}

/// State shared by the walker threads; each thread batches into its own `Walked` and merges
/// once when it finishes.
/// The root's pattern and its loose pattern.
#[derive(Clone)]
struct Globs {
    glob: RootGlob,
    loose: Option<RootGlob>,
}

struct Shared {
    root: PathBuf,
    /// `depth(root)`, for every file's [`WalkedFile::rel`].
    root_depth: u32,
    glob: Globs,
    loose: Option<Arc<super::profile::Loose>>,
    rules: WalkRules,
    dir_count: Arc<AtomicUsize>,
    truncated: Arc<AtomicBool>,
    plugin_dirs: Arc<Mutex<Vec<PathBuf>>>,
    stamp_dirs: bool,
    out: Mutex<Walked>,
}

impl Shared {
    fn new(root: &Root, glob: Globs, stamp_dirs: bool) -> Shared {
        Shared {
            root: root.path.to_path_buf(),
            root_depth: depth(&root.path),
            glob,
            loose: root.loose.clone(),
            rules: root.walk.clone(),
            dir_count: Arc::new(AtomicUsize::new(0)),
            truncated: Arc::new(AtomicBool::new(false)),
            plugin_dirs: Arc::new(Mutex::new(Vec::new())),
            stamp_dirs,
            out: Mutex::new(Walked::default()),
        }
    }

    fn finish(self) -> Walked {
        let mut out = self.out.into_inner().unwrap_or_else(|e| e.into_inner());
        out.plugin_dirs =
            std::mem::take(&mut *self.plugin_dirs.lock().unwrap_or_else(|e| e.into_inner()));
        out.plugin_dirs.sort();
        out.plugin_dirs.dedup();
        // `WalkedFile`'s own order and equality, with the paths compared by bytes where
        // that gives the same answer: `Path`'s component-wise comparison was ~8% of
        // `list`'s instructions at N=10,000 (bench/PROFILE.md item 84).
        out.files.sort_by(walked_order);
        out.files.dedup_by(|a, b| walked_order(a, b).is_eq());
        if let Some(loose) = &self.loose {
            super::loose::retain(loose, &self.root, &mut out.files);
        }
        if !self.rules.nested_skills {
            // The first directory on a path holding a match is the skill: drop the matches
            // below another match's directory.
            let skill_dirs: std::collections::HashSet<PathBuf> = out
                .files
                .iter()
                .filter(|f| !f.loose)
                .map(|f| f.rel().parent().map(Path::to_path_buf).unwrap_or_default())
                .collect();
            out.files.retain(|f| {
                let dir = f.rel().parent().unwrap_or(Path::new(""));
                !dir.ancestors().skip(1).any(|a| skill_dirs.contains(a))
            });
        }
        out.dirs.sort_by(|a, b| a.0.cmp(&b.0));
        out.diagnostics
            .sort_by(|a, b| (&a.path, &a.code, &a.message).cmp(&(&b.path, &b.code, &b.message)));
        out.diagnostics.dedup();
        out
    }
}

struct VisitorBuilder<'a> {
    shared: &'a Shared,
}

impl<'s> ParallelVisitorBuilder<'s> for VisitorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor::new(self.shared))
    }
}

struct Visitor<'a> {
    shared: &'a Shared,
    local: Walked,
}

impl<'a> Visitor<'a> {
    fn new(shared: &'a Shared) -> Self {
        Visitor {
            shared,
            local: Walked::default(),
        }
    }

    fn handle(&mut self, result: Result<DirEntry, ignore::Error>) {
        match result {
            Ok(entry) => self.entry(entry),
            Err(err) => self
                .local
                .diagnostics
                .push(diagnostic(&err, &self.shared.root)),
        }
    }

    fn entry(&mut self, entry: DirEntry) {
        let Some(file_type) = entry.file_type() else {
            return;
        };
        if file_type.is_dir() {
            if self.shared.stamp_dirs {
                let stamp = entry.metadata().ok().map(|m| Stamp::of(&m));
                self.local.dirs.push((entry.into_path(), stamp));
            }
            return;
        }
        if self.shared.rules.skip_symlinked_files && entry.path_is_symlink() {
            // The rule of `lists_file`, without a second `lstat`.
            return;
        }
        let Some(rel) = relative_to(entry.path(), &self.shared.root) else {
            return;
        };
        let loose = if self.shared.glob.glob.is_match(rel) {
            false
        } else if let (Some(glob), Some(rules)) = (&self.shared.glob.loose, &self.shared.loose) {
            let name = entry.file_name().to_string_lossy();
            if !glob.is_match(rel) || !super::loose::keeps_name(rules, &name) {
                return;
            }
            true
        } else {
            return;
        };
        self.local.files.push(WalkedFile {
            regular: file_type.is_file(),
            path: entry.into_path().into(),
            root_depth: self.shared.root_depth,
            loose,
        });
    }
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, result: Result<DirEntry, ignore::Error>) -> WalkState {
        self.handle(result);
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        let mut out = self.shared.out.lock().unwrap_or_else(|e| e.into_inner());
        out.files.extend(local.files);
        out.dirs.extend(local.dirs);
        out.diagnostics.extend(local.diagnostics);
    }
}

/// `path.strip_prefix(root)`, by bytes when `path` is `root`'s own bytes, one `/` and a
/// plain rest (as the walker builds every entry path from the root it was given);
/// component-wise otherwise. Parsing both paths' components for every walked file was ~5%
/// of a cold load's instructions.
fn relative_to<'p>(path: &'p Path, root: &Path) -> Option<&'p Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
        if let Some(rest) = p.strip_prefix(r).and_then(|rest| rest.strip_prefix(b"/")) {
            let plain = !r.is_empty()
                && !r.ends_with(b"/")
                && !rest.is_empty()
                && !rest.starts_with(b"./")
                && rest != b"."
                && !rest.starts_with(b"/")
                && !rest.ends_with(b"/")
                && !rest.ends_with(b"/.");
            if plain {
                return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
            }
        }
    }
    path.strip_prefix(root).ok()
}

/// `a.cmp(b)` for walked files: [`WalkedFile`]'s derived `Ord`, field by field.
fn walked_order(a: &WalkedFile, b: &WalkedFile) -> std::cmp::Ordering {
    cmp_paths(&a.path, &b.path)
        .then_with(|| (a.root_depth, a.regular, a.loose).cmp(&(b.root_depth, b.regular, b.loose)))
}

/// `a.cmp(b)`: `Path`'s component-wise order, decided from the bytes around the first
/// difference when that difference falls inside a plain component of both paths (no empty,
/// `.` or `..` component there, and not the first one, which may be a root or `.`), as in
/// paths the walker joined from one root; component-wise otherwise.
pub(crate) fn cmp_paths(a: &Path, b: &Path) -> std::cmp::Ordering {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        if let Some(order) = cmp_plain(a.as_os_str().as_bytes(), b.as_os_str().as_bytes()) {
            return order;
        }
    }
    a.cmp(b)
}

/// [`cmp_paths`] by bytes, `None` when the bytes alone do not decide it.
#[cfg(unix)]
fn cmp_plain(x: &[u8], y: &[u8]) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let n = x.len().min(y.len());
    let mut i = 0;
    // Eight bytes at a time: the paths share their root's long prefix.
    while i + 8 <= n {
        let word = |z: &[u8]| u64::from_ne_bytes(z[i..i + 8].try_into().unwrap_or([0; 8]));
        if word(x) != word(y) {
            break;
        }
        i += 8;
    }
    while i < n && x[i] == y[i] {
        i += 1;
    }
    if i == n {
        // Equal, or one is the other's prefix (`a/b` and `a/b/`, `a/b/.`): component-wise.
        return None;
    }
    // The component holding the first difference starts after the last `/` before it; the
    // same bytes before it split into the same components in both paths. Names are short:
    // a byte loop back to the `/` costs less than a `memrchr` call.
    let mut start = i;
    while start > 0 && x[start - 1] != b'/' {
        start -= 1;
    }
    if start == 0 {
        return None;
    }
    // An empty, `.` or `..` component is told from its first three bytes.
    let plain = |z: &[u8]| {
        let at = |k: usize| z.get(start + k).copied().unwrap_or(b'/');
        !matches!(
            (at(0), at(1), at(2)),
            (b'/', _, _) | (b'.', b'/', _) | (b'.', b'.', b'/')
        )
    };
    if !plain(x) || !plain(y) {
        return None;
    }
    // Both components are normal names that agree up to `i`; a name that ends there is a
    // prefix of the other, so it sorts first.
    Some(match (x[i], y[i]) {
        (b'/', _) => Ordering::Less,
        (_, b'/') => Ordering::Greater,
        (p, q) => p.cmp(&q),
    })
}

/// `errno` for "too many levels of symbolic links" (links pointing at each other).
#[cfg(target_os = "linux")]
const ELOOP: i32 = 40;
#[cfg(not(target_os = "linux"))]
const ELOOP: i32 = 62;

/// Turn a walker error into a diagnostic; the walk goes on.
fn diagnostic(err: &ignore::Error, root: &Path) -> Diagnostic {
    let path = error_path(err).unwrap_or(root).to_path_buf();
    if let Some((ancestor, _child)) = find_loop(err) {
        return Diagnostic::warning(
            "symlink-loop",
            format!(
                "symbolic link loop: this directory leads back to {}",
                ancestor.display()
            ),
        )
        .with_path(path)
        .with_hint("remove the link or point it outside its own parent directories");
    }
    match err.io_error() {
        Some(io) if io.raw_os_error() == Some(ELOOP) => Diagnostic::warning(
            "symlink-loop",
            "symbolic links point at each other and never reach a file or directory",
        )
        .with_path(path)
        .with_hint("remove or repoint one of the links"),
        Some(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Diagnostic::warning("dangling-symlink", "symbolic link points to nothing")
                .with_path(path)
                .with_hint("remove the link or restore its target")
        }
        Some(io) if io.kind() == std::io::ErrorKind::PermissionDenied => Diagnostic::warning(
            "unreadable-dir",
            format!("cannot read this directory: {io}"),
        )
        .with_path(path)
        .with_hint("fix its permissions, or ignore this if it holds no skills"),
        Some(io) => Diagnostic::warning("walk-error", io.to_string()).with_path(path),
        None => Diagnostic::warning("walk-error", err.to_string()).with_path(path),
    }
}

fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

fn find_loop(err: &ignore::Error) -> Option<(&Path, &Path)> {
    match err {
        ignore::Error::Loop { ancestor, child } => Some((ancestor, child)),
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => find_loop(err),
        ignore::Error::Partial(errs) => errs.iter().find_map(find_loop),
        _ => None,
    }
}

#[cfg(test)]
mod tests {

    #[cfg(unix)]
    #[test]
    fn paths_compare_as_path_does() {
        use super::cmp_paths;
        use std::path::Path;
        // Every path of up to four characters over an alphabet with the separator, dots and
        // bytes on both sides of `/`, alone and below an absolute and a relative root.
        let alphabet = ['/', '.', '-', 'a', '0'];
        let mut tails = vec![String::new()];
        for len in 1..=4 {
            let mut next = Vec::new();
            for t in tails.iter().filter(|t| t.chars().count() == len - 1) {
                for c in alphabet {
                    next.push(format!("{t}{c}"));
                }
            }
            tails.extend(next);
        }
        for root in ["", "/r/", "r/", "/r-s/./", "./"] {
            let paths: Vec<String> = tails.iter().map(|t| format!("{root}{t}")).collect();
            for a in &paths {
                for b in &paths {
                    let (a, b) = (Path::new(a), Path::new(b));
                    assert_eq!(cmp_paths(a, b), a.cmp(b), "{a:?} vs {b:?}");
                }
            }
        }
        let long = "/home/u/projects/repo/.agents/skills";
        for (a, b) in [
            ("a-b/SKILL.md", "a/SKILL.md"),
            ("a/SKILL.md", "a.b/SKILL.md"),
            ("ab/SKILL.md", "a/SKILL.md"),
            ("x/y/SKILL.md", "x/y-z/SKILL.md"),
            ("caf\u{e9}/SKILL.md", "cafe/SKILL.md"),
        ] {
            let (a, b) = (format!("{long}/{a}"), format!("{long}/{b}"));
            let (a, b) = (Path::new(&a), Path::new(&b));
            assert_eq!(cmp_paths(a, b), a.cmp(b), "{a:?} vs {b:?}");
            assert_eq!(cmp_paths(b, a), b.cmp(a), "{b:?} vs {a:?}");
        }
    }

    #[test]
    fn the_relative_path_is_read_from_the_walked_one() {
        for (path, root, rel) in [
            ("/x/SKILL.md", "/", "x/SKILL.md"),
            ("/a/b/c/SKILL.md", "/a/b", "c/SKILL.md"),
            ("/a/b//c/SKILL.md", "/a/b/", "c/SKILL.md"),
            ("/a/b/./c/SKILL.md", "/a/b", "c/SKILL.md"),
            ("rel/dir/SKILL.md", "rel", "dir/SKILL.md"),
            ("/a/b", "/a/b", ""),
        ] {
            let f = WalkedFile::new(Path::new(root), PathBuf::from(path), true, false);
            assert_eq!(f.rel(), Path::new(rel), "{path} below {root}");
            assert_eq!(Some(f.rel()), Path::new(path).strip_prefix(root).ok());
        }
    }

    #[test]
    fn relative_to_is_strip_prefix() {
        let cases = [
            ("/a/b/c/SKILL.md", "/a/b"),
            ("/a/b/c/SKILL.md", "/a/b/"),
            ("/a/b//c/SKILL.md", "/a/b"),
            ("/a/b/./c/SKILL.md", "/a/b"),
            ("/a/b/c/", "/a/b"),
            ("/a/b/c/.", "/a/b"),
            ("/a/bc/SKILL.md", "/a/b"),
            ("/a/b", "/a/b"),
            ("/x/SKILL.md", "/"),
            ("rel/dir/SKILL.md", "rel"),
            ("/a/b/c/d/e", "/a/b/c"),
        ];
        for (path, root) in cases {
            let (path, root) = (Path::new(path), Path::new(root));
            let want = path.strip_prefix(root).ok();
            let got = relative_to(path, root);
            assert_eq!(got, want, "{path:?} under {root:?}");
            assert_eq!(
                got.map(|p| p.as_os_str().to_owned()),
                want.map(|p| p.as_os_str().to_owned()),
                "{path:?} under {root:?} (bytes)"
            );
        }
    }
    use super::*;
    use crate::catalog::{Scope, SkillKind};

    fn root(path: &Path, pattern: &str, walk: WalkRules) -> Root {
        Root {
            path: path.into(),
            scope: Scope::Project,
            kind: SkillKind::Skill,
            pattern: pattern.to_string(),
            walk,
            nested_marker: None,
            plugin: None,
            plugin_markers: crate::discover::profile::default_plugin_markers().into(),
            loose: None,
        }
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "---\nname: x\n---\n").unwrap();
    }

    fn rels(w: &Walked) -> Vec<String> {
        w.files
            .iter()
            .map(|f| f.rel().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn finds_matches_sorted_and_skips_git_and_node_modules() {
        let t = tempfile::tempdir().unwrap();
        for p in [
            "b/SKILL.md",
            "a/SKILL.md",
            "a/x/SKILL.md",
            ".git/x/SKILL.md",
            "node_modules/y/SKILL.md",
            ".hidden/z/SKILL.md",
            "c/README.md",
        ] {
            touch(&t.path().join(p));
        }
        let w = walk(
            &root(t.path(), "**/SKILL.md", WalkRules::default()),
            2,
            true,
        );
        assert_eq!(
            rels(&w),
            [
                ".hidden/z/SKILL.md",
                "a/SKILL.md",
                "a/x/SKILL.md",
                "b/SKILL.md"
            ]
        );
        assert!(w.dirs.len() >= 5, "every directory read is stamped");
        // A one-shot walk finds the same files without stamping a directory.
        let once = walk(
            &root(t.path(), "**/SKILL.md", WalkRules::default()),
            2,
            false,
        );
        assert_eq!(rels(&once), rels(&w));
        assert!(once.dirs.is_empty());
        let w = walk(
            &root(
                t.path(),
                "*/SKILL.md",
                WalkRules {
                    hidden: false,
                    ..WalkRules::default()
                },
            ),
            2,
            true,
        );
        assert_eq!(rels(&w), ["a/SKILL.md", "b/SKILL.md"]);
        assert!(w.dirs.iter().any(|(p, s)| p == t.path() && s.is_some()));
    }

    #[test]
    fn depth_limit_counts_directories_read() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("a/SKILL.md"));
        touch(&t.path().join("a/b/SKILL.md"));
        touch(&t.path().join("a/b/c/SKILL.md"));
        let rules = WalkRules {
            max_depth: Some(2),
            ..WalkRules::default()
        };
        let w = walk(&root(t.path(), "**/SKILL.md", rules), 2, true);
        assert_eq!(rels(&w), ["a/SKILL.md", "a/b/SKILL.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn loops_and_dangling_links_are_diagnostics() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("a/SKILL.md"));
        std::os::unix::fs::symlink("..", t.path().join("a/up")).unwrap();
        std::os::unix::fs::symlink("nowhere", t.path().join("a/gone")).unwrap();
        let w = walk(
            &root(t.path(), "**/SKILL.md", WalkRules::default()),
            2,
            true,
        );
        assert_eq!(rels(&w), ["a/SKILL.md"]);
        let codes: Vec<_> = w.diagnostics.iter().map(|d| &*d.code).collect();
        assert_eq!(
            codes,
            ["dangling-symlink", "symlink-loop"],
            "{:?}",
            w.diagnostics
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_pointing_at_each_other_are_a_loop() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("a/SKILL.md"));
        std::os::unix::fs::symlink("cycle-b", t.path().join("cycle-a")).unwrap();
        std::os::unix::fs::symlink("cycle-a", t.path().join("cycle-b")).unwrap();
        let w = walk(
            &root(t.path(), "**/SKILL.md", WalkRules::default()),
            2,
            true,
        );
        assert_eq!(rels(&w), ["a/SKILL.md"]);
        let codes: Vec<_> = w.diagnostics.iter().map(|d| &*d.code).collect();
        assert_eq!(
            codes,
            ["symlink-loop", "symlink-loop"],
            "{:?}",
            w.diagnostics
        );
    }

    #[test]
    fn plugin_markers_are_noted_even_when_hidden_dirs_are_skipped() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("plug/.claude-plugin/plugin.json"));
        touch(&t.path().join("plug/skills/a/SKILL.md"));
        let rules = WalkRules {
            hidden: false,
            ..WalkRules::default()
        };
        let w = walk(&root(t.path(), "**/SKILL.md", rules), 2, true);
        assert_eq!(w.plugin_dirs, [t.path().join("plug")]);
    }

    #[test]
    fn directory_limit_cut_is_deterministic() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..30 {
            touch(&t.path().join(format!("d{i:02}/SKILL.md")));
        }
        let rules = WalkRules {
            max_dirs: Some(10),
            ..WalkRules::default()
        };
        let first = walk(&root(t.path(), "**/SKILL.md", rules.clone()), 2, true);
        assert_eq!(first.files.len(), 10);
        assert_eq!(first.files[0].rel(), Path::new("d00/SKILL.md"));
        assert_eq!(first.files[9].rel(), Path::new("d09/SKILL.md"));
        assert!(first.diagnostics.iter().any(|d| d.code == "walk-truncated"));
        for _ in 0..5 {
            let again = walk(&root(t.path(), "**/SKILL.md", rules.clone()), 2, true);
            assert_eq!(again.files, first.files);
        }
    }

    #[test]
    fn bad_pattern_is_a_diagnostic() {
        let t = tempfile::tempdir().unwrap();
        let w = walk(&root(t.path(), "a/{b", WalkRules::default()), 1, true);
        assert_eq!(w.diagnostics[0].code, "invalid-pattern");
    }
}
