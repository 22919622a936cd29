//! Plugin marketplaces and plugin packages, installed in Claude Code's own layout.
//!
//! - [`manifest`]: plugin manifests (`.claude-plugin`, `.codex-plugin`, `.kode-plugin`,
//!   Agent Plugins 1.0.0) and the skills a plugin ships;
//! - [`npm`]: npm plugin sources (registry, tarball, `dist.integrity`);
//! - [`marketplace`]: `.claude-plugin/marketplace.json` and its plugin sources;
//! - [`claude`]: Claude Code's files (`known_marketplaces.json`, `installed_plugins.json`,
//!   the plugin cache, `enabledPlugins`) and its marketplace policy;
//! - [`codex`]: Codex's files (`config.toml`'s `marketplaces`/`plugins`, its plugin cache);
//! - [`codex_git`]: Codex's marketplace sources and git marketplace clones;
//! - [`copilot`]: GitHub Copilot CLI's files (`settings.json`'s `extraKnownMarketplaces`/
//!   `enabledPlugins`, `config.json`'s `installedPlugins`, `installed-plugins/_direct`);
//! - [`url_headers`]: the HTTP headers a `url` marketplace is downloaded with;
//! - [`copilot_git`]: Copilot CLI's git marketplace clones and the plugins copied from them;
//! - [`orphans`]: Claude Code's delayed deletion of cache versions nobody uses;
//! - [`ops`]: the operations (`marketplace add|list|update|remove`,
//!   `plugin install|list|enable|disable|update|uninstall`).

pub mod claude;
pub mod codex;
pub mod codex_git;
pub mod copilot;
pub mod copilot_git;
pub mod manifest;
pub mod marketplace;
pub mod npm;
pub mod ops;
pub mod orphans;
pub mod url_headers;

use serde::{Deserialize, Serialize};

/// Whose plugin files the operations write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluginHost {
    /// Claude Code 2.1.197's layout (`installed_plugins.json`, settings `enabledPlugins`).
    #[default]
    ClaudeCode,
    /// Codex 0.169.0's layout (`config.toml` and `plugins/cache`; user scope only).
    Codex,
    /// GitHub Copilot CLI 1.0.102's layout (`~/.copilot/settings.json` and `config.json`;
    /// user scope only).
    CopilotCli,
}

/// Where a plugin is installed and enabled: Claude Code 2.1.197's scopes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginScope {
    /// `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json` (Claude Code's default).
    #[default]
    User,
    /// `<project>/.claude/settings.json` (shared with the project's repository).
    Project,
    /// `<project>/.claude/settings.local.json` (this checkout only).
    Local,
    /// The administrator's managed settings: listed, never written.
    Managed,
}

impl PluginScope {
    /// `user`, `project`, `local` or `managed`, as `installed_plugins.json` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PluginScope::User => "user",
            PluginScope::Project => "project",
            PluginScope::Local => "local",
            PluginScope::Managed => "managed",
        }
    }

    /// Whether installs of this scope belong to one project (`projectPath`).
    pub fn per_project(self) -> bool {
        matches!(self, PluginScope::Project | PluginScope::Local)
    }
}
