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

// Every module is private: the crate root below is the whole public surface, so a stage can
// be reorganised without breaking the CLI, the bindings or other crates.
mod activate;
mod audit;
mod cache;
mod catalog;
mod compat;
mod deck;
mod diagnostic;
mod discover;
mod doctor;
mod error;
mod events;
mod exec;
mod filter;
mod host_settings;
mod lock;
mod manifest;
mod options;
mod par;
mod parse;
mod path_bytes;
mod permissions;
mod remote;
mod render;
mod search;
mod serde_path;
mod shared_path;
mod shared_str;
mod skill_files;
mod validate;

/// The hash maps of discovery's per-file work (file identities, plugin directories, skill
/// names, interned warnings): foldhash instead of std's SipHash-1-3, which was ~4% of a
/// 10,000-skill `list` (bench/PROFILE.md item 203). Their keys come from the user's files,
/// so the hasher is seeded at random per process and per map (foldhash's `RandomState`):
/// nobody who writes a skill tree can know the seed to build colliding names, and a
/// one-shot load gives no interactive attacker a view of hash outputs or timings.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

pub use activate::{ActivateOptions, Activation, ActivationFormat, ASK_PREFIX, MAX_ARGS_BYTES};
pub use audit::{
    audit, AuditError, AuditFinding, AuditKind, AuditOptions, AuditReport, AuditSeverity,
};
pub use catalog::{BaseDir, Catalog, Diff, Scope, Shadowed, Skill, SkillKind, Status};
pub use compat::skills_ref;
pub use deck::Deck;
pub use diagnostic::{Diagnostic, Severity};
pub use discover::profile::{self, InstallDirs, Profile};
pub use discover::registry::compare_plugin_versions;
pub use discover::roots::{Inputs, Skipped as SkippedRoot};
#[cfg(feature = "watch")]
pub use discover::watch::Watcher;
pub use doctor::{
    compare as compare_profiles, deciding, diagnose, Cell as ComparisonCell, Comparison,
    FileReport, Finding, LoadedSkill, Report as DoctorReport, RootReport, Row as ComparisonRow,
    Target as DoctorTarget, TargetReport,
};
pub use error::{catch_panic, Error, RemoteFailure, Result};
pub use events::{Event, ExecKind, SubscriptionId};
pub use exec::{
    agent_tools, apply_defaults, check_requirements, command_tool, install_hint,
    parameter_keywords, parameters_schema, parameters_schema_with, parse_input,
    run_skill_script_tool, search_skills_tool, skill_input_schema, skill_tool, tool_definitions,
    tool_name, tool_result, InputError, Missing, MissingKind, ToolFormat, ToolSpec,
    RUN_SKILL_SCRIPT, SEARCH_SKILLS, SKILL_TOOL,
};
pub use lock::{
    diff_files, digest_hex, file_digest, hash_tree, is_sha256_digest, sha256_hex, skill_digest,
    skills_cli_hash, verify_tree, DigestError, LockEntry, LockFile, TreeDiff, TreeHash,
    LOCK_FILE_NAME, LOCK_VERSION,
};
pub use manifest::{
    ClaudeCodeFields, FallbackLine, InstallSpec, JsonObject, JsonText, JsonValue, LiftedFields,
    Manifest, McpRef, Parameter, Requirements, Section, SectionFields, ToolFields,
};
pub use options::{DeckOptions, RootSpec};
pub use parse::{
    parse, read_frontmatter, split as split_frontmatter, split_lines, Fences, KeyInfo, Parsed,
    Split, ValueKind,
};
pub use permissions::document::ACCEPTED_SHAPES as PERMISSION_RULES_SHAPES;
pub use permissions::{Decision, Evaluation, PermissionRules, Rule, Semantics};
pub use remote::{
    origin as remote_origin, remote_label, RemoteEntry, RemoteFiles, RemoteListing,
    RemoteSkillSource,
};
pub use render::{RenderFormat, RenderOptions, RenderReport, Rendered, Truncation, MAX_BUDGET};
pub use search::{
    search, tool_definition as search_tool_definition, SearchHit, SearchOptions, SearchResults,
    MAX_LIMIT as MAX_SEARCH_LIMIT, MAX_QUERY_CHARS,
};
pub use serde_path::{lossy as serialize_path_lossy, lossy_opt as serialize_path_lossy_opt};
pub use shared_path::SharedPath;
pub use shared_str::SharedStr;
pub use skill_files::{
    file_manifest, frontmatter_json, is_spec_name, read_skill_file, verify_bytes, FileManifest,
    SkillFile, SkillFilesError, MAX_SKILL_BYTES, MAX_SKILL_FILES,
};
pub use validate::{skill_name_problem, validate, ValidateOptions, ValidationReport};

/// The version of the engine (the same in every binding).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
