//! The operations: add, remove, update, installed, verify, install --frozen.

use crate::archive::{self, Kind};
use crate::error::{InstallError, Result};
use crate::select::{self, Found};
use crate::source::Source;
use crate::{git, http, index, report, stage, Context, ProgressFn, Scope};
use serde::{Deserialize, Serialize};
use skilldeck::{LockEntry, LockFile, TreeDiff};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Audit one skill of a source before it is staged; refuse it above `threshold`.
fn audit_skill(
    name: &str,
    dir: &Path,
    source: &str,
    threshold: skilldeck::AuditSeverity,
) -> Result<Option<SkillAudit>> {
    let report = skilldeck::audit(dir, &skilldeck::AuditOptions::default())
        .map_err(|err| InstallError::io(dir, std::io::Error::other(err.to_string())))?;
    // Links leaving the skill are never copied (staging skips them with a warning), so
    // they cannot make the installed copy unsafe: reported, not refused.
    let above: Vec<skilldeck::AuditFinding> = report
        .above(threshold)
        .into_iter()
        .filter(|f| f.code != "symlink-escape")
        .cloned()
        .collect();
    if !above.is_empty() {
        return Err(InstallError::AuditRefused {
            name: name.to_string(),
            source_spec: source.to_string(),
            threshold,
            findings: above,
        });
    }
    Ok((!report.findings.is_empty()).then(|| SkillAudit {
        name: name.to_string(),
        findings: report.findings,
    }))
}

/// `skilldeck add`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AddRequest {
    /// What to install from (see [`Source::parse`]); a relative directory resolves against
    /// the project directory (and is recorded as written, so the lock stays portable).
    pub source: String,
    /// Only these skills (all the source holds when empty).
    pub skills: Vec<String>,
    /// Branch, tag or commit (git sources).
    pub git_ref: Option<String>,
    /// `sha256:<hex>` or bare hex pin (archive sources), checked before extracting.
    pub sha256: Option<String>,
    /// Project or user.
    pub scope: Scope,
    /// Host profiles to install for (default: `.agents/skills` only). The first host's
    /// directory holds the real copy; the others get relative symlinks (copies where the
    /// platform has none).
    pub hosts: Vec<String>,
    /// Replace a skill that was modified since it was installed, or that skilldeck did not
    /// install.
    pub force: bool,
    /// Refuse a skill whose audit ([`skilldeck::audit`]) has a finding more severe than
    /// this. `None` refuses `critical` findings only (as `Some(High)`); `Some(Critical)`
    /// refuses nothing.
    pub max_severity: Option<skilldeck::AuditSeverity>,
}

/// The audit findings of one installed skill (only skills with findings are listed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillAudit {
    /// The skill's name.
    pub name: String,
    /// Its findings, most severe first; paths are relative to the skill directory.
    pub findings: Vec<skilldeck::AuditFinding>,
}

/// One installed skill, as the lock records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstalledSkill {
    /// Its name.
    pub name: String,
    /// Its lock entry.
    pub entry: LockEntry,
}

/// What `add` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AddReport {
    /// The skills installed (or replaced).
    pub installed: Vec<InstalledSkill>,
    /// What was skipped and why (symlinks leaving a skill, unverifiable index entries, …).
    pub warnings: Vec<String>,
    /// What the audit of each installed skill found (at or below the refusal threshold).
    #[serde(default)]
    pub audit: Vec<SkillAudit>,
}

/// What `remove` did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoveReport {
    /// The skills removed.
    pub removed: Vec<String>,
}

/// One skill's verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillVerify {
    /// Its name.
    pub name: String,
    /// Its directory, relative to the scope's base.
    pub path: String,
    /// What differs from the lock.
    pub diff: TreeDiff,
}

/// What `verify` found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// True when every skill is exactly what the lock records.
    pub clean: bool,
    /// Every skill in the lock.
    pub skills: Vec<SkillVerify>,
}

/// One skill's update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateChange {
    /// Its name.
    pub name: String,
    /// The commit recorded (git sources).
    pub from_commit: Option<String>,
    /// The commit the source gives now.
    pub to_commit: Option<String>,
    /// The skill digest recorded.
    pub from_digest: String,
    /// The skill digest the source gives now.
    pub to_digest: String,
    /// Files that change, appear or disappear.
    pub files: TreeDiff,
    /// False for `--dry-run`.
    pub applied: bool,
}

/// What `update` found and did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateReport {
    /// Skills whose commit or digest changed.
    pub changes: Vec<UpdateChange>,
    /// Skills already current.
    pub up_to_date: Vec<String>,
    /// Warnings from fetching and staging.
    pub warnings: Vec<String>,
    /// The audit of each changed skill's new files (only skills with findings). Applying an
    /// update refuses `critical` findings (`AUDIT_REFUSED`), as `add` does by default.
    #[serde(default)]
    pub audit: Vec<SkillAudit>,
}

/// What `install --frozen` did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrozenReport {
    /// Skills (re)installed from their sources.
    pub restored: Vec<String>,
    /// Skills already exactly as locked.
    pub unchanged: Vec<String>,
}

// ---- fetching ----

struct Fetched {
    _tmp: Option<TempDir>,
    /// The source's root (repository, archive, index directory).
    root: PathBuf,
    /// Where to look for skills (root or a subpath of it).
    start: PathBuf,
    commit: Option<String>,
    url: Option<String>,
    sha256: Option<String>,
    warnings: Vec<String>,
}

fn tmp() -> Result<TempDir> {
    tempfile::Builder::new()
        .prefix("skilldeck-fetch-")
        .tempdir()
        .map_err(|e| InstallError::io(std::env::temp_dir(), e))
}

fn fetch(
    source: &Source,
    spec: &str,
    wanted: &[String],
    ctx: &Context,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Fetched> {
    let limits = &ctx.limits;
    match source {
        Source::Local { path } => {
            let path = if path.is_absolute() {
                path.clone()
            } else {
                ctx.project_dir.join(path)
            };
            if !path.is_dir() {
                return Err(InstallError::BadSource {
                    source_spec: spec.to_string(),
                    message: format!(
                        "{} is not a directory (nor a git, archive or index URL)",
                        path.display()
                    ),
                });
            }
            Ok(Fetched {
                _tmp: None,
                root: path.clone(),
                start: path,
                commit: None,
                url: None,
                sha256: None,
                warnings: Vec::new(),
            })
        }
        Source::Git {
            url,
            git_ref,
            subpath,
            ..
        } => {
            report(progress, "fetch", format!("git clone {url}"));
            let dir = tmp()?;
            let repo = dir.path().join("repo");
            let commit = git::clone(url, git_ref.as_deref(), &repo)?;
            let start = match subpath {
                Some(sub) => repo.join(sub),
                None => repo.clone(),
            };
            if !start.is_dir() {
                return Err(InstallError::BadSource {
                    source_spec: spec.to_string(),
                    message: format!(
                        "the repository has no directory `{}` at {commit}",
                        subpath.as_deref().unwrap_or("")
                    ),
                });
            }
            Ok(Fetched {
                _tmp: Some(dir),
                root: repo,
                start,
                commit: Some(commit),
                url: Some(url.clone()),
                sha256: None,
                warnings: Vec::new(),
            })
        }
        Source::Archive { url, sha256 } => {
            report(progress, "fetch", format!("download {url}"));
            let kind = Kind::from_url(url).ok_or_else(|| InstallError::BadSource {
                source_spec: spec.to_string(),
                message: "an archive URL must end in .tar.gz, .tgz or .zip".into(),
            })?;
            if let Some(pin) = sha256 {
                skilldeck::digest_hex(pin).map_err(|e| InstallError::BadSource {
                    source_spec: spec.to_string(),
                    message: format!("--sha256: {e}"),
                })?;
            }
            let bytes = http::get(url, limits.max_download_bytes, limits.timeout)?;
            // The pin is checked on the downloaded bytes, before a single entry is read.
            if let Some(pin) = sha256 {
                index::check(url, pin, &bytes)?;
            }
            let dir = tmp()?;
            let root = dir.path().join("archive");
            std::fs::create_dir(&root).map_err(|e| InstallError::io(&root, e))?;
            archive::extract(&bytes, kind, &root, url, index::extract_limits(limits))?;
            Ok(Fetched {
                _tmp: Some(dir),
                start: root.clone(),
                root,
                commit: None,
                url: Some(url.clone()),
                sha256: Some(skilldeck::file_digest(&bytes)),
                warnings: Vec::new(),
            })
        }
        Source::Index { url } => {
            report(progress, "fetch", format!("index {url}"));
            let dir = tmp()?;
            let root = dir.path().join("index");
            std::fs::create_dir(&root).map_err(|e| InstallError::io(&root, e))?;
            let (index_url, warnings) = index::fetch(url, &root, limits, wanted)?;
            Ok(Fetched {
                _tmp: Some(dir),
                start: root.clone(),
                root,
                commit: None,
                url: Some(index_url),
                sha256: None,
                warnings,
            })
        }
    }
}

// ---- staging and committing ----

struct Planned {
    name: String,
    target: PathBuf,
    links: Vec<PathBuf>,
    stage: TempDir,
    entry: LockEntry,
}

impl Planned {
    fn staged(&self) -> PathBuf {
        self.stage.path().join("skill")
    }
}

/// The directory that holds `<name>/` for each host asked (default `.agents/skills`).
fn host_dirs(hosts: &[String], scope: Scope) -> Result<Vec<String>> {
    let mut dirs: Vec<String> = Vec::new();
    if hosts.is_empty() {
        dirs.push(".agents/skills".into());
    }
    for host in hosts {
        let profile = skilldeck::Profile::builtin(host)?;
        let dir = match scope {
            Scope::Project => profile.install.project,
            Scope::User => profile.install.user,
        };
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    Ok(dirs)
}

/// Refuse to replace `target` when it is not what the lock says was installed there.
fn check_replaceable(name: &str, target: &Path, lock: &LockFile, force: bool) -> Result<()> {
    if force || std::fs::symlink_metadata(target).is_err() {
        return Ok(());
    }
    let Some(entry) = lock.skills.get(name) else {
        return Err(InstallError::Modified {
            path: target.to_path_buf(),
            message: "already exists and was not installed by skilldeck; move it away or pass --force to replace it".into(),
        });
    };
    let diff = skilldeck::verify_tree(target, entry)?;
    if diff.is_clean() {
        return Ok(());
    }
    Err(InstallError::Modified {
        path: target.to_path_buf(),
        message: format!(
            "was modified since it was installed ({}); keep your changes elsewhere or pass --force to replace them",
            describe(&diff)
        ),
    })
}

/// A host location may be replaced when it is empty, a symlink, or already the same files
/// as the target (a copy made where symlinks are unavailable); never a directory of the
/// user's own.
fn check_link_replaceable(link: &Path, target: &Path, force: bool) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(link) else {
        return Ok(());
    };
    if force || meta.file_type().is_symlink() {
        return Ok(());
    }
    let same = skilldeck::hash_tree(link)
        .ok()
        .zip(skilldeck::hash_tree(target).ok())
        .is_some_and(|(a, b)| a.files == b.files);
    if same {
        return Ok(());
    }
    Err(InstallError::Modified {
        path: link.to_path_buf(),
        message: "already exists and is not a link to the installed copy; move it away or pass --force to replace it".into(),
    })
}

/// `changed: a, b; added: c; missing: d`.
pub(crate) fn describe(diff: &TreeDiff) -> String {
    let mut parts = Vec::new();
    for (label, list) in [
        ("changed", &diff.changed),
        ("added", &diff.added),
        ("missing", &diff.missing),
    ] {
        if !list.is_empty() {
            parts.push(format!("{label}: {}", list.join(", ")));
        }
    }
    parts.join("; ")
}

/// Stage `found` beside its target and fill in its lock entry.
#[allow(clippy::too_many_arguments)]
fn plan(
    found: &Found,
    fetched: &Fetched,
    base_entry: LockEntry,
    dirs: &[String],
    base: &Path,
    ctx: &Context,
    warnings: &mut Vec<String>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Planned> {
    if let Some(problem) = skilldeck::skill_name_problem(&found.name) {
        return Err(InstallError::InvalidName {
            path: found.dir.join("SKILL.md"),
            message: problem,
        });
    }
    report(progress, "stage", found.name.clone());
    let target_rel = format!("{}/{}", dirs[0].trim_end_matches('/'), found.name);
    let target = base.join(&target_rel);
    let parent = target.parent().unwrap_or(base).to_path_buf();
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    let stage = tempfile::Builder::new()
        .prefix(".skilldeck-stage-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let staged = stage.path().join("skill");
    warnings.extend(stage::copy_skill(&found.dir, &staged, &ctx.limits)?);
    let tree = skilldeck::hash_tree(&staged)?;
    let links: Vec<String> = dirs[1..]
        .iter()
        .map(|d| format!("{}/{}", d.trim_end_matches('/'), found.name))
        .collect();
    let mut entry = base_entry;
    entry.subpath = Some(found.rel.clone()).filter(|r| !r.is_empty());
    entry.commit = fetched.commit.clone();
    entry.url = fetched.url.clone();
    entry.sha256 = fetched.sha256.clone();
    entry.path = target_rel;
    entry.links = links.clone();
    entry.digest = tree.digest;
    entry.computed_hash = tree.computed_hash;
    entry.files = tree.files;
    Ok(Planned {
        name: found.name.clone(),
        target,
        links: links.iter().map(|l| base.join(l)).collect(),
        stage,
        entry,
    })
}

enum Done {
    /// `path` was created; its previous content (if any) waits at `backup`.
    Placed {
        path: PathBuf,
        backup: Option<PathBuf>,
    },
}

fn remove_any(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn undo(done: Vec<Done>) {
    for step in done.into_iter().rev() {
        let Done::Placed { path, backup } = step;
        let _ = remove_any(&path);
        if let Some(backup) = backup {
            let _ = std::fs::rename(&backup, &path);
        }
    }
}

/// Move every planned skill into place, then write the lock (when given); on any failure
/// put everything back as it was.
fn commit(
    plans: &[Planned],
    lock: Option<(&LockFile, &Path)>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<()> {
    let mut done = Vec::new();
    let result = (|| -> Result<()> {
        for (i, plan) in plans.iter().enumerate() {
            report(progress, "install", plan.name.clone());
            let backup = place_aside(&plan.target, plan.stage.path(), "old")?;
            done.push(Done::Placed {
                path: plan.target.clone(),
                backup,
            });
            std::fs::rename(plan.staged(), &plan.target)
                .map_err(|e| InstallError::io(&plan.target, e))?;
            for (j, link) in plan.links.iter().enumerate() {
                let parent = link.parent().unwrap_or(Path::new("."));
                std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
                let backup = place_aside(link, plan.stage.path(), &format!("link{i}-{j}"))?;
                done.push(Done::Placed {
                    path: link.clone(),
                    backup,
                });
                make_link(&plan.target, link)?;
            }
        }
        if let Some((lock, path)) = lock {
            report(progress, "lock", path.display().to_string());
            lock.write(path)?;
        }
        Ok(())
    })();
    if result.is_err() {
        undo(done);
    }
    result
}

/// Move whatever is at `path` into `stage/<label>` (same filesystem), returning where.
fn place_aside(path: &Path, stage: &Path, label: &str) -> Result<Option<PathBuf>> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let backup = stage.join(label);
    std::fs::rename(path, &backup).map_err(|e| InstallError::io(path, e))?;
    Ok(Some(backup))
}

/// A relative symlink from `link` to `target` (a copy where symlinks are unavailable).
fn make_link(target: &Path, link: &Path) -> Result<()> {
    let relative = relative_path(link.parent().unwrap_or(Path::new(".")), target);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&relative, link).map_err(|e| InstallError::io(link, e))
    }
    #[cfg(not(unix))]
    {
        let _ = relative;
        let limits = crate::Limits::default();
        stage::copy_skill(target, link, &limits).map(|_| ())
    }
}

fn relative_path(from_dir: &Path, to: &Path) -> PathBuf {
    let from: Vec<_> = from_dir.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to_parts[common..] {
        out.push(part);
    }
    out
}

// ---- operations ----

/// Install the skills of `request.source`.
pub fn add(
    ctx: &Context,
    request: &AddRequest,
    progress: Option<&ProgressFn<'_>>,
) -> Result<AddReport> {
    let (base, lock_path) = ctx.base_and_lock(request.scope)?;
    let mut lock = LockFile::read(&lock_path)?;
    let source = Source::parse(
        &request.source,
        request.git_ref.as_deref(),
        request.sha256.as_deref(),
    )?;
    let dirs = host_dirs(&request.hosts, request.scope)?;
    let fetched = fetch(&source, &request.source, &request.skills, ctx, progress)?;
    let mut warnings = fetched.warnings.clone();
    let found = select::find(&fetched.root, &fetched.start, &mut warnings)?;
    let found = select::pick(found, &request.skills, &request.source)?;
    // Every refusal happens before anything is staged.
    let threshold = request
        .max_severity
        .unwrap_or(skilldeck::AuditSeverity::High);
    let mut audits = Vec::new();
    for skill in &found {
        if let Some(problem) = skilldeck::skill_name_problem(&skill.name) {
            return Err(InstallError::InvalidName {
                path: skill.dir.join("SKILL.md"),
                message: problem,
            });
        }
        if let Some(audit) = audit_skill(&skill.name, &skill.dir, &request.source, threshold)? {
            audits.push(audit);
        }
        let target = base.join(&dirs[0]).join(&skill.name);
        check_replaceable(&skill.name, &target, &lock, request.force)?;
        for dir in &dirs[1..] {
            check_link_replaceable(&base.join(dir).join(&skill.name), &target, request.force)?;
        }
    }
    let created = missing_ancestors(&base.join(&dirs[0]));
    let result = (|| {
        let mut plans = Vec::new();
        for skill in &found {
            let entry = base_entry(&source, request, skill);
            plans.push(plan(
                skill,
                &fetched,
                entry,
                &dirs,
                &base,
                ctx,
                &mut warnings,
                progress,
            )?);
        }
        let mut next = lock.clone();
        for p in &plans {
            next.skills.insert(p.name.clone(), p.entry.clone());
        }
        commit(&plans, Some((&next, &lock_path)), progress)?;
        lock = next;
        Ok(plans)
    })();
    let plans = match result {
        Ok(plans) => plans,
        Err(err) => {
            remove_created(&created);
            return Err(err);
        }
    };
    Ok(AddReport {
        installed: plans
            .iter()
            .map(|p| InstalledSkill {
                name: p.name.clone(),
                entry: lock.skills.get(&p.name).cloned().unwrap_or_default(),
            })
            .collect(),
        warnings,
        audit: audits,
    })
}

/// The directories `create_dir_all(dir)` would create, outermost first.
fn missing_ancestors(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.exists() {
            break;
        }
        out.push(d.to_path_buf());
        cur = d.parent();
    }
    out.reverse();
    out
}

/// Remove the directories a failed operation created (only if still empty).
fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = std::fs::remove_dir(dir);
    }
}

fn base_entry(source: &Source, request: &AddRequest, skill: &Found) -> LockEntry {
    let mut entry = LockEntry {
        source: request.source.clone(),
        git_ref: request.git_ref.clone(),
        source_type: source.source_type().to_string(),
        ..Default::default()
    };
    if let Source::Git { git_ref, url, .. } = source {
        entry.git_ref = git_ref.clone();
        // The `skills` CLI records GitHub sources as `owner/repo`; so do we, the full URL
        // goes in `url`.
        if let Some(repo) = url
            .strip_prefix("https://github.com/")
            .map(|r| r.trim_end_matches('/').trim_end_matches(".git"))
            .filter(|r| r.split('/').count() == 2)
        {
            entry.source = repo.to_string();
        }
    }
    // A local copy of a skill `gh skill` installed: record where it really came from.
    if let (Source::Local { .. }, Some(gh)) = (source, &skill.provenance) {
        entry.extra.insert(
            "githubRepo".into(),
            serde_json::Value::String(gh.repo.clone()),
        );
        for (key, value) in [
            ("githubPath", &gh.path),
            ("githubRef", &gh.git_ref),
            ("githubTreeSha", &gh.tree_sha),
        ] {
            if let Some(value) = value {
                entry
                    .extra
                    .insert(key.into(), serde_json::Value::String(value.clone()));
            }
        }
    }
    entry
}

/// The skills the lock records.
pub fn installed(ctx: &Context, scope: Scope) -> Result<Vec<InstalledSkill>> {
    let (_, lock_path) = ctx.base_and_lock(scope)?;
    let lock = LockFile::read(&lock_path)?;
    Ok(lock
        .skills
        .into_iter()
        .map(|(name, entry)| InstalledSkill { name, entry })
        .collect())
}

/// Re-hash every installed skill and compare it with the lock.
pub fn verify(ctx: &Context, scope: Scope) -> Result<VerifyReport> {
    let (base, lock_path) = ctx.base_and_lock(scope)?;
    let lock = LockFile::read(&lock_path)?;
    let mut report = VerifyReport {
        clean: true,
        skills: Vec::new(),
    };
    for (name, entry) in &lock.skills {
        let dir = base.join(&entry.path);
        let mut diff = skilldeck::verify_tree(&dir, entry)?;
        for link in &entry.links {
            let at = base.join(link);
            let ok = std::fs::canonicalize(&at)
                .ok()
                .zip(std::fs::canonicalize(&dir).ok())
                .is_some_and(|(a, b)| a == b)
                || skilldeck::verify_tree(&at, entry).is_ok_and(|d| d.is_clean());
            if !ok {
                diff.missing.push(link.clone());
            }
        }
        report.clean &= diff.is_clean();
        report.skills.push(SkillVerify {
            name: name.clone(),
            path: entry.path.clone(),
            diff,
        });
    }
    Ok(report)
}

/// Remove installed skills and their lock entries.
pub fn remove(ctx: &Context, scope: Scope, names: &[String]) -> Result<RemoveReport> {
    let (base, lock_path) = ctx.base_and_lock(scope)?;
    let mut lock = LockFile::read(&lock_path)?;
    let unknown: Vec<&String> = names
        .iter()
        .filter(|n| !lock.skills.contains_key(*n))
        .collect();
    if !unknown.is_empty() {
        return Err(InstallError::NoSuchSkill {
            message: format!(
                "{}: no installed skill named {}",
                lock_path.display(),
                unknown
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let mut removed = Vec::new();
    for name in names {
        if let Some(entry) = lock.skills.remove(name) {
            let target = base.join(&entry.path);
            for link in &entry.links {
                if !safe_rel(link) {
                    continue;
                }
                let at = base.join(link);
                // A directory the user put there since is theirs: leave it.
                if check_link_replaceable(&at, &target, false).is_ok() {
                    remove_any(&at).map_err(|e| InstallError::io(&at, e))?;
                }
            }
            if safe_rel(&entry.path) {
                remove_any(&target).map_err(|e| InstallError::io(&target, e))?;
            }
            removed.push(name.clone());
        }
    }
    lock.write(&lock_path)?;
    Ok(RemoveReport { removed })
}

/// A lock path that stays under its base (the lock is user-editable input).
fn safe_rel(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path
            .split('/')
            .all(|p| !p.is_empty() && p != ".." && p != ".")
}

/// Re-fetch the named skills (all when empty) from their recorded sources; apply what
/// changed by commit or digest unless `dry_run`.
pub fn update(
    ctx: &Context,
    scope: Scope,
    names: &[String],
    dry_run: bool,
    force: bool,
    progress: Option<&ProgressFn<'_>>,
) -> Result<UpdateReport> {
    let (base, lock_path) = ctx.base_and_lock(scope)?;
    let lock = LockFile::read(&lock_path)?;
    let mut report = UpdateReport::default();
    let mut plans = Vec::new();
    for (name, entry) in selected(&lock, names, &lock_path)? {
        let (planned, warnings) = refetch(ctx, &base, name, entry, false, progress)?;
        report.warnings.extend(warnings);
        if planned.entry.digest == entry.digest && planned.entry.commit == entry.commit {
            report.up_to_date.push(name.clone());
            continue;
        }
        let tree = skilldeck::TreeHash {
            files: planned.entry.files.clone(),
            ..Default::default()
        };
        report.changes.push(UpdateChange {
            name: name.clone(),
            from_commit: entry.commit.clone(),
            to_commit: planned.entry.commit.clone(),
            from_digest: entry.digest.clone(),
            to_digest: planned.entry.digest.clone(),
            files: skilldeck::diff_files(&entry.files, &tree),
            applied: !dry_run,
        });
        if !dry_run {
            check_replaceable(name, &planned.target, &lock, force)?;
        }
        let threshold = if dry_run {
            // A dry run shows what applying would refuse instead of refusing.
            skilldeck::AuditSeverity::Critical
        } else {
            skilldeck::AuditSeverity::High
        };
        if let Some(audit) = audit_skill(name, &planned.staged(), &entry.source, threshold)? {
            report.audit.push(audit);
        }
        plans.push(planned);
    }
    if !dry_run && !plans.is_empty() {
        let mut next = lock.clone();
        for p in &plans {
            next.skills.insert(p.name.clone(), p.entry.clone());
        }
        commit(&plans, Some((&next, &lock_path)), progress)?;
    }
    Ok(report)
}

fn selected<'a>(
    lock: &'a LockFile,
    names: &[String],
    lock_path: &Path,
) -> Result<Vec<(&'a String, &'a LockEntry)>> {
    let mut out = Vec::new();
    for name in names {
        match lock.skills.get_key_value(name) {
            Some(pair) => out.push(pair),
            None => {
                return Err(InstallError::NoSuchSkill {
                    message: format!("{}: no installed skill named `{name}`", lock_path.display()),
                })
            }
        }
    }
    if names.is_empty() {
        out.extend(lock.skills.iter());
    }
    Ok(out)
}

/// Fetch the source `entry` records and stage the skill again. `pinned` fetches exactly
/// the recorded commit or archive digest (frozen); otherwise the recorded ref (update).
fn refetch(
    ctx: &Context,
    base: &Path,
    name: &str,
    entry: &LockEntry,
    pinned: bool,
    progress: Option<&ProgressFn<'_>>,
) -> Result<(Planned, Vec<String>)> {
    if !safe_rel(&entry.path) || !entry.links.iter().all(|l| safe_rel(l)) {
        return Err(InstallError::BadSource {
            source_spec: entry.source.clone(),
            message: format!(
                "the lock entry `{name}` installs to `{}`, outside the project or home; fix or remove the entry",
                entry.path
            ),
        });
    }
    let url = || entry.url.clone().unwrap_or_else(|| entry.source.clone());
    let source = match entry.source_type.as_str() {
        "local" => Source::Local {
            path: PathBuf::from(&entry.source),
        },
        "git" | "github" => Source::Git {
            url: url(),
            git_ref: if pinned {
                entry.commit.clone().or(entry.git_ref.clone())
            } else {
                entry.git_ref.clone()
            },
            subpath: None,
            source_type: entry.source_type.clone(),
        },
        "archive" => Source::Archive {
            url: url(),
            sha256: if pinned { entry.sha256.clone() } else { None },
        },
        "well-known" => Source::Index { url: url() },
        other => {
            return Err(InstallError::BadSource {
                source_spec: entry.source.clone(),
                message: format!("`{name}` has source type `{other}`, which skilldeck cannot fetch; reinstall it with `skilldeck add`"),
            })
        }
    };
    let wanted = vec![name.to_string()];
    let fetched = fetch(&source, &entry.source, &wanted, ctx, progress)?;
    let mut warnings = fetched.warnings.clone();
    let start = match &entry.subpath {
        Some(sub) if !sub.split('/').any(|p| p == "..") => fetched.root.join(sub),
        _ => fetched.start.clone(),
    };
    let found = select::find(&fetched.root, &start, &mut warnings)?;
    let found = select::pick(found, &wanted, &entry.source)?;
    let skill = &found[0];
    // Keep the directories the skill was installed into.
    let target_dir = entry
        .path
        .rsplit_once('/')
        .map(|(d, _)| d.to_string())
        .unwrap_or_else(|| ".agents/skills".into());
    let mut dirs = vec![target_dir];
    dirs.extend(
        entry
            .links
            .iter()
            .filter_map(|l| l.rsplit_once('/').map(|(d, _)| d.to_string())),
    );
    let mut base_entry = entry.clone();
    base_entry.files.clear();
    let planned = plan(
        skill,
        &fetched,
        base_entry,
        &dirs,
        base,
        ctx,
        &mut warnings,
        progress,
    )?;
    Ok((planned, warnings))
}

/// Restore exactly what the lock records: every skill is fetched at its recorded commit or
/// archive digest and must hash to the recorded files, or nothing is installed.
pub fn install_frozen(
    ctx: &Context,
    scope: Scope,
    progress: Option<&ProgressFn<'_>>,
) -> Result<FrozenReport> {
    let (base, lock_path) = ctx.base_and_lock(scope)?;
    // CI running a frozen install without a lock must not pass by installing nothing.
    if !lock_path.is_file() {
        return Err(InstallError::NoSuchSkill {
            message: format!(
                "{}: no lock file to restore from; run `skilldeck add` and commit the lock",
                lock_path.display()
            ),
        });
    }
    let lock = LockFile::read(&lock_path)?;
    let mut report = FrozenReport::default();
    let mut plans = Vec::new();
    let mut problems = Vec::new();
    for (name, entry) in &lock.skills {
        let dir = base.join(&entry.path);
        if skilldeck::verify_tree(&dir, entry)?.is_clean() {
            report.unchanged.push(name.clone());
            continue;
        }
        let (planned, _) = refetch(ctx, &base, name, entry, true, progress)?;
        let tree = skilldeck::TreeHash {
            files: planned.entry.files.clone(),
            ..Default::default()
        };
        let diff = skilldeck::diff_files(&entry.files, &tree);
        if !diff.is_clean() || planned.entry.commit != entry.commit {
            problems.push(format!(
                "`{name}`: the source no longer gives what the lock records ({}{})",
                describe(&diff),
                if planned.entry.commit != entry.commit {
                    "; commit differs"
                } else {
                    ""
                }
            ));
            continue;
        }
        report.restored.push(name.clone());
        plans.push(planned);
    }
    if !problems.is_empty() {
        return Err(InstallError::Frozen {
            message: format!(
                "{}: frozen install refused, nothing was changed:\n{}",
                lock_path.display(),
                problems.join("\n")
            ),
        });
    }
    commit(&plans, None, progress)?;
    Ok(report)
}
