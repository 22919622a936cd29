//! Install operations (`skilldeck-install`): `add`, `remove`, `update`, `installed`,
//! `verify`, `installFrozen`.
//!
//! Each native function here is the raw half of a Promise-returning function of
//! `main.cjs` (declared in `types/header.d.ts`): the options object (camelCase, the
//! `onProgress` callback taken out) becomes the crate's request and `Context` through serde
//! (the names and defaults are the crate's), the operation runs on its own thread, progress
//! and then the report (its serde form, a plain object) or the `InstallError` reach JS
//! through `worker::spawn`'s one queue.

use crate::error::check;
use crate::options::{from_json, json_options, overridden, take_path, JsonOptions};
use crate::worker::{self, Emitter, Failure, Message};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use skilldeck_install::{Context, Progress, ProgressFn, Scope};

/// The keys every operation takes: where the project, the home directory and the
/// user-scope lock are, and the caps.
const CONTEXT_KEYS: &[&str] = &["scope", "projectDir", "homeDir", "userLock", "limits"];

fn keys(extra: &[&'static str]) -> Vec<&'static str> {
    CONTEXT_KEYS.iter().chain(extra).copied().collect()
}

/// The options object with `known` keys, and the `Context` and `Scope` read from it (the
/// context keys are removed; what remains is the operation's own).
fn prepare(
    what: &str,
    options: Option<Value>,
    known: &[&str],
) -> skilldeck::Result<(Context, Scope, JsonOptions)> {
    let mut options = json_options(what, options, known)?;
    let project_dir = take_path(&mut options, "projectDir")?.unwrap_or_else(|| ".".into());
    let mut ctx = Context::new(project_dir);
    if let Some(home) = take_path(&mut options, "homeDir")? {
        ctx.home_dir = Some(home);
    }
    ctx.user_lock = take_path(&mut options, "userLock")?;
    if let Some(limits) = options.remove("limits") {
        ctx.limits = overridden("install limits", &ctx.limits, limits)?;
    }
    // Read here and put back: `add` hands it to the crate inside its request.
    let scope = match options.get("scope") {
        Some(scope) => from_json("scope", scope.clone())?,
        None => Scope::default(),
    };
    Ok((ctx, scope, options))
}

/// Run `op` on a worker thread with the progress callback as the crate's `ProgressFn`
/// when JS gave one.
fn run_op<T: serde::Serialize>(
    env: &Env,
    dispatch: Function<'_, Message, ()>,
    progress: bool,
    op: impl FnOnce(Option<&ProgressFn<'_>>) -> skilldeck_install::Result<T> + Send + 'static,
) -> Result<()> {
    worker::spawn(env, dispatch, move |emitter: Emitter| {
        let forward = move |p: &Progress| emitter.emit(p);
        let progress_fn: Option<&ProgressFn<'_>> = if progress { Some(&forward) } else { None };
        op(progress_fn).map_err(Failure::Install)
    })
}

/// `add(source, options)`: install the skills of `source` and record them in the lock.
#[napi(js_name = "_add", skip_typescript)]
pub fn add(
    env: Env,
    source: String,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let known = keys(&["skills", "gitRef", "sha256", "hosts", "force", "onProgress"]);
    let (ctx, _, mut request) = check(&env, prepare("add options", options, &known))?;
    request.insert("source".into(), Value::String(source));
    let request: skilldeck_install::AddRequest =
        check(&env, from_json("add options", Value::Object(request)))?;
    run_op(&env, dispatch, progress, move |p| {
        skilldeck_install::add(&ctx, &request, p)
    })
}

/// `remove(names, options)`: remove installed skills, their links and lock entries.
#[napi(js_name = "_remove", skip_typescript)]
pub fn remove(
    env: Env,
    names: Vec<String>,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let (ctx, scope, _) = check(&env, prepare("remove options", options, &keys(&[])))?;
    run_op(&env, dispatch, false, move |_| {
        skilldeck_install::remove(&ctx, scope, &names)
    })
}

/// `update(names, options)`: re-fetch and apply what changed (all skills when `names` is
/// empty), unless `dryRun`.
#[napi(js_name = "_update", skip_typescript)]
pub fn update(
    env: Env,
    names: Option<Vec<String>>,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let known = keys(&["dryRun", "force", "onProgress"]);
    let (ctx, scope, rest) = check(&env, prepare("update options", options, &known))?;
    let flag = |key: &str| -> skilldeck::Result<bool> {
        match rest.get(key) {
            None => Ok(false),
            Some(value) => from_json(key, value.clone()),
        }
    };
    let dry_run = check(&env, flag("dryRun"))?;
    let force = check(&env, flag("force"))?;
    let names = names.unwrap_or_default();
    run_op(&env, dispatch, progress, move |p| {
        skilldeck_install::update(&ctx, scope, &names, dry_run, force, p)
    })
}

/// `installed(options)`: the skills the scope's lock records.
#[napi(js_name = "_installed", skip_typescript)]
pub fn installed(
    env: Env,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let (ctx, scope, _) = check(&env, prepare("installed options", options, &keys(&[])))?;
    run_op(&env, dispatch, false, move |_| {
        skilldeck_install::installed(&ctx, scope)
    })
}

/// `verify(options)`: re-hash every installed skill and compare it with the lock.
#[napi(js_name = "_verify", skip_typescript)]
pub fn verify(env: Env, options: Option<Value>, dispatch: Function<'_, Message, ()>) -> Result<()> {
    let (ctx, scope, _) = check(&env, prepare("verify options", options, &keys(&[])))?;
    run_op(&env, dispatch, false, move |_| {
        skilldeck_install::verify(&ctx, scope)
    })
}

/// `installFrozen(options)`: restore exactly what the lock records, or nothing.
#[napi(js_name = "_installFrozen", skip_typescript)]
pub fn install_frozen(
    env: Env,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let known = keys(&["onProgress"]);
    let (ctx, scope, _) = check(&env, prepare("installFrozen options", options, &known))?;
    run_op(&env, dispatch, progress, move |p| {
        skilldeck_install::install_frozen(&ctx, scope, p)
    })
}
