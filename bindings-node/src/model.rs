//! The engine's result types as JS classes. Each wraps the core value, exposes camelCase
//! getters, and gives the canonical core JSON from `toJSON()` (so `JSON.stringify` of any
//! of them equals the Rust/Python form).

use crate::error::canonical;
use crate::manifest::{manifest_getters, Manifest};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

fn path_string(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// One finding about one file; `code` is stable, `message` is for humans.
#[napi]
pub struct Diagnostic {
    pub(crate) inner: skilldeck::Diagnostic,
}

pub(crate) fn diagnostics(list: &[skilldeck::Diagnostic]) -> Vec<Diagnostic> {
    list.iter()
        .map(|d| Diagnostic { inner: d.clone() })
        .collect()
}

#[napi]
impl Diagnostic {
    #[napi(getter)]
    pub fn code(&self) -> String {
        self.inner.code.to_string()
    }
    #[napi(getter, ts_return_type = "'error' | 'warning' | 'info'")]
    pub fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }
    #[napi(getter)]
    pub fn path(&self) -> Option<String> {
        self.inner.path.as_deref().map(path_string)
    }
    /// 1-based line, when known.
    #[napi(getter)]
    pub fn line(&self) -> Option<u32> {
        self.inner.line
    }
    /// 1-based column in characters, when known.
    #[napi(getter)]
    pub fn column(&self) -> Option<u32> {
        self.inner.column
    }
    #[napi(getter)]
    pub fn message(&self) -> String {
        self.inner.message.to_string()
    }
    /// What to do about it.
    #[napi(getter)]
    pub fn hint(&self) -> Option<String> {
        self.inner.hint.as_deref().map(str::to_string)
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// What the filter stage decided about a skill.
#[napi]
pub struct Status {
    pub(crate) inner: skilldeck::Status,
}

#[napi]
impl Status {
    #[napi(getter)]
    pub fn enabled(&self) -> bool {
        self.inner.enabled
    }
    #[napi(getter)]
    pub fn model_invocable(&self) -> bool {
        self.inner.model_invocable
    }
    #[napi(getter)]
    pub fn user_invocable(&self) -> bool {
        self.inner.user_invocable
    }
    #[napi(getter)]
    pub fn available(&self) -> bool {
        self.inner.available
    }
    #[napi(getter, ts_return_type = "Decision")]
    pub fn permission(&self) -> &'static str {
        self.inner.permission.as_str()
    }
    #[napi(getter)]
    pub fn ambiguous(&self) -> bool {
        self.inner.ambiguous
    }
    /// Why each restriction applies.
    #[napi(getter)]
    pub fn reasons(&self) -> Vec<String> {
        self.inner.reasons.clone()
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// One resolved skill, with every manifest key also readable directly.
#[napi]
pub struct Skill {
    pub(crate) inner: skilldeck::Skill,
}

impl Skill {
    fn manifest_ref(&self) -> &skilldeck::Manifest {
        &self.inner.manifest
    }
}

#[napi]
impl Skill {
    /// Unique id in the catalog (`name`, `plugin:name`, ...).
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.inner.id.to_string()
    }
    #[napi(getter)]
    pub fn name(&self) -> String {
        self.inner.name.to_string()
    }
    #[napi(getter)]
    pub fn description(&self) -> String {
        self.inner.description().to_string()
    }
    /// Absolute path of the SKILL.md.
    #[napi(getter)]
    pub fn location(&self) -> String {
        path_string(&self.inner.location)
    }
    /// Directory holding the skill's files.
    #[napi(getter)]
    pub fn base_dir(&self) -> String {
        path_string(&self.inner.base_dir)
    }
    #[napi(
        getter,
        ts_return_type = "'managed' | 'admin' | 'system' | 'project' | 'user' | 'plugin' | 'extra'"
    )]
    pub fn scope(&self) -> &'static str {
        self.inner.scope.as_str()
    }
    /// The root directory the skill was found under.
    #[napi(getter)]
    pub fn source(&self) -> String {
        path_string(&self.inner.source)
    }
    #[napi(getter)]
    pub fn plugin(&self) -> Option<String> {
        self.inner.plugin.clone()
    }
    #[napi(getter, ts_return_type = "'skill' | 'command'")]
    pub fn kind(&self) -> Result<serde_json::Value> {
        canonical(&self.inner.kind)
    }
    #[napi(getter)]
    pub fn status(&self) -> Status {
        Status {
            inner: self.inner.status.clone(),
        }
    }
    #[napi(getter)]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics(&self.inner.diagnostics)
    }
    #[napi(getter)]
    pub fn manifest(&self) -> Manifest {
        Manifest {
            inner: skilldeck::Manifest::clone(&self.inner.manifest),
        }
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

skilldeck::manifest_fields!(manifest_getters, Skill, without_identity);

/// A skill that lost a name clash (or duplicated a path).
#[napi]
pub struct Shadowed {
    pub(crate) inner: skilldeck::Shadowed,
}

#[napi]
impl Shadowed {
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.inner.id.to_string()
    }
    #[napi(getter)]
    pub fn name(&self) -> String {
        self.inner.name.to_string()
    }
    #[napi(getter)]
    pub fn location(&self) -> String {
        path_string(&self.inner.location)
    }
    /// Location of the skill that won.
    #[napi(getter)]
    pub fn winner(&self) -> String {
        path_string(&self.inner.winner)
    }
    #[napi(getter)]
    pub fn reason(&self) -> String {
        self.inner.reason.to_string()
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// An immutable snapshot of everything a load discovered.
#[napi]
pub struct Catalog {
    pub(crate) inner: Arc<skilldeck::Catalog>,
}

fn skills<'a>(iter: impl Iterator<Item = &'a skilldeck::Skill>) -> Vec<Skill> {
    iter.map(|s| Skill { inner: s.clone() }).collect()
}

#[napi]
impl Catalog {
    #[napi(getter)]
    pub fn profile(&self) -> String {
        self.inner.profile.clone()
    }
    /// Every resolved skill, listed or not.
    #[napi(getter)]
    pub fn skills(&self) -> Vec<Skill> {
        skills(self.inner.skills.iter().map(AsRef::as_ref))
    }
    #[napi(getter)]
    pub fn shadowed(&self) -> Vec<Shadowed> {
        self.inner
            .shadowed
            .iter()
            .map(|s| Shadowed { inner: s.clone() })
            .collect()
    }
    #[napi(getter)]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics(&self.inner.diagnostics)
    }
    /// Number of skills.
    #[napi(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.inner.skills.len()).unwrap_or(u32::MAX)
    }
    /// A skill by id, then by name; `null` when absent.
    #[napi]
    pub fn get(&self, id: String) -> Option<Skill> {
        self.inner.get(&id).map(|s| Skill { inner: s.clone() })
    }
    /// Skills shown by a default listing (enabled and not denied).
    #[napi]
    pub fn listed(&self) -> Vec<Skill> {
        skills(self.inner.listed())
    }
    /// Skills that go into the model's prompt.
    #[napi]
    pub fn model_visible(&self) -> Vec<Skill> {
        skills(self.inner.model_visible())
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(self.inner.as_ref())
    }
}

/// What changed between two loads, by skill id.
#[napi]
pub struct Diff {
    pub(crate) inner: skilldeck::Diff,
}

#[napi]
impl Diff {
    #[napi(getter)]
    pub fn added(&self) -> Vec<String> {
        self.inner.added.clone()
    }
    #[napi(getter)]
    pub fn removed(&self) -> Vec<String> {
        self.inner.removed.clone()
    }
    #[napi(getter)]
    pub fn changed(&self) -> Vec<String> {
        self.inner.changed.clone()
    }
    #[napi(js_name = "toJSON", ts_return_type = "DiffJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// A skill whose description was shortened to fit the budget.
#[napi(object, object_from_js = false)]
pub struct Truncation {
    pub id: String,
    pub chars_removed: u32,
}

/// What a render kept, shortened and dropped.
#[napi]
pub struct RenderReport {
    pub(crate) inner: skilldeck::RenderReport,
}

#[napi]
impl RenderReport {
    #[napi(getter)]
    pub fn included(&self) -> Vec<String> {
        self.inner.included.clone()
    }
    #[napi(getter)]
    pub fn truncated(&self) -> Vec<Truncation> {
        self.inner
            .truncated
            .iter()
            .map(|t| Truncation {
                id: t.id.clone(),
                chars_removed: u32::try_from(t.chars_removed).unwrap_or(u32::MAX),
            })
            .collect()
    }
    #[napi(getter)]
    pub fn omitted(&self) -> Vec<String> {
        self.inner.omitted.clone()
    }
    /// Characters in the rendered text.
    #[napi(getter)]
    pub fn chars(&self) -> u32 {
        u32::try_from(self.inner.chars).unwrap_or(u32::MAX)
    }
    /// Why each skill was left out of a render for a `query` (id → reason).
    #[napi(getter, ts_return_type = "Record<string, string>")]
    pub fn reasons(&self) -> HashMap<String, String> {
        self.inner
            .reasons
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// Prompt text plus the report of what the budget did.
#[napi]
pub struct Rendered {
    pub(crate) inner: skilldeck::Rendered,
}

#[napi]
impl Rendered {
    #[napi(getter)]
    pub fn text(&self) -> String {
        self.inner.text.clone()
    }
    #[napi(getter)]
    pub fn report(&self) -> RenderReport {
        RenderReport {
            inner: self.inner.report.clone(),
        }
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// One search result: the skill, its scores and the fields where query terms matched.
#[napi]
pub struct SearchHit {
    pub(crate) inner: skilldeck::SearchHit,
}

#[napi]
impl SearchHit {
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.inner.id.clone()
    }
    #[napi(getter)]
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }
    #[napi(getter)]
    pub fn description(&self) -> String {
        self.inner.description.clone()
    }
    /// Absolute path of the SKILL.md.
    #[napi(getter)]
    pub fn location(&self) -> String {
        path_string(&self.inner.location)
    }
    /// The ranking score: BM25F, or the fused reciprocal-rank score in hybrid search.
    #[napi(getter)]
    pub fn score(&self) -> f64 {
        self.inner.score
    }
    /// The BM25F score (0 when no query term matched).
    #[napi(getter)]
    pub fn bm25(&self) -> f64 {
        self.inner.bm25
    }
    /// Cosine similarity with the query embedding (hybrid search only).
    #[napi(getter)]
    pub fn similarity(&self) -> Option<f64> {
        self.inner.similarity
    }
    /// The fields where query terms matched.
    #[napi(
        getter,
        ts_return_type = "Array<'name' | 'tags' | 'category' | 'description' | 'parameters' | 'body'>"
    )]
    pub fn matched(&self) -> Vec<String> {
        self.inner.matched.clone()
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// Ranked search results.
#[napi]
pub struct SearchResults {
    pub(crate) inner: skilldeck::SearchResults,
}

#[napi]
impl SearchResults {
    #[napi(getter)]
    pub fn query(&self) -> String {
        self.inner.query.clone()
    }
    /// The best `limit` hits, best first.
    #[napi(getter)]
    pub fn hits(&self) -> Vec<SearchHit> {
        self.inner
            .hits
            .iter()
            .map(|h| SearchHit { inner: h.clone() })
            .collect()
    }
    /// Skills that matched at all.
    #[napi(getter)]
    pub fn matched(&self) -> u32 {
        u32::try_from(self.inner.matched).unwrap_or(u32::MAX)
    }
    /// Skills searched.
    #[napi(getter)]
    pub fn searched(&self) -> u32 {
        u32::try_from(self.inner.searched).unwrap_or(u32::MAX)
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// An activated skill: the formatted text plus its structured parts.
#[napi]
pub struct Activation {
    pub(crate) inner: skilldeck::Activation,
}

#[napi]
impl Activation {
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.inner.id.clone()
    }
    #[napi(getter)]
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }
    /// Output in the requested format: what a `skill` tool returns to the model.
    #[napi(getter)]
    pub fn text(&self) -> String {
        self.inner.text.clone()
    }
    /// Body after substitution.
    #[napi(getter)]
    pub fn body(&self) -> String {
        self.inner.body.clone()
    }
    #[napi(getter)]
    pub fn base_dir(&self) -> String {
        path_string(&self.inner.base_dir)
    }
    /// Resource files relative to `baseDir`.
    #[napi(getter)]
    pub fn resources(&self) -> Vec<String> {
        self.inner.resources.clone()
    }
    #[napi(getter)]
    pub fn allowed_tools(&self) -> Vec<String> {
        self.inner.allowed_tools.clone()
    }
    #[napi(getter)]
    pub fn model(&self) -> Option<String> {
        self.inner.model.clone()
    }
    #[napi(getter)]
    pub fn effort(&self) -> Option<String> {
        self.inner.effort.clone()
    }
    #[napi(getter)]
    pub fn context(&self) -> Option<String> {
        self.inner.context.clone()
    }
    #[napi(getter)]
    pub fn agent(&self) -> Option<String> {
        self.inner.agent.clone()
    }
    /// `allow`, or `ask`: confirm with the user before the model follows the skill.
    #[napi(getter, ts_return_type = "'allow' | 'ask'")]
    pub fn permission(&self) -> &'static str {
        self.inner.permission.as_str()
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// The result of `parse(text)`.
#[napi]
pub struct Parsed {
    pub(crate) inner: skilldeck::Parsed,
}

#[napi]
impl Parsed {
    #[napi(getter)]
    pub fn manifest(&self) -> Manifest {
        Manifest {
            inner: self.inner.manifest.clone(),
        }
    }
    #[napi(getter)]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics(&self.inner.diagnostics)
    }
    /// 1-based line where the body starts, when the frontmatter was closed.
    #[napi(getter)]
    pub fn body_line(&self) -> Option<u32> {
        self.inner.body_line
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}

/// The verdict on one skill from `validate(path)`.
#[napi]
pub struct ValidationReport {
    pub(crate) inner: skilldeck::ValidationReport,
}

#[napi]
impl ValidationReport {
    #[napi(getter)]
    pub fn path(&self) -> String {
        path_string(&self.inner.path)
    }
    #[napi(getter)]
    pub fn name(&self) -> Option<String> {
        self.inner.name.clone()
    }
    #[napi(getter)]
    pub fn valid(&self) -> bool {
        self.inner.valid
    }
    #[napi(getter)]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        diagnostics(&self.inner.diagnostics)
    }
    #[napi(js_name = "toJSON", ts_return_type = "CanonicalJson")]
    pub fn to_json(&self) -> Result<serde_json::Value> {
        canonical(&self.inner)
    }
}
