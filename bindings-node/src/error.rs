//! Core errors become JS `Error`s carrying the stable `code` and the `path` they are about,
//! so callers branch on `err.code` instead of parsing messages.
//!
//! Panics: a panic unwinding out of a napi callback aborts the whole Node process (exit
//! 134, nothing to catch). Every call into the engine therefore runs inside
//! `skilldeck::catch_panic` (directly, or in `CoreTask::compute` for the async methods), so
//! a bug surfaces as an `Error` with code `INTERNAL`. The argument and result conversions
//! around those calls are napi-rs's and ours and are not wrapped.

use napi::bindgen_prelude::*;

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
    let mut object = env.create_error(napi::Error::from_reason(err.to_string()))?;
    object.set("code", err.code())?;
    match err.path() {
        Some(path) => object.set("path", path.to_string_lossy().as_ref())?,
        None => object.set("path", Null)?,
    }
    if let skilldeck::Error::Validation { diagnostics, .. } = err {
        object.set("diagnostics", serde_json::to_value(diagnostics)?)?;
    }
    Ok(napi::Error::from(object.to_unknown()))
}

/// Convert a core result on the JS thread.
pub fn check<T>(env: &Env, result: skilldeck::Result<T>) -> napi::Result<T> {
    result.map_err(|e| to_js(env, &e))
}

/// The canonical JSON of a core value (what `toJSON()` returns).
pub fn canonical<T: serde::Serialize>(value: &T) -> napi::Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| napi::Error::from_reason(e.to_string()))
}
