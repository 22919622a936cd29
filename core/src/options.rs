//! Inputs of a `Deck`. Home, project directory, environment and system directories are
//! explicit here so tests can build any layout in a temp dir; nothing deeper in the engine
//! reads the process environment.

use crate::catalog::Scope;
use crate::permissions::PermissionRules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// An extra root given by the caller.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootSpec {
    pub path: PathBuf,
    #[serde(default = "default_extra_scope")]
    pub scope: Scope,
    /// Glob relative to `path`; default `**/SKILL.md`.
    #[serde(default)]
    pub pattern: Option<String>,
}

fn default_extra_scope() -> Scope {
    Scope::Extra
}

impl RootSpec {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        RootSpec {
            path: path.into(),
            scope: Scope::Extra,
            pattern: None,
        }
    }
}

/// Everything a `Deck` needs to know. `Default` gives the `universal` profile in the
/// current directory with the process's home and environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeckOptions {
    /// Built-in profile name (`universal`, `agentskills`, `claude-code`, `codex`, `opencode`, `kode`,
    /// `gemini`, `qwen-code`).
    pub profile: String,
    /// A custom profile file (TOML or JSON); overrides `profile` when set.
    pub profile_file: Option<PathBuf>,
    /// The agent's working directory.
    pub project_dir: PathBuf,
    /// `None`: `$HOME` from `env`.
    pub home_dir: Option<PathBuf>,
    /// Environment seen by the profile (`CODEX_HOME`, `XDG_CONFIG_HOME`, `PATH`, ...).
    /// `None`: captured from the process when the `Deck` is built.
    pub env: Option<BTreeMap<String, String>>,
    /// Prefix for absolute system directories (`/etc/codex`, managed settings); default `/`.
    pub system_root: Option<PathBuf>,
    /// Extra roots, lowest precedence.
    pub roots: Vec<RootSpec>,
    /// Permission rules given by the caller (added after the host's own settings).
    pub rules: Option<PermissionRules>,
    /// Agent whose per-agent rules apply.
    pub agent: Option<String>,
    /// Ids, paths or globs to force on.
    pub enable: Vec<String>,
    /// Ids, paths or globs to switch off.
    pub disable: Vec<String>,
    /// Hide skills whose `os`/`requires` are unmet instead of listing them as unavailable.
    pub hide_unavailable: bool,
    /// Read host settings files (opencode.json, Claude settings.json, Codex config.toml).
    pub read_host_settings: bool,
    /// Include the Claude Code-style nested `.claude/skills` below the project dir.
    pub nested: bool,
}

impl Default for DeckOptions {
    fn default() -> Self {
        DeckOptions {
            profile: "universal".to_string(),
            profile_file: None,
            project_dir: PathBuf::from("."),
            home_dir: None,
            env: None,
            system_root: None,
            roots: Vec::new(),
            rules: None,
            agent: None,
            enable: Vec::new(),
            disable: Vec::new(),
            hide_unavailable: false,
            read_host_settings: true,
            nested: false,
        }
    }
}
