//! The repair pass: frontmatter that breaks strict YAML in the two ways authors most often
//! write it is re-read after quoting the offending value, with a `yaml-repaired` warning.
//!
//! Repaired (one value at a time, the one the YAML error points at):
//! - a plain value holding `: ` — `description: Use when: the user asks`;
//! - a value that starts as a flow collection and goes on after it closes —
//!   `argument-hint: [file] [mode]` — or as a quoted string that text follows —
//!   `description: "Beta" converter`;
//! - a value starting with a reserved indicator — `` `code` ``, `@mention`, `*emphasis*`;
//! - a plain value continued on indented lines, one of which holds `: `.
//!
//! The value becomes a double-quoted string with `\` and `"` escaped (a continued value
//! stays on its lines: a multi-line double-quoted string folds exactly as the plain one
//! would, and line numbers do not move). Anything else, such as an unclosed `[`
//! (`name: [invalid`), is a genuine error and is left to fail.

/// At most this many lines are repaired in one document.
pub(super) const MAX_REPAIRS: usize = 16;

/// Try to repair `line` (0-based in `yaml`). Returns the new document.
pub fn repair_line(yaml: &str, line: usize) -> Option<String> {
    let mut lines: Vec<String> = yaml.split('\n').map(str::to_string).collect();
    let target = lines.get(line)?;
    if let Some(fixed) = quote_value(target) {
        lines[line] = fixed;
        return Some(lines.join("\n"));
    }
    quote_continued(&mut lines, line)?;
    Some(lines.join("\n"))
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `line` continues a plain value started by a less-indented `key: value` line above it:
/// quote the whole value across its lines.
fn quote_continued(lines: &mut [String], line: usize) -> Option<()> {
    let indent = indent_of(lines.get(line)?);
    let owner = (0..line)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && indent_of(&lines[i]) < indent)?;
    let owner_indent = indent_of(&lines[owner]);
    let (key, value) = lines[owner][owner_indent..].split_once(':')?;
    let value = value.trim();
    let plain = value
        .chars()
        .next()
        .is_some_and(|c| !"\"'[{|>&*!#%@`".contains(c));
    let key_ok = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !plain || !key_ok || key.starts_with("- ") {
        return None;
    }
    // Every line between the owner and the end of the value belongs to it.
    let mut last = owner;
    for (i, l) in lines.iter().enumerate().skip(owner + 1) {
        if l.trim().is_empty() {
            continue;
        }
        if indent_of(l) <= owner_indent {
            break;
        }
        last = i;
    }
    if last < line {
        return None;
    }
    let prefix = lines[owner][..owner_indent].to_string();
    lines[owner] = format!("{prefix}{key}: \"{}", escape(value));
    for l in lines.iter_mut().take(last + 1).skip(owner + 1) {
        *l = escape(l);
    }
    lines[last].push('"');
    Some(())
}

/// `key: value` with a repairable value → `key: "value"`.
fn quote_value(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    let rest_no_dash = rest.strip_prefix("- ").unwrap_or(rest);
    let prefix_len = indent + (rest.len() - rest_no_dash.len());
    let (key, value) = rest_no_dash.split_once(':')?;
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return None;
    }
    if !value.starts_with([' ', '\t']) {
        return None;
    }
    let value = value.trim();
    if value.is_empty() || !needs_quoting(value) {
        return None;
    }
    Some(format!(
        "{}{key}: \"{}\"",
        &line[..prefix_len],
        escape(value)
    ))
}

fn needs_quoting(value: &str) -> bool {
    match value.chars().next() {
        Some('[' | '{') => closes_early(value),
        Some(q @ ('"' | '\'')) => quote_closes_early(value, q),
        // Reserved indicators cannot start a plain scalar (`@mention`, `` `code` ``), and
        // `*word*` emphasis reads as an alias; the author meant text.
        Some('@' | '`' | '*') => true,
        Some('|' | '>' | '&' | '!' | '#' | '%') | None => false,
        Some(_) => value.contains(": ") || value.ends_with(':'),
    }
}

/// True when the quoted scalar at the start of `value` ends before the value does and text
/// (not a comment) follows it: `"Quoted" and more`.
fn quote_closes_early(value: &str, quote: char) -> bool {
    let mut chars = value.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
            continue;
        }
        if c == quote {
            if quote == '\'' && chars.peek().map(|(_, n)| *n) == Some('\'') {
                chars.next();
                continue;
            }
            let rest = value[i + c.len_utf8()..].trim();
            return !rest.is_empty() && !rest.starts_with('#');
        }
    }
    false
}

/// True when the flow collection at the start of `value` is balanced and closes before the
/// end of the value, i.e. more text follows it (`[a] [b]`, `[x] more`).
fn closes_early(value: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in value.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return !value[i + c.len_utf8()..].trim().is_empty() && balanced(value);
                }
            }
            _ => {}
        }
    }
    false
}

fn balanced(value: &str) -> bool {
    let mut depth = 0i32;
    for c in value.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Repeatedly load `yaml`, repairing the line each error points at. Returns the final
/// result and the 1-based YAML lines that were repaired.
pub fn load_with_repairs(
    yaml: &str,
    with: super::yaml::YamlOptions,
) -> (
    Result<super::yaml::Loaded, super::yaml::YamlError>,
    Vec<u32>,
) {
    let first = super::yaml::load_with(yaml, with);
    let Err(first_err) = first else {
        return (first, Vec::new());
    };
    if first_err.limit {
        return (Err(first_err), Vec::new());
    }
    let mut doc = yaml.to_string();
    let mut repaired = Vec::new();
    let mut err = first_err.clone();
    while repaired.len() < MAX_REPAIRS {
        let Some(line) = err.line.and_then(|l| usize::try_from(l).ok()) else {
            break;
        };
        let Some(line0) = line.checked_sub(1) else {
            break;
        };
        let Some(next) = repair_line(&doc, line0) else {
            break;
        };
        repaired.push(u32::try_from(line).unwrap_or(u32::MAX));
        doc = next;
        match super::yaml::load_with(&doc, with) {
            Ok(loaded) => return (Ok(loaded), repaired),
            Err(e) if e.limit || e.line == err.line => break,
            Err(e) => err = e,
        }
    }
    // Could not repair: report the original error, not one from a half-repaired text.
    (Err(first_err), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::super::yaml::Loaded;
    use super::*;

    #[test]
    fn quotes_colon_values_and_trailing_flow() {
        assert_eq!(
            quote_value("description: Use when: the user \"asks\""),
            Some("description: \"Use when: the user \\\"asks\\\"\"".into())
        );
        assert_eq!(
            quote_value("argument-hint: [file] [mode]"),
            Some("argument-hint: \"[file] [mode]\"".into())
        );
        assert_eq!(
            quote_value("description: @mention the user"),
            Some("description: \"@mention the user\"".into())
        );
        assert_eq!(
            quote_value("description: \"Quoted\" and more"),
            Some("description: \"\\\"Quoted\\\" and more\"".into())
        );
        assert_eq!(quote_value("description: 'It''s' # comment"), None);
        assert_eq!(quote_value("name: [invalid"), None);
        assert_eq!(quote_value("name: plain"), None);
    }

    #[test]
    fn repairs_several_lines() {
        let (loaded, lines) = load_with_repairs(
            "name: a\ndescription: Do: this\nargument-hint: [a] [b]\n",
            Default::default(),
        );
        assert!(matches!(loaded, Ok(Loaded::Mapping(ref e)) if e.len() == 3));
        assert_eq!(lines, vec![2, 3]);
    }

    #[test]
    fn repairs_a_continued_plain_value() {
        let yaml = "name: a\ndescription: Some text\n  continued: with \"colon\"\n  and more\nlicense: MIT\n";
        let (loaded, lines) = load_with_repairs(yaml, Default::default());
        let Ok(Loaded::Mapping(entries)) = loaded else {
            panic!("not repaired: {loaded:?}");
        };
        assert_eq!(lines, vec![3]);
        assert_eq!(
            entries[1].value,
            serde_json::json!("Some text continued: with \"colon\" and more")
        );
        assert_eq!(entries[2].line, 5);
    }

    #[test]
    fn genuine_errors_still_fail() {
        let (loaded, lines) = load_with_repairs("name: [invalid\n", Default::default());
        assert!(loaded.is_err());
        assert!(lines.is_empty());
    }
}
