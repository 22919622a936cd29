//! `PermissionRules`: evaluate the engine's permission rules without a `Deck`.

use crate::error::{canonical, check};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// A permission rule set (`pattern -> allow | ask | deny`, last-match or deny-first).
#[napi]
pub struct PermissionRules {
    pub(crate) inner: skilldeck::PermissionRules,
}

#[napi]
impl PermissionRules {
    /// Build from the canonical JSON shape
    /// `{ semantics: "last-match" | "deny-first", rules: [{ pattern, decision }], agents: { name: [rules] } }`.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "PermissionRulesJson")] rules: Option<serde_json::Value>,
    ) -> Result<Self> {
        let inner = match rules {
            Some(json) => check(&env, skilldeck::PermissionRules::from_value(&json))?,
            None => skilldeck::PermissionRules::default(),
        };
        Ok(PermissionRules { inner })
    }

    /// The decision for skill `id` as seen by `agent` (`ask` when no rule matches).
    #[napi(ts_return_type = "Decision")]
    pub fn evaluate(&self, env: Env, id: String, agent: Option<String>) -> Result<&'static str> {
        let decision = skilldeck::catch_panic(|| Ok(self.inner.evaluate(&id, agent.as_deref())));
        check(&env, decision).map(|d| d.decision.as_str())
    }

    /// True when the whole skill tool is disabled for `agent`.
    #[napi]
    pub fn tool_disabled(&self, agent: Option<String>) -> bool {
        self.inner.tool_disabled(agent.as_deref())
    }

    /// `last-match` or `deny-first`.
    #[napi(getter, ts_return_type = "'last-match' | 'deny-first'")]
    pub fn semantics(&self) -> Result<serde_json::Value> {
        canonical(&self.inner.semantics)
    }

    /// The canonical JSON form.
    #[napi(js_name = "toJSON", ts_return_type = "PermissionRulesJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}
