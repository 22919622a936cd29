//! `skilldeck run SKILL [--input JSON | --input-file F]`, `skilldeck run-script SKILL SCRIPT
//! [--destination PATH] [--stdin JSON] [-- ARGS...]` and `skilldeck tools [--format F]`:
//! run a command skill or a skill's script through `skilldeck-run` (sandboxed unless
//! `--sandbox none`), and print the tool definitions a model calls them with.

use super::deck_args::{report, DeckArgs};
use skilldeck_run::{
    CancelHandle, CommandRequest, ExecEvent, RunControl, RunError, RunOptions, RunOutcome,
    SandboxMode, ScriptRequest,
};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Flags shared by `run` and `run-script`.
#[derive(clap::Args, Debug)]
pub struct RunFlags {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Seconds before the process group is killed (default: the skill's `timeout`, else 30).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<Duration>,
    /// `enforce` (default: Landlock, seccomp, rlimits; refused where unavailable) or `none`
    /// (no confinement: only for skills you trust).
    #[arg(long, value_name = "MODE", default_value = "enforce", value_parser = sandbox_mode)]
    pub sandbox: SandboxMode,
    /// Hide the file system except PATH (repeatable) in the sandbox, e.g. `--readable /usr
    /// --readable /bin --readable /lib --readable /etc`; the skill and work directories stay
    /// reachable. Default: everything readable, nothing writable.
    #[arg(long = "readable", value_name = "PATH")]
    pub readable: Vec<PathBuf>,
    /// Let the process use the network (off by default in the sandbox).
    #[arg(long)]
    pub allow_network: bool,
    /// Bytes of output kept per stream (stdout, stderr); the rest is dropped and reported.
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true,
          value_parser = super::count_parser("bytes"))]
    pub output_limit: Option<usize>,
    /// Run a skill whose permission rule says `ask` (you are the user approving it).
    #[arg(long)]
    pub yes: bool,
    /// Keep the work directory and print its path.
    #[arg(long)]
    pub keep_work_dir: bool,
    /// Print the outcome as JSON: {"exit_code", "stdout", "stderr", "json", "truncated",
    /// "timed_out", "duration_ms", ...}; the exit code is still 0 only when the skill
    /// succeeded.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The command skill (id or name).
    pub skill: String,
    /// The parameters as one JSON object (standard input of the skill).
    #[arg(long, value_name = "JSON", conflicts_with = "input_file")]
    pub input: Option<String>,
    /// Read the parameters' JSON object from a file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub input_file: Option<PathBuf>,
    #[command(flatten)]
    pub flags: RunFlags,
}

#[derive(clap::Args, Debug)]
pub struct ScriptArgs {
    /// The skill holding the script.
    pub skill: String,
    /// The script's path inside the skill's `scripts/`.
    pub script: String,
    /// Copy the files the script writes here (inside the project).
    #[arg(long, value_name = "PATH")]
    pub destination: Option<PathBuf>,
    /// JSON text for the script's standard input.
    #[arg(long, value_name = "JSON")]
    pub stdin: Option<String>,
    /// Arguments for the script (after `--`).
    #[arg(last = true)]
    pub args: Vec<String>,
    #[command(flatten)]
    pub flags: RunFlags,
}

#[derive(clap::Args, Debug)]
pub struct ToolsArgs {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// openai (function calling), anthropic (tool use) or vercel (AI SDK `tool()` fields).
    #[arg(long, default_value = "openai", value_parser = tool_format)]
    pub format: skilldeck::ToolFormat,
    /// Also the `skill` (load instructions) and `search_skills` tools, first.
    #[arg(long)]
    pub all: bool,
}

fn seconds(value: &str) -> Result<Duration, String> {
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err("must be a number of seconds above 0 and at most 86400 (e.g. 30 or 0.5)".into()),
    }
}

pub(crate) fn sandbox_mode(value: &str) -> Result<SandboxMode, String> {
    match value {
        "enforce" | "on" => Ok(SandboxMode::Enforce),
        "none" | "off" => Ok(SandboxMode::None),
        _ => Err("must be `enforce` or `none`".into()),
    }
}

fn tool_format(value: &str) -> Result<skilldeck::ToolFormat, String> {
    value.parse().map_err(|e: skilldeck::Error| e.to_string())
}

pub fn run(args: Args) -> i32 {
    let text = match (&args.input, &args.input_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => match read_input_file(path) {
            Ok(text) => text,
            Err(message) => {
                crate::style::eprint_error(None, &message);
                return crate::EXIT_USAGE;
            }
        },
        (None, None) => String::new(),
    };
    let input = match skilldeck::parse_input(&text) {
        Ok(input) => input,
        Err(err) => {
            crate::style::eprint_error(Some("INVALID_INPUT"), &format!("--input: {err}"));
            return crate::EXIT_USAGE;
        }
    };
    let request = CommandRequest {
        skill: args.skill.clone(),
        input,
    };
    execute(&args.flags, |deck, options, control| {
        skilldeck_run::run_command(deck, &request, options, control)
    })
}

fn read_input_file(path: &std::path::Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("standard input: {e}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run_script(args: ScriptArgs) -> i32 {
    if let Some(stdin) = &args.stdin {
        if let Err(err) = serde_json::from_str::<serde_json::Value>(stdin) {
            crate::style::eprint_error(
                Some("INVALID_INPUT"),
                &format!("--stdin is not valid JSON ({err})"),
            );
            return crate::EXIT_USAGE;
        }
    }
    let request = ScriptRequest {
        skill: args.skill.clone(),
        script: args.script.clone(),
        args: args.args.clone(),
        stdin: args.stdin.clone(),
        destination: args.destination.clone(),
    };
    execute(&args.flags, |deck, options, control| {
        skilldeck_run::run_script(deck, &request, options, control)
    })
}

pub fn tools(args: ToolsArgs) -> i32 {
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    let catalog = match deck.load_once() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    let specs = if args.all {
        skilldeck::agent_tools(&catalog)
    } else {
        skilldeck::tool_definitions(&catalog)
    };
    let tools: Vec<serde_json::Value> =
        specs.iter().map(|tool| tool.to_json(args.format)).collect();
    let text = serde_json::to_string_pretty(&tools).unwrap_or_default() + "\n";
    if super::doctor::write_stdout(&text) {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}

type Runner<'a> =
    dyn FnOnce(&skilldeck::Deck, &RunOptions, &RunControl) -> Result<RunOutcome, RunError> + 'a;

fn execute<'a>(
    flags: &RunFlags,
    runner: impl FnOnce(&skilldeck::Deck, &RunOptions, &RunControl) -> Result<RunOutcome, RunError> + 'a,
) -> i32 {
    let runner: Box<Runner<'a>> = Box::new(runner);
    let deck = match flags.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    if let Err(err) = deck.load_once() {
        return report(&err);
    }
    let options = RunOptions {
        timeout: flags.timeout,
        output_limit: flags.output_limit,
        sandbox: flags.sandbox,
        fs_view: if flags.readable.is_empty() {
            skilldeck_run::FsView::ReadOnly
        } else {
            skilldeck_run::FsView::Only(flags.readable.clone())
        },
        allow_network: flags.allow_network,
        agent: flags.deck.agent.clone(),
        approved: flags.yes,
        keep_work_dir: flags.keep_work_dir,
        ..Default::default()
    };
    let cancel = CancelHandle::new();
    // Without --json the output streams as it comes; with it, only the outcome is printed.
    let on_event: Option<skilldeck_run::EventCallback> = if flags.json {
        None
    } else {
        Some(Arc::new(|event: &ExecEvent| match event {
            ExecEvent::Stdout { text } => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes());
                let _ = out.flush();
            }
            ExecEvent::Stderr { text } => {
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
            _ => {}
        }))
    };
    let control = RunControl {
        cancel: cancel.clone(),
        on_event,
    };
    let interrupt = super::interrupt::Guard::install(cancel);
    let result = runner(&deck, &options, &control);
    drop(interrupt);
    match result {
        Ok(outcome) => finish(&outcome, flags.json),
        Err(err) => report_run_error(&err),
    }
}

fn finish(outcome: &RunOutcome, json: bool) -> i32 {
    if json {
        let text = serde_json::to_string_pretty(outcome).unwrap_or_default() + "\n";
        return if super::doctor::write_stdout(&text) && outcome.success() {
            crate::EXIT_OK
        } else {
            crate::EXIT_FAILURE
        };
    }
    let mut notes = Vec::new();
    if outcome.timed_out {
        notes.push(format!(
            "timed out after {} ms; the process group was killed",
            outcome.duration_ms
        ));
    }
    if outcome.cancelled {
        notes.push("cancelled; the process group was killed".to_string());
    }
    if outcome.truncated {
        notes.push("output beyond the limit was dropped (--output-limit)".to_string());
    }
    if let Some(code) = outcome.exit_code.filter(|c| *c != 0) {
        notes.push(format!("the skill exited with code {code}"));
    } else if let (None, Some(signal), false, false) = (
        outcome.exit_code,
        outcome.signal,
        outcome.timed_out,
        outcome.cancelled,
    ) {
        notes.push(format!("the skill was killed by signal {signal}"));
    }
    for path in &outcome.artifacts {
        notes.push(format!("delivered {}", path.display()));
    }
    if let Some(dir) = &outcome.work_dir {
        notes.push(format!("work directory kept: {}", dir.display()));
    }
    for note in notes {
        eprintln!("skilldeck: {note}");
    }
    if outcome.success() {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}

/// The caller's own bad arguments are usage errors (2); everything else failed (1).
fn report_run_error(err: &RunError) -> i32 {
    if let RunError::Engine(inner) = err {
        return report(inner);
    }
    crate::style::eprint_error(Some(err.code()), &err.to_string());
    match err {
        RunError::InvalidInput { .. }
        | RunError::ScriptRefused { .. }
        | RunError::DestinationRefused { .. } => crate::EXIT_USAGE,
        _ => crate::EXIT_FAILURE,
    }
}
