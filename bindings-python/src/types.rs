//! Read-only Python views of the core's result types.
//!
//! Each class wraps the core value unchanged: attributes read from it, `to_dict()` is its
//! serde form, `==` compares the core values, and `repr()` names the identifying fields.

use crate::convert::{repr_opt, repr_str, to_py};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A list of wrapped values as a Python list.
fn wrap_list<'py, T, W>(py: Python<'py>, items: &[T], wrap: impl Fn(T) -> W) -> PyResult<Py<PyAny>>
where
    T: Clone,
    W: pyo3::PyClass + Into<pyo3::PyClassInitializer<W>>,
{
    let objects = items
        .iter()
        .map(|item| Py::new(py, wrap(item.clone())))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, objects)?.into_any().unbind())
}

// ---------------------------------------------------------------------------------------
// Diagnostic

/// One finding about one file (stable `code`, `severity`, location, message, hint).
#[pyclass(module = "skilldeck", name = "Diagnostic", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyDiagnostic {
    pub inner: skilldeck::Diagnostic,
}

#[pymethods]
impl PyDiagnostic {
    #[getter]
    fn code(&self) -> &str {
        &self.inner.code
    }
    #[getter]
    fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.inner.path.as_deref().map(Path::to_path_buf)
    }
    #[getter]
    fn line(&self) -> Option<u32> {
        self.inner.line
    }
    #[getter]
    fn column(&self) -> Option<u32> {
        self.inner.column
    }
    #[getter]
    fn message(&self) -> &str {
        &self.inner.message
    }
    #[getter]
    fn hint(&self) -> Option<&str> {
        self.inner.hint.as_deref()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let d = &self.inner;
        format!(
            "Diagnostic(code={}, severity={}, path={}, line={}, message={})",
            repr_str(py, &d.code),
            repr_str(py, d.severity.as_str()),
            repr_opt(py, d.path.as_ref().map(|p| p.to_string_lossy()).as_deref()),
            d.line.map_or_else(|| "None".to_string(), |l| l.to_string()),
            repr_str(py, &d.message),
        )
    }
    /// `path:line:column: severity[code]: message`, like a compiler.
    fn __str__(&self) -> String {
        let d = &self.inner;
        let mut at = d
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if let Some(line) = d.line {
            at.push_str(&format!(":{line}"));
            if let Some(col) = d.column {
                at.push_str(&format!(":{col}"));
            }
        }
        let prefix = if at.is_empty() {
            String::new()
        } else {
            format!("{at}: ")
        };
        format!("{prefix}{}[{}]: {}", d.severity.as_str(), d.code, d.message)
    }
}

pub fn diagnostics(py: Python<'_>, items: &[skilldeck::Diagnostic]) -> PyResult<Py<PyAny>> {
    wrap_list(py, items, |inner| PyDiagnostic { inner })
}

// ---------------------------------------------------------------------------------------
// Manifest (and the manifest attributes shared by Skill)

/// Gives the manifest-attribute getters their manifest.
pub trait HasManifest {
    fn manifest(&self) -> &skilldeck::Manifest;
}

/// One `#[pymethods]` block per class holding every manifest field as a getter (through
/// its serde form, so `metadata`, `parameters`, `requires`, ... come out as plain Python
/// values) plus the class's own methods. The fields come from the core's one list
/// ([`skilldeck::manifest_fields!`]); `with_identity` adds `name`/`description`, which a
/// `Skill` resolves itself.
macro_rules! with_manifest_getters {
    ($ty:ty, with_identity, { $($rest:tt)* }
     identity [ $($(#[doc = $id:literal])* $i:ident : $ik:ident ($it:ty) = $($ip:ident).+ ,)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        with_manifest_getters!($ty, without_identity, {
            $(
                #[getter]
                fn $i(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                    to_py(py, &HasManifest::manifest(self).$($ip).+)
                }
            )*
            $($rest)*
        } identity [] fields [ $($(#[doc = $fd])* $f : $fk ($ft) = $($fp).+ ,)* ]);
    };
    ($ty:ty, without_identity, { $($rest:tt)* }
     identity [ $($ignored:tt)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        #[pymethods]
        impl $ty {
            $(
                $(#[doc = $fd])*
                #[getter]
                fn $f(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                    to_py(py, &HasManifest::manifest(self).$($fp).+)
                }
            )*
            $($rest)*
        }
    };
}

/// Everything a SKILL.md frontmatter says, typed (unknown keys in `extra`).
#[pyclass(module = "skilldeck", name = "Manifest", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyManifest {
    pub inner: skilldeck::Manifest,
}

impl HasManifest for PyManifest {
    fn manifest(&self) -> &skilldeck::Manifest {
        &self.inner
    }
}

skilldeck::manifest_fields!(with_manifest_getters, PyManifest, with_identity, {
    /// `(name, kind)` of every manifest field but `name`/`description`, for `stubgen.py`.
    #[classattr]
    fn _fields() -> Vec<(&'static str, &'static str)> {
        MANIFEST_FIELD_KINDS.to_vec()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Manifest(name={}, description={})",
            repr_opt(py, self.inner.name.as_deref()),
            repr_opt(py, self.inner.description.as_deref())
        )
    }
});

// ---------------------------------------------------------------------------------------
// Status, Shadowed, Diff

/// What the filter stage decided about a skill.
#[pyclass(module = "skilldeck", name = "Status", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyStatus {
    pub inner: skilldeck::Status,
}

#[pymethods]
impl PyStatus {
    #[getter]
    fn enabled(&self) -> bool {
        self.inner.enabled
    }
    #[getter]
    fn model_invocable(&self) -> bool {
        self.inner.model_invocable
    }
    #[getter]
    fn user_invocable(&self) -> bool {
        self.inner.user_invocable
    }
    #[getter]
    fn available(&self) -> bool {
        self.inner.available
    }
    #[getter]
    fn permission(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.permission)
    }
    #[getter]
    fn ambiguous(&self) -> bool {
        self.inner.ambiguous
    }
    #[getter]
    fn reasons(&self) -> Vec<String> {
        self.inner.reasons.clone()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self) -> String {
        let s = &self.inner;
        let py_bool = |b: bool| if b { "True" } else { "False" };
        format!(
            "Status(enabled={}, model_invocable={}, user_invocable={}, available={}, permission='{}', ambiguous={})",
            py_bool(s.enabled),
            py_bool(s.model_invocable),
            py_bool(s.user_invocable),
            py_bool(s.available),
            serde_json::to_value(s.permission)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            py_bool(s.ambiguous),
        )
    }
}

/// A skill that lost a name clash (or a duplicate path) to another.
#[pyclass(module = "skilldeck", name = "Shadowed", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyShadowed {
    pub inner: skilldeck::Shadowed,
}

#[pymethods]
impl PyShadowed {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn location(&self) -> PathBuf {
        self.inner.location.to_path_buf()
    }
    #[getter]
    fn winner(&self) -> PathBuf {
        self.inner.winner.to_path_buf()
    }
    #[getter]
    fn reason(&self) -> &str {
        &self.inner.reason
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Shadowed(id={}, location={}, winner={}, reason={})",
            repr_str(py, &self.inner.id),
            repr_str(py, &self.inner.location.to_string_lossy()),
            repr_str(py, &self.inner.winner.to_string_lossy()),
            repr_str(py, &self.inner.reason),
        )
    }
}

/// What changed between two loads, by skill id.
#[pyclass(module = "skilldeck", name = "Diff", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyDiff {
    pub inner: skilldeck::Diff,
}

#[pymethods]
impl PyDiff {
    #[getter]
    fn added(&self) -> Vec<String> {
        self.inner.added.clone()
    }
    #[getter]
    fn removed(&self) -> Vec<String> {
        self.inner.removed.clone()
    }
    #[getter]
    fn changed(&self) -> Vec<String> {
        self.inner.changed.clone()
    }
    /// True when anything changed.
    fn __bool__(&self) -> bool {
        !self.inner.is_empty()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self) -> String {
        format!(
            "Diff(added={:?}, removed={:?}, changed={:?})",
            self.inner.added, self.inner.removed, self.inner.changed
        )
    }
}

// ---------------------------------------------------------------------------------------
// Skill

/// One resolved skill: identity, origin, status, and every manifest field as an attribute.
#[pyclass(module = "skilldeck", name = "Skill", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PySkill {
    pub inner: skilldeck::Skill,
}

impl HasManifest for PySkill {
    fn manifest(&self) -> &skilldeck::Manifest {
        &self.inner.manifest
    }
}

skilldeck::manifest_fields!(with_manifest_getters, PySkill, without_identity, {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn description(&self) -> &str {
        self.inner.description()
    }
    #[getter]
    fn location(&self) -> PathBuf {
        self.inner.location.to_path_buf()
    }
    #[getter]
    fn base_dir(&self) -> PathBuf {
        self.inner.base_dir.to_path_buf()
    }
    #[getter]
    fn scope(&self) -> &'static str {
        self.inner.scope.as_str()
    }
    #[getter]
    fn source(&self) -> PathBuf {
        self.inner.source.to_path_buf()
    }
    #[getter]
    fn plugin(&self) -> Option<&str> {
        self.inner.plugin.as_deref()
    }
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.kind)
    }
    #[getter]
    fn status(&self) -> PyStatus {
        PyStatus {
            inner: self.inner.status.clone(),
        }
    }
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        diagnostics(py, &self.inner.diagnostics)
    }
    #[getter(manifest)]
    fn manifest_object(&self) -> PyManifest {
        PyManifest {
            inner: skilldeck::Manifest::clone(&self.inner.manifest),
        }
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Skill(id={}, scope={}, location={})",
            repr_str(py, &self.inner.id),
            repr_str(py, self.inner.scope.as_str()),
            repr_str(py, &self.inner.location.to_string_lossy()),
        )
    }
});

// ---------------------------------------------------------------------------------------
// Catalog

/// An immutable snapshot of everything a load discovered. Iterable (skills in order),
/// indexable by id/name or position, `id in catalog`, `len(catalog)`.
#[pyclass(module = "skilldeck", name = "Catalog", frozen)]
#[derive(Clone)]
pub struct PyCatalog {
    pub inner: Arc<skilldeck::Catalog>,
}

fn skills_list<'a>(
    py: Python<'_>,
    skills: impl Iterator<Item = &'a skilldeck::Skill>,
) -> PyResult<Py<PyAny>> {
    let objects = skills
        .map(|s| Py::new(py, PySkill { inner: s.clone() }))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, objects)?.into_any().unbind())
}

#[pymethods]
impl PyCatalog {
    #[getter]
    fn profile(&self) -> &str {
        &self.inner.profile
    }
    #[getter]
    fn skills(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        skills_list(py, self.inner.skills.iter().map(AsRef::as_ref))
    }
    #[getter]
    fn shadowed(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap_list(py, &self.inner.shadowed, |inner| PyShadowed { inner })
    }
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        diagnostics(py, &self.inner.diagnostics)
    }
    /// The skill with this id (or name), or `None`.
    fn get(&self, id: &str) -> Option<PySkill> {
        self.inner.get(id).map(|s| PySkill {
            inner: skilldeck::Skill::clone(s),
        })
    }
    /// Skills shown by a default listing (enabled, not denied).
    fn listed(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        skills_list(py, self.inner.listed())
    }
    /// Skills that go into the model's prompt.
    fn model_visible(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        skills_list(py, self.inner.model_visible())
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, self.inner.as_ref())
    }
    fn __len__(&self) -> usize {
        self.inner.skills.len()
    }
    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = skills_list(py, self.inner.skills.iter().map(AsRef::as_ref))?;
        Ok(list.bind(py).try_iter()?.into_any().unbind())
    }
    fn __contains__(&self, id: &Bound<'_, PyAny>) -> bool {
        id.extract::<String>()
            .map(|id| self.inner.get(&id).is_some())
            .unwrap_or(false)
    }
    /// `catalog["pdf"]` by id or name (raises `NotFoundError`), `catalog[0]` by position.
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<PySkill> {
        if let Ok(id) = key.extract::<String>() {
            return self
                .inner
                .get(&id)
                .map(|s| PySkill {
                    inner: skilldeck::Skill::clone(s),
                })
                .ok_or_else(|| crate::errors::to_pyerr(skilldeck::Error::NotFound { id }));
        }
        if let Ok(index) = key.extract::<isize>() {
            let len = self.inner.skills.len() as isize;
            let at = if index < 0 { index + len } else { index };
            return usize::try_from(at)
                .ok()
                .and_then(|i| self.inner.skills.get(i))
                .map(|s| PySkill {
                    inner: skilldeck::Skill::clone(s),
                })
                .ok_or_else(|| PyIndexError::new_err("catalog index out of range"));
        }
        Err(PyTypeError::new_err(
            "catalog keys are skill ids (str) or positions (int)",
        ))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyCatalog>()
            .map(|o| *o.get().inner == *self.inner)
            .unwrap_or(false)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Catalog(profile={}, skills={}, shadowed={}, diagnostics={})",
            repr_str(py, &self.inner.profile),
            self.inner.skills.len(),
            self.inner.shadowed.len(),
            self.inner.diagnostics.len()
        )
    }
}

// ---------------------------------------------------------------------------------------
// Render and activation results

/// A skill whose description was shortened to fit the budget.
#[pyclass(module = "skilldeck", name = "Truncation", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyTruncation {
    pub inner: skilldeck::Truncation,
}

#[pymethods]
impl PyTruncation {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    #[getter]
    fn chars_removed(&self) -> usize {
        self.inner.chars_removed
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Truncation(id={}, chars_removed={})",
            repr_str(py, &self.inner.id),
            self.inner.chars_removed
        )
    }
}

/// What a render kept, shortened and dropped.
#[pyclass(module = "skilldeck", name = "RenderReport", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyRenderReport {
    pub inner: skilldeck::RenderReport,
}

#[pymethods]
impl PyRenderReport {
    #[getter]
    fn included(&self) -> Vec<String> {
        self.inner.included.clone()
    }
    #[getter]
    fn truncated(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap_list(py, &self.inner.truncated, |inner| PyTruncation { inner })
    }
    #[getter]
    fn omitted(&self) -> Vec<String> {
        self.inner.omitted.clone()
    }
    #[getter]
    fn chars(&self) -> usize {
        self.inner.chars
    }
    /// Why each skill was left out of a render for a `query` (id -> reason).
    #[getter]
    fn reasons(&self) -> BTreeMap<String, String> {
        self.inner.reasons.clone()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self) -> String {
        format!(
            "RenderReport(included={}, truncated={}, omitted={}, chars={})",
            self.inner.included.len(),
            self.inner.truncated.len(),
            self.inner.omitted.len(),
            self.inner.chars
        )
    }
}

/// Rendered prompt text plus the report of what the budget did. `str()` is the text.
#[pyclass(module = "skilldeck", name = "Rendered", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyRendered {
    pub inner: skilldeck::Rendered,
}

#[pymethods]
impl PyRendered {
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    #[getter]
    fn report(&self) -> PyRenderReport {
        PyRenderReport {
            inner: self.inner.report.clone(),
        }
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __str__(&self) -> &str {
        &self.inner.text
    }
    fn __repr__(&self) -> String {
        format!(
            "Rendered(chars={}, included={}, truncated={}, omitted={})",
            self.inner.report.chars,
            self.inner.report.included.len(),
            self.inner.report.truncated.len(),
            self.inner.report.omitted.len()
        )
    }
}

/// An activated skill: formatted `text` plus the parts hosts build their own message from.
#[pyclass(module = "skilldeck", name = "Activation", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyActivation {
    pub inner: skilldeck::Activation,
}

#[pymethods]
impl PyActivation {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    #[getter]
    fn body(&self) -> &str {
        &self.inner.body
    }
    #[getter]
    fn base_dir(&self) -> PathBuf {
        self.inner.base_dir.clone()
    }
    #[getter]
    fn resources(&self) -> Vec<String> {
        self.inner.resources.clone()
    }
    #[getter]
    fn allowed_tools(&self) -> Vec<String> {
        self.inner.allowed_tools.clone()
    }
    #[getter]
    fn model(&self) -> Option<&str> {
        self.inner.model.as_deref()
    }
    #[getter]
    fn effort(&self) -> Option<&str> {
        self.inner.effort.as_deref()
    }
    #[getter]
    fn context(&self) -> Option<&str> {
        self.inner.context.as_deref()
    }
    #[getter]
    fn agent(&self) -> Option<&str> {
        self.inner.agent.as_deref()
    }
    /// `"allow"`, or `"ask"`: confirm with the user before the model follows the skill.
    #[getter]
    fn permission(&self) -> &'static str {
        self.inner.permission.as_str()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __str__(&self) -> &str {
        &self.inner.text
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Activation(id={}, base_dir={}, chars={})",
            repr_str(py, &self.inner.id),
            repr_str(py, &self.inner.base_dir.to_string_lossy()),
            self.inner.text.chars().count()
        )
    }
}

// ---------------------------------------------------------------------------------------
// Search results

/// Python's `repr()` of a list of strings.
fn repr_list<'a>(py: Python<'_>, items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.map(|s| repr_str(py, s)).collect();
    format!("[{}]", items.join(", "))
}

/// One search result: the skill, its score and the fields where query terms matched.
#[pyclass(module = "skilldeck", name = "SearchHit", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PySearchHit {
    pub inner: skilldeck::SearchHit,
}

#[pymethods]
impl PySearchHit {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn description(&self) -> &str {
        &self.inner.description
    }
    #[getter]
    fn location(&self) -> PathBuf {
        self.inner.location.clone()
    }
    /// The ranking score: BM25F, or the fused reciprocal-rank score in hybrid search.
    #[getter]
    fn score(&self) -> f64 {
        self.inner.score
    }
    /// The BM25F score (0 when no query term matched).
    #[getter]
    fn bm25(&self) -> f64 {
        self.inner.bm25
    }
    /// Cosine similarity with the query embedding (hybrid search only).
    #[getter]
    fn similarity(&self) -> Option<f64> {
        self.inner.similarity
    }
    /// The fields where query terms matched: `name`, `tags`, `category`, `description`,
    /// `parameters`, `body`.
    #[getter]
    fn matched(&self) -> Vec<String> {
        self.inner.matched.clone()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "SearchHit(id={}, score={}, matched={})",
            repr_str(py, &self.inner.id),
            self.inner.score,
            repr_list(py, self.inner.matched.iter().map(String::as_str))
        )
    }
}

/// Ranked search results: the best `hits`, how many skills `matched` at all and how many
/// were `searched`. Iterable over the hits; `len()` is the number of hits.
#[pyclass(module = "skilldeck", name = "SearchResults", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PySearchResults {
    pub inner: skilldeck::SearchResults,
}

#[pymethods]
impl PySearchResults {
    #[getter]
    fn query(&self) -> &str {
        &self.inner.query
    }
    #[getter]
    fn hits(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap_list(py, &self.inner.hits, |inner| PySearchHit { inner })
    }
    /// Skills that matched at all (the hits are the best `limit` of them).
    #[getter]
    fn matched(&self) -> usize {
        self.inner.matched
    }
    /// Skills searched.
    #[getter]
    fn searched(&self) -> usize {
        self.inner.searched
    }
    /// The number of hits.
    fn __len__(&self) -> usize {
        self.inner.hits.len()
    }
    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let hits = self.hits(py)?;
        Ok(hits.bind(py).try_iter()?.into_any().unbind())
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "SearchResults(query={}, hits={}, matched={}, searched={})",
            repr_str(py, &self.inner.query),
            repr_list(py, self.inner.hits.iter().map(|h| h.id.as_str())),
            self.inner.matched,
            self.inner.searched
        )
    }
}

// ---------------------------------------------------------------------------------------
// parse / validate results

/// A parsed SKILL.md frontmatter.
#[pyclass(module = "skilldeck", name = "Parsed", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyParsed {
    pub inner: skilldeck::Parsed,
}

#[pymethods]
impl PyParsed {
    #[getter]
    fn manifest(&self) -> PyManifest {
        PyManifest {
            inner: self.inner.manifest.clone(),
        }
    }
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        diagnostics(py, &self.inner.diagnostics)
    }
    #[getter]
    fn body_line(&self) -> Option<u32> {
        self.inner.body_line
    }
    /// True when no error diagnostic was produced.
    #[getter]
    fn ok(&self) -> bool {
        self.inner.is_ok()
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Parsed(name={}, diagnostics={}, body_line={})",
            repr_opt(py, self.inner.manifest.name.as_deref()),
            self.inner.diagnostics.len(),
            self.inner
                .body_line
                .map_or_else(|| "None".to_string(), |l| l.to_string())
        )
    }
}

/// The verdict on one skill.
#[pyclass(module = "skilldeck", name = "ValidationReport", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyValidationReport {
    pub inner: skilldeck::ValidationReport,
}

#[pymethods]
impl PyValidationReport {
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path.clone()
    }
    #[getter]
    fn name(&self) -> Option<&str> {
        self.inner.name.as_deref()
    }
    #[getter]
    fn valid(&self) -> bool {
        self.inner.valid
    }
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        diagnostics(py, &self.inner.diagnostics)
    }
    fn __bool__(&self) -> bool {
        self.inner.valid
    }
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ValidationReport(path={}, name={}, valid={}, diagnostics={})",
            repr_str(py, &self.inner.path.to_string_lossy()),
            repr_opt(py, self.inner.name.as_deref()),
            if self.inner.valid { "True" } else { "False" },
            self.inner.diagnostics.len()
        )
    }
}

/// `(name, kind)` of every manifest field but `name`/`description`, in the core's order: what
/// `bindings-python/stubgen.py` writes the `.pyi` properties from (and the stub test checks).
macro_rules! manifest_field_kinds {
    (identity [ $($ignored:tt)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        &[$((stringify!($f), stringify!($fk)),)*]
    };
}

const MANIFEST_FIELD_KINDS: &[(&str, &str)] = skilldeck::manifest_fields!(manifest_field_kinds);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDiagnostic>()?;
    m.add_class::<PyManifest>()?;
    m.add_class::<PyStatus>()?;
    m.add_class::<PyShadowed>()?;
    m.add_class::<PyDiff>()?;
    m.add_class::<PySkill>()?;
    m.add_class::<PyCatalog>()?;
    m.add_class::<PyTruncation>()?;
    m.add_class::<PyRenderReport>()?;
    m.add_class::<PyRendered>()?;
    m.add_class::<PyActivation>()?;
    m.add_class::<PySearchHit>()?;
    m.add_class::<PySearchResults>()?;
    m.add_class::<PyParsed>()?;
    m.add_class::<PyValidationReport>()?;
    Ok(())
}
