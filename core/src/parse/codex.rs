//! Codex's repair of frontmatter that does not load (recorded from Codex 0.169.0 with the
//! broken-file matrix, `scripts/oracle/matrix.py`; see [`super::RepairRule::Codex`]).
//!
//! When the YAML fails, or `name`/`description` comes out as a list or a map, every
//! `key: value` line (at any indentation, `- ` items included) outside a block scalar is
//! looked at. Its value, without a ` #` comment and trimmed, is double-quoted when it holds
//! `": "`, starts with `@` or `` ` ``, or starts with `[`/`{` and is not valid YAML on its
//! own. Values that start with a quote, `|`, `>` or `#` are left alone, so `*alias`,
//! `%text`, `- item`, an unterminated quoted string or a trailing `key:` still fail. If the
//! repaired document does not load either, the host reports the original error.

use super::yaml::{self, Loaded, YamlError, YamlOptions};

/// Load `yaml`, repairing it the way Codex does. Returns the result and the 1-based lines
/// that were quoted (empty when the original loaded).
pub fn load(
    yaml: &str,
    first: Result<Loaded, YamlError>,
    with: YamlOptions,
) -> (Result<Loaded, YamlError>, Vec<u32>) {
    if matches!(&first, Ok(loaded) if accepted(loaded)) {
        return (first, Vec::new());
    }
    if matches!(&first, Err(e) if e.limit) {
        return (first, Vec::new());
    }
    let Some((doc, lines)) = quote_lines(yaml) else {
        return (first, Vec::new());
    };
    match yaml::load_with(&doc, with) {
        Ok(loaded) if accepted(&loaded) => (Ok(loaded), lines),
        _ => (first, Vec::new()),
    }
}

/// Codex's serde struct takes the document: `name` and `description` are not lists or
/// maps (a `String` refuses them), and `metadata` is a map (or null) whose short description
/// is not a list or a map.
pub fn accepted(loaded: &Loaded) -> bool {
    let Loaded::Mapping(entries) = loaded else {
        return true;
    };
    let structured = |v: &serde_json::Value| v.is_array() || v.is_object();
    entries.iter().all(|e| match e.key.as_str() {
        "name" | "description" => !structured(&e.value),
        "metadata" => match &e.value {
            serde_json::Value::Null => true,
            serde_json::Value::Object(map) => {
                ["short-description", "shortDescription", "short_description"]
                    .iter()
                    .filter_map(|k| map.get(*k))
                    .all(|v| !structured(v))
            }
            _ => false,
        },
        _ => true,
    })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// The document with every value Codex quotes quoted, and those lines; `None` when no line
/// changed.
fn quote_lines(yaml: &str) -> Option<(String, Vec<u32>)> {
    let mut out: Vec<String> = Vec::new();
    let mut quoted = Vec::new();
    let mut block: Option<usize> = None;
    for (i, line) in yaml.split('\n').enumerate() {
        let indent = indent_of(line);
        if let Some(owner) = block {
            if line.trim().is_empty() || indent > owner {
                out.push(line.to_string());
                continue;
            }
            block = None;
        }
        let Some((key, raw)) = split_key_value(line) else {
            out.push(line.to_string());
            continue;
        };
        let value = strip_comment(raw).trim();
        if value.starts_with(['|', '>']) {
            block = Some(indent);
        }
        if needs_quoting(value) {
            out.push(format!("{key}: \"{}\"", escape(value)));
            quoted.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
        } else {
            out.push(line.to_string());
        }
    }
    (!quoted.is_empty()).then(|| (out.join("\n"), quoted))
}

/// Split at the line's first `:`, which must be followed by a space or a tab (`key:value: x`
/// and `key:: x` are left alone).
fn split_key_value(line: &str) -> Option<(&str, &str)> {
    let at = line.find(':')?;
    matches!(line.as_bytes().get(at + 1), Some(b' ' | b'\t'))
        .then(|| (&line[..at], &line[at + 1..]))
}

/// The value up to a `#` that follows whitespace (a YAML comment).
fn strip_comment(value: &str) -> &str {
    let bytes = value.as_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t')) {
            return &value[..i];
        }
    }
    value
}

fn needs_quoting(value: &str) -> bool {
    match value.chars().next() {
        None | Some('"' | '\'' | '|' | '>' | '#') => false,
        Some('@' | '`') => true,
        Some('[' | '{') => value.contains(": ") || yaml::load(value).is_err(),
        Some(_) => value.contains(": "),
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(yaml: &str) -> Option<Vec<(String, serde_json::Value)>> {
        let first = yaml::load(yaml);
        match load(yaml, first, YamlOptions::default()).0 {
            Ok(Loaded::Mapping(entries)) => {
                Some(entries.into_iter().map(|e| (e.key, e.value)).collect())
            }
            _ => None,
        }
    }

    fn description(yaml: &str) -> Option<serde_json::Value> {
        read(yaml)?
            .into_iter()
            .find(|(k, _)| k == "description")
            .map(|(_, v)| v)
    }

    #[test]
    fn quotes_what_codex_quotes() {
        assert_eq!(
            description("name: a\ndescription: Use when: asked # c\n"),
            Some(json!("Use when: asked"))
        );
        assert_eq!(
            description("name: a\ndescription: [unclosed\n"),
            Some(json!("[unclosed"))
        );
        assert_eq!(
            description("name: a\ndescription: {a: b}\n"),
            Some(json!("{a: b}"))
        );
        assert_eq!(description("name: a\ndescription: @x\n"), Some(json!("@x")));
        assert_eq!(
            description("name: a\ndescription: a\\b: \"c\"\n"),
            Some(json!("a\\b: \"c\""))
        );
        // Block scalar content is left as written.
        assert_eq!(
            description("name: a\ndescription: |\n  See: [link\ntags: [x\n"),
            Some(json!("See: [link\n"))
        );
    }

    #[test]
    fn leaves_what_codex_refuses() {
        for yaml in [
            "name: a\ndescription: \"never closed\n",
            "name: a\ndescription: *alias\n",
            "name: a\ndescription: %50 off\n",
            "name: a\ndescription: Use it for:\n",
            "name: a\ndescription: 'a': b\n",
            "name: a\ndescription: [a, b]\n",
            "name: a\ndescription: Long text\n  that goes on: here\n",
        ] {
            let first = yaml::load(yaml);
            let (result, lines) = load(yaml, first.clone(), YamlOptions::default());
            let still_bad = match &result {
                Err(_) => true,
                Ok(loaded) => !accepted(loaded),
            };
            assert!(still_bad, "{yaml:?} loaded: {result:?}");
            assert!(lines.is_empty());
            assert_eq!(result, first);
        }
    }

    #[test]
    fn a_failed_repair_reports_the_original_error() {
        // Both values get quoted, and `metadata` then is text, which Codex refuses.
        let yaml = "name: a\ndescription: ok\nmetadata: {a: b}\ntags: [x\n";
        let first = yaml::load(yaml);
        assert!(first.is_err());
        assert_eq!(load(yaml, first.clone(), YamlOptions::default()).0, first);
    }
}
