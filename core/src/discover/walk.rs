//! Walk one root (on one thread, or split across [`crate::par`]'s workers) and collect the
//! files matching the root's glob: `walk/tree.rs` reads the directories, this module sorts
//! and filters what it found.
//!
//! Bounded by the root's depth and directory limits; symlinked directories are followed with
//! loop detection; unreadable directories, dangling links and loops become diagnostics. The
//! output is sorted, so it does not depend on thread timing; a parallel walk that hits its
//! directory limit is walked again on one thread in name order, so even the cut is
//! deterministic.

use super::profile::WalkRules;
use super::roots::Root;
use crate::cache::Stamp;
use crate::diagnostic::Diagnostic;
use glob::RootGlob;
use globset::{GlobBuilder, GlobMatcher};

mod glob;
mod tree;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tree::{Config, Task, Walker};

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
    let globs = Globs {
        glob: RootGlob::new(glob),
        loose: loose.map(RootGlob::new),
    };
    let config = |stamp_dirs| Config {
        root: &root.path,
        root_depth: depth(&root.path),
        rules: &root.walk,
        markers: &root.plugin_markers,
        globs: &globs,
        loose: root.loose.as_deref(),
        limit: entry_depth_limit(&root.walk),
        stamp_dirs,
        dirs: AtomicUsize::new(0),
        truncated: AtomicBool::new(false),
    };
    let first = config(stamp_dirs);
    let parallel = threads != 1;
    let mut found = run(&first, parallel);
    let truncated = first.truncated.load(Ordering::Relaxed);
    if truncated && parallel {
        // Which directories fit under the limit depended on thread timing; one thread walks
        // in name order, so the cut is always the same.
        found = run(&config(stamp_dirs), false);
    }
    let mut out = finish(root, found);
    if truncated {
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
    }
    out
}

/// Walk `config`'s root: on this thread, or (`parallel`) by reading the top levels here
/// until there are a few subtrees per core and walking those with [`crate::par::map`].
fn run(config: &Config, parallel: bool) -> Walked {
    let root = config.root;
    let mut walker = Walker::new(config);
    let meta = match std::fs::metadata(root) {
        Ok(meta) => meta,
        Err(err) => {
            walker.out.diagnostics.push(tree::io_diagnostic(&err, root));
            return walker.out;
        }
    };
    if !meta.is_dir() {
        // A file named as a root: its path relative to itself is empty, which no pattern
        // matches.
        return walker.out;
    }
    if config.stamp_dirs {
        walker
            .out
            .dirs
            .push((root.to_path_buf(), Some(Stamp::of(&meta))));
    }
    let task = Task {
        path: root.to_path_buf(),
        above: Vec::new(),
        depth: 0,
    };
    if config.limit == Some(0) {
        return walker.out;
    }
    if !parallel {
        walker.run(&task);
        return walker.out;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut tasks = vec![task];
    // A few levels at most: a chain of single directories is walked as one subtree.
    for _ in 0..4 {
        if tasks.is_empty() || tasks.len() >= 4 * cores {
            break;
        }
        let mut next = Vec::new();
        for task in &tasks {
            next.extend(walker.expand(task));
        }
        tasks = next;
    }
    // Several subtrees per work item (one `Walked` each), still enough items that a large
    // subtree does not leave the other cores idle.
    let per_item = tasks.len().div_ceil(cores * 8).max(1);
    let items: Vec<&[Task]> = tasks.chunks(per_item).collect();
    let mut out = walker.out;
    for part in crate::par::map(&items, 1, |subtrees| {
        let mut walker = Walker::new(config);
        for task in *subtrees {
            walker.run(task);
        }
        walker.out
    }) {
        out.files.extend(part.files);
        out.dirs.extend(part.dirs);
        out.plugin_dirs.extend(part.plugin_dirs);
        out.diagnostics.extend(part.diagnostics);
    }
    out
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

/// The root's pattern and its loose pattern.
#[derive(Clone)]
struct Globs {
    glob: RootGlob,
    loose: Option<RootGlob>,
}

/// Sort what a walk of `root` found, drop duplicates, and apply the loose and
/// nested-skills rules.
fn finish(root: &Root, mut out: Walked) -> Walked {
    out.plugin_dirs.sort();
    out.plugin_dirs.dedup();
    // `WalkedFile`'s own order and equality, with the paths compared by bytes where that
    // gives the same answer: `Path`'s component-wise comparison was ~8% of `list`'s
    // instructions at N=10,000 (bench/PROFILE.md item 84). A walk on one thread finds the
    // files in this order already, and the sort only checks it.
    out.files.sort_by(walked_order);
    out.files.dedup_by(|a, b| walked_order(a, b).is_eq());
    if let Some(loose) = &root.loose {
        super::loose::retain(loose, &root.path, &mut out.files);
    }
    if !root.walk.nested_skills {
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

    /// Everything a walk reports, with the directories' paths only (stamps hold times).
    fn summary(w: &Walked) -> (Vec<String>, Vec<PathBuf>, Vec<PathBuf>, Vec<Diagnostic>) {
        (
            rels(w),
            w.dirs.iter().map(|(p, _)| p.clone()).collect(),
            w.plugin_dirs.clone(),
            w.diagnostics.clone(),
        )
    }

    #[cfg(unix)]
    #[test]
    fn one_thread_and_several_find_the_same() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..40 {
            touch(&t.path().join(format!("s{i:02}/SKILL.md")));
            touch(&t.path().join(format!("s{i:02}/deeper/n{}/SKILL.md", i % 3)));
        }
        touch(&t.path().join("SKILL.md"));
        touch(&t.path().join("p/.claude-plugin/plugin.json"));
        touch(&t.path().join("p/skills/z/SKILL.md"));
        touch(&t.path().join("node_modules/m/SKILL.md"));
        std::os::unix::fs::symlink("s01", t.path().join("alias")).unwrap();
        std::os::unix::fs::symlink("../..", t.path().join("s02/deeper/up")).unwrap();
        std::os::unix::fs::symlink("missing", t.path().join("s03/gone")).unwrap();
        let r = root(t.path(), "**/SKILL.md", WalkRules::default());
        let one = walk(&r, 1, true);
        assert_eq!(one.files.len(), 40 * 2 + 1 + 1 + 2, "{:?}", rels(&one));
        assert_eq!(one.plugin_dirs, [t.path().join("p")]);
        let codes: Vec<_> = one.diagnostics.iter().map(|d| &*d.code).collect();
        assert_eq!(codes, ["symlink-loop", "dangling-symlink"]);
        for threads in [0, 2, 4] {
            assert_eq!(summary(&walk(&r, threads, true)), summary(&one));
        }
    }

    #[test]
    fn the_directory_limit_cuts_depth_first_in_name_order() {
        let t = tempfile::tempdir().unwrap();
        for p in [
            "b/SKILL.md",
            "a/y/SKILL.md",
            "a/x/SKILL.md",
            "a/SKILL.md",
            "c/SKILL.md",
        ] {
            touch(&t.path().join(p));
        }
        let rules = WalkRules {
            max_dirs: Some(3),
            ..WalkRules::default()
        };
        for threads in [1, 2] {
            let w = walk(&root(t.path(), "**/SKILL.md", rules.clone()), threads, true);
            // `a`, `a/x` and `a/y` are the first three directories reached.
            assert_eq!(rels(&w), ["a/SKILL.md", "a/x/SKILL.md", "a/y/SKILL.md"]);
            let truncated = w.diagnostics.iter().filter(|d| d.code == "walk-truncated");
            assert_eq!(truncated.count(), 1);
        }
    }

    #[test]
    fn a_directory_at_the_depth_limit_is_stamped_but_not_read() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("a/SKILL.md"));
        touch(&t.path().join("a/b/SKILL.md"));
        let rules = WalkRules {
            max_depth: Some(1),
            ..WalkRules::default()
        };
        for threads in [1, 2] {
            let w = walk(&root(t.path(), "**/SKILL.md", rules.clone()), threads, true);
            assert_eq!(rels(&w), ["a/SKILL.md"]);
            let dirs: Vec<&PathBuf> = w.dirs.iter().map(|(p, _)| p).collect();
            assert_eq!(dirs, [t.path(), &t.path().join("a"), &t.path().join("a/b")]);
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_follow_the_rules() {
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("real/SKILL.md"));
        std::os::unix::fs::symlink("real", t.path().join("alias")).unwrap();
        touch(&t.path().join("target.md"));
        std::fs::create_dir(t.path().join("linked")).unwrap();
        std::os::unix::fs::symlink("../target.md", t.path().join("linked/SKILL.md")).unwrap();
        let found = |rules: WalkRules| {
            let w = walk(&root(t.path(), "**/SKILL.md", rules), 1, false);
            w.files
                .iter()
                .map(|f| (f.rel().to_string_lossy().into_owned(), f.regular))
                .collect::<Vec<_>>()
        };
        let s = |x: &str, regular| (x.to_string(), regular);
        assert_eq!(
            found(WalkRules::default()),
            [
                s("alias/SKILL.md", true),
                s("linked/SKILL.md", true),
                s("real/SKILL.md", true)
            ]
        );
        // Not followed: the link is listed as what it is, not a regular file.
        let off = WalkRules {
            follow_links: false,
            ..WalkRules::default()
        };
        assert_eq!(
            found(off),
            [s("linked/SKILL.md", false), s("real/SKILL.md", true)]
        );
        let skip = WalkRules {
            skip_symlinked_files: true,
            ..WalkRules::default()
        };
        assert_eq!(
            found(skip),
            [s("alias/SKILL.md", true), s("real/SKILL.md", true)]
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_directory_is_a_diagnostic() {
        use std::os::unix::fs::PermissionsExt;
        let err = std::io::Error::from_raw_os_error(13);
        let d = tree::io_diagnostic(&err, Path::new("/x/locked"));
        assert_eq!(d.code, "unreadable-dir");
        assert_eq!(
            d.message,
            "cannot read this directory: Permission denied (os error 13)"
        );
        let t = tempfile::tempdir().unwrap();
        touch(&t.path().join("a/SKILL.md"));
        touch(&t.path().join("locked/b/SKILL.md"));
        let locked = t.path().join("locked");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        let effective = std::fs::read_dir(&locked).is_err();
        for threads in [1, 2] {
            let w = walk(
                &root(t.path(), "**/SKILL.md", WalkRules::default()),
                threads,
                true,
            );
            if effective {
                // Not as root, which reads any directory.
                assert_eq!(rels(&w), ["a/SKILL.md"]);
                assert_eq!(w.diagnostics.len(), 1);
                assert_eq!(w.diagnostics[0].code, "unreadable-dir");
                assert_eq!(w.diagnostics[0].path.as_deref(), Some(locked.as_path()));
            } else {
                assert_eq!(rels(&w), ["a/SKILL.md", "locked/b/SKILL.md"]);
            }
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn bad_pattern_is_a_diagnostic() {
        let t = tempfile::tempdir().unwrap();
        let w = walk(&root(t.path(), "a/{b", WalkRules::default()), 1, true);
        assert_eq!(w.diagnostics[0].code, "invalid-pattern");
    }
}
