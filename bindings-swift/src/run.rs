//! Running skills (`skilldeck-run`): `runCommand`, `runScript`, `callTool` and
//! `CancelToken`. Each run blocks the calling thread until the process is gone (call it off
//! the UI thread); `CancelToken.cancel()` from any other thread kills the run's whole process
//! group. A refusal (nothing ran) is `SkillError.RunError` or `SkillError.InvalidInputError`;
//! a run that started is a `RunOutcome`, whatever its exit code.

use crate::deck::Deck;
use crate::error::SkillError;
use crate::events::{Event, EventListener};
use crate::remote::{FsPath, JsonValue};
use serde_json::Value;
use skilldeck_run::{CancelHandle, ExecEvent, FsView, RunControl, SandboxMode};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Cancels runs from any thread: `cancel()` kills each run's whole process group; the
/// outcome then says `cancelled`. One token may be shared by several runs.
#[derive(uniffi::Object)]
pub struct CancelToken {
    inner: CancelHandle,
}

#[uniffi::export]
impl CancelToken {
    /// A token nobody has cancelled yet.
    #[uniffi::constructor]
    // The foreign constructor; `Default` would not be exported.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        CancelToken {
            inner: CancelHandle::new(),
        }
    }

    /// Stop the run(s) using this token (safe from any thread, idempotent).
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether `cancel()` was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }
}

/// Resource limits of a run's process (rlimits); `null` keeps the engine's default.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct RunLimits {
    /// Address space in bytes (default 8 GiB).
    #[uniffi(default)]
    pub memory_bytes: Option<u64>,
    /// Largest file the process may write (default 256 MiB).
    #[uniffi(default)]
    pub file_size_bytes: Option<u64>,
    /// Processes of the user (default 4096).
    #[uniffi(default)]
    pub processes: Option<u64>,
}

impl From<skilldeck_run::Limits> for RunLimits {
    fn from(l: skilldeck_run::Limits) -> Self {
        RunLimits {
            memory_bytes: Some(l.memory_bytes),
            file_size_bytes: Some(l.file_size_bytes),
            processes: Some(l.processes),
        }
    }
}

/// How to run (the engine's `RunOptions`; every field has its default).
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct RunOptions {
    /// Seconds before the process group is killed (default: the skill's `timeout`, else 30).
    #[uniffi(default)]
    pub timeout: Option<f64>,
    /// Bytes kept per stream (default 1 MiB); the rest is dropped (`truncated`).
    #[uniffi(default)]
    pub output_limit: Option<u64>,
    /// `enforce` (Landlock + seccomp + rlimits, refused where unavailable) or `none` (no
    /// confinement: only for skills you trust).
    #[uniffi(default = "enforce")]
    pub sandbox: String,
    /// Only these paths (and what is below them) are readable in the sandbox; `null`: the
    /// whole file system, read-only.
    #[uniffi(default)]
    pub fs_view_only: Option<Vec<String>>,
    /// Let the process open network sockets.
    #[uniffi(default)]
    pub allow_network: bool,
    #[uniffi(default)]
    pub limits: RunLimits,
    /// The agent whose permission rules apply (else the deck's).
    #[uniffi(default)]
    pub agent: Option<String>,
    /// The user approved a skill whose permission is `ask`.
    #[uniffi(default)]
    pub approved: bool,
    /// Where work directories are created (default: the system temporary directory).
    #[uniffi(default)]
    pub work_root: Option<String>,
    /// Keep the work directory after the run (its path is in the outcome).
    #[uniffi(default)]
    pub keep_work_dir: bool,
}

/// What the sandbox enforced, mechanism by mechanism.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct SandboxReport {
    /// The kernel's Landlock ABI version (file system rules need 1; TCP rules need 4).
    pub landlock_abi: u32,
    /// Writes only in the work directory; reads as `fsViewOnly` says.
    pub filesystem: bool,
    /// Sockets denied (seccomp, and Landlock TCP rules from ABI 4).
    pub network_denied: bool,
    /// seccomp also keeps the process in its group.
    pub seccomp: bool,
    pub limits: RunLimits,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct RunOutcome {
    pub skill: String,
    /// `null` when a signal ended the process (timeout, cancel, a crash).
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// `stdout` parsed as JSON (as JSON text), when it is JSON.
    pub json: Option<JsonValue>,
    /// Output beyond the cap was dropped (from either stream).
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration_ms: u64,
    /// Whether the sandbox confined the process.
    pub sandboxed: bool,
    /// What the sandbox enforced (absent without a sandbox).
    pub sandbox: Option<SandboxReport>,
    /// The files delivered to `destination` (absolute paths).
    pub artifacts: Vec<FsPath>,
    /// The work directory, when `keepWorkDir`.
    pub work_dir: Option<FsPath>,
}

impl From<skilldeck_run::RunOutcome> for RunOutcome {
    fn from(o: skilldeck_run::RunOutcome) -> Self {
        RunOutcome {
            skill: o.skill,
            exit_code: o.exit_code,
            signal: o.signal,
            stdout: o.stdout,
            stderr: o.stderr,
            json: o.json,
            truncated: o.truncated,
            timed_out: o.timed_out,
            cancelled: o.cancelled,
            duration_ms: o.duration_ms,
            sandboxed: o.sandboxed,
            sandbox: o.sandbox.map(|s| SandboxReport {
                landlock_abi: s.landlock_abi,
                filesystem: s.filesystem,
                network_denied: s.network_denied,
                seccomp: s.seccomp,
                limits: s.limits.into(),
            }),
            artifacts: o.artifacts,
            work_dir: o.work_dir,
        }
    }
}

fn size(name: &str, value: u64) -> Result<usize, SkillError> {
    usize::try_from(value).map_err(|_| {
        SkillError::invalid_options(format!(
            "run options: {name} {value} is larger than this platform allows"
        ))
    })
}

impl RunOptions {
    /// The engine's `RunOptions`.
    fn to_engine(&self) -> Result<skilldeck_run::RunOptions, SkillError> {
        let defaults = skilldeck_run::Limits::default();
        let timeout = match self.timeout {
            None => None,
            Some(seconds) => Some(Duration::try_from_secs_f64(seconds).map_err(|_| {
                SkillError::invalid_options(format!(
                    "run options: timeout must be a non-negative number of seconds, got {seconds}"
                ))
            })?),
        };
        let sandbox = match self.sandbox.as_str() {
            "enforce" => SandboxMode::Enforce,
            "none" => SandboxMode::None,
            other => {
                return Err(SkillError::invalid_options(format!(
                    "run options: unknown sandbox `{other}`: use `enforce` or `none`"
                )))
            }
        };
        Ok(skilldeck_run::RunOptions {
            timeout,
            output_limit: self
                .output_limit
                .map(|n| size("outputLimit", n))
                .transpose()?,
            sandbox,
            fs_view: match &self.fs_view_only {
                None => FsView::ReadOnly,
                Some(paths) => FsView::Only(paths.iter().map(PathBuf::from).collect()),
            },
            allow_network: self.allow_network,
            limits: skilldeck_run::Limits {
                memory_bytes: self.limits.memory_bytes.unwrap_or(defaults.memory_bytes),
                file_size_bytes: self
                    .limits
                    .file_size_bytes
                    .unwrap_or(defaults.file_size_bytes),
                processes: self.limits.processes.unwrap_or(defaults.processes),
            },
            agent: self.agent.clone(),
            approved: self.approved,
            work_root: self.work_root.as_ref().map(PathBuf::from),
            keep_work_dir: self.keep_work_dir,
        })
    }
}

/// The run's exec events as deck `Event`s: `ExecStarted`, `ExecOutput` per chunk,
/// `ExecFinished`. `kind` is what ran (`command` or `script`); the skill id comes from the
/// start event, which precedes the others.
fn forward(listener: Arc<dyn EventListener>, kind: &'static str) -> skilldeck_run::EventCallback {
    let skill = Mutex::new(String::new());
    Arc::new(move |event: &ExecEvent| {
        let id = || match skill.lock() {
            Ok(id) => id.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let event = match event {
            ExecEvent::Started { skill: id, target } => {
                match skill.lock() {
                    Ok(mut s) => s.clone_from(id),
                    Err(poisoned) => poisoned.into_inner().clone_from(id),
                }
                Event::ExecStarted {
                    id: id.clone(),
                    kind: kind.to_string(),
                    target: target.clone(),
                }
            }
            ExecEvent::Stdout { text } => Event::ExecOutput {
                id: id(),
                stream: "stdout".into(),
                text: text.clone(),
            },
            ExecEvent::Stderr { text } => Event::ExecOutput {
                id: id(),
                stream: "stderr".into(),
                text: text.clone(),
            },
            ExecEvent::Finished {
                exit_code,
                duration_ms,
                timed_out,
                cancelled,
                truncated,
            } => Event::ExecFinished {
                id: id(),
                kind: kind.to_string(),
                exit_code: *exit_code,
                duration_ms: *duration_ms,
                timed_out: *timed_out,
                cancelled: *cancelled,
                truncated: *truncated,
            },
        };
        // A listener's failure is its own business: the run goes on.
        let _ = listener.on_event(event);
    })
}

fn control(
    cancel: Option<Arc<CancelToken>>,
    on_event: Option<Arc<dyn EventListener>>,
    kind: &'static str,
) -> RunControl {
    RunControl {
        cancel: cancel.map(|t| t.inner.clone()).unwrap_or_default(),
        on_event: on_event.map(|listener| forward(listener, kind)),
    }
}

/// JSON text that must be an object (`""` is `{}`).
fn json_object(what: &str, text: &str) -> Result<Value, SkillError> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_str(text)
        .map_err(|e| SkillError::invalid_options(format!("{what} is not valid JSON ({e})")))
}

/// Run a command skill with `inputJson` (its `parameters` as a JSON object) on standard
/// input, blocking until the process is gone. The input is validated against the skill's
/// parameters first (`InvalidInputError`, nothing run). `onEvent` receives `ExecStarted`,
/// `ExecOutput` chunks and `ExecFinished` on the runner's threads.
#[uniffi::export(
    default(input_json = "{}"),
    default(options),
    default(cancel = None),
    default(on_event = None)
)]
pub fn run_command(
    deck: Arc<Deck>,
    skill: String,
    input_json: String,
    options: RunOptions,
    cancel: Option<Arc<CancelToken>>,
    on_event: Option<Arc<dyn EventListener>>,
) -> Result<RunOutcome, SkillError> {
    let input = match json_object("inputJson", &input_json)? {
        Value::Object(map) => map,
        other => {
            return Err(skilldeck_run::RunError::InvalidInput {
                skill,
                problems: vec![format!("the input must be a JSON object, got {other}")],
            }
            .into())
        }
    };
    let request = skilldeck_run::CommandRequest { skill, input };
    let options = options.to_engine()?;
    let control = control(cancel, on_event, "command");
    Ok(skilldeck_run::run_command(&deck.inner, &request, &options, &control)?.into())
}

/// Run a file of the skill's `scripts/` with `args` (and `stdin` text), blocking until the
/// process is gone; `destination` (inside the deck's project directory) receives the files
/// it wrote (`artifacts` in the outcome).
#[uniffi::export(
    default(args = []),
    default(stdin = None),
    default(destination = None),
    default(options),
    default(cancel = None),
    default(on_event = None)
)]
#[allow(clippy::too_many_arguments)]
pub fn run_script(
    deck: Arc<Deck>,
    skill: String,
    script: String,
    args: Vec<String>,
    stdin: Option<String>,
    destination: Option<String>,
    options: RunOptions,
    cancel: Option<Arc<CancelToken>>,
    on_event: Option<Arc<dyn EventListener>>,
) -> Result<RunOutcome, SkillError> {
    let request = skilldeck_run::ScriptRequest {
        skill,
        script,
        args,
        stdin,
        destination: destination.map(PathBuf::from),
    };
    let options = options.to_engine()?;
    let control = control(cancel, on_event, "script");
    Ok(skilldeck_run::run_script(&deck.inner, &request, &options, &control)?.into())
}

/// Run a model's tool call: `name` as `toolDefinitions`/`agentTools` gave it
/// (`run_skill_script` or a command skill's tool) and the arguments object the model
/// produced, as JSON text. An unknown name is `RunError` code `NOT_FOUND`; arguments of the
/// wrong shape are `InvalidInputError`.
#[uniffi::export(
    default(arguments_json = "{}"),
    default(options),
    default(cancel = None),
    default(on_event = None)
)]
pub fn call_tool(
    deck: Arc<Deck>,
    name: String,
    arguments_json: String,
    options: RunOptions,
    cancel: Option<Arc<CancelToken>>,
    on_event: Option<Arc<dyn EventListener>>,
) -> Result<RunOutcome, SkillError> {
    let arguments = json_object("argumentsJson", &arguments_json)?;
    let options = options.to_engine()?;
    let kind = if name == skilldeck::RUN_SKILL_SCRIPT {
        "script"
    } else {
        "command"
    };
    let control = control(cancel, on_event, kind);
    Ok(skilldeck_run::call_tool(&deck.inner, &name, &arguments, &options, &control)?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> RunOptions {
        RunOptions {
            timeout: None,
            output_limit: None,
            sandbox: "enforce".into(),
            fs_view_only: None,
            allow_network: false,
            limits: RunLimits::default(),
            agent: None,
            approved: false,
            work_root: None,
            keep_work_dir: false,
        }
    }

    #[test]
    fn default_options_are_the_engines() {
        let engine = defaults().to_engine().map_err(|e| e.to_string());
        assert_eq!(engine, Ok(skilldeck_run::RunOptions::default()));
    }

    #[test]
    fn options_are_checked() {
        let bad_timeout = RunOptions {
            timeout: Some(-1.0),
            ..defaults()
        };
        assert_eq!(
            bad_timeout.to_engine().err().map(|e| e.code().to_string()),
            Some("INVALID_OPTIONS".to_string())
        );
        let bad_sandbox = RunOptions {
            sandbox: "off".into(),
            ..defaults()
        };
        assert!(bad_sandbox.to_engine().is_err());
        let only = RunOptions {
            timeout: Some(0.5),
            sandbox: "none".into(),
            fs_view_only: Some(vec!["/usr".into()]),
            ..defaults()
        }
        .to_engine()
        .map_err(|e| e.to_string());
        let only = only.as_ref().ok();
        assert_eq!(
            only.map(|o| o.timeout),
            Some(Some(Duration::from_millis(500)))
        );
        assert_eq!(
            only.map(|o| o.fs_view.clone()),
            Some(FsView::Only(vec![PathBuf::from("/usr")]))
        );
    }
}
