//! Running skills (`skilldeck-run`): `run_command_sync`, `run_script_sync`,
//! `call_tool_sync` and `CancelToken`.
//!
//! Each run blocks its thread with the GIL released; the `async` `run_command`,
//! `run_script` and `call_tool` of the Python package (`skilldeck/_run.py`) run these on an
//! executor thread. Options are keyword arguments read into the crate's `RunOptions`
//! through serde; the outcome comes back as its serde form (a `RunOutcome` dict), and a
//! refusal (nothing ran) as `RunError` / `InvalidInputError` carrying the crate's code.

use crate::convert::{callback, deliver, from_json, overridden, py_to_json, to_py};
use crate::deck::PyDeck;
use crate::errors::{run_pyerr, IntoPyResult};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{json, Value};
use skilldeck_run::{CancelHandle, ExecEvent, RunControl, RunOptions};
use std::sync::Arc;
use std::time::Duration;

/// Cancels a run from any thread: `cancel()` kills the run's whole process group; the
/// outcome then says `cancelled: True`. One token may be shared by several runs.
#[pyclass(module = "skilldeck", name = "CancelToken", frozen)]
pub struct PyCancelToken {
    inner: CancelHandle,
}

#[pymethods]
impl PyCancelToken {
    #[new]
    fn new() -> Self {
        PyCancelToken {
            inner: CancelHandle::new(),
        }
    }

    /// Stop the run(s) using this token (safe from any thread, idempotent).
    fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!(
            "CancelToken(cancelled={})",
            if self.inner.is_cancelled() {
                "True"
            } else {
                "False"
            }
        )
    }
}

fn invalid(message: String) -> PyErr {
    crate::errors::to_pyerr(skilldeck::Error::invalid_options(message))
}

/// The keyword options as the crate's `RunOptions`: `timeout` in seconds (int or float),
/// `limits` a dict of some of its fields; every other key is a `RunOptions` field read by
/// serde (`sandbox="enforce"|"none"`, `fs_view="read_only"|{"only": [paths]}`, ...).
fn run_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<RunOptions> {
    let Some(options) = options else {
        return Ok(RunOptions::default());
    };
    let rest = options.copy()?;
    let timeout = rest.get_item("timeout")?;
    rest.del_item("timeout").ok();
    let limits = rest.get_item("limits")?;
    rest.del_item("limits").ok();
    let mut parsed: RunOptions = overridden("run options", &RunOptions::default(), rest.as_any())?;
    if let Some(timeout) = timeout.filter(|t| !t.is_none()) {
        let seconds = match py_to_json(&timeout)? {
            Value::Number(n) => n.as_f64(),
            _ => None,
        };
        parsed.timeout = Some(
            seconds
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .ok_or_else(|| {
                    invalid(format!(
                        "run options: timeout must be a non-negative number of seconds, got {timeout}"
                    ))
                })?,
        );
    }
    if let Some(limits) = limits.filter(|l| !l.is_none()) {
        parsed.limits = overridden("run limits", &parsed.limits, &limits)?;
    }
    Ok(parsed)
}

/// Cancellation and streaming for one run: the token's handle (a fresh one without a
/// token) and `on_event` as the crate's callback.
fn control(
    cancel: Option<PyRef<'_, PyCancelToken>>,
    on_event: Option<Bound<'_, PyAny>>,
) -> PyResult<RunControl> {
    let on_event = callback("on_event", on_event)?.map(|callback| {
        let forward: skilldeck_run::EventCallback =
            Arc::new(move |event: &ExecEvent| deliver(&callback, event));
        forward
    });
    Ok(RunControl {
        cancel: cancel.map(|t| t.inner.clone()).unwrap_or_default(),
        on_event,
    })
}

type Outcome = Result<skilldeck_run::RunOutcome, skilldeck_run::RunError>;

/// Run `work` on its own thread and wait for it with the GIL released, waking every 100 ms
/// to let Python handle signals: Ctrl-C (`KeyboardInterrupt`, or whatever a signal handler
/// raises) cancels the run, waits for its process group to be gone, then propagates. Off
/// the main thread (the `async` functions' executor) there are no signals to check and this
/// is a plain wait. The outcome comes back as a dict.
fn outcome(
    py: Python<'_>,
    cancel: CancelHandle,
    work: impl FnOnce() -> Outcome + Send + 'static,
) -> PyResult<Py<PyAny>> {
    let (send, mut receive) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("skilldeck-run".into())
        .spawn(move || {
            let result = skilldeck::catch_panic(move || Ok(work()));
            // The receiver only goes away if this function unwound; nothing to tell then.
            let _ = send.send(result);
        })
        .map_err(|e| {
            crate::errors::to_pyerr(skilldeck::Error::Internal {
                message: format!("cannot start the run's thread: {e}"),
            })
        })?;
    let finished = loop {
        // The receiver goes into the GIL-free closure and back (it is `Send`, not `Sync`).
        let (back, waited) = py.detach(move || {
            let waited = receive.recv_timeout(Duration::from_millis(100));
            (receive, waited)
        });
        receive = back;
        match waited {
            Ok(result) => break result,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    cancel.cancel();
                    // Cancelling kills the process group; the result no longer matters.
                    let _ = py.detach(move || receive.recv());
                    return Err(interrupt);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                break Err(skilldeck::Error::Internal {
                    message: "the run's thread ended without a result".into(),
                })
            }
        }
    };
    match finished {
        Ok(Ok(outcome)) => to_py(py, &outcome),
        Ok(Err(err)) => Err(run_pyerr(err)),
        Err(panic) => Err(crate::errors::to_pyerr(panic)),
    }
}

/// Run a command skill with `input` (its `parameters` as a dict) as JSON on standard input,
/// blocking with the GIL released. The input is validated against the skill's parameters
/// first (`InvalidInputError`, nothing run). Returns the `RunOutcome` dict.
#[pyfunction]
#[pyo3(signature = (deck, skill, input=None, *, cancel=None, on_event=None, **options))]
fn run_command_sync(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    skill: String,
    input: Option<Bound<'_, PyAny>>,
    cancel: Option<PyRef<'_, PyCancelToken>>,
    on_event: Option<Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let input = match input.filter(|i| !i.is_none()) {
        Some(input) => py_to_json(&input)?,
        None => json!({}),
    };
    let request: skilldeck_run::CommandRequest =
        from_json("command request", json!({ "skill": skill, "input": input })).py()?;
    let options = run_options(options)?;
    let control = control(cancel, on_event)?;
    let deck = deck.inner.clone();
    let cancel = control.cancel.clone();
    outcome(py, cancel, move || {
        skilldeck_run::run_command(&deck, &request, &options, &control)
    })
}

/// Run a file of the skill's `scripts/` with `args` (and `stdin` text), blocking with the
/// GIL released; `destination` (inside the deck's project directory) receives the files it
/// wrote (`artifacts` in the outcome). Returns the `RunOutcome` dict.
#[pyfunction]
#[pyo3(signature = (
    deck, skill, script, args=None, *, stdin=None, destination=None, cancel=None,
    on_event=None, **options
))]
#[allow(clippy::too_many_arguments)]
fn run_script_sync(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    skill: String,
    script: String,
    args: Option<Vec<String>>,
    stdin: Option<String>,
    destination: Option<std::path::PathBuf>,
    cancel: Option<PyRef<'_, PyCancelToken>>,
    on_event: Option<Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let mut request: skilldeck_run::ScriptRequest = from_json(
        "script request",
        json!({ "skill": skill, "script": script, "args": args.unwrap_or_default(), "stdin": stdin }),
    )
    .py()?;
    // The exact path, not a JSON (Unicode) copy of it.
    request.destination = destination;
    let options = run_options(options)?;
    let control = control(cancel, on_event)?;
    let deck = deck.inner.clone();
    let cancel = control.cancel.clone();
    outcome(py, cancel, move || {
        skilldeck_run::run_script(&deck, &request, &options, &control)
    })
}

/// Run a model's tool call: `name` as `tool_definitions`/`agent_tools` gave it
/// (`run_skill_script` or a command skill's tool) and the `arguments` object the model
/// produced. An unknown name is `RunError` code `NOT_FOUND`; arguments of the wrong shape
/// are `InvalidInputError`. Returns the `RunOutcome` dict.
#[pyfunction]
#[pyo3(signature = (deck, name, arguments=None, *, cancel=None, on_event=None, **options))]
fn call_tool_sync(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    name: String,
    arguments: Option<Bound<'_, PyAny>>,
    cancel: Option<PyRef<'_, PyCancelToken>>,
    on_event: Option<Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let arguments = match arguments.filter(|a| !a.is_none()) {
        Some(arguments) => py_to_json(&arguments)?,
        None => json!({}),
    };
    let options = run_options(options)?;
    let control = control(cancel, on_event)?;
    let deck = deck.inner.clone();
    let cancel = control.cancel.clone();
    outcome(py, cancel, move || {
        skilldeck_run::call_tool(&deck, &name, &arguments, &options, &control)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCancelToken>()?;
    m.add_function(wrap_pyfunction!(run_command_sync, m)?)?;
    m.add_function(wrap_pyfunction!(run_script_sync, m)?)?;
    m.add_function(wrap_pyfunction!(call_tool_sync, m)?)?;
    Ok(())
}
