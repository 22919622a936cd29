//! Marketplaces and plugin packages (`skilldeck-install`'s `plugin` module, issue 16):
//! `marketplaceAdd`/`List`/`Update`/`Remove` and `pluginInstall`/`List`/`Enable`/`Disable`/
//! `Update`/`Uninstall`, writing Claude Code's own plugin layout (`known_marketplaces.json`,
//! `installed_plugins.json`, the plugin cache, `enabledPlugins`), or with `PluginOptions.host`
//! Codex's or GitHub Copilot CLI's.
//!
//! Same conventions as `install.rs`: blocking calls, a `PluginOptions` record turned into the
//! crate's `PluginContext`, failures as `SkillError.InstallError` with the crate's code. The
//! reports are the crate's own types mirrored with `#[uniffi::remote]`; the install report is
//! copied because its `files` map is a `BTreeMap`, which uniffi lacks.

use crate::error::SkillError;
use crate::install::{limits, with_progress, InstallLimits, ProgressListener};
use crate::records::canonical_json;
use crate::remote::JsonValue;
use skilldeck::{AuditFinding, AuditSeverity};
use skilldeck_install::plugin::manifest::PluginSkill;
use skilldeck_install::{
    Context, MarketplaceInfo, MarketplaceRemoveReport, MarketplaceUpdate, PluginContext,
    PluginHost, PluginInfo, PluginInstallRequest, PluginScope, PluginUninstallReport,
    PluginUpdateChange, PluginUpdateReport,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a plugin is enabled: Claude Code's `USER` scope (`~/.claude/settings.json`, the
/// default), `PROJECT` (`<projectDir>/.claude/settings.json`), `LOCAL`
/// (`<projectDir>/.claude/settings.local.json`) or `MANAGED` (listed only; writing it fails
/// with `POLICY_BLOCKED`). The operations take it as
/// `scope: PluginScope?`, `null` meaning `USER`: uniffi's proc-macros cannot give an enum
/// argument a default value.
#[uniffi::remote(Enum)]
pub enum PluginScope {
    /// `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json` (Claude Code's default).
    User,
    /// `<project>/.claude/settings.json`.
    Project,
    /// `<project>/.claude/settings.local.json`.
    Local,
    /// The administrator's managed settings: listed, never written.
    Managed,
}

/// Whose plugin files the operations write (`PluginOptions.host`, `null` meaning
/// `CLAUDE_CODE`).
#[uniffi::remote(Enum)]
pub enum PluginHost {
    /// Claude Code 2.1.197's layout (`installed_plugins.json`, settings `enabledPlugins`).
    ClaudeCode,
    /// Codex 0.169.0's layout (`$CODEX_HOME/config.toml`, `plugins/cache`; user scope only).
    Codex,
    /// GitHub Copilot CLI 1.0.102's layout (`$COPILOT_HOME/settings.json` and `config.json`;
    /// user scope only).
    CopilotCli,
}

/// Where the plugin operations work; every operation takes one (the defaults: the project in
/// the current directory, Claude Code's directories under `HOME`).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct PluginOptions {
    /// The project root (the `PROJECT` scope's `.claude/settings.json` is under it).
    #[uniffi(default = ".")]
    pub project_dir: String,
    /// The home directory (default: `HOME`), for `~` in sources and the default `claudeDir`.
    #[uniffi(default)]
    pub home_dir: Option<String>,
    /// Claude Code's configuration directory (default: `$CLAUDE_CONFIG_DIR` when absolute,
    /// else `<homeDir>/.claude`).
    #[uniffi(default)]
    pub claude_dir: Option<String>,
    /// Claude Code's managed settings file, whose marketplace policy is obeyed (default: the
    /// platform's, `/etc/claude-code/managed-settings.json` on Linux).
    #[uniffi(default)]
    pub managed_settings: Option<String>,
    /// Caps on what is fetched and installed (`null`: the engine's defaults).
    #[uniffi(default)]
    pub limits: Option<InstallLimits>,
    /// Whose files to write (`null`: Claude Code's); Codex's and Copilot CLI's live under
    /// `<homeDir>/.codex` and `<homeDir>/.copilot` unless `$CODEX_HOME` / `$COPILOT_HOME` is set.
    #[uniffi(default)]
    pub host: Option<PluginHost>,
}

/// A marketplace as `marketplaceAdd` / `marketplaceList` report it.
#[uniffi::remote(Record)]
pub struct MarketplaceInfo {
    pub name: String,
    /// Its source as Claude Code's `known_marketplaces.json` records it, as JSON text
    /// (`{"source":"directory","path":"/…"}`, `{"source":"git","url":"…"}`, …).
    pub source: JsonValue,
    /// Where its files are.
    pub install_location: String,
    /// Last refresh (ISO 8601).
    pub last_updated: String,
    /// The commit of a git marketplace.
    pub commit: Option<String>,
    /// The plugins its `marketplace.json` lists, in its order.
    pub plugins: Vec<String>,
    /// Why its `marketplace.json` could not be read, if it could not.
    pub error: Option<String>,
}

/// What `marketplaceUpdate` did to one marketplace.
#[uniffi::remote(Record)]
pub struct MarketplaceUpdate {
    pub name: String,
    /// The commit before (git marketplaces).
    pub from_commit: Option<String>,
    /// The commit now.
    pub to_commit: Option<String>,
}

/// What `marketplaceRemove` did.
#[uniffi::remote(Record)]
pub struct MarketplaceRemoveReport {
    /// The marketplace removed.
    pub name: String,
    /// Its plugins uninstalled with it (`plugin@marketplace`).
    pub uninstalled: Vec<String>,
}

/// One installed plugin.
#[uniffi::remote(Record)]
pub struct PluginInfo {
    /// `plugin@marketplace`.
    pub id: String,
    pub name: String,
    pub marketplace: String,
    /// The scope of this installation.
    pub scope: PluginScope,
    /// Enabled in the scope's `settings.json`.
    pub enabled: bool,
    /// The installed version.
    pub version: Option<String>,
    /// The cache directory.
    pub install_path: String,
    /// The commit, for git-backed plugins.
    pub git_commit_sha: Option<String>,
    /// Its skills as the `claude-code` profile names them (`plugin:skill`).
    pub skills: Vec<String>,
    /// skilldeck's digest of the installed files, when skilldeck installed it.
    pub digest: Option<String>,
    /// The installed files differ from what skilldeck recorded.
    pub modified: bool,
}

/// One skill of a plugin.
#[uniffi::remote(Record)]
pub struct PluginSkill {
    /// The skill's directory name (Claude Code names plugin skills by directory).
    pub name: String,
    /// Its directory relative to the plugin root, `/`-separated.
    pub path: String,
}

/// What `pluginInstall` did.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct PluginInstallReport {
    /// The plugin as now installed.
    pub plugin: PluginInfo,
    /// Its skills with their directories.
    pub skill_dirs: Vec<PluginSkill>,
    /// Installed files, relative path → `sha256:<hex>` (`toJson()` lists them sorted).
    pub files: HashMap<String, String>,
    /// What was reported and ignored.
    pub warnings: Vec<String>,
    /// The audit of the installed files (at or below the refusal threshold), most severe
    /// first; paths are relative to the plugin directory.
    pub audit: Vec<AuditFinding>,
}

impl From<skilldeck_install::PluginInstallReport> for PluginInstallReport {
    fn from(r: skilldeck_install::PluginInstallReport) -> Self {
        PluginInstallReport {
            plugin: r.plugin,
            skill_dirs: r.skill_dirs,
            files: r.files.into_iter().collect(),
            warnings: r.warnings,
            audit: r.audit,
        }
    }
}

#[uniffi::export]
impl PluginInstallReport {
    /// Canonical JSON (the engine's serde form), the same text every binding produces.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck_install::PluginInstallReport {
            plugin: self.plugin.clone(),
            skill_dirs: self.skill_dirs.clone(),
            files: self.files.clone().into_iter().collect(),
            warnings: self.warnings.clone(),
            audit: self.audit.clone(),
        })
    }
}

/// One plugin `pluginUpdate` reinstalled.
#[uniffi::remote(Record)]
pub struct PluginUpdateChange {
    /// `plugin@marketplace`.
    pub id: String,
    pub from_version: Option<String>,
    pub to_version: Option<String>,
    pub from_commit: Option<String>,
    pub to_commit: Option<String>,
    pub from_digest: Option<String>,
    pub to_digest: String,
}

/// What `pluginUpdate` did.
#[uniffi::remote(Record)]
pub struct PluginUpdateReport {
    /// Plugins reinstalled because their version, commit or digest changed.
    pub changes: Vec<PluginUpdateChange>,
    /// Plugins already current.
    pub up_to_date: Vec<String>,
    pub warnings: Vec<String>,
}

/// What `pluginUninstall` did.
#[uniffi::remote(Record)]
pub struct PluginUninstallReport {
    /// `plugin@marketplace`.
    pub id: String,
    /// The scope it was removed from.
    pub scope: PluginScope,
    /// The cache directory deleted (when no other scope still used it).
    pub removed_path: Option<String>,
}

/// The crate's plugin context for `options`: the install context's directories, then the
/// overrides given.
fn plugin_context(options: &PluginOptions) -> Result<PluginContext, SkillError> {
    let mut ctx = Context::new(PathBuf::from(&options.project_dir));
    if let Some(home) = &options.home_dir {
        ctx.home_dir = Some(PathBuf::from(home));
    }
    if let Some(given) = &options.limits {
        ctx.limits = limits(given, ctx.limits)?;
    }
    let mut pctx =
        PluginContext::with_claude_dir(&ctx, options.claude_dir.as_ref().map(PathBuf::from))?;
    if let Some(file) = &options.managed_settings {
        pctx.managed_settings = PathBuf::from(file);
    }
    if let Some(host) = options.host {
        pctx.host = host;
    }
    Ok(pctx)
}

/// Add a marketplace (a directory, a git URL, `github:owner/repo`) to Claude Code's
/// `known_marketplaces.json` (git ones are cloned under `plugins/marketplaces/`). Throws
/// `InstallError` with code `POLICY_BLOCKED` when the managed settings forbid it and
/// `INVALID_MANIFEST` when its `marketplace.json` is not valid. Blocks until done.
#[uniffi::export(default(options), default(progress = None))]
pub fn marketplace_add(
    source: String,
    options: PluginOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<MarketplaceInfo, SkillError> {
    let pctx = plugin_context(&options)?;
    with_progress(progress, |p| {
        skilldeck_install::marketplace_add(&pctx, &source, p)
    })
}

/// The known marketplaces.
#[uniffi::export(default(options))]
pub fn marketplace_list(options: PluginOptions) -> Result<Vec<MarketplaceInfo>, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::marketplace_list(&pctx)?)
}

/// Re-fetch git marketplaces (all, or `name`) and re-read local ones. Blocks until done.
#[uniffi::export(default(name = None), default(options), default(progress = None))]
pub fn marketplace_update(
    name: Option<String>,
    options: PluginOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<Vec<MarketplaceUpdate>, SkillError> {
    let pctx = plugin_context(&options)?;
    with_progress(progress, |p| {
        skilldeck_install::marketplace_update(&pctx, name.as_deref(), p)
    })
}

/// Remove a marketplace and uninstall its plugins.
#[uniffi::export(default(options))]
pub fn marketplace_remove(
    name: String,
    options: PluginOptions,
) -> Result<MarketplaceRemoveReport, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::marketplace_remove(&pctx, &name)?)
}

/// Install `plugin@marketplace` (or a plugin straight from a directory or git URL) into
/// Claude Code's cache, record it in `installed_plugins.json` and enable it in the scope's
/// `settings.json` (`scope` `null`: `USER`). Its files are audited first: findings above
/// `maxSeverity` (`null`: the default, which refuses `CRITICAL` ones only; `CRITICAL`
/// accepts everything) refuse it with code `AUDIT_REFUSED` and nothing is installed. Blocks
/// until done.
#[uniffi::export(
    default(scope = None),
    default(max_severity = None),
    default(options),
    default(progress = None)
)]
pub fn plugin_install(
    plugin: String,
    scope: Option<PluginScope>,
    max_severity: Option<AuditSeverity>,
    options: PluginOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<PluginInstallReport, SkillError> {
    let pctx = plugin_context(&options)?;
    let request = PluginInstallRequest {
        plugin,
        scope: scope.unwrap_or_default(),
        max_severity,
    };
    let report = with_progress(progress, |p| {
        skilldeck_install::plugin_install(&pctx, &request, p)
    })?;
    Ok(report.into())
}

/// Installed plugins (the user scope's and this project's, or only `scope`'s); `modified`
/// flags files changed since skilldeck installed them.
#[uniffi::export(default(scope = None), default(options))]
pub fn plugin_list(
    scope: Option<PluginScope>,
    options: PluginOptions,
) -> Result<Vec<PluginInfo>, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::plugin_list(&pctx, scope)?)
}

/// Enable an installed plugin in the scope's `settings.json` (`enabledPlugins`; `scope`
/// `null`: `USER`).
#[uniffi::export(default(scope = None), default(options))]
pub fn plugin_enable(
    plugin: String,
    scope: Option<PluginScope>,
    options: PluginOptions,
) -> Result<PluginInfo, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::plugin_set_enabled(
        &pctx,
        &plugin,
        scope.unwrap_or_default(),
        true,
    )?)
}

/// Disable an installed plugin in the scope's `settings.json` (it stays installed; `scope`
/// `null`: `USER`).
#[uniffi::export(default(scope = None), default(options))]
pub fn plugin_disable(
    plugin: String,
    scope: Option<PluginScope>,
    options: PluginOptions,
) -> Result<PluginInfo, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::plugin_set_enabled(
        &pctx,
        &plugin,
        scope.unwrap_or_default(),
        false,
    )?)
}

/// Re-fetch installed plugins (all of the scope's, `null` meaning `USER`, or `plugin`) and
/// reinstall those whose version, commit or digest changed; new files pass the audit.
/// Blocks until done.
#[uniffi::export(
    default(plugin = None),
    default(scope = None),
    default(options),
    default(progress = None)
)]
pub fn plugin_update(
    plugin: Option<String>,
    scope: Option<PluginScope>,
    options: PluginOptions,
    progress: Option<Arc<dyn ProgressListener>>,
) -> Result<PluginUpdateReport, SkillError> {
    let pctx = plugin_context(&options)?;
    with_progress(progress, |p| {
        skilldeck_install::plugin_update(&pctx, plugin.as_deref(), scope.unwrap_or_default(), p)
    })
}

/// Uninstall a plugin from the scope (`null`: `USER`): its `installed_plugins.json` entry and
/// `enabledPlugins` key, and the cache directory once no scope uses it.
#[uniffi::export(default(scope = None), default(options))]
pub fn plugin_uninstall(
    plugin: String,
    scope: Option<PluginScope>,
    options: PluginOptions,
) -> Result<PluginUninstallReport, SkillError> {
    let pctx = plugin_context(&options)?;
    Ok(skilldeck_install::plugin_uninstall(
        &pctx,
        &plugin,
        scope.unwrap_or_default(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_map_to_the_plugin_context() {
        let options = PluginOptions {
            project_dir: "/p".into(),
            home_dir: Some("/h".into()),
            claude_dir: Some("/c".into()),
            managed_settings: Some("/m.json".into()),
            limits: Some(InstallLimits {
                max_files: Some(3),
                ..Default::default()
            }),
            host: Some(PluginHost::CopilotCli),
        };
        let pctx = plugin_context(&options).map_err(|e| e.to_string()).unwrap();
        assert_eq!(pctx.project_dir, PathBuf::from("/p"));
        assert_eq!(pctx.home_dir.as_deref(), Some(std::path::Path::new("/h")));
        assert_eq!(pctx.claude_dir, PathBuf::from("/c"));
        assert_eq!(pctx.managed_settings, PathBuf::from("/m.json"));
        assert_eq!(pctx.limits.max_files, 3);
        assert_eq!(pctx.host, PluginHost::CopilotCli);
        assert_eq!(
            pctx.limits.max_bytes,
            skilldeck_install::Limits::default().max_bytes
        );
    }

    #[test]
    fn install_report_json_is_the_engines() {
        let core = skilldeck_install::PluginInstallReport {
            plugin: PluginInfo {
                id: "tools@acme".into(),
                name: "tools".into(),
                marketplace: "acme".into(),
                scope: PluginScope::Project,
                enabled: true,
                version: Some("1.0.0".into()),
                install_path: "/c/plugins/cache/acme/tools/1.0.0".into(),
                git_commit_sha: None,
                skills: vec!["tools:pdf".into()],
                digest: Some("sha256:00".into()),
                modified: false,
            },
            skill_dirs: vec![PluginSkill {
                name: "pdf".into(),
                path: "skills/pdf".into(),
            }],
            files: [
                ("b".to_string(), "sha256:2".to_string()),
                ("a".into(), "sha256:1".into()),
            ]
            .into_iter()
            .collect(),
            warnings: vec![],
            audit: vec![],
        };
        let copy = PluginInstallReport::from(core.clone());
        assert_eq!(copy.files.len(), 2);
        assert_eq!(copy.to_json(), canonical_json(&core));
        assert!(copy.to_json().contains(r#""scope":"project""#));
    }
}
