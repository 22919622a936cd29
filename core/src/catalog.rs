//! The result of discovery: resolved skills, what they shadow, and every diagnostic.
//! Plain owned data; the canonical JSON form is the serde serialisation.

use crate::diagnostic::Diagnostic;
use crate::manifest::Manifest;
use crate::permissions::Decision;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Where a skill came from. Ordered by the usual precedence (earlier = more authoritative)
/// only for display; each profile defines its own precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::Admin => "admin",
            Scope::System => "system",
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Plugin => "plugin",
            Scope::Extra => "extra",
        }
    }
}

impl std::str::FromStr for Scope {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        Ok(match s {
            "managed" => Scope::Managed,
            "admin" => Scope::Admin,
            "system" => Scope::System,
            "project" => Scope::Project,
            "user" => Scope::User,
            "plugin" => Scope::Plugin,
            "extra" => Scope::Extra,
            other => {
                return Err(crate::Error::invalid_options(format!(
                    "unknown scope `{other}` (expected managed, admin, system, project, user, plugin or extra)"
                )))
            }
        })
    }
}

/// A skill directory with SKILL.md, or a legacy command file (`.claude/commands/a/b.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SkillKind {
    #[default]
    Skill,
    Command,
}

/// What the filter stage decided about a skill. Every `false`/`deny` has a line in `reasons`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// Another skill in the catalog has the same name (profiles that keep all duplicates).
    pub ambiguous: bool,
    /// Human-readable reasons for every restriction above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// Listed by name only, without its description (Claude Code `skillOverrides: name-only`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub name_only: bool,
}

impl Default for Status {
    fn default() -> Self {
        Status {
            enabled: true,
            model_invocable: true,
            user_invocable: true,
            available: true,
            permission: Decision::Allow,
            ambiguous: false,
            reasons: Vec::new(),
            name_only: false,
        }
    }
}

impl Status {
    /// Shown by `list` (without `--all`): enabled and not denied.
    pub fn is_listed(&self) -> bool {
        self.enabled && self.permission != Decision::Deny
    }

    /// Goes into the model's prompt.
    pub fn is_model_visible(&self) -> bool {
        self.is_listed() && self.model_invocable && self.available
    }
}

/// One resolved skill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// Unique id in the catalog: the name, or `plugin:name`, or a directory-qualified name.
    pub id: String,
    pub name: String,
    pub description: String,
    /// Absolute path of the SKILL.md (or command file).
    pub location: PathBuf,
    /// Directory holding the skill's files.
    pub base_dir: PathBuf,
    pub scope: Scope,
    /// The root directory the skill was found under.
    pub source: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    pub kind: SkillKind,
    /// Shared with the deck's parse cache and with the skill's previous snapshots while its
    /// file is unchanged, so a reload neither copies nor compares unchanged manifests field
    /// by field (`Arc`'s equality checks identity first).
    pub manifest: Arc<Manifest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    pub status: Status,
}

/// A skill that lost a name clash (or a duplicate path) to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shadowed {
    pub id: String,
    pub name: String,
    pub location: PathBuf,
    /// Location of the skill that won.
    pub winner: PathBuf,
    /// Why it lost, e.g. `project beats user`, `same file as winner`.
    pub reason: String,
}

/// An immutable snapshot of everything discovered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub profile: String,
    /// Each skill is shared with the previous snapshot while nothing about it changed, so a
    /// reload copies pointers, not skills.
    pub skills: Vec<Arc<Skill>>,
    pub shadowed: Vec<Shadowed>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Catalog {
    /// Look a skill up by id, then by name.
    pub fn get(&self, id: &str) -> Option<&Skill> {
        self.skills
            .iter()
            .find(|s| s.id == id)
            .or_else(|| self.skills.iter().find(|s| s.name == id))
            .map(Arc::as_ref)
    }

    /// Skills shown by a default listing.
    pub fn listed(&self) -> impl Iterator<Item = &Skill> {
        self.skills
            .iter()
            .map(Arc::as_ref)
            .filter(|s| s.status.is_listed())
    }

    /// Skills that go into the model's prompt.
    pub fn model_visible(&self) -> impl Iterator<Item = &Skill> {
        self.skills
            .iter()
            .map(Arc::as_ref)
            .filter(|s| s.status.is_model_visible())
    }

    /// Canonical JSON form (what `to_dict()` / `toJSON()` return in the bindings).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// What changed between two loads, by skill id (each list sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}
