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
        }
    }
}

/// Implemented by the host to receive events. Called on the thread that caused the event
/// (the one calling `load`, `reload` or `activate`), after the engine released its locks, so
/// calling back into the deck is safe. Anything it throws is ignored.
#[uniffi::export(foreign)]
pub trait EventListener: Send + Sync {
    fn on_event(&self, event: Event) -> Result<(), SkillError>;
}
