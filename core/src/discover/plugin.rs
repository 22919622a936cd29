//! Plugin namespaces: a skill below a plugin root (the nearest directory holding
//! `.claude-plugin/plugin.json`, `.codex-plugin/plugin.json` or `.kode-plugin/plugin.json`)
//! gets the id `plugin-name:skill-name`.

use crate::cache::Stamp;
use crate::diagnostic::Diagnostic;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Finds and remembers plugin roots; every manifest path it probed is kept for the cache.
///
/// Inside a walked root the walk already saw every marker directory ([`Plugins::mark`]), so
/// only marked directories are probed there; outside it (the root's parent) a lookup costs
/// one `stat` per marker, once per directory.
pub struct Plugins {
    // Keyed by the path's bytes: hashing a `Path` walks its components, which showed up in
    // profiles at one lookup per skill. Every path here is built the same way (root joined
    // with walked names, or its ancestors), so equal paths have equal bytes.
    by_dir: crate::FastMap<OsString, Option<String>>,
    /// The directory `by_dir` last answered for, and its answer: skills come in walk order,
    /// so siblings ask for the same parent in turn, and comparing its bytes costs far less
    /// than hashing them (SipHash of each skill's parent was ~1% of `list`). An entry of
    /// `by_dir` never changes once written, so the copy stays true.
    last: (OsString, Option<String>),
    /// Directories whose `plugin.json` makes their parent a plugin root (the profile's).
    markers: Vec<String>,
    marked: crate::FastSet<OsString>,
    /// Every manifest path looked at, with its stamp (`None`: absent).
    pub probed: Vec<(PathBuf, Option<Stamp>)>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Default for Plugins {
    fn default() -> Self {
        Plugins::new(crate::discover::profile::default_plugin_markers())
    }
}

impl Plugins {
    /// Plugins marked by these directories (a profile's `plugin_markers`).
    pub fn new(markers: Vec<String>) -> Self {
        Plugins {
            by_dir: crate::FastMap::default(),
            last: (OsString::new(), None),
            markers,
            marked: Default::default(),
            probed: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Record directories the walk saw holding a marker directory.
    pub fn mark(&mut self, dirs: impl IntoIterator<Item = PathBuf>) {
        self.marked
            .extend(dirs.into_iter().map(PathBuf::into_os_string));
    }

    /// Put the diagnostics in path order (lookups may run in any order).
    pub fn sort_diagnostics(&mut self) {
        self.diagnostics
            .sort_by(|a, b| (&a.path, &a.code, &a.message).cmp(&(&b.path, &b.code, &b.message)));
    }

    /// The plugin owning `dir` (below the walked `root`), searching `dir` and its parents up
    /// to and including `limit`.
    pub fn find(&mut self, dir: &Path, root: &Path, limit: &Path) -> Option<String> {
        let mut chain = Vec::new();
        let mut found = None;
        // `d.starts_with(root)` for an ancestor `d` of `dir` is `dir.starts_with(root)` while
        // `d` keeps at least as many components as `root` (each ancestor has one fewer), and
        // `d == limit` is the last of those for `limit`: counted once here instead of two
        // component-wise comparisons per ancestor per skill (~7% of a cold load's
        // instructions at N=10,000).
        let in_root = depth_below(dir, root);
        let in_limit = depth_below(dir, limit);
        for (depth, d) in crate::path_bytes::ancestors(dir).enumerate() {
            let walked = in_root.is_some_and(|n| depth <= n);
            let at_limit = in_limit.is_none_or(|n| depth >= n);
            // A skill's own directory is unique to it and, unless the walk saw a marker in
            // it, never probed: it owes its plugin to its parent, so neither look it up nor
            // remember it (two hash lookups and a path copy per skill on large trees).
            if depth == 0 && walked && !at_limit && !self.marked.contains(d.as_os_str()) {
                continue;
            }
            if !self.last.0.is_empty() && self.last.0 == d.as_os_str() {
                found = self.last.1.clone();
                break;
            }
            if let Some(known) = self.by_dir.get(d.as_os_str()) {
                found = known.clone();
                self.last.0.clear();
                self.last.0.push(d.as_os_str());
                self.last.1.clone_from(&found);
                break;
            }
            chain.push(d.to_path_buf());
            if !walked || self.marked.contains(d.as_os_str()) {
                if let Some(name) = self.probe(d) {
                    found = Some(name);
                    break;
                }
            }
            if at_limit {
                break;
            }
        }
        for d in chain {
            self.by_dir.insert(d.into_os_string(), found.clone());
        }
        found
    }

    fn probe(&mut self, dir: &Path) -> Option<String> {
        for marker in &self.markers {
            let path = dir.join(marker).join("plugin.json");
            let stamp = Stamp::read(&path);
            self.probed.push((path.clone(), stamp));
            if stamp.is_some() {
                return Some(self.read_name(&path, dir));
            }
        }
        None
    }

    fn read_name(&mut self, manifest: &Path, plugin_root: &Path) -> String {
        let fallback = plugin_root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parsed = std::fs::read_to_string(manifest)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(v) => match v
                .get("name")
                .and_then(|n| n.as_str())
                .filter(|n| !n.is_empty())
            {
                Some(name) => name.to_string(),
                None => {
                    self.diagnostics.push(
                        Diagnostic::warning(
                            "plugin-name-missing",
                            format!("plugin manifest has no string `name`; using the directory name `{fallback}`"),
                        )
                        .with_path(manifest)
                        .with_hint("add \"name\": \"...\" to plugin.json"),
                    );
                    fallback
                }
            },
            Err(e) => {
                self.diagnostics.push(
                    Diagnostic::warning(
                        "invalid-plugin-manifest",
                        format!("cannot read plugin manifest ({e}); using the directory name `{fallback}`"),
                    )
                    .with_path(manifest)
                    .with_hint("make plugin.json valid JSON with a string `name`"),
                );
                fallback
            }
        }
    }
}

/// How many components `dir` has beyond `base` when it starts with it (`None` when not): by
/// bytes when `dir` is `base`'s bytes, a `/` and plain names (as walked paths are), component
/// by component otherwise (~4% of a cold load's instructions at N=10,000, one lookup per
/// skill: bench/PROFILE.md item 84).
fn depth_below(dir: &Path, base: &Path) -> Option<usize> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (d, b) = (dir.as_os_str().as_bytes(), base.as_os_str().as_bytes());
        if d == b {
            return Some(0);
        }
        if let Some(rest) = d.strip_prefix(b).and_then(|rest| rest.strip_prefix(b"/")) {
            if !b.is_empty() && !b.ends_with(b"/") {
                if let Some(names) = plain_names(rest) {
                    return Some(names);
                }
            }
        }
    }
    let count = |p: &Path| p.components().count();
    dir.starts_with(base)
        .then(|| count(dir).saturating_sub(count(base)))
}

/// How many names `rest` holds when it is plain names joined by single `/`s (none of
/// them empty, `.` or `..`); `None` otherwise. One pass over the bytes: a `split` iterator
/// and a `memchr` count cost ~390 instructions per lookup.
#[cfg(unix)]
fn plain_names(rest: &[u8]) -> Option<usize> {
    let plain = |name: &[u8]| !name.is_empty() && name != b"." && name != b"..";
    let mut names = 1;
    let mut start = 0;
    for (at, &c) in rest.iter().enumerate() {
        if c == b'/' {
            if !plain(rest.get(start..at)?) {
                return None;
            }
            names += 1;
            start = at + 1;
        }
    }
    plain(rest.get(start..)?).then_some(names)
}

#[cfg(test)]
mod tests {
    #[test]
    fn depth_below_counts_as_components_do() {
        use super::depth_below;
        use std::path::Path;
        let slow = |d: &Path, b: &Path| {
            let count = |p: &Path| p.components().count();
            d.starts_with(b).then(|| count(d) - count(b))
        };
        for (dir, base) in [
            ("/a/b/c", "/a/b"),
            ("/a/b/c/d", "/a"),
            ("/a/b", "/a/b"),
            ("/a/b/", "/a/b"),
            ("/a/b/.", "/a/b"),
            ("/a/b/./c", "/a/b"),
            ("/a/b//c", "/a/b"),
            ("/a/b/../c", "/a/b"),
            ("/a/bc", "/a/b"),
            ("/a/b/c", "/a/b/"),
            ("/a/./b/c", "/a/b"),
            ("/x", "/"),
            ("/x", ""),
            ("rel/x/y", "rel"),
            ("./rel/x", "./rel"),
            ("./rel/x", "rel"),
            ("/a", "/a/b"),
            ("/a/b/c/..", "/a/b"),
            ("/a/b/..", "/a/b"),
            ("/a/b/c/.", "/a/b"),
            ("/a/b/c//", "/a/b"),
            ("/a/b/c/d.e/.f", "/a/b"),
        ] {
            let (d, b) = (Path::new(dir), Path::new(base));
            assert_eq!(depth_below(d, b), slow(d, b), "{dir} below {base}");
        }
    }

    use super::*;

    #[test]
    fn nearest_manifest_names_the_plugin() {
        let t = tempfile::tempdir().unwrap();
        let plug = t.path().join("plugins/tools");
        std::fs::create_dir_all(plug.join(".claude-plugin")).unwrap();
        std::fs::write(
            plug.join(".claude-plugin/plugin.json"),
            r#"{"name": "toolbox"}"#,
        )
        .unwrap();
        let skill = plug.join("skills/fmt");
        std::fs::create_dir_all(&skill).unwrap();
        // Inside the walked root only directories the walk marked are probed.
        let mut p = Plugins::default();
        assert_eq!(p.find(&skill, t.path(), t.path()), None);
        let mut p = Plugins::default();
        p.mark([plug.clone()]);
        assert_eq!(
            p.find(&skill, t.path(), t.path()).as_deref(),
            Some("toolbox")
        );
        // Cached: a second lookup probes nothing new.
        let probes = p.probed.len();
        assert_eq!(
            p.find(&plug.join("skills"), t.path(), t.path()).as_deref(),
            Some("toolbox")
        );
        assert_eq!(p.probed.len(), probes);
        // Outside the walked root (its parent) a lookup stats.
        let root = plug.join("skills");
        assert_eq!(
            Plugins::default().find(&skill, &root, &plug).as_deref(),
            Some("toolbox")
        );
        // Nothing beyond the limit is searched.
        assert_eq!(Plugins::default().find(&skill, &skill, &skill), None);
    }

    #[test]
    fn remembered_answers_match_fresh_lookups_in_any_order() {
        let t = tempfile::tempdir().unwrap();
        let mut marked = Vec::new();
        for (plugin, name) in [("a", "alpha"), ("b/c", "gamma")] {
            let dir = t.path().join(plugin);
            std::fs::create_dir_all(dir.join(".claude-plugin")).unwrap();
            std::fs::write(
                dir.join(".claude-plugin/plugin.json"),
                format!(r#"{{"name": "{name}"}}"#),
            )
            .unwrap();
            marked.push(dir);
        }
        let dirs: Vec<PathBuf> = [
            "a/skills/x",
            "a/skills/y",
            "b/skills/z",
            "b/c/skills/w",
            "b/c/skills/v",
            "a/skills/x",
            "d/x",
            "a/skills/y",
            "b/c/skills/w",
            "b/skills/z",
        ]
        .iter()
        .map(|d| t.path().join(d))
        .collect();
        let fresh = |dir: &Path| {
            let mut p = Plugins::default();
            p.mark(marked.clone());
            p.find(dir, t.path(), t.path())
        };
        let mut shared = Plugins::default();
        shared.mark(marked.clone());
        for dir in dirs.iter().chain(dirs.iter().rev()) {
            assert_eq!(
                shared.find(dir, t.path(), t.path()),
                fresh(dir),
                "{}",
                dir.display()
            );
        }
        assert_eq!(fresh(&dirs[3]).as_deref(), Some("gamma"));
        assert_eq!(fresh(&dirs[0]).as_deref(), Some("alpha"));
    }

    #[test]
    fn broken_manifest_falls_back_to_directory_name() {
        let t = tempfile::tempdir().unwrap();
        let plug = t.path().join("mine");
        std::fs::create_dir_all(plug.join(".codex-plugin")).unwrap();
        std::fs::write(plug.join(".codex-plugin/plugin.json"), "{nope").unwrap();
        let mut p = Plugins::default();
        let skill = plug.join("skills/a");
        assert_eq!(
            p.find(&skill, &plug.join("skills"), &plug).as_deref(),
            Some("mine")
        );
        assert_eq!(p.diagnostics[0].code, "invalid-plugin-manifest");
    }
}
