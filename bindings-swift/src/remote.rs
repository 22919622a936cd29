//! Core types exposed as they are. `#[uniffi::remote]` mirrors each core definition so the
//! bindings carry the very values the engine produced (no copy, no drift: if a core type
//! changes shape, this crate stops compiling instead of silently dropping a field).
//!
//! Paths travel as strings (`FsPath`), and the free-form YAML values (`metadata`, `extra`,
//! `hooks`, parameter defaults) as JSON text (`JsonValue`, `JsonObject`), because Swift and
//! Kotlin have no common dynamic value type.

use crate::error::SkillError;
use skilldeck::{
    Decision, Diagnostic, InstallSpec, McpRef, Parameter, Requirements, RootSpec, Scope, Severity,
    Shadowed, SkillKind, Status,
};

/// A filesystem path, as a string (non-UTF-8 bytes are replaced when going out).
pub type FsPath = std::path::PathBuf;
/// Any JSON value, as JSON text (`"\"text\""`, `"1"`, `"{\"a\":[1]}"`).
pub type JsonValue = serde_json::Value;
/// A JSON object (string keys, any values, source order kept), as JSON text.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

uniffi::custom_type!(FsPath, String, {
    remote,
    lower: |path| path.to_string_lossy().into_owned(),
    try_lift: |text| Ok(std::path::PathBuf::from(text)),
});

/// Text the engine usually borrows from its own constants (a diagnostic's `code`, `hint`),
/// as a string.
pub type Text = std::borrow::Cow<'static, str>;
/// A path shared between the values that name the same file, as a string.
pub use skilldeck::SharedPath;
/// Text shared between the values that repeat it (a skill's id and name, a warning many
/// files carry), as a string.
pub use skilldeck::SharedStr;

uniffi::custom_type!(Text, String, {
    remote,
    lower: |text| text.into_owned(),
    try_lift: |text| Ok(std::borrow::Cow::Owned(text)),
});

uniffi::custom_type!(SharedStr, String, {
    remote,
    lower: |text| text.to_string(),
    try_lift: |text| Ok(SharedStr::from(text)),
});

uniffi::custom_type!(SharedPath, String, {
    remote,
    lower: |path| path.to_string_lossy().into_owned(),
    try_lift: |text| Ok(SharedPath::from(std::path::Path::new(&text))),
});

uniffi::custom_type!(JsonValue, String, {
    remote,
    lower: |value| value.to_string(),
    try_lift: |text| serde_json::from_str(&text)
        .map_err(|e| SkillError::invalid_options(format!("not valid JSON ({e}): {text}")).into()),
});

uniffi::custom_type!(JsonObject, String, {
    remote,
    lower: |map| serde_json::Value::Object(map).to_string(),
    try_lift: |text| serde_json::from_str(&text)
        .map_err(|e| SkillError::invalid_options(format!("not a JSON object ({e}): {text}")).into()),
});

/// How bad a diagnostic is. `ERROR` makes a skill invalid (strict) or unloadable (lenient).
#[uniffi::remote(Enum)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// Where a skill came from.
#[uniffi::remote(Enum)]
pub enum Scope {
    /// Enterprise/managed settings directory (Claude Code).
    Managed,
    /// Administrator directory such as `/etc/codex/skills`.
    Admin,
    /// The host's own bundled skills.
    System,
    /// Project directory or an ancestor up to the repository root.
    Project,
    /// The user's home/config directories.
    User,
    /// Inside a plugin.
    Plugin,
    /// Roots given by the caller.
    Extra,
}

/// A skill directory with SKILL.md, or a legacy command file (`.claude/commands/a/b.md`).
#[uniffi::remote(Enum)]
pub enum SkillKind {
    Skill,
    Command,
}

/// A permission decision.
#[uniffi::remote(Enum)]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

/// One finding about one file. `code` is a stable kebab-case identifier (e.g.
/// `name-mismatch`) to match on; `message` is for humans and may change.
#[uniffi::remote(Record)]
pub struct Diagnostic {
    pub code: Text,
    pub severity: Severity,
    pub path: Option<SharedPath>,
    /// 1-based line in the file, when known.
    pub line: Option<u32>,
    /// 1-based column (in characters), when known.
    pub column: Option<u32>,
    pub message: SharedStr,
    /// What to do about it.
    pub hint: Option<Text>,
}

/// What the filter stage decided about a skill. Every `false`/`DENY` has a line in `reasons`.
#[uniffi::remote(Record)]
pub struct Status {
    /// Not switched off by an override, host setting or `enabled: false`.
    pub enabled: bool,
    /// Appears in the model's skill list (`disable-model-invocation` clears it).
    pub model_invocable: bool,
    /// The user may invoke it (`user-invocable: false` clears it).
    pub user_invocable: bool,
    /// OS and `requires` are satisfied.
    pub available: bool,
    /// Permission decision for the deck's agent.
    pub permission: Decision,
    /// Another skill in the catalog has the same name.
    pub ambiguous: bool,
    /// Human-readable reasons for every restriction above.
    pub reasons: Vec<String>,
    /// Listed by name only, without its description (Claude Code `skillOverrides: name-only`).
    pub name_only: bool,
}

/// A skill that lost a name clash (or a duplicate path) to another.
#[uniffi::remote(Record)]
pub struct Shadowed {
    pub id: SharedStr,
    pub name: SharedStr,
    pub location: SharedPath,
    /// Location of the skill that won.
    pub winner: SharedPath,
    /// Why it lost, e.g. `project beats user`, `same file as winner`.
    pub reason: SharedStr,
}

/// An extra root given to a `Deck`.
#[uniffi::remote(Record)]
pub struct RootSpec {
    pub path: FsPath,
    pub scope: Scope,
    /// Glob relative to `path`; `null` means every `SKILL.md` below it.
    pub pattern: Option<String>,
}

/// A declared parameter of a tool-style skill. `kind` is the `type` key.
#[uniffi::remote(Record)]
pub struct Parameter {
    pub name: String,
    pub kind: Option<String>,
    pub description: Option<String>,
    pub required: bool,
    /// The `default` value as JSON text.
    pub default: Option<JsonValue>,
    /// The `enum` values, each as JSON text.
    pub enum_values: Vec<JsonValue>,
}

/// `requires: {bins, env}`: what must exist for the skill to be available.
#[uniffi::remote(Record)]
pub struct Requirements {
    pub bins: Vec<String>,
    pub env: Vec<String>,
}

/// One entry of `install: [...]`: how to obtain a missing requirement.
#[uniffi::remote(Record)]
pub struct InstallSpec {
    pub id: Option<String>,
    pub kind: Option<String>,
    pub package: Option<String>,
    pub formula: Option<String>,
    pub label: Option<String>,
    pub os: Vec<String>,
}

/// `metadata.mcp: {server, tool}`: the skill fronts an MCP tool.
#[uniffi::remote(Record)]
pub struct McpRef {
    pub server: Option<String>,
    pub tool: Option<String>,
}
