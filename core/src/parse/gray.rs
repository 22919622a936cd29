//! gray-matter's frontmatter rules and OpenCode's repair of it ([`super::FenceRule::GrayMatter`],
//! [`super::RepairRule::Opencode`]), as OpenCode 1.18.33 runs them: `matter(text)`, and when
//! that throws, `matter(sanitize(text))` once more.
//!
//! gray-matter: a leading BOM is dropped; the text must start with `---` and the fourth
//! character must not be `-`; the rest of the first line names the language (empty, `yaml`,
//! `yml` or `json`; `javascript` would be evaluated, and anything else is an engine the host
//! does not have, so skilldeck refuses both); the block ends at
//! the first `\n---` anywhere, so `----` and `--- text` close it too, and without one the
//! rest of the file is the block. A block of only blank and `# comment` lines is empty data.

use super::frontmatter;
use super::{Dialect, Parsed};
use crate::diagnostic::Diagnostic;

/// What gray-matter makes of a text.
enum Matter<'a> {
    /// No frontmatter: the host sees empty data.
    None,
    /// A language the host has no engine for (the parse throws).
    Language(String),
    /// The frontmatter block, the 1-based line it starts on, and the line after its end.
    Block {
        yaml: &'a str,
        line: u32,
        body_line: Option<u32>,
    },
}

fn line_number(text: &str, at: usize) -> u32 {
    let ends = text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(ends).unwrap_or(u32::MAX).saturating_add(1)
}

fn matter(text: &str) -> Matter<'_> {
    let Some(rest) = text.strip_prefix("---") else {
        return Matter::None;
    };
    if rest.starts_with('-') {
        return Matter::None;
    }
    // `str.search(/\r?\n/)`; without a line break JavaScript's `slice(0, -1)` keeps all but
    // the last character.
    let language = match rest.find('\n') {
        Some(nl) => rest[..nl].strip_suffix('\r').unwrap_or(&rest[..nl]),
        None => {
            let last = rest.char_indices().last().map_or(0, |(i, _)| i);
            &rest[..last]
        }
    };
    let name = language.trim();
    let block = if name.is_empty() {
        rest
    } else if matches!(name, "yaml" | "yml" | "json") {
        // JSON is read as YAML, of which it is (near enough) a subset.
        &rest[language.len()..]
    } else {
        return Matter::Language(name.to_string());
    };
    let start = text.len() - block.len();
    let (yaml, body_line) = match block.find("\n---") {
        Some(end) => (
            &block[..end],
            Some(line_number(text, start + end + 1).saturating_add(1)),
        ),
        None => (block, None),
    };
    Matter::Block {
        yaml,
        line: line_number(text, start),
        body_line,
    }
}

/// gray-matter's emptiness test: nothing but blank lines and `# comment` lines.
fn is_empty_block(yaml: &str) -> bool {
    yaml.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// Parse `text` as OpenCode reads it.
pub fn parse(text: &str, dialect: &Dialect) -> Parsed {
    // gray-matter drops a BOM; the host's `sanitize` regex does not, so a file with a BOM is
    // never repaired.
    let first = parse_once(text.strip_prefix('\u{feff}').unwrap_or(text), dialect);
    // Only a throwing YAML parse makes the host sanitize; a value of the wrong type does not.
    let threw = first
        .diagnostics
        .iter()
        .any(|d| d.is_error() && matches!(&*d.code, "invalid-yaml" | "duplicate-key"));
    if !threw || dialect.repair != super::RepairRule::Opencode {
        return first;
    }
    match sanitize(text) {
        Some(fixed) => {
            let mut second = parse_once(&fixed, dialect);
            if !second.is_ok() {
                return first;
            }
            second.diagnostics.push(
                Diagnostic::warning(
                    "yaml-repaired",
                    "this frontmatter is not valid YAML; OpenCode reads its `key: value` lines holding `:` as block scalars",
                )
                .at(2, None)
                .with_hint("quote values that contain `: `"),
            );
            // Keys keep their kinds (the profile checks `name`/`description` types); their
            // lines are those of the repaired text, one further down per repaired line above.
            second
        }
        None => first,
    }
}

fn parse_once(text: &str, dialect: &Dialect) -> Parsed {
    match matter(text) {
        Matter::None => Parsed::failed(
            Diagnostic::error(
                "missing-frontmatter",
                "SKILL.md does not start with a `---` frontmatter block (as gray-matter reads it)",
            )
            .at(1, Some(1))
            .with_hint("start the file with `---` (exactly three dashes), then `name:` and `description:`, then `---`"),
        ),
        Matter::Language(name) => Parsed::failed(
            Diagnostic::error(
                "frontmatter-language",
                format!("the opening `--- {name}` names a frontmatter language the host cannot read"),
            )
            .at(1, Some(4))
            .with_hint("write the opening fence as `---` alone on its line"),
        ),
        Matter::Block {
            yaml,
            line,
            body_line,
        } => {
            if is_empty_block(yaml) {
                return Parsed::failed(super::empty_frontmatter());
            }
            let yaml = normalise_breaks(yaml);
            let parsed = Parsed {
                body_line,
                ..Parsed::default()
            };
            super::parse_block(parsed, &yaml, line, dialect)
        }
    }
}

/// The block with `\r\n` and lone `\r` as `\n`, as the YAML reader sees line breaks.
fn normalise_breaks(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len());
    for l in frontmatter::lines_from(yaml, 0) {
        out.push_str(l.text);
        out.push('\n');
    }
    out
}

/// OpenCode's `sanitize`: inside `^---\r?\n(…)\r?\n---`, each top-level `key: value` line
/// (key `[A-Za-z_][A-Za-z0-9_]*`) whose trimmed value is not empty, `>`, `|` or quoted and
/// holds a `:` becomes `key: |-` and the value on the next line. `None` when nothing
/// matches the pattern.
fn sanitize(text: &str) -> Option<String> {
    let after = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    // The lazy `([\s\S]*?)\r?\n---`: the first `\n---` (its `\r`, if any, is not captured).
    let end = after.find("\n---")?;
    let block = &after[..end];
    let block = block.strip_suffix('\r').unwrap_or(block);
    let start = text.len() - after.len();
    let mut lines: Vec<String> = Vec::new();
    for line in split_crlf(block) {
        lines.extend(sanitize_line(line));
    }
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..start]);
    out.push_str(&lines.join("\n"));
    out.push_str(&text[start + block.len()..]);
    Some(out)
}

/// JavaScript's `split(/\r?\n/)`.
fn split_crlf(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

fn sanitize_line(line: &str) -> Vec<String> {
    let keep = vec![line.to_string()];
    let trimmed = js_trim(line);
    if trimmed.starts_with('#')
        || trimmed.is_empty()
        || line.starts_with(|c: char| c.is_whitespace() || c == '\u{feff}')
    {
        return keep;
    }
    // `.` does not match line terminators, so such a line never matches `(.*)$`.
    if line.contains(['\r', '\u{2028}', '\u{2029}']) {
        return keep;
    }
    let key_len = line
        .char_indices()
        .take_while(|(i, c)| c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit()))
        .count();
    if key_len == 0 {
        return keep;
    }
    let (key, rest) = line.split_at(key_len);
    let Some(value) = js_trim(rest).strip_prefix(':') else {
        return keep;
    };
    let value = js_trim(value);
    if value.is_empty()
        || value == ">"
        || value == "|"
        || value.starts_with(['"', '\''])
        || !value.contains(':')
    {
        return keep;
    }
    vec![format!("{key}: |-"), format!("  {value}")]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialect() -> Dialect {
        Dialect {
            fences: super::super::FenceRule::GrayMatter,
            repair: super::super::RepairRule::Opencode,
            ..Dialect::default()
        }
    }

    fn read(text: &str) -> (Option<String>, Option<String>, bool) {
        let p = parse(text, &dialect());
        (
            p.manifest.name.clone(),
            p.manifest.description.clone(),
            p.is_ok(),
        )
    }

    #[test]
    fn fences_as_gray_matter_finds_them() {
        assert_eq!(
            read("---\nname: a\ndescription: b\n----\nbody")
                .1
                .as_deref(),
            Some("b")
        );
        assert_eq!(
            read("---\nname: a\ndescription: b\n--- end\nbody")
                .1
                .as_deref(),
            Some("b")
        );
        assert_eq!(
            read("---\nname: a\ndescription: open\n").1.as_deref(),
            Some("open")
        );
        assert_eq!(
            read("--- yaml\nname: a\ndescription: b\n---\n")
                .0
                .as_deref(),
            Some("a")
        );
        assert_eq!(
            read("\u{feff}---\nname: a\ndescription: b\n---\n")
                .0
                .as_deref(),
            Some("a")
        );
        assert!(!read("----\nname: a\n---\n").2);
        assert!(!read(" ---\nname: a\n---\n").2);
        assert!(!read("--- toml\nname = 'a'\n---\n").2);
        assert!(!read("---\nname: a\n  ---\nbody\n").2);
    }

    #[test]
    fn sanitize_turns_colon_values_into_block_scalars() {
        assert_eq!(
            sanitize("---\nname: a\ndescription: Use when: x\n  nested: y: z\n---\nbody")
                .as_deref(),
            Some("---\nname: a\ndescription: |-\n  Use when: x\n  nested: y: z\n---\nbody")
        );
        let (_, description, ok) = read("---\nname: a\ndescription: Use it for:\n---\n");
        assert!(ok);
        assert_eq!(description.as_deref(), Some("Use it for:"));
        // Hyphenated keys do not match the host's pattern.
        assert!(!read("---\nname: a\ndescription: ok\nallowed-tools: a: b\n---\n").2);
    }
}
