//! Python string semantics that skills-ref's answers depend on (`str.strip()`,
//! `str.isalnum()`, `len()`, `repr()`), so messages and checks match the
//! reference implementation character for character.

use serde_json::Value;
use unicode_general_category::{get_general_category, GeneralCategory as G};

/// `str.isspace()` for one character: Unicode White_Space plus the ASCII information
/// separators U+001C..U+001F, which Python also counts as whitespace.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `str.strip()` without arguments.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `len(s)`: code points, not bytes.
pub fn len(s: &str) -> usize {
    s.chars().count()
}

/// `str.isalnum()` for one character: a letter (`L*`) or a number (`N*`).
pub fn is_alnum(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

/// `repr(s)` for a `str`: single quotes unless the text holds `'` and no `"`.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// `str(value)` for what StrictYAML returns (str, list, dict of those).
pub fn str_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => repr_of(other),
    }
}

fn repr_of(value: &Value) -> String {
    match value {
        Value::String(s) => repr_str(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(repr_of).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", repr_str(k), repr_of(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Number(n) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strip_matches_python() {
        assert_eq!(strip("\u{1f} a b \u{a0}\n"), "a b");
    }

    #[test]
    fn isalnum_covers_scripts_and_rejects_marks() {
        assert!("技能мойnavyké١".chars().all(is_alnum));
        assert!(!is_alnum('_'));
        assert!(!is_alnum('\u{301}'));
    }

    #[test]
    fn repr_follows_python_quoting() {
        assert_eq!(repr_str("a"), "'a'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("a'\"b"), "'a\\'\"b'");
        assert_eq!(
            str_of(&json!({"a": ["x", "y"]})),
            "{'a': ['x', 'y']}".to_string()
        );
    }
}
