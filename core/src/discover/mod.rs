//! Discovery: profile → roots → walk → candidates → resolve, producing a [`Catalog`] plus
//! the [`Fingerprint`] the `Deck` uses to tell whether it is still current.
//!
//! Every stage is a module with plain data in and out:
//! - [`profile`]: host dialects as data (built-ins and custom TOML/JSON files);
//! - [`roots`]: path templates expanded against explicit [`Inputs`] (nothing here reads the
//!   process environment or home);
//! - [`walk`]: the bounded, parallel, symlink-safe walk of one root;
//! - [`candidates`]: frontmatter-only reads, identity dedup, naming, plugin namespaces;
//! - [`resolve`]: name clashes and order.

pub mod candidates;
pub mod collate;
pub mod loose;
pub mod patch;
pub mod plugin;
pub mod profile;
pub mod registry;
pub mod regroup;
pub mod repo;
pub mod resolve;
pub mod roots;
pub mod settings;
pub mod walk;
#[cfg(feature = "watch")]
pub mod watch;

pub use profile::Profile;
pub use roots::Inputs;

use crate::cache::{FilePaths, FileStamps, Fingerprint, ParseCache, Stamp};
use crate::catalog::{Catalog, Scope};
use crate::diagnostic::Diagnostic;
use crate::options::DeckOptions;
use std::path::PathBuf;

/// What the walk found. It stays valid while its fingerprint does (no directory it read,
/// repository marker, absent root or settings file changed), so a reload after editing
/// skill files reuses it instead of walking again.
#[derive(Clone, Debug, Default)]
pub struct WalkLayout {
    pub roots: Vec<roots::Root>,
    /// Matching files per root index, each list sorted.
    pub walked: Vec<(usize, Vec<walk::WalkedFile>)>,
    /// Directories holding a plugin marker.
    pub plugin_dirs: Vec<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
    pub fingerprint: Fingerprint,
    /// Path templates that gave no root (a trust gate, an unset variable).
    pub skipped: Vec<roots::Skipped>,
}

impl WalkLayout {
    /// The walked files in walk order, each with its root (what [`Discovery::files`]
    /// records the stamps of).
    pub fn file_paths(&self) -> FilePaths<'_> {
        FilePaths {
            bases: self.roots.iter().map(|r| &*r.path).collect(),
            files: self
                .walked
                .iter()
                .flat_map(|(root, files)| files.iter().map(move |f| (*root, &*f.path)))
                .collect(),
        }
    }
}

/// A finished discovery.
#[derive(Debug)]
pub struct Discovery {
    /// Resolved but not yet filtered.
    pub catalog: Catalog,
    /// The stamp of every walked file, in the order of `layout.walked` (stamp `i` is the
    /// `i`-th file of the flattened walk, [`WalkLayout::file_paths`]). The directories are
    /// in `layout`.
    pub files: FileStamps,
    /// The plugin manifests looked up while naming.
    pub probes: Fingerprint,
    pub layout: WalkLayout,
}

impl Discovery {
    /// Whether nothing this discovery depended on changed on disk.
    #[cfg(test)]
    pub fn is_current(&self) -> bool {
        let paths = self.layout.file_paths();
        let (prints, files) = crate::cache::check_all_with_files(
            &[&self.layout.fingerprint, &self.probes],
            &self.files,
            &paths,
        );
        files.is_empty() && prints.iter().all(crate::cache::Changes::is_empty)
    }

    /// Every root looked at, present or not (what a file watcher must cover).
    pub fn roots(&self) -> Vec<PathBuf> {
        self.layout
            .roots
            .iter()
            .map(|r| r.path.to_path_buf())
            .collect()
    }
}

/// Run discovery. `cache` holds frontmatter parsed by earlier runs; files whose stamp did
/// not change are not read again. Never fails: every problem is a diagnostic in the catalog.
#[cfg(test)]
pub fn discover(
    profile: &Profile,
    inputs: &Inputs,
    options: &DeckOptions,
    cache: &mut ParseCache,
) -> Discovery {
    finish(profile, layout(profile, inputs, options), cache)
}

/// Expand the roots and walk them.
#[cfg(test)]
pub fn layout(profile: &Profile, inputs: &Inputs, options: &DeckOptions) -> WalkLayout {
    layout_for(profile, inputs, options, Keep::ForReload)
}

/// The profile's own roots as VS Code's settings name them: `{project}/x` as `x`, `~/x` as
/// itself, each with its absolute path.
fn location_defaults(profile: &Profile, inputs: &Inputs) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for template in profile.sources.iter().flat_map(|s| s.paths.iter()) {
        if let Some(rel) = template.strip_prefix("{project}/") {
            out.push((rel.to_string(), inputs.project.join(rel)));
        } else if let (Some(rel), Some(home)) = (template.strip_prefix("~/"), &inputs.home) {
            out.push((template.clone(), home.join(rel)));
        }
    }
    out
}

/// What a discovery keeps beyond its catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The walk, the stamps of everything read and the parse cache, so that the next load
    /// can tell what changed and redo only that.
    ForReload,
    /// Nothing: a one-shot load (no directory stamps, no fingerprints, no parse cache).
    Nothing,
    /// Nothing, and of each skill only what a listing shows and the filter reads: a
    /// one-shot load whose skills carry no warnings and a manifest cut to
    /// [`crate::filter::status_fields`], dropped file by file on the workers so that a large
    /// tree's manifests never sit in memory together (`skilldeck list`).
    Summary,
}

/// [`layout`], recording directory stamps only with [`Keep::ForReload`].
pub fn layout_for(
    profile: &Profile,
    inputs: &Inputs,
    options: &DeckOptions,
    keep: Keep,
) -> WalkLayout {
    let mut fingerprint = Fingerprint::default();
    let expansion = roots::expand(profile, inputs, options.nested, options.read_host_settings);
    for marker in &expansion.probed {
        fingerprint.push_exists(marker.clone());
    }
    for (path, stamp) in expansion.stamped {
        fingerprint.push(path, stamp);
    }
    let repo_root = expansion.repo_root;
    let mut diagnostics = expansion.diagnostics;
    let skipped = expansion.skipped;
    let mut all_roots = expansion.roots;

    if let Some(spec) = profile
        .skills_paths
        .as_ref()
        .filter(|_| options.read_host_settings)
    {
        let expand = |t: &String, dir: Option<&std::path::Path>| {
            roots::expand_template(t, inputs, dir).ok().flatten()
        };
        let mut files: Vec<(PathBuf, Scope)> = spec
            .user
            .iter()
            .filter_map(|t| expand(t, None))
            .map(|p| (p, Scope::User))
            .collect();
        let mut project_dirs = repo::ancestors(&inputs.project, &repo_root);
        project_dirs.reverse();
        for dir in &project_dirs {
            files.extend(
                spec.project
                    .iter()
                    .filter_map(|t| expand(t, Some(dir)))
                    .map(|p| (p, Scope::Project)),
            );
        }
        let found = settings::opencode_skill_paths(&files, &inputs.project, inputs.home.as_deref());
        for (path, stamp) in found.probed {
            fingerprint.push(path, stamp);
        }
        diagnostics.extend(found.diagnostics);
        all_roots.extend(found.paths.into_iter().map(|(path, scope)| {
            let mut root = roots::extra_root(profile, path, scope, None);
            if let Some(walk) = &profile.settings_walk {
                root.walk = walk.clone();
            }
            root
        }));
    }
    if let Some(spec) = profile
        .skill_locations
        .as_ref()
        .filter(|_| options.read_host_settings)
    {
        let files: Vec<PathBuf> = spec
            .files
            .iter()
            .filter_map(|t| roots::expand_template(t, inputs, None).ok().flatten())
            .collect();
        let found = settings::vscode_skill_locations(
            spec,
            &files,
            &location_defaults(profile, inputs),
            &inputs.project,
            inputs.home.as_deref(),
        );
        for (path, stamp) in found.probed {
            fingerprint.push(path, stamp);
        }
        diagnostics.extend(found.diagnostics);
        if found.none {
            all_roots.clear();
        } else {
            let off: Vec<PathBuf> = found.off.iter().map(|p| roots::normalise(p)).collect();
            all_roots.retain(|r| !off.contains(&roots::normalise(&r.path)));
            for (path, scope) in found.added {
                // After the roots of its scope (and of the scopes ranked before it), as VS
                // Code sorts workspace skills before user ones and keeps the setting's order.
                let rank = profile.scope_rank(scope);
                let at = all_roots
                    .iter()
                    .rposition(|r| profile.scope_rank(r.scope) <= rank)
                    .map_or(0, |i| i + 1);
                all_roots.insert(
                    at,
                    roots::extra_root(profile, path, scope, Some(&spec.pattern)),
                );
            }
        }
    }
    for spec in &options.roots {
        let path = roots::absolutise(&spec.path, &inputs.project, inputs.home.as_deref());
        all_roots.push(roots::extra_root(
            profile,
            path,
            spec.scope,
            spec.pattern.as_deref(),
        ));
    }
    let all_roots = roots::dedup(all_roots);

    let mut walked = Vec::new();
    let mut plugin_dirs = Vec::new();
    let mut present = Vec::new();
    for (index, root) in all_roots.iter().enumerate() {
        let meta = std::fs::metadata(&root.path).ok();
        if meta.as_ref().is_some_and(|m| m.is_dir()) {
            present.push(index);
        } else {
            // Absent today; its appearance must invalidate the cache.
            fingerprint.push(root.path.to_path_buf(), meta.as_ref().map(Stamp::of));
        }
    }
    for (index, out) in walk_all(&all_roots, &present, keep == Keep::ForReload) {
        for (dir, stamp) in out.dirs {
            fingerprint.push_under(&all_roots[index].path, dir, stamp);
        }
        diagnostics.extend(out.diagnostics);
        plugin_dirs.extend(out.plugin_dirs);
        let mut files = out.files;
        if keep == Keep::ForReload {
            // Kept in the layout for the deck's life: no spare capacity from the walk's pushes.
            files.shrink_to_fit();
        }
        walked.push((index, files));
    }
    fingerprint.shrink_to_fit();
    WalkLayout {
        roots: all_roots,
        walked,
        plugin_dirs,
        diagnostics,
        fingerprint,
        skipped,
    }
}

/// Walk the roots at `indices`, returning each walk with its root index, in `indices`
/// order. Several roots are walked side by side, one thread each: most trees are many small
/// roots, and a parallel walk of each in turn pays the walker pool's start and idle-wait
/// per root. A single root gets every core.
fn walk_all(
    roots: &[roots::Root],
    indices: &[usize],
    stamp_dirs: bool,
) -> Vec<(usize, walk::Walked)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if indices.len() < 2 || cores < 2 {
        return indices
            .iter()
            .map(|&i| (i, walk::walk(&roots[i], 0, stamp_dirs)))
            .collect();
    }
    // Biggest first, so that the walks still running at the end are small ones and no core
    // idles behind one large root. A root's top-level entry count is the size estimate: one
    // directory read each, which the walk then finds cached.
    let mut order: Vec<(usize, usize)> = indices
        .iter()
        .enumerate()
        .map(|(pos, &i)| {
            let entries = std::fs::read_dir(&roots[i].path).map_or(0, |d| d.count());
            (entries, pos)
        })
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut walked: Vec<(usize, (usize, walk::Walked))> =
        crate::par::map(&order, 1, |&(_, pos)| {
            let i = indices[pos];
            (pos, (i, walk::walk(&roots[i], 1, stamp_dirs)))
        })
        .collect();
    // Back in `indices` order (the callers' contract).
    walked.sort_by_key(|(pos, _)| *pos);
    walked.into_iter().map(|(_, walk)| walk).collect()
}

/// Read, name and resolve the files of `layout`.
#[cfg(test)]
pub fn finish(profile: &Profile, layout: WalkLayout, cache: &mut ParseCache) -> Discovery {
    finish_for(profile, layout, cache, Keep::ForReload)
}

/// [`finish`]; with [`Keep::Nothing`] the cache is left alone, the fingerprints are empty
/// and the walk's file list is dropped as soon as the files are read.
pub fn finish_for(
    profile: &Profile,
    mut layout: WalkLayout,
    cache: &mut ParseCache,
    keep: Keep,
) -> Discovery {
    let mut probes = Fingerprint::default();
    let mut plugins = plugin::Plugins::new(profile.plugin_markers.clone());
    plugins.mark(layout.plugin_dirs.iter().cloned());
    let collected = candidates::collect(
        profile,
        &layout.roots,
        &layout.walked,
        cache,
        &mut plugins,
        keep,
    );
    if keep != Keep::ForReload {
        layout.walked = Vec::new();
    }
    let (mut skills, mut shadowed) = resolve::resolve(profile, collected.candidates);
    shadowed.extend(collected.duplicates);
    if keep == Keep::ForReload {
        let lock = std::sync::Mutex::new(std::mem::take(&mut plugins));
        candidates::settle_slim(
            profile,
            &layout,
            &collected.slim_hits,
            cache,
            &lock,
            &mut skills,
            &shadowed,
        );
        plugins = lock.into_inner().unwrap_or_else(|e| e.into_inner());
    }
    let mut files = FileStamps::with_capacity(collected.files.len());
    for stamp in collected.files {
        files.push(stamp);
    }
    for (path, stamp) in plugins.probed {
        probes.push(path, stamp);
    }
    // A reloadable deck keeps both for its life.
    files.shrink_to_fit();
    probes.shrink_to_fit();
    let mut diagnostics = layout.diagnostics.clone();
    diagnostics.extend(plugins.diagnostics);
    diagnostics.extend(collected.diagnostics);

    Discovery {
        catalog: Catalog {
            profile: profile.name.clone(),
            skills,
            shadowed,
            diagnostics,
        },
        files,
        probes,
        layout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::io::Write;
    use std::path::Path;

    /// Discovery reads frontmatter prefixes only. Past 4 KiB of text (the reader's first
    /// read), every body here is a 1 MiB sparse hole of NUL bytes, which the reader refuses
    /// wherever it sees them: reading on into a body would turn that skill into a `nul-byte`
    /// error instead of a loaded skill.
    fn load_without_reading_bodies(n: usize) {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path().join("project/.agents/skills");
        let filler = "Body text.\n".repeat(4096 / 11 + 1);
        for i in 0..n {
            let dir = root.join(format!("g{:02}/s{i:05}", i % 100));
            std::fs::create_dir_all(&dir).expect("mkdir");
            let mut f = std::fs::File::create(dir.join("SKILL.md")).expect("create");
            let head = format!("---\nname: s{i:05}\ndescription: Skill number {i}.\n---\n");
            f.write_all(head.as_bytes()).expect("write");
            f.write_all(filler.as_bytes()).expect("write");
            f.set_len(1 << 20).expect("sparse body");
        }
        let inputs = Inputs {
            project: t.path().join("project"),
            home: None,
            env: BTreeMap::new(),
            system_root: t.path().to_path_buf(),
        };
        let profile = Profile::builtin("universal").expect("profile");
        let mut cache = ParseCache::default();
        let found = discover(&profile, &inputs, &DeckOptions::default(), &mut cache);
        let first = found.catalog.diagnostics.first();
        assert_eq!(found.catalog.skills.len(), n, "{first:?}");
        assert!(found.catalog.diagnostics.is_empty());
        assert_eq!(cache.len(), n);
        assert!(found.is_current());
    }

    #[test]
    fn a_thousand_skills_load_without_reading_a_body() {
        load_without_reading_bodies(1_000);
    }

    /// The issue's 10k-skill criterion; writes 10,000 files, so it is opt-in:
    /// `cargo test -p skilldeck --lib -- --ignored ten_thousand`.
    #[test]
    #[ignore = "writes 10,000 files (about 30 s on a busy disk); run with --ignored"]
    fn ten_thousand_skills_load_without_reading_a_body() {
        load_without_reading_bodies(10_000);
    }

    fn write(root: &Path, rel: &str, text: &[u8]) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    /// The OpenHands profile on `project` below `t` (home `t/home`), both ways a discovery
    /// names files: in the loop (reloadable) and on the workers (one-shot).
    fn openhands(t: &Path, project: &str) -> Vec<Catalog> {
        let inputs = Inputs {
            project: t.join(project),
            home: Some(t.join("home")),
            env: BTreeMap::new(),
            system_root: t.to_path_buf(),
        };
        let profile = Profile::builtin("openhands").expect("profile");
        [Keep::ForReload, Keep::Nothing]
            .into_iter()
            .map(|keep| {
                let layout = layout_for(&profile, &inputs, &DeckOptions::default(), keep);
                finish_for(&profile, layout, &mut ParseCache::default(), keep).catalog
            })
            .collect()
    }

    fn names(catalog: &Catalog) -> Vec<&str> {
        catalog.skills.iter().map(|s| s.name.as_str()).collect()
    }

    fn codes_at<'a>(catalog: &'a Catalog, dir: &str) -> Vec<&'a str> {
        catalog
            .diagnostics
            .iter()
            .filter(|d| {
                d.path
                    .as_ref()
                    .is_some_and(|p| p.to_string_lossy().contains(dir))
            })
            .map(|d| &*d.code)
            .collect()
    }

    #[test]
    fn a_file_that_refuses_its_root_empties_only_that_root() {
        let t = tempfile::tempdir().expect("tempdir");
        let skills = t.path().join("p/.agents/skills");
        write(
            &skills,
            "a/SKILL.md",
            b"---\nname: a\ndescription: from agents\n---\n",
        );
        write(
            &skills,
            "b/SKILL.md",
            b"---\nname: b\ndescription: 42\n---\n",
        );
        write(
            &skills,
            "c/SKILL.md",
            b"---\nname: c\ndescription: [bad\n---\n",
        );
        let other = t.path().join("p/.openhands/skills");
        write(
            &other,
            "a/SKILL.md",
            b"---\nname: a\ndescription: from openhands\n---\n",
        );
        write(&other, "d/SKILL.md", b"---\nname: d\ndescription: d\n---\n");
        write(&other, "e/SKILL.md", b"---\nname: e\nmetadata: 3\n---\n");
        for catalog in openhands(t.path(), "p") {
            // `a` from the first root is dropped with its root, so the second root's wins.
            assert_eq!(names(&catalog), ["a", "d"]);
            assert_eq!(
                Some(catalog.skills[0].description()),
                Some("from openhands")
            );
            assert!(codes_at(&catalog, "skills/b/").contains(&"refuses-root"));
            assert_eq!(codes_at(&catalog, ".agents/skills/a/"), ["root-refused"]);
            // A YAML error and a bad `metadata` skip their own file only.
            assert!(!codes_at(&catalog, "skills/c/").contains(&"refuses-root"));
            assert!(!codes_at(&catalog, "skills/e/").contains(&"refuses-root"));
            assert!(catalog
                .diagnostics
                .iter()
                .filter(|d| d.code == "root-refused")
                .all(|d| d.message.contains("b/SKILL.md")));
        }
    }

    #[test]
    fn the_hosts_own_errors_come_before_a_root_refusal() {
        let t = tempfile::tempdir().expect("tempdir");
        let skills = t.path().join("p/.agents/skills");
        write(&skills, "a/SKILL.md", b"---\nname: a\n---\n");
        // Each also breaks a root rule, but fails a per-file rule first.
        write(
            &skills,
            "b/SKILL.md",
            b"---\nname: not-b\ndescription: 42\n---\n",
        );
        write(
            &skills,
            "c/SKILL.md",
            b"---\nname: c\ndescription: 42\nmetadata: 3\n---\n",
        );
        write(
            &skills,
            "d/SKILL.md",
            b"---\nname: d\nlicense: 1\ntriggers: 5\n---\n",
        );
        let other = t.path().join("p/.openhands/skills");
        write(&other, "e/SKILL.md", b"---\nname: e\n---\n");
        write(&other, "f/SKILL.md", b"---\nname: f\ntriggers: [1]\n---\n");
        for catalog in openhands(t.path(), "p") {
            assert_eq!(names(&catalog), ["a"]);
            for dir in ["/b/", "/c/", "/d/"] {
                assert!(!codes_at(&catalog, dir).contains(&"refuses-root"), "{dir}");
            }
            assert!(codes_at(&catalog, "/f/").contains(&"refuses-root"));
            assert_eq!(codes_at(&catalog, "/e/"), ["root-refused"]);
        }
    }

    #[test]
    fn invalid_utf8_refuses_the_root() {
        let t = tempfile::tempdir().expect("tempdir");
        let skills = t.path().join("p/.agents/skills");
        write(&skills, "a/SKILL.md", b"---\nname: a\n---\n");
        write(&skills, "b/SKILL.md", b"---\nname: b\n---\ncaf\xe9\n");
        for catalog in openhands(t.path(), "p") {
            assert!(catalog.skills.is_empty());
            assert_eq!(codes_at(&catalog, "skills/a/"), ["root-refused"]);
        }
    }

    #[test]
    fn names_must_be_their_directory_and_null_is_not_missing() {
        let t = tempfile::tempdir().expect("tempdir");
        let skills = t.path().join("p/.agents/skills");
        write(&skills, "ok/SKILL.md", b"---\nname: ok\n---\n");
        write(&skills, "from-dir/SKILL.md", b"---\ndescription: d\n---\n");
        write(&skills, "other/SKILL.md", b"---\nname: not-other\n---\n");
        write(&skills, "null/SKILL.md", b"---\nname: ~\n---\n");
        write(
            &skills,
            "tools/SKILL.md",
            b"---\nname: tools\nallowed-tools: {a: b}\n---\n",
        );
        write(
            &skills,
            "tool-list/SKILL.md",
            b"---\nname: tool-list\nallowed-tools: [1, a]\n---\n",
        );
        for catalog in openhands(t.path(), "p") {
            assert_eq!(names(&catalog), ["from-dir", "ok", "tool-list"]);
            assert!(codes_at(&catalog, "/other/").contains(&"name-mismatch"));
            // `str(None)` is `None`, which the SDK's `validate_skill_name` refuses.
            assert!(codes_at(&catalog, "/null/").contains(&"invalid-name"));
            assert!(codes_at(&catalog, "/tools/").contains(&"invalid-field-type"));
        }
    }

    #[test]
    fn plugin_registry_and_settings_edits_invalidate_the_walk() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let claude = home.join(".claude");
        write(
            &claude,
            "plugins/installed_plugins.json",
            br#"{"version": 2, "plugins": {"tools@m": [{"scope": "user", "installPath": "cache/m/tools/1"}]}}"#,
        );
        write(
            &claude,
            "plugins/cache/m/tools/1/skills/fmt/SKILL.md",
            b"---\nname: fmt\ndescription: d\n---\n",
        );
        write(
            &claude,
            "settings.json",
            br#"{"enabledPlugins": {"tools@m": true}}"#,
        );
        std::fs::create_dir_all(t.path().join("p")).expect("mkdir");
        let inputs = Inputs {
            project: t.path().join("p"),
            home: Some(home),
            env: BTreeMap::new(),
            system_root: t.path().to_path_buf(),
        };
        let profile = Profile::builtin("claude-code").expect("profile");
        let run = |options: &DeckOptions| {
            discover(&profile, &inputs, options, &mut ParseCache::default())
        };
        let found = run(&DeckOptions::default());
        let ids: Vec<_> = found.catalog.skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["tools:fmt"]);
        assert!(found.is_current());
        // Settings not read: no plugin is enabled (fail closed).
        let off = DeckOptions {
            read_host_settings: false,
            ..DeckOptions::default()
        };
        assert!(run(&off).catalog.skills.is_empty());

        // Disabling in the project's settings (a file that did not exist) is noticed.
        write(
            t.path(),
            "p/.claude/settings.local.json",
            br#"{"enabledPlugins": {"tools@m": false}}"#,
        );
        assert!(!found.is_current());
        let found = run(&DeckOptions::default());
        assert!(found.catalog.skills.is_empty());
        // And so is an edit of the registry.
        assert!(found.is_current());
        write(
            &claude,
            "plugins/installed_plugins.json",
            br#"{"version": 2, "plugins": {}}"#,
        );
        assert!(!found.is_current());
    }

    #[test]
    fn work_dir_then_git_root_and_nothing_between() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(t.path().join("repo/.git")).expect("git");
        let skill = |name: &str| format!("---\nname: {name}\n---\n").into_bytes();
        write(t.path(), "repo/a/b/.agents/skills/x/SKILL.md", &skill("x"));
        write(
            t.path(),
            "repo/a/.agents/skills/between/SKILL.md",
            &skill("between"),
        );
        write(t.path(), "repo/.openhands/skills/x/SKILL.md", &skill("x"));
        write(
            t.path(),
            "repo/.openhands/skills/top/SKILL.md",
            &skill("top"),
        );
        write(t.path(), "home/.agents/skills/top/SKILL.md", &skill("top"));
        write(
            t.path(),
            "home/.agents/skills/user/SKILL.md",
            &skill("user"),
        );
        for catalog in openhands(t.path(), "repo/a/b") {
            assert_eq!(names(&catalog), ["x", "top", "user"]);
            assert!(catalog.skills[0]
                .location
                .starts_with(t.path().join("repo/a/b")));
            assert!(catalog.skills[1]
                .location
                .starts_with(t.path().join("repo/.openhands")));
        }
    }
}
