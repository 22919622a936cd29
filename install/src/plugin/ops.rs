//! The marketplace and plugin operations. Each is a synchronous function over plain data.
//!
//! Safety: a plugin is staged in a temporary directory beside its cache directory and renamed
//! into place only once it copied cleanly; the JSON files (`installed_plugins.json`, the
//! scope's `settings.json`, skilldeck's `plugins/skilldeck-lock.json`) are written atomically
//! and, when a later one fails, the earlier ones are put back and the new copy removed, so a
//! failure leaves everything as it was.

use crate::error::{InstallError, Result};
use crate::plugin::claude::{
    self, enabled_in, read_json, set_enabled, to_json_text, ClaudeLayout, Installation,
    InstalledPlugins, KnownMarketplace, MarketplaceSource, Policy, Rewrites,
};
use crate::plugin::codex::{self, CodexLayout};
use crate::plugin::copilot::{self, CopilotLayout};
use crate::plugin::manifest::{self, PluginSkill};
use crate::plugin::marketplace::{self, Marketplace, PluginSource, MARKETPLACE_FILE};
use crate::plugin::{npm, orphans, url_headers};
use crate::plugin::{PluginHost, PluginScope};
use crate::source::Source;
use crate::{git, http, report, stage, Context, Limits, ProgressFn};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The marketplace skilldeck keeps for plugins installed straight from a SOURCE (a directory
/// or a git URL), so Claude Code finds them like any other marketplace plugin.
pub const DIRECT_MARKETPLACE: &str = "skilldeck-direct";

/// The directories and files plugin operations work on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginContext {
    /// The project (project scope: `<project>/.claude/settings.json`).
    pub project_dir: PathBuf,
    /// Claude Code's configuration directory (`${CLAUDE_CONFIG_DIR:-~/.claude}`).
    pub claude_dir: PathBuf,
    /// Claude Code's managed settings file (policy); default the platform's
    /// (`/etc/claude-code/managed-settings.json` on Linux).
    pub managed_settings: PathBuf,
    /// The home directory (for `~` in sources).
    pub home_dir: Option<PathBuf>,
    /// Caps on one plugin's files and bytes.
    pub limits: Limits,
    /// Whose files the operations write: Claude Code's (default) or Codex's.
    #[serde(default)]
    pub host: PluginHost,
    /// Codex's home (`host` codex): default `$CODEX_HOME` when absolute, else `<home>/.codex`.
    #[serde(default)]
    pub codex_dir: Option<PathBuf>,
    /// Copilot CLI's home (`host` copilot-cli): default `$COPILOT_HOME` when absolute, else
    /// `<home>/.copilot`.
    #[serde(default)]
    pub copilot_dir: Option<PathBuf>,
}

impl PluginContext {
    /// The plugin context of an install context: `$CLAUDE_CONFIG_DIR` when set and absolute,
    /// else `<home>/.claude`.
    pub fn new(ctx: &Context) -> Result<PluginContext> {
        PluginContext::with_claude_dir(ctx, None)
    }

    /// [`PluginContext::new`] with Claude Code's configuration directory given: `claude_dir`
    /// when `Some` (then no home directory is needed), else the same defaults.
    pub fn with_claude_dir(ctx: &Context, claude_dir: Option<PathBuf>) -> Result<PluginContext> {
        let claude_dir = claude_dir
            .or_else(|| {
                std::env::var_os("CLAUDE_CONFIG_DIR")
                    .map(PathBuf::from)
                    .filter(|p| p.is_absolute())
            })
            .or_else(|| ctx.home_dir.as_ref().map(|h| h.join(".claude")))
            .ok_or_else(|| InstallError::BadSource {
                source_spec: "plugins".into(),
                message: "no home directory is known; set HOME or CLAUDE_CONFIG_DIR".into(),
            })?;
        Ok(PluginContext {
            project_dir: ctx.project_dir.clone(),
            claude_dir,
            managed_settings: claude::default_managed_settings(),
            home_dir: ctx.home_dir.clone(),
            limits: ctx.limits,
            host: PluginHost::ClaudeCode,
            codex_dir: None,
            copilot_dir: None,
        })
    }

    fn layout(&self) -> ClaudeLayout {
        ClaudeLayout {
            config_dir: self.claude_dir.clone(),
            project_dir: self.project_dir.clone(),
            managed_settings: self.managed_settings.clone(),
        }
    }

    /// Codex's layout: `codex_dir`, else `$CODEX_HOME` when absolute, else `<home>/.codex`.
    fn codex(&self) -> Result<CodexLayout> {
        let home = self
            .codex_dir
            .clone()
            .or_else(|| {
                std::env::var_os("CODEX_HOME")
                    .map(PathBuf::from)
                    .filter(|p| p.is_absolute())
            })
            .or_else(|| self.home_dir.as_ref().map(|h| h.join(".codex")))
            .ok_or_else(|| InstallError::BadSource {
                source_spec: "plugins".into(),
                message: "no home directory is known; set HOME or CODEX_HOME".into(),
            })?;
        Ok(CodexLayout { home })
    }

    /// Copilot CLI's layout: `copilot_dir`, else `$COPILOT_HOME` when absolute, else
    /// `<home>/.copilot`.
    fn copilot(&self) -> Result<CopilotLayout> {
        let home = self
            .copilot_dir
            .clone()
            .or_else(|| {
                std::env::var_os("COPILOT_HOME")
                    .map(PathBuf::from)
                    .filter(|p| p.is_absolute())
            })
            .or_else(|| self.home_dir.as_ref().map(|h| h.join(".copilot")))
            .ok_or_else(|| InstallError::BadSource {
                source_spec: "plugins".into(),
                message: "no home directory is known; set HOME or COPILOT_HOME".into(),
            })?;
        Ok(CopilotLayout { home })
    }

    fn project_path(&self) -> String {
        std::fs::canonicalize(&self.project_dir)
            .unwrap_or_else(|_| self.project_dir.clone())
            .to_string_lossy()
            .into_owned()
    }
}

// ---- reports ----

/// A marketplace as `marketplace add` / `list` / `update` report it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceInfo {
    /// Its name.
    pub name: String,
    /// Its source as `known_marketplaces.json` records it.
    pub source: Value,
    /// Where its files are.
    pub install_location: String,
    /// Last refresh (ISO 8601).
    pub last_updated: String,
    /// The commit of a git marketplace.
    pub commit: Option<String>,
    /// The plugins it lists.
    pub plugins: Vec<String>,
    /// Why its catalogue could not be read, if it could not.
    pub error: Option<String>,
}

/// What `marketplace update` did to one marketplace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceUpdate {
    /// Its name.
    pub name: String,
    /// The commit before (git marketplaces).
    pub from_commit: Option<String>,
    /// The commit now.
    pub to_commit: Option<String>,
}

/// What `marketplace remove` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceRemoveReport {
    /// The marketplace removed.
    pub name: String,
    /// Its plugins that were uninstalled with it (`plugin@marketplace`).
    pub uninstalled: Vec<String>,
}

/// `plugin install`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PluginInstallRequest {
    /// `plugin@marketplace`, or a SOURCE holding one plugin (a directory or git URL).
    pub plugin: String,
    /// Where to enable it.
    pub scope: PluginScope,
    /// Refuse the plugin when the audit of its files ([`skilldeck::audit`]: hooks, MCP
    /// servers, scripts, skills) has a finding more severe than this. `None` refuses
    /// `critical` findings only; `Some(Critical)` refuses nothing.
    pub max_severity: Option<skilldeck::AuditSeverity>,
}

/// One installed plugin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginInfo {
    /// `plugin@marketplace`.
    pub id: String,
    /// The plugin's name.
    pub name: String,
    /// Its marketplace.
    pub marketplace: String,
    /// The scope of this installation.
    pub scope: PluginScope,
    /// Enabled in the scope's settings.
    pub enabled: bool,
    /// The installed version.
    pub version: Option<String>,
    /// The cache directory.
    pub install_path: String,
    /// The commit, for git-backed plugins.
    pub git_commit_sha: Option<String>,
    /// Its skills as the claude-code profile names them (`plugin:skill`).
    pub skills: Vec<String>,
    /// skilldeck's digest of the installed files, when skilldeck installed it.
    pub digest: Option<String>,
    /// True when the installed files differ from what skilldeck recorded.
    pub modified: bool,
}

/// What `plugin install` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginInstallReport {
    /// The plugin as now installed.
    pub plugin: PluginInfo,
    /// Its skills with their directories.
    pub skill_dirs: Vec<PluginSkill>,
    /// Files installed, relative path → `sha256:<hex>`.
    pub files: BTreeMap<String, String>,
    /// What was reported and ignored.
    pub warnings: Vec<String>,
    /// The audit of the installed files (at or below the refusal threshold), most severe
    /// first; paths are relative to the plugin directory.
    #[serde(default)]
    pub audit: Vec<skilldeck::AuditFinding>,
}

/// One plugin's update.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginUpdateChange {
    /// `plugin@marketplace`.
    pub id: String,
    /// Version before.
    pub from_version: Option<String>,
    /// Version now.
    pub to_version: Option<String>,
    /// Commit before.
    pub from_commit: Option<String>,
    /// Commit now.
    pub to_commit: Option<String>,
    /// Digest before.
    pub from_digest: Option<String>,
    /// Digest now.
    pub to_digest: String,
}

/// What `plugin update` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginUpdateReport {
    /// Plugins that changed.
    pub changes: Vec<PluginUpdateChange>,
    /// Plugins already current.
    pub up_to_date: Vec<String>,
    /// Warnings.
    pub warnings: Vec<String>,
}

impl PluginUpdateReport {
    /// Records a plugin installed again by an update of the Codex or Copilot CLI layouts
    /// (both update by reinstalling): unchanged when its files' digest and its version are
    /// what they were, otherwise a change from `from_*` to what `done` installed.
    pub(crate) fn record_reinstall(
        &mut self,
        id: String,
        from_version: Option<String>,
        from_digest: Option<String>,
        to_commit: Option<String>,
        done: PluginInstallReport,
    ) {
        self.warnings.extend(done.warnings);
        let to_digest = done.plugin.digest.unwrap_or_default();
        if from_digest.as_deref() == Some(to_digest.as_str()) && from_version == done.plugin.version
        {
            self.up_to_date.push(id);
        } else {
            self.changes.push(PluginUpdateChange {
                id,
                from_version,
                to_version: done.plugin.version,
                from_commit: None,
                to_commit,
                from_digest,
                to_digest,
            });
        }
    }
}

/// What `plugin uninstall` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginUninstallReport {
    /// `plugin@marketplace`.
    pub id: String,
    /// The scope it was removed from.
    pub scope: PluginScope,
    /// The cache directory no installation uses any more, marked orphaned as Claude Code
    /// marks it (`.orphaned_at`; deleted 14 days later by the sweep every plugin operation
    /// runs). Codex: the plugin's cache directory, deleted.
    pub removed_path: Option<String>,
}

// ---- skilldeck's plugin lock ----

/// skilldeck's record of one installed plugin (in `plugins/skilldeck-lock.json`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginLockEntry {
    /// The plugin's source as the marketplace or the user wrote it.
    pub source: String,
    /// `relative`, `github`, `url`, `git-subdir`, `local` or `git`.
    pub source_type: String,
    /// A SOURCE given to `plugin install` directly (re-fetched by `plugin update`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The commit, for git-backed plugins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The installed version (the cache directory's last part).
    pub version: String,
    /// The cache directory, relative to the Claude configuration directory.
    pub path: String,
    /// The digest over every installed file (the discovery RFC's skill digest).
    pub digest: String,
    /// Every installed file → `sha256:<hex>`.
    pub files: BTreeMap<String, String>,
    /// Each skill's name → its own digest.
    pub skills: BTreeMap<String, String>,
}

/// `plugins/skilldeck-lock.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginLock {
    /// 1.
    pub version: u32,
    /// `plugin@marketplace` → entry.
    pub plugins: BTreeMap<String, PluginLockEntry>,
}

impl Default for PluginLock {
    fn default() -> Self {
        PluginLock {
            version: 1,
            plugins: BTreeMap::new(),
        }
    }
}

// ---- time ----

/// Now as ISO 8601 with milliseconds (`2026-01-31T12:00:00.000Z`, what `Date#toISOString` writes).
pub(crate) fn now_iso() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs();
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        now.subsec_millis()
    )
}

// ---- files ----

type Known = BTreeMap<String, KnownMarketplace>;

fn read_known(layout: &ClaudeLayout) -> Result<Known> {
    Ok(read_json(&layout.known_marketplaces())?.unwrap_or_default())
}

fn read_installed(layout: &ClaudeLayout) -> Result<InstalledPlugins> {
    let path = layout.installed_plugins();
    let value: Option<Value> = read_json(&path)?;
    match value {
        None => Ok(InstalledPlugins::default()),
        Some(v) if v.get("version").and_then(Value::as_u64) == Some(2) => serde_json::from_value(v)
            .map_err(|e| InstallError::InvalidManifest {
                path: path.clone(),
                message: format!("not an installed_plugins.json version 2 ({e})"),
            }),
        Some(_) => Err(InstallError::InvalidManifest {
            path,
            message: "an older installed_plugins.json (version 1); start Claude Code once so it migrates the file, then retry".into(),
        }),
    }
}

fn read_settings(path: &Path) -> Result<Value> {
    Ok(read_json(path)?.unwrap_or(Value::Object(serde_json::Map::new())))
}

fn read_lock(layout: &ClaudeLayout) -> Result<PluginLock> {
    Ok(read_json(&layout.lock())?.unwrap_or_default())
}

fn split_id(id: &str) -> Option<(&str, &str)> {
    id.rsplit_once('@')
        .filter(|(p, m)| !p.is_empty() && !m.is_empty())
}

fn rel_to(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_else(|_| path.to_string_lossy().into_owned())
}

// ---- marketplaces ----

fn source_of(entry: &KnownMarketplace) -> Option<MarketplaceSource> {
    serde_json::from_value(entry.source.clone()).ok()
}

/// A fetched marketplace: its root and, for a fresh clone, the directory holding it.
struct FetchedMarketplace {
    root: PathBuf,
    clone: Option<TempDir>,
    marketplace: Marketplace,
    commit: Option<String>,
}

/// The settings Claude Code looks for marketplace declarations in, in its order (managed and
/// user settings are an operator's; the project's are not).
fn declaration_tiers(pctx: &PluginContext) -> Vec<url_headers::SettingsTier> {
    let layout = pctx.layout();
    let tier = |path: PathBuf, operator: bool| url_headers::SettingsTier { path, operator };
    vec![
        tier(pctx.managed_settings.clone(), true),
        tier(layout.settings(PluginScope::User), true),
        tier(layout.settings(PluginScope::Project), false),
        tier(layout.settings(PluginScope::Local), false),
    ]
}

/// Fetch a marketplace. `name` and `state` (its `known_marketplaces.json` source) choose a
/// `url` marketplace's headers ([`url_headers::choose`]).
fn fetch_marketplace(
    pctx: &PluginContext,
    source: &MarketplaceSource,
    spec: &str,
    name: Option<&str>,
    state: Option<&Value>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<FetchedMarketplace> {
    let layout = pctx.layout();
    match source {
        MarketplaceSource::Directory { path } => {
            let root = PathBuf::from(path);
            let marketplace = marketplace::read_marketplace(&root)?;
            Ok(FetchedMarketplace {
                commit: git::head(&root),
                root,
                clone: None,
                marketplace,
            })
        }
        MarketplaceSource::File { path } => {
            let file = PathBuf::from(path);
            let text = std::fs::read_to_string(&file).map_err(|e| InstallError::io(&file, e))?;
            let marketplace = marketplace::parse_marketplace(&text, &file)?;
            // Claude Code resolves relative plugins against the directory above `.claude-plugin/`.
            let root = file
                .parent()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("/"));
            Ok(FetchedMarketplace {
                commit: git::head(&root),
                root,
                clone: None,
                marketplace,
            })
        }
        MarketplaceSource::Github { .. } | MarketplaceSource::Git { .. } => {
            let (url, git_ref) = source.git().unwrap_or_default();
            report(progress, "fetch", format!("git clone {url}"));
            let parent = layout.plugins_dir().join("marketplaces");
            std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
            let dir = tempfile::Builder::new()
                .prefix(".skilldeck-clone-")
                .tempdir_in(&parent)
                .map_err(|e| InstallError::io(&parent, e))?;
            let repo = dir.path().join("repo");
            let commit = git::clone(&url, git_ref.as_deref(), &repo)?;
            let file_rel = match source {
                MarketplaceSource::Github { path: Some(p), .. }
                | MarketplaceSource::Git { path: Some(p), .. } => p.clone(),
                _ => MARKETPLACE_FILE.to_string(),
            };
            let file =
                manifest::contained(&repo, &format!("./{}", file_rel.trim_start_matches("./")))?;
            let text = std::fs::read_to_string(&file).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => InstallError::InvalidManifest {
                    path: PathBuf::from(&file_rel),
                    message: format!("{url} has no marketplace file at {file_rel}"),
                },
                _ => InstallError::io(&file, e),
            })?;
            let marketplace = marketplace::parse_marketplace(&text, &file)?;
            Ok(FetchedMarketplace {
                root: repo,
                clone: Some(dir),
                marketplace,
                commit: Some(commit),
            })
        }
        MarketplaceSource::Url { url } => {
            // Claude Code keeps the downloaded catalogue as the file `marketplaces/<name>`
            // (its installLocation), re-serialised with two-space indentation.
            report(progress, "fetch", format!("GET {url}"));
            let chosen = url_headers::choose(&declaration_tiers(pctx), url, name, state)?;
            for why in &chosen.dropped {
                report(progress, "warning", format!("{url}: header dropped: {why}"));
            }
            let body = http::get_with_headers(
                url,
                &chosen.headers,
                pctx.limits.max_download_bytes,
                pctx.limits.timeout,
            )?;
            let text = String::from_utf8_lossy(&body).into_owned();
            let marketplace = marketplace::parse_marketplace(&text, Path::new(url))?;
            let parent = layout.plugins_dir().join("marketplaces");
            std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
            let dir = tempfile::Builder::new()
                .prefix(".skilldeck-fetch-")
                .tempdir_in(&parent)
                .map_err(|e| InstallError::io(&parent, e))?;
            let file = dir.path().join("marketplace.json");
            let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            let pretty = serde_json::to_string_pretty(&value).unwrap_or(text);
            std::fs::write(&file, pretty).map_err(|e| InstallError::io(&file, e))?;
            Ok(FetchedMarketplace {
                root: file,
                clone: Some(dir),
                marketplace,
                commit: None,
            })
        }
        MarketplaceSource::Npm { .. } => Err(InstallError::BadSource {
            source_spec: spec.to_string(),
            message:
                "npm marketplaces are not supported (Claude Code does not implement them either)"
                    .into(),
        }),
    }
}

/// Move `from` to `to`, first setting aside whatever is at `to`; returns the aside path.
pub(crate) fn swap_into(from: &Path, to: &Path, aside_dir: &Path) -> Result<Option<PathBuf>> {
    let aside = if std::fs::symlink_metadata(to).is_ok() {
        let a = aside_dir.join("previous");
        std::fs::rename(to, &a).map_err(|e| InstallError::io(to, e))?;
        Some(a)
    } else {
        None
    };
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
    }
    if let Err(e) = std::fs::rename(from, to) {
        if let Some(a) = &aside {
            let _ = std::fs::rename(a, to);
        }
        return Err(InstallError::io(to, e));
    }
    Ok(aside)
}

/// Put back what [`swap_into`] set aside, removing what it moved in.
pub(crate) fn undo_swap(to: &Path, aside: Option<PathBuf>) {
    let _ = std::fs::remove_dir_all(to);
    if let Some(a) = aside {
        let _ = std::fs::rename(a, to);
    }
}

fn info_of(name: &str, entry: &KnownMarketplace) -> MarketplaceInfo {
    let root = PathBuf::from(&entry.install_location);
    let (plugins, error) = match marketplace::read_marketplace(&root) {
        Ok(m) => (m.plugins.into_iter().map(|p| p.name).collect(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    MarketplaceInfo {
        name: name.to_string(),
        source: entry.source.clone(),
        install_location: entry.install_location.clone(),
        last_updated: entry.last_updated.clone(),
        commit: git::head(&root),
        plugins,
        error,
    }
}

/// `marketplace add SOURCE`: fetch the marketplace, check its name and the policy, clone git
/// marketplaces to `plugins/marketplaces/<name>/` (a local directory is read in place, as
/// Claude Code does) and record it in `known_marketplaces.json`. Adding the same source again
/// refreshes it; another source under a known name is refused.
pub fn marketplace_add(
    pctx: &PluginContext,
    spec: &str,
    progress: Option<&ProgressFn<'_>>,
) -> Result<MarketplaceInfo> {
    let layout = pctx.layout();
    if pctx.host == PluginHost::Codex {
        return codex::marketplace_add(
            &pctx.codex()?,
            spec,
            &pctx.project_dir,
            pctx.home_dir.as_deref(),
            progress,
        );
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::marketplace_add(&pctx.copilot()?, spec, &pctx.project_dir, progress);
    }
    let source = MarketplaceSource::parse(spec, &pctx.project_dir, pctx.home_dir.as_deref())?;
    let policy = Policy::read(&pctx.managed_settings)?;
    policy.check(&source)?;
    let fetched = fetch_marketplace(pctx, &source, spec, None, None, progress)?;
    let name = fetched.marketplace.name.clone();
    if let Some(problem) = claude::reserved_name_problem(&name, &source) {
        return Err(InstallError::Policy { message: problem });
    }
    let mut known = read_known(&layout)?;
    let source_value = serde_json::to_value(&source).unwrap_or(Value::Null);
    if let Some(existing) = known.get(&name) {
        if existing.source != source_value {
            return Err(InstallError::BadSource {
                source_spec: spec.to_string(),
                message: format!(
                    "a marketplace named `{name}` is already added from {}; remove it first (skilldeck marketplace remove {name})",
                    existing.source
                ),
            });
        }
    }
    commit_marketplace(&layout, &mut known, &name, source_value, fetched, progress)
}

fn commit_marketplace(
    layout: &ClaudeLayout,
    known: &mut Known,
    name: &str,
    source_value: Value,
    fetched: FetchedMarketplace,
    progress: Option<&ProgressFn<'_>>,
) -> Result<MarketplaceInfo> {
    report(progress, "install", format!("marketplace {name}"));
    let (install_location, placed) = match &fetched.clone {
        Some(dir) => {
            let target = layout.marketplace_dir(name);
            let aside = swap_into(&fetched.root, &target, dir.path())?;
            (target.clone(), Some((target, aside)))
        }
        None => (fetched.root.clone(), None),
    };
    let previous = known.get(name).cloned();
    known.insert(
        name.to_string(),
        KnownMarketplace {
            source: source_value,
            install_location: install_location.to_string_lossy().into_owned(),
            last_updated: now_iso(),
            auto_update: previous.as_ref().and_then(|p| p.auto_update),
            extra: previous.map(|p| p.extra).unwrap_or_default(),
        },
    );
    let user_settings = layout.settings(PluginScope::User);
    let mut settings = read_settings(&user_settings)?;
    let mut rewrites = Rewrites::default();
    let written = (|| {
        rewrites.write(&layout.known_marketplaces(), &to_json_text(&*known))?;
        let declared = settings
            .get("extraKnownMarketplaces")
            .and_then(|m| m.get(name))
            .and_then(|m| m.get("source"));
        if !same_declaration(declared, known.get(name).map(|k| &k.source)) {
            let source = known.get(name).map(|k| k.source.clone());
            claude::set_declared_marketplace(&mut settings, name, source.as_ref());
            rewrites.write(&user_settings, &to_json_text(&settings))?;
        }
        Ok(())
    })();
    if let Err(err) = written {
        rewrites.rollback();
        if let Some((target, aside)) = placed {
            undo_swap(&target, aside);
        }
        return Err(err);
    }
    let entry = known
        .get(name)
        .cloned()
        .ok_or_else(|| InstallError::NoSuchSkill {
            message: format!("marketplace `{name}` vanished while adding it"),
        })?;
    let mut info = info_of(name, &entry);
    info.commit = fetched.commit.clone().or(info.commit);
    Ok(info)
}

/// Whether the user's declaration already says `known`: equal, or (so a declaration's
/// `headers`/`headersHelper` are never overwritten) both `url` sources of the same URL.
fn same_declaration(declared: Option<&Value>, known: Option<&Value>) -> bool {
    let url_of = |v: Option<&Value>| {
        v.filter(|v| v.get("source").and_then(Value::as_str) == Some("url"))
            .and_then(|v| v.get("url"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    match (url_of(declared), url_of(known)) {
        (Some(a), Some(b)) => url_headers::same_url(&a, &b),
        _ => declared == known,
    }
}

/// `marketplace list`.
pub fn marketplace_list(pctx: &PluginContext) -> Result<Vec<MarketplaceInfo>> {
    if pctx.host == PluginHost::Codex {
        return codex::marketplace_list(&pctx.codex()?);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::marketplace_list(&pctx.copilot()?);
    }
    let known = read_known(&pctx.layout())?;
    Ok(known.iter().map(|(n, e)| info_of(n, e)).collect())
}

/// `marketplace update [NAME]`: re-fetch git marketplaces (all when `name` is `None`) and
/// re-read local ones; refresh `lastUpdated`. Codex: its `marketplace upgrade` (git
/// marketplaces only; their plugins are copied again), see [`codex::marketplace_update`].
pub fn marketplace_update(
    pctx: &PluginContext,
    name: Option<&str>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Vec<MarketplaceUpdate>> {
    if pctx.host == PluginHost::Codex {
        return codex::marketplace_update(&pctx.codex()?, name, &pctx.limits, progress);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::marketplace_update(&pctx.copilot()?, name, progress);
    }
    let layout = pctx.layout();
    let mut known = read_known(&layout)?;
    let names: Vec<String> = match name {
        Some(n) if known.contains_key(n) => vec![n.to_string()],
        Some(n) => return Err(no_marketplace(n, &known)),
        None => known.keys().cloned().collect(),
    };
    let policy = Policy::read(&pctx.managed_settings)?;
    let mut out = Vec::new();
    for n in names {
        let Some(entry) = known.get(&n).cloned() else {
            continue;
        };
        let Some(source) = source_of(&entry) else {
            return Err(InstallError::BadSource {
                source_spec: entry.source.to_string(),
                message: format!("marketplace `{n}` has a source kind skilldeck cannot fetch"),
            });
        };
        policy.check(&source)?;
        let from_commit = git::head(Path::new(&entry.install_location));
        let fetched =
            fetch_marketplace(pctx, &source, &n, Some(&n), Some(&entry.source), progress)?;
        if fetched.marketplace.name != n {
            return Err(InstallError::InvalidManifest {
                path: PathBuf::from(MARKETPLACE_FILE),
                message: format!(
                    "marketplace `{n}` now calls itself `{}`; remove it and add it again",
                    fetched.marketplace.name
                ),
            });
        }
        let to_commit = fetched.commit.clone();
        commit_marketplace(
            &layout,
            &mut known,
            &n,
            entry.source.clone(),
            fetched,
            progress,
        )?;
        out.push(MarketplaceUpdate {
            name: n,
            from_commit,
            to_commit,
        });
    }
    Ok(out)
}

fn no_marketplace(name: &str, known: &Known) -> InstallError {
    InstallError::NoSuchSkill {
        message: format!(
            "no marketplace named `{name}` is added; known: {}",
            if known.is_empty() {
                "none (skilldeck marketplace add SOURCE)".to_string()
            } else {
                known.keys().cloned().collect::<Vec<_>>().join(", ")
            }
        ),
    }
}

/// `marketplace remove NAME`: uninstall its plugins from every scope this context sees, delete
/// its clone (never a local directory marketplace, which is the user's), forget it.
pub fn marketplace_remove(pctx: &PluginContext, name: &str) -> Result<MarketplaceRemoveReport> {
    if pctx.host == PluginHost::Codex {
        return codex::marketplace_remove(&pctx.codex()?, name);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::marketplace_remove(&pctx.copilot()?, name);
    }
    let layout = pctx.layout();
    let mut known = read_known(&layout)?;
    let Some(entry) = known.get(name).cloned() else {
        return Err(no_marketplace(name, &known));
    };
    let installed = read_installed(&layout)?;
    let mut uninstalled = Vec::new();
    for (id, installs) in &installed.plugins {
        if split_id(id).map(|(_, m)| m) != Some(name) {
            continue;
        }
        for inst in installs {
            let scope = match scope_of(inst, &pctx.project_path()) {
                Some(PluginScope::Managed) | None => continue,
                Some(scope) => scope,
            };
            plugin_uninstall(pctx, id, scope)?;
        }
        uninstalled.push(id.clone());
    }
    known.remove(name);
    claude::write_atomic(&layout.known_marketplaces(), &to_json_text(&known))?;
    let user_settings = layout.settings(PluginScope::User);
    let mut settings = read_settings(&user_settings)?;
    claude::set_declared_marketplace(&mut settings, name, None);
    // Claude Code also forgets the marketplace's plugins in the user's enabledPlugins, even
    // disabled ones that were never uninstalled.
    if let Some(map) = settings
        .get_mut("enabledPlugins")
        .and_then(Value::as_object_mut)
    {
        map.retain(|id, _| split_id(id).map(|(_, m)| m) != Some(name));
    }
    claude::write_atomic(&user_settings, &to_json_text(&settings))?;
    let clone = layout.marketplace_dir(name);
    if Path::new(&entry.install_location) == clone {
        let _ = if clone.is_file() {
            std::fs::remove_file(&clone)
        } else {
            std::fs::remove_dir_all(&clone)
        };
    }
    Ok(MarketplaceRemoveReport {
        name: name.to_string(),
        uninstalled,
    })
}

// ---- plugins ----

/// A plugin fetched, checked and staged beside its cache directory.
struct Prepared {
    id: String,
    name: String,
    marketplace: String,
    version: String,
    commit: Option<String>,
    target: PathBuf,
    stage: TempDir,
    tree: skilldeck::TreeHash,
    skills: Vec<PluginSkill>,
    lock: PluginLockEntry,
    warnings: Vec<String>,
}

impl Prepared {
    fn staged(&self) -> PathBuf {
        self.stage.path().join("plugin")
    }
}

fn prepare(
    pctx: &PluginContext,
    plugin: &str,
    market: &str,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Prepared> {
    let layout = pctx.layout();
    let known = read_known(&layout)?;
    let Some(entry) = known.get(market) else {
        return Err(no_marketplace(market, &known));
    };
    if let Some(source) = source_of(entry) {
        Policy::read(&pctx.managed_settings)?.check(&source)?;
    }
    let root = PathBuf::from(&entry.install_location);
    let catalogue = marketplace::read_marketplace(&root)?;
    let Some(item) = catalogue.plugins.iter().find(|p| p.name == plugin) else {
        return Err(InstallError::NoSuchSkill {
            message: format!(
                "marketplace `{market}` lists no plugin `{plugin}`; it lists: {}",
                catalogue
                    .plugins
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    };
    // Keep a clone or a download alive until the plugin is staged.
    let mut _clone: Option<TempDir> = None;
    let mut _npm: Option<npm::Fetched> = None;
    let (dir, commit, source_text, source_type) = match &item.source {
        PluginSource::Relative { path } if root.is_file() => {
            return Err(InstallError::BadSource {
                source_spec: path.clone(),
                message: format!(
                    "plugin `{plugin}` is a relative path, but marketplace `{market}` was fetched from a URL and has no files; Claude Code cannot install it either. Ask for a git, github or npm source"
                ),
            })
        }
        PluginSource::Relative { path } => {
            let dir = manifest::contained(&root, path).map_err(|_| InstallError::BadSource {
                source_spec: path.clone(),
                message: format!(
                    "plugin `{plugin}` of marketplace `{market}` resolves outside the marketplace; refusing it"
                ),
            })?;
            if !dir.is_dir() {
                return Err(InstallError::BadSource {
                    source_spec: path.clone(),
                    message: format!("plugin `{plugin}`: {} is not a directory", dir.display()),
                });
            }
            (dir, git::head(&root), path.clone(), "relative".to_string())
        }
        PluginSource::Npm {
            package,
            version,
            registry,
        } => {
            report(progress, "fetch", format!("npm {package}"));
            let fetched = npm::fetch(
                package,
                version.as_deref(),
                registry.as_deref(),
                &pctx.limits,
            )?;
            let dir = fetched.root.clone();
            let text = format!("npm:{package}@{}", fetched.version);
            _npm = Some(fetched);
            (dir, None, text, "npm".to_string())
        }
        other => {
            let (url, git_ref, subdir) = other.git().unwrap_or_default();
            report(progress, "fetch", format!("git clone {url}"));
            let tmp = tempfile::Builder::new()
                .prefix("skilldeck-plugin-")
                .tempdir()
                .map_err(|e| InstallError::io(std::env::temp_dir(), e))?;
            let repo = tmp.path().join("repo");
            let commit = git::clone(&url, git_ref.as_deref(), &repo)?;
            let dir = match &subdir {
                Some(sub) => manifest::contained(&repo, &format!("./{sub}"))?,
                None => repo.clone(),
            };
            if !dir.is_dir() {
                return Err(InstallError::BadSource {
                    source_spec: url,
                    message: format!("no directory `{}` at {commit}", subdir.unwrap_or_default()),
                });
            }
            _clone = Some(tmp);
            let kind = match other {
                PluginSource::Github { .. } => "github",
                PluginSource::GitSubdir { .. } => "git-subdir",
                _ => "url",
            };
            (dir, Some(commit), url, kind.to_string())
        }
    };
    let package = manifest::read_plugin(&dir, Some((&item.name, &item.raw, item.strict)))?;
    let manifest_version = match package.manifest.kind {
        manifest::ManifestKind::MarketplaceEntry => None,
        _ => package.manifest.version.clone(),
    };
    // Claude Code's version rule: the manifest's version, else the entry's, else the first 12
    // characters of the commit, else `unknown`; a pinned `sha` is appended to a version.
    let pinned_sha = match &item.source {
        PluginSource::Github { sha, .. }
        | PluginSource::Url { sha, .. }
        | PluginSource::GitSubdir { sha, .. } => sha.clone(),
        _ => None,
    };
    let short = |c: &str| c.chars().take(12).collect::<String>();
    let version = match (
        manifest_version.or(item.version.clone()),
        &pinned_sha,
        &commit,
    ) {
        (Some(v), Some(sha), _) => format!("{v}-{}", short(sha)),
        (Some(v), None, _) => v,
        (None, _, Some(c)) => short(c),
        (None, _, None) => "unknown".to_string(),
    };
    let target = layout.cache_dir(market, plugin, &version);
    let parent = target.parent().unwrap_or(&target).to_path_buf();
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    report(progress, "stage", format!("{plugin}@{market}"));
    let stage = tempfile::Builder::new()
        .prefix(".skilldeck-stage-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let staged = stage.path().join("plugin");
    let mut warnings = package.warnings.clone();
    warnings.extend(stage::copy_skill(&dir, &staged, &pctx.limits)?);
    let tree = skilldeck::hash_tree(&staged)?;
    let mut skill_digests = BTreeMap::new();
    for skill in &package.skills {
        let digest = skilldeck::hash_tree(&staged.join(&skill.path))?.digest;
        skill_digests.insert(skill.name.clone(), digest);
    }
    let lock = PluginLockEntry {
        source: source_text,
        source_type,
        origin: None,
        commit: commit.clone(),
        version: version.clone(),
        path: rel_to(&pctx.claude_dir, &target),
        digest: tree.digest.clone(),
        files: tree.files.clone(),
        skills: skill_digests,
    };
    Ok(Prepared {
        id: format!("{plugin}@{market}"),
        name: plugin.to_string(),
        marketplace: market.to_string(),
        version,
        commit,
        target,
        stage,
        tree,
        skills: package.skills,
        lock,
        warnings,
    })
}

/// Put a prepared plugin in place and record it for `scope`; undo everything on failure.
fn commit_plugin(
    pctx: &PluginContext,
    prepared: Prepared,
    scope: PluginScope,
    origin: Option<String>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    let layout = pctx.layout();
    let mut installed = read_installed(&layout)?;
    let settings_path = layout.settings(scope);
    let mut settings = read_settings(&settings_path)?;
    let mut lock = read_lock(&layout)?;
    report(progress, "install", prepared.id.clone());
    let aside = swap_into(&prepared.staged(), &prepared.target, prepared.stage.path())?;
    let now = now_iso();
    let project_path = scope.per_project().then(|| pctx.project_path());
    let installs = installed.plugins.entry(prepared.id.clone()).or_default();
    let old = installs
        .iter()
        .position(|i| i.scope == scope.as_str() && i.project_path == project_path)
        .map(|at| installs.remove(at));
    let install_path = prepared.target.to_string_lossy().into_owned();
    installs.push(Installation {
        scope: scope.as_str().to_string(),
        project_path: project_path.clone(),
        install_path: install_path.clone(),
        version: Some(prepared.version.clone()),
        installed_at: Some(
            old.as_ref()
                .and_then(|o| o.installed_at.clone())
                .unwrap_or_else(|| now.clone()),
        ),
        last_updated: Some(now),
        git_commit_sha: prepared.commit.clone(),
        extra: old.as_ref().map(|o| o.extra.clone()).unwrap_or_default(),
    });
    set_enabled(&mut settings, &prepared.id, Some(true))?;
    let mut entry = prepared.lock.clone();
    entry.origin = origin.or_else(|| {
        lock.plugins
            .get(&prepared.id)
            .and_then(|e| e.origin.clone())
    });
    lock.plugins.insert(prepared.id.clone(), entry);
    let mut rewrites = Rewrites::default();
    let written = (|| {
        rewrites.write(&layout.installed_plugins(), &to_json_text(&installed))?;
        rewrites.write(&settings_path, &to_json_text(&settings))?;
        rewrites.write(&layout.lock(), &to_json_text(&lock))
    })();
    if let Err(err) = written {
        rewrites.rollback();
        undo_swap(&prepared.target, aside);
        return Err(err);
    }
    // An older version directory no installation uses any more is Claude Code's orphan.
    if let Some(old) = old.filter(|o| o.install_path != install_path) {
        let still_used = installed
            .plugins
            .values()
            .flatten()
            .any(|i| i.install_path == old.install_path);
        let old_path = PathBuf::from(&old.install_path);
        if !still_used && old_path.starts_with(layout.plugins_dir().join("cache")) {
            orphans::mark(&old_path);
        }
    }
    let info = PluginInfo {
        id: prepared.id.clone(),
        name: prepared.name.clone(),
        marketplace: prepared.marketplace.clone(),
        scope,
        enabled: true,
        version: Some(prepared.version.clone()),
        install_path,
        git_commit_sha: prepared.commit.clone(),
        skills: prepared
            .skills
            .iter()
            .map(|s| format!("{}:{}", prepared.name, s.name))
            .collect(),
        digest: Some(prepared.tree.digest.clone()),
        modified: false,
    };
    Ok(PluginInstallReport {
        plugin: info,
        skill_dirs: prepared.skills.clone(),
        files: prepared.tree.files.clone(),
        warnings: prepared.warnings.clone(),
        audit: Vec::new(),
    })
}

/// Drop a refused staging directory and the cache folders made for it while they are empty
/// (`cache/<marketplace>/<plugin>`), so a refusal leaves the cache as it was.
fn discard(prepared: Prepared) {
    let target = prepared.target.clone();
    drop(prepared);
    for dir in target.ancestors().skip(1).take(2) {
        // Fails, as wanted, on a folder that holds other versions or plugins.
        let _ = std::fs::remove_dir(dir);
    }
}

/// Audit the staged copy, i.e. exactly the files that would be installed, and refuse it
/// above `threshold`: a plugin's hooks and MCP servers run without anyone asking.
fn audit_staged(
    prepared: &Prepared,
    threshold: skilldeck::AuditSeverity,
) -> Result<Vec<skilldeck::AuditFinding>> {
    let staged = prepared.staged();
    let report = skilldeck::audit(&staged, &skilldeck::AuditOptions::default())
        .map_err(|err| InstallError::io(&staged, std::io::Error::other(err.to_string())))?;
    let above: Vec<skilldeck::AuditFinding> =
        report.above(threshold).into_iter().cloned().collect();
    if !above.is_empty() {
        return Err(InstallError::AuditRefused {
            name: prepared.id.clone(),
            source_spec: prepared.marketplace.clone(),
            threshold,
            findings: above,
        });
    }
    Ok(report.findings)
}

/// Copy a plugin given as a SOURCE into skilldeck's own directory marketplace
/// ([`DIRECT_MARKETPLACE`]) and return its name.
fn add_direct(
    pctx: &PluginContext,
    spec: &str,
    progress: Option<&ProgressFn<'_>>,
) -> Result<String> {
    let layout = pctx.layout();
    let source = Source::parse(spec, None, None)?;
    let _clone;
    let dir = match &source {
        Source::Local { path } => {
            let p = if path.is_absolute() {
                path.clone()
            } else {
                pctx.project_dir.join(path)
            };
            if !p.is_dir() {
                return Err(InstallError::BadSource {
                    source_spec: spec.to_string(),
                    message: format!("{} is not a directory", p.display()),
                });
            }
            p
        }
        Source::Git {
            url,
            git_ref,
            subpath,
            ..
        } => {
            report(progress, "fetch", format!("git clone {url}"));
            let tmp = tempfile::Builder::new()
                .prefix("skilldeck-plugin-")
                .tempdir()
                .map_err(|e| InstallError::io(std::env::temp_dir(), e))?;
            let repo = tmp.path().join("repo");
            git::clone(url, git_ref.as_deref(), &repo)?;
            let dir = match subpath {
                Some(sub) => manifest::contained(&repo, &format!("./{sub}"))?,
                None => repo,
            };
            _clone = tmp;
            dir
        }
        _ => {
            return Err(InstallError::BadSource {
                source_spec: spec.to_string(),
                message: "a plugin installs from a directory or a git repository".into(),
            })
        }
    };
    let package = manifest::read_plugin(&dir, None)?;
    let name = package.manifest.name.clone();
    if let Some(problem) = manifest::plugin_name_problem(&name) {
        return Err(InstallError::InvalidManifest {
            path: dir,
            message: format!("plugin name `{name}` {problem}"),
        });
    }
    let root = layout.marketplace_dir(DIRECT_MARKETPLACE);
    let target = root.join("plugins").join(&name);
    std::fs::create_dir_all(root.join("plugins")).map_err(|e| InstallError::io(&root, e))?;
    let stage = tempfile::Builder::new()
        .prefix(".skilldeck-stage-")
        .tempdir_in(root.join("plugins"))
        .map_err(|e| InstallError::io(&root, e))?;
    let staged = stage.path().join("plugin");
    stage::copy_skill(&dir, &staged, &pctx.limits)?;
    let aside = swap_into(&staged, &target, stage.path())?;
    let file = root.join(MARKETPLACE_FILE);
    let mut catalogue: Value = read_json(&file)?.unwrap_or_else(|| {
        serde_json::json!({"name": DIRECT_MARKETPLACE, "owner": {"name": "skilldeck"}, "plugins": []})
    });
    if let Some(list) = catalogue.get_mut("plugins").and_then(Value::as_array_mut) {
        list.retain(|p| p.get("name").and_then(Value::as_str) != Some(name.as_str()));
        list.push(serde_json::json!({"name": name, "source": format!("./plugins/{name}")}));
    }
    let mut known = read_known(&layout)?;
    let source_value = serde_json::json!({"source": "directory", "path": root.to_string_lossy()});
    let mut rewrites = Rewrites::default();
    let result = (|| {
        rewrites.write(&file, &to_json_text(&catalogue))?;
        if !known.contains_key(DIRECT_MARKETPLACE) {
            known.insert(
                DIRECT_MARKETPLACE.to_string(),
                KnownMarketplace {
                    source: source_value,
                    install_location: root.to_string_lossy().into_owned(),
                    last_updated: now_iso(),
                    auto_update: None,
                    extra: Default::default(),
                },
            );
            rewrites.write(&layout.known_marketplaces(), &to_json_text(&known))?;
            let user_settings = layout.settings(PluginScope::User);
            let mut settings = read_settings(&user_settings)?;
            let source = known.get(DIRECT_MARKETPLACE).map(|k| k.source.clone());
            claude::set_declared_marketplace(&mut settings, DIRECT_MARKETPLACE, source.as_ref());
            rewrites.write(&user_settings, &to_json_text(&settings))?;
        }
        Ok(())
    })();
    if let Err(err) = result {
        rewrites.rollback();
        undo_swap(&target, aside);
        return Err(err);
    }
    Ok(name)
}

/// `plugin install PLUGIN@MARKETPLACE` (or a SOURCE holding one plugin): copy it to Claude
/// Code's cache, record it in `installed_plugins.json`, enable it in the scope's settings and
/// record its digests in skilldeck's plugin lock.
pub fn plugin_install(
    pctx: &PluginContext,
    request: &PluginInstallRequest,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    let spec = request.plugin.trim();
    writable(request.scope)?;
    if pctx.host == PluginHost::ClaudeCode {
        orphans::sweep(&pctx.layout());
    }
    if pctx.host == PluginHost::CopilotCli {
        let threshold = request
            .max_severity
            .unwrap_or(skilldeck::AuditSeverity::High);
        return copilot::plugin_install(
            &pctx.copilot()?,
            spec,
            request.scope,
            &pctx.project_dir,
            &pctx.limits,
            threshold,
            progress,
        );
    }
    if pctx.host == PluginHost::Codex {
        let threshold = request
            .max_severity
            .unwrap_or(skilldeck::AuditSeverity::High);
        return codex::plugin_install(
            &pctx.codex()?,
            spec,
            request.scope,
            &pctx.limits,
            threshold,
            progress,
        );
    }
    let known = read_known(&pctx.layout())?;
    let by_id = split_id(spec).filter(|(_, m)| known.contains_key(*m) && !spec.contains("://"));
    let (plugin, market, origin) = match by_id {
        Some((p, m)) => (p.to_string(), m.to_string(), None),
        None if split_id(spec).is_some_and(|(p, m)| {
            !p.contains(['/', ':', '.', '\\']) && !m.contains(['/', ':', '\\'])
        }) =>
        {
            let (_, m) = split_id(spec).unwrap_or_default();
            return Err(no_marketplace(m, &known));
        }
        None => {
            let name = add_direct(pctx, spec, progress)?;
            (name, DIRECT_MARKETPLACE.to_string(), Some(spec.to_string()))
        }
    };
    let prepared = prepare(pctx, &plugin, &market, progress)?;
    let threshold = request
        .max_severity
        .unwrap_or(skilldeck::AuditSeverity::High);
    let findings = match audit_staged(&prepared, threshold) {
        Ok(findings) => findings,
        Err(err) => {
            discard(prepared);
            return Err(err);
        }
    };
    let mut report = commit_plugin(pctx, prepared, request.scope, origin, progress)?;
    report.audit = findings;
    Ok(report)
}

fn scope_of(inst: &Installation, project: &str) -> Option<PluginScope> {
    let here = inst.project_path.as_deref() == Some(project);
    match inst.scope.as_str() {
        "user" => Some(PluginScope::User),
        "managed" => Some(PluginScope::Managed),
        "project" if here => Some(PluginScope::Project),
        "local" if here => Some(PluginScope::Local),
        _ => None,
    }
}

/// Refuse writing to the managed scope: it is the administrator's (Claude Code only reads it).
fn writable(scope: PluginScope) -> Result<()> {
    if scope == PluginScope::Managed {
        return Err(InstallError::Policy {
            message: "the managed scope is read-only: it is set by the administrator's managed-settings.json; use --scope user, project or local".into(),
        });
    }
    Ok(())
}

/// `plugin list`: the installations this context sees (user scope, and project scope of this
/// project), or only those of `scope`.
pub fn plugin_list(pctx: &PluginContext, scope: Option<PluginScope>) -> Result<Vec<PluginInfo>> {
    if pctx.host == PluginHost::Codex {
        return match scope {
            None | Some(PluginScope::User) => codex::plugin_list(&pctx.codex()?),
            Some(_) => Ok(Vec::new()),
        };
    }
    if pctx.host == PluginHost::CopilotCli {
        return match scope {
            None | Some(PluginScope::User) => copilot::plugin_list(&pctx.copilot()?),
            Some(_) => Ok(Vec::new()),
        };
    }
    let layout = pctx.layout();
    let installed = read_installed(&layout)?;
    let lock = read_lock(&layout)?;
    let project = pctx.project_path();
    let mut settings_of = BTreeMap::new();
    for s in [
        PluginScope::User,
        PluginScope::Project,
        PluginScope::Local,
        PluginScope::Managed,
    ] {
        settings_of.insert(s.as_str(), read_settings(&layout.settings(s))?);
    }
    let mut out = Vec::new();
    for (id, installs) in &installed.plugins {
        let (name, market) = split_id(id).unwrap_or((id.as_str(), ""));
        for inst in installs {
            let Some(s) = scope_of(inst, &project) else {
                continue;
            };
            if scope.is_some_and(|want| want != s) {
                continue;
            }
            let settings = &settings_of[s.as_str()];
            let locked = lock
                .plugins
                .get(id)
                .filter(|e| pctx.claude_dir.join(&e.path) == Path::new(&inst.install_path));
            let modified = locked.is_some_and(|e| {
                skilldeck::hash_tree(Path::new(&inst.install_path))
                    .map(|t| t.files != e.files)
                    .unwrap_or(true)
            });
            out.push(PluginInfo {
                id: id.clone(),
                name: name.to_string(),
                marketplace: market.to_string(),
                scope: s,
                enabled: enabled_in(settings, id).unwrap_or(false),
                version: inst.version.clone(),
                install_path: inst.install_path.clone(),
                git_commit_sha: inst.git_commit_sha.clone(),
                skills: locked
                    .map(|e| e.skills.keys().map(|k| format!("{name}:{k}")).collect())
                    .unwrap_or_default(),
                digest: locked.map(|e| e.digest.clone()),
                modified,
            });
        }
    }
    Ok(out)
}

/// Find the installed id `spec` names (`plugin@marketplace`, or a plugin name installed from
/// one marketplace only) in `scope`.
fn resolve_installed(pctx: &PluginContext, spec: &str, scope: PluginScope) -> Result<PluginInfo> {
    let list = plugin_list(pctx, Some(scope))?;
    let hits: Vec<&PluginInfo> = list
        .iter()
        .filter(|p| p.id == spec || (!spec.contains('@') && p.name == spec))
        .collect();
    match hits.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(InstallError::NoSuchSkill {
            message: format!(
                "no plugin `{spec}` is installed in {} scope{}",
                scope.as_str(),
                if list.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; installed: {}",
                        list.iter()
                            .map(|p| p.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ),
        }),
        many => Err(InstallError::NoSuchSkill {
            message: format!(
                "`{spec}` is ambiguous: {}; name it as plugin@marketplace",
                many.iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// `plugin enable` / `plugin disable`: set `enabledPlugins[id]` in the scope's settings,
/// keeping every other key of the file.
pub fn plugin_set_enabled(
    pctx: &PluginContext,
    spec: &str,
    scope: PluginScope,
    enabled: bool,
) -> Result<PluginInfo> {
    writable(scope)?;
    if pctx.host == PluginHost::Codex {
        return codex::plugin_set_enabled(&pctx.codex()?, spec, scope, enabled);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::plugin_set_enabled(&pctx.copilot()?, spec, scope, enabled);
    }
    let mut info = resolve_installed(pctx, spec, scope)?;
    let path = pctx.layout().settings(scope);
    let mut settings = read_settings(&path)?;
    set_enabled(&mut settings, &info.id, Some(enabled))?;
    claude::write_atomic(&path, &to_json_text(&settings))?;
    info.enabled = enabled;
    Ok(info)
}

/// `plugin update [PLUGIN]`: refresh each installed plugin's marketplace (git marketplaces are
/// fetched again; plugins installed from a SOURCE are copied again from it), then reinstall the
/// plugins whose files, commit or version changed. Codex has no such command: each plugin is
/// copied again from its marketplace's current files ([`codex::plugin_update`]).
pub fn plugin_update(
    pctx: &PluginContext,
    spec: Option<&str>,
    scope: PluginScope,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginUpdateReport> {
    writable(scope)?;
    if pctx.host == PluginHost::Codex {
        return codex::plugin_update(&pctx.codex()?, spec, scope, &pctx.limits, progress);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::plugin_update(&pctx.copilot()?, spec, scope, &pctx.limits, progress);
    }
    orphans::sweep(&pctx.layout());
    let targets = match spec {
        Some(s) => vec![resolve_installed(pctx, s, scope)?],
        None => plugin_list(pctx, Some(scope))?,
    };
    let layout = pctx.layout();
    let lock = read_lock(&layout)?;
    let known = read_known(&layout)?;
    let mut refreshed: Vec<String> = Vec::new();
    let mut report_out = PluginUpdateReport::default();
    for info in targets {
        let origin = lock.plugins.get(&info.id).and_then(|e| e.origin.clone());
        if let Some(origin) = &origin {
            add_direct(pctx, origin, progress)?;
        } else if !refreshed.contains(&info.marketplace) {
            let is_git = known
                .get(&info.marketplace)
                .and_then(source_of)
                .is_some_and(|s| s.git().is_some());
            if is_git {
                marketplace_update(pctx, Some(&info.marketplace), progress)?;
            }
            refreshed.push(info.marketplace.clone());
        }
        let prepared = prepare(pctx, &info.name, &info.marketplace, progress)?;
        report_out
            .warnings
            .extend(prepared.warnings.iter().cloned());
        let same = info.digest.as_deref() == Some(prepared.tree.digest.as_str())
            && info.git_commit_sha == prepared.commit
            && info.version.as_deref() == Some(prepared.version.as_str());
        if same {
            report_out.up_to_date.push(info.id.clone());
            continue;
        }
        let change = PluginUpdateChange {
            id: info.id.clone(),
            from_version: info.version.clone(),
            to_version: Some(prepared.version.clone()),
            from_commit: info.git_commit_sha.clone(),
            to_commit: prepared.commit.clone(),
            from_digest: info.digest.clone(),
            to_digest: prepared.tree.digest.clone(),
        };
        // An update installs new files: they pass the same audit as an install, at the
        // default threshold (critical findings refused).
        if let Err(err) = audit_staged(&prepared, skilldeck::AuditSeverity::High) {
            discard(prepared);
            return Err(err);
        }
        commit_plugin(pctx, prepared, scope, origin, progress)?;
        report_out.changes.push(change);
    }
    Ok(report_out)
}

/// `plugin uninstall PLUGIN`: remove the scope's installation and its `enabledPlugins` key;
/// delete the cache directory and skilldeck's lock entry once no scope uses them.
pub fn plugin_uninstall(
    pctx: &PluginContext,
    spec: &str,
    scope: PluginScope,
) -> Result<PluginUninstallReport> {
    writable(scope)?;
    if pctx.host == PluginHost::Codex {
        return codex::plugin_uninstall(&pctx.codex()?, spec, scope);
    }
    if pctx.host == PluginHost::CopilotCli {
        return copilot::plugin_uninstall(&pctx.copilot()?, spec, scope);
    }
    orphans::sweep(&pctx.layout());
    let info = resolve_installed(pctx, spec, scope)?;
    let layout = pctx.layout();
    let mut installed = read_installed(&layout)?;
    let project = pctx.project_path();
    if let Some(list) = installed.plugins.get_mut(&info.id) {
        list.retain(|i| scope_of(i, &project) != Some(scope));
        if list.is_empty() {
            installed.plugins.remove(&info.id);
        }
    }
    let settings_path = layout.settings(scope);
    let mut settings = read_settings(&settings_path)?;
    set_enabled(&mut settings, &info.id, None)?;
    let still_used = installed
        .plugins
        .values()
        .flatten()
        .any(|i| i.install_path == info.install_path);
    let mut lock = read_lock(&layout)?;
    if !installed.plugins.contains_key(&info.id) {
        lock.plugins.remove(&info.id);
    }
    let mut rewrites = Rewrites::default();
    let written = (|| {
        rewrites.write(&layout.installed_plugins(), &to_json_text(&installed))?;
        rewrites.write(&settings_path, &to_json_text(&settings))?;
        rewrites.write(&layout.lock(), &to_json_text(&lock))
    })();
    if let Err(err) = written {
        rewrites.rollback();
        return Err(err);
    }
    let path = PathBuf::from(&info.install_path);
    // Claude Code marks the directory only when the plugin has no installation left at all.
    let removed_path = (!still_used
        && !installed.plugins.contains_key(&info.id)
        && path.starts_with(layout.plugins_dir().join("cache")))
    .then(|| {
        orphans::mark(&path);
        info.install_path.clone()
    });
    Ok(PluginUninstallReport {
        id: info.id,
        scope,
        removed_path,
    })
}
