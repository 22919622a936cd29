//! The repair pass: frontmatter that breaks strict YAML in the two ways authors most often
//! write it is re-read after quoting the offending value, with a `yaml-repaired` warning.
//!
//! Repaired (one line at a time, the line the YAML error points at):
//! - a plain value holding `: ` — `description: Use when: the user asks`;
//! - a value that starts as a flow collection and goes on after it closes —
//!   `argument-hint: [file] [mode]`.
//!
//! The value becomes a double-quoted string with `\` and `"` escaped. Anything else, such
//! as an unclosed `[` (`name: [invalid`), is a genuine error and is left to fail.

/// At most this many lines are repaired in one document.
const MAX_REPAIRS: usize = 16;

/// Try to repair `line` (0-based in `yaml`). Returns the new document.
pub fn repair_line(yaml: &str, line: usize) -> Option<String> {
    let mut lines: Vec<&str> = yaml.split('\n').collect();
    let target = *lines.get(line)?;
    let fixed = quote_value(target)?;
    lines[line] = &fixed;
    Some(lines.join("\n"))
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
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    Some(format!("{}{key}: \"{escaped}\"", &line[..prefix_len]))
}

fn needs_quoting(value: &str) -> bool {
    match value.chars().next() {
        Some('[' | '{') => closes_early(value),
        Some('"' | '\'' | '|' | '>' | '&' | '*' | '!' | '#' | '%' | '@' | '`') | None => false,
        Some(_) => value.contains(": ") || value.ends_with(':'),
    }
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
) -> (
    Result<super::yaml::Loaded, super::yaml::YamlError>,
    Vec<u32>,
) {
    let first = super::yaml::load(yaml);
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
        match super::yaml::load(&doc) {
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
        assert_eq!(quote_value("name: [invalid"), None);
        assert_eq!(quote_value("name: plain"), None);
    }

    #[test]
    fn repairs_several_lines() {
        let (loaded, lines) =
            load_with_repairs("name: a\ndescription: Do: this\nargument-hint: [a] [b]\n");
        assert!(matches!(loaded, Ok(Loaded::Mapping(ref e)) if e.len() == 3));
        assert_eq!(lines, vec![2, 3]);
    }

    #[test]
    fn genuine_errors_still_fail() {
        let (loaded, lines) = load_with_repairs("name: [invalid\n");
        assert!(loaded.is_err());
        assert!(lines.is_empty());
    }
}
