//! Rules documents: permission rules as a caller hands them to skilldeck (a `--rules` file,
//! the `rules` option of every binding, `DeckOptions.rules` in JSON). Three shapes, told
//! apart by their top-level keys:
//!
//! - skilldeck's own: `{"semantics": "last-match" | "deny-first", "rules": [{"pattern",
//!   "decision"}], "agents": {"name": [rules]}}` — the canonical form every binding prints;
//! - OpenCode's, as in `opencode.json`: `{"permission": {"skill": {"*": "allow",
//!   "internal-*": "deny"}}}` or `{"permission": {"skill": "deny"}}`, plus the host's
//!   legacy `tools` booleans and per-agent `agent.<name>.permission`; last match wins;
//! - Claude Code's, as in `settings.json`: `{"permissions": {"allow": ["Skill(pdf)"],
//!   "ask": [...], "deny": ["Skill(internal:*)"]}}`; deny > ask > allow.
//!
//! These documents are skilldeck's own input, so they are read strictly: an unknown key, a
//! wrong type, a document of no known shape or one mixing shapes is an error naming the key
//! (and the line, for text) — never ignored, because a rule nobody reads leaves a skill the
//! user believes denied exposed. The host's own settings files are read leniently instead
//! (`host_settings`), through the same per-host readers ([`super::hosts`]).

use super::hosts::{self, Issue, KeyPath, Seg};
use super::{Decision, PermissionRules, Rule, Semantics};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Which shape a rules document was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Skilldeck,
    Opencode,
    ClaudeCode,
}

impl Shape {
    fn label(self) -> &'static str {
        match self {
            Shape::Skilldeck => "skilldeck's",
            Shape::Opencode => "OpenCode's",
            Shape::ClaudeCode => "Claude Code's",
        }
    }

    /// The top-level keys that mark the shape.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Shape::Skilldeck => &["semantics", "rules", "agents"],
            Shape::Opencode => &["permission", "tools", "agent"],
            Shape::ClaudeCode => &["permissions"],
        }
    }
}

const SHAPES: [Shape; 3] = [Shape::Skilldeck, Shape::Opencode, Shape::ClaudeCode];

/// A key any shape may carry: editors add it to JSON files they validate.
const SCHEMA_KEY: &str = "$schema";

/// What every error about the document's shape ends with.
pub const ACCEPTED_SHAPES: &str = "a rules document is one of: skilldeck's \
    {\"semantics\": \"last-match\" | \"deny-first\", \"rules\": [{\"pattern\": \"*\", \"decision\": \"allow\" | \"ask\" | \"deny\"}], \"agents\": {\"name\": [rules]}}, \
    OpenCode's {\"permission\": {\"skill\": {\"pattern\": \"allow\" | \"ask\" | \"deny\"}}} \
    or Claude Code's {\"permissions\": {\"allow\": [\"Skill(name)\"], \"ask\": [], \"deny\": [\"Skill(prefix:*)\"]}}";

impl PermissionRules {
    /// Rules from a rules document given as a value (a binding's dict or object, JSON
    /// options). See the module docs for the accepted shapes.
    pub fn from_value(value: &Value) -> Result<PermissionRules> {
        read(value)
            .map(|(_, rules)| rules)
            .map_err(|issue| to_error(issue, None, None))
    }

    /// Rules from the text of a rules document (JSON; comments and trailing commas are
    /// allowed, as in `opencode.jsonc`). `path` names the file in errors, which also carry
    /// the line of the offending key.
    pub fn from_json_str(text: &str, path: Option<&Path>) -> Result<PermissionRules> {
        let clean =
            crate::host_settings::strip_jsonc(text.strip_prefix('\u{feff}').unwrap_or(text));
        let value: Value = serde_json::from_str(&clean).map_err(|e| {
            Error::invalid_config(
                path,
                u32::try_from(e.line()).ok().filter(|l| *l > 0),
                "",
                format!("not valid JSON ({e}); fix the syntax"),
            )
        })?;
        read(&value).map(|(_, rules)| rules).map_err(|issue| {
            let line = line_of(&clean, &issue.path.0);
            to_error(issue, path, line)
        })
    }

    /// Rules from a rules document file (`--rules FILE`).
    pub fn from_file(path: &Path) -> Result<PermissionRules> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        PermissionRules::from_json_str(&text, Some(path))
    }
}

/// The canonical form deserialises as before; the hosts' shapes are accepted wherever
/// rules are read from serde (e.g. `DeckOptions` in JSON), with the same strictness.
impl<'de> serde::Deserialize<'de> for PermissionRules {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        read(&value)
            .map(|(_, rules)| rules)
            .map_err(|issue| serde::de::Error::custom(rules_issue_message(&issue)))
    }
}

fn rules_issue_message(issue: &Issue) -> String {
    if issue.path.0.is_empty() {
        format!("rules: {}", issue.message)
    } else {
        format!("rules.{}: {}", issue.path, issue.message)
    }
}

fn to_error(issue: Issue, path: Option<&Path>, line: Option<u32>) -> Error {
    Error::invalid_config(path, line, issue.path.to_string(), issue.message)
}

/// Read a rules document: its shape and its rules, or the first problem found.
pub fn read(value: &Value) -> std::result::Result<(Shape, PermissionRules), Issue> {
    let root = KeyPath::root();
    let Some(map) = value.as_object() else {
        return Err(Issue::new(
            root,
            format!(
                "expected a JSON object, found {}; {ACCEPTED_SHAPES}",
                hosts::shown(value)
            ),
        ));
    };
    let found: Vec<(Shape, &str)> = SHAPES
        .iter()
        .filter_map(|&shape| {
            shape
                .keys()
                .iter()
                .find(|k| map.contains_key(**k))
                .map(|k| (shape, *k))
        })
        .collect();
    let shape = match found.as_slice() {
        [(shape, _)] => *shape,
        [] => match map.keys().find(|k| *k != SCHEMA_KEY) {
            // `{}` is the empty rule set, as it always was.
            None if map.is_empty() => Shape::Skilldeck,
            None => {
                return Err(Issue::new(
                    root,
                    format!("no rules in this document; {ACCEPTED_SHAPES}"),
                ))
            }
            Some(key) => return Err(unknown_top_key(key, None)),
        },
        several => {
            let named: Vec<String> = several
                .iter()
                .map(|(shape, key)| {
                    format!("`{key}` ({} shape)", shape.label().trim_end_matches("'s"))
                })
                .collect();
            return Err(Issue::new(
                root,
                format!(
                    "mixes shapes: {}; write one shape per document ({ACCEPTED_SHAPES})",
                    named.join(" with ")
                ),
            ));
        }
    };
    if let Some(key) = map
        .keys()
        .find(|k| *k != SCHEMA_KEY && !shape.keys().contains(&k.as_str()))
    {
        return Err(unknown_top_key(key, Some(shape)));
    }
    let rules = match shape {
        Shape::Skilldeck => read_skilldeck(map)?,
        Shape::Opencode => read_opencode(map)?,
        Shape::ClaudeCode => read_claude(map)?,
    };
    Ok((shape, rules))
}

fn unknown_top_key(key: &str, shape: Option<Shape>) -> Issue {
    let mut message = match shape {
        Some(shape) => format!(
            "unknown key in {} rules document (its keys: {}{}); ",
            shape.label(),
            shape
                .keys()
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if shape == Shape::Opencode {
                "; other opencode.json settings do not belong in a rules file"
            } else if shape == Shape::ClaudeCode {
                "; other settings.json settings do not belong in a rules file"
            } else {
                ""
            }
        ),
        None => "unknown key; ".to_string(),
    };
    if key == "skill" {
        message.push_str(
            "OpenCode's skill rules go inside `permission`: {\"permission\": {\"skill\": {...}}}; ",
        );
    } else if key == "allow" || key == "ask" || key == "deny" {
        message.push_str(&format!(
            "Claude Code's lists go inside `permissions`: {{\"permissions\": {{\"{key}\": [...]}}}}; "
        ));
    }
    message.push_str(ACCEPTED_SHAPES);
    Issue::new(KeyPath::root().key(key), message)
}

fn read_skilldeck(map: &Map<String, Value>) -> std::result::Result<PermissionRules, Issue> {
    let root = KeyPath::root();
    let mut rules = PermissionRules::default();
    if let Some(value) = map.get("semantics") {
        rules.semantics = match value.as_str() {
            Some("last-match") => Semantics::LastMatch,
            Some("deny-first") => Semantics::DenyFirst,
            _ => {
                return Err(Issue::new(
                    root.key("semantics"),
                    format!(
                        "expected \"last-match\" (OpenCode: the last matching rule decides) or \"deny-first\" (Claude Code: deny > ask > allow), found {}",
                        hosts::shown(value)
                    ),
                ))
            }
        };
    }
    if let Some(value) = map.get("rules") {
        rules.rules = rule_list(value, &root.key("rules"))?;
    }
    if let Some(value) = map.get("agents") {
        let at = root.key("agents");
        let Some(agents) = value.as_object() else {
            return Err(Issue::new(
                at,
                format!(
                    "expected an object of agent name -> list of rules, found {}",
                    hosts::shown(value)
                ),
            ));
        };
        let mut out = BTreeMap::new();
        for (name, list) in agents {
            out.insert(name.clone(), rule_list(list, &at.key(name))?);
        }
        rules.agents = out;
    }
    Ok(rules)
}

const RULE_SHAPE: &str =
    "a rule is {\"pattern\": \"internal-*\", \"decision\": \"allow\" | \"ask\" | \"deny\"}";

fn rule_list(value: &Value, at: &KeyPath) -> std::result::Result<Vec<Rule>, Issue> {
    let Some(items) = value.as_array() else {
        return Err(Issue::new(
            at.clone(),
            format!(
                "expected a list of rules, found {}; {RULE_SHAPE}",
                hosts::shown(value)
            ),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| rule(item, &at.index(i)))
        .collect()
}

fn rule(value: &Value, at: &KeyPath) -> std::result::Result<Rule, Issue> {
    let Some(map) = value.as_object() else {
        return Err(Issue::new(
            at.clone(),
            format!(
                "expected a rule object, found {}; {RULE_SHAPE}",
                hosts::shown(value)
            ),
        ));
    };
    if let Some(key) = map.keys().find(|k| *k != "pattern" && *k != "decision") {
        return Err(Issue::new(
            at.key(key),
            format!("unknown key in a rule; {RULE_SHAPE}"),
        ));
    }
    let pattern = match map.get("pattern") {
        Some(Value::String(p)) => p.clone(),
        Some(other) => {
            return Err(Issue::new(
                at.key("pattern"),
                format!(
                    "expected a string pattern (`*` and `?` wildcards), found {}",
                    hosts::shown(other)
                ),
            ))
        }
        None => {
            return Err(Issue::new(
                at.clone(),
                format!("missing `pattern`; {RULE_SHAPE}"),
            ))
        }
    };
    let decision = match map.get("decision") {
        Some(v) => v.as_str().and_then(Decision::parse).ok_or_else(|| {
            Issue::new(
                at.key("decision"),
                format!(
                    "expected \"allow\", \"ask\" or \"deny\", found {}",
                    hosts::shown(v)
                ),
            )
        })?,
        None => {
            return Err(Issue::new(
                at.clone(),
                format!("missing `decision`; {RULE_SHAPE}"),
            ))
        }
    };
    Ok(Rule { pattern, decision })
}

fn read_opencode(map: &Map<String, Value>) -> std::result::Result<PermissionRules, Issue> {
    // Keys the host files under an agent's `options` would be ignored by it, and a
    // misspelt `permission` among them would deny nothing: refuse them here.
    if let Some(Value::Object(agents)) = map.get("agent") {
        for (name, agent) in agents {
            if let Some(key) = agent.as_object().and_then(|a| {
                a.keys()
                    .find(|k| !hosts::OPENCODE_AGENT_KEYS.contains(&k.as_str()))
            }) {
                return Err(Issue::new(
                    KeyPath::root().key("agent").key(name).key(key),
                    "unknown key in an OpenCode agent; its skill rules go in `permission` (or the legacy `tools`)",
                ));
            }
        }
    }
    let read = hosts::opencode_config(map);
    if let Some(issue) = read.issues.into_iter().next() {
        return Err(issue);
    }
    Ok(PermissionRules {
        semantics: Semantics::LastMatch,
        rules: read.rules,
        agents: read.agents,
    })
}

fn read_claude(map: &Map<String, Value>) -> std::result::Result<PermissionRules, Issue> {
    let at = KeyPath::root().key("permissions");
    let permissions = map.get("permissions").unwrap_or(&Value::Null);
    if let Some(key) = permissions.as_object().and_then(|p| {
        p.keys()
            .find(|k| !hosts::CLAUDE_PERMISSIONS_KEYS.contains(&k.as_str()))
    }) {
        return Err(Issue::new(
            at.key(key),
            "unknown key in Claude Code's `permissions`; skill rules go in its `allow`, `ask` and `deny` lists",
        ));
    }
    let (rules, issues) = hosts::claude_permissions(permissions, &at);
    if let Some(issue) = issues.into_iter().next() {
        return Err(issue);
    }
    Ok(PermissionRules {
        semantics: Semantics::DenyFirst,
        rules,
        agents: BTreeMap::new(),
    })
}

/// The 1-based line of the member at `path` in JSON `text` (the line of its key, or of the
/// element for a list index). `None` when the text does not hold it (e.g. a value given
/// by a binding has no text).
pub fn line_of(text: &str, path: &[Seg]) -> Option<u32> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let offset = locate(bytes, &mut at, path)?;
    let upto = text.get(..offset)?;
    u32::try_from(upto.matches('\n').count() + 1).ok()
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

/// The string starting at `b[*i] == '"'`, decoded.
fn read_string(b: &[u8], i: &mut usize) -> Option<String> {
    let start = *i;
    if b.get(*i) != Some(&b'"') {
        return None;
    }
    *i += 1;
    while *i < b.len() {
        match b[*i] {
            b'\\' => *i += 2,
            b'"' => {
                *i += 1;
                let raw = std::str::from_utf8(b.get(start..*i)?).ok()?;
                return serde_json::from_str(raw).ok();
            }
            _ => *i += 1,
        }
    }
    None
}

fn skip_value(b: &[u8], i: &mut usize) -> Option<()> {
    skip_ws(b, i);
    match b.get(*i)? {
        b'"' => read_string(b, i).map(|_| ()),
        b'{' | b'[' => {
            let mut depth = 0usize;
            while *i < b.len() {
                match b[*i] {
                    b'"' => {
                        read_string(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            *i += 1;
                            return Some(());
                        }
                    }
                    _ => {}
                }
                *i += 1;
            }
            None
        }
        _ => {
            while *i < b.len()
                && !matches!(b[*i], b',' | b'}' | b']')
                && !b[*i].is_ascii_whitespace()
            {
                *i += 1;
            }
            Some(())
        }
    }
}

fn locate(b: &[u8], i: &mut usize, path: &[Seg]) -> Option<usize> {
    skip_ws(b, i);
    let Some((first, rest)) = path.split_first() else {
        return Some(*i);
    };
    match first {
        Seg::Key(want) => {
            if b.get(*i) != Some(&b'{') {
                return None;
            }
            *i += 1;
            loop {
                skip_ws(b, i);
                let key_at = *i;
                let key = read_string(b, i)?;
                skip_ws(b, i);
                if b.get(*i) != Some(&b':') {
                    return None;
                }
                *i += 1;
                if key == *want {
                    return if rest.is_empty() {
                        Some(key_at)
                    } else {
                        locate(b, i, rest)
                    };
                }
                skip_value(b, i)?;
                skip_ws(b, i);
                if b.get(*i) != Some(&b',') {
                    return None;
                }
                *i += 1;
            }
        }
        Seg::Index(want) => {
            if b.get(*i) != Some(&b'[') {
                return None;
            }
            *i += 1;
            for _ in 0..*want {
                skip_value(b, i)?;
                skip_ws(b, i);
                if b.get(*i) != Some(&b',') {
                    return None;
                }
                *i += 1;
            }
            locate(b, i, rest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(text: &str) -> Error {
        PermissionRules::from_json_str(text, Some(Path::new("rules.json"))).unwrap_err()
    }

    fn key_and_line(e: &Error) -> (String, Option<u32>) {
        match e {
            Error::InvalidConfig { key, line, .. } => (key.clone(), *line),
            other => panic!("not a config error: {other:?}"),
        }
    }

    #[test]
    fn unknown_top_level_key_fails_closed() {
        let e = err("{\n  \"rulez\": 5\n}\n");
        assert_eq!(e.code(), "INVALID_OPTIONS");
        assert_eq!(key_and_line(&e), ("rulez".to_string(), Some(2)));
        let text = e.to_string();
        assert!(
            text.starts_with("rules.json:2: `rulez`: unknown key"),
            "{text}"
        );
        assert!(text.contains("Claude Code's"), "{text}");
    }

    #[test]
    fn opencode_skill_key_outside_permission_is_explained() {
        let e = err(r#"{"skill": {"internal-*": "deny"}}"#);
        assert!(e.to_string().contains("go inside `permission`"), "{e}");
    }

    #[test]
    fn shapes_are_detected() {
        let r = PermissionRules::from_value(
            &json!({"permission": {"skill": {"*": "allow", "internal-*": "deny"}}}),
        )
        .unwrap();
        assert_eq!(r.semantics, Semantics::LastMatch);
        assert_eq!(r.rules.len(), 2);
        let r = PermissionRules::from_value(&json!({"permission": {"skill": "deny"}})).unwrap();
        assert_eq!(r.rules, vec![Rule::new("*", Decision::Deny)]);
        let r = PermissionRules::from_value(&json!({"$schema": "x", "permissions": {"allow": ["Skill(pdf)", "Bash(ls)"], "deny": ["Skill(internal:*)"], "defaultMode": "plan"}})).unwrap();
        assert_eq!(r.semantics, Semantics::DenyFirst);
        assert_eq!(
            r.rules,
            vec![
                Rule::new("pdf", Decision::Allow),
                Rule::new("internal:*", Decision::Deny)
            ]
        );
        assert_eq!(
            PermissionRules::from_value(&json!({})).unwrap(),
            PermissionRules::default()
        );
    }

    #[test]
    fn mixed_and_shapeless_documents_are_refused() {
        let e = PermissionRules::from_value(&json!({"rules": [], "permission": {}})).unwrap_err();
        assert!(e.to_string().contains("mixes shapes"), "{e}");
        let e =
            PermissionRules::from_value(&json!({"permission": {}, "permissions": {}})).unwrap_err();
        assert!(e.to_string().contains("mixes shapes"), "{e}");
        assert!(PermissionRules::from_value(&json!([1])).is_err());
        assert!(PermissionRules::from_value(&json!({"$schema": "x"})).is_err());
        assert!(PermissionRules::from_value(&json!({"permission": {}, "model": "x"})).is_err());
    }

    #[test]
    fn wrong_types_name_their_key_and_line() {
        let text = "{\n  \"semantics\": \"last-match\",\n  \"rules\": [\n    {\"pattern\": \"a\", \"decision\": \"allow\"},\n    {\"pattern\": \"b\", \"decision\": \"nope\"}\n  ]\n}";
        let (key, line) = key_and_line(&err(text));
        assert_eq!((key.as_str(), line), ("rules[1].decision", Some(5)));
        let (key, line) = key_and_line(&err(
            "{\"rules\": [{\"pattern\": \"a\", \"decision\": \"allow\", \"agent\": \"x\"}]}",
        ));
        assert_eq!((key.as_str(), line), ("rules[0].agent", Some(1)));
        let (key, _) = key_and_line(&err("{\"semantics\": \"first\"}"));
        assert_eq!(key, "semantics");
        let (key, line) = key_and_line(&err(
            "{\n // c\n \"permission\": {\"skill\": {\"x*\": \"nope\"}}\n}",
        ));
        assert_eq!((key.as_str(), line), ("permission.skill[\"x*\"]", Some(3)));
        let (key, _) = key_and_line(&err(
            "{\"permissions\": {\"deny\": [\"Skill(a)\", \"Skill(b\"]}}",
        ));
        assert_eq!(key, "permissions.deny[1]");
        let (key, _) = key_and_line(&err("{\"permissions\": {\"denny\": []}}"));
        assert_eq!(key, "permissions.denny");
        let (key, _) = key_and_line(&err("{\"agent\": {\"plan\": {\"permision\": {}}}}"));
        assert_eq!(key, "agent.plan.permision");
        let e = err("{\"rules\": [}");
        assert!(
            matches!(e, Error::InvalidConfig { line: Some(1), .. }),
            "{e:?}"
        );
    }

    #[test]
    fn canonical_form_round_trips_through_serde() {
        let rules = PermissionRules {
            semantics: Semantics::DenyFirst,
            rules: vec![Rule::new("*", Decision::Ask)],
            agents: BTreeMap::from([("plan".to_string(), vec![Rule::new("x", Decision::Deny)])]),
        };
        let json = serde_json::to_value(&rules).unwrap();
        let back: PermissionRules = serde_json::from_value(json).unwrap();
        assert_eq!(back, rules);
        let bad: std::result::Result<PermissionRules, _> =
            serde_json::from_value(json!({"rulez": 5}));
        assert!(bad.unwrap_err().to_string().contains("rules.rulez"));
    }

    #[test]
    fn line_locator() {
        let text = "{\n \"a\": [1, {\"b\": \"}\"},\n  {\"c\": 2}]\n}";
        assert_eq!(
            line_of(
                text,
                &[Seg::Key("a".into()), Seg::Index(2), Seg::Key("c".into())]
            ),
            Some(3)
        );
        assert_eq!(line_of(text, &[Seg::Key("z".into())]), None);
    }
}
