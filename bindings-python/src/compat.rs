//! The native half of `skilldeck.compat.skills_ref` (behaviour: `skilldeck::skills_ref`).
//! Errors become skills-ref's own exception classes, defined in
//! `skilldeck/compat/skills_ref/errors.py`.

use crate::convert::{json_to_py, py_to_json, to_py};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyUnicodeDecodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use skilldeck::skills_ref::{self, CompatError};
use std::path::PathBuf;

fn compat_err(err: CompatError) -> PyErr {
    let (class, message) = match err {
        CompatError::Parse(message) => ("ParseError", message),
        CompatError::Validation(message) => ("ValidationError", message),
        io @ CompatError::Io { .. } => return PyOSError::new_err(io.to_string()),
        CompatError::Decode {
            bytes,
            start,
            end,
            reason,
            ..
        } => {
            return Python::attach(|py| {
                PyUnicodeDecodeError::new_err((
                    "utf-8",
                    PyBytes::new(py, &bytes).unbind(),
                    start,
                    end,
                    reason,
                ))
            })
        }
    };
    Python::attach(|py| {
        let raise = || -> PyResult<PyErr> {
            let module = py.import("skilldeck.compat.skills_ref.errors")?;
            Ok(PyErr::from_value(
                module.getattr(class)?.call1((message.clone(),))?,
            ))
        };
        raise().unwrap_or_else(|e| PyRuntimeError::new_err(format!("{message} ({e})")))
    })
}

/// Compat work with the GIL released; a panic becomes `skilldeck.InternalError` (see
/// `errors.rs`), other failures skills-ref's own exceptions.
fn compat_call<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, CompatError> + Send,
) -> PyResult<T> {
    match py.detach(move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))) {
        Ok(result) => result.map_err(compat_err),
        Err(payload) => Err(crate::errors::to_pyerr(skilldeck::Error::from_panic(
            payload.as_ref(),
        ))),
    }
}

#[pyfunction]
fn _compat_find_skill_md(skill_dir: PathBuf) -> Option<PathBuf> {
    skills_ref::find_skill_md(&skill_dir)
}

/// `(metadata dict, body)`.
#[pyfunction]
fn _compat_parse_frontmatter(py: Python<'_>, content: &str) -> PyResult<(Py<PyAny>, String)> {
    let (metadata, body) = compat_call(py, move || skills_ref::parse_frontmatter(content))?;
    Ok((json_to_py(py, &serde_json::Value::Object(metadata))?, body))
}

/// The fields of `SkillProperties` as a dict (the dataclass is built in Python).
#[pyfunction]
fn _compat_read_properties(py: Python<'_>, skill_dir: PathBuf) -> PyResult<Py<PyAny>> {
    let props = compat_call(py, move || skills_ref::read_properties(&skill_dir))?;
    to_py(py, &props)
}

#[pyfunction]
fn _compat_validate(py: Python<'_>, skill_dir: PathBuf) -> PyResult<Vec<String>> {
    compat_call(py, move || skills_ref::validate(&skill_dir))
}

#[pyfunction]
#[pyo3(signature = (metadata, skill_dir=None))]
fn _compat_validate_metadata(
    metadata: &Bound<'_, PyDict>,
    skill_dir: Option<PathBuf>,
) -> PyResult<Vec<String>> {
    let serde_json::Value::Object(map) = py_to_json(metadata.as_any())? else {
        return Err(PyTypeError::new_err("metadata must be a dict"));
    };
    Ok(skills_ref::validate_metadata(&map, skill_dir.as_deref()))
}

#[pyfunction]
fn _compat_to_prompt(py: Python<'_>, skill_dirs: Vec<PathBuf>) -> PyResult<String> {
    compat_call(py, move || skills_ref::to_prompt(&skill_dirs))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_compat_find_skill_md, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_parse_frontmatter, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_read_properties, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_validate, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_validate_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(_compat_to_prompt, m)?)?;
    Ok(())
}
