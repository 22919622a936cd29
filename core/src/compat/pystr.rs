//! Python string semantics that skills-ref's answers depend on (`str.strip()`,
//! `str.isalnum()`, `len()`, `repr()`), so messages and checks match the
//! reference implementation character for character.

use serde_json::Value;
use std::fmt::Write;
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

/// `repr(s)` for a `str`.
pub fn repr_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    repr_str_into(s, &mut out);
    out
}

/// `repr(str)`: single quotes unless the text holds `'` and no `"`; `\\`, the quote, `\t`,
/// `\n`, `\r` escaped; other characters that are not printable (`str.isprintable`: general
/// categories C* and Z* except the space) as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
pub fn repr_str_into(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
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
            c if is_printable(c) => out.push(c),
            c if u32::from(c) <= 0xff => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if u32::from(c) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08x}", u32::from(c));
            }
        }
    }
    out.push(quote);
}

/// `str.isprintable()` for one character.
fn is_printable(c: char) -> bool {
    c == ' '
        || !matches!(
            get_general_category(c),
            G::Control
                | G::Format
                | G::Surrogate
                | G::PrivateUse
                | G::Unassigned
                | G::LineSeparator
                | G::ParagraphSeparator
                | G::SpaceSeparator
        )
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
    fn repr_escapes_what_python_does_not_print() {
        // Printed by CPython 3.11.7: repr('a\xa0b\x85c\u200bd\U0001F600e\x7f').
        assert_eq!(
            repr_str("a\u{a0}b\u{85}c\u{200b}d\u{1F600}e\u{7f}"),
            "'a\\xa0b\\x85c\\u200bd\u{1F600}e\\x7f'"
        );
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
