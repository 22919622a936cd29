//! `audit`: the offline security report of `skilldeck::audit`, as a dict (the `AuditReport`
//! TypedDict of `skilldeck.types`).

use crate::convert::to_py;
use crate::errors::detached;
use pyo3::prelude::*;
use std::path::PathBuf;

/// Audit a skill directory, a SKILL.md, a plugin or a directory of skills: scripts, network
/// and exfiltration commands, hidden Unicode, injection phrases, links leaving the package,
/// shell grants, hooks and MCP servers. Returns the `AuditReport` dict; findings are
/// sorted most severe first. Raises `IoError` when `path` cannot be read and
/// `InvalidOptionsError` when it is neither a directory nor a SKILL.md.
#[pyfunction]
#[pyo3(signature = (path, *, max_file_bytes=None, max_files=None, max_depth=None))]
fn audit(
    py: Python<'_>,
    path: PathBuf,
    max_file_bytes: Option<u64>,
    max_files: Option<usize>,
    max_depth: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let defaults = skilldeck::AuditOptions::default();
    let options = skilldeck::AuditOptions {
        max_file_bytes: max_file_bytes.unwrap_or(defaults.max_file_bytes),
        max_files: max_files.unwrap_or(defaults.max_files),
        max_depth: max_depth.unwrap_or(defaults.max_depth),
    };
    let report = detached(py, move || Ok(skilldeck::audit(&path, &options)?))?;
    to_py(py, &report)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit, m)?)
}
