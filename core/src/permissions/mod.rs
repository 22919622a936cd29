//! Permission rules: `pattern -> allow | ask | deny`, with the two evaluation semantics
//! found in hosts (OpenCode: last match wins; Claude Code/Kode: deny > ask > allow).
//!
//! Patterns use `*` (any run of characters, `/` and `:` included) and `?` (exactly one
//! character), are anchored to the whole id and case-sensitive. A pattern ending in ` *`
//! also matches the bare prefix (`deploy *` matches `deploy` and `deploy prod`), which is how
//! Claude Code's `Skill(name *)` entries behave.

pub mod document;
pub mod hosts;

pub use hosts::KeyPath;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A permission decision. The default, `allow`, is what a skill gets when no rule is
/// configured at all.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    #[default]
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }

    /// Parse `allow` / `ask` / `deny` (as written in host settings).
    pub fn parse(s: &str) -> Option<Decision> {
        match s {
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Semantics {
    /// Rules in order; the last matching rule decides (OpenCode).
    #[default]
    LastMatch,
    /// Any matching deny wins, then ask, then allow (Claude Code, Kode).
    DenyFirst,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    pub pattern: String,
    pub decision: Decision,
}

impl Rule {
    pub fn new(pattern: impl Into<String>, decision: Decision) -> Rule {
        Rule {
            pattern: pattern.into(),
            decision,
        }
    }

    /// Whether this rule's pattern covers `id`.
    pub fn matches(&self, id: &str) -> bool {
        wildcard_match(&self.pattern, id)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}", self.pattern, self.decision.as_str())
    }
}

/// A rule set: global rules plus per-agent rules appended after them. Serialises to
/// skilldeck's canonical shape; reads every shape of a rules document (`permissions::document`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PermissionRules {
    pub semantics: Semantics,
    pub rules: Vec<Rule>,
    pub agents: BTreeMap<String, Vec<Rule>>,
}

/// The outcome of evaluating one id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    pub decision: Decision,
    /// The rule that decided (`None`: no rule matched, the default applied).
    pub rule: Option<Rule>,
}

impl PermissionRules {
    /// True when neither global nor per-agent rules exist.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.agents.values().all(Vec::is_empty)
    }

    /// The rules that apply to `agent`, in evaluation order: global first, then the agent's.
    pub fn effective(&self, agent: Option<&str>) -> impl Iterator<Item = &Rule> {
        let extra = agent.and_then(|a| self.agents.get(a));
        self.rules.iter().chain(extra.into_iter().flatten())
    }

    /// Decide for skill `id` as seen by `agent` (per-agent rules are appended to the global ones).
    /// With no rule at all for `agent` nothing is configured and every skill is `allow` (as a
    /// deck without rules lists and activates every skill); with rules of which none matches,
    /// the host default applies: `ask`.
    pub fn evaluate(&self, id: &str, agent: Option<&str>) -> Evaluation {
        if self.effective(agent).next().is_none() {
            return Evaluation {
                decision: Decision::Allow,
                rule: None,
            };
        }
        let decided = match self.semantics {
            Semantics::LastMatch => self.effective(agent).filter(|r| r.matches(id)).last(),
            Semantics::DenyFirst => [Decision::Deny, Decision::Ask, Decision::Allow]
                .into_iter()
                .find_map(|d| {
                    self.effective(agent)
                        .find(|r| r.decision == d && r.matches(id))
                }),
        };
        match decided {
            Some(rule) => Evaluation {
                decision: rule.decision,
                rule: Some(rule.clone()),
            },
            None => Evaluation {
                decision: Decision::Ask,
                rule: None,
            },
        }
    }

    /// The whole skill tool is disabled for `agent`. Last-match: the last rule is `* -> deny`
    /// (anything after it could re-allow something). Deny-first: a `* -> deny` rule anywhere,
    /// since nothing can override a deny.
    pub fn tool_disabled(&self, agent: Option<&str>) -> bool {
        let is_deny_all = |r: &Rule| r.pattern == "*" && r.decision == Decision::Deny;
        match self.semantics {
            Semantics::LastMatch => self.effective(agent).last().is_some_and(is_deny_all),
            Semantics::DenyFirst => self.effective(agent).any(is_deny_all),
        }
    }

    /// Append `other`'s rules (global and per agent) after this set's rules.
    pub fn extend(&mut self, other: &PermissionRules) {
        self.rules.extend(other.rules.iter().cloned());
        for (agent, rules) in &other.agents {
            self.agents
                .entry(agent.clone())
                .or_default()
                .extend(rules.iter().cloned());
        }
    }

    /// Rules from OpenCode's `permission` value, in key order (last match wins); see
    /// `hosts::opencode_permission`. Problems come back as messages, never silently dropped.
    pub fn from_opencode(permission: &Value) -> (Vec<Rule>, Vec<String>) {
        let (rules, issues) =
            hosts::opencode_permission(permission, &KeyPath::root().key("permission"));
        (rules, issues.iter().map(ToString::to_string).collect())
    }

    /// Rules from Claude Code's `permissions.allow` / `ask` / `deny` lists (deny-first).
    /// Only `Skill` entries count: `Skill` (every skill), `Skill(name)`, `Skill(name *)`,
    /// `Skill(prefix:*)`; entries for other tools are ignored.
    pub fn from_claude(allow: &[String], ask: &[String], deny: &[String]) -> Vec<Rule> {
        let lists = [
            (allow, Decision::Allow),
            (ask, Decision::Ask),
            (deny, Decision::Deny),
        ];
        lists
            .into_iter()
            .flat_map(|(entries, decision)| {
                entries
                    .iter()
                    .filter_map(move |e| claude_skill_pattern(e).map(|p| Rule::new(p, decision)))
            })
            .collect()
    }
}

/// The skill pattern of a Claude Code permission entry, or `None` for other tools.
pub fn claude_skill_pattern(entry: &str) -> Option<String> {
    let entry = entry.trim();
    if entry == "Skill" || entry == "Skill()" {
        return Some("*".to_string());
    }
    let inner = entry.strip_prefix("Skill(")?.strip_suffix(')')?.trim();
    // A leading slash is how users type skills in the prompt (`/deploy`); ids never have it.
    let inner = inner.strip_prefix('/').unwrap_or(inner);
    Some(if inner.is_empty() { "*" } else { inner }.to_string())
}

/// Anchored, case-sensitive wildcard match: `*` any run (including `/` and `:`), `?` one
/// character; a trailing ` *` also matches the bare prefix.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(" *") {
        if glob(prefix, text) {
            return true;
        }
    }
    glob(pattern, text)
}

/// Iterative matcher with single-star backtracking: linear in practice, never exponential,
/// so hostile patterns like `*a*a*a*b` cannot stall a load.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wildcards() {
        assert!(wildcard_match("*", ""));
        assert!(wildcard_match("*", "a/b:c"));
        assert!(wildcard_match("internal-*", "internal-db"));
        assert!(!wildcard_match("internal-*", "Internal-db"));
        assert!(wildcard_match("pd?", "pdf"));
        assert!(!wildcard_match("pd?", "pd"));
        assert!(!wildcard_match("pdf", "pdfs"));
        assert!(wildcard_match("a*b*c", "aXbYbc"));
        assert!(!wildcard_match("a*b*c", "aXbYb"));
        assert!(wildcard_match("deploy *", "deploy"));
        assert!(wildcard_match("deploy *", "deploy prod"));
        assert!(!wildcard_match("deploy *", "deployer"));
        assert!(wildcard_match("tools:*", "tools:lint"));
        assert!(wildcard_match("ü?", "üß"));
    }

    #[test]
    fn last_match_and_deny_first() {
        let mut rules = PermissionRules {
            semantics: Semantics::LastMatch,
            rules: vec![
                Rule::new("*", Decision::Deny),
                Rule::new("pdf", Decision::Allow),
            ],
            agents: BTreeMap::new(),
        };
        assert_eq!(rules.evaluate("pdf", None).decision, Decision::Allow);
        assert_eq!(rules.evaluate("x", None).decision, Decision::Deny);
        rules.semantics = Semantics::DenyFirst;
        let e = rules.evaluate("pdf", None);
        assert_eq!(e.decision, Decision::Deny);
        assert_eq!(e.rule, Some(Rule::new("*", Decision::Deny)));
        assert!(rules.tool_disabled(None));
    }

    #[test]
    fn no_rules_means_allow_and_no_match_means_ask() {
        // As a deck with no rules lists and activates every skill.
        let e = PermissionRules::default().evaluate("a", None);
        assert_eq!(e.decision, Decision::Allow);
        assert_eq!(e.rule, None);
        assert!(!PermissionRules::default().tool_disabled(None));
        let rules = PermissionRules {
            rules: vec![Rule::new("b", Decision::Allow)],
            ..Default::default()
        };
        let e = rules.evaluate("a", None);
        assert_eq!(e.decision, Decision::Ask);
        assert_eq!(e.rule, None);
    }

    #[test]
    fn opencode_conversion_keeps_key_order() {
        let v = json!({"*": "ask", "skill": {"*": "allow", "internal-*": "deny", "x": "maybe"}});
        let (rules, warnings) = PermissionRules::from_opencode(&v);
        assert_eq!(
            rules,
            vec![
                Rule::new("*", Decision::Ask),
                Rule::new("*", Decision::Allow),
                Rule::new("internal-*", Decision::Deny)
            ]
        );
        assert_eq!(warnings.len(), 1);
        let (rules, _) = PermissionRules::from_opencode(&json!({"skill": "deny"}));
        assert_eq!(rules, vec![Rule::new("*", Decision::Deny)]);
    }

    #[test]
    fn claude_conversion() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let rules = PermissionRules::from_claude(
            &s(&["Skill(pdf)", "Bash(ls)"]),
            &s(&["Skill(deploy *)"]),
            &s(&["Skill(internal:*)", "Skill"]),
        );
        assert_eq!(
            rules,
            vec![
                Rule::new("pdf", Decision::Allow),
                Rule::new("deploy *", Decision::Ask),
                Rule::new("internal:*", Decision::Deny),
                Rule::new("*", Decision::Deny),
            ]
        );
    }
}
