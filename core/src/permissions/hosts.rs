//! The hosts' own permission shapes, read once for both callers: the host settings files
//! skilldeck reads on a host's behalf (lenient, as the host is: a problem is a warning) and
//! rules documents in a host's shape (strict: a problem is an error). Both get the same
//! rules from the same document; only what they do with an [`Issue`] differs.

use super::{Decision, Rule};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// One step of a key path inside a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A key path (`permission.skill["internal-*"]`, `rules[2].decision`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyPath(pub Vec<Seg>);

impl KeyPath {
    pub fn root() -> KeyPath {
        KeyPath(Vec::new())
    }

    pub fn key(&self, key: &str) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key.to_string()));
        KeyPath(segs)
    }

    pub fn index(&self, i: usize) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(i));
        KeyPath(segs)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Index(n) => write!(f, "[{n}]")?,
                // Patterns such as `internal-*` or `Skill(pdf)` are keys too; quoting them
                // keeps the path readable and unambiguous.
                Seg::Key(k)
                    if !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '$')) =>
                {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Seg::Key(k) => write!(f, "[{}]", Value::String(k.clone()))?,
            }
        }
        Ok(())
    }
}

/// A problem at one key of a host's permission settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    pub path: KeyPath,
    pub message: String,
}

impl Issue {
    pub fn new(path: KeyPath, message: impl Into<String>) -> Issue {
        Issue {
            path,
            message: message.into(),
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.0.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// `value` shortened for messages: a user's 2 KiB object must not flood the terminal.
pub fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

fn decision(value: &Value, path: &KeyPath, issues: &mut Vec<Issue>) -> Option<Decision> {
    let parsed = value.as_str().and_then(Decision::parse);
    if parsed.is_none() {
        issues.push(Issue::new(
            path.clone(),
            format!(
                "expected \"allow\", \"ask\" or \"deny\", found {}",
                shown(value)
            ),
        ));
    }
    parsed
}

/// Skill rules from OpenCode's `permission` value, in key order (last match wins).
///
/// Accepted shapes: `"deny"` (every tool, skills included), `{"skill": "deny"}`,
/// `{"skill": {"*": "allow", "internal-*": "deny"}}`. Keys are wildcards matched against
/// the tool name as OpenCode matches them, so `"*"` (and `"sk*"`) apply to skills too, in
/// their position among the keys; keys for other tools are not ours and are skipped.
pub fn opencode_permission(permission: &Value, at: &KeyPath) -> (Vec<Rule>, Vec<Issue>) {
    let mut issues = Vec::new();
    let entries = match permission {
        Value::Null => Vec::new(),
        Value::String(_) => vec![("*".to_string(), permission.clone(), at.clone())],
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.clone(), at.key(k)))
            .collect(),
        other => {
            issues.push(Issue::new(
                at.clone(),
                format!(
                    "expected \"allow\", \"ask\", \"deny\" or an object of tool -> rules, found {}",
                    shown(other)
                ),
            ));
            Vec::new()
        }
    };
    let rules = skill_rules(&entries, &mut issues);
    (rules, issues)
}

/// Rules for the `skill` tool from OpenCode permission entries `(tool key, value, path)`.
fn skill_rules(entries: &[(String, Value, KeyPath)], issues: &mut Vec<Issue>) -> Vec<Rule> {
    let mut rules = Vec::new();
    for (key, value, path) in entries {
        if !super::wildcard_match(key, "skill") {
            continue;
        }
        match value {
            Value::Object(patterns) => {
                for (pattern, v) in patterns {
                    if let Some(d) = decision(v, &path.key(pattern), issues) {
                        rules.push(Rule::new(pattern, d));
                    }
                }
            }
            v => {
                if let Some(d) = decision(v, path, issues) {
                    rules.push(Rule::new("*", d));
                }
            }
        }
    }
    rules
}

/// OpenCode's permission entries after folding in the legacy `tools` booleans the way the
/// host does (`mergeDeep(toolsAsPermission, permission)`): `tools` entries first (`true`
/// allow, `false` deny), then `permission`'s; a key in both keeps its place and takes
/// `permission`'s value.
fn merged_entries(
    tools: Option<&Value>,
    permission: Option<&Value>,
    at: &KeyPath,
    issues: &mut Vec<Issue>,
) -> Vec<(String, Value, KeyPath)> {
    let mut entries: Vec<(String, Value, KeyPath)> = Vec::new();
    match tools {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (tool, enabled) in map {
                let path = at.key("tools").key(tool);
                match enabled.as_bool() {
                    Some(on) => {
                        let action = if on { "allow" } else { "deny" };
                        entries.push((tool.clone(), Value::from(action), path));
                    }
                    None => issues.push(Issue::new(
                        path,
                        format!("expected true or false, found {}", shown(enabled)),
                    )),
                }
            }
        }
        Some(other) => issues.push(Issue::new(
            at.key("tools"),
            format!(
                "expected an object of tool name -> true/false, found {}",
                shown(other)
            ),
        )),
    }
    let path = at.key("permission");
    match permission {
        None | Some(Value::Null) => {}
        Some(Value::String(_)) => {
            let value = permission.cloned().unwrap_or_default();
            entries.push(("*".to_string(), value, path));
        }
        Some(Value::Object(map)) => {
            for (key, value) in map {
                let entry = (key.clone(), value.clone(), path.key(key));
                match entries.iter_mut().find(|(k, _, _)| k == key) {
                    Some(existing) => *existing = entry,
                    None => entries.push(entry),
                }
            }
        }
        Some(other) => issues.push(Issue::new(
            path,
            format!(
                "expected \"allow\", \"ask\", \"deny\" or an object of tool -> rules, found {}",
                shown(other)
            ),
        )),
    }
    entries
}

/// What an OpenCode configuration document says about skills.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpencodeRules {
    /// Global rules: `tools`, then `permission`.
    pub rules: Vec<Rule>,
    /// Each `agent.<name>`'s own rules (its `tools`, then its `permission`), appended by
    /// the host after the global ones. Agents without skill rules are left out.
    pub agents: BTreeMap<String, Vec<Rule>>,
    pub issues: Vec<Issue>,
}

/// Skill rules from an OpenCode configuration document (`opencode.json`, or a rules
/// document in OpenCode's shape): every key the host reads for the skill tool's permission.
pub fn opencode_config(doc: &Map<String, Value>) -> OpencodeRules {
    let mut out = OpencodeRules::default();
    let root = KeyPath::root();
    let entries = merged_entries(
        doc.get("tools"),
        doc.get("permission"),
        &root,
        &mut out.issues,
    );
    out.rules = skill_rules(&entries, &mut out.issues);
    for (name, agent, at) in opencode_agents(doc, &mut out.issues) {
        let entries = merged_entries(
            agent.get("tools"),
            agent.get("permission"),
            &at,
            &mut out.issues,
        );
        let rules = skill_rules(&entries, &mut out.issues);
        if !rules.is_empty() {
            out.agents.insert(name, rules);
        }
    }
    out
}

/// Every agent of an OpenCode document: `agent.<name>`, with the deprecated `mode.<name>`
/// merged over it as the host does (`mergeDeep(agent, {[name]: mode[name]})`).
fn opencode_agents(
    doc: &Map<String, Value>,
    issues: &mut Vec<Issue>,
) -> Vec<(String, Map<String, Value>, KeyPath)> {
    let mut agents: Vec<(String, Map<String, Value>, KeyPath)> = Vec::new();
    for section in ["agent", "mode"] {
        let at = KeyPath::root().key(section);
        let map = match doc.get(section) {
            None | Some(Value::Null) => continue,
            Some(Value::Object(map)) => map,
            Some(other) => {
                issues.push(Issue::new(
                    at,
                    format!(
                        "expected an object of agent name -> agent, found {}",
                        shown(other)
                    ),
                ));
                continue;
            }
        };
        for (name, agent) in map {
            let Some(agent) = agent.as_object() else {
                issues.push(Issue::new(
                    at.key(name),
                    format!("expected an agent object, found {}", shown(agent)),
                ));
                continue;
            };
            match agents.iter_mut().find(|(n, _, _)| n == name) {
                Some((_, existing, path)) => {
                    for (key, value) in agent {
                        match (existing.get_mut(key), value) {
                            (Some(Value::Object(old)), Value::Object(new)) => {
                                for (k, v) in new {
                                    old.insert(k.clone(), v.clone());
                                }
                            }
                            _ => {
                                existing.insert(key.clone(), value.clone());
                            }
                        }
                    }
                    *path = at.key(name);
                }
                None => agents.push((name.clone(), agent.clone(), at.key(name))),
            }
        }
    }
    agents
}

/// The keys of an OpenCode agent object the host knows (the rest it files under `options`).
pub const OPENCODE_AGENT_KEYS: [&str; 16] = [
    "name",
    "model",
    "variant",
    "prompt",
    "description",
    "temperature",
    "top_p",
    "mode",
    "hidden",
    "color",
    "steps",
    "maxSteps",
    "options",
    "permission",
    "disable",
    "tools",
];

/// Skill rules from Claude Code's `permissions` object (deny > ask > allow): `Skill`
/// entries of `allow`, `ask` and `deny`; entries for other tools (`Bash(ls)`, `Read`) are
/// not about skills and are skipped. An entry that starts like a `Skill` entry but is not
/// one (`Skill(pdf`) is an issue: the host would not read it as the user meant.
pub fn claude_permissions(permissions: &Value, at: &KeyPath) -> (Vec<Rule>, Vec<Issue>) {
    let mut rules = Vec::new();
    let mut issues = Vec::new();
    let Some(map) = permissions.as_object() else {
        if !permissions.is_null() {
            issues.push(Issue::new(
                at.clone(),
                format!(
                    "expected an object with `allow`, `ask` and `deny` lists, found {}",
                    shown(permissions)
                ),
            ));
        }
        return (rules, issues);
    };
    for (key, decision) in [
        ("allow", Decision::Allow),
        ("ask", Decision::Ask),
        ("deny", Decision::Deny),
    ] {
        let path = at.key(key);
        match map.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let Some(entry) = item.as_str() else {
                        issues.push(Issue::new(
                            path.index(i),
                            format!(
                                "expected a permission string such as \"Skill(pdf)\", found {}",
                                shown(item)
                            ),
                        ));
                        continue;
                    };
                    match super::claude_skill_pattern(entry) {
                        Some(pattern) => rules.push(Rule::new(pattern, decision)),
                        None if entry.trim_start().starts_with("Skill(") => {
                            issues.push(Issue::new(
                                path.index(i),
                                format!(
                                    "`{entry}` is not a skill permission; write `Skill`, `Skill(name)`, `Skill(name *)` or `Skill(prefix:*)`"
                                ),
                            ))
                        }
                        None => {}
                    }
                }
            }
            Some(other) => issues.push(Issue::new(
                path,
                format!(
                    "expected a list of permission strings, found {}",
                    shown(other)
                ),
            )),
        }
    }
    (rules, issues)
}

/// The keys of Claude Code's `permissions` object. Only the three lists decide about skills;
/// the others govern how the host prompts or which directories it may touch.
pub const CLAUDE_PERMISSIONS_KEYS: [&str; 6] = [
    "allow",
    "ask",
    "deny",
    "defaultMode",
    "additionalDirectories",
    "disableBypassPermissionsMode",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn key_paths_quote_patterns() {
        let p = KeyPath::root()
            .key("permission")
            .key("skill")
            .key("internal-*");
        assert_eq!(p.to_string(), "permission.skill[\"internal-*\"]");
        assert_eq!(
            KeyPath::root()
                .key("rules")
                .index(2)
                .key("decision")
                .to_string(),
            "rules[2].decision"
        );
    }

    #[test]
    fn star_key_with_patterns_applies_to_skills() {
        let (rules, issues) = opencode_permission(
            &json!({"*": {"internal-*": "deny"}, "bash": "ask"}),
            &KeyPath::root(),
        );
        assert_eq!(rules, vec![Rule::new("internal-*", Decision::Deny)]);
        assert!(issues.is_empty());
    }

    #[test]
    fn legacy_tools_fold_under_permission() {
        // `tools.skill: false` alone denies every skill...
        let r = opencode_config(&doc(json!({"tools": {"skill": false, "bash": true}})));
        assert_eq!(r.rules, vec![Rule::new("*", Decision::Deny)]);
        // ...and `permission.skill` replaces it in place.
        let r = opencode_config(&doc(json!({
            "tools": {"skill": false},
            "permission": {"*": "ask", "skill": {"pdf": "allow"}}
        })));
        assert_eq!(
            r.rules,
            vec![
                Rule::new("pdf", Decision::Allow),
                Rule::new("*", Decision::Ask)
            ]
        );
        let r = opencode_config(&doc(
            json!({"agent": {"plan": {"tools": {"skill": false}, "model": "x"}}}),
        ));
        assert_eq!(r.agents["plan"], vec![Rule::new("*", Decision::Deny)]);
        let r = opencode_config(&doc(json!({"tools": {"skill": "no"}})));
        assert_eq!(r.issues[0].path.to_string(), "tools.skill");
    }

    #[test]
    fn claude_entries() {
        let (rules, issues) = claude_permissions(
            &json!({"allow": ["Skill(pdf)", "Bash(ls)", 3], "deny": ["Skill(internal:*)", "Skill(oops"]}),
            &KeyPath::root().key("permissions"),
        );
        assert_eq!(
            rules,
            vec![
                Rule::new("pdf", Decision::Allow),
                Rule::new("internal:*", Decision::Deny)
            ]
        );
        let paths: Vec<String> = issues.iter().map(|i| i.path.to_string()).collect();
        assert_eq!(paths, vec!["permissions.allow[2]", "permissions.deny[1]"]);
    }
}
