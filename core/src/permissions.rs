//! Permission rules: `pattern -> allow | ask | deny`, with the two evaluation semantics
//! found in hosts (OpenCode: last match wins; Claude Code/Kode: deny > ask > allow).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Semantics {
    /// Rules in order; the last matching rule decides (OpenCode).
    #[default]
    LastMatch,
    /// Any matching deny wins, then ask, then allow (Claude Code, Kode).
    DenyFirst,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    pub pattern: String,
    pub decision: Decision,
}

/// A rule set: global rules plus per-agent rules appended after them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PermissionRules {
    pub semantics: Semantics,
    pub rules: Vec<Rule>,
    pub agents: BTreeMap<String, Vec<Rule>>,
}

/// The outcome of evaluating one id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    pub decision: Decision,
    /// The rule that decided (`None`: no rule matched, the default applied).
    pub rule: Option<Rule>,
}

impl PermissionRules {
    /// Decide for skill `id` as seen by `agent` (per-agent rules are appended to the global ones).
    pub fn evaluate(&self, id: &str, agent: Option<&str>) -> Evaluation {
        let _ = (id, agent);
        Evaluation {
            decision: Decision::Ask,
            rule: None,
        }
    }

    /// The whole skill tool is disabled for `agent` (OpenCode: the last rule is `* -> deny`).
    pub fn tool_disabled(&self, agent: Option<&str>) -> bool {
        let _ = agent;
        false
    }
}
