//! Inputs of a `Deck`. Home, project directory, environment and system directories are
//! explicit here so tests can build any layout in a temp dir; nothing deeper in the engine
//! reads the process environment.

use crate::catalog::Scope;
use crate::permissions::PermissionRules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

/// An extra root given by the caller.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootSpec {
    #[serde(serialize_with = "crate::serde_path::lossy")]
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
/// Unknown keys are refused when read from JSON: a misspelt `disable` would switch nothing off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeckOptions {
    /// Built-in profile name (`universal`, `agentskills`, `claude-code`, `codex`, `opencode`, `kode`,
    /// `gemini`, `qwen-code`, `copilot-cli`, `mistral-vibe`, `goose`, `cursor` (from its documentation; no live oracle), `openhands`, `cline`,
    /// `copilot` (VS Code Copilot Chat, from its source; no live oracle)).
    pub profile: String,
    /// A custom profile file (TOML or JSON); overrides `profile` when set.
    #[serde(serialize_with = "crate::serde_path::lossy_opt")]
    pub profile_file: Option<PathBuf>,
    /// The agent's working directory.
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub project_dir: PathBuf,
    /// `None`: `$HOME` from `env`. Relative paths here, in `project_dir` and in
    /// `system_root` are resolved against the process's working directory.
    #[serde(serialize_with = "crate::serde_path::lossy_opt")]
    pub home_dir: Option<PathBuf>,
    /// Environment seen by the profile (`CODEX_HOME`, `XDG_CONFIG_HOME`, `PATH`, ...).
    /// `None`: captured from the process when the `Deck` is built. OS strings, because the
    /// process environment need not be UTF-8 (a `PWD` below a non-UTF-8 directory is enough)
    /// and a `HOME` or `XDG_CONFIG_HOME` that is not UTF-8 still names real directories. In
    /// JSON it is a map of strings (see `env_serde` in this module).
    #[serde(with = "env_serde")]
    pub env: Option<BTreeMap<OsString, OsString>>,
    /// Prefix for absolute system directories (`/etc/codex`, managed settings); default `/`.
    #[serde(serialize_with = "crate::serde_path::lossy_opt")]
    pub system_root: Option<PathBuf>,
    /// Extra roots, lowest precedence. A relative root is resolved against the project
    /// directory (a leading `~` against the home).
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

/// The JSON form of [`DeckOptions::env`]: a map of strings. Reading accepts only strings
/// (JSON has nothing else). Writing replaces bytes that are not UTF-8 with U+FFFD: the
/// options are written for people and logs (`Deck.options` in Python), and one odd
/// variable in a captured environment must not make that fail.
pub mod env_serde {
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::BTreeMap;
    use std::ffi::OsString;

    pub fn serialize<S: Serializer>(
        env: &Option<BTreeMap<OsString, OsString>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let Some(env) = env else {
            return serializer.serialize_none();
        };
        let mut map = serializer.serialize_map(Some(env.len()))?;
        for (key, value) in env {
            map.serialize_entry(&key.to_string_lossy(), &value.to_string_lossy())?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<BTreeMap<OsString, OsString>>, D::Error> {
        let env: Option<BTreeMap<String, String>> = Option::deserialize(deserializer)?;
        Ok(env.map(|env| {
            env.into_iter()
                .map(|(k, v)| (OsString::from(k), OsString::from(v)))
                .collect()
        }))
    }
}
