//! # skilldeck
//!
//! One engine for AI-agent *Skills* (folders holding a `SKILL.md`): discover them where each
//! host looks, parse and validate them against the Agent Skills specification, resolve name
//! clashes, filter by permissions and requirements, render the list into a system prompt,
//! and activate one skill when the model asks for it.
//!
//! The pipeline (one module per stage, plain data in and out):
//! `options → roots → walk → parse → validate → resolve → filter → render / activate`,
//! tied together by [`Deck`].
//!
//! ```no_run
//! use skilldeck::{Deck, DeckOptions, RenderOptions};
//! let deck = Deck::new(DeckOptions { project_dir: ".".into(), ..Default::default() })?;
//! let catalog = deck.load()?;
//! for skill in catalog.listed() {
//!     println!("{}: {}", skill.id, skill.description());
//! }
//! let prompt = deck.render(&RenderOptions::default())?;
//! println!("{}", prompt.text);
//! # Ok::<(), skilldeck::Error>(())
//! ```

pub mod activate;
pub mod cache;
pub mod catalog;
pub mod compat;
pub mod deck;
pub mod diagnostic;
pub mod discover;
pub mod doctor;
pub mod error;
pub mod events;
pub mod filter;
pub mod host_settings;
pub mod manifest;
pub mod options;
mod par;
pub mod parse;
pub mod permissions;
pub mod render;
pub mod search;
pub mod serde_path;
pub mod skill_files;
pub mod validate;

pub use activate::{ActivateOptions, Activation, ActivationFormat};
pub use catalog::{Catalog, Diff, Scope, Shadowed, Skill, SkillKind, Status};
pub use deck::Deck;
pub use diagnostic::{Diagnostic, Severity};
pub use error::{catch_panic, Error, Result};
pub use events::{Event, SubscriptionId};
pub use manifest::{
    ClaudeCodeFields, InstallSpec, Manifest, McpRef, Parameter, Requirements, Section,
    SectionFields, ToolFields,
};
pub use options::{DeckOptions, RootSpec};
pub use parse::{parse, Parsed};
pub use permissions::{Decision, PermissionRules, Rule, Semantics};
pub use render::{RenderFormat, RenderOptions, RenderReport, Rendered, Truncation};
pub use search::{SearchHit, SearchOptions, SearchResults};
pub use skill_files::{
    file_manifest, frontmatter_json, is_sha256_digest, is_spec_name, read_skill_file,
    sha256_digest, verify_bytes, FileManifest, SkillFile, SkillFilesError, MAX_SKILL_BYTES,
    MAX_SKILL_FILES,
};
pub use validate::{validate, ValidateOptions, ValidationReport};

/// The version of the engine (the same in every binding).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
