//! Readers for the hosts' own settings files, so a profile honours what the user already
//! configured for that host:
//!
//! - OpenCode `opencode.json` / `opencode.jsonc` (JSON with comments and trailing commas):
//!   `permission` (global and per `agent.<name>.permission`) and `skills.paths`.
//! - Claude Code `settings.json` / `settings.local.json`: `permissions.allow/ask/deny`
//!   (`Skill(...)` entries) and `skillOverrides`.
//! - Codex `config.toml`: `[[skills.config]]` entries (`path` or `name` + `enabled`).
//!
//! Every reader takes the file path explicitly (no environment lookups here). A missing file
//! is `Ok(None)`; a file that cannot be read or parsed is an [`Error`] carrying its path and
//! line, so the caller can turn it into a diagnostic and carry on with the other skills.

mod rules;

pub use rules::HostRules;

use crate::error::{Error, Result};
use crate::permissions::{PermissionRules, Rule, Semantics};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What skilldeck uses from one `opencode.json[c]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpencodeSettings {
    /// Skill permission rules (last match wins): global `permission` first, then each
    /// `agent.<name>.permission` under `agents`.
    pub permission: PermissionRules,
    /// `skills.paths` exactly as written. Resolve them with [`resolve_opencode_path`].
    pub skill_paths: Vec<String>,
    /// `skills.enabled`: skill name -> on/off.
    pub skill_enabled: BTreeMap<String, bool>,
    /// Problems that did not stop the read (e.g. an unknown decision value).
    pub warnings: Vec<String>,
}

/// Resolve one `skills.paths` entry the way OpenCode does: `~/` is the home directory,
/// relative paths are relative to the project directory (OpenCode's working directory).
pub fn resolve_opencode_path(raw: &str, home: &Path, project_dir: &Path) -> PathBuf {
    let expanded = match raw.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None if raw == "~" => home.to_path_buf(),
        None => PathBuf::from(raw),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        project_dir.join(expanded)
    }
}

/// Read an OpenCode config file (`opencode.json` or `opencode.jsonc`).
/// `Ok(None)` when the file does not exist.
pub fn read_opencode(path: &Path) -> Result<Option<OpencodeSettings>> {
    match read_optional(path)? {
        Some(text) => parse_opencode(&text, path).map(Some),
        None => Ok(None),
    }
}

/// Parse the text of an OpenCode config file; `path` is only used in errors.
pub fn parse_opencode(text: &str, path: &Path) -> Result<OpencodeSettings> {
    let value = parse_jsonc(text, path)?;
    let mut settings = OpencodeSettings {
        permission: PermissionRules {
            semantics: Semantics::LastMatch,
            ..PermissionRules::default()
        },
        ..OpencodeSettings::default()
    };
    // The permission rules exactly as OpenCode folds them (`tools`, `permission`, each
    // agent's): the same reader a rules document in OpenCode's shape goes through.
    match value.as_object() {
        Some(doc) => {
            let read = crate::permissions::hosts::opencode_config(doc);
            settings.permission.rules = read.rules;
            settings.permission.agents = read.agents;
            settings
                .warnings
                .extend(read.issues.iter().map(ToString::to_string));
        }
        None => settings.warnings.push(format!(
            "expected a JSON object at the top, found {}",
            crate::permissions::hosts::shown(&value)
        )),
    }
    match value.get("skills").and_then(|s| s.get("paths")) {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for item in items {
                match item.as_str() {
                    Some(s) => settings.skill_paths.push(s.to_string()),
                    None => settings
                        .warnings
                        .push(format!("skills.paths: ignoring non-string entry {item}")),
                }
            }
        }
        Some(other) => settings.warnings.push(format!(
            "skills.paths: expected a list of paths, found {other}"
        )),
    }
    if let Some(enabled) = value.get("skills").and_then(|s| s.get("enabled")) {
        match enabled.as_object() {
            Some(map) => {
                for (name, v) in map {
                    match v.as_bool() {
                        Some(b) => {
                            settings.skill_enabled.insert(name.clone(), b);
                        }
                        None => settings.warnings.push(format!(
                            "skills.enabled.{name}: expected true or false, found {v}"
                        )),
                    }
                }
            }
            None => settings.warnings.push(format!(
                "skills.enabled: expected an object of skill name -> true/false, found {enabled}"
            )),
        }
    }
    Ok(settings)
}

/// Claude Code's per-skill visibility switch (`skillOverrides` in settings.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkillOverride {
    /// Listed normally (the same as no entry).
    On,
    /// Listed by name only, without its description.
    NameOnly,
    /// Hidden from the model; the user can still invoke it.
    UserInvocableOnly,
    /// Not loaded at all.
    Off,
}

impl SkillOverride {
    pub fn parse(s: &str) -> Option<SkillOverride> {
        Some(match s {
            "on" => SkillOverride::On,
            "name-only" => SkillOverride::NameOnly,
            "user-invocable-only" => SkillOverride::UserInvocableOnly,
            "off" => SkillOverride::Off,
            _ => return None,
        })
    }
}

/// What skilldeck uses from Claude Code settings files (one file, or several merged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaudeSettings {
    /// `Skill(...)` entries of `permissions.allow/ask/deny` as rules (deny > ask > allow).
    pub rules: Vec<Rule>,
    /// `skillOverrides` by skill name; later files override earlier ones.
    pub skill_overrides: BTreeMap<String, SkillOverride>,
    pub warnings: Vec<String>,
}

impl ClaudeSettings {
    /// Merge `other` (a more specific file) into this one: rules accumulate (order does not
    /// matter under deny-first), overrides replace.
    pub fn merge(&mut self, other: ClaudeSettings) {
        self.rules.extend(other.rules);
        self.skill_overrides.extend(other.skill_overrides);
        self.warnings.extend(other.warnings);
    }

    /// The rules as a deny-first rule set.
    pub fn permission_rules(&self) -> PermissionRules {
        PermissionRules {
            semantics: Semantics::DenyFirst,
            rules: self.rules.clone(),
            agents: BTreeMap::new(),
        }
    }
}

/// Read one Claude Code settings file. `Ok(None)` when it does not exist.
pub fn read_claude(path: &Path) -> Result<Option<ClaudeSettings>> {
    match read_optional(path)? {
        Some(text) => parse_claude(&text, path).map(Some),
        None => Ok(None),
    }
}

/// Parse the text of a Claude Code settings file; `path` is only used in errors.
pub fn parse_claude(text: &str, path: &Path) -> Result<ClaudeSettings> {
    // Claude Code writes plain JSON, but hand-edited files sometimes carry comments.
    let value = parse_jsonc(text, path)?;
    let mut settings = ClaudeSettings::default();
    if let Some(permissions) = value.get("permissions") {
        let at = crate::permissions::KeyPath::root().key("permissions");
        let (rules, issues) = crate::permissions::hosts::claude_permissions(permissions, &at);
        settings.rules = rules;
        settings
            .warnings
            .extend(issues.iter().map(ToString::to_string));
    }
    let overrides = match value.get("skillOverrides") {
        None | Some(Value::Null) => None,
        Some(Value::Object(map)) => Some(map),
        Some(other) => {
            settings.warnings.push(format!(
                "skillOverrides: expected an object of skill name -> on, name-only, user-invocable-only or off, found {}",
                crate::permissions::hosts::shown(other)
            ));
            None
        }
    };
    if let Some(overrides) = overrides {
        for (name, v) in overrides {
            match v.as_str().and_then(SkillOverride::parse) {
                Some(o) => {
                    settings.skill_overrides.insert(name.clone(), o);
                }
                None => settings.warnings.push(format!(
                    "skillOverrides.{name}: expected on, name-only, user-invocable-only or off, found {v}"
                )),
            }
        }
    }
    Ok(settings)
}

/// One `[[skills.config]]` entry of Codex's `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodexSkillConfig {
    /// Path of a SKILL.md (or its directory); `~/` expanded against the home directory.
    pub path: Option<PathBuf>,
    pub name: Option<String>,
    pub enabled: bool,
}

/// What skilldeck uses from a Codex `config.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodexSettings {
    pub skills: Vec<CodexSkillConfig>,
    pub warnings: Vec<String>,
}

/// Read a Codex `config.toml`. `Ok(None)` when it does not exist. `home` expands `~/`.
pub fn read_codex(path: &Path, home: &Path) -> Result<Option<CodexSettings>> {
    match read_optional(path)? {
        Some(text) => parse_codex(&text, path, home).map(Some),
        None => Ok(None),
    }
}

/// Parse the text of a Codex `config.toml`; `path` is used in errors and to resolve relative
/// skill paths (relative to the file's directory).
pub fn parse_codex(text: &str, path: &Path, home: &Path) -> Result<CodexSettings> {
    let table: toml::Table = toml::from_str(text).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: e.span().map(|s| line_of(text, s.start)),
        message: format!("{}; fix the TOML syntax", e.message()),
    })?;
    let mut settings = CodexSettings::default();
    let entries = table
        .get("skills")
        .and_then(|s| s.get("config"))
        .and_then(toml::Value::as_array);
    let base = path.parent().unwrap_or(Path::new(""));
    for (i, entry) in entries.into_iter().flatten().enumerate() {
        let path = entry
            .get("path")
            .and_then(toml::Value::as_str)
            .map(|p| resolve_opencode_path(p, home, base));
        let name = entry
            .get("name")
            .and_then(toml::Value::as_str)
            .map(str::to_string);
        if path.is_none() && name.is_none() {
            settings.warnings.push(format!(
                "skills.config[{i}]: needs `path` or `name`; entry ignored"
            ));
            continue;
        }
        let enabled = match entry.get("enabled") {
            None => true,
            Some(v) => match v.as_bool() {
                Some(b) => b,
                None => {
                    settings.warnings.push(format!(
                        "skills.config[{i}].enabled: expected true or false; entry ignored"
                    ));
                    continue;
                }
            },
        };
        settings.skills.push(CodexSkillConfig {
            path,
            name,
            enabled,
        });
    }
    Ok(settings)
}

fn read_optional(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

fn line_of(text: &str, byte: usize) -> u32 {
    let upto = text.get(..byte).unwrap_or(text);
    u32::try_from(upto.matches('\n').count() + 1).unwrap_or(u32::MAX)
}

/// Parse JSON with comments and trailing commas (JSONC), reporting errors at the right line.
pub fn parse_jsonc(text: &str, path: &Path) -> Result<Value> {
    let clean = strip_jsonc(text.strip_prefix('\u{feff}').unwrap_or(text));
    serde_json::from_str(&clean).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: u32::try_from(e.line()).ok().filter(|l| *l > 0),
        message: format!("{e}; fix the JSON syntax"),
    })
}

/// Turn JSONC into JSON: `//` and `/* */` comments become spaces (newlines kept, so line
/// numbers in errors still point into the original file) and commas directly before `}` or
/// `]` are dropped. String contents are never touched.
pub fn strip_jsonc(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    // Byte index in `out` of a comma that may turn out to be trailing.
    let mut pending_comma: Option<usize> = None;
    // Last significant character, so `{,}` and `[1,,]` stay errors instead of being "fixed".
    let mut last = ' ';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                pending_comma = None;
                last = '"';
                out.push(c);
                i += 1;
                while i < chars.len() {
                    let s = chars[i];
                    out.push(s);
                    i += 1;
                    if s == '\\' {
                        if let Some(&n) = chars.get(i) {
                            out.push(n);
                            i += 1;
                        }
                    } else if s == '"' {
                        break;
                    }
                }
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    out.push(' ');
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                out.push_str("  ");
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    out.push(if chars[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
                if i < chars.len() {
                    out.push_str("  ");
                    i += 2;
                }
            }
            ',' => {
                pending_comma = if matches!(last, '{' | '[' | ',') {
                    None
                } else {
                    Some(out.len())
                };
                last = ',';
                out.push(c);
                i += 1;
            }
            '}' | ']' => {
                if let Some(at) = pending_comma.take() {
                    out.replace_range(at..at + 1, " ");
                }
                last = c;
                out.push(c);
                i += 1;
            }
            c if c.is_whitespace() => {
                out.push(c);
                i += 1;
            }
            _ => {
                pending_comma = None;
                last = c;
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permissions::Decision;

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let text = "{\n // c\n \"a\": \"x // not a comment\", /* b\n */ \"b\": [1, 2,],\n}\n";
        let v = parse_jsonc(text, Path::new("x.jsonc")).expect("valid jsonc");
        assert_eq!(v["a"], "x // not a comment");
        assert_eq!(v["b"], serde_json::json!([1, 2]));
        for broken in ["{,}", "[1,,]", "{\"a\": [,]}"] {
            assert!(parse_jsonc(broken, Path::new("x")).is_err(), "{broken}");
        }
    }

    #[test]
    fn jsonc_error_line() {
        let err = parse_jsonc("{\n// c\n\"a\": @\n}", Path::new("o.json")).unwrap_err();
        match err {
            Error::Parse { line, .. } => assert_eq!(line, Some(3)),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn opencode_settings() {
        let text = r#"{
          // global rules
          "permission": {"skill": {"*": "allow", "internal-*": "deny"}},
          "agent": {"plan": {"permission": {"skill": "deny"}}},
          "skills": {"paths": ["~/shared-skills", "vendor/skills", 3], "enabled": {"old": false}},
        }"#;
        let s = parse_opencode(text, Path::new("opencode.jsonc")).expect("parses");
        assert_eq!(s.permission.rules.len(), 2);
        assert_eq!(
            s.permission.agents["plan"],
            vec![Rule::new("*", Decision::Deny)]
        );
        assert_eq!(s.skill_paths, vec!["~/shared-skills", "vendor/skills"]);
        assert_eq!(s.skill_enabled.get("old"), Some(&false));
        assert_eq!(s.warnings.len(), 1);
        assert_eq!(
            resolve_opencode_path(&s.skill_paths[0], Path::new("/h"), Path::new("/p")),
            PathBuf::from("/h/shared-skills")
        );
        assert_eq!(
            resolve_opencode_path(&s.skill_paths[1], Path::new("/h"), Path::new("/p")),
            PathBuf::from("/p/vendor/skills")
        );
    }

    #[test]
    fn claude_settings() {
        let text = r#"{"permissions": {"allow": ["Skill(pdf)", "Read"], "deny": ["Skill(secret:*)"]},
                       "skillOverrides": {"pdf": "name-only", "x": "sometimes"}}"#;
        let s = parse_claude(text, Path::new("settings.json")).expect("parses");
        assert_eq!(
            s.rules,
            vec![
                Rule::new("pdf", Decision::Allow),
                Rule::new("secret:*", Decision::Deny)
            ]
        );
        assert_eq!(s.skill_overrides["pdf"], SkillOverride::NameOnly);
        assert_eq!(s.warnings.len(), 1);
    }

    #[test]
    fn codex_settings() {
        let text = "model = \"o3\"\n[[skills.config]]\npath = \"~/s/pdf/SKILL.md\"\nenabled = false\n[[skills.config]]\nname = \"lint\"\n[[skills.config]]\nenabled = true\n";
        let s = parse_codex(text, Path::new("/c/config.toml"), Path::new("/h")).expect("parses");
        assert_eq!(s.skills.len(), 2);
        assert_eq!(s.skills[0].path, Some(PathBuf::from("/h/s/pdf/SKILL.md")));
        assert!(!s.skills[0].enabled);
        assert_eq!(s.skills[1].name.as_deref(), Some("lint"));
        assert!(s.skills[1].enabled);
        assert_eq!(s.warnings.len(), 1);
        let err = parse_codex("a = \n", Path::new("c.toml"), Path::new("/h")).unwrap_err();
        assert_eq!(err.code(), "PARSE_ERROR");
    }

    #[test]
    fn missing_file_is_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(
            read_opencode(&dir.path().join("opencode.json")).ok(),
            Some(None)
        );
    }
}
