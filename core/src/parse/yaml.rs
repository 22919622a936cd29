//! YAML loading with hard limits, through serde-saphyr.
//!
//! serde-saphyr was chosen over serde_yaml_ng on hostile input: on a 100 KB nested flow
//! sequence serde_yaml_ng needed ~29 s to report its recursion limit while serde-saphyr
//! failed in ~1 ms, both stop alias bombs, and serde-saphyr reports duplicate keys and line
//! numbers for every value. YAML 1.2 core booleans only (`yes` stays a string) so unknown keys
//! keep what the user meant; boolean fields accept `yes`/`on`/... themselves (see `fields`).

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use serde_saphyr::Spanned;
use std::fmt;

/// Alias replay is capped far below anything a SKILL.md needs, so a "billion laughs"
/// document fails within milliseconds.
const MAX_REPLAYED_EVENTS: usize = 10_000;
const MAX_ALIAS_DEPTH: usize = 16;
const MAX_EVENTS: usize = 200_000;
const MAX_NESTING: usize = 64;

/// One top-level `key: value` pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    /// 1-based line and column of the key.
    pub line: u32,
    pub column: u32,
    /// The value as JSON (YAML 1.2 core schema typing).
    pub value: Value,
    /// The source text of a plain scalar that YAML typed as a number, boolean or null, so
    /// string fields keep what was written (`version: 1.10` stays "1.10").
    pub raw: Option<String>,
    /// 1-based line of the value.
    pub value_line: u32,
}

/// What the frontmatter document holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    Mapping(Vec<Entry>),
    /// No content at all (only blank lines or comments).
    Empty,
    /// Valid YAML that is not a mapping; the string says what it is ("a list", "a scalar").
    NotMapping(&'static str),
}

/// A YAML error with its position in the YAML text (1-based, relative to the first YAML line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// A resource limit (alias expansion, nesting, size) stopped the parse.
    pub limit: bool,
}

/// Where hosts' YAML readers differ from serde-saphyr's defaults (see [`super::Dialect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YamlOptions {
    pub duplicate_keys_error: bool,
    pub merge_keys: bool,
    pub reject_unknown_tags: bool,
    /// Retype top-level plain scalars by YAML 1.1 (PyYAML), see [`yaml_1_1_kind`].
    pub yaml_1_1: bool,
    /// C0 and C1 control characters (and DEL) are ordinary text, as the `yaml` npm package
    /// reads them (Cline); YAML itself allows only printable characters.
    pub controls_as_text: bool,
}

impl Default for YamlOptions {
    fn default() -> Self {
        YamlOptions {
            duplicate_keys_error: false,
            merge_keys: true,
            reject_unknown_tags: false,
            yaml_1_1: false,
            controls_as_text: false,
        }
    }
}

fn options(with: YamlOptions) -> serde_saphyr::Options {
    use serde_saphyr::options::{DuplicateKeyPolicy, MergeKeyPolicy};
    let mut aliases = serde_saphyr::options::AliasLimits::default();
    aliases.max_total_replayed_events = MAX_REPLAYED_EVENTS;
    aliases.max_replay_stack_depth = MAX_ALIAS_DEPTH;
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_events: MAX_EVENTS,
            max_depth: MAX_NESTING,
            flow_nesting_limit: MAX_NESTING,
        },
        alias_limits: aliases,
        duplicate_keys: if with.duplicate_keys_error {
            DuplicateKeyPolicy::Error
        } else {
            DuplicateKeyPolicy::PassThrough
        },
        merge_keys: if with.merge_keys {
            MergeKeyPolicy::Merge
        } else {
            MergeKeyPolicy::AsOrdinary
        },
        reject_unsupported_tags: with.reject_unknown_tags,
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        ignore_binary_tag_for_string: true,
        non_finite_float_policy: serde_saphyr::options::NonFiniteFloatPolicy::AsString,
        with_snippet: false,
    }
}

/// Parse `yaml` (the text between the fences) into its top-level entries with serde-saphyr.
/// [`super::parse`] tries the exact fast path ([`super::fast`]) before this; the repair
/// pass calls this directly.
pub fn load(yaml: &str) -> Result<Loaded, YamlError> {
    load_with(yaml, YamlOptions::default())
}

/// [`load`] with a host's YAML options.
pub fn load_with(yaml: &str, with: YamlOptions) -> Result<Loaded, YamlError> {
    if with.controls_as_text {
        if let Some(masked) = controls::mask(yaml) {
            let loaded = load_with(
                &masked,
                YamlOptions {
                    controls_as_text: false,
                    ..with
                },
            )?;
            return Ok(controls::unmask_loaded(loaded));
        }
    }
    let top: Top = serde_saphyr::from_str_with_options(yaml, options(with)).map_err(to_error)?;
    Ok(match top {
        Top::Empty => Loaded::Empty,
        Top::NotMapping(what) => Loaded::NotMapping(what),
        Top::Mapping(pairs) => Loaded::Mapping(
            pairs
                .into_iter()
                .map(|(key, value)| entry(yaml, key, value, with.yaml_1_1))
                .collect(),
        ),
    })
}

fn entry(source: &str, key: Spanned<Value>, value: Spanned<Value>, yaml_1_1: bool) -> Entry {
    let (line, column) = line_col(&key.referenced);
    let (value_line, _) = line_col(&value.referenced);
    let mut value = value;
    if yaml_1_1 {
        if let Some(text) = plain_text(source, &value.referenced, &value.value) {
            value.value = match yaml_1_1_kind(&text) {
                Some(typed) => typed,
                None => Value::String(text),
            };
        }
    }
    if let Value::String(text) = &mut value.value {
        if text.ends_with('\n') && block_scalar_at_eof(source, &value.referenced) {
            text.pop();
        }
    }
    let raw = match &value.value {
        Value::Number(_) | Value::Bool(_) | Value::Null => raw_text(source, &value.referenced),
        _ => None,
    };
    Entry {
        key: key_string(key.value),
        line,
        column,
        value: value.value,
        raw,
        value_line,
    }
}

/// Control characters read as text: each is swapped for a private-use stand-in the YAML
/// scanner takes as printable, and swapped back in every key, value and source text after.
mod controls {
    use super::{Entry, Loaded};
    use serde_json::Value;

    /// Plane 16's private-use area: stand-in = BASE + the control's code point.
    const BASE: u32 = 0x10_0000;

    fn is_control(c: char) -> bool {
        (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || ('\u{7f}'..='\u{9f}').contains(&c)
    }

    /// The text with its controls swapped, or `None` when it has none (or already holds a
    /// stand-in, which could not be told apart afterwards).
    pub(super) fn mask(yaml: &str) -> Option<String> {
        if !yaml.chars().any(is_control) || yaml.chars().any(is_stand_in) {
            return None;
        }
        Some(
            yaml.chars()
                .map(|c| {
                    if is_control(c) {
                        char::from_u32(BASE + u32::from(c)).unwrap_or(c)
                    } else {
                        c
                    }
                })
                .collect(),
        )
    }

    fn is_stand_in(c: char) -> bool {
        (BASE..BASE + 0xa0).contains(&u32::from(c))
    }

    fn unmask(text: &str) -> String {
        text.chars()
            .map(|c| {
                if is_stand_in(c) {
                    char::from_u32(u32::from(c) - BASE).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect()
    }

    fn unmask_value(value: Value) -> Value {
        match value {
            Value::String(s) => Value::String(unmask(&s)),
            Value::Array(items) => Value::Array(items.into_iter().map(unmask_value).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (unmask(&k), unmask_value(v)))
                    .collect(),
            ),
            other => other,
        }
    }

    pub(super) fn unmask_loaded(loaded: Loaded) -> Loaded {
        match loaded {
            Loaded::Mapping(entries) => Loaded::Mapping(
                entries
                    .into_iter()
                    .map(|e| Entry {
                        key: unmask(&e.key),
                        value: unmask_value(e.value),
                        raw: e.raw.map(|r| unmask(&r)),
                        ..e
                    })
                    .collect(),
            ),
            other => other,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::{load_with, Loaded, YamlOptions};
        use serde_json::json;

        #[test]
        fn controls_read_as_text_only_when_asked() {
            let yaml = "name: a\u{7}b\ndescription: \"x\u{1b}y\u{7f}\"\n";
            assert!(load_with(yaml, YamlOptions::default()).is_err());
            let with = YamlOptions {
                controls_as_text: true,
                ..YamlOptions::default()
            };
            let Ok(Loaded::Mapping(entries)) = load_with(yaml, with) else {
                panic!("controls as text must load");
            };
            assert_eq!(entries[0].value, json!("a\u{7}b"));
            assert_eq!(entries[1].value, json!("x\u{1b}y\u{7f}"));
        }
    }
}

/// Whether the node at `loc` is a block scalar (`|`, `>`) that runs to the end of a source
/// without a final line break. YAML keeps a block scalar's final line break only when there
/// is one (libyaml and PyYAML give `x` for `a: |\n  x`); the loader adds one regardless,
/// which shows when a host trims the block before reading it (Goose).
fn block_scalar_at_eof(source: &str, loc: &serde_saphyr::Location) -> bool {
    if source.ends_with('\n') {
        return false;
    }
    let span = loc.span();
    let (Some(start), Some(len)) = (span.byte_offset(), span.byte_len()) else {
        return false;
    };
    let (Ok(start), Ok(len)) = (usize::try_from(start), usize::try_from(len)) else {
        return false;
    };
    if start.checked_add(len) != Some(source.len()) {
        return false;
    }
    // The content starts on a line after its header, which ends in the block indicator
    // (`|`, `>`, with chomping and indentation indicators, maybe a comment).
    let Some(before) = source.get(..start) else {
        return false;
    };
    let Some(before) = before.trim_end_matches([' ', '\t']).strip_suffix('\n') else {
        return false;
    };
    let before = before.strip_suffix('\r').unwrap_or(before);
    let header = before.rsplit('\n').next().unwrap_or_default();
    let header = header.split(" #").next().unwrap_or_default().trim_end();
    let indicator = header.rsplit([' ', '\t']).next().unwrap_or_default();
    indicator.starts_with(['|', '>'])
        && indicator[1..]
            .chars()
            .all(|c| matches!(c, '+' | '-' | '1'..='9'))
}

fn to_error(err: serde_saphyr::Error) -> YamlError {
    let location = err.location();
    let text = err.to_string();
    use serde_saphyr::Error as E;
    let mut inner = &err;
    while let E::AliasError { error, .. } | E::WithSnippet { error, .. } = inner {
        inner = error;
    }
    // Nesting depth is enforced by the scanner, which reports it only as a message.
    let limit = matches!(
        inner,
        E::Budget { .. }
            | E::AliasReplayLimitExceeded { .. }
            | E::AliasExpansionLimitExceeded { .. }
            | E::AliasReplayStackDepthExceeded { .. }
            | E::AliasReplayCounterOverflow { .. }
    ) || text.contains("recursion limit");
    // The error's Display repeats the position ("error: line 2 column 22: ..."); keep the
    // part after it so renderers can place it themselves.
    let message = text
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    let message = match message.split_once(": ") {
        Some((pos, rest)) if pos.starts_with("line ") => rest.to_string(),
        _ => message,
    };
    // Positions inside the message are relative to the YAML block, not the file; the
    // diagnostic carries the file position instead.
    let message = match message.find(" at line ") {
        Some(i) if message[i..].contains(", column ") => message[..i].to_string(),
        _ => message,
    };
    // Limit messages carry internal counters; the kind of limit is what helps the author.
    let message = match message.split_once(':') {
        Some((kind, _)) if limit => kind.to_string(),
        _ => message,
    };
    YamlError {
        message,
        line: location.map(|l| u32::try_from(l.line()).unwrap_or(u32::MAX)),
        column: location.map(|l| u32::try_from(l.column()).unwrap_or(u32::MAX)),
        limit,
    }
}

/// The document as serde sees it; positions are kept so `load` can recover source text.
enum Top {
    Mapping(Vec<(Spanned<Value>, Spanned<Value>)>),
    Empty,
    NotMapping(&'static str),
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
        d.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

fn line_col(loc: &serde_saphyr::Location) -> (u32, u32) {
    (
        u32::try_from(loc.line()).unwrap_or(u32::MAX),
        u32::try_from(loc.column()).unwrap_or(u32::MAX),
    )
}

/// The source text of the node at `loc`, when it is a single-line plain scalar.
fn raw_text(source: &str, loc: &serde_saphyr::Location) -> Option<String> {
    let span = loc.span();
    let start = usize::try_from(span.byte_offset()?).ok()?;
    let len = usize::try_from(span.byte_len()?).ok()?;
    let text = source.get(start..start.checked_add(len)?)?.trim();
    (!text.is_empty() && !text.contains('\n')).then(|| text.to_string())
}

/// The source text of a one-line plain scalar (not quoted, not a block scalar, no tag or
/// anchor): only those are typed by YAML's implicit rules.
fn plain_text(source: &str, loc: &serde_saphyr::Location, value: &Value) -> Option<String> {
    if matches!(value, Value::Array(_) | Value::Object(_)) {
        return None;
    }
    let text = raw_text(source, loc)?;
    let text = text.split(" #").next().unwrap_or_default().trim_end();
    // A tag before the scalar (`!!str 4242`) decides its type itself.
    let start = usize::try_from(loc.span().byte_offset()?).ok()?;
    let before = source.get(..start)?.trim_end_matches([' ', '\t']);
    let last = before.rsplit([' ', '\t', '\n']).next().unwrap_or_default();
    if last.starts_with('!') {
        return None;
    }
    if text.is_empty() || text.starts_with(['"', '\'', '|', '>', '!', '&', '*', '[', '{', '#']) {
        return None;
    }
    // The span must be the scalar itself: its text read as YAML 1.2 gives the same value.
    let same = match value {
        Value::String(s) => s == text,
        Value::Null => matches!(text, "~" | "null" | "Null" | "NULL"),
        _ => true,
    };
    same.then(|| text.to_string())
}

/// How PyYAML's resolver types a plain scalar that is not text: booleans, integers (with
/// `_`, `0x`, `0b`, a leading-`0` octal, base 60), floats (a `.` is required), null, and
/// timestamps (given as null: no JSON value is a date, and no host field takes one as text).
pub(crate) fn yaml_1_1_kind(text: &str) -> Option<Value> {
    use super::pyyaml::Kind;
    Some(match yaml_1_1_tag(text)? {
        Kind::Null | Kind::Timestamp => Value::Null,
        Kind::Bool(b) => Value::Bool(b),
        Kind::Int | Kind::Float => {
            let clean = text.replace('_', "");
            clean
                .parse::<i64>()
                .map(Value::from)
                .ok()
                .or_else(|| {
                    clean
                        .parse::<f64>()
                        .ok()
                        .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
                })
                .unwrap_or(Value::from(0))
        }
    })
}

/// PyYAML's implicit resolvers (`yaml/resolver.py`, YAML 1.1): which kind a plain scalar
/// is, `None` for text.
pub(crate) fn yaml_1_1_tag(text: &str) -> Option<super::pyyaml::Kind> {
    use super::pyyaml::Kind;
    use std::sync::OnceLock;
    static RES: OnceLock<[regex::Regex; 4]> = OnceLock::new();
    let [boolean, int, float, timestamp] = RES.get_or_init(|| {
        [
            r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
            r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
            r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
        ]
        .map(|re| regex::Regex::new(re).expect("valid pattern"))
    });
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Some(Kind::Null);
    }
    if timestamp.is_match(text) {
        return Some(Kind::Timestamp);
    }
    if boolean.is_match(text) {
        return Some(Kind::Bool(
            matches!(text.as_bytes()[0], b'y' | b'Y' | b't' | b'T')
                || text.eq_ignore_ascii_case("on"),
        ));
    }
    if int.is_match(text) {
        return Some(Kind::Int);
    }
    float.is_match(text).then_some(Kind::Float)
}

fn key_string(key: Value) -> String {
    match key {
        Value::String(s) => s,
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping of frontmatter keys")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut pairs = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Value>>()? {
            let value = map.next_value::<Spanned<Value>>()?;
            pairs.push((key, value));
        }
        Ok(Top::Mapping(pairs))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Top, E> {
        Ok(Top::Empty)
    }

    fn visit_none<E: de::Error>(self) -> Result<Top, E> {
        Ok(Top::Empty)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Top::NotMapping("a list"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top, E> {
        Ok(Top::NotMapping("a text scalar"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top, E> {
        Ok(Top::NotMapping("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top, E> {
        Ok(Top::NotMapping("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top, E> {
        Ok(Top::NotMapping("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top, E> {
        Ok(Top::NotMapping("a number"))
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Top, E> {
        Ok(Top::NotMapping("binary data"))
    }
}

/// YAML features that the spec's reference validator (skills-ref 0.1.1, built on strictyaml)
/// rejects although they are valid YAML.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presentation {
    /// `[a, b]` or `{k: v}`.
    FlowStyle,
    /// `&anchor` or `*alias`.
    Anchor,
    /// `!tag` or `!!str`.
    Tag,
}

/// The first use of each [`Presentation`] feature in `yaml`, with its 1-based line and
/// column. Stops at the first scan error (the YAML loader reports that one).
pub fn presentation(yaml: &str) -> Vec<(Presentation, u32, u32)> {
    use granit_parser::{Event, Parser, StructureStyle};
    let mut found: Vec<(Presentation, u32, u32)> = Vec::new();
    // Flow collections, anchors, aliases and tags each need one of these indicator characters;
    // most frontmatter has none, and skipping the second event pass halves discovery's parse cost.
    if !yaml.contains(['[', '{', '&', '*', '!']) {
        return found;
    }
    let mut note = |what: Presentation, span: &granit_parser::Span| {
        if !found.iter().any(|(w, _, _)| *w == what) {
            let line = u32::try_from(span.start.line()).unwrap_or(u32::MAX);
            let column = u32::try_from(span.start.col()).unwrap_or(u32::MAX);
            found.push((what, line, column.saturating_add(1)));
        }
    };
    for (count, event) in Parser::new_from_str(yaml).enumerate() {
        if count > MAX_EVENTS {
            break;
        }
        let Ok((event, span)) = event else { break };
        match event {
            Event::Alias(_) => note(Presentation::Anchor, &span),
            Event::Scalar(_, _, anchor, tag) => {
                if anchor != 0 {
                    note(Presentation::Anchor, &span);
                }
                if tag.is_some() {
                    note(Presentation::Tag, &span);
                }
            }
            Event::SequenceStart(style, anchor, tag) | Event::MappingStart(style, anchor, tag) => {
                if style == StructureStyle::Flow {
                    note(Presentation::FlowStyle, &span);
                }
                if anchor != 0 {
                    note(Presentation::Anchor, &span);
                }
                if tag.is_some() {
                    note(Presentation::Tag, &span);
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_block_scalar_without_a_final_line_break_has_none() {
        let value = |src: &str| match super::load(src) {
            Ok(super::Loaded::Mapping(entries)) => entries[0].value.clone(),
            _ => panic!("{src:?} did not load"),
        };
        use serde_json::json;
        assert_eq!(value("a: |\n  x"), json!("x"));
        assert_eq!(value("a: >-\n  x\n  y"), json!("x y"));
        assert_eq!(value("a: |+ # keep\n  x"), json!("x"));
        assert_eq!(value("a: |\n  x\n"), json!("x\n"));
        assert_eq!(value("a: |\n  x\n# c"), json!("x\n"));
        assert_eq!(value("a: \"x\\n\""), json!("x\n"));
        assert_eq!(value("a:\n  \"x\\n\""), json!("x\n"));
    }

    use super::*;

    fn entries(yaml: &str) -> Vec<Entry> {
        match load(yaml) {
            Ok(Loaded::Mapping(e)) => e,
            other => panic!("not a mapping: {other:?}"),
        }
    }

    #[test]
    fn keeps_raw_text_of_typed_scalars() {
        let e = entries("version: 1.10\nname: yes\nn: 0o17 # c\nq: \"1.0\"\n");
        assert_eq!(e[0].raw.as_deref(), Some("1.10"));
        assert_eq!(e[1].value, Value::String("yes".into()));
        assert_eq!(e[2].raw.as_deref(), Some("0o17"));
        assert_eq!(e[3].value, Value::String("1.0".into()));
        assert_eq!((e[1].line, e[1].column), (2, 1));
    }

    #[test]
    fn duplicates_are_passed_through() {
        let e = entries("a: 1\na: 2\n");
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].line, 2);
    }

    #[test]
    fn empty_and_non_mapping() {
        assert_eq!(load("\n# only a comment\n"), Ok(Loaded::Empty));
        assert_eq!(load("- a\n- b\n"), Ok(Loaded::NotMapping("a list")));
        assert_eq!(load("hello\n"), Ok(Loaded::NotMapping("a text scalar")));
    }

    #[test]
    fn alias_bomb_fails_fast() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
        let mut prev = 'a';
        for c in 'b'..='z' {
            let refs = vec![format!("*{prev}"); 10].join(",");
            bomb.push_str(&format!("{c}: &{c} [{refs}]\n"));
            prev = c;
        }
        let err = load(&bomb).expect_err("bomb must fail");
        assert!(err.limit, "{err:?}");
        assert_eq!(err.message, "alias replay limit exceeded");
    }

    #[test]
    fn deep_nesting_fails() {
        let deep = format!("a: {}", "[".repeat(50_000));
        assert!(load(&deep).is_err());
    }

    #[test]
    fn presentation_features() {
        let found = presentation("a: [x]\nb: &r y\nc: *r\nd: !!str z\n");
        assert_eq!(
            found,
            vec![
                (Presentation::FlowStyle, 1, 4),
                (Presentation::Anchor, 2, 7),
                (Presentation::Tag, 4, 10),
            ]
        );
        assert!(presentation("a:\n  - x\nb: c\n").is_empty());
    }

    #[test]
    fn syntax_error_has_line() {
        let err = load("name: x\ndescription: Use when: the user asks\n").expect_err("bad");
        assert_eq!(err.line, Some(2));
        assert!(!err.limit);
    }
}
