//! Doctor: why a skill is found, or why not, for one profile.
//!
//! Runs the pipeline stage by stage (the same expansion, walk, reading, resolving and
//! filtering a [`Deck`] runs) and keeps what a load throws away: every root with its walk
//! rules, the files each walk listed, the skipped sources. A file is then explained from
//! what the pipeline did with it: listed by the walk or not (and which walk rule stopped
//! it: [`walk::dir_excluded`], [`walk::entry_depth_limit`], the root's glob), loaded,
//! shadowed (with the winner and reason) or refused (with the diagnostics, lines included),
//! and, once loaded, switched off by the filter stage (the status reasons). Plain data;
//! the CLI renders it (`skilldeck doctor`, `skilldeck list --compare`).

use crate::cache::ParseCache;
use crate::catalog::{Catalog, Scope, SkillKind};
use crate::deck::Deck;
use crate::diagnostic::Diagnostic;
use crate::discover::{self, profile::WalkRules, roots::Skipped, walk, WalkLayout};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// What `doctor` looks at: a skill by path (its directory or its file) or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Path(PathBuf),
    Name(String),
}

impl Target {
    /// What a user typed: a path when it exists, holds a path separator or ends in `.md`
    /// (made absolute against `cwd`), else a skill name. The CLI and every binding read
    /// their argument through this, so `doctor x` means the same everywhere.
    pub fn parse(text: &str, cwd: &Path) -> Target {
        let path = Path::new(text);
        let absolute = cwd.join(path);
        if absolute.exists()
            || text.contains(['/', std::path::MAIN_SEPARATOR])
            || text.ends_with(".md")
        {
            Target::Path(absolute)
        } else {
            Target::Name(text.to_string())
        }
    }
}

/// One profile's report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub profile: String,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub project: PathBuf,
    /// Every root the profile searches, in order.
    pub roots: Vec<RootReport>,
    /// Path templates that gave no root (trust gate, unset variable).
    pub skipped: Vec<Skipped>,
    /// Skills loaded in all.
    pub skills: usize,
    /// The explanation for the target, when one was asked about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetReport>,
}

/// One root and what its walk gave.
#[derive(Clone, Debug, Serialize)]
pub struct RootReport {
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub path: PathBuf,
    pub scope: Scope,
    pub kind: SkillKind,
    pub pattern: String,
    pub exists: bool,
    /// Files matching the pattern that the walk listed.
    pub files: usize,
    /// Skills loaded from this root.
    pub skills: usize,
    pub walk: WalkRules,
}

/// The explanation for one target.
#[derive(Clone, Debug, Serialize)]
pub struct TargetReport {
    pub query: String,
    /// Loaded under some root (and listed or not: see the file's findings).
    pub found: bool,
    /// Every file that could be the target (one for a path; for a name, each file of that
    /// name in the catalog, in a root or in the project).
    pub files: Vec<FileReport>,
}

/// What the pipeline did with one file.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<LoadedSkill>,
    /// One or more findings per root that could contain the file, in root order (or one
    /// `outside-roots` finding).
    pub findings: Vec<Finding>,
}

/// A loaded skill.
#[derive(Clone, Debug, Serialize)]
pub struct LoadedSkill {
    pub id: String,
    pub name: String,
    pub scope: Scope,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub location: PathBuf,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub root: PathBuf,
    /// Listed (enabled, not denied).
    pub listed: bool,
    /// In the model's prompt.
    pub model_visible: bool,
    /// The filter stage's reasons for every restriction.
    pub reasons: Vec<String>,
    /// Unmet `os` / `requires`, each with the `install` hints for this system.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<crate::exec::Missing>,
}

/// One rule that decided, with what to change.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `found`, `disabled`, `denied`, `hidden-from-model`, `shadowed`, `parse-error`,
    /// `name-refused`, `refused`, `outside-roots`, `plugin-not-loaded`, `source-skipped`, `root-missing`,
    /// `hidden-dir`, `skipped-dir`, `too-deep`, `wrong-file-name`, `pattern-mismatch`,
    /// `symlinked-file`, `inside-skill`, `loose-excluded`, `symlinked-dir`, `walk-truncated`, `missing-file`, `not-walked`,
    /// `not-loaded`.
    pub code: String,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::serde_path::lossy_opt"
    )]
    pub root: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// The pipeline's own diagnostics behind the finding (refusals, parse errors).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Finding {
    fn new(code: &str, message: impl Into<String>) -> Finding {
        Finding {
            code: code.to_string(),
            root: None,
            scope: None,
            message: message.into(),
            fix: None,
            diagnostics: Vec::new(),
        }
    }

    fn under(mut self, root: &discover::roots::Root) -> Finding {
        self.root = Some(root.path.to_path_buf());
        self.scope = Some(root.scope);
        self
    }

    fn fix(mut self, fix: impl Into<String>) -> Finding {
        self.fix = Some(fix.into());
        self
    }

    /// Whether the file loaded (listed or not).
    pub fn is_loaded(&self) -> bool {
        matches!(
            self.code.as_str(),
            "found" | "disabled" | "denied" | "hidden-from-model"
        )
    }
}

/// A discovery run that keeps its walk.
struct Run {
    profile: discover::Profile,
    inputs: discover::Inputs,
    layout: WalkLayout,
    catalog: Catalog,
    /// Lookups by file identity ([`identity`]), built once per run.
    index: Index,
}

#[derive(Default)]
struct Index {
    /// Per root index, the files its walk listed.
    walked: HashMap<usize, HashSet<PathBuf>>,
    skills: HashMap<PathBuf, usize>,
    shadowed: HashMap<PathBuf, usize>,
    /// Error diagnostics per file.
    errors: HashMap<PathBuf, Vec<usize>>,
}

impl Index {
    fn new(layout: &WalkLayout, catalog: &Catalog) -> Index {
        let mut index = Index::default();
        for (root, files) in &layout.walked {
            index
                .walked
                .entry(*root)
                .or_default()
                .extend(files.iter().map(|f| identity(&f.path)));
        }
        for (i, s) in catalog.skills.iter().enumerate() {
            index.skills.entry(identity(&s.location)).or_insert(i);
        }
        for (i, s) in catalog.shadowed.iter().enumerate() {
            index.shadowed.entry(identity(&s.location)).or_insert(i);
        }
        for (i, d) in catalog.diagnostics.iter().enumerate() {
            if let (true, Some(path)) = (d.is_error(), &d.path) {
                index.errors.entry(identity(path)).or_default().push(i);
            }
        }
        index
    }
}

impl Run {
    fn new(deck: &Deck) -> Run {
        let profile = deck.profile().clone();
        let inputs = deck.inputs().clone();
        let options = deck.options().clone();
        let layout = discover::layout_for(&profile, &inputs, &options, discover::Keep::Nothing);
        let mut cache = ParseCache::default();
        let discovery =
            discover::finish_for(&profile, layout, &mut cache, discover::Keep::ForReload);
        let mut catalog = discovery.catalog;
        let host = crate::host_settings::HostRules::read(&options, &profile, &inputs);
        crate::filter::apply(&mut catalog, &options, &host);
        let index = Index::new(&discovery.layout, &catalog);
        Run {
            profile,
            inputs,
            layout: discovery.layout,
            catalog,
            index,
        }
    }

    fn walked(&self, index: usize) -> &[walk::WalkedFile] {
        self.layout
            .walked
            .iter()
            .find(|(i, _)| *i == index)
            .map_or(&[], |(_, files)| files.as_slice())
    }
}

/// The report for `deck`'s profile: every root, and the target's explanation.
pub fn diagnose(deck: &Deck, target: Option<&Target>) -> Report {
    let run = Run::new(deck);
    report(&run, target)
}

fn report(run: &Run, target: Option<&Target>) -> Report {
    let roots = run
        .layout
        .roots
        .iter()
        .enumerate()
        .map(|(i, root)| RootReport {
            path: root.path.to_path_buf(),
            scope: root.scope,
            kind: root.kind,
            pattern: root.pattern.clone(),
            exists: root.path.is_dir(),
            files: run.walked(i).len(),
            skills: run
                .catalog
                .skills
                .iter()
                .filter(|s| s.source == root.path)
                .count(),
            walk: root.walk.clone(),
        })
        .collect();
    let target = target.map(|t| {
        let files: Vec<FileReport> = candidate_files(run, t)
            .iter()
            .map(|f| explain(run, f))
            .collect();
        TargetReport {
            query: match t {
                Target::Path(p) => p.display().to_string(),
                Target::Name(n) => n.clone(),
            },
            found: files.iter().any(|f| f.found.is_some()),
            files,
        }
    });
    Report {
        profile: run.profile.name.clone(),
        project: run.inputs.project.clone(),
        roots,
        skipped: run.layout.skipped.clone(),
        skills: run.catalog.skills.len(),
        target,
    }
}

/// The skill file of a directory: its `SKILL.md` (or a file of that name in another case,
/// which `wrong-file-name` then explains).
fn skill_file(dir: &Path) -> PathBuf {
    let exact = dir.join("SKILL.md");
    if exact.exists() {
        return exact;
    }
    std::fs::read_dir(dir)
        .ok()
        .and_then(|entries| {
            entries.flatten().map(|e| e.path()).find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("skill.md"))
            })
        })
        .unwrap_or(exact)
}

fn absolute(path: &Path, base: &Path) -> PathBuf {
    discover::roots::normalise(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    })
}

/// The files the target may be.
fn candidate_files(run: &Run, target: &Target) -> Vec<PathBuf> {
    let mut files = Vec::new();
    match target {
        Target::Path(path) => {
            let path = absolute(path, &run.inputs.project);
            files.push(if path.is_dir() {
                skill_file(&path)
            } else {
                path
            });
        }
        Target::Name(name) => {
            let catalog = &run.catalog;
            files.extend(
                catalog
                    .skills
                    .iter()
                    .filter(|s| s.id == *name || s.name == *name)
                    .map(|s| s.location.to_path_buf()),
            );
            files.extend(
                catalog
                    .shadowed
                    .iter()
                    .filter(|s| s.id == *name || s.name == *name)
                    .map(|s| s.location.to_path_buf()),
            );
            files.extend(
                catalog
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .filter_map(|d| d.path.as_deref().map(Path::to_path_buf))
                    .filter(|p| dir_name(p) == Some(name.as_str())),
            );
            // Skill directories of that name the walks did not list: under any root, and in
            // the project itself (a skill outside every root).
            let mut budget = 20_000usize;
            for root in &run.layout.roots {
                scan(&root.path, name, 0, &mut budget, &mut files);
            }
            scan(&run.inputs.project, name, 0, &mut budget, &mut files);
        }
    }
    let mut seen = HashSet::new();
    files.retain(|f| seen.insert(identity(f)));
    files
}

fn dir_name(file: &Path) -> Option<&str> {
    file.parent()?.file_name()?.to_str()
}

/// Directories named `name` holding a skill file, below `dir` (bounded: no links followed,
/// at most 24 levels, `budget` directories in all).
fn scan(dir: &Path, name: &str, depth: usize, budget: &mut usize, out: &mut Vec<PathBuf>) {
    if depth > 24 || *budget == 0 {
        return;
    }
    *budget -= 1;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = entry.path();
        let entry_name = entry.file_name();
        if entry_name == ".git" || entry_name == "node_modules" || entry_name == "target" {
            continue;
        }
        if entry_name.to_str() == Some(name) {
            let file = skill_file(&path);
            if file.exists() {
                out.push(file);
            }
        }
        scan(&path, name, depth + 1, budget, out);
    }
}

/// A path for comparisons: its canonical form when it exists.
fn identity(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(file)) => std::fs::canonicalize(dir)
            .map(|d| d.join(file))
            .unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

fn under(path: &Path, root: &Path) -> bool {
    path.starts_with(root) || identity(path).starts_with(identity_dir(root))
}

fn identity_dir(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// `path` relative to `root`, through the canonical forms when the lexical ones differ.
fn relative(path: &Path, root: &Path) -> Option<PathBuf> {
    path.strip_prefix(root)
        .ok()
        .map(Path::to_path_buf)
        .or_else(|| {
            identity(path)
                .strip_prefix(identity_dir(root))
                .ok()
                .map(Path::to_path_buf)
        })
}

/// Explain what the pipeline did with `file`.
fn explain(run: &Run, file: &Path) -> FileReport {
    let file = absolute(file, &run.inputs.project);
    let key = identity(&file);
    let mut findings = Vec::new();
    let containing: Vec<usize> = run
        .layout
        .roots
        .iter()
        .enumerate()
        .filter(|(_, r)| under(&file, &r.path))
        .map(|(i, _)| i)
        .collect();
    if containing.is_empty() {
        findings.extend(outside(run, &file));
    }
    for index in containing {
        let root = &run.layout.roots[index];
        if !root.path.is_dir() {
            findings.push(
                Finding::new(
                    "root-missing",
                    "this root does not exist (or is not a directory)",
                )
                .under(root),
            );
            continue;
        }
        let listed = run
            .index
            .walked
            .get(&index)
            .is_some_and(|files| files.contains(&key));
        if listed {
            findings.push(loaded(run, root, &key));
        } else {
            findings.extend(walk_reasons(run, index, &file));
        }
    }
    let found = findings.iter().find(|f| f.is_loaded()).and_then(|_| {
        run.index
            .skills
            .get(&key)
            .map(|&i| &run.catalog.skills[i])
            .map(|s| LoadedSkill {
                id: s.id.to_string(),
                name: s.name.to_string(),
                scope: s.scope,
                location: s.location.to_path_buf(),
                root: s.source.to_path_buf(),
                listed: s.status.is_listed(),
                model_visible: s.status.is_model_visible(),
                reasons: s.status.reasons.clone(),
                missing: crate::exec::check_requirements(
                    &s.manifest.tool,
                    run.inputs
                        .env
                        .get(std::ffi::OsStr::new("PATH"))
                        .map(|p| p.as_os_str()),
                    |name| run.inputs.env.get(std::ffi::OsStr::new(name)).cloned(),
                ),
            })
    });
    FileReport {
        path: file,
        found,
        findings,
    }
}

/// A file under no root: a gated source that would hold it, else where it could go.
fn outside(run: &Run, file: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &run.layout.skipped {
        if let Some(path) = &s.path {
            if under(file, path) {
                out.push(
                    Finding::new(
                        "source-skipped",
                        format!("it is under {} ({} source), which is skipped: {}", path.display(), s.scope.as_str(), s.reason),
                    )
                    .fix(s.fix.clone().unwrap_or_else(|| {
                        "unset the variable (or trust the workspace) to let the host read this source"
                            .to_string()
                    })),
                );
            }
        }
    }
    if out.is_empty() {
        out.extend(unregistered_plugin(run, file));
    }
    if out.is_empty() {
        let first_project = run
            .layout
            .roots
            .iter()
            .find(|r| {
                r.scope == Scope::Project
                    && r.kind == SkillKind::Skill
                    && r.path.starts_with(&run.inputs.project)
            })
            .or_else(|| run.layout.roots.first());
        let mut finding = Finding::new(
            "outside-roots",
            format!(
                "it is under none of the {} root(s) profile `{}` searches",
                run.layout.roots.len(),
                run.profile.name
            ),
        );
        finding = match first_project {
            Some(root) => finding.fix(format!(
                "move the skill directory into {} (or pass --root with its parent directory)",
                root.path.display()
            )),
            None => finding.fix("pass --root with the skill's parent directory"),
        };
        out.push(finding);
        for s in run.layout.skipped.iter().filter(|s| s.path.is_none()) {
            out.push(Finding::new(
                "source-skipped",
                format!(
                    "source `{}` ({}) gave no root: {}",
                    s.template,
                    s.scope.as_str(),
                    s.reason
                ),
            ));
        }
    }
    out
}

/// A file below a plugin registry's directory (Claude Code's `plugins/`: marketplace clones,
/// old cache versions) that no root covers: the host reads plugin skills only from plugins
/// the registry records for this project and the settings enable.
fn unregistered_plugin(run: &Run, file: &Path) -> Option<Finding> {
    let registry = run.profile.sources.iter().find_map(|source| {
        let registry = source.registry.as_ref()?;
        let path = discover::roots::expand_template(&registry.file, &run.inputs, None)
            .ok()
            .flatten()?;
        let dir = path.parent()?.to_path_buf();
        under(file, &dir).then_some((path, registry.enabled_key.clone()))
    })?;
    let (path, key) = registry;
    Some(
        Finding::new(
            "plugin-not-loaded",
            format!(
                "it is in the plugin directory, but profile `{}` loads plugin skills only from plugins {} records as installed for this project and `{key}` in the settings switches on",
                run.profile.name,
                path.display()
            ),
        )
        .fix("install the plugin (`skilldeck plugin install PLUGIN@MARKETPLACE`) or enable it (`skilldeck plugin enable PLUGIN@MARKETPLACE`); a marketplace clone itself is never read"),
    )
}

/// A file the walk listed: loaded, shadowed or refused.
fn loaded(run: &Run, root: &discover::roots::Root, key: &Path) -> Finding {
    let catalog = &run.catalog;
    if let Some(skill) = run.index.skills.get(key).map(|&i| &catalog.skills[i]) {
        if skill.source != root.path {
            return Finding::new(
                "found",
                format!(
                    "loaded as `{}`, through the root {}",
                    skill.id,
                    skill.source.display()
                ),
            )
            .under(root);
        }
        let status = &skill.status;
        let reasons = status.reasons.join("; ");
        let finding = if status.permission == crate::permissions::Decision::Deny {
            Finding::new(
                "denied",
                format!("loaded as `{}` but denied: {reasons}", skill.id),
            )
            .fix("change the permission rule that denies it (--rules, host settings)")
        } else if !status.enabled {
            Finding::new("disabled", format!("loaded as `{}` but switched off: {reasons}", skill.id))
                .fix("remove what switches it off (--disable, host settings, `enabled: false`), or --enable it")
        } else if !status.is_model_visible() {
            Finding::new(
                "hidden-from-model",
                format!(
                    "loaded as `{}` and listed, but not in the model's prompt: {reasons}",
                    skill.id
                ),
            )
        } else {
            Finding::new(
                "found",
                format!("loaded as `{}` ({})", skill.id, skill.scope.as_str()),
            )
        };
        return finding.under(root);
    }
    if let Some(s) = run.index.shadowed.get(key).map(|&i| &catalog.shadowed[i]) {
        return Finding::new(
            "shadowed",
            format!(
                "`{}` is shadowed by {}: {}",
                s.id,
                s.winner.display(),
                s.reason
            ),
        )
        .under(root)
        .fix("rename one of the two skills, or remove the one you do not want");
    }
    let errors: Vec<Diagnostic> = run
        .index
        .errors
        .get(key)
        .map(|found| {
            found
                .iter()
                .map(|&i| catalog.diagnostics[i].clone())
                .collect()
        })
        .unwrap_or_default();
    if !errors.is_empty() {
        const NAME_CODES: [&str; 7] = [
            "invalid-name",
            "name-too-long",
            "reserved-name",
            "missing-name",
            "name-mismatch",
            "name-not-lowercase",
            "unnamed-skill",
        ];
        let first = &errors[0];
        let code = if errors.iter().any(|d| NAME_CODES.contains(&&*d.code)) {
            "name-refused"
        } else if first.line.is_some() {
            "parse-error"
        } else {
            "refused"
        };
        let at = first
            .line
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        let mut finding = Finding::new(
            code,
            format!(
                "refused by profile `{}`: {}{at}",
                run.profile.name, first.message
            ),
        )
        .under(root);
        finding.fix = first.hint.as_deref().map(str::to_string);
        finding.diagnostics = errors;
        return finding;
    }
    Finding::new(
        "not-loaded",
        "listed by the walk but not loaded (the project's own skills directory under the nested root, or the same file reached twice)",
    )
    .under(root)
}

/// Why the walk of root `index` did not list `file`: every walk rule that stops it.
fn walk_reasons(run: &Run, index: usize, file: &Path) -> Vec<Finding> {
    let root = &run.layout.roots[index];
    let rules = &root.walk;
    let mut out = Vec::new();
    let Some(rel) = relative(file, &root.path) else {
        return out;
    };
    let dirs: Vec<String> = rel
        .parent()
        .map(|p| {
            p.components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    for (depth, name) in dirs.iter().enumerate() {
        match walk::dir_excluded(name, rules.hidden, &rules.skip) {
            Some(walk::Excluded::Hidden) => out.push(
                Finding::new(
                    "hidden-dir",
                    format!("`{name}` (depth {}) is a hidden directory, and this root's walk does not enter hidden directories", depth + 1),
                )
                .under(root)
                .fix(format!("rename `{name}` so it does not start with `.`, or move the skill out of it")),
            ),
            Some(walk::Excluded::Skipped) => out.push(
                Finding::new(
                    "skipped-dir",
                    format!("`{name}` is a directory this root's walk never enters (skip list: {})", rules.skip.join(", ")),
                )
                .under(root)
                .fix(format!("move the skill out of `{name}`")),
            ),
            None => {}
        }
    }
    let entries = rel.components().count();
    if let Some(limit) = walk::entry_depth_limit(rules) {
        if entries > limit {
            out.push(
                Finding::new(
                    "too-deep",
                    format!(
                        "its directory is {} level(s) below the root; this root reads at most {} (walk.max_depth = {})",
                        entries - 1,
                        limit - 1,
                        limit - 1
                    ),
                )
                .under(root)
                .fix(format!("move the skill directory at most {} level(s) below {}", limit - 1, root.path.display())),
            );
        }
    }
    let loose = root
        .loose
        .as_deref()
        .filter(|l| walk::matcher(&l.pattern).is_ok_and(|g| g.is_match(&rel)));
    if let Some(loose) = loose {
        out.extend(loose_reason(run, index, loose, &rel));
    } else {
        out.extend(pattern_reason(root, &rel, out.is_empty()));
    }
    if !file.exists() && std::fs::symlink_metadata(file).is_err() {
        out.push(Finding::new("missing-file", "there is no such file").under(root));
    } else if !walk::lists_file(rules, file) {
        out.push(
            Finding::new(
                "symlinked-file",
                "the skill file is a symbolic link, and this host ignores symlinked files",
            )
            .under(root)
            .fix("replace the link with a copy of the file (a symlinked directory is followed)"),
        );
    }
    if out.is_empty() && !rules.nested_skills {
        let listed: HashSet<PathBuf> = run
            .walked(index)
            .iter()
            .filter_map(|f| f.rel().parent().map(Path::to_path_buf))
            .collect();
        if let Some(outer) = rel
            .parent()
            .into_iter()
            .flat_map(Path::ancestors)
            .skip(1)
            .find(|a| listed.contains(*a) || root.path.join(a).join("SKILL.md").is_file())
        {
            out.push(
                Finding::new(
                    "inside-skill",
                    format!("it is inside the skill directory {}, and this host does not load skills nested in a skill", root.path.join(outer).display()),
                )
                .under(root)
                .fix("move it out of the other skill's directory"),
            );
        }
    }
    if out.is_empty() {
        if let Some(d) = run
            .layout
            .diagnostics
            .iter()
            .find(|d| d.code == "walk-truncated" && d.path.as_deref() == Some(&root.path))
        {
            let mut f = Finding::new("walk-truncated", d.message.clone()).under(root);
            f.fix = d.hint.as_deref().map(str::to_string);
            f.diagnostics.push(d.clone());
            out.push(f);
        }
    }
    if out.is_empty() {
        let mut f = Finding::new(
            "not-walked",
            "the walk did not reach it (see the diagnostics: a symbolic link loop, an unreadable directory)",
        )
        .under(root);
        f.diagnostics = run
            .layout
            .diagnostics
            .iter()
            .filter(|d| d.path.as_deref().is_some_and(|p| file.starts_with(p)))
            .cloned()
            .collect();
        out.push(f);
    }
    out
}

/// Which profiles see which skills, for one project.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub project: PathBuf,
    pub profiles: Vec<String>,
    pub rows: Vec<Row>,
}

/// One skill file across profiles.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The id the first profile that loads it gives it (else its directory name).
    pub id: String,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub location: PathBuf,
    /// One cell per profile, in `profiles` order.
    pub cells: Vec<Cell>,
}

/// One skill × profile.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    pub profile: String,
    /// Loaded and listed.
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The deciding finding's code (`found` when `ok`).
    pub code: String,
    pub message: String,
}

/// Why a file the root's pattern does not match is not a skill: its name, else its place
/// (only when `nothing_else` explains it).
fn pattern_reason(root: &discover::roots::Root, rel: &Path, nothing_else: bool) -> Option<Finding> {
    match walk::matcher(&root.pattern) {
        Ok(glob) if !glob.is_match(rel) => {
            let wanted = root.pattern.rsplit('/').next().unwrap_or_default();
            let name = rel
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let literal = !wanted.contains(['*', '?', '[', '{']);
            if literal && name != wanted {
                return Some(
                    Finding::new(
                        "wrong-file-name",
                        format!("the file is named `{name}`; this root looks for `{wanted}` (pattern `{}`)", root.pattern),
                    )
                    .under(root)
                    .fix(format!("rename the file to `{wanted}`")),
                );
            } else if nothing_else {
                return Some(
                    Finding::new(
                        "pattern-mismatch",
                        format!("`{}` does not match this root's pattern `{}`", rel.display(), root.pattern),
                    )
                    .under(root)
                    .fix("put the skill where the pattern expects it (e.g. `<root>/<name>/SKILL.md`)"),
                );
            }
        }
        _ => {}
    }
    None
}

/// Why a file the root's `[loose]` pattern matches was not walked as a loose skill: a name
/// the profile never takes, a place inside a skill directory, or a symlinked directory the
/// host does not enter. `None` when the walk rules above already explain it.
fn loose_reason(
    run: &Run,
    index: usize,
    loose: &discover::profile::Loose,
    rel: &Path,
) -> Option<Finding> {
    let root = &run.layout.roots[index];
    let name = rel.file_name()?.to_string_lossy();
    if !discover::loose::keeps_name(loose, &name) {
        return Some(
            Finding::new(
                "loose-excluded",
                format!("`{name}` is never a skill in this root (the profile's `[loose]` exclude lists)"),
            )
            .under(root)
            .fix("give the file another name, or make it a skill folder with a SKILL.md"),
        );
    }
    let mut dirs = rel
        .ancestors()
        .skip(1)
        .filter(|a| !a.as_os_str().is_empty());
    if loose.skip_skill_dirs {
        let skill_dirs: HashSet<&Path> = run
            .walked(index)
            .iter()
            .filter(|f| !f.loose)
            .filter_map(|f| f.rel().parent())
            .collect();
        if let Some(dir) = dirs.clone().find(|d| skill_dirs.contains(d)) {
            return Some(
                Finding::new(
                    "inside-skill",
                    format!("it is a file of the skill directory {}: Markdown files there belong to that skill and are not skills themselves", root.path.join(dir).display()),
                )
                .under(root)
                .fix("move the file out of the skill directory"),
            );
        }
    }
    if !loose.follow_links {
        if let Some(dir) = dirs.find(|d| {
            std::fs::symlink_metadata(root.path.join(d)).is_ok_and(|m| m.file_type().is_symlink())
        }) {
            return Some(
                Finding::new(
                    "symlinked-dir",
                    format!("`{}` is a symbolic link to a directory, and this host does not look for Markdown skills inside linked directories", dir.display()),
                )
                .under(root)
                .fix("move the file into a real directory (a linked file is found)"),
            );
        }
    }
    None
}

/// How far along the pipeline a finding got (the deciding one is the furthest).
fn stage(code: &str) -> u8 {
    match code {
        "found" => 9,
        "hidden-from-model" => 8,
        "disabled" | "denied" => 7,
        "shadowed" => 6,
        "name-refused" | "parse-error" | "refused" => 5,
        "not-loaded" => 4,
        "outside-roots" | "plugin-not-loaded" | "source-skipped" => 0,
        _ => 2,
    }
}

/// The finding that decided for a file (the one furthest along the pipeline).
pub fn deciding(report: &FileReport) -> Option<&Finding> {
    report
        .findings
        .iter()
        .enumerate()
        .max_by_key(|(i, f)| (stage(&f.code), std::cmp::Reverse(*i)))
        .map(|(_, f)| f)
}

/// Compare `decks` (one per profile, same project): every skill file any of them loads,
/// shadows or refuses, with each profile's verdict.
pub fn compare(decks: &[Deck]) -> Comparison {
    let runs: Vec<Run> = decks.iter().map(Run::new).collect();
    let mut rows: BTreeMap<PathBuf, (PathBuf, Option<String>)> = BTreeMap::new();
    let mut order: Vec<PathBuf> = Vec::new();
    let mut add = |path: &Path, id: Option<&str>| {
        let key = identity(path);
        match rows.get_mut(&key) {
            Some(entry) => {
                if entry.1.is_none() {
                    entry.1 = id.map(str::to_string);
                }
            }
            None => {
                order.push(key.clone());
                rows.insert(key, (path.to_path_buf(), id.map(str::to_string)));
            }
        }
    };
    for run in &runs {
        for s in &run.catalog.skills {
            add(&s.location, Some(&s.id));
        }
    }
    for run in &runs {
        for s in &run.catalog.shadowed {
            add(&s.location, None);
        }
        let walked: HashSet<&PathBuf> = run.index.walked.values().flatten().collect();
        for (key, found) in &run.index.errors {
            if walked.contains(key) {
                if let Some(p) = found
                    .first()
                    .and_then(|&i| run.catalog.diagnostics[i].path.as_deref())
                {
                    add(p, None);
                }
            }
        }
    }
    let mut out: Vec<Row> = order
        .into_iter()
        .filter_map(|key| rows.remove(&key))
        .map(|(location, id)| {
            let cells = runs
                .iter()
                .map(|run| {
                    let report = explain(run, &location);
                    let decided = deciding(&report);
                    Cell {
                        profile: run.profile.name.clone(),
                        ok: report.found.as_ref().is_some_and(|f| f.listed),
                        id: report.found.as_ref().map(|f| f.id.clone()),
                        code: decided.map_or_else(|| "not-found".to_string(), |f| f.code.clone()),
                        message: decided.map_or_else(String::new, |f| f.message.clone()),
                    }
                })
                .collect();
            let id = id.unwrap_or_else(|| dir_name(&location).unwrap_or_default().to_string());
            Row {
                id,
                location,
                cells,
            }
        })
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id).then(a.location.cmp(&b.location)));
    Comparison {
        project: runs
            .first()
            .map(|r| r.inputs.project.clone())
            .unwrap_or_default(),
        profiles: runs.iter().map(|r| r.profile.name.clone()).collect(),
        rows: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::DeckOptions;

    fn write(root: &Path, rel: &str, name: &str) -> PathBuf {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            format!("---\nname: {name}\ndescription: A skill.\n---\nBody.\n"),
        )
        .unwrap();
        path
    }

    fn deck(root: &Path, profile: &str, env: &[(&str, &str)]) -> Deck {
        std::fs::create_dir_all(root.join("home")).unwrap();
        std::fs::create_dir_all(root.join("p/.git")).unwrap();
        Deck::new(DeckOptions {
            profile: profile.to_string(),
            project_dir: root.join("p"),
            home_dir: Some(root.join("home")),
            env: Some(env.iter().map(|(k, v)| (k.into(), v.into())).collect()),
            system_root: Some(root.join("sys")),
            ..DeckOptions::default()
        })
        .unwrap()
    }

    fn codes(report: &Report) -> Vec<String> {
        let target = report.target.as_ref().unwrap();
        target.files[0]
            .findings
            .iter()
            .map(|f| f.code.clone())
            .collect()
    }

    fn tmp() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        (t, root)
    }

    #[test]
    fn explains_loose_markdown_files_with_the_profiles_loose_rules() {
        let (_t, root) = tmp();
        let dir = "p/.openhands/microagents";
        let readme = write(&root, &format!("{dir}/README.md"), "readme");
        let loose = write(&root, &format!("{dir}/git.md"), "git");
        write(&root, &format!("{dir}/tools/SKILL.md"), "tools");
        let notes = write(&root, &format!("{dir}/tools/notes.md"), "notes");
        let openhands = deck(&root, "openhands", &[]);
        let r = diagnose(&openhands, Some(&Target::Path(readme)));
        assert_eq!(codes(&r), ["loose-excluded"]);
        let r = diagnose(&openhands, Some(&Target::Path(notes)));
        assert_eq!(codes(&r), ["inside-skill"]);
        // Without `triggers` it is always on: loaded, never offered to the model.
        let r = diagnose(&openhands, Some(&Target::Path(loose)));
        assert_eq!(codes(&r), ["hidden-from-model"]);
        assert!(r.target.unwrap().files[0].findings[0]
            .message
            .contains("always on"));
        // A profile without `[loose]` still names the file it wants.
        let codex = deck(&root, "codex", &[]);
        let other = write(&root, "p/.agents/skills/x/notes.md", "x");
        let r = diagnose(&codex, Some(&Target::Path(other)));
        assert_eq!(codes(&r), ["wrong-file-name"]);
    }

    #[test]
    fn explains_walk_rules_with_the_walks_own_limits() {
        let (_t, root) = tmp();
        let deep = write(&root, "p/.agents/skills/a/b/c/d/e/f/deep/SKILL.md", "deep");
        let ok = write(&root, "p/.agents/skills/a/b/c/d/e/ok/SKILL.md", "ok");
        let hidden = write(&root, "p/.agents/skills/.x/hid/SKILL.md", "hid");
        let lower = write(&root, "p/.agents/skills/lower/skill.md", "lower");
        let codex = deck(&root, "codex", &[]);
        let r = diagnose(&codex, Some(&Target::Path(deep)));
        assert_eq!(codes(&r), ["too-deep"]);
        assert!(!r.target.as_ref().unwrap().found);
        let r = diagnose(&codex, Some(&Target::Path(ok.parent().unwrap().into())));
        assert_eq!(codes(&r), ["found"]);
        assert_eq!(r.target.unwrap().files[0].found.as_ref().unwrap().id, "ok");
        let r = diagnose(&codex, Some(&Target::Name("hid".into())));
        assert_eq!(codes(&r), ["hidden-dir"]);
        assert_eq!(r.target.unwrap().files[0].path, hidden);
        let r = diagnose(&codex, Some(&Target::Path(lower.parent().unwrap().into())));
        assert_eq!(codes(&r), ["wrong-file-name"]);
        // The per-root report: every root in order, with its rules.
        let r = diagnose(&codex, None);
        let agents = r
            .roots
            .iter()
            .find(|x| x.path == root.join("p/.agents/skills"))
            .unwrap();
        assert!(agents.exists);
        assert_eq!(agents.skills, 1);
        assert_eq!(agents.walk.max_depth, Some(6));
        assert!(!agents.walk.hidden);
    }

    #[test]
    fn a_skill_in_a_marketplace_clone_is_a_plugin_not_loaded() {
        let (_t, root) = tmp();
        let clone = write(
            &root,
            "home/.claude/plugins/marketplaces/acme/plugins/tools/skills/pdf/SKILL.md",
            "pdf",
        );
        let claude = deck(&root, "claude-code", &[]);
        let r = diagnose(&claude, Some(&Target::Path(clone)));
        assert_eq!(codes(&r), ["plugin-not-loaded"]);
        let finding = &r.target.unwrap().files[0].findings[0];
        assert!(
            finding.message.contains("installed_plugins.json"),
            "{}",
            finding.message
        );
        assert!(finding
            .fix
            .as_deref()
            .unwrap_or("")
            .contains("plugin install"));
        // Elsewhere the general answer stays.
        let stray = write(&root, "elsewhere/x/SKILL.md", "x");
        let r = diagnose(&claude, Some(&Target::Path(stray)));
        assert_eq!(codes(&r), ["outside-roots"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_skill_file_is_ignored_where_the_host_skips_them() {
        let (_t, root) = tmp();
        let real = write(&root, "elsewhere/SKILL.md", "linked");
        std::fs::create_dir_all(root.join("p/.agents/skills/linked")).unwrap();
        let link = root.join("p/.agents/skills/linked/SKILL.md");
        std::os::unix::fs::symlink(real, &link).unwrap();
        let r = diagnose(
            &deck(&root, "codex", &[]),
            Some(&Target::Path(link.clone())),
        );
        assert_eq!(codes(&r), ["symlinked-file"]);
        let r = diagnose(&deck(&root, "universal", &[]), Some(&Target::Path(link)));
        assert_eq!(codes(&r)[0], "found");
    }

    #[test]
    fn a_gated_source_is_named() {
        let (_t, root) = tmp();
        let file = write(&root, "p/.gemini/skills/g/SKILL.md", "g");
        let gated = deck(&root, "gemini", &[("GEMINI_CLI_TRUST_WORKSPACE", "false")]);
        let r = diagnose(&gated, Some(&Target::Path(file.clone())));
        assert_eq!(codes(&r), ["source-skipped"]);
        assert!(r
            .skipped
            .iter()
            .any(|s| s.reason.contains("GEMINI_CLI_TRUST_WORKSPACE")));
        let open = deck(&root, "gemini", &[]);
        assert_eq!(
            codes(&diagnose(&open, Some(&Target::Path(file)))),
            ["found"]
        );
    }

    #[test]
    fn a_plugin_without_its_marker_is_named_with_the_fix() {
        let (_t, root) = tmp();
        let file = write(&root, "p/.cline/plug/skills/s/SKILL.md", "s");
        // `.cline` also holds the host's own folders; one without `skills/` is not a plugin.
        std::fs::create_dir_all(root.join("p/.cline/tasks")).unwrap();
        let cline = deck(&root, "cline", &[]);
        let r = diagnose(&cline, Some(&Target::Path(file.clone())));
        assert_eq!(codes(&r), ["source-skipped"]);
        let finding = &r.target.as_ref().unwrap().files[0].findings[0];
        assert!(
            finding.message.contains("managed.json"),
            "{}",
            finding.message
        );
        assert!(finding
            .fix
            .as_deref()
            .unwrap_or("")
            .contains("managed.json"));
        assert_eq!(r.skipped.len(), 1, "{:?}", r.skipped);
        std::fs::write(root.join("p/.cline/plug/managed.json"), "{}").unwrap();
        let r = diagnose(&deck(&root, "cline", &[]), Some(&Target::Path(file)));
        assert_eq!(codes(&r), ["found"]);
    }

    #[test]
    fn shadowed_and_refused_files_carry_the_pipelines_reasons() {
        let (_t, root) = tmp();
        write(&root, "p/.agents/skills/dup/SKILL.md", "dup");
        let loser = write(&root, "p/.claude/skills/dup/SKILL.md", "dup");
        let bad = write(&root, "p/.agents/skills/Bad/SKILL.md", "Bad_Name");
        let r = diagnose(&deck(&root, "universal", &[]), Some(&Target::Path(loser)));
        assert_eq!(codes(&r), ["shadowed"]);
        let r = diagnose(&deck(&root, "mistral-vibe", &[]), Some(&Target::Path(bad)));
        assert_eq!(codes(&r), ["name-refused"]);
        let f = &r.target.unwrap().files[0].findings[0];
        assert_eq!(f.diagnostics[0].code, "invalid-name");
    }

    #[test]
    fn compare_lists_each_profiles_verdict() {
        let (_t, root) = tmp();
        write(&root, "p/.agents/skills/a/b/c/d/e/f/deep/SKILL.md", "deep");
        let decks = [deck(&root, "universal", &[]), deck(&root, "codex", &[])];
        let table = compare(&decks);
        assert_eq!(table.profiles, ["universal", "codex"]);
        assert_eq!(table.rows.len(), 1);
        let cells = &table.rows[0].cells;
        assert!(cells[0].ok);
        assert_eq!(cells[1].code, "too-deep");
    }
}
