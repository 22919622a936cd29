//! `PermissionRules`: a rule set given as the canonical JSON shape and evaluated by core.

use crate::error::SkillError;
use crate::records::canonical_json;
use skilldeck::Decision;

/// Permission rules `{"semantics": "last-match"|"deny-first", "rules": [{"pattern",
/// "decision"}], "agents": {name: [rules]}}`, evaluated with the engine's semantics.
#[derive(uniffi::Object)]
pub struct PermissionRules {
    pub(crate) inner: skilldeck::PermissionRules,
}

#[uniffi::export]
impl PermissionRules {
    /// Parse the canonical JSON shape; throws `INVALID_OPTIONS` when it does not fit.
    #[uniffi::constructor]
    pub fn new(rules: String) -> Result<Self, SkillError> {
        serde_json::from_str(&rules)
            .map(|inner| PermissionRules { inner })
            .map_err(|e| {
                SkillError::invalid_options(format!(
                    "permission rules are not valid ({e}); expected {{\"semantics\": \"last-match\"|\"deny-first\", \"rules\": [{{\"pattern\": \"...\", \"decision\": \"allow\"|\"ask\"|\"deny\"}}], \"agents\": {{}}}}"
                ))
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
