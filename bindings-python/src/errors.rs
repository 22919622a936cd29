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
use std::path::PathBuf;

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
        remote if remote.starts_with("REMOTE_") => "RemoteError",
        _ => "SkillError",
    }
}

/// Build the Python exception for `err`: `cls(message, code=..., path=...)`.
pub fn to_pyerr(err: skilldeck::Error) -> PyErr {
    let path = err.path().map(|p| p.to_path_buf());
    build(
        class_for(err.code()),
        err.to_string(),
        err.code(),
        path,
        None,
    )
}

/// `skilldeck._errors.<class>(message, code, path[, problems])`.
fn build(
    class: &str,
    message: String,
    code: &str,
    path: Option<PathBuf>,
    problems: Option<Vec<String>>,
) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let module = py.import("skilldeck._errors")?;
            let cls = module.getattr(class)?;
            let exc = match &problems {
                Some(problems) => cls.call1((message.clone(), code, path.clone(), problems))?,
                None => cls.call1((message.clone(), code, path.clone()))?,
            };
            Ok(PyErr::from_value(exc))
        };
        // Only reachable if the Python half of the package is missing or broken.
        make().unwrap_or_else(|import_err| {
            PyRuntimeError::new_err(format!(
                "{code}: {message} (and skilldeck._errors could not be loaded: {import_err})"
            ))
        })
    })
}

/// An install error as `InstallError` carrying the engine's code (`BAD_SOURCE`,
/// `GIT_ERROR`, `DIGEST_MISMATCH`, `NOT_FOUND`, ...) and the path at fault, when there is one.
pub fn install_pyerr(err: skilldeck_install::InstallError) -> PyErr {
    use skilldeck_install::InstallError as E;
    let path = match &err {
        E::Io { path, .. }
        | E::TooLarge { path, .. }
        | E::InvalidName { path, .. }
        | E::Modified { path, .. } => Some(path.clone()),
        E::Lock(inner) => inner.path().map(|p| p.to_path_buf()),
        _ => None,
    };
    build("InstallError", err.to_string(), err.code(), path, None)
}

/// A run refusal as `RunError` carrying the engine's code, or `InvalidInputError` (a
/// `RunError`) with the schema problems when the input did not match the skill's
/// `parameters` — nothing ran in either case.
pub fn run_pyerr(err: skilldeck_run::RunError) -> PyErr {
    use skilldeck_run::RunError as E;
    let path = match &err {
        E::ScriptRefused { path, .. }
        | E::NoInterpreter { path, .. }
        | E::DestinationRefused { path, .. }
        | E::Io { path, .. } => Some(path.clone()),
        E::Spawn { program, .. } => Some(program.clone()),
        E::Engine(inner) => inner.path().map(|p| p.to_path_buf()),
        _ => None,
    };
    match &err {
        E::InvalidInput { problems, .. } => build(
            "InvalidInputError",
            err.to_string(),
            err.code(),
            path,
            Some(problems.clone()),
        ),
        _ => build("RunError", err.to_string(), err.code(), path, None),
    }
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

/// [`detached`] for a crate with its own error type (`skilldeck-install`, `skilldeck-run`):
/// `map` turns its error into the Python exception; a panic is still `InternalError`.
pub fn detached_as<T: Send, E: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, E> + Send,
    map: impl FnOnce(E) -> PyErr,
) -> PyResult<T> {
    match py.detach(move || skilldeck::catch_panic(move || Ok(work()))) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(err)) => Err(map(err)),
        Err(panic) => Err(to_pyerr(panic)),
    }
}
