//! Core errors become JS `Error`s carrying the stable `code` and the `path` they are about,
//! so callers branch on `err.code` instead of parsing messages.
//!
//! Panics: a panic unwinding out of a napi callback aborts the whole Node process (exit
//! 134, nothing to catch). Every call into the engine therefore runs inside
//! `skilldeck::catch_panic` (directly, or in `CoreTask::compute` for the async methods), so
//! a bug surfaces as an `Error` with code `INTERNAL`. The argument and result conversions
//! around those calls are napi-rs's and ours and are not wrapped.

use napi::bindgen_prelude::*;
use std::path::Path;

/// Build the JS error for a core error. Needs the JS thread (`env`): async tasks keep the
/// core error as their output and convert it in `resolve`, where an `Env` exists.
pub fn to_js(env: &Env, err: &skilldeck::Error) -> napi::Error {
    match build(env, err) {
        Ok(error) => error,
        // Creating the object failed (the environment is shutting down): a plain error with
        // the same code still reaches the caller.
        Err(_) => napi::Error::new(Status::GenericFailure, format!("{}: {err}", err.code())),
    }
}

fn build(env: &Env, err: &skilldeck::Error) -> napi::Result<napi::Error> {
    Ok(napi::Error::from(engine_object(env, err)?.to_unknown()))
}

/// The JS error object for a core error (`code`, `path`, and the diagnostics of a
/// validation error).
pub fn engine_object<'env>(env: &'env Env, err: &skilldeck::Error) -> napi::Result<Object<'env>> {
    let mut object = error_object(env, err.to_string(), err.code(), err.path())?;
    if let skilldeck::Error::Validation { diagnostics, .. } = err {
        object.set("diagnostics", serde_json::to_value(diagnostics)?)?;
    }
    Ok(object)
}

/// An `Error` with `message`, `code` and `path` (null when there is none).
fn error_object<'env>(
    env: &'env Env,
    message: String,
    code: &str,
    path: Option<&Path>,
) -> napi::Result<Object<'env>> {
    let mut object = env.create_error(napi::Error::from_reason(message))?;
    object.set("code", code)?;
    match path {
        Some(path) => object.set("path", path.to_string_lossy().as_ref())?,
        None => object.set("path", Null)?,
    }
    Ok(object)
}

/// An install error: `name` `InstallError` (Python's class) and the install crate's code
/// (`BAD_SOURCE`, `GIT_ERROR`, `DIGEST_MISMATCH`, `NOT_FOUND`, ...), with the path at fault.
pub fn install_object<'env>(
    env: &'env Env,
    err: &skilldeck_install::InstallError,
) -> napi::Result<Object<'env>> {
    use skilldeck_install::InstallError as E;
    let path = match err {
        E::Io { path, .. }
        | E::TooLarge { path, .. }
        | E::InvalidName { path, .. }
        | E::Modified { path, .. } => Some(path.as_path()),
        E::Lock(inner) => inner.path(),
        _ => None,
    };
    let mut object = error_object(env, err.to_string(), err.code(), path)?;
    object.set("name", "InstallError")?;
    Ok(object)
}

/// A run refusal (nothing ran): `name` `RunError` with the run crate's code, or
/// `InvalidInputError` with every schema mismatch in `problems` (Python's classes).
pub fn run_object<'env>(
    env: &'env Env,
    err: &skilldeck_run::RunError,
) -> napi::Result<Object<'env>> {
    use skilldeck_run::RunError as E;
    let path = match err {
        E::ScriptRefused { path, .. }
        | E::NoInterpreter { path, .. }
        | E::DestinationRefused { path, .. }
        | E::Io { path, .. } => Some(path.as_path()),
        E::Spawn { program, .. } => Some(program.as_path()),
        E::Engine(inner) => inner.path(),
        _ => None,
    };
    let mut object = error_object(env, err.to_string(), err.code(), path)?;
    match err {
        E::InvalidInput { problems, .. } => {
            object.set("name", "InvalidInputError")?;
            object.set("problems", problems.clone())?;
        }
        _ => object.set("name", "RunError")?,
    }
    Ok(object)
}

/// Convert a core result on the JS thread.
pub fn check<T>(env: &Env, result: skilldeck::Result<T>) -> napi::Result<T> {
    result.map_err(|e| to_js(env, &e))
}

/// The canonical JSON of a core value (what `toJSON()` returns).
pub fn canonical<T: serde::Serialize>(value: &T) -> napi::Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| napi::Error::from_reason(e.to_string()))
}
