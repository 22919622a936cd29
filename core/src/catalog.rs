//! The result of discovery: resolved skills, what they shadow, and every diagnostic.
//! Plain owned data; the canonical JSON form is the serde serialisation.

use crate::diagnostic::Diagnostic;
use crate::manifest::Manifest;
use crate::permissions::Decision;
use crate::shared_path::SharedPath;
use crate::shared_str::SharedStr;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
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

/// [`Skill::base_dir`]: the directory holding a skill's files. Nearly always the directory
/// of the skill's file, so it is then stored as the location's shared buffer rather than a
/// copy of its bytes (~100 bytes per skill); any other directory has its own buffer.
/// Reads, compares and prints as a [`Path`] (`Deref`).
#[derive(Clone)]
pub struct BaseDir {
    path: SharedPath,
    /// `path` is the skill's file and the directory is its parent.
    of_file: bool,
}

impl BaseDir {
    /// The directory of `location`, sharing its buffer (`None` for a path without one).
    pub fn of(location: &SharedPath) -> Option<BaseDir> {
        crate::path_bytes::parent(location).map(|_| BaseDir {
            path: location.clone(),
            of_file: true,
        })
    }

    /// `dir`, sharing `location`'s buffer when `dir` is its directory.
    pub fn new(dir: PathBuf, location: &SharedPath) -> BaseDir {
        match BaseDir::of(location) {
            Some(shared) if *shared == *dir => shared,
            _ => BaseDir::from(dir),
        }
    }
}

impl std::ops::Deref for BaseDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        if self.of_file {
            // `of` made sure there is a parent.
            crate::path_bytes::parent(&self.path).unwrap_or(&self.path)
        } else {
            &self.path
        }
    }
}

impl AsRef<Path> for BaseDir {
    fn as_ref(&self) -> &Path {
        self
    }
}

impl PartialEq for BaseDir {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for BaseDir {}

impl std::fmt::Debug for BaseDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// As a path string, like every path of the JSON form.
impl Serialize for BaseDir {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::serde_path::lossy(self, serializer)
    }
}

impl From<PathBuf> for BaseDir {
    fn from(dir: PathBuf) -> Self {
        BaseDir {
            path: dir.into(),
            of_file: false,
        }
    }
}

impl From<&str> for BaseDir {
    fn from(dir: &str) -> Self {
        BaseDir::from(PathBuf::from(dir))
    }
}

impl From<String> for BaseDir {
    fn from(dir: String) -> Self {
        BaseDir::from(PathBuf::from(dir))
    }
}

/// One resolved skill.
///
/// Its description is [`Skill::description`], read from the manifest: a catalog keeps one
/// copy of each description, not two. The JSON form still has a `description` key.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "SkillJson")]
pub struct Skill {
    /// Unique id in the catalog: the name, or `plugin:name`, or a directory-qualified name.
    /// Shares the name's buffer when it is the name (most skills).
    pub id: SharedStr,
    /// Reads as a `&str`; `.to_string()` for a `String`.
    pub name: SharedStr,
    /// Absolute path of the SKILL.md (or command file). Shared with the deck's parse cache
    /// and the skill's diagnostics (one buffer per file).
    pub location: SharedPath,
    /// Directory holding the skill's files (usually `location`'s, sharing its buffer).
    pub base_dir: BaseDir,
    pub scope: Scope,
    /// The root directory the skill was found under, shared by the root's skills.
    pub source: SharedPath,
    pub plugin: Option<String>,
    pub kind: SkillKind,
    /// Shared with the deck's parse cache and with the skill's previous snapshots while its
    /// file is unchanged, so a reload neither copies nor compares unchanged manifests field
    /// by field (`Arc`'s equality checks identity first).
    pub manifest: Arc<Manifest>,
    /// Warnings and infos about the file (a skill with errors does not load). Shared, like
    /// the manifest, with the deck's parse cache (which keeps the file's lenient diagnostics
    /// to name it again on a reload) when naming the file added nothing to them, and with
    /// the skill's previous snapshots: one copy per file, not two. A slice in JSON.
    pub diagnostics: Arc<[Diagnostic]>,
    pub status: Status,
}

impl Skill {
    /// What the skill does and when to use it: the manifest's `description` (for a command
    /// without one, the first line of its body), empty when there is none.
    pub fn description(&self) -> &str {
        self.manifest.description.as_deref().unwrap_or_default()
    }
}

/// The JSON form of a [`Skill`]: its fields plus `description`, in this order.
#[derive(Serialize)]
struct SkillJsonRef<'a> {
    id: &'a str,
    name: &'a str,
    description: &'a str,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    location: &'a Path,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    base_dir: &'a Path,
    scope: Scope,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    source: &'a Path,
    #[serde(skip_serializing_if = "Option::is_none")]
    plugin: Option<&'a str>,
    kind: SkillKind,
    manifest: &'a Manifest,
    #[serde(skip_serializing_if = "<[Diagnostic]>::is_empty")]
    diagnostics: &'a [Diagnostic],
    status: &'a Status,
}

impl Serialize for Skill {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SkillJsonRef {
            id: &self.id,
            name: &self.name,
            description: self.description(),
            location: &self.location,
            base_dir: &self.base_dir,
            scope: self.scope,
            source: &self.source,
            plugin: self.plugin.as_deref(),
            kind: self.kind,
            manifest: &self.manifest,
            diagnostics: &self.diagnostics,
            status: &self.status,
        }
        .serialize(serializer)
    }
}

/// A [`Skill`] as JSON has it. A `description` key the manifest lacks (JSON written by
/// hand) moves into the manifest, so it is not lost.
#[derive(Deserialize)]
struct SkillJson {
    id: String,
    name: String,
    #[serde(default)]
    description: String,
    location: PathBuf,
    base_dir: PathBuf,
    scope: Scope,
    source: PathBuf,
    #[serde(default)]
    plugin: Option<String>,
    kind: SkillKind,
    #[serde(default)]
    manifest: Manifest,
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
    #[serde(default)]
    status: Status,
}

impl From<SkillJson> for Skill {
    fn from(json: SkillJson) -> Self {
        let manifest = json.manifest.or_description(json.description);
        let location = SharedPath::from(json.location);
        let name = SharedStr::from(json.name);
        Skill {
            id: if json.id == *name {
                name.clone()
            } else {
                json.id.into()
            },
            name,
            base_dir: BaseDir::new(json.base_dir, &location),
            location,
            scope: json.scope,
            source: json.source.into(),
            plugin: json.plugin,
            kind: json.kind,
            manifest: Arc::new(manifest),
            diagnostics: Diagnostic::shared(json.diagnostics),
            status: json.status,
        }
    }
}

/// A skill that lost a name clash (or a duplicate path) to another.
///
/// Its text fields are [`SharedStr`]s (read as `&str`): `id` and `name` share the losing
/// candidate's buffer, and entries with the same `reason` share one buffer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shadowed {
    pub id: SharedStr,
    pub name: SharedStr,
    /// Shared with the skill's parse cache entry.
    pub location: SharedPath,
    /// Location of the skill that won (shared with it).
    pub winner: SharedPath,
    /// Why it lost, e.g. `project beats user`, `same file as winner`.
    pub reason: SharedStr,
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
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// Added, removed and changed ids between two snapshots (each list sorted). Profiles that
    /// keep duplicate names (Codex) may hold one id several times; such an id changed when any
    /// of its skills did.
    pub fn between(before: &Catalog, after: &Catalog) -> Diff {
        // The usual reload keeps every id in place: compare pairwise, no maps.
        let aligned = before.skills.len() == after.skills.len()
            && before
                .skills
                .iter()
                .zip(&after.skills)
                .all(|(b, a)| b.id == a.id);
        if aligned {
            let mut changed: Vec<String> = before
                .skills
                .iter()
                .zip(&after.skills)
                .filter(|(b, a)| !Arc::ptr_eq(b, a) && b != a)
                .map(|(_, a)| a.id.to_string())
                .collect();
            changed.sort_unstable();
            changed.dedup();
            return Diff {
                changed,
                ..Diff::default()
            };
        }
        // Hash maps keep this linear on large catalogs; the lists are sorted at the end.
        fn by_id(catalog: &Catalog) -> HashMap<&str, Vec<&Skill>> {
            let mut map: HashMap<&str, Vec<&Skill>> = HashMap::with_capacity(catalog.skills.len());
            for s in &catalog.skills {
                map.entry(s.id.as_str()).or_default().push(s);
            }
            map
        }
        let old = by_id(before);
        let new = by_id(after);
        let mut diff = Diff::default();
        for (id, skills) in &new {
            match old.get(id) {
                None => diff.added.push((*id).to_string()),
                Some(prev) if prev != skills => diff.changed.push((*id).to_string()),
                Some(_) => {}
            }
        }
        diff.removed = old
            .keys()
            .filter(|id| !new.contains_key(*id))
            .map(|id| (*id).to_string())
            .collect();
        diff.added.sort_unstable();
        diff.changed.sort_unstable();
        diff.removed.sort_unstable();
        diff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill() -> Skill {
        Skill {
            id: "demo".into(),
            name: "demo".into(),
            location: "/p/demo/SKILL.md".into(),
            base_dir: "/p/demo".into(),
            scope: Scope::Project,
            source: "/p".into(),
            plugin: None,
            kind: SkillKind::Skill,
            manifest: Arc::new(Manifest {
                description: Some("Demo.".into()),
                ..Manifest::default()
            }),
            diagnostics: Arc::from([]),
            status: Status::default(),
        }
    }

    #[test]
    fn a_base_dir_of_the_skill_file_shares_its_buffer_and_reads_as_the_directory() {
        let location = SharedPath::from("/p/demo/SKILL.md");
        let dir = BaseDir::new(PathBuf::from("/p/demo"), &location);
        assert_eq!(&*dir, Path::new("/p/demo"));
        assert!(dir.of_file && dir.path.ptr_eq(&location));
        assert_eq!(dir, BaseDir::from("/p/demo"), "compared as paths");
        let elsewhere = BaseDir::new(PathBuf::from("/q"), &location);
        assert!(!elsewhere.of_file);
        assert_eq!(&*elsewhere, Path::new("/q"));
        assert_eq!(
            serde_json::to_string(&dir).ok().as_deref(),
            Some(r#""/p/demo""#)
        );
        assert!(BaseDir::of(&SharedPath::from("/")).is_none());
    }

    #[test]
    fn a_skill_stays_small() {
        // One per skill in every snapshot; `base_dir` shares the location's buffer.
        assert!(
            std::mem::size_of::<Skill>() <= 200,
            "{}",
            std::mem::size_of::<Skill>()
        );
    }

    #[test]
    fn the_description_is_the_manifests() {
        let mut s = skill();
        assert_eq!(s.description(), "Demo.");
        Arc::make_mut(&mut s.manifest).description = None;
        assert_eq!(s.description(), "");
    }

    #[test]
    fn json_has_the_description_after_the_name_and_reads_back() {
        let s = skill();
        let json = serde_json::to_string(&s).unwrap_or_default();
        assert!(
            json.starts_with(r#"{"id":"demo","name":"demo","description":"Demo.","location":"#),
            "{json}"
        );
        let back: Skill = serde_json::from_str(&json).unwrap_or_else(|_| skill());
        assert_eq!(back, s);
    }

    #[test]
    fn a_json_description_the_manifest_lacks_moves_into_it() {
        let json = serde_json::json!({
            "id": "x", "name": "x", "description": "Hand written.", "location": "/x/SKILL.md",
            "base_dir": "/x", "scope": "project", "source": "/", "kind": "skill"
        });
        let parsed: Result<Skill, _> = serde_json::from_value(json);
        let description = parsed.as_ref().map(|s| s.description().to_string());
        assert_eq!(description.ok().as_deref(), Some("Hand written."));
    }
}
