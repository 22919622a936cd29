//! Hosts whose frontmatter rules are a regular expression rather than fence lines, and
//! hosts that do not read the block as YAML alone:
//!
//! - [`FenceRule::DashPrefix`] and [`RepairRule::Gemini`]: Gemini CLI 0.61.0
//!   (`packages/core/src/skills/skillLoader.ts`). `FRONTMATTER_REGEX =
//!   /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/`, then js-yaml 4's `load`; when that
//!   throws, or `name`/`description` is not a string, `parseSimpleFrontmatter` scans the lines.
//! - [`FenceRule::ExactLines`] and [`SyntaxRule::QwenLines`]: Qwen Code 0.15.10
//!   (`packages/core/src/skills/skill-manager.ts`, see [`super::qwen`]).

use super::dialect::{FenceRule, RepairRule, SyntaxRule};
use super::{frontmatter, Dialect, Fences, KeyInfo, Parsed, ValueKind};
use crate::diagnostic::Diagnostic;

/// The frontmatter block a fence rule finds.
pub(super) struct Block {
    /// The block's text, line ends as in the file (`\r\n` kept) unless the rule normalises.
    pub yaml: String,
    /// 1-based line of the block's first line.
    pub line: u32,
    /// 1-based line after the closing fence.
    pub body_line: u32,
}

fn lines_before(text: &str, at: usize) -> u32 {
    let n = text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `^---\r?\n([\s\S]*?)\r?\n---`: the first `\n---` after the opening line ends the block.
pub(super) fn dash_prefix(text: &str) -> Option<Block> {
    let after = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let end = after.find("\n---")?;
    let yaml = &after[..end];
    let yaml = yaml.strip_suffix('\r').unwrap_or(yaml);
    let start = text.len() - after.len();
    Some(Block {
        yaml: yaml.to_string(),
        line: 2,
        body_line: lines_before(text, start + end + 1).saturating_add(2),
    })
}

/// Whether the body is blank as a host with `dash-prefix` fences cuts it: whatever follows
/// the closing `---` (the rest of that line too, one line break dropped), or the whole text
/// when there is no block (Cline: "Missing instructions body in skill file.").
pub fn dash_prefix_body_blank(text: &str, dialect: &Dialect) -> bool {
    let text = if dialect.strip_bom {
        text.strip_prefix('\u{feff}').unwrap_or(text)
    } else {
        text
    };
    let body = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))
        .and_then(|after| after.find("\n---").map(|end| &after[end + 4..]))
        .unwrap_or(text);
    body.trim().is_empty()
}

/// Qwen Code's `normalizeContent`: a leading BOM dropped, `\r\n` and lone `\r` as `\n`.
pub(super) fn normalise_content(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// `^---\n([\s\S]*?)\n---(?:\n|$)` on the normalised text: the first later line that is
/// exactly `---` (the line right after the opening cannot close it).
pub(super) fn exact_lines(text: &str) -> Option<Block> {
    let text = normalise_content(text);
    let after = text.strip_prefix("---\n")?;
    let mut from = 0;
    while let Some(i) = after[from..].find("\n---") {
        let at = from + i;
        let rest = &after[at + 4..];
        if rest.is_empty() || rest.starts_with('\n') {
            return Some(Block {
                yaml: after[..at].to_string(),
                line: 2,
                body_line: lines_before(after, at + 1).saturating_add(3),
            });
        }
        from = at + 1;
    }
    None
}

/// Python's `str.isspace()` (and the `\s` of a `str` pattern): Unicode White_Space plus the
/// separators U+001C..U+001F.
pub(super) fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Mistral Vibe's text: leading BOMs dropped, `\r\n` and lone `\r` made `\n`.
fn vibe_text(text: &str) -> String {
    text.trim_start_matches('\u{feff}')
        .replace("\r\n", "\n")
        .replace('\r', "\n")
}

/// The matches of `^-{3,}\s*$` (multi-line) in `text` from `from`, as byte ranges.
fn dash_run_at(text: &str, line_start: usize) -> Option<usize> {
    let rest = &text[line_start..];
    let dashes = rest.len() - rest.trim_start_matches('-').len();
    if dashes < 3 {
        return None;
    }
    let after = &rest[dashes..];
    let run = after.len() - after.trim_start_matches(py_space).len();
    if run == after.len() {
        return Some(text.len());
    }
    // `\s*` backs off to the last line end inside the run, where `$` matches.
    after[..run].rfind('\n').map(|i| line_start + dashes + i)
}

fn dash_runs_split(text: &str) -> Option<(usize, usize, usize, usize)> {
    let mut found = Vec::new();
    let mut at = 0;
    while found.len() < 2 && at <= text.len() {
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            if let Some(end) = dash_run_at(text, at) {
                found.push((at, end));
                at = end + 1;
                continue;
            }
        }
        match text[at..].find('\n') {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    match found[..] {
        [(s1, e1), (s2, e2)] => Some((s1, e1, s2, e2)),
        _ => None,
    }
}

/// `re.split(r"^-{3,}\s*$", text, 2, re.M)` (Mistral Vibe): at least two fence lines, and
/// only whitespace before the first.
pub(super) fn dash_runs(text: &str) -> Option<Block> {
    let text = vibe_text(text);
    let (s1, e1, s2, _e2) = dash_runs_split(&text)?;
    if !text[..s1].chars().all(py_space) {
        return None;
    }
    let (yaml, line) = match text[e1..s2].strip_prefix('\n') {
        Some(rest) => (rest, lines_before(&text, e1) + 2),
        None => (&text[e1..s2], lines_before(&text, e1) + 1),
    };
    Some(Block {
        yaml: yaml.to_string(),
        line,
        body_line: lines_before(&text, s2) + 2,
    })
}

/// The text read so far already settles that no block will be found: a complete line that
/// is neither blank nor a fence comes before any fence.
pub(super) fn dash_runs_refused(text: &str) -> bool {
    let text = vibe_text(text);
    let mut lines = text.split('\n');
    lines.next_back();
    for line in lines {
        if line.chars().all(py_space) {
            continue;
        }
        return dash_run_at(line, 0).is_none();
    }
    false
}

/// Goose's `split("---")`: the piece between the first two `---`, trimmed.
pub(super) fn split_anywhere(text: &str) -> Option<Block> {
    let open = text.find("---")?;
    let start = open + 3;
    let len = text[start..].find("---")?;
    let piece = &text[start..start + len];
    let lead = piece.len() - piece.trim_start().len();
    Some(Block {
        yaml: piece.trim().to_string(),
        line: lines_before(text, start + lead).saturating_add(1),
        body_line: lines_before(text, start + len).saturating_add(1),
    })
}

/// The block by any line-based fence rule (gray-matter has its own module).
fn block(text: &str, fences: FenceRule) -> Result<Block, Diagnostic> {
    let found = match fences {
        FenceRule::DashPrefix => dash_prefix(text),
        FenceRule::ExactLines => exact_lines(text),
        FenceRule::DashRuns => dash_runs(text),
        FenceRule::SplitAnywhere => split_anywhere(text),
        FenceRule::Lines
        | FenceRule::LfLines
        | FenceRule::LfLinesTrimEnd
        | FenceRule::GrayMatter => {
            let split = frontmatter::split_rules(
                text,
                fences == FenceRule::Lines,
                fences != FenceRule::LfLinesTrimEnd,
            );
            match split.fences {
                Fences::Closed => Some(Block {
                    yaml: split.yaml,
                    line: split.yaml_line,
                    body_line: split.body_line.unwrap_or(split.yaml_line),
                }),
                Fences::Unterminated => {
                    return Err(Diagnostic::error(
                        "unterminated-frontmatter",
                        "the frontmatter opened on line 1 is never closed",
                    )
                    .at(1, Some(1))
                    .with_hint("add a line holding only `---` after the last frontmatter key"))
                }
                Fences::MissingOpening => None,
            }
        }
    };
    found.ok_or_else(|| no_block(text, fences))
}

fn no_block(text: &str, fences: FenceRule) -> Diagnostic {
    let why = if fences == FenceRule::DashPrefix && text.starts_with('\u{feff}') {
        "SKILL.md starts with a byte-order mark, so this host finds no `---` frontmatter block"
    } else if fences == FenceRule::DashPrefix
        && !text.starts_with("---\n")
        && !text.starts_with("---\r\n")
    {
        "SKILL.md does not start with a line of exactly `---` (this host takes no BOM, indentation, trailing space or fourth dash)"
    } else if fences == FenceRule::DashPrefix {
        "the frontmatter opened on line 1 is never closed (this host closes it at the first line starting with `---`)"
    } else if fences == FenceRule::DashRuns {
        "no `---` frontmatter block as this host reads it: only blank lines before a line of three or more dashes, then a later such line"
    } else if fences == FenceRule::SplitAnywhere {
        "no frontmatter block as this host reads it: the text must hold `---` at least twice (it cuts the file at every `---`, wherever it stands)"
    } else if fences == FenceRule::ExactLines {
        "no `---` frontmatter block as this host reads it: a first line of exactly `---`, then a later line of exactly `---` (no trailing space or indentation)"
    } else {
        "SKILL.md does not start with a `---` frontmatter block"
    };
    Diagnostic::error("missing-frontmatter", why)
        .at(1, Some(1))
        .with_hint(
            "start the file with `---`, then `name:` and `description:`, then a line of `---`",
        )
}

/// A file the host loads without keys because it has no frontmatter block: the reason stays
/// as a warning, the whole text is the body.
pub(super) fn without_frontmatter(mut why: Diagnostic) -> Parsed {
    why.severity = crate::diagnostic::Severity::Warning;
    why.hint = Some(
        "the host loads it without a name or description; add a `---` frontmatter block".into(),
    );
    let mut parsed = Parsed {
        body_line: Some(1),
        ..Parsed::default()
    };
    parsed.diagnostics.push(why);
    parsed
}

/// Parse `text` as a host with one of these rules reads it.
pub(super) fn parse(text: &str, dialect: &Dialect) -> Parsed {
    let block = match located_block(text, dialect) {
        Ok(b) => b,
        Err(d) if dialect.missing_is_empty => return without_frontmatter(d),
        Err(d) => return Parsed::failed(d),
    };
    if dialect.syntax == SyntaxRule::QwenLines {
        return super::qwen::parse(&block);
    }
    let yaml = yaml_lines(&block, dialect);
    let first = Parsed {
        body_line: Some(block.body_line),
        ..Parsed::default()
    };
    let first = if yaml.trim().is_empty() && dialect.non_mapping_is_empty {
        first
    } else if yaml.trim().is_empty() {
        Parsed {
            diagnostics: vec![super::empty_frontmatter()],
            ..first
        }
    } else {
        super::parse_block(first, &yaml, block.line, dialect)
    };
    if dialect.repair != RepairRule::Gemini || strings_read(&first) {
        return first;
    }
    let (name, description) = scan_lines(&block.yaml);
    let (Some(name), Some(description)) = (name, description) else {
        let mut failed = first;
        if failed.is_ok() {
            failed.diagnostics.push(
                Diagnostic::error(
                    "missing-field",
                    "this host needs both a `name:` and a `description:` line; one is missing",
                )
                .at(block.line, Some(1))
                .with_hint("add `name:` and `description:` lines to the frontmatter"),
            );
        }
        return failed;
    };
    let mut parsed = Parsed {
        body_line: Some(block.body_line),
        ..Parsed::default()
    };
    let why = first.diagnostics.iter().find(|d| d.is_error()).map_or_else(
        || "`name` or `description` is not text".to_string(),
        |d| d.message.to_string(),
    );
    parsed.diagnostics.push(
        Diagnostic::warning(
            "yaml-repaired",
            format!(
                "{why}; this host reads the `name:` and `description:` lines as written instead"
            ),
        )
        .at(name.1.saturating_add(block.line - 1), None)
        .with_hint(
            "write valid YAML, quoting values that hold `: ` or start with a special character",
        ),
    );
    for (key, (_, line)) in [("name", &name), ("description", &description)] {
        parsed.keys.push(KeyInfo {
            key: key.to_string(),
            line: line.saturating_add(block.line - 1),
            column: 1,
            kind: ValueKind::String,
            ..KeyInfo::default()
        });
    }
    parsed.manifest.name = Some(name.0);
    parsed.manifest.description = Some(description.0);
    parsed
}

/// The YAML text of `text`'s frontmatter block as [`parse`] hands it to the YAML loader, or
/// `None` when the host finds no block.
pub(crate) fn yaml_text(text: &str, dialect: &Dialect) -> Option<String> {
    located_block(text, dialect)
        .ok()
        .map(|block| yaml_lines(&block, dialect))
}

/// The block the host finds, its lines counted from the file's first line.
fn located_block(text: &str, dialect: &Dialect) -> Result<Block, Diagnostic> {
    let text = if dialect.strip_bom {
        text.strip_prefix('\u{feff}').unwrap_or(text)
    } else {
        text
    };
    // python-frontmatter looks for the fences in the text with whitespace stripped at both
    // ends; line numbers still count from the file's first line.
    let (text, skipped_lines) = if dialect.strip_text {
        let stripped = text.trim_matches(py_space);
        let lead = &text[..text.len() - text.trim_start_matches(py_space).len()];
        (stripped, lines_before(lead, lead.len()))
    } else {
        (text, 0)
    };
    let block = if dialect.bom_is_text && text.starts_with('\u{feff}') {
        return Err(Diagnostic::error(
            "missing-frontmatter",
            "SKILL.md starts with a byte-order mark, so this host finds no `---` frontmatter block",
        )
        .at(1, Some(1))
        .with_hint("save the file as UTF-8 without BOM"));
    } else {
        block(text, dialect.fences)?
    };
    Ok(Block {
        line: block.line.saturating_add(skipped_lines),
        body_line: block.body_line.saturating_add(skipped_lines),
        ..block
    })
}

/// The block's lines, each ended by `\n`, as the YAML loader reads them.
fn yaml_lines(block: &Block, dialect: &Dialect) -> String {
    // js-yaml and the YAML loader both take `\r`, `\r\n` and `\n` as line breaks.
    let mut yaml = frontmatter::lines_from(&block.yaml, 0)
        .map(|l| format!("{}\n", l.text))
        .collect::<String>();
    // Goose trims the block, so its last line has no line break, which a block scalar
    // ending there shows (`|` keeps no final newline).
    if dialect.fences == FenceRule::SplitAnywhere && !block.yaml.ends_with(['\n', '\r']) {
        yaml.pop();
    }
    yaml
}

/// js-yaml's answer was used: it parsed, and `name` and `description` are both strings.
fn strings_read(parsed: &Parsed) -> bool {
    let kind = |key: &str| {
        parsed
            .keys
            .iter()
            .rev()
            .find(|k| k.key == key)
            .map(|k| k.kind)
    };
    parsed.is_ok()
        && kind("name") == Some(ValueKind::String)
        && kind("description") == Some(ValueKind::String)
}

/// JavaScript's `\s`: Unicode White_Space without U+0085, plus U+FEFF.
pub(super) fn js_space(c: char) -> bool {
    c == '\u{feff}' || (c != '\u{85}' && c.is_whitespace())
}

fn js_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

pub(super) fn js_trim(s: &str) -> &str {
    s.trim_matches(js_space)
}

/// `line.match(/^\s*KEY:\s*(.*)$/)`: the captured value, or `None`.
fn key_line<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start_matches(js_space).strip_prefix(key)?;
    let rest = rest.strip_prefix(':')?;
    let value = rest.trim_start_matches(js_space);
    // `.` matches no line terminator and `$` is the end of the line.
    (!value.contains(js_line_terminator)).then_some(value)
}

/// `nextLine.match(/^[ \t]+\S/)`.
fn continuation(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t']);
    rest.len() < line.len() && rest.chars().next().is_some_and(|c| !js_space(c))
}

/// Gemini CLI's `parseSimpleFrontmatter`: lines split at `\r?\n`; the last `name:` line and
/// the last `description:` line (with the indented lines after it) win. Values with the
/// 1-based line (in the block) they were read from.
#[allow(clippy::type_complexity)]
fn scan_lines(block: &str) -> (Option<(String, u32)>, Option<(String, u32)>) {
    let lines: Vec<&str> = block
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if let Some(value) = key_line(lines[i], "name") {
            name = Some((js_trim(value).to_string(), line_no));
        } else if let Some(value) = key_line(lines[i], "description") {
            let mut parts = vec![js_trim(value).to_string()];
            while i + 1 < lines.len() && continuation(lines[i + 1]) {
                parts.push(js_trim(lines[i + 1]).to_string());
                i += 1;
            }
            parts.retain(|p| !p.is_empty());
            description = Some((parts.join(" "), line_no));
        }
        i += 1;
    }
    (name, description)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_with;

    fn gemini() -> Dialect {
        Dialect {
            read: crate::parse::ReadRule::Lossy,
            fences: FenceRule::DashPrefix,
            repair: RepairRule::Gemini,
            duplicate_keys: crate::parse::DuplicateRule::Error,
            reject_unknown_tags: true,
            tab_separation: true,
            ..Dialect::default()
        }
    }

    fn read(text: &str) -> (Option<String>, Option<String>, bool) {
        let p = parse_with(text, &gemini());
        (
            p.manifest.name.clone(),
            p.manifest.description.clone(),
            p.is_ok(),
        )
    }

    #[test]
    fn dash_prefix_fences() {
        assert_eq!(
            dash_prefix("---\nname: a\n---\nbody").unwrap().yaml,
            "name: a"
        );
        assert_eq!(
            dash_prefix("---\r\nname: a\r\n----\r\n").unwrap().yaml,
            "name: a"
        );
        assert_eq!(dash_prefix("---\nname: a\n--- end\n").unwrap().body_line, 4);
        assert!(dash_prefix("---\n---\nbody\n").is_none());
        assert!(dash_prefix("--- \nname: a\n---\n").is_none());
        assert!(dash_prefix("\u{feff}---\nname: a\n---\n").is_none());
        assert!(dash_prefix("---\nname: a\n  ---\n").is_none());
    }

    fn vibe() -> Dialect {
        Dialect {
            read: crate::parse::ReadRule::Lossy,
            fences: FenceRule::DashRuns,
            repair: RepairRule::None,
            reject_unknown_tags: true,
            yaml_1_1: true,
            tab_token_error: true,
            duplicate_anchors_error: true,
            ..Dialect::default()
        }
    }

    /// The type PyYAML gives `name`, and whether the file parses.
    fn vibe_name(text: &str) -> (Option<ValueKind>, bool) {
        let p = parse_with(text, &vibe());
        let kind = p
            .keys
            .iter()
            .rev()
            .find(|k| k.key == "name")
            .map(|k| k.kind);
        (kind, p.is_ok())
    }

    #[test]
    fn dash_runs_fences() {
        let yaml = |t: &str| dash_runs(t).map(|b| b.yaml);
        assert_eq!(
            yaml("---\nname: a\n---\nbody").as_deref(),
            Some("name: a\n")
        );
        assert_eq!(
            yaml("\n  \n-----  \nname: a\n----\n").as_deref(),
            Some("name: a\n")
        );
        assert_eq!(
            yaml("\u{feff}---\r\nname: a\r---\r\n").as_deref(),
            Some("name: a\n")
        );
        assert_eq!(yaml("---\nname: a\n---").as_deref(), Some("name: a\n"));
        assert_eq!(yaml("---\n---\n").as_deref(), Some(""));
        assert!(dash_runs("# title\n---\nname: a\n---\n").is_none());
        let goose = split_anywhere("junk\n--- name: a\n  \n---body").unwrap();
        assert_eq!(
            (goose.yaml.as_str(), goose.line, goose.body_line),
            ("name: a", 2, 4)
        );
        assert_eq!(split_anywhere("name: a---b---").unwrap().yaml, "b");
        assert!(split_anywhere("---\nname: a\n").is_none());
        assert!(dash_runs("--- yaml\nname: a\n---\n").is_none());
        assert!(dash_runs("---\nname: a\n  ---\n").is_none());
        assert!(dash_runs("---\nname: a\n--- end\n").is_none());
        assert!(dash_runs_refused("text\n"));
        assert!(!dash_runs_refused("\n  \n---\nname"));
    }

    #[test]
    fn yaml_1_1_scalars_and_python_tabs() {
        for plain in [
            "yes",
            "on",
            "1001",
            "0x1f",
            "017",
            "1_000",
            "1.5",
            "2024-01-01",
            "~",
        ] {
            let (kind, _) = vibe_name(&format!("---\nname: {plain}\ndescription: d\n---\n"));
            assert_ne!(kind, Some(ValueKind::String), "{plain}");
        }
        for text in ["1e5", "'yes'", "\"1001\"", "!!str 4242", "y", "0o17", "a-b"] {
            let (kind, ok) = vibe_name(&format!("---\nname: {text}\ndescription: d\n---\n"));
            assert_eq!((kind, ok), (Some(ValueKind::String), true), "{text}");
        }
        for bad in [
            "name:\ta",
            "name: a\tb",
            "name: a\t",
            "\tname: a",
            "name: [a,\tb]",
            "name: |\n\tx",
        ] {
            let (_, ok) = vibe_name(&format!("---\n{bad}\ndescription: d\n---\n"));
            assert!(!ok, "{bad:?}");
        }
        let (_, ok) = vibe_name("---\nname: a\nx: &a v\ny: &a w\ndescription: d\n---\n");
        assert!(!ok, "duplicate anchor");
        let (_, ok) = vibe_name("---\nname: a\nx: &a v\ny: b &a\ndescription: *a\n---\n");
        assert!(ok, "`&` inside a plain scalar");
        for fine in [
            "name: 'a\tb'",
            "name: \"a\tb\"",
            "name: a # c\t",
            "name: |\n  \tx",
        ] {
            let (_, ok) = vibe_name(&format!("---\n{fine}\ndescription: d\n---\n"));
            assert!(ok, "{fine:?}");
        }
    }

    #[test]
    fn exact_lines_fences() {
        assert_eq!(
            exact_lines("---\nname: a\n---\nbody").unwrap().yaml,
            "name: a"
        );
        assert_eq!(
            exact_lines("\u{feff}---\rname: a\r---").unwrap().yaml,
            "name: a"
        );
        assert_eq!(
            exact_lines("---\na: 1\n----\nb: 2\n---\n").unwrap().yaml,
            "a: 1\n----\nb: 2"
        );
        assert!(exact_lines("---\n---\nbody\n").is_none());
        assert!(exact_lines("---\nname: a\n---  \n").is_none());
    }

    #[test]
    fn gemini_reads_lines_when_yaml_fails_or_is_not_text() {
        let ok = |n: &str, d: &str| (Some(n.to_string()), Some(d.to_string()), true);
        assert_eq!(
            read("---\nname: a\ndescription: Use when: asked\n---\n"),
            ok("a", "Use when: asked")
        );
        assert_eq!(
            read("---\nname: 1001\ndescription: x\n---\n"),
            ok("1001", "x")
        );
        assert_eq!(
            read("---\nname: a\ndescription: \"open\n---\n"),
            ok("a", "\"open")
        );
        assert_eq!(
            read("---\nname: a\ndescription: one\n  two\n\tthree\n---\n"),
            ok("a", "one two three")
        );
        assert_eq!(
            read("---\nname: a\ndescription: A.\ndescription: B.\n---\n"),
            ok("a", "B.")
        );
        // YAML that reads: its strings, not the lines.
        assert_eq!(
            read("---\nname: 'q'\ndescription: |\n  x\n---\n"),
            ok("q", "x\n")
        );
        let (_, _, loaded) = read("---\nname: a\n---\n");
        assert!(!loaded);
    }

    /// python-frontmatter as OpenHands reads it.
    fn openhands() -> Dialect {
        Dialect {
            read: crate::parse::ReadRule::WholeFile,
            fences: FenceRule::DashRuns,
            repair: RepairRule::None,
            non_mapping_is_empty: true,
            missing_is_empty: true,
            bom_is_text: true,
            strip_text: true,
            ..Dialect::default()
        }
    }

    #[test]
    fn missing_frontmatter_is_empty_when_the_host_says_so() {
        for text in [
            "# just a body\n",
            "---\nname: a\n",
            "",
            "---\nname: a\n...\n",
        ] {
            let p = parse_with(text, &openhands());
            assert!(p.is_ok(), "{text:?}: {:?}", p.diagnostics);
            assert_eq!(p.manifest.name, None, "{text:?}");
            assert!(p
                .diagnostics
                .iter()
                .all(|d| d.severity == crate::diagnostic::Severity::Warning));
        }
        // Without the flag the same file is refused.
        let strict = Dialect {
            missing_is_empty: false,
            ..openhands()
        };
        assert!(!parse_with("# just a body\n", &strict).is_ok());
    }

    #[test]
    fn a_bom_hides_the_frontmatter_when_it_is_text() {
        let text = "\u{feff}---\nname: a\ndescription: d\n---\n";
        let p = parse_with(text, &openhands());
        assert!(p.is_ok());
        assert_eq!(p.manifest.description, None);
        let dropped = Dialect {
            bom_is_text: false,
            ..openhands()
        };
        assert_eq!(
            parse_with(text, &dropped).manifest.description.as_deref(),
            Some("d")
        );
    }

    #[test]
    fn stripped_text_takes_an_indented_opening_fence_and_keeps_line_numbers() {
        let text = "\n\n   ---\nname: a\ndescription: [\n---\n";
        let p = parse_with(text, &openhands());
        let yaml = p
            .diagnostics
            .iter()
            .find(|d| d.code == "invalid-yaml")
            .expect("the block is read, and its YAML fails");
        assert!(yaml.line.is_some_and(|l| l >= 4), "{yaml:?}");
        let p = parse_with("  ---\nname: a\n---\n", &openhands());
        assert_eq!(p.manifest.name.as_deref(), Some("a"));
        let unstripped = Dialect {
            strip_text: false,
            ..openhands()
        };
        assert_eq!(
            parse_with("  ---\nname: a\n---\n", &unstripped)
                .manifest
                .name,
            None
        );
    }

    #[test]
    fn a_document_end_before_content_is_an_error_for_pyyaml() {
        for text in ["---\n...\n---\n", "---\n# c\n...\n---\n"] {
            let p = parse_with(text, &openhands());
            assert!(p.is_ok(), "{text:?}: {:?}", p.diagnostics);
            let pyyaml = Dialect {
                document_end_first_error: true,
                ..openhands()
            };
            let p = parse_with(text, &pyyaml);
            assert_eq!(p.diagnostics[0].code, "invalid-yaml", "{text:?}");
        }
        let pyyaml = Dialect {
            document_end_first_error: true,
            ..openhands()
        };
        // Content first, or an indented `...` (a plain scalar), is fine.
        assert!(parse_with("---\nname: a\n...\n---\n", &pyyaml).is_ok());
        assert!(parse_with("---\n ...\n---\n", &pyyaml).is_ok());
    }

    #[test]
    fn empty_and_scalar_blocks_read_as_no_keys() {
        for text in [
            "---\n---\nbody\n",
            "---\n# c\n---\n",
            "---\njust text\n---\n",
        ] {
            let p = parse_with(text, &openhands());
            assert!(p.is_ok(), "{text:?}: {:?}", p.diagnostics);
        }
    }
}
