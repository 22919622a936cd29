//! Filter stage: enable/disable overrides, permissions, invocation flags, OS and
//! requirement checks. Sets each skill's `Status` (with reasons); never removes skills,
//! so `list --all` can show why something is hidden.
//!
//! Order of decisions, each leaving a reason:
//! 1. `enabled: false` in SKILL.md, host settings (Codex `[[skills.config]]`, Claude Code
//!    `skillOverrides`, OpenCode `skills.enabled`), then `options.disable`;
//!    `options.enable` forces a skill back on.
//! 2. `disable-model-invocation: true` hides it from the model; `user-invocable: false`
//!    from the user.
//! 3. `os` and `requires` (`bins` on `PATH` of the deck's environment, `env` set and
//!    non-empty): unmet means `available: false`, or not listed at all with
//!    `hide_unavailable`.
//! 4. Permissions for the deck's agent: host rules (`opencode.json` `permission`, Claude Code
//!    `permissions`) followed by `options.rules`. With no rule at all every skill is allowed.
//!
//! Pure status logic: the host settings arrive already read as [`HostRules`]
//! (`host_settings::rules`, which does the file I/O). An unreadable settings file arrives as
//! a warning diagnostic, copied into the catalog; the other skills are unaffected.

use crate::catalog::{Catalog, Skill, Status};
use crate::diagnostic::Diagnostic;
use crate::discover::resolve;
use crate::host_settings::{HostRules, SkillOverride};
use crate::manifest::{ClaudeCodeFields, JsonObject, Manifest, ToolFields};
use crate::options::DeckOptions;
use crate::permissions::{wildcard_match, Decision, PermissionRules};
use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::sync::Arc;

/// Prefix of the reasons the permission step writes, so it can be re-run for another agent.
const PERMISSION_REASON: &str = "permission: ";

/// The deck's environment: OS strings, since variables that name directories need not be
/// UTF-8.
type Env = BTreeMap<OsString, OsString>;

/// The permission rules in force: the host's, then the caller's. The caller's semantics win
/// when the caller gave rules (they chose them explicitly), else the profile's
/// (`permissions`).
pub fn effective_rules(options: &DeckOptions, host: &HostRules) -> PermissionRules {
    let mut rules = host.rules.clone();
    rules.semantics = host.semantics;
    if let Some(caller) = &options.rules {
        rules.extend(caller);
        rules.semantics = caller.semantics;
    }
    rules
}

/// Apply every filter to `catalog` in place, for `options.agent`, with the host settings
/// already read ([`HostRules::read`], the only step here that touches settings files).
pub fn apply(catalog: &mut Catalog, options: &DeckOptions, host: &HostRules) {
    // Discovery reads opencode.json too (for `skills.paths`): one broken file, one report.
    for d in &host.diagnostics {
        let seen = catalog
            .diagnostics
            .iter()
            .any(|c| c.code == d.code && c.path == d.path);
        if !seen {
            catalog.diagnostics.push(d.clone());
        }
    }
    let env = options.env.clone().unwrap_or_default();
    // Many skills need the same few binaries; each lookup stats every `PATH` directory.
    let mut on_path_memo: HashMap<String, bool> = HashMap::new();
    let rules = effective_rules(options, host);
    let agent = options.agent.as_deref();
    let disabled = rules.tool_disabled(agent);
    for skill in &mut catalog.skills {
        // Computed afresh from resolve's status, so filtering a filtered catalog again
        // gives the same result; written only when it differs, so a skill shared with the
        // previous snapshot stays shared.
        let mut status = resolve::resolved_status(skill.status.ambiguous, &skill.name);
        enablement(skill, &mut status, options, host);
        invocation(skill, &mut status);
        availability(skill, &mut status, options, &env, &mut on_path_memo);
        permission(&mut status, &rules, disabled, &skill.id, agent);
        if status != skill.status {
            Arc::make_mut(skill).status = status;
        }
    }
    unmatched_selectors(catalog, options);
    unreachable_rules(catalog, &rules);
}

/// Code of the warning for a permission rule that can never decide anything.
pub const RULE_NEVER_MATCHES: &str = "rule-never-matches";

/// Whether `pattern` is written in a host's tool-call syntax (`Skill(pdf)`, `Bash(ls)`):
/// skill ids never hold parentheses, so outside Claude Code's `permissions` shape (which
/// unwraps `Skill(...)`) such a pattern matches no skill.
fn tool_syntax(pattern: &str) -> bool {
    let Some(open) = pattern.find('(') else {
        return false;
    };
    open > 0
        && pattern.ends_with(')')
        && pattern[..open]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Warn about every rule that can never decide under the rules' semantics: a pattern in
/// tool-call syntax (`Skill(pdf)`), and, with last-match semantics, a specific rule followed
/// by a `*` rule (which matches every id later). Replaces the warnings of an earlier pass.
fn unreachable_rules(catalog: &mut Catalog, rules: &PermissionRules) {
    catalog.diagnostics.retain(|d| d.code != RULE_NEVER_MATCHES);
    let lists = std::iter::once((None, &rules.rules))
        .chain(rules.agents.iter().map(|(agent, list)| (Some(agent), list)));
    for (agent, list) in lists {
        let whose = match agent {
            Some(agent) => format!(" (agent `{agent}`)"),
            None => String::new(),
        };
        for (i, rule) in list.iter().enumerate() {
            if tool_syntax(&rule.pattern) {
                let inner = rule
                    .pattern
                    .split_once('(')
                    .map(|(_, rest)| rest.trim_end_matches(')'))
                    .unwrap_or_default();
                catalog.diagnostics.push(
                    Diagnostic::warning(
                        RULE_NEVER_MATCHES,
                        format!(
                            "permission rule `{rule}`{whose} never matches: skill ids have no \
                             parentheses, so `{}` is not a skill pattern here",
                            rule.pattern
                        ),
                    )
                    .with_hint(format!(
                        "write the skill id or a glob (`{inner}`), or put `Skill(...)` entries in \
                         Claude Code's {{\"permissions\": {{\"allow\", \"ask\", \"deny\"}}}} shape"
                    )),
                );
                continue;
            }
            // A `*` rule replaced by a later one is how defaults are overridden (OpenCode
            // folds `tools: {skill: false}` in after its `*` default): no mistake to report.
            if rules.semantics != crate::permissions::Semantics::LastMatch || rule.pattern == "*" {
                continue;
            }
            if let Some(later) = list[i + 1..].iter().find(|r| r.pattern == "*") {
                catalog.diagnostics.push(
                    Diagnostic::warning(
                        RULE_NEVER_MATCHES,
                        format!(
                            "permission rule `{rule}`{whose} never decides: the later rule \
                             `{later}` matches every skill and the last matching rule wins"
                        ),
                    )
                    .with_hint("put the `*` rule first, then the specific rules after it"),
                );
            }
        }
    }
}

/// Code of the warning for an `enable` selector that matches no skill.
pub const ENABLE_MATCHES_NOTHING: &str = "enable-matches-nothing";
/// Code of the warning for a `disable` selector that matches no skill.
pub const DISABLE_MATCHES_NOTHING: &str = "disable-matches-nothing";

/// Warn about every `enable`/`disable` selector that selects no skill: a misspelt id would
/// otherwise leave the skill on (or off) without a word. Replaces the warnings of an earlier
/// pass, so filtering a filtered catalog again gives the same diagnostics.
fn unmatched_selectors(catalog: &mut Catalog, options: &DeckOptions) {
    catalog
        .diagnostics
        .retain(|d| d.code != ENABLE_MATCHES_NOTHING && d.code != DISABLE_MATCHES_NOTHING);
    let project = options.project_dir.as_path();
    for (code, option, selectors) in [
        (ENABLE_MATCHES_NOTHING, "enable", &options.enable),
        (DISABLE_MATCHES_NOTHING, "disable", &options.disable),
    ] {
        for selector in selectors {
            if catalog.skills.iter().any(|s| selects(selector, s, project)) {
                continue;
            }
            catalog.diagnostics.push(
                Diagnostic::warning(
                    code,
                    format!("`{option}` selector `{selector}` matches no skill; it has no effect"),
                )
                .with_hint(
                    "a selector is a skill id or name, a SKILL.md or skill directory path \
                     (absolute or relative to the project directory), or a `*`/`?` glob of one; \
                     list every skill with its id to check the spelling",
                ),
            );
        }
    }
}

/// Re-evaluate only the permission part of every status (e.g. to render for another agent).
pub fn apply_permissions(catalog: &mut Catalog, rules: &PermissionRules, agent: Option<&str>) {
    let disabled = rules.tool_disabled(agent);
    for skill in &mut catalog.skills {
        let mut status = skill.status.clone();
        permission(&mut status, rules, disabled, &skill.id, agent);
        if status != skill.status {
            Arc::make_mut(skill).status = status;
        }
    }
}

/// The permission part of one status (replacing an earlier one); `disabled`: the skill
/// tool is off for `agent` (`rules.tool_disabled(agent)`, the same for every skill).
fn permission(
    status: &mut Status,
    rules: &PermissionRules,
    disabled: bool,
    id: &str,
    agent: Option<&str>,
) {
    status.reasons.retain(|r| !r.starts_with(PERMISSION_REASON));
    if rules.is_empty() {
        status.permission = Decision::Allow;
        return;
    }
    let eval = rules.evaluate(id, agent);
    status.permission = if disabled {
        Decision::Deny
    } else {
        eval.decision
    };
    let reason = match (&eval.rule, status.permission) {
        (_, Decision::Deny) if disabled => {
            "the skill tool is disabled for this agent (`* -> deny`)".to_string()
        }
        (Some(rule), Decision::Deny) => format!("denied by rule `{rule}`"),
        (Some(rule), Decision::Ask) => format!("rule `{rule}` asks before use"),
        (None, Decision::Ask) => "no rule matches; the host asks before use".to_string(),
        _ => return,
    };
    status.reasons.push(format!("{PERMISSION_REASON}{reason}"));
}

/// The rule that denies `id` for `agent`, for error messages (`None` when not denied).
pub fn denying_rule(rules: &PermissionRules, id: &str, agent: Option<&str>) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    if rules.tool_disabled(agent) {
        return Some("* -> deny".to_string());
    }
    let eval = rules.evaluate(id, agent);
    match (eval.decision, eval.rule) {
        (Decision::Deny, Some(rule)) => Some(rule.to_string()),
        _ => None,
    }
}

fn enablement(skill: &Skill, status: &mut Status, options: &DeckOptions, host: &HostRules) {
    let mut off: Vec<String> = Vec::new();
    if skill.manifest.tool.enabled == Some(false) {
        off.push("`enabled: false` in SKILL.md".to_string());
    }
    if host.frontmatter_disabled
        && skill.manifest.extra.get("disabled") == Some(serde_json::Value::Bool(true))
    {
        off.push("`disabled: true` in SKILL.md".to_string());
    }
    let mut codex_verdict = None;
    for (entry, file) in &host.codex {
        let hit = match (&entry.path, &entry.name) {
            (Some(path), _) => same_path(path, &skill.location) || same_path(path, &skill.base_dir),
            (None, Some(name)) => *name == skill.name || *name == skill.id,
            (None, None) => false,
        };
        if hit {
            codex_verdict = Some((entry.enabled, file));
        }
    }
    if let Some((false, file)) = codex_verdict {
        off.push(format!("disabled in {}", file.display()));
    }
    if let Some((false, file)) = host.opencode_enabled.get(skill.name.as_str()) {
        off.push(format!("`skills.enabled` is false in {}", file.display()));
    }
    let override_of = host
        .overrides
        .get(skill.id.as_str())
        .or_else(|| host.overrides.get(skill.name.as_str()));
    if let Some((o, file)) = override_of {
        match o {
            SkillOverride::Off => off.push(format!("`skillOverrides: off` in {}", file.display())),
            SkillOverride::UserInvocableOnly => {
                status.model_invocable = false;
                status.reasons.push(format!(
                    "hidden from the model by `skillOverrides: user-invocable-only` in {}",
                    file.display()
                ));
            }
            SkillOverride::NameOnly => {
                status.name_only = true;
                status.reasons.push(format!(
                    "listed without description by `skillOverrides: name-only` in {}",
                    file.display()
                ));
            }
            SkillOverride::On => {}
        }
    }
    let project = options.project_dir.as_path();
    if let Some(p) = options.disable.iter().find(|p| selects(p, skill, project)) {
        off.push(format!("disabled by option `{p}`"));
    }
    if let Some(p) = options.enable.iter().find(|p| selects(p, skill, project)) {
        if !off.is_empty() {
            status.reasons.push(format!(
                "forced on by option `{p}` (was: {})",
                off.join("; ")
            ));
        }
        return;
    }
    if !off.is_empty() {
        status.enabled = false;
        status.reasons.extend(off);
    }
}

/// What a [`crate::Deck::load_summary`] skill keeps of its manifest: the fields the status
/// decisions of this module read (`enablement`, `invocation`, `availability`), plus the
/// name and description a listing shows. Keep it in step with those functions: a field they
/// read that is dropped here would change a summary's statuses (the test
/// `summary_statuses_match_a_full_load` compares them over every built-in profile).
pub(crate) fn status_fields(manifest: Manifest) -> Manifest {
    let Manifest {
        name,
        description,
        claude_code,
        tool,
        extra,
        fallback_line,
        unlisted,
        ..
    } = manifest;
    let claude_code = ClaudeCodeFields {
        disable_model_invocation: claude_code.disable_model_invocation,
        user_invocable: claude_code.user_invocable,
        ..ClaudeCodeFields::default()
    };
    let tool = tool.into_inner();
    let tool = ToolFields {
        enabled: tool.enabled,
        os: tool.os,
        requires: tool.requires,
        ..ToolFields::default()
    };
    Manifest {
        name,
        description,
        claude_code: claude_code.into(),
        tool: tool.into(),
        // `get` parses the text only when it holds the key: parsing every skill's extra
        // fields to find it was ~2.5% of `list`'s instructions.
        extra: extra
            .get("disabled")
            .map(|v| ("disabled".to_owned(), v))
            .into_iter()
            .collect::<JsonObject>()
            .into(),
        fallback_line,
        unlisted,
        ..Manifest::default()
    }
}

fn invocation(skill: &Skill, status: &mut Status) {
    if let Some(unlisted) = skill.manifest.unlisted {
        status.model_invocable = false;
        status.reasons.push(unlisted.reason().to_string());
    }
    if skill.manifest.claude_code.disable_model_invocation == Some(true) {
        status.model_invocable = false;
        status
            .reasons
            .push("`disable-model-invocation: true`: only the user can invoke it".to_string());
    }
    if skill.manifest.claude_code.user_invocable == Some(false) {
        status.user_invocable = false;
        status
            .reasons
            .push("`user-invocable: false`: only the model can invoke it".to_string());
    }
}

fn availability(
    skill: &Skill,
    status: &mut Status,
    options: &DeckOptions,
    env: &Env,
    on_path_memo: &mut HashMap<String, bool>,
) {
    let mut unmet = Vec::new();
    if !skill.manifest.tool.os.is_empty() && !skill.manifest.tool.os.iter().any(|o| os_matches(o)) {
        unmet.push(format!(
            "needs os {} (running on {})",
            skill.manifest.tool.os.join(", "),
            std::env::consts::OS
        ));
    }
    if let Some(req) = &skill.manifest.tool.requires {
        let path = env
            .get(OsStr::new("PATH"))
            .map(OsString::as_os_str)
            .unwrap_or_default();
        for bin in &req.bins {
            let found = match on_path_memo.get(bin) {
                Some(found) => *found,
                None => {
                    let found = on_path(bin, path);
                    on_path_memo.insert(bin.clone(), found);
                    found
                }
            };
            if !found {
                unmet.push(format!("needs `{bin}` on PATH"));
            }
        }
        for var in &req.env {
            if !matches!(env.get(OsStr::new(var)), Some(v) if !v.is_empty()) {
                unmet.push(format!("needs environment variable `{var}`"));
            }
        }
    }
    if unmet.is_empty() {
        return;
    }
    status.available = false;
    if options.hide_unavailable {
        status.enabled = false;
        unmet.push("hidden because unavailable (`hide_unavailable`)".to_string());
    }
    status.reasons.extend(unmet);
}

/// `os` values as written in the wild: `macos`/`darwin`/`mac`/`osx`, `windows`/`win32`,
/// `linux`, and the BSDs by name.
pub(crate) fn os_matches(wanted: &str) -> bool {
    let wanted = wanted.trim().to_ascii_lowercase();
    let current = std::env::consts::OS;
    let alias = match wanted.as_str() {
        "darwin" | "mac" | "osx" | "macos" => "macos",
        "win32" | "win" | "win64" | "windows" => "windows",
        other => other,
    };
    alias == current || (alias == "unix" && cfg!(unix))
}

pub(crate) fn on_path(bin: &str, path: &OsStr) -> bool {
    if bin.contains('/') {
        return is_executable(Path::new(bin));
    }
    std::env::split_paths(path)
        .any(|dir| !dir.as_os_str().is_empty() && is_executable(&dir.join(bin)))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

fn same_path(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// An enable/disable selector matches a skill by id, name, or path (absolute, or relative
/// to the project directory), with `*`/`?` wildcards.
fn selects(pattern: &str, skill: &Skill, project: &Path) -> bool {
    if wildcard_match(pattern, &skill.id) || wildcard_match(pattern, &skill.name) {
        return true;
    }
    let candidates: [&Path; 2] = [&skill.location, &skill.base_dir];
    candidates.iter().any(|p| {
        let full = p.to_string_lossy();
        if wildcard_match(pattern, &full) {
            return true;
        }
        let relative = p
            .strip_prefix(project)
            .ok()
            .map(|r| r.to_string_lossy().into_owned());
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        relative.is_some_and(|r| wildcard_match(pattern, &r))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::{Inputs, Profile};
    use crate::permissions::{Rule, Semantics};
    use std::path::PathBuf;

    /// The filter as a deck runs it, with the profile and inputs the options name.
    fn apply(catalog: &mut Catalog, options: &DeckOptions) {
        let profile = Profile::builtin(&options.profile).expect("built-in profile");
        let inputs = Inputs {
            project: options.project_dir.clone(),
            home: options.home_dir.clone(),
            env: options.env.clone().unwrap_or_default(),
            system_root: options
                .system_root
                .clone()
                .unwrap_or_else(|| PathBuf::from("/")),
        };
        let host = HostRules::read(options, &profile, &inputs);
        super::apply(catalog, options, &host);
    }
    use crate::catalog::Scope;
    use crate::manifest::Requirements;

    pub(crate) fn skill(id: &str) -> Skill {
        Skill {
            id: id.into(),
            name: id.into(),
            location: PathBuf::from(format!("/p/.claude/skills/{id}/SKILL.md")).into(),
            base_dir: format!("/p/.claude/skills/{id}").into(),
            scope: Scope::Project,
            source: PathBuf::from("/p/.claude/skills").into(),
            plugin: None,
            kind: Default::default(),
            manifest: std::sync::Arc::new(crate::manifest::Manifest {
                description: Some(format!("{id} description")),
                ..Default::default()
            }),
            diagnostics: Vec::new().into(),
            status: Default::default(),
        }
    }

    fn options() -> DeckOptions {
        DeckOptions {
            project_dir: PathBuf::from("/p"),
            env: Some(BTreeMap::from([("PATH".into(), "/nonexistent".into())])),
            read_host_settings: false,
            ..DeckOptions::default()
        }
    }

    fn catalog(skills: Vec<Skill>) -> Catalog {
        Catalog {
            profile: "universal".into(),
            skills: skills.into_iter().map(Arc::new).collect(),
            ..Catalog::default()
        }
    }

    #[test]
    fn overrides_and_flags() {
        let mut a = skill("a");
        std::sync::Arc::make_mut(&mut a.manifest).tool.enabled = Some(false);
        let mut b = skill("b");
        std::sync::Arc::make_mut(&mut b.manifest)
            .claude_code
            .disable_model_invocation = Some(true);
        let c = skill("c");
        let mut d = skill("d");
        std::sync::Arc::make_mut(&mut d.manifest)
            .claude_code
            .user_invocable = Some(false);
        let mut cat = catalog(vec![a, b, c, d]);
        let mut opts = options();
        opts.disable = vec![".claude/skills/c".into()];
        opts.enable = vec!["a".into()];
        apply(&mut cat, &opts);
        let s = |i: usize| &cat.skills[i].status;
        assert!(s(0).enabled && s(0).reasons[0].starts_with("forced on"));
        assert!(s(1).enabled && !s(1).model_invocable && s(1).user_invocable);
        assert!(!s(2).enabled, "{:?}", s(2));
        assert!(s(3).is_model_visible() && !s(3).user_invocable);
        assert_eq!(cat.model_visible().count(), 2);
    }

    #[test]
    fn requirements() {
        let mut a = skill("a");
        std::sync::Arc::make_mut(&mut a.manifest).tool.requires = Some(Requirements {
            bins: vec!["definitely-not-a-binary-xyz".into()],
            env: vec!["SOME_TOKEN".into()],
        });
        let mut b = skill("b");
        std::sync::Arc::make_mut(&mut b.manifest).tool.os = vec!["no-such-os".into()];
        let mut cat = catalog(vec![a, b]);
        apply(&mut cat, &options());
        assert!(!cat.skills[0].status.available);
        assert_eq!(cat.skills[0].status.reasons.len(), 2);
        assert!(cat.skills[0].status.is_listed());
        let mut opts = options();
        opts.hide_unavailable = true;
        apply(&mut cat, &opts);
        assert!(!cat.skills[1].status.is_listed());
    }

    #[test]
    fn permissions_per_agent() {
        let mut cat = catalog(vec![skill("pdf"), skill("internal-db")]);
        let mut opts = options();
        opts.rules = Some(PermissionRules {
            semantics: Semantics::LastMatch,
            rules: vec![
                Rule::new("*", Decision::Allow),
                Rule::new("internal-*", Decision::Deny),
            ],
            agents: BTreeMap::from([(
                "ops".to_string(),
                vec![Rule::new("internal-db", Decision::Ask)],
            )]),
        });
        apply(&mut cat, &opts);
        assert_eq!(cat.skills[0].status.permission, Decision::Allow);
        assert_eq!(cat.skills[1].status.permission, Decision::Deny);
        assert_eq!(cat.listed().count(), 1);
        let rules = effective_rules(&opts, &HostRules::default());
        apply_permissions(&mut cat, &rules, Some("ops"));
        assert_eq!(cat.skills[1].status.permission, Decision::Ask);
        assert_eq!(
            cat.skills[1].status.reasons,
            vec!["permission: rule `internal-db -> ask` asks before use"]
        );
        assert_eq!(
            denying_rule(&rules, "internal-db", None).as_deref(),
            Some("internal-* -> deny")
        );
    }

    #[test]
    fn broken_settings_become_one_warning() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("p");
        std::fs::create_dir_all(&project).expect("mkdir");
        std::fs::write(
            project.join("opencode.json"),
            "{\n  \"permission\": {\"skill\": nope}\n}",
        )
        .expect("write");
        let mut cat = catalog(vec![skill("a")]);
        let opts = DeckOptions {
            profile: "opencode".into(),
            project_dir: project.clone(),
            home_dir: Some(dir.path().join("home")),
            env: Some(BTreeMap::new()),
            ..DeckOptions::default()
        };
        apply(&mut cat, &opts);
        apply(&mut cat, &opts);
        assert_eq!(cat.diagnostics.len(), 1);
        let d = &cat.diagnostics[0];
        assert_eq!(d.code, "invalid-host-settings");
        assert_eq!(
            d.path.as_deref(),
            Some(project.join("opencode.json").as_path())
        );
        assert_eq!(d.line, Some(2));
        assert!(
            cat.skills[0].status.is_listed(),
            "one bad file never hides the skills"
        );
    }

    #[test]
    fn host_settings_claude_overrides() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join(".claude")).expect("mkdir");
        std::fs::write(
            project.join(".claude/settings.json"),
            r#"{"permissions": {"deny": ["Skill(b)"]}, "skillOverrides": {"a": "name-only", "c": "off"}}"#,
        )
        .expect("write");
        let mut cat = catalog(vec![skill("a"), skill("b"), skill("c")]);
        let opts = DeckOptions {
            profile: "claude-code".into(),
            project_dir: project,
            home_dir: Some(dir.path().join("home")),
            system_root: Some(dir.path().to_path_buf()),
            env: Some(BTreeMap::new()),
            ..DeckOptions::default()
        };
        apply(&mut cat, &opts);
        assert!(cat.skills[0].status.name_only);
        assert_eq!(cat.skills[0].status.permission, Decision::Ask);
        assert_eq!(cat.skills[1].status.permission, Decision::Deny);
        assert!(!cat.skills[2].status.enabled);
    }

    #[test]
    fn a_custom_profile_reads_host_settings_with_its_semantics() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join(".myhost")).expect("mkdir");
        std::fs::write(
            project.join(".myhost/settings.json"),
            r#"{"permissions": {"allow": ["Skill(*)"], "deny": ["Skill(b)"]}}"#,
        )
        .expect("write");
        let profile: Profile = toml::from_str(
            r#"
name = "myhost"
permissions = "deny-first"
[settings]
format = "claude-code"
files = ["{project}/.myhost/settings.json", "${MYHOST_HOME}/settings.json"]
"#,
        )
        .expect("profile");
        let opts = DeckOptions {
            project_dir: project.clone(),
            env: Some(BTreeMap::new()),
            ..DeckOptions::default()
        };
        let inputs = Inputs {
            project,
            home: None,
            env: BTreeMap::new(),
            system_root: PathBuf::from("/"),
        };
        let mut cat = catalog(vec![skill("a"), skill("b")]);
        let host = HostRules::read(&opts, &profile, &inputs);
        super::apply(&mut cat, &opts, &host);
        assert_eq!(cat.skills[0].status.permission, Decision::Allow);
        assert_eq!(cat.skills[1].status.permission, Decision::Deny);
        assert_eq!(host.semantics, Semantics::DenyFirst);
        // The unset `${MYHOST_HOME}` names no file; the project file was looked at.
        assert_eq!(host.files.len(), 1);
    }
}
