//! Core errors as Python exceptions.
//!
//! The exception classes live in Python (`skilldeck/_errors.py`) so they can subclass
//! built-ins (`LookupError`, `PermissionError`, `OSError`, `ValueError`) naturally; here we
//! only pick the class by the core's stable code and attach `code` and `path`.
//!
//! Panics: pyo3 turns a panic into `PanicException`, a `BaseException` that `except
//! Exception` (and `except SkillError`) does not catch. Every call into the engine goes
//! through [`detached`] or [`guarded`], which turn a panic into the core's
//! `Error::Internal`, raised as `InternalError` (a `SkillError`). The argument and result
//! conversions around those calls are pyo3's and ours, and a panic there is still pyo3's.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The Python class name for a core error code.
fn class_for(code: &str) -> &'static str {
    match code {
        "PARSE_ERROR" => "ParseError",
        "VALIDATION_ERROR" => "ValidationError",
        "NOT_FOUND" => "NotFoundError",
        "PERMISSION_DENIED" => "PermissionDeniedError",
        "IO_ERROR" => "IoError",
        "INVALID_OPTIONS" => "InvalidOptionsError",
        "INTERNAL" => "InternalError",
        _ => "SkillError",
    }
}

/// Build the Python exception for `err`: `cls(message, code=..., path=...)`.
pub fn to_pyerr(err: skilldeck::Error) -> PyErr {
    Python::attach(|py| {
        let message = err.to_string();
        let code = err.code();
        let path = err.path().map(|p| p.to_path_buf());
        let build = || -> PyResult<PyErr> {
            let module = py.import("skilldeck._errors")?;
            let cls = module.getattr(class_for(code))?;
            let exc = cls.call1((message.clone(), code, path.clone()))?;
            Ok(PyErr::from_value(exc))
        };
        // Only reachable if the Python half of the package is missing or broken.
        build().unwrap_or_else(|import_err| {
            PyRuntimeError::new_err(format!(
                "{code}: {message} (and skilldeck._errors could not be loaded: {import_err})"
            ))
        })
    })
}

/// `Result<T, skilldeck::Error>` → `PyResult<T>`.
pub trait IntoPyResult<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, skilldeck::Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_pyerr)
    }
}

/// Run engine work with the GIL released (other Python threads keep running), a panic
/// included in the error model (`InternalError`).
pub fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> skilldeck::Result<T> + Send,
) -> PyResult<T> {
    py.detach(move || skilldeck::catch_panic(work)).py()
}

/// [`detached`] for short engine calls that keep the GIL.
pub fn guarded<T>(work: impl FnOnce() -> skilldeck::Result<T>) -> PyResult<T> {
    skilldeck::catch_panic(work).py()
}
