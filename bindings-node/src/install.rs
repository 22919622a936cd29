//! Install operations (`skilldeck-install`): `add`, `remove`, `update`, `installed`,
//! `verify`, `installFrozen`.
//!
//! Each native function here is the raw half of a Promise-returning function of
//! `main.cjs` (declared in `types/header.d.ts`): the options object (camelCase, the
//! `onProgress` callback taken out) becomes the crate's request and `Context` through serde
//! (the names and defaults are the crate's), the operation runs on its own thread, progress
//! and then the report (its serde form, a plain object) or the `InstallError` reach JS
//! through `worker::spawn`'s one queue. The `...Sync` twins run on the calling thread and
//! take no `onProgress` (the thread that would run it is the one blocked).

use crate::deck::Json;
use crate::error::{check, install_object, to_js};
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

/// An operation ready to run: options read, the progress callback still to give.
pub(crate) type Op<T> =
    Box<dyn FnOnce(Option<&ProgressFn<'_>>) -> skilldeck_install::Result<T> + Send>;

/// Run `op` on a worker thread with the progress callback as the crate's `ProgressFn`
/// when JS gave one.
pub(crate) fn run_op<T: serde::Serialize + 'static>(
    env: &Env,
    dispatch: Function<'_, Message, ()>,
    progress: bool,
    op: Op<T>,
) -> Result<()> {
    worker::spawn(env, dispatch, move |emitter: Emitter| {
        let forward = move |p: &Progress| emitter.emit(p);
        let progress_fn: Option<&ProgressFn<'_>> = if progress { Some(&forward) } else { None };
        op(progress_fn).map_err(Failure::Install)
    })
}

/// The options of a `...Sync` call as JSON: an `onProgress` there is refused, it could never
/// be called while the call blocks the JS thread.
pub(crate) fn sync_options(
    what: &str,
    options: Option<Unknown>,
) -> skilldeck::Result<Option<Value>> {
    let invalid =
        |e: napi::Error| skilldeck::Error::invalid_options(format!("{what}: {}", e.reason));
    let Some(options) = options else {
        return Ok(None);
    };
    let kind = options.get_type().map_err(invalid)?;
    if matches!(kind, ValueType::Undefined | ValueType::Null) {
        return Ok(None);
    }
    if kind == ValueType::Object {
        // SAFETY: the value is an object (checked), what `Object` wraps.
        let object = unsafe { options.cast::<Object>() }.map_err(invalid)?;
        if object.has_named_property("onProgress").map_err(invalid)? {
            return Err(skilldeck::Error::invalid_options(format!(
                "{what}: onProgress needs the Promise version (without `Sync`): a sync call \
                 blocks the thread that would run it"
            )));
        }
    }
    // SAFETY: `options` is a live argument of the current call.
    unsafe { Value::from_napi_value(options.value().env, options.raw()) }
        .map(Some)
        .map_err(invalid)
}

/// Run `op` on the calling thread; its report as a plain object, its error thrown.
pub(crate) fn run_sync<T: serde::Serialize>(
    env: &Env,
    op: skilldeck::Result<Op<T>>,
) -> Result<Json> {
    let op = check(env, op)?;
    match skilldeck::catch_panic(move || Ok(op(None))) {
        Ok(Ok(report)) => check(env, Json::of(&report)),
        Ok(Err(err)) => Err(napi::Error::from(install_object(env, &err)?.to_unknown())),
        Err(panic) => Err(to_js(env, &panic)),
    }
}

/// The `maxSeverity` option, parsed here for the engine's own message listing the levels
/// (serde's would not).
pub(crate) fn max_severity(
    value: Option<Value>,
) -> skilldeck::Result<Option<skilldeck::AuditSeverity>> {
    match value {
        None => Ok(None),
        Some(Value::String(level)) => Ok(Some(level.parse()?)),
        // Not a string (`5`, `true`): refused by the same parse, with the same message.
        Some(other) => Ok(Some(other.to_string().parse()?)),
    }
}

fn add_op(
    source: String,
    options: Option<Value>,
) -> skilldeck::Result<Op<skilldeck_install::AddReport>> {
    let known = keys(&[
        "skills",
        "gitRef",
        "sha256",
        "hosts",
        "force",
        "maxSeverity",
        "onProgress",
    ]);
    let (ctx, _, mut request) = prepare("add options", options, &known)?;
    let max_severity = max_severity(request.remove("maxSeverity"))?;
    request.insert("source".into(), Value::String(source));
    let mut request: skilldeck_install::AddRequest =
        from_json("add options", Value::Object(request))?;
    request.max_severity = max_severity;
    Ok(Box::new(move |p| skilldeck_install::add(&ctx, &request, p)))
}

fn remove_op(
    names: Vec<String>,
    options: Option<Value>,
) -> skilldeck::Result<Op<skilldeck_install::RemoveReport>> {
    let (ctx, scope, _) = prepare("remove options", options, &keys(&[]))?;
    Ok(Box::new(move |_| {
        skilldeck_install::remove(&ctx, scope, &names)
    }))
}

fn update_op(
    names: Option<Vec<String>>,
    options: Option<Value>,
) -> skilldeck::Result<Op<skilldeck_install::UpdateReport>> {
    let known = keys(&["dryRun", "force", "onProgress"]);
    let (ctx, scope, rest) = prepare("update options", options, &known)?;
    let flag = |key: &str| -> skilldeck::Result<bool> {
        match rest.get(key) {
            None => Ok(false),
            Some(value) => from_json(key, value.clone()),
        }
    };
    let dry_run = flag("dryRun")?;
    let force = flag("force")?;
    let names = names.unwrap_or_default();
    Ok(Box::new(move |p| {
        skilldeck_install::update(&ctx, scope, &names, dry_run, force, p)
    }))
}

fn installed_op(
    options: Option<Value>,
) -> skilldeck::Result<Op<Vec<skilldeck_install::InstalledSkill>>> {
    let (ctx, scope, _) = prepare("installed options", options, &keys(&[]))?;
    Ok(Box::new(move |_| skilldeck_install::installed(&ctx, scope)))
}

fn verify_op(options: Option<Value>) -> skilldeck::Result<Op<skilldeck_install::VerifyReport>> {
    let (ctx, scope, _) = prepare("verify options", options, &keys(&[]))?;
    Ok(Box::new(move |_| skilldeck_install::verify(&ctx, scope)))
}

fn frozen_op(options: Option<Value>) -> skilldeck::Result<Op<skilldeck_install::FrozenReport>> {
    let (ctx, scope, _) = prepare("installFrozen options", options, &keys(&["onProgress"]))?;
    Ok(Box::new(move |p| {
        skilldeck_install::install_frozen(&ctx, scope, p)
    }))
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
    let op = check(&env, add_op(source, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `add()` on the calling thread (no `onProgress`).
#[napi(
    ts_args_type = "source: string, options?: Omit<AddOptions, 'onProgress'> | null",
    ts_return_type = "AddReport"
)]
pub fn add_sync(env: Env, source: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("addSync options", options).and_then(|o| add_op(source, o)),
    )
}

/// `remove(names, options)`: remove installed skills, their links and lock entries.
#[napi(js_name = "_remove", skip_typescript)]
pub fn remove(
    env: Env,
    names: Vec<String>,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = check(&env, remove_op(names, options))?;
    run_op(&env, dispatch, false, op)
}

/// `remove()` on the calling thread.
#[napi(
    ts_args_type = "names: string[], options?: InstallContextOptions | null",
    ts_return_type = "RemoveReport"
)]
pub fn remove_sync(env: Env, names: Vec<String>, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("removeSync options", options).and_then(|o| remove_op(names, o)),
    )
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
    let op = check(&env, update_op(names, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `update()` on the calling thread (no `onProgress`; `names` null or empty: every skill).
#[napi(
    ts_args_type = "names?: string[] | null, options?: Omit<UpdateOptions, 'onProgress'> | null",
    ts_return_type = "UpdateReport"
)]
pub fn update_sync(env: Env, names: Option<Vec<String>>, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("updateSync options", options).and_then(|o| update_op(names, o)),
    )
}

/// `installed(options)`: the skills the scope's lock records.
#[napi(js_name = "_installed", skip_typescript)]
pub fn installed(
    env: Env,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = check(&env, installed_op(options))?;
    run_op(&env, dispatch, false, op)
}

/// `installed()` on the calling thread.
#[napi(
    ts_args_type = "options?: InstallContextOptions | null",
    ts_return_type = "InstalledSkill[]"
)]
pub fn installed_sync(env: Env, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("installedSync options", options).and_then(installed_op),
    )
}

/// `verify(options)`: re-hash every installed skill and compare it with the lock.
#[napi(js_name = "_verify", skip_typescript)]
pub fn verify(env: Env, options: Option<Value>, dispatch: Function<'_, Message, ()>) -> Result<()> {
    let op = check(&env, verify_op(options))?;
    run_op(&env, dispatch, false, op)
}

/// `verify()` on the calling thread.
#[napi(
    ts_args_type = "options?: InstallContextOptions | null",
    ts_return_type = "VerifyReport"
)]
pub fn verify_sync(env: Env, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("verifySync options", options).and_then(verify_op),
    )
}

/// `installFrozen(options)`: restore exactly what the lock records, or nothing.
#[napi(js_name = "_installFrozen", skip_typescript)]
pub fn install_frozen(
    env: Env,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = check(&env, frozen_op(options))?;
    run_op(&env, dispatch, progress, op)
}

/// `installFrozen()` on the calling thread (no `onProgress`).
#[napi(
    ts_args_type = "options?: Omit<InstallProgressOptions, 'onProgress'> | null",
    ts_return_type = "FrozenReport"
)]
pub fn install_frozen_sync(env: Env, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("installFrozenSync options", options).and_then(frozen_op),
    )
}
