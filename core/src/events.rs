//! Events delivered to subscribers. Delivery happens after the engine released its locks,
//! so a subscriber that calls back into the `Deck` cannot deadlock it.

use crate::catalog::Diff;
use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A load finished; the ids of every skill in the catalog.
    Registered { skills: Vec<String> },
    /// A reload found changes.
    Changed { diff: Diff },
    /// An error diagnostic surfaced during a load.
    Error { diagnostic: Diagnostic },
    /// A skill was activated.
    Activated { id: String, agent: Option<String> },
    /// A skill was equipped for an agent (seed 003's name for an activation; sent with
    /// every `Activated`).
    Equipped { id: String, agent: Option<String> },
    /// A skill's command or script started.
    ExecStarted {
        id: String,
        kind: ExecKind,
        /// The command line or the script's path inside `scripts/`.
        target: String,
    },
    /// A run ended. `exit_code` is `None` when a signal ended it (timeout, cancel).
    ExecFinished {
        id: String,
        kind: ExecKind,
        exit_code: Option<i32>,
        duration_ms: u64,
        timed_out: bool,
        cancelled: bool,
        /// Output beyond the cap was dropped.
        truncated: bool,
    },
}

/// What a run executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExecKind {
    /// The skill's `command` (parameters as JSON on standard input).
    Command,
    /// A file from the skill's `scripts/`.
    Script,
}

/// Handle returned by `Deck::subscribe`, used to unsubscribe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubscriptionId(pub u64);
