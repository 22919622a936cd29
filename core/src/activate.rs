//! Activation: load one skill's body (only now), substitute arguments and variables, and
//! format it the way the host expects.

use crate::catalog::Skill;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivationFormat {
    /// Body after substitution, nothing around it.
    #[default]
    Raw,
    /// OpenCode's `<skill_content name="...">` block.
    Opencode,
    /// Codex's `<skill><name/><path/>...</skill>`.
    Codex,
    /// Kode's `Base directory for this skill: ...` prompt.
    Kode,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivateOptions {
    /// The raw argument string (`$ARGUMENTS`).
    pub args: String,
    /// Caller-supplied variables for `${NAME}`.
    pub vars: BTreeMap<String, String>,
    pub format: ActivationFormat,
    /// Agent activating the skill (permission rules, event).
    pub agent: Option<String>,
    /// `${CLAUDE_SESSION_ID}`.
    pub session_id: Option<String>,
}

/// The activated skill: the formatted text plus the structured parts for hosts that build
/// their own message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub id: String,
    pub name: String,
    /// Output in the requested format.
    pub text: String,
    /// Body after substitution.
    pub body: String,
    pub base_dir: PathBuf,
    /// Resource files (relative to `base_dir`, sorted, SKILL.md excluded).
    pub resources: Vec<String>,
    pub allowed_tools: Vec<String>,
    pub model: Option<String>,
    pub effort: Option<String>,
    pub context: Option<String>,
    pub agent: Option<String>,
}

/// Activate `skill` (permission checks are the caller's: see `Deck::activate`).
pub fn activate(
    skill: &Skill,
    project_dir: &std::path::Path,
    options: &ActivateOptions,
) -> Result<Activation> {
    let _ = (skill, project_dir, options);
    Err(Error::invalid_options(
        "activation is being built (issue 4)",
    ))
}
