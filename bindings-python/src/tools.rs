//! Tool definitions for a model and tool results (core `skilldeck::exec`), as plain dicts
//! in the provider's JSON shape. Format names are parsed by the core's `ToolFormat`
//! (`openai`, `anthropic`, `vercel`); an unknown one is `InvalidOptionsError`.

use crate::convert::to_py;
use crate::errors::IntoPyResult;
use crate::types::PyCatalog;
use pyo3::prelude::*;
use skilldeck::{ToolFormat, ToolSpec};

fn format(name: &str) -> PyResult<ToolFormat> {
    name.parse().py()
}

fn specs_to_py(py: Python<'_>, specs: &[ToolSpec], format: ToolFormat) -> PyResult<Py<PyAny>> {
    let tools: Vec<_> = specs.iter().map(|t| t.to_json(format)).collect();
    to_py(py, &tools)
}

/// The tools that run `catalog`'s model-visible skills: `run_skill_script` (when a skill
/// has a `scripts/` directory), then one per command skill, in `format`'s JSON.
#[pyfunction]
#[pyo3(signature = (catalog, format="openai"))]
fn tool_definitions(
    py: Python<'_>,
    catalog: PyRef<'_, PyCatalog>,
    format: &str,
) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    specs_to_py(py, &skilldeck::tool_definitions(&catalog.inner), format)
}

/// Every tool an agent needs for `catalog`'s skills: `skill` and `search_skills`, then
/// `tool_definitions`, names unique, in `format`'s JSON.
#[pyfunction]
#[pyo3(signature = (catalog, format="openai"))]
fn agent_tools(py: Python<'_>, catalog: PyRef<'_, PyCatalog>, format: &str) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    specs_to_py(py, &skilldeck::agent_tools(&catalog.inner), format)
}

/// The `skill` tool (load a skill's instructions by name) in `format`'s JSON.
#[pyfunction]
#[pyo3(signature = (format="openai"))]
fn skill_tool(py: Python<'_>, format: &str) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    to_py(py, &skilldeck::skill_tool().to_json(format))
}

/// The `search_skills` tool in `format`'s JSON.
#[pyfunction]
#[pyo3(signature = (format="openai"))]
fn search_skills_tool(py: Python<'_>, format: &str) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    to_py(py, &skilldeck::search_skills_tool().to_json(format))
}

/// The `run_skill_script` tool in `format`'s JSON.
#[pyfunction]
#[pyo3(signature = (format="openai"))]
fn run_skill_script_tool(py: Python<'_>, format: &str) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    to_py(py, &skilldeck::run_skill_script_tool().to_json(format))
}

/// A tool's result as the message (part) `format` expects back: OpenAI's `role: tool`
/// message, Anthropic's `tool_result` block, the Vercel AI SDK's `tool-result` part.
/// `call_id` is the id the model gave the call; `tool_name` is used by the Vercel shape.
#[pyfunction]
#[pyo3(signature = (format, call_id, tool_name, content, is_error=false))]
fn tool_result(
    py: Python<'_>,
    format: &str,
    call_id: &str,
    tool_name: &str,
    content: &str,
    is_error: bool,
) -> PyResult<Py<PyAny>> {
    let format = self::format(format)?;
    to_py(
        py,
        &skilldeck::tool_result(format, call_id, tool_name, content, is_error),
    )
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let names: Vec<&str> = ToolFormat::ALL.iter().map(|f| f.as_str()).collect();
    m.add("TOOL_FORMATS", pyo3::types::PyTuple::new(m.py(), names)?)?;
    m.add_function(wrap_pyfunction!(tool_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(agent_tools, m)?)?;
    m.add_function(wrap_pyfunction!(skill_tool, m)?)?;
    m.add_function(wrap_pyfunction!(search_skills_tool, m)?)?;
    m.add_function(wrap_pyfunction!(run_skill_script_tool, m)?)?;
    m.add_function(wrap_pyfunction!(tool_result, m)?)?;
    Ok(())
}
