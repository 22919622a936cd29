//! Host profiles as data: where a host looks, which files count, how clashes resolve.
//!
//! The built-in profiles are TOML files compiled into the crate (`profiles/*.toml`); a custom
//! profile is the same document read from a TOML or JSON file, so a new host needs no code.
//!
//! Paths in `sources[].paths` are templates:
//! - `~` at the start: the home directory;
//! - `{home}`, `{project}`: the home and project directories;
//! - `{dir}`: each directory of the ancestor walk (see [`Each`]);
//! - `{system}`: the system root (`/`, or a test tree), e.g. `{system}/etc/codex/skills`;
//! - `{config}`: `$XDG_CONFIG_HOME`, else `~/.config`;
//! - `${VAR}`: an environment variable (the source path is skipped when unset or empty);
//! - `${VAR:-fallback}`: the fallback template when `VAR` is unset or empty.

pub use crate::parse::{Dialect, DuplicateRule, FenceRule, ReadRule, RepairRule, SyntaxRule};

use crate::catalog::{Scope, SkillKind};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// How a name clash between two skills is settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clash {
    /// The earliest source wins; later ones are shadowed.
    #[default]
    FirstWins,
    /// A later source replaces an earlier one.
    LastWins,
    /// Everything is kept; skills sharing a name are flagged `ambiguous`.
    KeepAll,
}

/// Where a skill's name comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Naming {
    /// Frontmatter `name`, falling back to the directory name when absent.
    #[default]
    Frontmatter,
    /// The directory name; frontmatter `name` is only a display label.
    Directory,
}

/// Order of the skills in the catalog.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Source order, then path order within a root.
    #[default]
    Precedence,
    /// Scope (in the order the profile's sources name them), then id (`plugin:skill` for a
    /// plugin skill, else the name), then path.
    ScopeNamePath,
    /// By id.
    Id,
    /// Source order, then within a root the byte order of the path strings, so that
    /// `bom-cr/SKILL.md` comes before `bom/SKILL.md` (`-` < `/`). A name clash inside a
    /// root is settled in this order too (Copilot CLI).
    PrecedencePathBytes,
}

/// Which YAML values a profile accepts for `name` and `description`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldTypes {
    /// Anything; collections are taken as their source text.
    #[default]
    Any,
    /// Any scalar (numbers and booleans as their text); a list or map is refused.
    Scalar,
    /// Only YAML strings.
    String,
    /// Only YAML strings count; a value of another type is ignored (read as absent, with a
    /// warning) and the file still loads (VS Code's `getStringAttribute`).
    StringsOnly,
}

/// How far the ancestor walk goes when the project is not inside a repository.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoRepository {
    /// Only the project directory itself.
    #[default]
    ProjectOnly,
    /// Every ancestor up to the file-system root (OpenCode).
    FilesystemRoot,
}

/// Which directories `{dir}` stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Each {
    /// No `{dir}`: every path is expanded once.
    #[default]
    Once,
    /// The project directory, then each parent up to the repository root.
    AncestorsNearestFirst,
    /// The repository root, then each child down to the project directory.
    AncestorsRootFirst,
    /// The project directory, then the repository root when it is another directory; the
    /// directories between them are not read (OpenHands: the work dir, then the git root).
    ProjectThenRepository,
}

/// How a root is walked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WalkRules {
    /// Deepest directory that is read (the root is depth 0). `None`: unbounded.
    pub max_depth: Option<usize>,
    /// Most directories visited below one root before the walk stops (with a diagnostic).
    pub max_dirs: Option<usize>,
    /// Enter hidden (dot) directories.
    pub hidden: bool,
    /// Follow directory symlinks (loops are detected and reported).
    pub follow_links: bool,
    /// Ignore a matching file that is itself a symlink.
    pub skip_symlinked_files: bool,
    /// Directory names never entered.
    pub skip: Vec<String>,
    /// A skill directory may hold further skills below it. `false`: the first directory on
    /// a path that holds a match is the skill, and matches below it are not skills (Copilot
    /// CLI; a match in the root itself makes the whole root one skill).
    pub nested_skills: bool,
}

impl Default for WalkRules {
    fn default() -> Self {
        WalkRules {
            max_depth: Some(16),
            max_dirs: Some(100_000),
            hidden: true,
            follow_links: true,
            skip_symlinked_files: false,
            skip: vec![".git".to_string(), "node_modules".to_string()],
            nested_skills: true,
        }
    }
}

fn default_pattern() -> String {
    "**/SKILL.md".to_string()
}

/// A group of roots with one scope, kind and pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub scope: Scope,
    #[serde(default)]
    pub kind: SkillKind,
    #[serde(default)]
    pub each: Each,
    /// Path templates (see the module docs), in precedence order.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Instead of `paths`: the skills of the plugins a host recorded as installed and its
    /// settings enable (see [`PluginRegistry`]). `pattern` applies inside each plugin.
    #[serde(default)]
    pub registry: Option<PluginRegistry>,
    /// Glob relative to each root; `*` does not cross `/`, `**` does.
    #[serde(default = "default_pattern")]
    pub pattern: String,
    /// Walk rules for these roots instead of the profile's.
    #[serde(default)]
    pub walk: Option<WalkRules>,
    /// The source is skipped when one of these environment variables has this value, e.g.
    /// Gemini CLI's workspace skills with `GEMINI_CLI_TRUST_WORKSPACE=false`.
    #[serde(default)]
    pub unless_env: BTreeMap<String, String>,
    /// Instead of being roots themselves, each of `paths` holds plugin directories marked by
    /// a file, and each marked directory gives one root (see [`MarkedDirs`]).
    #[serde(default)]
    pub marked_dirs: Option<MarkedDirs>,
}

/// Plugin directories found by a marker file (Cline: each directory of `.cline` holding a
/// `managed.json`). Every directory directly inside a source path (not a link to one) whose
/// `file` reads as a JSON object or list gives the root `<directory>/<skills>`; a missing
/// marker, one that is not JSON, or a JSON number, text or null marks nothing. The roots come
/// in name order (`order`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkedDirs {
    /// The marker file's name, e.g. `managed.json`.
    pub file: String,
    /// The skills directory inside each marked directory, e.g. `skills`.
    pub skills: String,
    /// How the directory names are ordered.
    #[serde(default)]
    pub order: NameOrder,
}

/// How a host orders the names of the directories it lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NameOrder {
    /// By the bytes of the names.
    #[default]
    Bytes,
    /// JavaScript's `localeCompare` without a locale (CLDR root collation: punctuation, then
    /// digits, then letters, case and accents counting only between otherwise equal names);
    /// the measured subset is described in `core/src/discover/collate.rs`.
    LocaleCompare,
}

/// Markdown files that are skills by themselves, found in the same roots as the pattern's
/// skills (`[loose]`; OpenHands' legacy skills and microagents). Such a file is named by its
/// path relative to the root without its last suffix (`tools/git.md` → `tools/git`), unless
/// its frontmatter has a `name`; the profile's name checks (`name_pattern`,
/// `max_name_chars`, `name_matches_directory`, ...) do not apply to it.
///
/// Within one root the loose files that are always on come first, then the other loose
/// files, then the pattern's matches, each group in path order. With `clash = "first-wins"`
/// the first root and group holding a name win, and a name repeated within that group is
/// settled as a Python dict settles a key written twice: the later file wins and takes the
/// earlier one's place.
/// A loose file that is always on is loaded but never listed to the model: the host puts its
/// whole body in the system prompt instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loose {
    /// Glob relative to each root, e.g. `**/*.md` (`*` does not cross `/`, `**` does).
    pub pattern: String,
    /// File names that are never loose skills (exact case), e.g. `README.md`.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// File names that are never loose skills, in any case, e.g. `skill.md`.
    #[serde(default)]
    pub exclude_any_case: Vec<String>,
    /// A file inside a directory of the root that holds a match of the root's pattern (a
    /// skill directory) is not a loose skill.
    #[serde(default)]
    pub skip_skill_dirs: bool,
    /// Look for loose files inside symlinked directories (Python's `rglob` does not enter
    /// them; a linked file is still found).
    #[serde(default)]
    pub follow_links: bool,
    /// File names (any case) whose file is taken whole, frontmatter unread, as an always-on
    /// skill of a fixed name, e.g. `"agents.md" = "agents"`.
    #[serde(default)]
    pub whole: BTreeMap<String, String>,
    /// Keys whose value, when set and not empty (as Python tests truth), makes a loose file
    /// on demand rather than always on, e.g. `triggers`. `paths` counts as set when it names
    /// at least one glob.
    #[serde(default)]
    pub on_demand: Vec<String>,
    /// Keys that make a loose file on demand whatever their value, e.g. `inputs`.
    #[serde(default)]
    pub on_demand_if_present: Vec<String>,
    /// Keys whose value must have a type in a loose file, besides `field_rules`, e.g.
    /// `mcp_tools = "map-or-null"`.
    #[serde(default)]
    pub field_rules: BTreeMap<String, FieldRule>,
}

/// Which reader a plugin registry file needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegistryFormat {
    /// `installed_plugins.json`: `{"version": 2, "plugins": {"plugin@marketplace":
    /// [{"scope", "projectPath"?, "installPath", ...}]}}` (version 1: one object per plugin).
    InstalledPlugins,
    /// Codex's `config.toml`: `[plugins."plugin@marketplace"]` tables (`enabled`, default
    /// `true`) in the user's file alone; each plugin lives in
    /// `<config dir>/plugins/cache/<marketplace>/<plugin>/<version>`, the version being
    /// `local` when present, else the highest (semver, else text order).
    CodexConfig,
    /// GitHub Copilot CLI's `settings.json` (the registry file itself): first the plugins
    /// `config.json` beside it records in `installedPlugins` (copies, `enabled` not `false`,
    /// from `cache_path`), then each `directory` marketplace of `extraKnownMarketplaces` (its
    /// `.plugin/`, `.github/plugin/` or `.claude-plugin/marketplace.json`), its plugins in
    /// the marketplace's order, read in place, when `enabled_key` says `true`.
    CopilotSettings,
}

/// The plugins a host loads skills from: those its registry file records as installed for a
/// scope that applies to the project, and that the settings key `enabled_key` of the
/// profile's `[settings]` files switches on (the rules are in `core/src/discover/registry.rs`).
/// With `read_host_settings` off no plugin is enabled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginRegistry {
    pub format: RegistryFormat,
    /// Path template of the registry file.
    pub file: String,
    /// The manifest inside a plugin, relative to its install directory: its `name` names
    /// the plugin's skills (`name:skill`) and its `skills` paths add skill directories.
    pub manifest: String,
    /// Manifests tried in order when `manifest` is absent (Codex also reads
    /// `.claude-plugin/plugin.json` and `.cursor-plugin/plugin.json`).
    #[serde(default)]
    pub fallback_manifests: Vec<String>,
    /// The skills directory every plugin has, relative to its install directory.
    pub skills: String,
    /// The settings key mapping `plugin@marketplace` to `true`/`false` (`codex-config`: the
    /// key inside each plugin's table).
    pub enabled_key: String,
    /// How many of the first `[settings]` files are managed policy: their entries win over
    /// every other file's (the others merge in order, a later file winning).
    #[serde(default)]
    pub managed_settings: usize,
    /// Whether skills are named `plugin:skill` (Claude Code, Codex); `false`: by their bare
    /// names, the plugin's skills then clashing with every other source's (Copilot CLI).
    #[serde(default = "yes")]
    pub namespace: bool,
    /// Whether a manifest's `skills` paths replace the `skills` directory (Copilot CLI)
    /// rather than add to it (Claude Code, Codex).
    #[serde(default)]
    pub manifest_skills_replace: bool,
}

fn yes() -> bool {
    true
}

/// What a host's schema accepts for one frontmatter key; any other value refuses the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldRule {
    /// A YAML string or null (pydantic `str | None`).
    TextOrNull,
    /// A mapping or null.
    MapOrNull,
    /// A mapping; null is refused too (serde_yaml reads no null into a map: Goose).
    Map,
    /// Null, a string, a list of strings, or a mapping (taken as its keys).
    TextOrTexts,
    /// pydantic's lax `bool`: a boolean, 0 or 1, or `true`/`false`/`yes`/`no`/`on`/`off`/
    /// `t`/`f`/`y`/`n`/`1`/`0` in any case; null is refused.
    LaxBool,
    /// Null, a string or a list of anything (OpenHands' `allowed-tools`: a mapping is
    /// refused, list items are turned into text).
    TextOrList,
    /// A list of anything; null is refused (OpenHands' `triggers`, `inputs`).
    List,
    /// Anything but a list holding a value that is not a string (OpenHands' `triggers`
    /// items, checked by pydantic after the SDK checked it is a list).
    TextsIfList,
    /// Anything but null (OpenHands turns a null `name` into the text `None`, which no name
    /// rule takes, instead of falling back to the directory name).
    NotNull,
    /// A YAML boolean or null (Cline's `disabled`/`enabled`: anything else throws).
    BoolOrNull,
    /// A YAML boolean; null is refused too (Copilot CLI's `user-invocable`).
    Bool,
    /// A string or a list of strings; null is refused (Copilot CLI's `allowed-tools`).
    Texts,
}

impl FieldRule {
    pub fn accepts(self, key: &crate::parse::KeyInfo) -> bool {
        use crate::parse::ValueKind as K;
        match self {
            FieldRule::TextOrNull => matches!(key.kind, K::String | K::Null),
            FieldRule::MapOrNull => matches!(key.kind, K::Map | K::Null),
            FieldRule::Map => key.kind == K::Map,
            FieldRule::TextOrTexts => key.texts,
            FieldRule::LaxBool => key.lax_bool,
            FieldRule::NotNull => key.kind != K::Null,
            FieldRule::BoolOrNull => matches!(key.kind, K::Bool | K::Null),
            FieldRule::Bool => key.kind == K::Bool,
            FieldRule::Texts => key.kind == K::String || (key.kind == K::List && key.texts),
            FieldRule::TextOrList => matches!(key.kind, K::String | K::Null | K::List),
            FieldRule::List => key.kind == K::List,
            FieldRule::TextsIfList => key.kind != K::List || key.texts,
        }
    }

    /// What the rule accepts, for messages ("text", "a mapping", ...).
    pub fn what(self) -> &'static str {
        match self {
            FieldRule::TextOrNull => "text",
            FieldRule::MapOrNull | FieldRule::Map => "a mapping",
            FieldRule::TextOrTexts | FieldRule::Texts => "text or a list of text",
            FieldRule::LaxBool | FieldRule::BoolOrNull | FieldRule::Bool => "true or false",
            FieldRule::NotNull => "set (it is null)",
            FieldRule::TextOrList => "text or a list",
            FieldRule::List => "a list",
            FieldRule::TextsIfList => "a list of text",
        }
    }

    /// The message for a key whose value this rule refuses.
    pub fn refusal(self, profile: &str, key: &str) -> String {
        format!(
            "profile `{profile}` refuses a `{key}` that is not {}",
            self.what()
        )
    }
}

/// Failures of one file that make the host drop every skill of the root the file is in
/// (OpenHands: `load_skills_from_dir` catches only its own errors per file; any other
/// exception, e.g. pydantic's `ValidationError` for a `description` that is not text or a
/// `UnicodeDecodeError`, escapes to the caller, which then loads nothing from that
/// directory). The file gets a `refuses-root` error and every other skill of the root a
/// `root-refused` error naming it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RefuseRoot {
    /// Diagnostic codes (errors that refuse the file) that refuse the whole root too,
    /// whatever else is wrong with the file, e.g. `invalid-utf8` (the host fails reading it,
    /// before anything else).
    pub codes: Vec<String>,
    /// Keys whose value must have a type, else the whole root is refused, e.g.
    /// `description = "text-or-null"`. Checked after every other rule: a file that also
    /// fails another way is refused alone (the host's own per-file errors come first).
    pub fields: BTreeMap<String, FieldRule>,
}

/// Characters of a skill's name that the host replaces (Gemini CLI: `:\/<>*?"|` by `-`;
/// Copilot CLI: the name trimmed, then each run of spaces by one `-`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameReplace {
    /// Every one of these characters is replaced.
    pub chars: String,
    /// By this text.
    pub with: String,
    /// Whitespace at both ends is removed first.
    #[serde(default)]
    pub trim: bool,
    /// A run of listed characters is replaced once, not once per character.
    #[serde(default)]
    pub collapse: bool,
}

impl NameReplace {
    pub fn apply(&self, name: &str) -> String {
        let name = if self.trim { name.trim() } else { name };
        let mut out = String::with_capacity(name.len());
        let mut in_run = false;
        for c in name.chars() {
            if self.chars.contains(c) {
                if !(self.collapse && in_run) {
                    out.push_str(&self.with);
                }
                in_run = true;
            } else {
                out.push(c);
                in_run = false;
            }
        }
        out
    }
}

/// The characters a host allows in a name (Copilot CLI: an ASCII letter or digit first, then
/// ASCII letters, digits, `-`, `_`, `.`, `:` and spaces). Each is a character class written
/// as in a regular expression without the brackets: single characters and ranges `a-z`; a
/// `-` first or last is itself. The name is checked with both ends trimmed; a present but
/// blank name fails, and so does a directory name used instead of a missing one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameChars {
    /// The class of the first character.
    pub first: String,
    /// The class of every other character.
    pub rest: String,
}

impl NameChars {
    fn in_class(class: &str, c: char) -> bool {
        let chars: Vec<char> = class.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                if (chars[i]..=chars[i + 2]).contains(&c) {
                    return true;
                }
                i += 3;
            } else {
                if chars[i] == c {
                    return true;
                }
                i += 1;
            }
        }
        false
    }

    /// Whether `name` (trimmed) is allowed.
    pub fn allows(&self, name: &str) -> bool {
        let mut chars = name.trim().chars();
        match chars.next() {
            Some(first) if Self::in_class(&self.first, first) => {
                chars.all(|c| Self::in_class(&self.rest, c))
            }
            _ => false,
        }
    }
}

/// Skill directories nested below the project directory (Claude Code monorepos).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nested {
    pub scope: Scope,
    /// The path segment that marks a nested skills directory, e.g. `.claude/skills`.
    pub marker: String,
    /// Glob relative to the project directory.
    pub pattern: String,
}

/// Settings files whose `skills.paths` list adds skill roots (OpenCode): the user's files,
/// then, in each directory from the repository root down to the project, the project's
/// (`{dir}` templates). A later file's list replaces an earlier one's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillsPaths {
    #[serde(default)]
    pub user: Vec<String>,
    #[serde(default)]
    pub project: Vec<String>,
}

/// VS Code's `chat.agentSkillsLocations` and `chat.useAgentSkills` (`[skill_locations]`):
/// JSONC settings files, merged in order (a later file's entry for a path replaces an
/// earlier one's). In the map of path → boolean, `false` on one of the profile's own roots,
/// written as the profile writes it without `{project}/` (`.github/skills`) or as `~/...`,
/// switches that root off; any other path set `true` is added (relative: to the project,
/// `~/...`: to the home directory, which makes it a user root), after the profile's roots of
/// its scope. A value that is not a map, or `false` for the switch, leaves no roots at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillLocations {
    /// The key holding the map, e.g. `chat.agentSkillsLocations`.
    pub key: String,
    /// A boolean key that switches skills off when `false`, e.g. `chat.useAgentSkills`.
    #[serde(default)]
    pub switch: Option<String>,
    /// Settings files (path templates), in merge order.
    pub files: Vec<String>,
    /// Glob for the added roots.
    #[serde(default = "default_location_pattern")]
    pub pattern: String,
}

fn default_location_pattern() -> String {
    "*/SKILL.md".to_string()
}

/// Which reader a host's settings files need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingsFormat {
    /// `opencode.json` / `opencode.jsonc`: `permission`, `tools`, `agent`, `skills.enabled`.
    Opencode,
    /// Claude Code `settings.json`: `permissions` (`Skill(...)` entries), `skillOverrides`.
    ClaudeCode,
    /// Codex `config.toml`: `[[skills.config]]`.
    Codex,
}

/// A host's settings files: the reader and the files, read in order (later ones refine
/// earlier ones). Each file is a path template (see the module docs); a template whose
/// variable is unset names no file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostSettings {
    pub format: SettingsFormat,
    pub files: Vec<String>,
}

/// The plugin marker directories every host we reproduce recognises.
pub fn default_plugin_markers() -> Vec<String> {
    [".claude-plugin", ".codex-plugin", ".kode-plugin"]
        .map(String::from)
        .to_vec()
}

/// A host dialect. See the module docs for the path templates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    #[serde(default)]
    pub clash: Clash,
    #[serde(default)]
    pub naming: Naming,
    #[serde(default)]
    pub order: Order,
    /// Default walk rules for every source.
    #[serde(default)]
    pub walk: WalkRules,
    /// A skill without a string `name` is not loaded.
    #[serde(default)]
    pub require_name: bool,
    /// A skill without a string `description` is not loaded.
    #[serde(default)]
    pub require_description: bool,
    /// What YAML types `name` and `description` may have.
    #[serde(default)]
    pub field_types: FieldTypes,
    /// How the host reads a SKILL.md: bytes, fences, YAML rules and repair (`[parse]`).
    #[serde(default)]
    pub parse: crate::parse::Dialect,
    /// How the host evaluates its permission rules when the caller's rules do not say:
    /// `last-match` (OpenCode) or `deny-first` (Claude Code, Kode).
    #[serde(default)]
    pub permissions: crate::permissions::Semantics,
    /// The host's own settings files (permissions, switched-off skills), `[settings]`.
    #[serde(default)]
    pub settings: Option<HostSettings>,
    /// Directories whose `plugin.json` makes their parent a plugin root, whose skills are
    /// named `plugin:skill` (default: `.claude-plugin`, `.codex-plugin`, `.kode-plugin`).
    #[serde(default = "default_plugin_markers")]
    pub plugin_markers: Vec<String>,
    /// Characters of the name the host replaces (after reading it, before clashes).
    #[serde(default)]
    pub name_replace: Option<NameReplace>,
    /// A `name` longer than this many characters is refused.
    #[serde(default)]
    pub max_name_chars: Option<usize>,
    /// The characters a name may hold (see [`NameChars`]); otherwise any.
    #[serde(default)]
    pub name_chars: Option<NameChars>,
    /// A skill without `description` takes the body's text instead: every line that is not
    /// blank and does not start with `#`, trimmed and joined with spaces (Copilot CLI).
    #[serde(default)]
    pub description_from_body: bool,
    /// A skill without a description (absent or empty) keeps the first line of its body that
    /// is neither blank nor a `#` heading, and how many characters follow it, for a render
    /// format that shows that line instead (OpenHands' `to_prompt`). The description itself
    /// stays empty. Read once when the file is parsed, and only for such a skill.
    #[serde(default)]
    pub description_fallback_line: bool,
    /// A `description` longer than this many characters is refused.
    #[serde(default)]
    pub max_description_chars: Option<usize>,
    /// A skill whose `paths` names at least one glob is a path rule: the host injects it
    /// when a matching file is touched and never lists it to the model (OpenHands' path
    /// triggers switch model invocation off).
    #[serde(default)]
    pub path_rules_unlisted: bool,
    /// Markdown files that are skills by themselves, in every root of `sources` (`[loose]`).
    #[serde(default)]
    pub loose: Option<Loose>,
    /// Every `<...>` tag (a `<`, at least one character that is not `>`, then `>`) is
    /// removed from the description before it is used (VS Code: `sanitizeAgentSkillText`).
    #[serde(default)]
    pub description_strip_tags: bool,
    /// A longer description is cut to this many UTF-16 code units (JavaScript's
    /// `substring`; VS Code cuts at 1024) instead of being refused.
    #[serde(default)]
    pub description_truncate: Option<usize>,
    /// A `name` that does not match this regular expression (Rust `regex` syntax, whole
    /// name) is refused, e.g. `^[a-z0-9]+(-[a-z0-9]+)*$` (Mistral Vibe).
    #[serde(default)]
    pub name_pattern: Option<String>,
    /// Keys whose value must have a type (the host's schema), e.g. `license = "text-or-null"`.
    #[serde(default)]
    pub field_rules: BTreeMap<String, FieldRule>,
    /// A skill whose name (from `name`, else the directory) is not its directory's name is
    /// refused (`name-mismatch`), as OpenHands' `validate_skill_name` does.
    #[serde(default)]
    pub name_matches_directory: bool,
    /// `name` is the host's Python `str()` of the value PyYAML builds for it, when that is
    /// not a YAML string: `name: 0x1f` is `31`, `name: null` is `None`, `name: [a]` is
    /// `['a']` (OpenHands; see `parse::pyyaml`).
    #[serde(default)]
    pub name_python_str: bool,
    /// File failures that empty the whole root (`[refuse_root]`, see [`RefuseRoot`]).
    #[serde(default)]
    pub refuse_root: RefuseRoot,
    /// `disabled: true` in the frontmatter switches a skill off, as `enabled: false` does
    /// everywhere (Cline: the skill stays configured but the model cannot use it).
    #[serde(default)]
    pub frontmatter_disabled: bool,
    /// A skill whose body is blank is refused (Cline); read as the `dash-prefix` fences cut it.
    #[serde(default)]
    pub require_body: bool,
    /// Names clash regardless of case (Cline keys its skills by the lower-cased name).
    #[serde(default)]
    pub clash_fold_case: bool,
    /// Names the host keeps for its own built-in skills: a skill of such a name is refused.
    #[serde(default)]
    pub reserved_names: Vec<String>,
    /// A skill without `description` still loads (with a warning).
    #[serde(default)]
    pub description_optional: bool,
    /// Ancestor walk outside a repository.
    #[serde(default)]
    pub no_repository: NoRepository,
    /// Walk rules for `skills.paths` roots (default: the profile's).
    #[serde(default)]
    pub settings_walk: Option<WalkRules>,
    /// A file starting with a UTF-8 byte-order mark is not loaded.
    #[serde(default)]
    pub reject_bom: bool,
    /// Report locations with the skill directory's symlinks resolved (the file name is kept).
    #[serde(default)]
    pub canonical_locations: bool,
    /// A skill wins over a legacy command of the same name, whatever their order.
    #[serde(default)]
    pub skill_beats_command: bool,
    /// Settings files whose `skills.paths` add skill roots (`[skills_paths]`).
    #[serde(default)]
    pub skills_paths: Option<SkillsPaths>,
    /// Settings that switch the profile's roots off and add others (`[skill_locations]`).
    #[serde(default)]
    pub skill_locations: Option<SkillLocations>,
    #[serde(default)]
    pub sources: Vec<Source>,
    #[serde(default)]
    pub nested: Option<Nested>,
    /// Where an installer puts a skill for this host (`[install]`): the host reads several
    /// roots, so which one receives installs is stated, not guessed.
    #[serde(default)]
    pub install: InstallDirs,
}

/// Where skills are installed for a host: one directory per scope, holding `<name>/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstallDirs {
    /// Relative to the project root (`/`-separated).
    pub project: String,
    /// Relative to the home directory (`/`-separated).
    pub user: String,
}

impl Default for InstallDirs {
    /// `.agents/skills` in both scopes: the directory most hosts read now.
    fn default() -> Self {
        InstallDirs {
            project: ".agents/skills".into(),
            user: ".agents/skills".into(),
        }
    }
}

const BUILTIN: [(&str, &str); 15] = [
    ("universal", include_str!("profiles/universal.toml")),
    ("agentskills", include_str!("profiles/agentskills.toml")),
    ("claude-code", include_str!("profiles/claude-code.toml")),
    ("codex", include_str!("profiles/codex.toml")),
    ("opencode", include_str!("profiles/opencode.toml")),
    ("kode", include_str!("profiles/kode.toml")),
    ("gemini", include_str!("profiles/gemini.toml")),
    ("qwen-code", include_str!("profiles/qwen-code.toml")),
    ("copilot-cli", include_str!("profiles/copilot-cli.toml")),
    ("mistral-vibe", include_str!("profiles/mistral-vibe.toml")),
    ("goose", include_str!("profiles/goose.toml")),
    ("cursor", include_str!("profiles/cursor.toml")),
    ("openhands", include_str!("profiles/openhands.toml")),
    ("cline", include_str!("profiles/cline.toml")),
    ("copilot", include_str!("profiles/copilot.toml")),
];

const PROFILE_HINT: &str =
    "see the built-in profiles in core/src/discover/profiles/ for every key and its values";

/// The dotted key (`walk.hidden`, `sources[1].scope`) of the TOML line `line` (1-based):
/// the table headers above it give the prefix, the `key =` on it the last part.
fn toml_key_at(text: &str, line: usize) -> String {
    let mut table = String::new();
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let header = |l: &str, open: &str, close: &str| {
        l.strip_prefix(open)
            .and_then(|r| r.split(close).next())
            .map(|n| n.trim().to_string())
    };
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        let at_error = i + 1 == line;
        if let Some(name) = header(l, "[[", "]]") {
            let n = counts.entry(name.clone()).or_insert(0);
            *n += 1;
            table = format!("{name}[{}]", *n - 1);
        } else if let Some(name) = header(l, "[", "]") {
            table = name;
        } else if at_error {
            if let Some((key, _)) = l.split_once('=') {
                let key = key.trim().trim_matches('"');
                return if table.is_empty() {
                    key.to_string()
                } else {
                    format!("{table}.{key}")
                };
            }
        }
        if at_error {
            return table;
        }
    }
    table
}

/// The key a JSON error at `line:column` (1-based) is about: serde reports an unknown key
/// just after the key's string, and a wrong type just after the value, whose key is the
/// `"key":` before it.
fn json_key_at(text: &str, line: usize, column: usize) -> String {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else {
        return String::new();
    };
    let mut upto = l.get(..column.min(l.len())).unwrap_or(l).trim_end();
    loop {
        // The last complete string before the position, and what precedes it.
        let Some(body) = upto.strip_suffix('"') else {
            // A number, `true`, `]`...: the key is the string before the last `:`.
            match upto.rfind(':') {
                Some(colon) => {
                    upto = upto[..colon].trim_end();
                    continue;
                }
                None => return String::new(),
            }
        };
        let Some(open) = body.rfind('"') else {
            return String::new();
        };
        let before = body[..open].trim_end();
        if let Some(rest) = before.strip_suffix(':') {
            // That string was a value; its key comes before the colon.
            upto = rest.trim_end();
            continue;
        }
        return body[open + 1..].to_string();
    }
}

impl Profile {
    /// Names of the built-in profiles.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(name, _)| *name)
    }

    /// A built-in profile by name.
    pub fn builtin(name: &str) -> Result<Profile> {
        let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
            let known: Vec<_> = Profile::builtin_names().collect();
            return Err(Error::invalid_options(format!(
                "unknown profile `{name}` (expected one of: {}, or a profile file)",
                known.join(", ")
            )));
        };
        Profile::from_toml(text, Path::new(name))
    }

    /// Read a custom profile: JSON when the file name ends in `.json`, TOML otherwise.
    /// A syntax error, an unknown key or a wrong type is an [`Error::InvalidConfig`] naming
    /// the file, the line and the key: a profile is skilldeck's own format, and a misspelt
    /// key (`hiden = false`) silently falling back to its default would look elsewhere than
    /// the user asked.
    pub fn from_file(path: &Path) -> Result<Profile> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let is_json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        if is_json {
            serde_json::from_str(&text).map_err(|e| {
                let line = u32::try_from(e.line()).ok().filter(|l| *l > 0);
                Error::invalid_config(
                    Some(path),
                    line,
                    json_key_at(&text, e.line(), e.column()),
                    format!("invalid profile: {e}; {PROFILE_HINT}"),
                )
            })
        } else {
            Profile::from_toml(&text, path)
        }
    }

    fn from_toml(text: &str, path: &Path) -> Result<Profile> {
        toml::from_str(text).map_err(|e| {
            let start = e.span().map(|span| span.start.min(text.len()));
            let line = start.map(|start| text[..start].matches('\n').count() + 1);
            Error::invalid_config(
                Some(path),
                line.and_then(|l| u32::try_from(l).ok()),
                line.map(|l| toml_key_at(text, l)).unwrap_or_default(),
                format!(
                    "invalid profile: {}; {PROFILE_HINT}",
                    e.message().trim_end()
                ),
            )
        })
    }

    /// Where a scope ranks in this profile (the order its sources first name it).
    pub fn scope_rank(&self, scope: Scope) -> usize {
        let mut seen = Vec::new();
        for s in &self.sources {
            if !seen.contains(&s.scope) {
                seen.push(s.scope);
            }
        }
        if let Some(nested) = &self.nested {
            if !seen.contains(&nested.scope) {
                seen.push(nested.scope);
            }
        }
        seen.iter()
            .position(|s| *s == scope)
            .unwrap_or(seen.len() + scope as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_names_itself() {
        for name in Profile::builtin_names() {
            let profile = Profile::builtin(name).expect(name);
            assert_eq!(profile.name, name);
            assert!(!profile.sources.is_empty(), "{name} has no sources");
        }
    }

    #[test]
    fn unknown_profile_is_an_options_error() {
        let err = Profile::builtin("vscode").unwrap_err();
        assert_eq!(err.code(), "INVALID_OPTIONS");
    }

    #[test]
    fn custom_profile_from_json_and_toml() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("p.json");
        std::fs::write(
            &json,
            r#"{"name": "mine", "clash": "last-wins", "sources": [{"scope": "project", "paths": ["{project}/skills"]}]}"#,
        )
        .unwrap();
        let p = Profile::from_file(&json).unwrap();
        assert_eq!(p.clash, Clash::LastWins);
        assert_eq!(p.sources[0].pattern, "**/SKILL.md");

        let toml_path = dir.path().join("p.toml");
        std::fs::write(&toml_path, "name = \"x\"\nbogus = 1\n").unwrap();
        let err = Profile::from_file(&toml_path).unwrap_err();
        assert_eq!(err.code(), "INVALID_OPTIONS");
        assert!(err.to_string().contains("bogus"), "{err}");
        assert_eq!(err.line(), Some(2));
    }

    #[test]
    fn profile_errors_name_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let toml_path = dir.path().join("p.toml");
        let text = "name = \"x\"\n[walk]\nhidden = \"yes\"\n[[sources]]\nscope = \"project\"\npaths = []\n[[sources]]\nscope = \"nowhere\"\npaths = []\n";
        std::fs::write(&toml_path, text.replace("nowhere", "user")).unwrap();
        let err = Profile::from_file(&toml_path).unwrap_err();
        match &err {
            Error::InvalidConfig { key, line, .. } => {
                assert_eq!((key.as_str(), *line), ("walk.hidden", Some(3)), "{err}")
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&toml_path, text.replace("\"yes\"", "true")).unwrap();
        let err = Profile::from_file(&toml_path).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidConfig { key, line: Some(8), .. } if key == "sources[1].scope"),
            "{err:?}"
        );
        let json = dir.path().join("p.json");
        std::fs::write(&json, "{\"name\": \"x\",\n \"walk\": {\"hiden\": true}}").unwrap();
        let err = Profile::from_file(&json).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidConfig { key, line: Some(2), .. } if key == "hiden"),
            "{err:?}"
        );
    }

    #[test]
    fn name_replace_maps_every_listed_character() {
        let p = Profile::builtin("gemini").unwrap();
        let replace = p.name_replace.expect("gemini replaces characters");
        assert_eq!(
            replace.apply(r#"a:b/c\d<e>f*g?h"i|j k"#),
            "a-b-c-d-e-f-g-h-i-j k"
        );
        assert!(Profile::builtin("qwen-code")
            .unwrap()
            .name_replace
            .is_none());
    }

    #[test]
    fn copilot_name_rules_check_trim_and_collapse() {
        let p = Profile::builtin("copilot-cli").unwrap();
        let chars = p.name_chars.expect("copilot-cli checks name characters");
        assert!(chars.allows("  A.b_c:d e  "));
        assert!(!chars.allows("_x") && !chars.allows("") && !chars.allows("   "));
        assert!(!chars.allows("a/b") && !chars.allows("tab\tin") && !chars.allows("ünï"));
        let replace = p.name_replace.expect("copilot-cli replaces spaces");
        assert_eq!(replace.apply("  has  space "), "has-space");
        assert!(!p.walk.nested_skills);
    }

    #[test]
    fn mistral_vibe_name_rules_are_data() {
        let p = Profile::builtin("mistral-vibe").unwrap();
        assert_eq!(p.name_pattern.as_deref(), Some("^[a-z0-9]+(-[a-z0-9]+)*$"));
        assert_eq!(
            (p.max_name_chars, p.max_description_chars),
            (Some(64), Some(1024))
        );
        assert_eq!(p.reserved_names, ["vibe", "skill-creator"]);
        assert!(p.parse.yaml_1_1 && p.parse.tab_token_error);
        assert!(Profile::builtin("codex").unwrap().reserved_names.is_empty());
    }

    #[test]
    fn codex_ranks_project_before_user_before_admin() {
        let p = Profile::builtin("codex").unwrap();
        assert!(p.scope_rank(Scope::Project) < p.scope_rank(Scope::User));
        assert!(p.scope_rank(Scope::User) < p.scope_rank(Scope::Admin));
    }
}
