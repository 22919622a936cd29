//! Plugin marketplaces and plugin packages, installed in Claude Code's own layout.
//!
//! - [`manifest`]: plugin manifests (`.claude-plugin`, `.codex-plugin`, `.kode-plugin`,
//!   Agent Plugins 1.0.0) and the skills a plugin ships;
//! - [`marketplace`]: `.claude-plugin/marketplace.json` and its plugin sources;
//! - [`claude`]: Claude Code's files (`known_marketplaces.json`, `installed_plugins.json`,
//!   the plugin cache, `enabledPlugins`) and its marketplace policy;
//! - [`codex`]: Codex's files (`config.toml`'s `marketplaces`/`plugins`, its plugin cache);
//! - [`ops`]: the operations (`marketplace add|list|update|remove`,
//!   `plugin install|list|enable|disable|update|uninstall`).

pub mod claude;
pub mod codex;
pub mod manifest;
pub mod marketplace;
pub mod ops;

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
}

/// Where a plugin is enabled: Claude Code's `user` or `project` scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginScope {
    /// `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json` (Claude Code's default).
    #[default]
    User,
    /// `<project>/.claude/settings.json`.
    Project,
}

impl PluginScope {
    /// `user` or `project`, as `installed_plugins.json` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PluginScope::User => "user",
            PluginScope::Project => "project",
        }
    }
}
