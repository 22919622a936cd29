//! From top-level YAML entries to the typed [`Manifest`].
//!
//! Keys are matched in their common spellings by default: case, `-` and `_` are ignored, so
//! `allowed-tools`, `allowed_tools` and `allowedTools` are one key, as are `when_to_use` and
//! `when-to-use`, or `max-thinking-tokens` and `maxThinkingTokens`. A dialect whose host
//! looks keys up as written ([`KeyRule::Exact`], [`KeyRule::ExactOrSnake`]) reads each field
//! only under its spelling in [`SPELLED`]; other spellings are unknown keys. A value of the
//! wrong shape is never dropped: it stays in `extra` under the key as written, with a warning.

use super::dialect::KeyRule;
use super::yaml::Entry;
use super::{KeyInfo, ValueKind};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::{InstallSpec, Manifest, McpRef, Parameter, Requirements};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Every key the manifest types, by its folded spelling (see [`fold`]).
const KNOWN: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowedtools",
    "whentouse",
    "argumenthint",
    "arguments",
    "disablemodelinvocation",
    "userinvocable",
    "disallowedtools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
    "version",
    "maxthinkingtokens",
    "category",
    "tags",
    "os",
    "enabled",
    "timeout",
    "command",
    "parameters",
    "requires",
    "install",
];

/// Each typed field's one spelling, as the hosts that read keys exactly (and the Agent
/// Skills specification and Claude Code's documentation) write it, with its folded form.
pub(crate) const SPELLED: &[(&str, &str)] = &[
    ("name", "name"),
    ("description", "description"),
    ("license", "license"),
    ("compatibility", "compatibility"),
    ("metadata", "metadata"),
    ("allowed-tools", "allowedtools"),
    ("when_to_use", "whentouse"),
    ("argument-hint", "argumenthint"),
    ("arguments", "arguments"),
    ("disable-model-invocation", "disablemodelinvocation"),
    ("user-invocable", "userinvocable"),
    ("disallowed-tools", "disallowedtools"),
    ("model", "model"),
    ("effort", "effort"),
    ("context", "context"),
    ("agent", "agent"),
    ("background", "background"),
    ("hooks", "hooks"),
    ("paths", "paths"),
    ("shell", "shell"),
    ("version", "version"),
    ("max-thinking-tokens", "maxthinkingtokens"),
    ("category", "category"),
    ("tags", "tags"),
    ("os", "os"),
    ("enabled", "enabled"),
    ("timeout", "timeout"),
    ("command", "command"),
    ("parameters", "parameters"),
    ("requires", "requires"),
    ("install", "install"),
];

/// Marks a key the dialect does not read as a field: no folded field starts with it, and the
/// key follows it as written, so it repeats only itself.
const UNREAD: char = '\0';

/// The length of the longest folded key in [`KNOWN`].
const LONGEST_KNOWN: usize = 22;

/// Fields that identify a skill: a wrong shape here is an error, not a warning.
const IDENTITY: [&str; 2] = ["name", "description"];

/// The spelling-insensitive form of a key: lowercase, without `-` and `_`.
pub fn fold(key: &str) -> String {
    let mut folded = String::with_capacity(key.len());
    fold_into(key, &mut folded);
    folded
}

/// [`fold`], appended to `out`.
fn fold_into(key: &str, out: &mut String) {
    if key.is_ascii() {
        // Nearly every key: ASCII lowercasing is Unicode lowercasing there, and a byte loop
        // avoids the per-char case-mapping iterator (a hot spot of discovery's profile).
        out.extend(
            key.bytes()
                .filter(|b| *b != b'-' && *b != b'_')
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
        return;
    }
    out.extend(
        key.chars()
            .filter(|c| *c != '-' && *c != '_')
            .flat_map(char::to_lowercase),
    );
}

/// `fold(key) == folded` without building the folded key.
pub fn folds_to(key: &str, folded: &str) -> bool {
    if !key.is_ascii() {
        return fold(key) == folded;
    }
    key.bytes()
        .filter(|b| *b != b'-' && *b != b'_')
        .map(|b| b.to_ascii_lowercase())
        .eq(folded.bytes())
}

/// True when `key` (in any common spelling) is a typed manifest field.
pub fn is_known(key: &str) -> bool {
    if key.is_ascii() {
        // Lenient validation asks for every key of every file: folded once, on the stack
        // (folding it again against each known key was ~3% of `list`'s instructions).
        let mut folded = [0u8; LONGEST_KNOWN];
        let mut len = 0;
        for b in key.bytes().filter(|b| *b != b'-' && *b != b'_') {
            let Some(slot) = folded.get_mut(len) else {
                // Longer than every known key.
                return false;
            };
            *slot = b.to_ascii_lowercase();
            len += 1;
        }
        return KNOWN.iter().any(|known| known.as_bytes() == &folded[..len]);
    }
    KNOWN.contains(&fold(key).as_str())
}

/// The field `key` is read as under an exact `rule`, with its spelling: `key` itself, or
/// for [`KeyRule::ExactOrSnake`] a dashed spelling with `_` for each `-`.
fn spelled(key: &str, rule: KeyRule) -> Option<(&'static str, &'static str)> {
    let exact = SPELLED.iter().find(|(spelling, _)| *spelling == key);
    if exact.is_some() || rule != KeyRule::ExactOrSnake || !key.contains('_') {
        return exact.copied();
    }
    SPELLED
        .iter()
        .find(|(spelling, _)| {
            spelling.len() == key.len()
                && spelling.contains('-')
                && spelling
                    .bytes()
                    .zip(key.bytes())
                    .all(|(s, k)| s == k || (s == b'-' && k == b'_'))
        })
        .copied()
}

/// How `entries` are read under an exact `rule`: each entry's folded field, or [`UNREAD`]
/// and the key, into `folded_text` (one span per entry), with a warning for each key that
/// folds to a field this host does not read under that spelling. Returns which entries those
/// are (a key that names no field is not one: a host may still read it as its own).
// Out of line: inlined, it changed the code of `build`'s folding loop, which every file of
// the folding profiles runs (+1.3M instructions on the real-world corpus).
#[cold]
#[inline(never)]
fn read_exactly(
    entries: &[Entry],
    rule: KeyRule,
    line_offset: u32,
    folded_text: &mut String,
    spans: &mut Vec<std::ops::Range<usize>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<bool> {
    let mut misspelled = vec![false; entries.len()];
    for (e, misspelled) in entries.iter().zip(&mut misspelled) {
        let line = e.line.saturating_add(line_offset);
        let start = folded_text.len();
        let read = spelled(&e.key, rule);
        // The snake_case name is a fallback: with the dashed spelling present the host
        // never looks at it.
        let shadowed = read.filter(|(spelling, _)| {
            *spelling != e.key && entries.iter().any(|other| other.key == *spelling)
        });
        match (read, shadowed) {
            (Some((_, folded)), None) => folded_text.push_str(folded),
            _ => {
                folded_text.push(UNREAD);
                folded_text.push_str(&e.key);
                let field = shadowed.or_else(|| {
                    let folded = fold(&e.key);
                    SPELLED.iter().find(|(_, f)| *f == folded).copied()
                });
                if let Some((spelling, _)) = field {
                    *misspelled = true;
                    let why = if shadowed.is_some() {
                        format!("`{spelling}` is given too, and this host reads that one")
                    } else {
                        format!("this host reads keys as written, and only `{spelling}`")
                    };
                    diagnostics.push(
                        Diagnostic::warning(
                            "key-spelling",
                            format!("`{}` is not read: {why}", e.key),
                        )
                        .at(line, Some(e.column))
                        .with_hint(format!("write the key as `{spelling}`")),
                    );
                }
            }
        }
        spans.push(start..folded_text.len());
    }
    misspelled
}

/// See [`KeyInfo::lax_bool`].
fn lax_bool(value: &Value) -> bool {
    match value {
        Value::Bool(_) => true,
        Value::Number(n) => n.as_f64().is_some_and(|f| f == 0.0 || f == 1.0),
        // Compared in place: lowercasing a copy allocated once per text value of every key.
        Value::String(s) => [
            "true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0",
        ]
        .iter()
        .any(|word| s.eq_ignore_ascii_case(word)),
        _ => false,
    }
}

/// See [`KeyInfo::texts`].
fn texts(value: &Value) -> bool {
    match value {
        Value::String(_) | Value::Null | Value::Object(_) => true,
        Value::Array(items) => items.iter().all(Value::is_string),
        _ => false,
    }
}

pub fn kind_of(value: &Value) -> ValueKind {
    match value {
        Value::String(_) => ValueKind::String,
        Value::Number(_) => ValueKind::Number,
        Value::Bool(_) => ValueKind::Bool,
        Value::Null => ValueKind::Null,
        Value::Array(_) => ValueKind::List,
        Value::Object(_) => ValueKind::Map,
    }
}

/// The result of typing the entries.
pub struct Typed {
    pub manifest: Manifest,
    pub keys: Vec<KeyInfo>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Build the manifest from `entries`. `yaml` is the frontmatter text (for source text of
/// one-line flow values) and `line_offset` turns YAML lines into file lines.
pub fn build(
    entries: Vec<Entry>,
    yaml: &str,
    line_offset: u32,
    description_null_text: bool,
    first_wins: bool,
    keys: KeyRule,
) -> Typed {
    let mut typed = Typed {
        manifest: Manifest::default(),
        keys: Vec::new(),
        diagnostics: Vec::new(),
    };
    // Last occurrence wins (as in most YAML loaders), or the first for a host that looks
    // keys up in order; the others are reported.
    // Each key folded once, all into one buffer (one allocation per file, not per key);
    // the maps borrow the folded keys instead of copying them. (Read exactly, an unread key
    // takes one byte more: the buffer may grow once.)
    let mut folded_text = String::with_capacity(entries.iter().map(|e| e.key.len()).sum());
    let mut spans = Vec::with_capacity(entries.len());
    // Read exactly: the entries that spell a field in a way this host does not read.
    let mut misspelled = Vec::new();
    if keys == KeyRule::Fold {
        for e in &entries {
            let start = folded_text.len();
            fold_into(&e.key, &mut folded_text);
            spans.push(start..folded_text.len());
        }
    } else {
        misspelled = read_exactly(
            &entries,
            keys,
            line_offset,
            &mut folded_text,
            &mut spans,
            &mut typed.diagnostics,
        );
    }
    let folded_keys: Vec<&str> = spans.into_iter().map(|r| &folded_text[r]).collect();
    let lines: Vec<u32> = entries
        .iter()
        .map(|e| e.line.saturating_add(line_offset))
        .collect();
    let repeats = Repeats::of(&folded_keys, first_wins);
    // Built whole, then kept as one block of text (`JsonText`).
    let mut extra = Map::new();
    for (i, (mut entry, &folded)) in entries.into_iter().zip(&folded_keys).enumerate() {
        let line = lines[i];
        // Checks read the last `KeyInfo` of a key: with the first value winning, a later
        // spelling is not recorded, so the checks see the value that is used.
        let used_later = first_wins && repeats.used[i] < i;
        // Read before `apply`, which moves the value's text into the manifest; the key info
        // is pushed after it, taking the key itself when `extra` does not need it (one copy
        // of each key per file was ~1% of `list`'s instructions with its malloc and free).
        let shape = (!used_later).then(|| {
            (
                kind_of(&entry.value),
                lax_bool(&entry.value),
                texts(&entry.value),
            )
        });
        if let Some(first) = repeats.previous[i].map(|p| lines[p]) {
            let used = if first_wins { "first" } else { "last" };
            typed.diagnostics.push(
                Diagnostic::warning(
                    "duplicate-key",
                    format!(
                        "`{}` is given more than once (also on line {first}); the {used} one is used",
                        entry.key
                    ),
                )
                .at(line, Some(entry.column))
                .with_hint("remove all but one of these keys"),
            );
        }
        let mut to_extra = false;
        if repeats.used[i] == i {
            let mut cx = Cx {
                yaml,
                description_null_text,
                line,
                diagnostics: &mut typed.diagnostics,
            };
            if !apply(&mut typed.manifest, folded, &mut entry, &mut cx) {
                if KNOWN.contains(&folded) {
                    let what = describe(&entry.value);
                    // Hosts refuse a skill whose name or description is not text; other
                    // fields of the wrong shape are ignored by them.
                    let severity = if IDENTITY.contains(&folded) {
                        Severity::Error
                    } else {
                        Severity::Warning
                    };
                    cx.diagnostics.push(
                        Diagnostic::new(
                            "invalid-field-type",
                            severity,
                            format!("`{}` cannot be {what}; kept as an unknown key", entry.key),
                        )
                        .at(line, Some(entry.column))
                        .with_hint("write the value in the shape the field expects"),
                    );
                }
                to_extra = true;
            }
        }
        if let Some((kind, lax_bool, texts)) = shape {
            let unread = repeats.used[i] != i || misspelled.get(i) == Some(&true);
            let key = if to_extra {
                entry.key.clone()
            } else {
                std::mem::take(&mut entry.key)
            };
            typed.keys.push(KeyInfo {
                key,
                line,
                column: entry.column,
                kind,
                lax_bool,
                texts,
                unread,
            });
        }
        if to_extra {
            extra.insert(entry.key, entry.value);
        }
    }
    typed.manifest.extra = extra.into();
    typed
}

/// Which entries repeat a key (by folded spelling), and which of a key's entries is used.
struct Repeats {
    /// The entry before this one with the same key.
    previous: Vec<Option<usize>>,
    /// The entry whose value the key takes: its last, or with `first_wins` its first.
    used: Vec<usize>,
}

impl Repeats {
    fn of(keys: &[&str], first_wins: bool) -> Repeats {
        // A frontmatter has a handful of keys: comparing each with the ones before it costs
        // less than hashing every key into two maps (SipHash was ~2% of a cold load).
        const SCAN: usize = 32;
        let previous: Vec<Option<usize>> = if keys.len() <= SCAN {
            (0..keys.len())
                .map(|i| (0..i).rev().find(|&j| keys[j] == keys[i]))
                .collect()
        } else {
            let mut at: HashMap<&str, usize> = HashMap::with_capacity(keys.len());
            keys.iter()
                .enumerate()
                .map(|(i, key)| at.insert(key, i))
                .collect()
        };
        // Along the chains `previous` links, without more vectors (each was a malloc and a
        // free per file): the first entry of a chain is the one before's, and the last is
        // found backwards through each entry's successor, kept in `used` meanwhile.
        let mut used: Vec<usize> = (0..keys.len()).collect();
        if first_wins {
            for (i, p) in previous.iter().enumerate() {
                if let Some(p) = *p {
                    used[i] = used[p];
                }
            }
        } else {
            // An entry is the `previous` of at most one other: the next with its key.
            for (i, p) in previous.iter().enumerate() {
                if let Some(p) = *p {
                    used[p] = i;
                }
            }
            for i in (0..keys.len()).rev() {
                let next = used[i];
                if next != i {
                    used[i] = used[next];
                }
            }
        }
        Repeats { previous, used }
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "text",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "empty",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

struct Cx<'a> {
    yaml: &'a str,
    description_null_text: bool,
    line: u32,
    diagnostics: &'a mut Vec<Diagnostic>,
}

/// Store `entry` in its typed field. False when the key is unknown or the value has a shape
/// the field cannot hold (the caller keeps it in `extra`).
fn apply(m: &mut Manifest, folded: &str, entry: &mut Entry, cx: &mut Cx) -> bool {
    macro_rules! set {
        ($field:expr, $value:expr) => {
            match $value {
                Some(v) => {
                    $field = v;
                    true
                }
                None => false,
            }
        };
    }
    match folded {
        "name" => set!(m.name, text(entry, cx)),
        "description" if cx.description_null_text && entry.value.is_null() => {
            m.description = Some(entry.raw.take().unwrap_or_default());
            true
        }
        "description" => set!(m.description, text(entry, cx)),
        "license" => set!(m.license, text(entry, cx)),
        "compatibility" => set!(m.compatibility, text(entry, cx)),
        "whentouse" => set!(m.claude_code.when_to_use, text(entry, cx)),
        "argumenthint" => set!(m.claude_code.argument_hint, text(entry, cx)),
        "model" => set!(m.claude_code.model, text(entry, cx)),
        "effort" => set!(m.claude_code.effort, text(entry, cx)),
        "context" => set!(m.claude_code.context, text(entry, cx)),
        "agent" => set!(m.claude_code.agent, text(entry, cx)),
        "shell" => set!(m.claude_code.shell, text(entry, cx)),
        "version" => set!(m.tool.version, text(entry, cx)),
        "category" => set!(m.tool.category, text(entry, cx)),
        "command" => set!(m.tool.command, text(entry, cx)),
        "allowedtools" => set!(m.allowed_tools, tools(&entry.value)),
        "disallowedtools" => set!(m.claude_code.disallowed_tools, tools(&entry.value)),
        "arguments" => set!(m.claude_code.arguments, list(&entry.value, Sep::Whitespace)),
        "paths" => set!(m.claude_code.paths, list(&entry.value, Sep::Comma)),
        "tags" => set!(m.tool.tags, list(&entry.value, Sep::Comma)),
        "os" => set!(m.tool.os, list(&entry.value, Sep::Comma)),
        "disablemodelinvocation" => {
            set!(m.claude_code.disable_model_invocation, boolean(entry, cx))
        }
        "userinvocable" => set!(m.claude_code.user_invocable, boolean(entry, cx)),
        "background" => set!(m.claude_code.background, boolean(entry, cx)),
        "enabled" => set!(m.tool.enabled, boolean(entry, cx)),
        "maxthinkingtokens" => set!(m.tool.max_thinking_tokens, number(entry, cx)),
        "timeout" => set!(m.tool.timeout, number(entry, cx)),
        "hooks" => {
            // `hooks: ~` declares none, as an empty value does for every other field (and
            // leaves the Claude Code section unallocated).
            if !entry.value.is_null() {
                m.claude_code.hooks = Some(std::mem::take(&mut entry.value));
            }
            true
        }
        "metadata" => metadata(m, &entry.value),
        "parameters" => set!(m.tool.parameters, parameters(&entry.value)),
        "requires" => set!(m.tool.requires, requirements(&entry.value).map(Some)),
        "install" => set!(m.tool.install, install(&entry.value)),
        _ => false,
    }
}

/// A scalar as the text the user wrote. `None` (keep in `extra`) for collections, except a
/// one-line flow collection in `argument-hint`, whose source text is what the author meant
/// (`argument-hint: [file]` is valid YAML for a list).
/// Text values are moved out of `entry`: a field that takes one is never also kept in
/// `extra`, so the copy was a malloc, a `memcpy` and a free per field.
fn text(entry: &mut Entry, cx: &mut Cx) -> Option<Option<String>> {
    match &mut entry.value {
        Value::String(s) => Some(Some(std::mem::take(s))),
        Value::Null => Some(entry.raw.take().filter(|r| r != "~" && r != "null")),
        Value::Number(_) | Value::Bool(_) => Some(Some(
            entry.raw.take().unwrap_or_else(|| entry.value.to_string()),
        )),
        // Only `argument-hint` is commonly written `[file] [mode]`-style; a list anywhere
        // else is a mistake that hosts reject.
        Value::Array(_) | Value::Object(_) if fold(&entry.key) == "argumenthint" => {
            let source = flow_source(cx.yaml, entry)?;
            cx.diagnostics.push(
                Diagnostic::info(
                    "flow-value-as-text",
                    format!(
                        "`{}` is written as a YAML collection; its source text is used",
                        entry.key
                    ),
                )
                .at(cx.line, Some(entry.column))
                .with_hint(format!("quote the value: {}: \"{source}\"", entry.key)),
            );
            Some(Some(source))
        }
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// The text after `key:` on the key's line, when the whole value sits on that line.
fn flow_source(yaml: &str, entry: &Entry) -> Option<String> {
    if entry.value_line != entry.line {
        return None;
    }
    let line = yaml
        .lines()
        .nth(usize::try_from(entry.line).ok()?.checked_sub(1)?)?;
    let (_, value) = line.split_once(':')?;
    let value = value.trim();
    let balanced = |open: char, close: char| {
        value.starts_with(open) && value.ends_with(close) && value.len() >= 2
    };
    (balanced('[', ']') || balanced('{', '}')).then(|| value.to_string())
}

enum Sep {
    Whitespace,
    Comma,
}

fn scalar_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn list(value: &Value, sep: Sep) -> Option<Vec<String>> {
    match value {
        Value::Null => Some(Vec::new()),
        Value::Array(items) => Some(items.iter().map(scalar_string).collect()),
        Value::String(s) => Some(match sep {
            Sep::Whitespace => s.split_whitespace().map(str::to_string).collect(),
            Sep::Comma => s
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        }),
        Value::Number(_) | Value::Bool(_) => Some(vec![value.to_string()]),
        Value::Object(_) => None,
    }
}

/// Tool lists: a YAML list, or a string separated by spaces and/or commas. Separators inside
/// parentheses belong to the tool pattern (`Bash(git add:*)`, `Bash(npm run test)`).
pub fn tools(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::String(s) => Some(split_tools(s)),
        other => list(other, Sep::Whitespace),
    }
}

fn split_tools(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c.is_whitespace() || c == ',') {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Boolean spellings accepted in boolean fields, in any case.
pub fn parse_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" | "y" => Some(true),
        "false" | "no" | "off" | "0" | "n" => Some(false),
        _ => None,
    }
}

fn boolean(entry: &Entry, cx: &mut Cx) -> Option<Option<bool>> {
    let parsed = match &entry.value {
        Value::Bool(b) => Some(*b),
        Value::Null => return Some(None),
        Value::String(s) => parse_bool(s),
        Value::Number(_) => entry.raw.as_deref().and_then(parse_bool),
        _ => None,
    };
    if parsed.is_none() {
        cx.diagnostics.push(
            Diagnostic::warning(
                "invalid-boolean",
                format!("`{}` must be true or false", entry.key),
            )
            .at(cx.line, Some(entry.column))
            .with_hint("use true/false (yes/no, on/off and 1/0 are accepted too)"),
        );
    }
    parsed.map(Some)
}

fn number(entry: &Entry, cx: &mut Cx) -> Option<Option<u64>> {
    let parsed = match &entry.value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        Value::Null => return Some(None),
        _ => None,
    };
    if parsed.is_none() {
        cx.diagnostics.push(
            Diagnostic::warning(
                "invalid-number",
                format!("`{}` must be a whole number", entry.key),
            )
            .at(cx.line, Some(entry.column)),
        );
    }
    parsed.map(Some)
}

fn metadata(m: &mut Manifest, value: &Value) -> bool {
    let map = match value {
        Value::Object(map) => map,
        Value::Null => return true,
        _ => return false,
    };
    m.metadata = map.into();
    if let Some(Value::Object(mcp)) = map.get("mcp") {
        m.lifted.mcp = Some(McpRef {
            server: mcp.get("server").map(scalar_string),
            tool: mcp.get("tool").map(scalar_string),
        });
    }
    if let Some(short) = map
        .get("short-description")
        .or(map.get("short_description"))
    {
        m.lifted.short_description = Some(scalar_string(short));
    }
    true
}

fn opt_string(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).filter(|v| !v.is_null()).map(scalar_string)
}

fn parameter(name: String, spec: &Value) -> Parameter {
    let mut p = Parameter {
        name,
        ..Parameter::default()
    };
    match spec {
        Value::Object(map) => {
            p.kind = opt_string(map, "type");
            p.description = opt_string(map, "description");
            p.required = match map.get("required") {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => parse_bool(s).unwrap_or(false),
                _ => false,
            };
            p.default = map.get("default").cloned();
            if let Some(Value::Array(values)) = map.get("enum") {
                p.enum_values = values.clone();
            }
        }
        // `name: string` shorthand: the value is the type.
        Value::String(kind) => p.kind = Some(kind.clone()),
        _ => {}
    }
    p
}

fn parameters(value: &Value) -> Option<Vec<Parameter>> {
    match value {
        Value::Object(map) => Some(
            map.iter()
                .map(|(name, spec)| parameter(name.clone(), spec))
                .collect(),
        ),
        Value::Array(items) => items
            .iter()
            .map(|item| {
                let name = item.get("name").map(scalar_string)?;
                Some(parameter(name, item))
            })
            .collect(),
        Value::Null => Some(Vec::new()),
        _ => None,
    }
}

fn requirements(value: &Value) -> Option<Requirements> {
    let map = value.as_object()?;
    let get = |key: &str| -> Option<Vec<String>> {
        match map.get(key) {
            None => Some(Vec::new()),
            Some(v) => list(v, Sep::Comma),
        }
    };
    Some(Requirements {
        bins: get("bins")?,
        env: get("env")?,
    })
}

fn install(value: &Value) -> Option<Vec<InstallSpec>> {
    let items = match value {
        Value::Array(items) => items,
        Value::Null => return Some(Vec::new()),
        _ => return None,
    };
    items
        .iter()
        .map(|item| {
            let map = item.as_object()?;
            Some(InstallSpec {
                id: opt_string(map, "id"),
                kind: opt_string(map, "kind"),
                package: opt_string(map, "package"),
                formula: opt_string(map, "formula"),
                label: opt_string(map, "label"),
                os: map
                    .get("os")
                    .and_then(|v| list(v, Sep::Comma))
                    .unwrap_or_default(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_spellings() {
        assert_eq!(fold("allowed_tools"), "allowedtools");
        assert_eq!(fold("Ünïcode-Key_É"), "ünïcodekeyé");
        for key in ["allowed_tools", "Allowed-Tools", "ÄRGUMENT-hint", "x", ""] {
            for folded in ["allowedtools", "ärgumenthint", "x", ""] {
                assert_eq!(folds_to(key, folded), fold(key) == folded, "{key} {folded}");
            }
        }
        assert_eq!(fold("maxThinkingTokens"), "maxthinkingtokens");
        assert_eq!(KNOWN.iter().map(|k| k.len()).max(), Some(LONGEST_KNOWN));
        assert!(is_known("When-To-Use"));
        assert!(!is_known("author"));
        // Without folding a copy, the same answer as with one.
        for key in KNOWN.iter().copied().chain([
            "Max_Thinking-Tokens",
            "names",
            "nam",
            "",
            "-_",
            "author",
            "Ärgument",
            "disable-model-invocation-x",
            "Disable_Model_Invocation",
            "disablemodelinvocatio",
        ]) {
            assert_eq!(is_known(key), KNOWN.contains(&fold(key).as_str()), "{key}");
        }
    }

    #[test]
    fn spellings_cover_every_field() {
        let folded: Vec<&str> = SPELLED.iter().map(|(_, f)| *f).collect();
        assert_eq!(folded, KNOWN);
        for (spelling, f) in SPELLED {
            assert_eq!(fold(spelling), *f, "{spelling}");
        }
    }

    fn with_keys(text: &str, keys: KeyRule) -> crate::parse::Parsed {
        let dialect = crate::parse::Dialect {
            keys,
            ..crate::parse::Dialect::default()
        };
        crate::parse::parse_with(text, &dialect)
    }

    fn spelling_warnings(p: &crate::parse::Parsed) -> Vec<String> {
        p.diagnostics
            .iter()
            .filter(|d| d.code == "key-spelling")
            .map(|d| d.message.to_string())
            .collect()
    }

    #[test]
    fn exact_keys_read_only_their_spelling() {
        let text = "---\nName: a\nname: b\nDescription: x\nallowed_tools: Read\n\
                    allowed-tools: Grep\nDisable-Model-Invocation: true\nauthor: me\n---\n";
        let p = with_keys(text, KeyRule::Exact);
        assert_eq!(p.manifest.name.as_deref(), Some("b"));
        assert_eq!(p.manifest.description, None);
        assert_eq!(p.manifest.allowed_tools, ["Grep"]);
        assert_eq!(p.manifest.claude_code.disable_model_invocation, None);
        // Not read, so not a repeat of `name` either.
        assert!(!p.diagnostics.iter().any(|d| d.code == "duplicate-key"));
        let warned = spelling_warnings(&p);
        assert_eq!(warned.len(), 4, "{warned:?}");
        assert!(warned[0].starts_with("`Name` is not read") && warned[0].contains("`name`"));
        // Unread keys stay in `extra` as written; an unknown key draws no spelling warning.
        let extra = p.manifest.extra.to_object();
        for key in ["Name", "Description", "allowed_tools", "author"] {
            assert!(extra.contains_key(key), "{key}");
        }
        // The same text folded: the later spelling of a repeated key wins.
        let folded = with_keys(text, KeyRule::Fold);
        assert_eq!(folded.manifest.name.as_deref(), Some("b"));
        assert_eq!(folded.manifest.description.as_deref(), Some("x"));
        assert_eq!(
            folded.manifest.claude_code.disable_model_invocation,
            Some(true)
        );
        assert!(spelling_warnings(&folded).is_empty());
    }

    #[test]
    fn snake_names_are_read_unless_the_dashed_key_is_there() {
        let p = with_keys(
            "---\nname: a\nallowed_tools: Read\ndisable_model_invocation: true\n\
             user_invocable: false\nwhen_to_use: w\nAllowed_Tools: X\n---\n",
            KeyRule::ExactOrSnake,
        );
        assert_eq!(p.manifest.allowed_tools, ["Read"]);
        assert_eq!(p.manifest.claude_code.disable_model_invocation, Some(true));
        assert_eq!(p.manifest.claude_code.user_invocable, Some(false));
        assert_eq!(p.manifest.claude_code.when_to_use.as_deref(), Some("w"));
        assert_eq!(spelling_warnings(&p).len(), 1);
        for text in [
            "---\nallowed_tools: Read\nallowed-tools: Grep\n---\n",
            "---\nallowed-tools: Grep\nallowed_tools: Read\n---\n",
        ] {
            let p = with_keys(text, KeyRule::ExactOrSnake);
            assert_eq!(p.manifest.allowed_tools, ["Grep"], "{text}");
            let warned = spelling_warnings(&p);
            assert!(
                warned.len() == 1 && warned[0].contains("is given too"),
                "{warned:?}"
            );
            // Exact alone does not read the snake name at all.
            let exact = with_keys(text, KeyRule::Exact);
            assert_eq!(exact.manifest.allowed_tools, ["Grep"], "{text}");
        }
        assert!(with_keys("---\nallowed_tools: R\n---\n", KeyRule::Exact)
            .manifest
            .allowed_tools
            .is_empty());
    }

    #[test]
    fn entries_the_host_does_not_read_are_marked() {
        let unread = |text: &str, keys: KeyRule| -> Vec<(String, bool)> {
            with_keys(text, keys)
                .keys
                .into_iter()
                .map(|k| (k.key, k.unread))
                .collect()
        };
        let text = "---\nname: a\nName: b\nallowed-tools: R\nallowed_tools: {a: 1}\n---\n";
        let own = |pairs: &[(&str, bool)]| -> Vec<(String, bool)> {
            pairs.iter().map(|(k, u)| (k.to_string(), *u)).collect()
        };
        assert_eq!(
            unread(text, KeyRule::ExactOrSnake),
            own(&[
                ("name", false),
                ("Name", true),
                ("allowed-tools", false),
                ("allowed_tools", true)
            ])
        );
        // Folded, the later of two spellings of one field is the one read.
        assert_eq!(
            unread(text, KeyRule::Fold),
            own(&[
                ("name", true),
                ("Name", false),
                ("allowed-tools", true),
                ("allowed_tools", false)
            ])
        );
    }

    #[test]
    fn repeats_as_maps_find_them() {
        // Both the scan and the map, against maps filled the way `build` filled them.
        let many: Vec<String> = (0..40).map(|i| format!("k{}", i % 7)).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        for keys in [
            vec![],
            vec!["name"],
            vec!["name", "description", "name", "x", "description", "name"],
            many,
        ] {
            for first_wins in [false, true] {
                let got = Repeats::of(&keys, first_wins);
                let mut used: HashMap<&str, usize> = HashMap::new();
                for (i, &k) in keys.iter().enumerate() {
                    if first_wins {
                        used.entry(k).or_insert(i);
                    } else {
                        used.insert(k, i);
                    }
                }
                let mut seen: HashMap<&str, usize> = HashMap::new();
                for (i, &k) in keys.iter().enumerate() {
                    assert_eq!(got.previous[i], seen.insert(k, i), "{keys:?} {i}");
                    assert_eq!(got.used[i], used[k], "{keys:?} {i} {first_wins}");
                }
            }
        }
    }

    #[test]
    fn lax_bools_in_any_case() {
        for text in ["TRUE", "No", "oN", "t", "Y", "1", "0", "false"] {
            assert!(lax_bool(&Value::String(text.into())), "{text}");
        }
        for text in ["", "truee", "2", "yes!", "ja"] {
            assert!(!lax_bool(&Value::String(text.into())), "{text}");
        }
    }

    #[test]
    fn tool_strings_respect_parentheses() {
        assert_eq!(
            split_tools("Read, Bash(git add:*) Bash(npm run test),Grep"),
            vec!["Read", "Bash(git add:*)", "Bash(npm run test)", "Grep"]
        );
    }

    #[test]
    fn boolean_spellings() {
        for s in ["true", "YES", "On", "1"] {
            assert_eq!(parse_bool(s), Some(true), "{s}");
        }
        for s in ["False", "no", "OFF", "0"] {
            assert_eq!(parse_bool(s), Some(false), "{s}");
        }
        assert_eq!(parse_bool("maybe"), None);
    }
}
