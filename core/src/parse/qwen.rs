//! Qwen Code 0.15.10's reading of a SKILL.md ([`super::SyntaxRule::QwenLines`]): not YAML but
//! its own line reader (`packages/core/src/utils/yaml-parser.ts`, `parse`), then the checks of
//! `SkillManager.parseSkillContent` (`packages/core/src/skills/skill-manager.ts`). Ported
//! line for line, so that a file loads, and with which name and description, exactly as
//! there.

use super::hosts::{js_trim, Block};
use super::{KeyInfo, Parsed, ValueKind};
use crate::diagnostic::Diagnostic;

/// A JavaScript value as the reader builds it.
#[derive(Clone, Debug, PartialEq)]
enum Js {
    Str(String),
    Num(f64),
    Bool(bool),
    Null,
    Arr(Vec<Js>),
    Obj(Vec<(String, Js)>),
}

impl Js {
    /// JavaScript's `String(value)`.
    fn to_js_string(&self) -> String {
        match self {
            Js::Str(s) => s.clone(),
            Js::Num(n) => number_to_string(*n),
            Js::Bool(b) => b.to_string(),
            Js::Null => "null".to_string(),
            Js::Arr(items) => items
                .iter()
                .map(|v| match v {
                    Js::Null => String::new(),
                    v => v.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Js::Obj(_) => "[object Object]".to_string(),
        }
    }
}

/// An object's properties in JavaScript order: setting an existing key keeps its place.
#[derive(Default)]
struct Object(Vec<(String, Js, u32)>);

impl Object {
    fn set(&mut self, key: String, value: Js, line: u32) {
        match self.0.iter_mut().find(|(k, _, _)| *k == key) {
            Some(slot) => {
                slot.1 = value;
                slot.2 = line;
            }
            None => self.0.push((key, value, line)),
        }
    }

    fn get(&self, key: &str) -> Option<&Js> {
        self.0.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v)
    }

    fn line(&self, key: &str) -> u32 {
        self.0
            .iter()
            .find(|(k, _, _)| k == key)
            .map_or(1, |(_, _, l)| *l)
    }
}

/// JavaScript's `Number(text)` for an already trimmed, non-empty `text`; `None` for `NaN`.
fn js_number(text: &str) -> Option<f64> {
    let t = js_trim(text);
    if t.is_empty() {
        return Some(0.0);
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            return Some(digits.chars().fold(0.0, |acc, c| {
                acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
            }));
        }
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return Some(if t.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    // StrDecimalLiteral: digits, an optional fraction, an optional exponent.
    let b = unsigned.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return None;
        }
        i += exp;
    }
    if i != b.len() {
        return None;
    }
    t.parse::<f64>().ok()
}

/// JavaScript's `Number.prototype.toString()` (shortest round-trip digits).
fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if n == 0.0 {
        return "0".into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // `{:e}` gives the shortest digits: `d.ddde±x`.
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = i64::try_from(digits.len()).unwrap_or(0);
    let point = exp.parse::<i64>().unwrap_or(0) + 1; // JavaScript's `n`
    let body = if k <= point && point <= 21 {
        format!(
            "{digits}{}",
            "0".repeat(usize::try_from(point - k).unwrap_or(0))
        )
    } else if 0 < point && point <= 21 {
        let (a, b) = digits.split_at(usize::try_from(point).unwrap_or(0));
        format!("{a}.{b}")
    } else if -6 < point && point <= 0 {
        format!(
            "0.{}{digits}",
            "0".repeat(usize::try_from(-point).unwrap_or(0))
        )
    } else {
        let e = point - 1;
        let exp = if e < 0 {
            format!("e{e}")
        } else {
            format!("e+{e}")
        };
        let (a, b) = digits.split_at(1);
        if b.is_empty() {
            format!("{a}{exp}")
        } else {
            format!("{a}.{b}{exp}")
        }
    };
    format!("{sign}{body}")
}

/// `parseValue`.
fn value(text: &str) -> Js {
    match text {
        "true" => return Js::Bool(true),
        "false" => return Js::Bool(false),
        "null" => return Js::Null,
        "" => return Js::Str(String::new()),
        _ => {}
    }
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        let inner = &text[1..text.len() - 1];
        return Js::Str(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    match js_number(text) {
        Some(n) if n.is_finite() => Js::Num(n),
        _ => Js::Str(text.to_string()),
    }
}

/// `line.split(":")` into the key and the rest joined with `:`.
fn split_key(line: &str) -> (&str, &str) {
    line.split_once(':').unwrap_or((line, ""))
}

/// The reader itself (`parse` in yaml-parser.ts). Lines are numbered in the block.
fn read(block: &str) -> Object {
    let lines: Vec<(&str, u32)> = block
        .split('\n')
        .enumerate()
        .filter(|(_, l)| {
            let t = js_trim(l);
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| (l, u32::try_from(i + 1).unwrap_or(u32::MAX)))
        .collect();
    let mut result = Object::default();
    let mut current_key = String::new();
    let mut current_array: Vec<Js> = Vec::new();
    let mut in_array = false;
    let mut current_object: Vec<(String, Js)> = Vec::new();
    let mut in_object = false;
    let mut object_key = String::new();
    let mut key_line = 1;
    for (i, &(line, no)) in lines.iter().enumerate() {
        if let Some(item) = line.strip_prefix("  - ") {
            if !in_array {
                in_array = true;
                current_array = Vec::new();
            }
            current_array.push(value(js_trim(item)));
            continue;
        }
        if in_array {
            result.set(
                std::mem::take(&mut current_key),
                Js::Arr(std::mem::take(&mut current_array)),
                key_line,
            );
            in_array = false;
        }
        if line.starts_with("  ") && in_object {
            let (key, rest) = split_key(js_trim(line));
            let key = js_trim(key).to_string();
            let v = value(js_trim(rest));
            match current_object.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = v,
                None => current_object.push((key, v)),
            }
            continue;
        }
        if in_object && !line.starts_with("  ") {
            result.set(
                std::mem::take(&mut object_key),
                Js::Obj(std::mem::take(&mut current_object)),
                key_line,
            );
            in_object = false;
        }
        if line.contains(':') {
            let (key, rest) = split_key(line);
            let v = js_trim(rest);
            if v.is_empty() {
                current_key = js_trim(key).to_string();
                key_line = no;
                if let Some(&(next, _)) = lines.get(i + 1) {
                    if next.starts_with("  - ") {
                        continue;
                    } else if next.starts_with("  ") {
                        in_object = true;
                        object_key = std::mem::take(&mut current_key);
                        current_object = Vec::new();
                        continue;
                    }
                }
            } else {
                result.set(js_trim(key).to_string(), value(v), no);
            }
        }
    }
    if in_array {
        result.set(current_key, Js::Arr(current_array), key_line);
    }
    if in_object {
        result.set(object_key, Js::Obj(current_object), key_line);
    }
    result
}

/// `/^[\p{L}\p{N}_:.-]+$/u`.
fn valid_name(name: &str) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    !name.is_empty()
        && name.chars().all(|c| {
            matches!(c, '_' | ':' | '.' | '-')
                || matches!(
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
        })
}

/// `parseSkillContent` from the frontmatter block on: the reader, then its checks in order.
pub(super) fn parse(block: &Block) -> Parsed {
    let offset = block.line.saturating_sub(1);
    let fm = read(&block.yaml);
    let fail = |code: &'static str, message: String, key: &str, hint: &'static str| {
        Parsed::failed(
            Diagnostic::error(code, message)
                .at(fm.line(key).saturating_add(offset), Some(1))
                .with_hint(hint),
        )
    };
    let missing =
        |v: Option<&Js>| matches!(v, None | Some(Js::Null)) || v == Some(&Js::Str(String::new()));
    if missing(fm.get("name")) {
        return fail(
            "missing-name",
            "Qwen Code requires a `name` (its reader found none, or an empty one)".into(),
            "name",
            "add `name: <directory-name>` on one line",
        );
    }
    if missing(fm.get("description")) {
        return fail(
            "missing-field",
            "Qwen Code requires a `description` (its reader found none, or an empty one)".into(),
            "description",
            "add `description:` and the text on the same line",
        );
    }
    let name = fm.get("name").map(Js::to_js_string).unwrap_or_default();
    if !valid_name(&name) {
        return fail(
            "invalid-name",
            format!(
                "Qwen Code refuses the name `{name}`: only letters, digits, `_`, `:`, `.` and `-`"
            ),
            "name",
            "use letters, digits and hyphens only",
        );
    }
    let description = fm
        .get("description")
        .map(Js::to_js_string)
        .unwrap_or_default();
    if matches!(fm.get("allowedTools"), Some(v) if !matches!(v, Js::Arr(_))) {
        return fail(
            "invalid-field-type",
            "Qwen Code refuses an `allowedTools` that is not a list".into(),
            "allowedTools",
            "write `allowedTools:` followed by `  - Tool` lines",
        );
    }
    if block.yaml.contains("hooks:") {
        // The host parses the whole block once more with the `yaml` package; skilldeck's
        // YAML loader stands in for it (a document it refuses is refused).
        let strict = super::yaml::YamlOptions {
            duplicate_keys_error: true,
            ..super::yaml::YamlOptions::default()
        };
        let hooks_null = match super::yaml::load_with(&block.yaml, strict) {
            Err(e) => {
                return fail(
                    "invalid-yaml",
                    format!("the frontmatter holds `hooks:`, so Qwen Code reads it as YAML too, and that fails: {}", e.message),
                    "hooks",
                    "make the whole frontmatter valid YAML",
                )
            }
            Ok(super::yaml::Loaded::Mapping(entries)) => entries
                .iter()
                .any(|e| e.key == "hooks" && e.value.is_null()),
            Ok(_) => false,
        };
        if hooks_null {
            return fail(
                "invalid-field-type",
                "Qwen Code refuses an empty `hooks:`".into(),
                "hooks",
                "remove `hooks:` or give it events",
            );
        }
    }
    match fm.get("model") {
        None | Some(Js::Str(_)) => {}
        Some(_) => {
            return fail(
                "invalid-field-type",
                "Qwen Code refuses a `model` that is not text".into(),
                "model",
                "write the model name as text",
            )
        }
    }
    match fm.get("paths") {
        None | Some(Js::Null) => {}
        Some(Js::Arr(items)) => {
            for item in items {
                let pattern = js_trim(&item.to_js_string()).replace('\\', "/");
                let drive = pattern.len() >= 2
                    && pattern.as_bytes()[0].is_ascii_alphabetic()
                    && pattern.as_bytes()[1] == b':';
                if pattern.starts_with('/') || drive || pattern.split('/').any(|s| s == "..") {
                    return fail(
                        "invalid-field-type",
                        format!("Qwen Code refuses the `paths` entry `{pattern}`: patterns are relative to the project and stay inside it"),
                        "paths",
                        "drop the leading `/` or drive letter and any `..`",
                    );
                }
            }
        }
        Some(_) => {
            return fail(
                "invalid-field-type",
                "Qwen Code refuses a `paths` that is not a list".into(),
                "paths",
                "write `paths:` followed by `  - glob` lines",
            )
        }
    }
    if js_trim(&description).is_empty() {
        return fail(
            "missing-field",
            "Qwen Code refuses a blank `description`".into(),
            "description",
            "describe what the skill does and when to use it",
        );
    }
    let mut parsed = Parsed {
        body_line: Some(block.body_line),
        ..Parsed::default()
    };
    for key in ["name", "description"] {
        parsed.keys.push(KeyInfo {
            key: key.to_string(),
            line: fm.line(key).saturating_add(offset),
            column: 1,
            kind: ValueKind::String,
            ..KeyInfo::default()
        });
    }
    parsed.manifest.name = Some(name);
    parsed.manifest.description = Some(description);
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(yaml: &str) -> Block {
        Block {
            yaml: yaml.to_string(),
            line: 2,
            body_line: 5,
        }
    }

    fn read_nd(yaml: &str) -> Option<(String, String)> {
        let p = parse(&block(yaml));
        p.is_ok()
            .then(|| (p.manifest.name.unwrap(), p.manifest.description.unwrap()))
    }

    #[test]
    fn values_are_typed_then_stringified() {
        let nd = |n: &str, d: &str| Some((n.to_string(), d.to_string()));
        assert_eq!(
            read_nd("name: a\ndescription: Use when: asked"),
            nd("a", "Use when: asked")
        );
        assert_eq!(read_nd("name: 007\ndescription: 1.50"), nd("7", "1.5"));
        assert_eq!(
            read_nd("name: a\ndescription: 'quoted'"),
            nd("a", "'quoted'")
        );
        assert_eq!(
            read_nd("name: \"a\"\ndescription: \"x \\\"y\\\"\""),
            nd("a", "x \"y\"")
        );
        assert_eq!(read_nd("name: a\ndescription: |"), nd("a", "|"));
        assert_eq!(
            read_nd("name: a\ndescription:\n  - one\n  - 2"),
            nd("a", "one,2")
        );
        assert_eq!(
            read_nd("name: a\ndescription:\n  k: v"),
            nd("a", "[object Object]")
        );
        assert_eq!(read_nd("  name: a\ndescription: true"), nd("a", "true"));
        assert_eq!(read_nd("name: a b\ndescription: x"), None);
        assert_eq!(read_nd("name: a\ndescription:"), None);
        assert_eq!(read_nd("name: a\ndescription: \"  \""), None);
        assert_eq!(read_nd("name: a\ndescription: x\nmodel: 5"), None);
    }

    #[test]
    fn numbers_print_as_javascript_does() {
        for (n, s) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (123456789012.0, "123456789012"),
            (0.000001, "0.000001"),
            (-2.5e-10, "-2.5e-10"),
        ] {
            assert_eq!(number_to_string(n), s);
        }
        assert_eq!(js_number("0x1F"), Some(31.0));
        assert_eq!(js_number("1_000"), None);
        assert_eq!(js_number(".5"), Some(0.5));
        assert_eq!(js_number("5."), Some(5.0));
        assert_eq!(js_number("1e"), None);
    }
}
