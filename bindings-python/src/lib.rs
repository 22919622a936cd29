//! `skilldeck._native`: the pyo3 half of the `skilldeck` Python package.
//!
//! Thin by design: every behaviour comes from the `skilldeck` core crate (the command line
//! from `skilldeck-cli`, installing from `skilldeck-install`, running from `skilldeck-run`);
//! this crate converts values, maps errors to the Python exception classes of
//! `skilldeck/_errors.py`, and releases the GIL around long calls.

mod audit;
mod compat;
mod convert;
mod deck;
mod errors;
mod install;
mod mcp;
mod permissions;
mod plugin;
mod run;
mod tools;
mod types;

use pyo3::prelude::*;
use std::path::PathBuf;
use types::{PyParsed, PyValidationReport};

/// Parse the text of a SKILL.md (frontmatter + body). Never raises on bad input: problems
/// are in `Parsed.diagnostics`.
#[pyfunction]
fn parse(py: Python<'_>, text: String) -> PyResult<PyParsed> {
    let inner = errors::detached(py, move || Ok(skilldeck::parse(&text)))?;
    Ok(PyParsed { inner })
}

/// Validate a skill directory, a SKILL.md file, or every skill below a directory.
#[pyfunction]
#[pyo3(signature = (path, strict=false))]
fn validate(py: Python<'_>, path: PathBuf, strict: bool) -> PyResult<Vec<PyValidationReport>> {
    let options = skilldeck::ValidateOptions { strict };
    let reports = errors::detached(py, move || Ok(skilldeck::validate(&path, &options)))?;
    Ok(reports
        .into_iter()
        .map(|inner| PyValidationReport { inner })
        .collect())
}

/// The `search_skills` tool a host offers its model, as a dict (`name`, `description` and
/// JSON Schema `parameters`: pass it as a tool's `parameters` / `input_schema`).
#[pyfunction]
fn search_tool_definition(py: Python<'_>) -> PyResult<Py<PyAny>> {
    convert::json_to_py(py, &skilldeck::search_tool_definition())
}

/// The engine version (the same in every binding).
#[pyfunction]
fn version() -> &'static str {
    skilldeck::VERSION
}

/// Run the `skilldeck` command with `argv` (without the program name) and return its exit
/// code. This is the Rust command itself, not a re-implementation.
///
/// Arguments are OS strings: Python hands a non-UTF-8 argument over as a `str` with
/// surrogate escapes (PEP 383), which turns back into its original bytes here instead of
/// raising `UnicodeEncodeError` (a traceback from the console script).
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> PyResult<i32> {
    let args: Vec<std::ffi::OsString> = std::iter::once(std::ffi::OsString::from("skilldeck"))
        .chain(argv)
        .collect();
    errors::detached(py, move || Ok(skilldeck_cli::run(args)))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VERSION", skilldeck::VERSION)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(search_tool_definition, m)?)?;
    m.add_class::<deck::PyDeck>()?;
    m.add_class::<permissions::PyPermissionRules>()?;
    types::register(m)?;
    compat::register(m)?;
    install::register(m)?;
    audit::register(m)?;
    plugin::register(m)?;
    run::register(m)?;
    tools::register(m)?;
    mcp::register(m)?;
    Ok(())
}
