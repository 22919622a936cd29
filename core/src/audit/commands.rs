//! Commands that reach out or do harm: in scripts (they run when the model or user asks),
//! and, one level more severe, in what runs by itself — `` !`…` `` blocks of a `SKILL.md` or
//! a plugin command (expanded at activation), hook commands (run on agent events) and MCP
//! server command lines (started with the plugin).

use super::files::{File, Role};
use super::{finding, line_column, AuditFinding, AuditSeverity};
use regex::{Regex, RegexSet};
use std::sync::OnceLock;

/// Findings of one code kept per file; the rest are summed up in the last one's message.
const PER_FILE: usize = 20;

struct Check {
    code: &'static str,
    /// Severity in a script (run on request).
    script: AuditSeverity,
    /// Severity where the command runs by itself.
    auto: AuditSeverity,
    what: &'static str,
    hint: &'static str,
    pattern: &'static str,
}

use AuditSeverity::{Critical, High, Low, Medium};

/// Most specific first: one line reports only its first matching check, so a reverse shell
/// is not also listed as a network command.
const CHECKS: &[Check] = &[
    Check {
        code: "reverse-shell",
        script: Critical,
        auto: Critical,
        what: "opens a shell for a remote machine (reverse shell idiom)",
        hint: "remove it: no skill needs to hand a shell to another host",
        pattern: r"(?i)/dev/(tcp|udp)/|\bn(c|cat|etcat)\b[^\n]*\s-[a-z]*e\s|\bsocat\b[^\n]*\bexec:|\bbash\s+-i\s*>&|\bmkfifo\b[^\n]*\bn(c|cat)\b|os\.dup2\([^\n]*fileno|pty\.spawn\([^\n]*(sh|bash)",
    },
    Check {
        code: "pipe-to-shell",
        script: High,
        auto: Critical,
        what: "downloads code and runs it unseen",
        hint: "vendor the script into the skill (pinned, reviewable) instead of fetching it at run time",
        pattern: r"(?i)\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(sudo\s+)?(env\s+)?((ba|z|k|da|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression)\b|\b(ba|z)?sh\s+(-c\s+)?['\x22]?\$\(\s*(curl|wget)|\b(ba|z)?sh\s+<\(\s*(curl|wget)|\b(iex|invoke-expression)\b[^\n]*\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b|\bexec\(\s*(urllib|requests)",
    },
    Check {
        code: "obfuscated-exec",
        script: High,
        auto: Critical,
        what: "decodes hidden code and runs it",
        hint: "ship the code in plain text so it can be reviewed",
        pattern: r"(?i)\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(sudo\s+)?((ba|z)?sh|python[0-9.]*|perl)\b|\beval\b[^\n]*\bbase64\s+(-d|--decode)|\bexec\(\s*(base64\.b64decode|codecs\.decode|zlib\.decompress|bytes\.fromhex)|\beval\(\s*(atob|Buffer\.from)\(|\bpowershell\b[^\n]*\s-e(nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{16}",
    },
    Check {
        code: "destructive-command",
        script: High,
        auto: Critical,
        what: "can destroy the user's files or disks",
        hint: "limit deletions to the skill's work directory",
        pattern: r#"(?i)\brm\s+(-[a-z]+\s+)*-[a-z]*r[a-z]*\s+(-[a-z]+\s+)*["']?(/|/\*|~/?|\$HOME/?|\$\{HOME\}/?)["']?(\s|;|&|\||$)|\bmkfs(\.[a-z0-9]+)?\b|\bdd\b[^\n]*\bof=/dev/(sd|hd|nvme|disk|mmcblk)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+0?777\s+/(\s|$)|>\s*/dev/(sd[a-z]|nvme\d)"#,
    },
    Check {
        code: "credential-access",
        script: High,
        auto: Critical,
        what: "reads credentials or key stores",
        hint: "a skill should receive the secrets it needs through declared environment variables (`requires.env`), never read key files",
        pattern: r"(?i)(~|\$HOME|\$\{HOME\}|/home/[^/\s]+|/root)/\.ssh/|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\.netrc\b|/etc/shadow\b|\.docker/config\.json|\.kube/config|\.config/gh/hosts\.yml|\.git-credentials|\.pypirc|\bsecurity\s+find-(generic|internet)-password|Login Data|\blogin\.keychain",
    },
    Check {
        code: "secret-exfiltration",
        script: High,
        auto: Critical,
        what: "sends environment secrets over the network",
        hint: "do not send tokens or keys anywhere the user did not configure",
        pattern: r"(?i)\b(curl|wget|nc|ncat|requests\.(post|get|put)|fetch\(|httpx\.(post|get)|invoke-webrequest|invoke-restmethod)[^\n]*(\$\{?[A-Z0-9_]*(TOKEN|SECRET|API_?KEY|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)\b|\bprintenv\b|os\.environ|process\.env)|\b(printenv|env)\b\s*\|\s*(curl|wget|nc|ncat)\b",
    },
    Check {
        code: "permission-bypass",
        script: High,
        auto: Critical,
        what: "turns off the agent's permission checks or edits its settings",
        hint: "a skill must not widen its own permissions; ask the user to change settings",
        pattern: r"(?i)--dangerously-skip-permissions|--dangerously-bypass-approvals|\bbypassPermissions\b|--yolo\b|\.claude/settings(\.local)?\.json|\.codex/config\.toml|\.gemini/settings\.json",
    },
    Check {
        code: "persistence",
        script: High,
        auto: Critical,
        what: "installs itself to run later (shell profile, cron, services, SSH keys)",
        hint: "a skill runs when asked; it must not schedule itself or change login files",
        pattern: r"(?i)>>?\s*(~|\$HOME|\$\{HOME\})/\.(bashrc|zshrc|profile|bash_profile|zprofile|config/fish/config\.fish)\b|\bcrontab\s+(-[a-z]\s+)*[^-\s]|\bcrontab\s+-\s|/etc/cron|\bsystemctl\s+(--user\s+)?enable\b|\blaunchctl\s+(load|bootstrap)\b|authorized_keys",
    },
    Check {
        code: "privilege-escalation",
        script: Medium,
        auto: High,
        what: "asks for administrator rights",
        hint: "skills run as the user; document the setup step instead of running it with sudo",
        pattern: r"(?i)(^|[\s;&|(])sudo\s|\bchmod\s+([ugoa]*\+[rwx]*s|[0-7]?[4-7][0-7]{3}\b)|\bsetcap\b",
    },
    Check {
        code: "package-exec",
        script: Medium,
        auto: Medium,
        what: "downloads a package from a registry or URL and runs it",
        hint: "pin an exact version (`pkg@1.2.3`) or vendor the tool: an unpinned package runs whatever its registry serves that day",
        pattern: r"(?i)\bnpx\s+(-y|--yes)\b|\bnpx\s+(-\S+\s+)*(https?://|github:|git\+)|\b(pnpm|yarn)\s+dlx\b|\bbunx\s|\buvx\s|\bpipx\s+run\b|\bnpm\s+exec\s+(-y|--yes)\b",
    },
    Check {
        code: "network-command",
        script: Medium,
        auto: High,
        what: "reaches the network",
        hint: "check where it connects and what it sends; declare it in the skill's description",
        pattern: r"(?i)(^|[;&|(`]|\$\(|\bthen|\bdo|\bexec|\bsudo)\s*['\x22]?(curl|wget|nc|ncat|netcat|telnet|ssh|scp|sftp|ftp|tftp)\s|\b(requests|httpx|aiohttp)\.(get|post|put|patch|delete|head|request|Session|AsyncClient|ClientSession)\b|\burllib(\.request|2)?\.(urlopen|Request|urlretrieve)\b|\bhttp\.client\.|\bsocket\.(socket|create_connection)\(|\bfetch\(\s*['\x22`]?https?:|\baxios(\.[a-z]+)?\(|\bhttps?\.(request|get)\(|\bnew\s+WebSocket\(|\bXMLHttpRequest\b|\b(invoke-webrequest|invoke-restmethod|iwr|irm)\b|\bNet\.WebClient\b|\bgit\s+(clone|fetch|pull|push)\b|\b(pip|pip3|npm|pnpm|yarn|gem|cargo)\s+(install|add)\b|\[\s*['\x22](curl|wget|ssh|scp|nc|ncat)['\x22]",
    },
];

fn regexes() -> Option<&'static (RegexSet, Vec<Regex>)> {
    static COMPILED: OnceLock<Option<(RegexSet, Vec<Regex>)>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            let set = RegexSet::new(CHECKS.iter().map(|c| c.pattern)).ok()?;
            let each = CHECKS
                .iter()
                .map(|c| Regex::new(c.pattern).ok())
                .collect::<Option<Vec<_>>>()?;
            Some((set, each))
        })
        .as_ref()
}

/// Where a command was found and whether it runs by itself.
pub(super) struct Origin<'a> {
    pub path: &'a str,
    pub at: Option<(u32, u32)>,
    /// `None` for a script line; otherwise how it runs (`at activation`, `on PreToolUse`, …).
    pub auto: Option<&'a str>,
}

/// The findings for one command line (or script line).
pub(super) fn check_line(line: &str, origin: &Origin<'_>) -> Option<AuditFinding> {
    let (set, each) = regexes()?;
    // A line that only prints a message (an install hint, a usage text) runs nothing that is
    // inside its string literals; what it does outside them (pipes, redirects) still counts.
    let blanked;
    let subject = if is_message(line) {
        blanked = blank_strings(line);
        blanked.as_str()
    } else {
        line
    };
    let (check, start) = set.matches(subject).iter().find_map(|index| {
        let check = CHECKS.get(index)?;
        let m = each
            .get(index)?
            .find_iter(subject)
            .find(|m| !excused(check, subject, m))?;
        Some((check, m.start()))
    })?;
    let column = subject.get(..start).map_or(0, |s| s.chars().count());
    let at = origin.at.map(|(l, c)| (l, c + column as u32));
    let shown = excerpt(line);
    // A health check of a local dev server cannot carry anything off the machine.
    let local = check.code == "network-command" && loopback_only(line);
    let (script, auto, what) = if local {
        (
            Low,
            Low,
            "reaches a service on this machine (loopback only)",
        )
    } else {
        (check.script, check.auto, check.what)
    };
    Some(match origin.auto {
        None => finding(
            script,
            check.code,
            origin.path,
            at,
            format!("the script {what}: `{shown}`"),
            check.hint,
        ),
        Some(how) => finding(
            auto,
            check.code,
            origin.path,
            at,
            format!("a command that runs {how} {what}: `{shown}`"),
            check.hint,
        ),
    })
}

fn compiled(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// A download piped into an interpreter that is given its program on the command line
/// (`| python3 -c '…json…'`, `| python -m json.tool`, `| node -e`, `| sh -c`) feeds it
/// data, not code.
fn excused(check: &Check, line: &str, m: &regex::Match<'_>) -> bool {
    static DATA_ARGS: OnceLock<Option<Regex>> = OnceLock::new();
    if check.code != "pipe-to-shell" || !m.as_str().contains('|') {
        return false;
    }
    compiled(&DATA_ARGS, r"^\s+-(c|e|m|p|ne|pe|lne|lpe)\b")
        .zip(line.get(m.end()..))
        .is_some_and(|(re, rest)| re.is_match(rest))
}

/// Whether the line names a loopback host and no other host.
fn loopback_only(line: &str) -> bool {
    static HOSTS: OnceLock<Option<Regex>> = OnceLock::new();
    static LOOPBACK: OnceLock<Option<Regex>> = OnceLock::new();
    static SOCKET: OnceLock<Option<Regex>> = OnceLock::new();
    let (Some(hosts), Some(loopback), Some(socket)) = (
        compiled(&HOSTS, r"(?i)\b[a-z][a-z0-9+.-]*://([^/\s'\x22`?#)]+)"),
        compiled(
            &LOOPBACK,
            r"(?i)^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$|['\x22](localhost|127\.0\.0\.1)['\x22]",
        ),
        compiled(&SOCKET, r"\bsocket\.|\bcreate_connection\(|\.connect\(\("),
    ) else {
        return false;
    };
    let mut named = false;
    for url in hosts.captures_iter(line) {
        // `http://localhost:80@elsewhere/` goes to elsewhere: the host follows the userinfo.
        let authority = url.get(1).map_or("", |a| a.as_str());
        let host = authority.rsplit('@').next().unwrap_or(authority);
        // The port may be a placeholder (`localhost:PORT`): only the name matters.
        let host = if host.starts_with('[') {
            host.split_inclusive(']').next().unwrap_or(host)
        } else {
            host.split(':').next().unwrap_or(host)
        };
        if !loopback.is_match(host) {
            return false;
        }
        named = true;
    }
    // `socket.create_connection(('localhost', port))` names its host without a URL.
    named || (!hosts.is_match(line) && socket.is_match(line) && loopback.is_match(line))
}

/// Whether the line's command only prints or raises a message.
fn is_message(line: &str) -> bool {
    static MESSAGE: OnceLock<Option<Regex>> = OnceLock::new();
    compiled(
        &MESSAGE,
        r"^\s*(echo|printf|print|println|puts|say|warn|die|fail|error|info|log|raise|throw|console\.(log|error|warn|info)|(logger|logging|log|click|typer)\.[a-z_]+|sys\.exit|exit|Write-(Host|Output|Error|Warning))\b(\s*\(|\s+[^=\s]|\s*$)",
    )
    .is_some_and(|re| re.is_match(line))
}

/// The line with the contents of its string literals replaced by spaces (same character
/// count, so columns still point into the original). A double-quoted or template string
/// that substitutes a command (`$(…)`, a backtick) is kept, and so is a backtick string: they run.
fn blank_strings(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if !matches!(c, '"' | '\'' | '`') {
            out.push(c);
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while let Some(&d) = chars.get(end) {
            if d == '\\' && c != '\'' {
                end += 2;
                continue;
            }
            if d == c {
                break;
            }
            end += 1;
        }
        let end = end.min(chars.len());
        let inner: String = chars.get(i + 1..end).unwrap_or_default().iter().collect();
        out.push(c);
        // Backticks run their contents in a shell and template their `${…}` in JavaScript.
        if c == '`' || (c == '"' && (inner.contains("$(") || inner.contains('`'))) {
            out.push_str(&inner);
        } else {
            out.extend(std::iter::repeat_n(' ', inner.chars().count()));
        }
        if let Some(&close) = chars.get(end) {
            out.push(close);
        }
        i = end + 1;
    }
    out
}

pub(super) fn check(file: &File, bytes: &[u8], role: Role) -> Vec<AuditFinding> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    match role {
        Role::Script => {
            out.push(inventory_finding(file, &text));
            let python = file.path.ends_with(".py");
            let mut skip = Skip::None;
            let mut code_seen = false;
            let mut after_header = false;
            for (n, line) in text.lines().enumerate() {
                let trimmed = line.trim_start();
                if skip.continues(line) {
                    continue;
                }
                // Comments never run; shebangs are inventoried above.
                if trimmed.is_empty()
                    || trimmed.starts_with('#')
                    || trimmed.starts_with("//")
                    || trimmed.starts_with("REM ")
                {
                    continue;
                }
                let docstring_place = python && (!code_seen || after_header);
                code_seen = true;
                after_header = python && trimmed.trim_end().ends_with(':');
                if docstring_place {
                    if let Some(s) = Skip::docstring(trimmed) {
                        skip = s;
                        continue;
                    }
                }
                if let Some(s) = Skip::heredoc(trimmed) {
                    skip = s;
                }
                let origin = Origin {
                    path: &file.path,
                    at: Some((u32::try_from(n + 1).unwrap_or(u32::MAX), 1)),
                    auto: None,
                };
                out.extend(check_line(line, &origin));
            }
        }
        Role::SkillMd | Role::CommandMd => {
            for (offset, command) in bang_blocks(&text) {
                let at = Some(line_column(&text, offset));
                out.push(finding(
                    AuditSeverity::Info,
                    "activation-command",
                    &file.path,
                    at,
                    format!(
                        "runs `{}` when activated (where the host allows `!` commands)",
                        excerpt(command)
                    ),
                    "check the command; hosts run it before the model reads the instructions",
                ));
                let origin = Origin {
                    path: &file.path,
                    at,
                    auto: Some("at activation"),
                };
                out.extend(check_line(command, &origin));
            }
        }
        Role::Binary => {
            if is_native_executable(bytes) {
                out.push(finding(
                    AuditSeverity::High,
                    "binary-executable",
                    &file.path,
                    None,
                    "a compiled program: it cannot be reviewed and runs with the user's rights"
                        .to_string(),
                    "ship the source and build it, or install the tool from a package manager",
                ));
            } else if file.executable {
                out.push(executable(file));
            }
        }
        Role::Text if file.executable => out.push(executable(file)),
        _ => {}
    }
    cap(out)
}

/// Lines of a script that are text, not code: a Python docstring (where a docstring can
/// stand: first in the module or right after a `def …:`/`class …:` header), or the body of
/// a `cat <<EOF` that prints a usage text.
enum Skip {
    None,
    /// Until a line containing this closing quote.
    Docstring(&'static str),
    /// Until the terminator line; `expands` when command substitutions in the body run.
    Heredoc {
        end: String,
        expands: bool,
    },
}

impl Skip {
    fn docstring(trimmed: &str) -> Option<Skip> {
        let body = trimmed.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
        let quote = ["\"\"\"", "'''"]
            .into_iter()
            .find(|q| body.starts_with(q))?;
        let rest = body.get(3..).unwrap_or("");
        // A one-line docstring is skipped as it stands; `Skip::None` ends it here.
        Some(if rest.contains(quote) {
            Skip::None
        } else {
            Skip::Docstring(quote)
        })
    }

    fn heredoc(trimmed: &str) -> Option<Skip> {
        static OPENER: OnceLock<Option<Regex>> = OnceLock::new();
        let re = compiled(
            &OPENER,
            r#"^cat\s+<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)['"]?\s*(1?>&[12])?\s*$"#,
        )?;
        let caps = re.captures(trimmed)?;
        Some(Skip::Heredoc {
            end: caps.get(2)?.as_str().to_string(),
            expands: caps.get(1).is_none_or(|q| q.as_str().is_empty()),
        })
    }

    /// Whether `line` is still inside the skipped text (and moves past its end).
    fn continues(&mut self, line: &str) -> bool {
        match self {
            Skip::None => false,
            Skip::Docstring(quote) => {
                if line.contains(*quote) {
                    *self = Skip::None;
                }
                true
            }
            Skip::Heredoc { end, expands } => {
                if line.trim() == end.as_str() {
                    *self = Skip::None;
                    return true;
                }
                // An unquoted terminator lets `$(…)` in the body run.
                !(*expands && (line.contains("$(") || line.contains('`')))
            }
        }
    }
}

/// A script's inventory line: what runs it.
fn inventory_finding(file: &File, text: &str) -> AuditFinding {
    let interpreter = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    let how = match (&interpreter, file.executable) {
        (Some(i), true) => format!("an executable script (`#!{i}`)"),
        (Some(i), false) => format!("a script (`#!{i}`), not executable"),
        (None, true) => "an executable script without a shebang".to_string(),
        (None, false) => "a script, run through an interpreter".to_string(),
    };
    finding(
        AuditSeverity::Info,
        "script",
        &file.path,
        None,
        format!("{how}, {} bytes", file.size),
        "read it before running the skill",
    )
}

fn executable(file: &File) -> AuditFinding {
    finding(
        AuditSeverity::Low,
        "executable-file",
        &file.path,
        None,
        "executable, but not a script in scripts/ or bin/".to_string(),
        "clear the executable bit unless the file is meant to run",
    )
}

/// ELF, Mach-O (both byte orders, fat) and PE/COFF headers.
fn is_native_executable(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
        || bytes.starts_with(b"MZ")
        || bytes.starts_with(&[0xfe, 0xed, 0xfa, 0xce])
        || bytes.starts_with(&[0xfe, 0xed, 0xfa, 0xcf])
        || bytes.starts_with(&[0xce, 0xfa, 0xed, 0xfe])
        || bytes.starts_with(&[0xcf, 0xfa, 0xed, 0xfe])
        || bytes.starts_with(&[0xca, 0xfe, 0xba, 0xbe])
}

/// `` !`command` `` blocks (the syntax hosts expand at activation), as byte offsets and the
/// command text; commands spanning lines are not expanded by hosts and are skipped.
pub(super) fn bang_blocks(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|rest| rest.find("!`")) {
        let start = from + found;
        let after = start + 2;
        let Some(close) = text.get(after..).and_then(|rest| rest.find('`')) else {
            break;
        };
        let command = text.get(after..after + close).unwrap_or("");
        if !command.trim().is_empty() && !command.contains('\n') {
            out.push((start, command));
        }
        from = after + close + 1;
    }
    out
}

/// Keeps at most [`PER_FILE`] findings of each code and says how many more there were.
fn cap(findings: Vec<AuditFinding>) -> Vec<AuditFinding> {
    let mut out: Vec<AuditFinding> = Vec::new();
    let mut dropped: Vec<(String, usize)> = Vec::new();
    for f in findings {
        let kept = out.iter().filter(|k| k.code == f.code).count();
        if kept < PER_FILE {
            out.push(f);
        } else if let Some(entry) = dropped.iter_mut().find(|(c, _)| *c == f.code) {
            entry.1 += 1;
        } else {
            dropped.push((f.code.clone(), 1));
        }
    }
    for (code, n) in dropped {
        if let Some(last) = out.iter_mut().rev().find(|k| k.code == code) {
            last.message
                .push_str(&format!(" (and {n} more like it in this file)"));
        }
    }
    out
}

/// One line of at most 120 characters for a message.
pub(super) fn excerpt(line: &str) -> String {
    let line = line.trim();
    let mut out: String = line.chars().take(120).collect();
    if line.chars().count() > 120 {
        out.push('…');
    }
    out
}
