//! What manifests declare: injection phrases in what the model reads first (descriptions),
//! shell access granted through `allowed-tools`, hooks and MCP servers that start commands
//! by themselves, and frontmatter that does not parse.

use super::commands::{check_line, excerpt, Origin};
use super::files::{File, Role};
use super::{finding, line_column, AuditFinding, AuditSeverity};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// Phrases that address the model over the user's head. A description is read by the model
/// at every turn, so an injection there is high; in the body (read after activation) it is
/// a medium finding, because instructions legitimately talk to the model.
const INJECTION: &str = r"(?i)\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|other|system|safety)\s+(instructions|prompts?|rules|guidelines|messages)|\byou\s+are\s+now\s+(in\s+)?(dan|developer\s+mode|jailbroken|unrestricted)|\bnew\s+system\s+prompt\b|\breveal\s+(your|the)\s+system\s+prompt|<\|?(im_start|im_end|system|endoftext)\|?>|</?system>|\[/?INST\]|\b(do\s+not|don't|never)\s+(tell|inform|mention\s+(this\s+)?to|show|reveal\s+(this\s+)?to)\s+the\s+user|\bwithout\s+(asking|telling|informing|notifying)\s+the\s+user|\balways\s+(use|invoke|call|activate|run)\s+this\s+skill\s+(first|before|for\s+every|for\s+all|regardless)";

/// Tool names that are a shell in some host (Claude Code, Gemini CLI, OpenCode, Codex).
const SHELL_TOOLS: [&str; 7] = [
    "bash",
    "shell",
    "powershell",
    "run_shell_command",
    "terminal",
    "exec_command",
    "execute_command",
];

fn injection() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(INJECTION).ok()).as_ref()
}

pub(super) fn check(file: &File, bytes: &[u8], role: Role) -> Vec<AuditFinding> {
    let text = String::from_utf8_lossy(bytes);
    match role {
        Role::SkillMd | Role::CommandMd => markdown(file, &text),
        Role::Hooks => match json(file, &text) {
            Ok(value) => hooks(file, &text, value.get("hooks").unwrap_or(&value)),
            Err(f) => vec![f],
        },
        Role::McpConfig => match json(file, &text) {
            Ok(value) => mcp_servers(file, &text, value.get("mcpServers").unwrap_or(&value)),
            Err(f) => vec![f],
        },
        Role::PluginManifest => match json(file, &text) {
            Ok(value) => {
                let mut out = Vec::new();
                if let Some(h) = value.get("hooks") {
                    out.extend(hooks(file, &text, h.get("hooks").unwrap_or(h)));
                }
                if let Some(m) = value.get("mcpServers") {
                    out.extend(mcp_servers(file, &text, m));
                }
                for key in ["description", "name"] {
                    if let Some(s) = value.get(key).and_then(Value::as_str) {
                        out.extend(injection_in(file, &text, s, AuditSeverity::High, key));
                    }
                }
                out
            }
            Err(f) => vec![f],
        },
        _ => Vec::new(),
    }
}

fn markdown(file: &File, text: &str) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    let parsed = crate::parse::parse(text);
    if let Some(error) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == crate::Severity::Error)
    {
        out.push(finding(
            AuditSeverity::Medium,
            "frontmatter-error",
            &file.path,
            error.line.map(|l| (l, error.column.unwrap_or(1))),
            format!(
                "the frontmatter does not parse ({}): hosts read it differently or not at all",
                error.message
            ),
            "fix the YAML (`skilldeck validate` explains), then audit again",
        ));
    }
    let manifest = &parsed.manifest;
    if let Some(description) = &manifest.description {
        out.extend(injection_in(
            file,
            text,
            description,
            AuditSeverity::High,
            "description",
        ));
    }
    if let Some(when) = &manifest.claude_code.when_to_use {
        out.extend(injection_in(
            file,
            text,
            when,
            AuditSeverity::High,
            "when_to_use",
        ));
    }
    let body_from = parsed
        .body_line
        .map_or(0, |line| offset_of_line(text, line));
    if let Some(body) = text.get(body_from..) {
        if let Some(m) = injection().and_then(|re| re.find(body)) {
            out.push(finding(
                AuditSeverity::Medium,
                "prompt-injection",
                &file.path,
                Some(line_column(text, body_from + m.start())),
                format!(
                    "the instructions say `{}`: a phrase used to take over the model",
                    excerpt(m.as_str())
                ),
                "reword it, or make sure the skill is what it says it is",
            ));
        }
    }
    for tool in &manifest.allowed_tools {
        out.extend(shell_grant(file, text, tool));
    }
    if let Some(h) = &manifest.claude_code.hooks {
        let value = serde_json::to_value(h).unwrap_or(Value::Null);
        out.extend(hooks(file, text, &value));
    }
    out
}

/// `Bash` / `Bash(*)` is any command; `Bash(git status:*)` is scoped.
fn shell_grant(file: &File, text: &str, tool: &str) -> Option<AuditFinding> {
    let tool = tool.trim();
    let (name, scope) = match tool.split_once('(') {
        Some((name, rest)) => (name.trim(), Some(rest.trim_end_matches(')').trim())),
        None => (tool, None),
    };
    if !SHELL_TOOLS.contains(&name.to_ascii_lowercase().as_str()) {
        return None;
    }
    let at = text.find(tool).map(|o| line_column(text, o));
    let unrestricted = scope.is_none_or(|s| matches!(s, "" | "*" | ":*" | "*:*" | "**"));
    Some(if unrestricted {
        finding(
            AuditSeverity::High,
            "shell-access",
            &file.path,
            at,
            format!("`allowed-tools: {tool}` lets the model run any shell command without asking while the skill is active"),
            "scope it to the commands the skill needs, e.g. `Bash(git status:*)`",
        )
    } else {
        finding(
            AuditSeverity::Low,
            "shell-access",
            &file.path,
            at,
            format!("`allowed-tools: {tool}` pre-approves these shell commands while the skill is active"),
            "check that the pattern cannot match more than the skill needs",
        )
    })
}

fn injection_in(
    file: &File,
    text: &str,
    value: &str,
    severity: AuditSeverity,
    field: &str,
) -> Option<AuditFinding> {
    let m = injection()?.find(value)?;
    let at = text.find(m.as_str()).map(|o| line_column(text, o));
    Some(finding(
        severity,
        "prompt-injection",
        &file.path,
        at,
        format!(
            "the {field} says `{}`: models read it at every turn, and the phrase is used to take them over",
            excerpt(m.as_str())
        ),
        "a description says what the skill does and when to use it; remove the phrase",
    ))
}

/// Every `command` string below a hooks object, with the event it runs on.
fn hooks(file: &File, text: &str, value: &Value) -> Vec<AuditFinding> {
    let mut commands = Vec::new();
    collect_commands(value, None, &mut commands);
    let mut out = Vec::new();
    for (event, command) in commands {
        let at = locate(text, &command);
        let how = match &event {
            Some(e) => format!("on the agent's `{e}` events"),
            None => "on agent events".to_string(),
        };
        out.push(finding(
            AuditSeverity::Medium,
            "hook",
            &file.path,
            at,
            format!(
                "a hook runs `{}` {how}, without the model or the user asking",
                excerpt(&command)
            ),
            "read the command: hooks run with the user's rights every time the event fires",
        ));
        let origin = Origin {
            path: &file.path,
            at,
            auto: Some(&how),
        };
        out.extend(check_line(&command, &origin));
    }
    out
}

fn collect_commands(value: &Value, event: Option<&str>, out: &mut Vec<(Option<String>, String)>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("command", Value::String(c)) => {
                        out.push((event.map(str::to_owned), c.clone()))
                    }
                    // Event names are the keys whose value is a list of matchers.
                    (k, Value::Array(_)) if k.chars().next().is_some_and(char::is_uppercase) => {
                        collect_commands(v, Some(k), out)
                    }
                    _ => collect_commands(v, event, out),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_commands(item, event, out);
            }
        }
        _ => {}
    }
}

fn mcp_servers(file: &File, text: &str, value: &Value) -> Vec<AuditFinding> {
    let Value::Object(servers) = value else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, server) in servers {
        if let Some(command) = server.get("command").and_then(Value::as_str) {
            let args: Vec<&str> = server
                .get("args")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let line = std::iter::once(command)
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
                .join(" ");
            let at = locate(text, command);
            out.push(finding(
                AuditSeverity::Info,
                "mcp-server",
                &file.path,
                at,
                format!("MCP server `{name}` starts `{}`", excerpt(&line)),
                "check the program: it starts with the plugin and its tools reach the model",
            ));
            let how = format!("when MCP server `{name}` starts");
            let origin = Origin {
                path: &file.path,
                at,
                auto: Some(&how),
            };
            out.extend(check_line(&line, &origin));
        } else if let Some(url) = server.get("url").and_then(Value::as_str) {
            out.push(finding(
                AuditSeverity::Medium,
                "remote-mcp-server",
                &file.path,
                locate(text, url),
                format!("MCP server `{name}` connects to `{}`: its tools and their results come from a remote service", excerpt(url)),
                "check who runs the service and what it receives",
            ));
        }
    }
    out
}

fn json(file: &File, text: &str) -> Result<Value, AuditFinding> {
    serde_json::from_str(text).map_err(|err| {
        finding(
            AuditSeverity::Medium,
            "invalid-json",
            &file.path,
            Some((
                u32::try_from(err.line()).unwrap_or(u32::MAX),
                u32::try_from(err.column()).unwrap_or(u32::MAX),
            )),
            format!("not valid JSON ({err}): what it declares could not be audited"),
            "fix the JSON, then audit again",
        )
    })
}

/// Where `needle` (as JSON would write it) first appears in `text`.
fn locate(text: &str, needle: &str) -> Option<(u32, u32)> {
    let quoted = serde_json::to_string(needle).ok()?;
    let inner = quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or(needle);
    text.find(inner)
        .or_else(|| text.find(needle))
        .map(|o| line_column(text, o))
}

fn offset_of_line(text: &str, line: u32) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line as usize - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}
