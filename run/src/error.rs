//! The runner's typed errors, each with a stable `code()` for the bindings.

use skilldeck::Missing;
use std::path::PathBuf;

/// Why a skill did not run (a run that started and failed is a [`crate::RunOutcome`]).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Lookup, permission or I/O error from the engine.
    #[error(transparent)]
    Engine(#[from] skilldeck::Error),
    /// The input does not match the skill's `parameters`; nothing was executed.
    #[error("skill `{skill}`: invalid input: {}; nothing was run", problems.join("; "))]
    InvalidInput {
        skill: String,
        problems: Vec<String>,
    },
    /// `os`, `requires.bins` or `requires.env` is unmet; nothing was run.
    #[error("skill `{skill}` cannot run here: {}", describe_missing(missing))]
    Requirements {
        skill: String,
        missing: Vec<Missing>,
    },
    /// The skill declares no `command` (for `run`) or has no such script (for `run-script`).
    #[error("skill `{skill}`: {message}")]
    NotRunnable { skill: String, message: String },
    /// The script name escapes `scripts/` (`..`, absolute, a link pointing out).
    #[error("{}: refused: {reason}", path.display())]
    ScriptRefused { path: PathBuf, reason: String },
    /// No interpreter for the script (no shebang, unknown extension, runtime not on PATH).
    #[error("{}: {message}", path.display())]
    NoInterpreter { path: PathBuf, message: String },
    /// The destination for artifacts is outside the workspace.
    #[error("{}: refused: the destination must be inside the workspace {}", path.display(), workspace.display())]
    DestinationRefused { path: PathBuf, workspace: PathBuf },
    /// The permission rules say `ask` and the caller did not confirm.
    #[error("skill `{skill}` needs the user's approval (rule `{rule}`); ask the user, then run it again with approval (`--yes`, `approved: true`)")]
    ApprovalRequired { skill: String, rule: String },
    /// The sandbox cannot be set up on this system; nothing was run.
    #[error("the sandbox is not available: {0}; run with `--sandbox none` (SandboxMode::None) only if you trust the skill")]
    SandboxUnavailable(String),
    /// Starting the process failed.
    #[error("{}: cannot start: {source}", program.display())]
    Spawn {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn describe_missing(missing: &[Missing]) -> String {
    missing
        .iter()
        .map(|m| {
            if m.hints.is_empty() {
                m.message.clone()
            } else {
                format!("{} (install: {})", m.message, m.hints.join(" or "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl RunError {
    /// Stable machine-readable code, identical in every binding.
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Engine(err) => err.code(),
            RunError::InvalidInput { .. } => "INVALID_INPUT",
            RunError::Requirements { .. } => "REQUIREMENTS_MISSING",
            RunError::NotRunnable { .. } => "NOT_RUNNABLE",
            RunError::ScriptRefused { .. } => "SCRIPT_REFUSED",
            RunError::NoInterpreter { .. } => "NO_INTERPRETER",
            RunError::DestinationRefused { .. } => "DESTINATION_REFUSED",
            RunError::ApprovalRequired { .. } => "APPROVAL_REQUIRED",
            RunError::SandboxUnavailable(_) => "SANDBOX_UNAVAILABLE",
            RunError::Spawn { .. } => "SPAWN_FAILED",
            RunError::Io { .. } => "IO_ERROR",
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        RunError::Io {
            path: path.into(),
            source,
        }
    }
}
