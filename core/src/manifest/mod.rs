//! The typed manifest: a superset of the Agent Skills specification and every host's
//! extensions. Every known key gets a typed field; every unknown key is kept in `extra`
//! with its original value, so nothing a user wrote is lost.
//!
//! The specification's fields sit in [`Manifest`] itself; the hosts' extensions are grouped
//! in [`Section`]s (`manifest.claude_code`, `manifest.tool`, `manifest.lifted`) that cost one
//! pointer until the frontmatter sets one of their fields, because a catalog keeps a
//! manifest per skill. `metadata` and `extra` are [`JsonText`]s for the same reason: one
//! block of compact JSON text, parsed on access (`manifest.extra.get(..)`,
//! `manifest.metadata.to_object()`).
//!
//! The canonical JSON form (used by the conformance vectors and every binding's
//! `to_dict()` / `toJSON()`) is this struct's serde serialisation: keys in kebab-case as in
//! the spec, absent/empty fields omitted, the sections' keys flat beside the spec's.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::OnceLock;

mod fields;
mod json_text;
mod section;
pub use json_text::JsonText;
pub use section::{Section, SectionFields};

/// A JSON object (`metadata`, `extra`): the type bindings name in [`crate::manifest_fields!`].
pub type JsonObject = Map<String, Value>;
/// Any JSON value (`hooks`, a parameter's `default`).
pub type JsonValue = Value;

fn is_false(b: &bool) -> bool {
    !*b
}

/// A key that is there, even with a `null` value, is `Some` (serde reads a `null` as `None`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// A declared parameter of a tool-style skill (`parameters: {name: {type, description, ...}}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Parameter {
    pub name: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// `default: null` is kept as `Some(Value::Null)`: a declared null default, unlike no
    /// `default` at all.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<Value>,
    #[serde(rename = "enum", default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<Value>,
}

/// `requires: {bins: [...], env: [...]}`: what must exist for the skill to be available.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirements {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bins: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
}

/// One entry of `install: [...]`: how to obtain a missing requirement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstallSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub os: Vec<String>,
}

/// `metadata.mcp: {server, tool}`: the skill fronts an MCP tool.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpRef {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// Everything a SKILL.md frontmatter can say. String fields keep their source text
/// (`version: 1.0` is "1.0", `name: yes` is "yes").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Manifest {
    // --- Agent Skills specification ---
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<String>,
    /// `metadata` as written (values may be non-strings in the wild; validation flags them).
    /// Kept as compact JSON text: read with `get(key)` or `to_object()`, set with
    /// `metadata = object.into()`.
    #[serde(default, skip_serializing_if = "JsonText::is_empty")]
    pub metadata: JsonText,
    /// `allowed-tools`, normalised to a list whether written as a list or a space/comma-separated string.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,

    /// Claude Code's fields (`when_to_use`, `model`, `context`, `hooks`, ...).
    #[serde(flatten)]
    pub claude_code: Section<ClaudeCodeFields>,
    /// Fields of tool-style skills and Kode (`version`, `command`, `requires`, ...).
    #[serde(flatten)]
    pub tool: Section<ToolFields>,

    /// Fields lifted out of `metadata` (`mcp`, `short-description`).
    #[serde(flatten)]
    pub lifted: Section<LiftedFields>,

    /// Every top-level key this model does not know, with its value, in source order.
    /// Kept as compact JSON text, like `metadata`.
    #[serde(default, skip_serializing_if = "JsonText::is_empty")]
    pub extra: JsonText,

    /// Not a frontmatter key: for a profile with `description_fallback_line` and a skill
    /// without a description, the body line the host shows instead (OpenHands). Set when the
    /// file is parsed; never serialised.
    /// Boxed: few skills have one, and every manifest would otherwise carry its 32 bytes.
    #[serde(skip)]
    pub fallback_line: Option<Box<FallbackLine>>,
    /// Not a frontmatter key: why the profile's host never offers this skill to the model
    /// (set when the file is named; the filter turns it into `model_invocable: false`).
    #[serde(skip)]
    pub unlisted: Option<Unlisted>,
}

/// Why a host loads a skill but never lists it to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unlisted {
    /// Always on: the host puts the whole body in its system prompt (OpenHands' legacy
    /// skills without triggers, `[loose]` in the profile).
    AlwaysOn,
    /// A path rule: injected when a file matching its `paths` is touched
    /// (`path_rules_unlisted` in the profile).
    PathRule,
}

impl Unlisted {
    /// The reason the filter gives.
    pub fn reason(self) -> &'static str {
        match self {
            Unlisted::AlwaysOn => {
                "always on: the host puts its whole text in the system prompt instead of listing it"
            }
            Unlisted::PathRule => {
                "a path rule (`paths`): the host injects it when a matching file is touched and never lists it"
            }
        }
    }
}

/// The line of a skill's body a host shows for a missing description, and how many
/// characters of the body follow it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FallbackLine {
    /// The first line that is neither blank nor a `#` heading, stripped of whitespace.
    pub text: String,
    /// Characters (code points) of the body after that line.
    pub rest_chars: usize,
}

impl Manifest {
    /// Drop the sections that hold nothing: a binding that assigned every field through
    /// the sections (see [`crate::manifest_fields!`]) stored empty ones.
    pub fn compact(mut self) -> Self {
        self.claude_code = self.claude_code.into_inner().into();
        self.tool = self.tool.into_inner().into();
        self.lifted = self.lifted.into_inner().into();
        self
    }

    /// Give the manifest `description` when it has none (and it is not empty): how a skill
    /// built from parts (a JSON skill, a binding's record) keeps a description that was
    /// given beside its manifest rather than in it.
    pub fn or_description(mut self, description: String) -> Self {
        if self.description.is_none() && !description.is_empty() {
            self.description = Some(description);
        }
        self
    }
}

/// Claude Code's extensions to the specification. Stored in [`Manifest::claude_code`]
/// only when the frontmatter sets one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ClaudeCodeFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_to_use: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument_hint: Option<String>,
    /// Named positional arguments (`arguments: [a, b]` or `arguments: a b`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_model_invocation: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_invocable: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disallowed_tools: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effort: Option<String>,
    /// `context: fork` runs the skill in a sub-agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hooks: Option<Value>,
    /// Glob patterns of files the skill applies to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,
}

impl SectionFields for ClaudeCodeFields {
    fn empty() -> &'static Self {
        static EMPTY: OnceLock<ClaudeCodeFields> = OnceLock::new();
        EMPTY.get_or_init(ClaudeCodeFields::default)
    }
}

/// Fields of tool-style skills (and Kode's `version`, `max-thinking-tokens`). Stored in
/// [`Manifest::tool`] only when the frontmatter sets one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ToolFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_thinking_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Operating systems the skill supports (`linux`, `macos`/`darwin`, `windows`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub os: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Timeout in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires: Option<Requirements>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub install: Vec<InstallSpec>,
}

impl SectionFields for ToolFields {
    fn empty() -> &'static Self {
        static EMPTY: OnceLock<ToolFields> = OnceLock::new();
        EMPTY.get_or_init(ToolFields::default)
    }
}

/// The fields lifted out of `metadata`, kept there too. Stored in [`Manifest::lifted`] only
/// when `metadata` has one of them; in JSON they sit beside the specification's fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct LiftedFields {
    /// `metadata.mcp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpRef>,
    /// Codex's `metadata.short-description`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_description: Option<String>,
}

impl SectionFields for LiftedFields {
    fn empty() -> &'static Self {
        static EMPTY: OnceLock<LiftedFields> = OnceLock::new();
        EMPTY.get_or_init(LiftedFields::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specification_only_manifest_stores_no_host_section() {
        let parsed = crate::parse(
            "---\nname: demo\ndescription: Demo.\nlicense: MIT\nallowed-tools: Read\n---\nBody\n",
        );
        assert!(!parsed.manifest.claude_code.is_set());
        assert!(!parsed.manifest.tool.is_set());
        assert_eq!(parsed.manifest.claude_code.model, None);
        assert!(parsed.manifest.tool.tags.is_empty());
    }

    #[test]
    fn host_fields_land_in_their_section_and_json_keeps_them_flat() {
        let parsed = crate::parse(
            "---\nname: demo\ndescription: Demo.\nmodel: opus\nversion: 1.0\ntags: [a, b]\nx-own: 1\n---\n",
        );
        let m = &parsed.manifest;
        assert_eq!(m.claude_code.model.as_deref(), Some("opus"));
        assert_eq!(m.tool.version.as_deref(), Some("1.0"));
        assert_eq!(m.tool.tags, ["a", "b"]);
        let json = serde_json::to_value(m).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({
                "name": "demo", "description": "Demo.", "model": "opus", "version": "1.0",
                "tags": ["a", "b"], "extra": {"x-own": 1}
            })
        );
        let back: Manifest = serde_json::from_value(json).unwrap_or_default();
        assert_eq!(&back, m);
    }

    #[test]
    fn metadata_extra_and_the_lifted_fields_are_stored_only_when_written() {
        let plain = crate::parse("---\nname: demo\ndescription: Demo.\n---\n").manifest;
        assert!(plain.metadata.is_empty() && plain.extra.is_empty() && !plain.lifted.is_set());
        let parsed = crate::parse(
            "---\nname: demo\ndescription: Demo.\n\
             metadata: {mcp: {server: s, tool: t}, short-description: Short.}\nx-own: 1\n---\n",
        );
        let m = &parsed.manifest;
        assert!(!m.metadata.is_empty() && !m.extra.is_empty() && m.lifted.is_set());
        assert_eq!(m.lifted.short_description.as_deref(), Some("Short."));
        let json = serde_json::to_string(m).unwrap_or_default();
        // The lifted keys sit where `mcp` and `short-description` always were: after the
        // sections, before `extra`.
        assert_eq!(
            json,
            r#"{"name":"demo","description":"Demo.","metadata":{"mcp":{"server":"s","tool":"t"},"short-description":"Short."},"mcp":{"server":"s","tool":"t"},"short-description":"Short.","extra":{"x-own":1}}"#
        );
        let back: Manifest = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(&back, m);
    }

    #[test]
    fn an_ordinary_manifest_stays_small() {
        // A catalog holds one manifest per skill; the hosts' fields live behind pointers,
        // `metadata` and `extra` are a (possibly null) text pointer each.
        assert!(
            std::mem::size_of::<Manifest>() <= 192,
            "{}",
            std::mem::size_of::<Manifest>()
        );
    }

    #[test]
    fn or_description_fills_only_a_missing_description() {
        let given = Manifest::default().or_description("Given.".into());
        assert_eq!(given.description.as_deref(), Some("Given."));
        let kept = given.or_description("Other.".into());
        assert_eq!(kept.description.as_deref(), Some("Given."));
        assert_eq!(
            Manifest::default()
                .or_description(String::new())
                .description,
            None
        );
    }
}
