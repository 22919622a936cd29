//! Engine events delivered to a foreign listener (a Swift protocol / Kotlin interface).

use crate::error::SkillError;
use crate::records::Diff;
use skilldeck::Diagnostic;

/// Something that happened in a `Deck`.
#[derive(Clone, Debug, PartialEq, uniffi::Enum)]
pub enum Event {
    /// A load finished; the ids of every skill in the catalog.
    Registered { skills: Vec<String> },
    /// A reload found changes.
    Changed { diff: Diff },
    /// An error diagnostic surfaced during a load.
    Error { diagnostic: Diagnostic },
    /// A skill was activated.
    Activated { id: String, agent: Option<String> },
    /// A skill was equipped for an agent (sent with every `Activated`).
    Equipped { id: String, agent: Option<String> },
    /// A skill's command or script started; `kind` is `command` or `script`.
    ExecStarted {
        id: String,
        kind: String,
        target: String,
    },
    /// A chunk of a running skill's output (lossy UTF-8, within the output cap); `stream` is
    /// `stdout` or `stderr`. Only sent to a run's own `onEvent` listener, never to the
    /// deck's subscribers.
    ExecOutput {
        id: String,
        stream: String,
        text: String,
    },
    /// A run ended; `exit_code` is absent when a signal ended it.
    ExecFinished {
        id: String,
        kind: String,
        exit_code: Option<i32>,
        duration_ms: u64,
        timed_out: bool,
        cancelled: bool,
        truncated: bool,
    },
}

fn kind_name(kind: skilldeck::ExecKind) -> String {
    match kind {
        skilldeck::ExecKind::Command => "command",
        skilldeck::ExecKind::Script => "script",
    }
    .to_string()
}

impl From<&skilldeck::Event> for Event {
    fn from(event: &skilldeck::Event) -> Self {
        match event {
            skilldeck::Event::Registered { skills } => Event::Registered {
                skills: skills.clone(),
            },
            skilldeck::Event::Changed { diff } => Event::Changed {
                diff: diff.clone().into(),
            },
            skilldeck::Event::Error { diagnostic } => Event::Error {
                diagnostic: diagnostic.clone(),
            },
            skilldeck::Event::Activated { id, agent } => Event::Activated {
                id: id.clone(),
                agent: agent.clone(),
            },
            skilldeck::Event::Equipped { id, agent } => Event::Equipped {
                id: id.clone(),
                agent: agent.clone(),
            },
            skilldeck::Event::ExecStarted { id, kind, target } => Event::ExecStarted {
                id: id.clone(),
                kind: kind_name(*kind),
                target: target.clone(),
            },
            skilldeck::Event::ExecFinished {
                id,
                kind,
                exit_code,
                duration_ms,
                timed_out,
                cancelled,
                truncated,
            } => Event::ExecFinished {
                id: id.clone(),
                kind: kind_name(*kind),
                exit_code: *exit_code,
                duration_ms: *duration_ms,
                timed_out: *timed_out,
                cancelled: *cancelled,
                truncated: *truncated,
            },
        }
    }
}

/// Implemented by the host to receive events. Called on the thread that caused the event
/// (the one calling `load`, `reload` or `activate`), after the engine released its locks, so
/// calling back into the deck is safe; a run's `onEvent` listener is called on the runner's
/// own threads (output chunks may arrive from two at once). Anything it throws is ignored.
#[uniffi::export(foreign)]
pub trait EventListener: Send + Sync {
    fn on_event(&self, event: Event) -> Result<(), SkillError>;
}
