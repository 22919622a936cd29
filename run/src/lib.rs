//! # skilldeck-run
//!
//! Run Agent Skills safely: a **command skill** (`command`, `timeout`, `parameters`) gets
//! its parameters as one JSON object on standard input; a skill's `scripts/` files run with
//! arguments (`run_skill_script`), their output files delivered inside the workspace.
//!
//! Before anything runs: the skill is in the deck and allowed by the permission rules
//! ([`skilldeck::Deck::authorize`]; an `ask` needs [`RunOptions::approved`]), the input is
//! validated against the JSON Schema of `parameters` ([`skilldeck::parameters_schema`]),
//! `os`/`requires` are met ([`skilldeck::check_requirements`], with install hints), the
//! script resolves inside `scripts/`, the destination inside the workspace, and the sandbox
//! is ready. Then the process runs in a fresh work directory, in its own process group
//! (killed whole on timeout or cancel), with an allowlisted environment and capped output.
//!
//! Everything is synchronous and plain data, so a binding calls [`run_command`] or
//! [`run_script`] on a worker thread, cancels through a [`CancelHandle`] from any thread,
//! and streams [`ExecEvent`]s through [`RunControl::on_event`]. The deck's own subscribers
//! also receive `exec_started` / `exec_finished`.
//!
//! ```no_run
//! use skilldeck::{Deck, DeckOptions};
//! use skilldeck_run::{run_command, CommandRequest, RunControl, RunOptions};
//! let deck = Deck::new(DeckOptions { project_dir: ".".into(), ..Default::default() })?;
//! deck.load()?;
//! let input = serde_json::json!({"path": "README.md"});
//! let request = CommandRequest {
//!     skill: "word-count".into(),
//!     input: input.as_object().cloned().unwrap_or_default(),
//! };
//! let outcome = run_command(&deck, &request, &RunOptions::default(), &RunControl::default())?;
//! println!("{} (exit {:?})", outcome.stdout, outcome.exit_code);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod artifacts;
mod env;
mod error;
mod options;
mod process;
pub mod sandbox;
mod script;
mod tool_call;

pub use error::RunError;
pub use options::{
    CancelHandle, CommandRequest, EventCallback, ExecEvent, FsView, Limits, RunControl, RunOptions,
    RunOutcome, SandboxMode, SandboxReport, ScriptRequest, DEFAULT_OUTPUT_LIMIT, DEFAULT_TIMEOUT,
};
pub use script::{find_program, resolve_script};
pub use tool_call::call_tool;

use serde_json::{Map, Value};
use skilldeck::{Decision, Deck, Event, ExecKind, Skill};
use std::path::PathBuf;
use std::time::Duration;

/// Run a command skill with `request.input` as its JSON standard input. A refusal is also
/// reported to the deck's subscribers as an `error` event (code and message).
pub fn run_command(
    deck: &Deck,
    request: &CommandRequest,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    reported(deck, command_inner(deck, request, options, control))
}

/// Run a file from the skill's `scripts/` with arguments (seed 003's `run_skill_script`).
/// A refusal is also reported to the deck's subscribers as an `error` event.
pub fn run_script(
    deck: &Deck,
    request: &ScriptRequest,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    reported(deck, script_inner(deck, request, options, control))
}

fn reported(deck: &Deck, result: Result<RunOutcome, RunError>) -> Result<RunOutcome, RunError> {
    if let Err(err) = &result {
        deck.publish(&Event::Error {
            diagnostic: skilldeck::Diagnostic::error(err.code(), err.to_string()),
        });
    }
    result
}

fn command_inner(
    deck: &Deck,
    request: &CommandRequest,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    let skill = authorize(deck, &request.skill, options)?;
    let Some(command) = skill.manifest.tool.command.clone() else {
        return Err(RunError::NotRunnable {
            skill: skill.id.to_string(),
            message: "the skill declares no `command`; it is not a command skill (use \
                      `run-script` for files in its scripts/, or activate it)"
                .into(),
        });
    };
    let mut input = request.input.clone();
    validate_input(&skill, &mut input)?;
    check_requirements(deck, &skill)?;
    let path = caller_var(deck, "PATH");
    let invocation = script::command_invocation(&skill.base_dir, &command, path.as_deref())
        .map_err(|err| match err {
            RunError::NotRunnable { message, .. } => RunError::NotRunnable {
                skill: skill.id.to_string(),
                message,
            },
            other => other,
        })?;
    let stdin = serde_json::to_vec(&Value::Object(input)).unwrap_or_default();
    launch(
        deck,
        &skill,
        Launch {
            kind: ExecKind::Command,
            target: command,
            invocation,
            stdin: Some(stdin),
            destination: None,
        },
        options,
        control,
    )
}

fn script_inner(
    deck: &Deck,
    request: &ScriptRequest,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    let skill = authorize(deck, &request.skill, options)?;
    check_requirements(deck, &skill)?;
    let path = script::resolve_script(&skill.base_dir, &request.script)?;
    let destination = request
        .destination
        .as_deref()
        .map(|d| artifacts::resolve_destination(&deck.inputs().project, d))
        .transpose()?;
    let search = caller_var(deck, "PATH");
    let mut invocation = script::interpreter_for(&path, search.as_deref())?;
    invocation.args.extend(request.args.iter().cloned());
    launch(
        deck,
        &skill,
        Launch {
            kind: ExecKind::Script,
            target: request.script.clone(),
            invocation,
            stdin: request.stdin.clone().map(String::into_bytes),
            destination,
        },
        options,
        control,
    )
}

/// Validate `input` against the skill's `parameters` (after filling in defaults) with a
/// JSON Schema validator: every problem, with where it is.
pub fn validate_input(skill: &Skill, input: &mut Map<String, Value>) -> Result<(), RunError> {
    let parameters = &skill.manifest.tool.parameters;
    skilldeck::apply_defaults(parameters, input);
    let schema = skilldeck::skill_input_schema(skill);
    let invalid = |problems: Vec<String>| RunError::InvalidInput {
        skill: skill.id.to_string(),
        problems,
    };
    let validator = jsonschema::validator_for(&schema).map_err(|e| {
        invalid(vec![format!(
            "the skill's `parameters` do not form a valid schema ({e}); fix its SKILL.md"
        )])
    })?;
    let instance = Value::Object(input.clone());
    let problems: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("`{}`: {e}", at.trim_start_matches('/'))
            }
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(invalid(problems))
    }
}

fn authorize(deck: &Deck, id: &str, options: &RunOptions) -> Result<Skill, RunError> {
    let (skill, evaluation, _agent) = deck.authorize(id, options.agent.as_deref())?;
    if evaluation.decision == Decision::Ask && !options.approved {
        return Err(RunError::ApprovalRequired {
            skill: skill.id.to_string(),
            rule: evaluation
                .rule
                .map(|r| r.pattern)
                .unwrap_or_else(|| "no rule matched".into()),
        });
    }
    Ok(skill)
}

/// A variable of the caller's environment: the deck's `env` option when set (a binding's
/// explicit environment), else the process's.
fn caller_var(deck: &Deck, name: &str) -> Option<std::ffi::OsString> {
    match &deck.options().env {
        Some(env) => env.get(std::ffi::OsStr::new(name)).cloned(),
        None => std::env::var_os(name),
    }
}

fn check_requirements(deck: &Deck, skill: &Skill) -> Result<(), RunError> {
    let path = caller_var(deck, "PATH");
    let missing = skilldeck::check_requirements(&skill.manifest.tool, path.as_deref(), |name| {
        caller_var(deck, name)
    });
    if missing.is_empty() {
        Ok(())
    } else {
        Err(RunError::Requirements {
            skill: skill.id.to_string(),
            missing,
        })
    }
}

struct Launch {
    kind: ExecKind,
    target: String,
    invocation: script::Invocation,
    stdin: Option<Vec<u8>>,
    destination: Option<PathBuf>,
}

fn launch(
    deck: &Deck,
    skill: &Skill,
    launch: Launch,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    let work_root = options.work_root.clone().unwrap_or_else(std::env::temp_dir);
    let work_dir = tempfile::Builder::new()
        .prefix("skilldeck-run-")
        .tempdir_in(&work_root)
        .map_err(|e| RunError::io(&work_root, e))?;
    let work = work_dir
        .path()
        .canonicalize()
        .map_err(|e| RunError::io(work_dir.path(), e))?;
    let tmp = work.join(".tmp");
    std::fs::create_dir(&tmp).map_err(|e| RunError::io(&tmp, e))?;
    let sandbox = match options.sandbox {
        SandboxMode::Enforce => Some(sandbox::prepare(
            &work,
            &skill.base_dir,
            &options.fs_view,
            options.allow_network,
            &options.limits,
        )?),
        SandboxMode::None => None,
    };
    let sandboxed = sandbox.is_some();
    let sandbox_report = sandbox.as_ref().map(sandbox::Prepared::report);
    let declared = skill
        .manifest
        .tool
        .requires
        .as_ref()
        .map(|r| r.env.clone())
        .unwrap_or_default();
    let env = env::child_env(
        |name| caller_var(deck, name),
        &declared,
        &work,
        &tmp,
        &skill.base_dir,
    );
    let timeout = options
        .timeout
        // `timeout: 0` would kill the skill before it starts: read it as unset.
        .or(skill
            .manifest
            .tool
            .timeout
            .filter(|&s| s > 0)
            .map(Duration::from_secs))
        .unwrap_or(DEFAULT_TIMEOUT);
    deck.publish(&Event::ExecStarted {
        id: skill.id.to_string(),
        kind: launch.kind,
        target: launch.target.clone(),
    });
    control.send(&ExecEvent::Started {
        skill: skill.id.to_string(),
        target: launch.target.clone(),
    });
    let finished = process::execute(
        process::Spec {
            invocation: launch.invocation,
            cwd: work.clone(),
            env,
            stdin: launch.stdin,
            timeout,
            output_limit: options.output_limit.unwrap_or(DEFAULT_OUTPUT_LIMIT),
        },
        sandbox,
        control,
    )?;
    let duration_ms = u64::try_from(finished.duration.as_millis()).unwrap_or(u64::MAX);
    control.send(&ExecEvent::Finished {
        exit_code: finished.exit_code,
        duration_ms,
        timed_out: finished.timed_out,
        cancelled: finished.cancelled,
        truncated: finished.truncated,
    });
    deck.publish(&Event::ExecFinished {
        id: skill.id.to_string(),
        kind: launch.kind,
        exit_code: finished.exit_code,
        duration_ms,
        timed_out: finished.timed_out,
        cancelled: finished.cancelled,
        truncated: finished.truncated,
    });
    let artifacts = match &launch.destination {
        Some(destination) => artifacts::deliver(&work, &tmp, destination)?,
        None => Vec::new(),
    };
    let json = serde_json::from_str(finished.stdout.trim()).ok();
    let kept = if options.keep_work_dir {
        Some(work_dir.keep())
    } else {
        None
    };
    Ok(RunOutcome {
        skill: skill.id.to_string(),
        exit_code: finished.exit_code,
        signal: finished.signal,
        stdout: finished.stdout,
        stderr: finished.stderr,
        json,
        truncated: finished.truncated,
        timed_out: finished.timed_out,
        cancelled: finished.cancelled,
        duration_ms,
        sandboxed,
        sandbox: sandbox_report,
        artifacts,
        work_dir: kept,
    })
}
