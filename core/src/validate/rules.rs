//! Frontmatter rules: the Agent Skills specification as skills-ref 0.1.1 enforces it
//! (strict), and what hosts load (lenient). Only the frontmatter is looked at here, so
//! discovery can run these without reading bodies.

// skills-ref is Python: names are stripped and checked with Python's `str.strip()` and
// `str.isalnum()`, which differ from Rust's `trim` and `is_alphanumeric` (Python rejects
// combining vowel signs, so `नमस्ते` is not a valid name there).
use crate::compat::pystr::{is_alnum as py_isalnum, strip};
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::{Parsed, ValueKind};
use serde_json::Value;
use std::path::Path;
use unicode_normalization::UnicodeNormalization;

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The top-level keys the specification allows (strict mode rejects every other key).
pub const SPEC_KEYS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Parse findings that make a file fail skills-ref 0.1.1 (strictyaml rejects duplicate keys,
/// and a repaired value was invalid YAML as written).
const STRICT_ERRORS: [&str; 2] = ["duplicate-key", "yaml-repaired"];

struct Rules<'a> {
    parsed: &'a Parsed,
    strict: bool,
    out: Vec<Diagnostic>,
}

impl Rules<'_> {
    /// Spec violations: errors in strict mode, warnings in lenient mode.
    fn spec(&self) -> Severity {
        if self.strict {
            Severity::Error
        } else {
            Severity::Warning
        }
    }

    /// Where the entry read for field `key` is (else the last one spelled like it).
    fn key_pos(&self, key: &str) -> Option<(u32, u32)> {
        let spelled = |k: &&crate::parse::KeyInfo| crate::parse::folds_to(&k.key, key);
        let keys = &self.parsed.keys;
        keys.iter()
            .rev()
            .filter(spelled)
            .find(|k| !k.unread)
            .or_else(|| keys.iter().rev().find(spelled))
            .map(|k| (k.line, k.column))
    }

    fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        at_key: &str,
        message: impl Into<crate::SharedStr>,
        hint: &'static str,
    ) {
        let mut d = Diagnostic::new(code, severity, message).with_hint(hint);
        if let Some((line, column)) = self.key_pos(at_key) {
            d = d.at(line, Some(column));
        }
        self.out.push(d);
    }

    fn kind(&self, key: &str) -> Option<ValueKind> {
        self.parsed
            .keys
            .iter()
            .rev()
            .find(|k| k.key == key)
            .map(|k| k.kind)
    }
}

/// ASCII text is its own NFKC form (every ASCII character is its own decomposition and
/// composes with nothing), so most names skip the normaliser and its allocation.
fn nfkc(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(s.nfkc().collect())
    }
}

/// Check the frontmatter of the SKILL.md at `skill_md`. Returns the rule findings only (the
/// caller adds the parse diagnostics).
pub fn check_frontmatter(parsed: &Parsed, skill_md: &Path, strict: bool) -> Vec<Diagnostic> {
    let mut r = Rules {
        parsed,
        strict,
        out: Vec::new(),
    };
    if parsed.keys.is_empty() {
        // Nothing was read (the parse diagnostics say why); no rule can add anything useful.
        return r.out;
    }
    unknown_keys(&mut r);
    name(&mut r, skill_md);
    description(&mut r);
    compatibility(&mut r);
    metadata(&mut r);
    allowed_tools(&mut r);
    r.out
}

fn unknown_keys(r: &mut Rules) {
    // The parse outlives the rules; iterating it needs no copy of every key.
    let parsed = r.parsed;
    for k in &parsed.keys {
        let known = if r.strict {
            SPEC_KEYS.contains(&k.key.as_str())
        } else {
            crate::parse::is_known_key(&k.key)
        };
        if known {
            continue;
        }
        let hint = if r.strict {
            "the specification allows only name, description, license, compatibility, metadata and allowed-tools; move other fields under `metadata`"
        } else {
            "hosts ignore this key; move it under `metadata` or remove it"
        };
        r.out.push(
            Diagnostic::new("unknown-key", r.spec(), unknown_key_message(&k.key))
                .at(k.line, Some(k.column))
                .with_hint(hint),
        );
    }
}

/// "unknown frontmatter key `KEY`", interned: a handful of keys (`source`, `risk`, ...)
/// recur in thousands of files. Put together in a stack buffer rather than by `format!`,
/// whose machinery and allocation cost more than the lookup (~5M instructions of a
/// 10,000-skill `list`, bench/PROFILE.md item 205).
fn unknown_key_message(key: &str) -> crate::SharedStr {
    const HEAD: &[u8] = b"unknown frontmatter key `";
    let mut buffer = [0u8; 128];
    let len = HEAD.len() + key.len() + 1;
    let text = buffer.get_mut(..len).and_then(|out| {
        let (head, rest) = out.split_at_mut(HEAD.len());
        head.copy_from_slice(HEAD);
        let (middle, tail) = rest.split_at_mut(key.len());
        middle.copy_from_slice(key.as_bytes());
        tail.copy_from_slice(b"`");
        std::str::from_utf8(out).ok()
    });
    match text {
        Some(text) => crate::SharedStr::interned(text),
        None => crate::SharedStr::interned(&format!("unknown frontmatter key `{key}`")),
    }
}

/// A field that must be a string but is a list or mapping: the parser already reported it
/// (an error for name and description, a warning otherwise); strict mode makes the others
/// errors too, as skills-ref rejects a non-string compatibility. True when not a string.
fn not_a_string(r: &mut Rules, key: &str) -> bool {
    if !matches!(r.kind(key), Some(ValueKind::List | ValueKind::Map)) {
        return false;
    }
    if r.strict && key == "compatibility" {
        r.push(
            Severity::Error,
            "invalid-field-type",
            key,
            format!("`{key}` must be a string"),
            "write the value as one line of text",
        );
    }
    true
}

/// Why `name` is not a valid skill name under the specification's rules (1–64 characters,
/// lowercase letters, digits and single hyphens, no leading or trailing hyphen), or `None`
/// when it is one. Installers use it before a name becomes a directory.
pub fn skill_name_problem(name: &str) -> Option<String> {
    let chars = name.chars().count();
    if chars == 0 {
        return Some("a skill name cannot be empty".into());
    }
    if chars > MAX_NAME_CHARS {
        return Some(format!(
            "`{name}` is {chars} characters; the limit is {MAX_NAME_CHARS}"
        ));
    }
    let lowercase = if name.is_ascii() {
        !name.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        name.to_lowercase() == *name
    };
    if !lowercase {
        return Some(format!("`{name}` must be lowercase"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some(format!("`{name}` cannot start or end with a hyphen"));
    }
    if name.contains("--") {
        return Some(format!("`{name}` cannot contain consecutive hyphens"));
    }
    if !name.chars().all(|c| py_isalnum(c) || c == '-') {
        return Some(format!(
            "`{name}` may contain only letters, digits and hyphens"
        ));
    }
    None
}

fn name(r: &mut Rules, skill_md: &Path) {
    if not_a_string(r, "name") {
        return;
    }
    // `parse::fallback_name`, borrowed: a copy of the directory name per file otherwise.
    let dir = crate::path_bytes::parent(skill_md)
        .and_then(crate::path_bytes::file_name)
        .map(|n| n.to_string_lossy());
    let raw = r.parsed.manifest.name.as_deref().map(strip).unwrap_or("");
    if raw.is_empty() {
        let (severity, message) = match (&dir, r.strict) {
            (Some(dir), false) => (
                Severity::Warning,
                format!("no `name`; hosts use the directory name `{dir}`"),
            ),
            _ => (Severity::Error, "missing required field `name`".to_string()),
        };
        r.push(
            severity,
            "missing-name",
            "name",
            message,
            "add `name: <directory name>` to the frontmatter",
        );
        return;
    }
    let name = nfkc(raw);
    let spec = r.spec();
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        r.push(
            spec,
            "name-too-long",
            "name",
            format!("name is {chars} characters; the limit is {MAX_NAME_CHARS}"),
            "shorten the name (and rename the directory to match)",
        );
    }
    let lowercase = if name.is_ascii() {
        !name.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        name.to_lowercase() == *name
    };
    if !lowercase {
        r.push(
            spec,
            "name-not-lowercase",
            "name",
            format!("name `{name}` must be lowercase"),
            "use lowercase letters, digits and hyphens",
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        r.push(
            spec,
            "name-hyphen",
            "name",
            format!("name `{name}` cannot start or end with a hyphen"),
            "remove the leading/trailing hyphen",
        );
    }
    if name.contains("--") {
        r.push(
            spec,
            "name-consecutive-hyphens",
            "name",
            format!("name `{name}` cannot contain consecutive hyphens"),
            "use single hyphens between words",
        );
    }
    if !name.chars().all(|c| py_isalnum(c) || c == '-') {
        r.push(
            spec,
            "name-invalid-chars",
            "name",
            format!("name `{name}` may contain only letters, digits and hyphens"),
            "replace spaces, underscores, colons and other symbols with hyphens",
        );
    }
    if let Some(dir) = dir {
        if nfkc(&dir) != name {
            r.push(
                spec,
                "name-mismatch",
                "name",
                format!("name `{name}` does not match its directory `{dir}`"),
                "rename the directory or change `name` so they are equal",
            );
        }
    }
}

fn description(r: &mut Rules) {
    if not_a_string(r, "description") {
        return;
    }
    let description = r.parsed.manifest.description.as_deref().unwrap_or("");
    if strip(description).is_empty() {
        let message = if r.strict {
            "missing required field `description`"
        } else {
            "no `description`; hosts fall back to the first paragraph of the body, which rarely says when to use the skill"
        };
        r.push(
            Severity::Error,
            "missing-description",
            "description",
            message.to_string(),
            "add `description:` saying what the skill does and when to use it",
        );
        return;
    }
    let chars = description.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        let spec = r.spec();
        r.push(
            spec,
            "description-too-long",
            "description",
            format!("description is {chars} characters; the limit is {MAX_DESCRIPTION_CHARS}"),
            "shorten the description; move details into the body",
        );
    }
}

fn compatibility(r: &mut Rules) {
    if not_a_string(r, "compatibility") {
        return;
    }
    if let Some(c) = r.parsed.manifest.compatibility.as_deref() {
        let chars = c.chars().count();
        if chars > MAX_COMPATIBILITY_CHARS {
            let spec = r.spec();
            r.push(
                spec,
                "compatibility-too-long",
                "compatibility",
                format!(
                    "compatibility is {chars} characters; the limit is {MAX_COMPATIBILITY_CHARS}"
                ),
                "shorten the compatibility note",
            );
        }
    }
}

fn metadata(r: &mut Rules) {
    match r.kind("metadata") {
        Some(ValueKind::Map) | Some(ValueKind::Null) | None => {}
        Some(_) => {
            let spec = r.spec();
            r.push(
                spec,
                "metadata-not-map",
                "metadata",
                "`metadata` must be a mapping of string keys to string values",
                "write `metadata:` followed by indented `key: value` lines",
            );
            return;
        }
    }
    let bad: Vec<String> = r
        .parsed
        .manifest
        .metadata
        .to_object()
        .iter()
        .filter(|(_, v)| !matches!(v, Value::String(_)))
        .map(|(k, _)| k.clone())
        .collect();
    if !bad.is_empty() {
        r.push(
            Severity::Warning,
            "metadata-not-string",
            "metadata",
            crate::SharedStr::interned(&format!(
                "metadata values should be strings; not a string: {}",
                bad.join(", ")
            )),
            "quote the values; nested structures are read as text by the reference validator",
        );
    }
}

fn allowed_tools(r: &mut Rules) {
    if r.kind("allowed-tools") == Some(ValueKind::List) {
        r.push(
            Severity::Warning,
            "allowed-tools-list",
            "allowedtools",
            crate::SharedStr::interned(
                "`allowed-tools` is a list; the specification defines a space-separated string",
            ),
            "write `allowed-tools: Read Grep Bash(git:*)`",
        );
    }
}

/// Apply the mode to the parse diagnostics: in strict mode, findings skills-ref rejects
/// become errors and the strict-only notes are added.
pub fn mode_parse_diagnostics(parsed: &Parsed, strict: bool) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = parsed
        .diagnostics
        .iter()
        .cloned()
        .map(|mut d| {
            if strict && STRICT_ERRORS.contains(&&*d.code) {
                d.severity = Severity::Error;
            }
            d
        })
        .collect();
    if strict {
        out.extend(parsed.strict_notes.iter().cloned());
    }
    out
}

#[cfg(test)]
mod tests {
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn ascii_skips_the_normaliser_with_the_same_result() {
        let every_ascii: String = (0u8..=127).map(char::from).collect();
        assert_eq!(
            super::nfkc(&every_ascii),
            every_ascii.nfkc().collect::<String>()
        );
        assert!(matches!(
            super::nfkc(&every_ascii),
            std::borrow::Cow::Borrowed(_)
        ));
        // Not ASCII: normalised (the fullwidth letter and the ligature fold).
        assert_eq!(super::nfkc("ｐdf-ﬁle"), "pdf-file");
    }

    #[test]
    fn a_finding_points_at_the_entry_the_host_reads() {
        use crate::parse::{parse_with, Dialect, KeyRule};
        let line_of = |text: &str, keys: KeyRule| {
            let dialect = Dialect {
                keys,
                ..Dialect::default()
            };
            let parsed = parse_with(text, &dialect);
            super::check_frontmatter(&parsed, std::path::Path::new("bad-name/SKILL.md"), false)
                .into_iter()
                .find(|d| d.code == "name-not-lowercase")
                .and_then(|d| d.line)
        };
        // Read as written, `Name:` is not the name: the finding is about line 2.
        let text = "---\nname: Bad_Name\nName: other\ndescription: d\n---\n";
        assert_eq!(line_of(text, KeyRule::Exact), Some(2));
        // Folded, the later spelling is the name.
        let text = "---\nName: ok\nname: Bad_Name\ndescription: d\n---\n";
        assert_eq!(line_of(text, KeyRule::Fold), Some(3));
    }
}
