//! Running skills (`skilldeck-run`): `runCommand`, `runScript`, `callTool` and
//! `CancelToken`.
//!
//! The native functions here are the raw halves of the Promise-returning functions of
//! `main.cjs`, which takes `signal` (an `AbortSignal`, wired to a `CancelToken`), `cancel`
//! and `onEvent` out of the options. The rest of the options object becomes the crate's
//! `RunOptions` through serde, once, before anything runs; the run has its own thread, and
//! its events, then the outcome (a plain object) or the `RunError` reach JS through
//! `worker::spawn`'s one queue.

use crate::deck::Deck;
use crate::error::check;
use crate::options::{from_json, json_options, overridden, take_path, JsonOptions};
use crate::worker::{self, Emitter, Failure, Message};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::{json, Value};
use skilldeck_run::{CancelHandle, ExecEvent, RunControl, RunOptions};
use std::sync::Arc;
use std::time::Duration;

/// Cancels runs: `cancel()` kills each run's whole process group, and its outcome says
/// `cancelled: true`. One token may be shared by several runs. (`options.signal`, an
/// `AbortSignal`, is the usual way; a token is for code that has no signal to hand.)
#[napi]
pub struct CancelToken {
    inner: CancelHandle,
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

#[napi]
impl CancelToken {
    #[napi(constructor)]
    pub fn new() -> Self {
        CancelToken {
            inner: CancelHandle::new(),
        }
    }

    /// Stop the runs using this token (idempotent).
    #[napi]
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether `cancel()` was called.
    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }
}

/// The run option keys a JS caller may write (`signal`, `cancel` and `onEvent` are taken
/// out by `main.cjs` and never reach here, but are listed in the message for a typo).
const RUN_KEYS: &[&str] = &[
    "timeout",
    "outputLimit",
    "sandbox",
    "fsView",
    "allowNetwork",
    "limits",
    "agent",
    "approved",
    "workRoot",
    "keepWorkDir",
    "signal",
    "cancel",
    "onEvent",
];

/// The crate's `RunOptions` from the rest of the options object: `timeout` in seconds
/// (the unit every binding uses), `limits` some of its fields, every other key a
/// `RunOptions` field read by serde.
fn run_options(mut options: JsonOptions) -> skilldeck::Result<RunOptions> {
    let timeout = options.remove("timeout");
    let limits = options.remove("limits");
    let mut parsed: RunOptions = overridden(
        "run options",
        &RunOptions::default(),
        Value::Object(options),
    )?;
    if let Some(timeout) = timeout {
        let seconds = timeout
            .as_f64()
            .and_then(|s| Duration::try_from_secs_f64(s).ok());
        parsed.timeout = Some(seconds.ok_or_else(|| {
            skilldeck::Error::invalid_options(format!(
                "run options: timeout must be a non-negative number of seconds, got {timeout}"
            ))
        })?);
    }
    if let Some(limits) = limits {
        parsed.limits = overridden("run limits", &parsed.limits, limits)?;
    }
    Ok(parsed)
}

/// The token's handle (a fresh one without a token) and, when JS listens, `onEvent` as
/// the crate's callback.
fn control(cancel: Option<&CancelToken>, events: bool, emitter: Emitter) -> RunControl {
    let on_event: Option<skilldeck_run::EventCallback> = if events {
        Some(Arc::new(move |event: &ExecEvent| emitter.emit(event)))
    } else {
        None
    };
    RunControl {
        cancel: cancel.map(|t| t.inner.clone()).unwrap_or_default(),
        on_event,
    }
}

/// Start `run` on its own thread with the deck, the options and the control.
fn start(
    env: &Env,
    deck: &Deck,
    options: RunOptions,
    cancel: Option<&CancelToken>,
    events: bool,
    dispatch: Function<'_, Message, ()>,
    run: impl FnOnce(
            &skilldeck::Deck,
            &RunOptions,
            &RunControl,
        ) -> std::result::Result<skilldeck_run::RunOutcome, skilldeck_run::RunError>
        + Send
        + 'static,
) -> Result<()> {
    let deck = deck.inner.clone();
    let cancel = cancel.map(|t| CancelToken {
        inner: t.inner.clone(),
    });
    worker::spawn(env, dispatch, move |emitter| {
        let control = control(cancel.as_ref(), events, emitter);
        run(&deck, &options, &control).map_err(Failure::Run)
    })
}

/// `runCommand(deck, skill, input, options)`.
#[napi(js_name = "_runCommand", skip_typescript)]
#[allow(clippy::too_many_arguments)]
pub fn run_command(
    env: Env,
    deck: &Deck,
    skill: String,
    input: Option<Value>,
    options: Option<Value>,
    cancel: Option<&CancelToken>,
    events: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let input = input.unwrap_or_else(|| json!({}));
    let prepared = (|| {
        let request: skilldeck_run::CommandRequest =
            from_json("command input", json!({ "skill": skill, "input": input }))?;
        let options = run_options(json_options("run options", options, RUN_KEYS)?)?;
        Ok((request, options))
    })();
    let (request, options) = check(&env, prepared)?;
    start(
        &env,
        deck,
        options,
        cancel,
        events,
        dispatch,
        move |d, o, c| skilldeck_run::run_command(d, &request, o, c),
    )
}

/// `runScript(deck, skill, script, args, options)`.
#[napi(js_name = "_runScript", skip_typescript)]
#[allow(clippy::too_many_arguments)]
pub fn run_script(
    env: Env,
    deck: &Deck,
    skill: String,
    script: String,
    args: Option<Vec<String>>,
    options: Option<Value>,
    cancel: Option<&CancelToken>,
    events: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let known: Vec<&str> = RUN_KEYS
        .iter()
        .copied()
        .chain(["stdin", "destination"])
        .collect();
    let prepared = (|| {
        let mut options = json_options("run options", options, &known)?;
        let stdin = match options.remove("stdin") {
            None => None,
            Some(Value::String(text)) => Some(text),
            Some(other) => {
                return Err(skilldeck::Error::invalid_options(format!(
                    "stdin must be a string, got {other}"
                )))
            }
        };
        let destination = take_path(&mut options, "destination")?;
        let request = skilldeck_run::ScriptRequest {
            skill,
            script,
            args: args.unwrap_or_default(),
            stdin,
            destination,
        };
        Ok((request, run_options(options)?))
    })();
    let (request, options) = check(&env, prepared)?;
    start(
        &env,
        deck,
        options,
        cancel,
        events,
        dispatch,
        move |d, o, c| skilldeck_run::run_script(d, &request, o, c),
    )
}

/// `callTool(deck, name, arguments, options)`.
#[napi(js_name = "_callTool", skip_typescript)]
#[allow(clippy::too_many_arguments)]
pub fn call_tool(
    env: Env,
    deck: &Deck,
    name: String,
    arguments: Option<Value>,
    options: Option<Value>,
    cancel: Option<&CancelToken>,
    events: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let arguments = arguments.unwrap_or_else(|| json!({}));
    let options = check(
        &env,
        json_options("run options", options, RUN_KEYS).and_then(run_options),
    )?;
    start(
        &env,
        deck,
        options,
        cancel,
        events,
        dispatch,
        move |d, o, c| skilldeck_run::call_tool(d, &name, &arguments, o, c),
    )
}
