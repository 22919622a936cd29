//! `Catalog`: the immutable snapshot a load produced, shared with the engine (no copy until
//! a skill is asked for).

use crate::records::{canonical_json, Skill};
use skilldeck::{Diagnostic, Shadowed};
use std::sync::Arc;

/// Everything one load discovered: resolved skills, what they shadow, and every diagnostic.
#[derive(uniffi::Object)]
pub struct Catalog {
    pub(crate) inner: Arc<skilldeck::Catalog>,
}

impl Catalog {
    pub(crate) fn new(inner: Arc<skilldeck::Catalog>) -> Self {
        Catalog { inner }
    }
}

#[uniffi::export]
impl Catalog {
    /// The profile that discovered these skills.
    pub fn profile(&self) -> String {
        self.inner.profile.clone()
    }

    /// Every resolved skill, in catalog order (including disabled and denied ones).
    pub fn skills(&self) -> Vec<Skill> {
        self.inner
            .skills
            .iter()
            .map(|s| Skill::from(skilldeck::Skill::clone(s)))
            .collect()
    }

    /// Skills that lost a name clash, each with the winner's location.
    pub fn shadowed(&self) -> Vec<Shadowed> {
        self.inner.shadowed.clone()
    }

    /// Every diagnostic of the load (per-skill ones are also on each skill).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.inner.diagnostics.clone()
    }

    /// A skill by id, then by name; `null`/`nil` when absent.
    pub fn get(&self, id: String) -> Option<Skill> {
        self.inner.get(&id).cloned().map(Skill::from)
    }

    /// The skill ids, in catalog order.
    pub fn ids(&self) -> Vec<String> {
        self.inner.skills.iter().map(|s| s.id.to_string()).collect()
    }

    /// Number of skills.
    pub fn len(&self) -> u64 {
        u64::try_from(self.inner.skills.len()).unwrap_or(u64::MAX)
    }

    /// True when no skill was found.
    pub fn is_empty(&self) -> bool {
        self.inner.skills.is_empty()
    }

    /// Skills shown by a default listing (enabled and not denied).
    pub fn listed(&self) -> Vec<Skill> {
        self.inner.listed().cloned().map(Skill::from).collect()
    }

    /// Skills that go into the model's prompt.
    pub fn model_visible(&self) -> Vec<Skill> {
        self.inner
            .model_visible()
            .cloned()
            .map(Skill::from)
            .collect()
    }

    /// Canonical JSON (the engine's serde form).
    pub fn to_json(&self) -> String {
        canonical_json(self.inner.as_ref())
    }
}
