//! Core errors as Python exceptions.
//!
//! The exception classes live in Python (`skilldeck/_errors.py`) so they can subclass
//! built-ins (`LookupError`, `PermissionError`, `OSError`, `ValueError`) naturally; here we
//! only pick the class by the core's stable code and attach `code` and `path`.

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
