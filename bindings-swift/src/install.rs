//! Install operations (`skilldeck-install`): `add`, `remove`, `update`, `installed`,
//! `verify`, `installFrozen`. Each blocks the calling thread (network and git included):
//! call them off the UI thread. Options are records with defaults; reports are records
//! mirroring the engine's own (the install crate's reports exposed as they are, the lock
//! entry copied because its maps are ordered); failures are `SkillError.InstallError`
//! carrying the engine's code.

use crate::error::SkillError;
use crate::remote::JsonValue;
use skilldeck::AuditSeverity;
use skilldeck::TreeDiff;
use skilldeck_install::{
    Context, FrozenReport, Progress, RemoveReport, Scope, SkillAudit, SkillVerify, UpdateChange,
    UpdateReport, VerifyReport,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Caps on what one operation may fetch and install; `null` keeps the engine's default.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct InstallLimits {
    /// Files per skill (default 512).
    #[uniffi(default)]
    pub max_files: Option<u64>,
    /// Bytes per skill (default 16 MiB).
    #[uniffi(default)]
    pub max_bytes: Option<u64>,
    /// Bytes of one download, an archive or an index (default 64 MiB).
    #[uniffi(default)]
    pub max_download_bytes: Option<u64>,
    /// Entries of one archive (default 10,000).
    #[uniffi(default)]
    pub max_archive_entries: Option<u64>,
    /// Bytes one archive may expand to (default 256 MiB).
    #[uniffi(default)]
    pub max_archive_bytes: Option<u64>,
    /// Whole-request HTTP timeout in seconds (default 60).
    #[uniffi(default)]
    pub timeout: Option<u64>,
}

/// Where an operation works: the scope's lock and directories, and the caps. Every
/// operation takes one (the defaults: the project in the current directory).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct InstallOptions {
    /// `project` (`<projectDir>/skills-lock.json`, skills under `.agents/skills`) or `user`
    /// (skills under `~/.agents/skills`, the lock under `$XDG_CONFIG_HOME/skilldeck`).
    #[uniffi(default = "project")]
    pub scope: String,
    /// The project root (holds `skills-lock.json`).
    #[uniffi(default = ".")]
    pub project_dir: String,
    /// The home directory for the `user` scope (default: `HOME`).
    #[uniffi(default)]
    pub home_dir: Option<String>,
    /// The user-scope lock (default `$XDG_CONFIG_HOME/skilldeck/skills-lock.json`).
    #[uniffi(default)]
    pub user_lock: Option<String>,
    /// Caps on what is fetched and installed.
    #[uniffi(default)]
    pub limits: InstallLimits,
}

/// What to take from a source in `add`.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct AddOptions {
    /// Only these skills (all the source holds when empty).
    #[uniffi(default)]
    pub skills: Vec<String>,
    /// Branch, tag or commit (git sources).
    #[uniffi(default)]
    pub git_ref: Option<String>,
    /// `sha256:<hex>` or bare hex pin (archive sources), checked before extracting.
    #[uniffi(default)]
    pub sha256: Option<String>,
    /// Host profiles to install for (default: `.agents/skills` only); the first holds the
    /// real copy, the others get links.
    #[uniffi(default)]
    pub hosts: Vec<String>,
    /// Replace a skill modified since it was installed, or one skilldeck did not install.
    #[uniffi(default)]
    pub force: bool,
    /// Refuse a skill whose audit has findings more severe than this (`INFO` … `CRITICAL`);
    /// `null` is the installer's default, which refuses `CRITICAL` findings only, and
    /// `CRITICAL` accepts everything. A refusal is `InstallError` with code `AUDIT_REFUSED`
    /// and nothing is installed.
    #[uniffi(default)]
    pub max_severity: Option<AuditSeverity>,
}

/// One step of an install operation, for a progress display. (Not called `Progress`:
/// Swift's Foundation has a class of that name.)
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct InstallProgress {
    /// `fetch`, `stage`, `install`, `verify` or `lock`.
    pub phase: String,
    /// What is being done, e.g. the URL or the skill's name.
    pub message: String,
}

/// Implemented by the host to follow an operation. Called on the thread running the
/// operation; anything it throws is ignored.
#[uniffi::export(foreign)]
pub trait ProgressListener: Send + Sync {
    fn on_progress(&self, progress: InstallProgress) -> Result<(), SkillError>;
}

/// One skill's entry in `skills-lock.json`.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct LockEntry {
    /// Where the skill came from as the user wrote it (`owner/repo`, a URL, a path).
    pub source: String,
    /// The branch, tag or commit asked for (`ref` in the file).
    pub git_ref: Option<String>,
    /// `github`, `git`, `local`, `archive` or `well-known`.
    pub source_type: String,
    /// The `skills` CLI's folder hash.
    pub computed_hash: String,
    /// The URL actually fetched; absent for local sources.
    pub url: Option<String>,
    /// The skill's directory inside the source; absent when it is the root.
    pub subpath: Option<String>,
    /// The resolved git commit (full SHA), for git sources.
    pub commit: Option<String>,
    /// The archive's pinned `sha256:<hex>`, for archive sources.
    pub sha256: Option<String>,
    /// Where the real copy is, relative to the scope's base, `/`-separated.
    pub path: String,
    /// Other install locations pointing at the real copy.
    pub links: Vec<String>,
    /// The skill digest, `sha256:<hex>`.
    pub digest: String,
    /// Every installed file (`/`-separated path) → `sha256:<hex>`.
    pub files: HashMap<String, String>,
    /// Keys other tools wrote on this entry (kept on rewrite), each value as JSON text.
    pub extra: HashMap<String, JsonValue>,
}

impl From<skilldeck::LockEntry> for LockEntry {
    fn from(e: skilldeck::LockEntry) -> Self {
        LockEntry {
            source: e.source,
            git_ref: e.git_ref,
            source_type: e.source_type,
            computed_hash: e.computed_hash,
            url: e.url,
            subpath: e.subpath,
            commit: e.commit,
            sha256: e.sha256,
            path: e.path,
            links: e.links,
            digest: e.digest,
            files: e.files.into_iter().collect(),
            extra: e.extra.into_iter().collect(),
        }
    }
}

/// One installed skill as the lock records it.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct InstalledSkill {
    pub name: String,
    pub entry: LockEntry,
}

impl From<skilldeck_install::InstalledSkill> for InstalledSkill {
    fn from(s: skilldeck_install::InstalledSkill) -> Self {
        InstalledSkill {
            name: s.name,
            entry: s.entry.into(),
        }
    }
}

/// What `add` did.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct AddReport {
    /// The skills installed (or replaced).
    pub installed: Vec<InstalledSkill>,
    /// What was skipped and why.
    pub warnings: Vec<String>,
    /// What the audit of each installed skill found (at or below the refusal threshold);
    /// skills without findings are not listed.
    pub audit: Vec<SkillAudit>,
}

/// What `remove` did.
#[uniffi::remote(Record)]
pub struct RemoveReport {
    /// The skills removed.
    pub removed: Vec<String>,
}

/// What differs between an installed directory and its lock entry (sorted paths).
#[uniffi::remote(Record)]
pub struct TreeDiff {
    /// Files whose bytes differ from the recorded digest.
    pub changed: Vec<String>,
    /// Files present but not recorded.
    pub added: Vec<String>,
    /// Files recorded but absent.
    pub missing: Vec<String>,
}

/// One skill's verification.
#[uniffi::remote(Record)]
pub struct SkillVerify {
    pub name: String,
    /// Its directory, relative to the scope's base.
    pub path: String,
    /// What differs from the lock.
    pub diff: TreeDiff,
}

/// What `verify` found: `clean` when every skill is exactly as locked.
#[uniffi::remote(Record)]
pub struct VerifyReport {
    pub clean: bool,
    /// Every skill in the lock.
    pub skills: Vec<SkillVerify>,
}

/// One skill whose commit or digest changed.
#[uniffi::remote(Record)]
pub struct UpdateChange {
    pub name: String,
    /// The commit recorded (git sources).
    pub from_commit: Option<String>,
    /// The commit the source gives now.
    pub to_commit: Option<String>,
    pub from_digest: String,
    pub to_digest: String,
    /// Files that change, appear or disappear.
    pub files: TreeDiff,
    /// False for `dryRun`.
    pub applied: bool,
}

/// What `update` found and did.
#[uniffi::remote(Record)]
pub struct UpdateReport {
    /// Skills whose commit or digest changed.
    pub changes: Vec<UpdateChange>,
    /// Skills already current.
    pub up_to_date: Vec<String>,
    pub warnings: Vec<String>,
    /// The audit of each changed skill's new files (applying refuses critical findings).
    pub audit: Vec<SkillAudit>,
}

/// What `installFrozen` did.
#[uniffi::remote(Record)]
pub struct FrozenReport {
    /// Skills (re)installed from their sources.
    pub restored: Vec<String>,
    /// Skills already exactly as locked.
    pub unchanged: Vec<String>,
}

fn cap<T: TryFrom<u64>>(name: &str, value: Option<u64>, default: T) -> Result<T, SkillError> {
    match value {
        None => Ok(default),
        Some(n) => T::try_from(n).map_err(|_| {
            SkillError::invalid_options(format!(
                "install limits: {name} {n} is larger than this platform allows"
            ))
        }),
    }
}

fn scope(name: &str) -> Result<Scope, SkillError> {
    match name {
        "project" => Ok(Scope::Project),
        "user" => Ok(Scope::User),
        other => Err(SkillError::invalid_options(format!(
            "unknown install scope `{other}`: use `project` or `user`"
        ))),
    }
}

/// The scope and the crate's `Context` for `options`.
fn context(options: &InstallOptions) -> Result<(Scope, Context), SkillError> {
    let mut ctx = Context::new(PathBuf::from(&options.project_dir));
    if let Some(home) = &options.home_dir {
        ctx.home_dir = Some(PathBuf::from(home));
    }
    ctx.user_lock = options.user_lock.as_ref().map(PathBuf::from);
    ctx.limits = limits(&options.limits, ctx.limits)?;
    Ok((scope(&options.scope)?, ctx))
}

/// The crate's limits: `given` where set, `defaults` elsewhere.
pub(crate) fn limits(
    given: &InstallLimits,
    defaults: skilldeck_install::Limits,
) -> Result<skilldeck_install::Limits, SkillError> {
    Ok(skilldeck_install::Limits {
        max_files: cap("maxFiles", given.max_files, defaults.max_files)?,
        max_bytes: cap("maxBytes", given.max_bytes, defaults.max_bytes)?,
        max_download_bytes: cap(
            "maxDownloadBytes",
            given.max_download_bytes,
            defaults.max_download_bytes,
        )?,
        max_archive_entries: cap(
            "maxArchiveEntries",
            given.max_archive_entries,
            defaults.max_archive_entries,
        )?,
        max_archive_bytes: cap(
            "maxArchiveBytes",
            given.max_archive_bytes,
            defaults.max_archive_bytes,
        )?,
        timeout: given.timeout.map_or(defaults.timeout, Duration::from_secs),
    })
}

/// Run `work` with the host's listener as the crate's progress callback.
pub(crate) fn with_progress<T>(
    progress: Option<Arc<dyn ProgressListener>>,
    work: impl FnOnce(Option<&skilldeck_install::ProgressFn<'_>>) -> skilldeck_install::Result<T>,
) -> Result<T, SkillError> {
    let forward = |p: &Progress| {
        if let Some(listener) = &progress {
            // A failing display must not fail the install.
            let _ = listener.on_progress(InstallProgress {
                phase: p.phase.clone(),
                message: p.message.clone(),
            });
        }
    };
    let callback: Option<&skilldeck_install::ProgressFn<'_>> = match &progress {
        Some(_) => Some(&forward),
        None => None,
    };
    Ok(work(callback)?)
}

/// Install the skills of `source` (a directory, a git URL, `github:owner/repo[/path][@ref]`,
/// an archive URL or a site with a well-known index) and record them, with sha256 digests,
/// in the scope's `skills-lock.json`. Each skill is audited before it is staged: one with
/// findings above `select.maxSeverity` is refused (`InstallError`, code `AUDIT_REFUSED`)
/// and nothing is installed. Blocks until done.
#[uniffi::export(default(select), default(options), default(progress = None))]
pub fn add(
    source: String,
    select: AddOptions,
    options: InstallOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<AddReport, SkillError> {
    let (scope, ctx) = context(&options)?;
    let request = skilldeck_install::AddRequest {
        source,
        skills: select.skills,
        git_ref: select.git_ref,
        sha256: select.sha256,
        scope,
        hosts: select.hosts,
        force: select.force,
        max_severity: select.max_severity,
    };
    let report = with_progress(progress, |p| skilldeck_install::add(&ctx, &request, p))?;
    Ok(AddReport {
        installed: report.installed.into_iter().map(Into::into).collect(),
        warnings: report.warnings,
        audit: report.audit,
    })
}

/// Remove installed skills (their directories, links and lock entries). Throws
/// `InstallError` (code `NOT_FOUND`) when a name is not installed, before removing anything.
#[uniffi::export(default(options))]
pub fn remove(names: Vec<String>, options: InstallOptions) -> Result<RemoveReport, SkillError> {
    let (scope, ctx) = context(&options)?;
    Ok(skilldeck_install::remove(&ctx, scope, &names)?)
}

/// Re-fetch the named skills (all when empty) from their recorded sources and apply what
/// changed, unless `dryRun`; `force` replaces skills modified since they were installed.
#[uniffi::export(
    default(names = []),
    default(dry_run = false),
    default(force = false),
    default(options),
    default(progress = None)
)]
pub fn update(
    names: Vec<String>,
    dry_run: bool,
    force: bool,
    options: InstallOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<UpdateReport, SkillError> {
    let (scope, ctx) = context(&options)?;
    with_progress(progress, |p| {
        skilldeck_install::update(&ctx, scope, &names, dry_run, force, p)
    })
}

/// The skills the scope's lock records.
#[uniffi::export(default(options))]
pub fn installed(options: InstallOptions) -> Result<Vec<InstalledSkill>, SkillError> {
    let (scope, ctx) = context(&options)?;
    Ok(skilldeck_install::installed(&ctx, scope)?
        .into_iter()
        .map(Into::into)
        .collect())
}

/// Re-hash every installed skill and compare it with the lock: `clean`, and per skill the
/// `changed`/`added`/`missing` files.
#[uniffi::export(default(options))]
pub fn verify(options: InstallOptions) -> Result<VerifyReport, SkillError> {
    let (scope, ctx) = context(&options)?;
    Ok(skilldeck_install::verify(&ctx, scope)?)
}

/// Restore exactly what the lock records (`install --frozen`): every skill fetched at its
/// recorded commit or digest must hash to the recorded files, or nothing is installed
/// (`InstallError`, code `FROZEN_MISMATCH`).
#[uniffi::export(default(options), default(progress = None))]
pub fn install_frozen(
    options: InstallOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<FrozenReport, SkillError> {
    let (scope, ctx) = context(&options)?;
    with_progress(progress, |p| {
        skilldeck_install::install_frozen(&ctx, scope, p)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_and_limits_map_to_the_context() {
        let options = InstallOptions {
            scope: "user".into(),
            project_dir: "/p".into(),
            home_dir: Some("/h".into()),
            user_lock: None,
            limits: InstallLimits {
                max_files: Some(3),
                timeout: Some(5),
                ..Default::default()
            },
        };
        let (scope, ctx) = context(&options).map_err(|e| e.to_string()).unwrap();
        assert_eq!(scope, Scope::User);
        assert_eq!(ctx.home_dir.as_deref(), Some(std::path::Path::new("/h")));
        assert_eq!(ctx.limits.max_files, 3);
        assert_eq!(ctx.limits.timeout, Duration::from_secs(5));
        assert_eq!(
            ctx.limits.max_bytes,
            skilldeck_install::Limits::default().max_bytes
        );
        let bad = InstallOptions {
            scope: "global".into(),
            ..options
        };
        assert_eq!(
            context(&bad).err().map(|e| e.code().to_string()).as_deref(),
            Some("INVALID_OPTIONS")
        );
    }
}
