//! `PermissionRules`: a rule set given as a rules document (any shape core reads) and
//! evaluated by core.

use crate::error::SkillError;
use crate::records::canonical_json;
use skilldeck::Decision;

/// Permission rules: skilldeck's `{"semantics": "last-match"|"deny-first", "rules":
/// [{"pattern", "decision"}], "agents": {name: [rules]}}`, OpenCode's `{"permission": ...}`
/// or Claude Code's `{"permissions": ...}`, evaluated with that shape's semantics.
#[derive(uniffi::Object)]
pub struct PermissionRules {
    pub(crate) inner: skilldeck::PermissionRules,
}

#[uniffi::export]
impl PermissionRules {
    /// Read a rules document (JSON): skilldeck's canonical shape, OpenCode's
    /// `{"permission": ...}` or Claude Code's `{"permissions": ...}`. Throws `INVALID_OPTIONS`
    /// naming the key (and line) for an unknown key, a wrong type or an unknown shape.
    #[uniffi::constructor]
    pub fn new(rules: String) -> Result<Self, SkillError> {
        Ok(PermissionRules {
            inner: skilldeck::PermissionRules::from_json_str(&rules, None)?,
        })
    }

    /// The decision for skill `id` as seen by `agent` (per-agent rules after the global ones).
    #[uniffi::method(default(agent = None))]
    pub fn evaluate(&self, id: String, agent: Option<String>) -> Decision {
        self.inner.evaluate(&id, agent.as_deref()).decision
    }

    /// The whole skill tool is disabled for `agent`.
    #[uniffi::method(default(agent = None))]
    pub fn tool_disabled(&self, agent: Option<String>) -> bool {
        self.inner.tool_disabled(agent.as_deref())
    }

    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&self.inner)
    }
}
