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
}

/// Handle returned by `Deck::subscribe`, used to unsubscribe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubscriptionId(pub u64);
