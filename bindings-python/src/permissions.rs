//! `PermissionRules`: the core rule set, built from its canonical JSON shape.

use crate::convert::{py_to_json, to_py};
use crate::errors::{guarded, IntoPyResult};
use pyo3::prelude::*;

/// Permission rules: skilldeck's `{"semantics", "rules": [{"pattern", "decision"}], "agents"}`,
/// OpenCode's `{"permission": {...}}` or Claude Code's `{"permissions": {...}}`.
#[pyclass(module = "skilldeck", name = "PermissionRules", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyPermissionRules {
    pub inner: skilldeck::PermissionRules,
}

/// Rules given either as a `PermissionRules` object or as their canonical dict shape.
pub fn rules_from_py(obj: &Bound<'_, PyAny>) -> PyResult<skilldeck::PermissionRules> {
    if let Ok(rules) = obj.cast::<PyPermissionRules>() {
        return Ok(rules.get().inner.clone());
    }
    // Every shape a rules document may take (skilldeck's, OpenCode's `permission`, Claude
    // Code's `permissions`), refused with InvalidOptionsError when it has an unknown key.
    skilldeck::PermissionRules::from_value(&py_to_json(obj)?).py()
}

#[pymethods]
impl PyPermissionRules {
    #[new]
    #[pyo3(signature = (rules=None))]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let inner = match rules {
            Some(obj) if !obj.is_none() => rules_from_py(obj)?,
            _ => skilldeck::PermissionRules::default(),
        };
        Ok(PyPermissionRules { inner })
    }

    /// `"allow"`, `"ask"` or `"deny"` for skill `id` as seen by `agent`.
    #[pyo3(signature = (id, agent=None))]
    fn evaluate(&self, py: Python<'_>, id: &str, agent: Option<&str>) -> PyResult<Py<PyAny>> {
        let decision = guarded(|| Ok(self.inner.evaluate(id, agent).decision))?;
        to_py(py, &decision)
    }

    /// Whether the whole skill tool is disabled for `agent`.
    #[pyo3(signature = (agent=None))]
    fn tool_disabled(&self, agent: Option<&str>) -> bool {
        self.inner.tool_disabled(agent)
    }

    #[getter]
    fn semantics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.semantics)
    }
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.rules)
    }
    #[getter]
    fn agents(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.agents)
    }

    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "PermissionRules({})",
            serde_json::to_string(&self.inner).unwrap_or_default()
        )
    }
}
