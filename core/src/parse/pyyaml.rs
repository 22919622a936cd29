//! One frontmatter document as PyYAML's `SafeLoader` builds it, and Python's `str()` of a
//! value in it.
//!
//! OpenHands SDK 1.44.1 names a skill `str(metadata.get("name", default))`
//! (`openhands/sdk/skills/skill.py` `_load_legacy_openhands_skill`,
//! `_load_agentskills_skill`), the metadata read by python-frontmatter with PyYAML 6.0
//! (`yaml/constructor.py` `SafeConstructor`, `yaml/resolver.py` implicit resolvers). So
//! `name: 0x1f` is the skill `31`, `name: [a]` the skill `['a']`. This module composes the
//! YAML events into nodes, builds them in the order PyYAML's constructor does (which decides
//! which error the host meets first, [`construct`]), and prints the Python value ([`PyValue`])
//! as CPython 3.12 does (`str`/`repr` of `None`, `bool`, `int`, `float`, `bytes`,
//! `datetime.date`, `datetime.datetime`, `str`, `list`, `tuple`, `set`, `dict`).

use granit_parser::{Event, Parser, ScalarStyle, Tag};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// A value as PyYAML's safe constructor returns it.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue {
    None,
    Bool(bool),
    /// Decimal digits with a leading `-` when negative (Python ints are unbounded).
    Int(String),
    /// An int with more than 4,300 decimal digits (built from hex, octal or binary text):
    /// CPython's `str()` of it raises `ValueError`.
    HugeInt,
    Float(f64),
    Date(Date),
    DateTime(DateTime),
    Str(String),
    /// `!!binary`.
    Bytes(Vec<u8>),
    List(Vec<PyValue>),
    /// A pair of `!!omap` or `!!pairs`.
    Tuple(Vec<PyValue>),
    /// `!!set`, in insertion order; only built with at most one element (see [`Builder`]).
    Set(Vec<PyValue>),
    /// In insertion order, as a Python dict keeps it.
    Dict(Vec<(PyValue, PyValue)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateTime {
    pub date: Date,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub microsecond: u32,
    /// The UTC offset in minutes; `None` for a naive datetime.
    pub offset_minutes: Option<i32>,
}

/// Why the host cannot load a frontmatter PyYAML reads without a syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// PyYAML's own `ConstructorError` (a `yaml.YAMLError`): an unknown tag, a list or
    /// mapping used as a key, a `<<` onto a scalar, bad base64. OpenHands skips that file.
    Yaml { message: String, line: u32 },
    /// A Python exception that is no `yaml.YAMLError` (`ValueError` from `datetime` on
    /// `2024-02-30`, from `int()`/`str()` past 4,300 digits): it escapes OpenHands' per-file
    /// handler, which then loads nothing from the file's directory.
    Python { message: String, line: u32 },
}

/// What PyYAML's `SafeLoader` makes of a frontmatter block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It builds, and `str()` of its top-level `name` succeeds.
    Builds,
    Refused(Refusal),
    /// A syntax error (the caller's own reader reports it), or something this module does
    /// not build (see [`Fail::Unsupported`]) met before any refusal.
    Unknown,
}

/// Build `yaml` in PyYAML's order and say whether the host can (see [`Verdict`]).
pub fn construct(yaml: &str) -> Verdict {
    let Some(mut doc) = Doc::compose(yaml) else {
        return Verdict::Unknown;
    };
    let Some(root) = doc.root else {
        return Verdict::Builds;
    };
    match Construction::new(&mut doc).run(root) {
        Ok(()) => {}
        Err(Fail::Refused(r)) => return Verdict::Refused(r),
        Err(Fail::Unsupported) => return Verdict::Unknown,
    }
    // `str(name)` comes first in both loaders: an int past CPython's digit limit raises.
    match doc.top_level(root, "name") {
        Some((node, value)) if contains_huge_int(&value) => Verdict::Refused(Refusal::Python {
            message: "`str()` of an int with more than 4300 decimal digits raises ValueError"
                .into(),
            line: doc.nodes.get(node).map_or(1, |n| n.line),
        }),
        _ => Verdict::Builds,
    }
}

/// The top-level entries of `yaml` as python-frontmatter hands them over, for a block the
/// YAML reader cannot hold (a null key inside a mapping): each key's text (a null key is
/// ""), its line, the value as JSON (a key inside it as Python's `str()`; dates as null, as
/// the YAML 1.1 reading gives them) and the value's line. `None` when a value is not built.
pub fn entries(yaml: &str) -> Option<Vec<(String, u32, serde_json::Value, u32)>> {
    let mut doc = Doc::compose(yaml)?;
    let root = doc.root?;
    let node = doc.nodes.get(root)?;
    if node.tag != Resolved::Map || !matches!(node.body, Body::Map(..)) {
        return None;
    }
    doc.flatten(root, 0).ok()?;
    let mut out = Vec::new();
    // One budget for the whole block: every value may alias the same large node.
    let mut builder = Builder {
        doc: &mut doc,
        spent: 0,
        stack: Vec::new(),
    };
    for (k, v) in builder.doc.pairs(root) {
        let (key_line, value_line) = (
            builder.doc.nodes.get(k)?.line,
            builder.doc.nodes.get(v)?.line,
        );
        let key = match builder.build(k, 0).ok()? {
            PyValue::None => String::new(),
            key => to_str(&key),
        };
        let value = builder.build(v, 0).ok()?;
        out.push((key, key_line, to_json(&value), value_line));
    }
    Some(out)
}

fn to_json(value: &PyValue) -> serde_json::Value {
    use serde_json::Value;
    match value {
        PyValue::None | PyValue::Date(_) | PyValue::DateTime(_) | PyValue::HugeInt => Value::Null,
        PyValue::Bool(b) => Value::Bool(*b),
        PyValue::Int(digits) => digits
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| digits.parse::<f64>().map(Value::from))
            .unwrap_or(Value::Null),
        PyValue::Float(f) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .unwrap_or_else(|| Value::String(float_repr(*f))),
        PyValue::Str(s) => Value::String(s.clone()),
        PyValue::Bytes(b) => Value::String(String::from_utf8_lossy(b).into_owned()),
        PyValue::List(items) | PyValue::Tuple(items) | PyValue::Set(items) => {
            Value::Array(items.iter().map(to_json).collect())
        }
        PyValue::Dict(pairs) => {
            Value::Object(pairs.iter().map(|(k, v)| (to_str(k), to_json(v))).collect())
        }
    }
}

/// Whether `yaml` may hold anything [`construct`] refuses, from a scan of its bytes: a
/// tag, a merge or value key, a complex or flow key, something dated (`dddd-d`), or a run
/// of digits long enough for CPython's limit. Most frontmatter has none, and then the
/// second reading is skipped.
pub fn may_refuse(yaml: &str) -> bool {
    let bytes = yaml.as_bytes();
    let mut digits = 0usize;
    for &b in bytes {
        if b.is_ascii_digit() {
            digits += 1;
            if digits > PYTHON_INT_MAX_STR_DIGITS {
                return true;
            }
            continue;
        }
        if b == b'-' && digits >= 4 {
            return true;
        }
        digits = 0;
        if matches!(b, b'!' | b'<' | b'=' | b'?' | b'{' | b'[') {
            return true;
        }
    }
    false
}

/// The value of the last top-level `key` of the YAML mapping `yaml`, built as PyYAML's
/// `SafeLoader` builds it. `None` when the text has no such key, or holds something this
/// module does not build or Python refuses (a tag other than PyYAML's safe ones, an
/// unhashable key, a date Python refuses, a set of several elements).
pub fn value_of(yaml: &str, key: &str) -> Option<PyValue> {
    let mut doc = Doc::compose(yaml)?;
    let root = doc.root?;
    doc.top_level(root, key).map(|(_, v)| v)
}

/// Python's `str()` of the `name` of `text`'s frontmatter as the host of `dialect` reads
/// it, or `None` (no block, no `name`, or a value [`value_of`] does not build).
pub fn name_str(text: &str, dialect: &super::Dialect) -> Option<String> {
    let yaml = super::hosts::yaml_text(text, dialect)?;
    let value = value_of(&yaml, "name")?;
    (!contains_huge_int(&value)).then(|| to_str(&value))
}

fn contains_huge_int(value: &PyValue) -> bool {
    match value {
        PyValue::HugeInt => true,
        PyValue::List(items) | PyValue::Tuple(items) | PyValue::Set(items) => {
            items.iter().any(contains_huge_int)
        }
        PyValue::Dict(pairs) => pairs
            .iter()
            .any(|(k, v)| contains_huge_int(k) || contains_huge_int(v)),
        _ => false,
    }
}

/// A bound on the events read: a frontmatter is small, and aliases point at composed
/// nodes, so this only stops a hostile file early.
const MAX_EVENTS: usize = 100_000;
const MAX_DEPTH: usize = 64;
/// A bound on what one value may expand to through aliases (nodes plus text bytes): the
/// name of a skill, printed, is never near it.
const MAX_BUILT: usize = 1 << 20;

/// Why a node was not built.
#[derive(Debug)]
enum Fail {
    Refused(Refusal),
    /// Something PyYAML does (or may) build but this module does not reproduce: an
    /// explicit core tag on text its implicit resolver types otherwise (`!!int abc`), a
    /// set of several elements (its order follows string hashes, random per process), a
    /// recursive structure, a budget reached.
    Unsupported,
}

fn yaml_error(message: impl Into<String>, line: u32) -> Fail {
    Fail::Refused(Refusal::Yaml {
        message: message.into(),
        line,
    })
}

fn python_error(message: impl Into<String>, line: u32) -> Fail {
    Fail::Refused(Refusal::Python {
        message: message.into(),
        line,
    })
}

/// The tag a node resolves to (`yaml/resolver.py`, then the constructor it selects).
#[derive(Clone, Debug, PartialEq)]
enum Resolved {
    Null,
    Bool,
    Int,
    Float,
    /// `!!float` on an int's text (`!!float 3` is 3.0).
    IntAsFloat,
    Timestamp,
    Str,
    Binary,
    /// `<<` (implicit) or `!!merge`: a mapping key to merge; built anywhere else,
    /// SafeConstructor has no constructor for it.
    Merge,
    /// `=` (implicit) or `!!value`: text as a mapping key, no constructor elsewhere.
    Value,
    Seq,
    Map,
    Set,
    Omap,
    Pairs,
    /// A tag SafeConstructor has no constructor for (`!custom`, `!!python/name:...`).
    Undefined(String),
    /// See [`Fail::Unsupported`].
    Unsupported,
}

impl Resolved {
    fn is_collection(&self) -> bool {
        matches!(
            self,
            Resolved::Seq | Resolved::Map | Resolved::Set | Resolved::Omap | Resolved::Pairs
        )
    }
}

#[derive(Debug)]
enum Body {
    Scalar(String),
    Seq(Vec<usize>),
    /// Key and value nodes, and [`Doc::flatten`]'s state (`RAW`, `FLATTENING`, `FLAT`).
    Map(Vec<(usize, usize)>, u8),
}

#[derive(Debug)]
struct Node {
    tag: Resolved,
    body: Body,
    /// 1-based line in the YAML text.
    line: u32,
}

/// The composed document: nodes in an arena, an alias being the index of its anchor's node.
struct Doc {
    nodes: Vec<Node>,
    root: Option<usize>,
    /// Pairs copied by merges so far: each alias to a large mapping under `<<` copies it
    /// again, so a hostile file could make this quadratic; past [`MAX_EVENTS`] it stops.
    merged: usize,
}

/// Where a merged pair's key came from, as PyYAML 6.0.4's `flatten_mapping` tells them
/// apart: by `id()` of the key's text. CPython shares one object for the empty string and
/// for each one-character string below U+0100, so such keys are the same in every node;
/// any other text is its own object per node (an alias reuses its anchor's).
#[derive(Clone, PartialEq, Eq, Hash)]
enum KeyId {
    Shared(String),
    Node(usize),
}

impl Doc {
    /// PyYAML's composer over the events; `None` on a syntax error, a second document or a
    /// budget reached (the caller's own reader reports those).
    fn compose(yaml: &str) -> Option<Doc> {
        let mut events = Parser::new_from_str(yaml);
        let mut budget = MAX_EVENTS;
        let mut doc = Doc {
            nodes: Vec::new(),
            root: None,
            merged: 0,
        };
        let mut anchors: HashMap<usize, usize> = HashMap::new();
        // Open collections: the node, and a mapping's key waiting for its value.
        let mut open: Vec<(usize, Option<usize>)> = Vec::new();
        let mut documents = 0;
        loop {
            budget = budget.checked_sub(1)?;
            let (event, span) = events.next()?.ok()?;
            let line = u32::try_from(span.start.line()).unwrap_or(u32::MAX);
            let (index, anchor, opens) = match event {
                Event::StreamEnd => return Some(doc),
                Event::DocumentStart(..) => {
                    documents += 1;
                    if documents > 1 {
                        return None;
                    }
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    open.pop()?;
                    continue;
                }
                Event::Alias(id) => (*anchors.get(&id)?, 0, false),
                Event::Scalar(text, style, anchor, tag) => {
                    let tag = scalar_tag(&text, style, tag.as_deref());
                    doc.nodes.push(Node {
                        tag,
                        body: Body::Scalar(text.into_owned()),
                        line,
                    });
                    (doc.nodes.len() - 1, anchor, false)
                }
                Event::SequenceStart(_, anchor, tag) => {
                    doc.nodes.push(Node {
                        tag: collection_tag(tag.as_deref(), false),
                        body: Body::Seq(Vec::new()),
                        line,
                    });
                    (doc.nodes.len() - 1, anchor, true)
                }
                Event::MappingStart(_, anchor, tag) => {
                    doc.nodes.push(Node {
                        tag: collection_tag(tag.as_deref(), true),
                        body: Body::Map(Vec::new(), RAW),
                        line,
                    });
                    (doc.nodes.len() - 1, anchor, true)
                }
                _ => continue,
            };
            // Registered before the children: PyYAML's composer lets a collection hold an
            // alias to itself.
            if anchor != 0 {
                anchors.insert(anchor, index);
            }
            match open.last_mut() {
                Some((parent, key)) => match doc.nodes.get_mut(*parent).map(|n| &mut n.body) {
                    Some(Body::Seq(items)) => items.push(index),
                    Some(Body::Map(pairs, _)) => match key.take() {
                        Some(k) => pairs.push((k, index)),
                        None => *key = Some(index),
                    },
                    _ => return None,
                },
                None if doc.root.is_none() => doc.root = Some(index),
                None => return None,
            }
            if opens {
                if open.len() >= MAX_DEPTH {
                    return None;
                }
                open.push((index, None));
            }
        }
    }

    fn node(&self, n: usize) -> Result<&Node, Fail> {
        self.nodes.get(n).ok_or(Fail::Unsupported)
    }

    fn pairs(&self, n: usize) -> Vec<(usize, usize)> {
        match self.nodes.get(n).map(|n| &n.body) {
            Some(Body::Map(pairs, _)) => pairs.clone(),
            _ => Vec::new(),
        }
    }

    fn key_id(&self, n: usize) -> KeyId {
        match self.nodes.get(n).map(|n| &n.body) {
            Some(Body::Scalar(text))
                if text.chars().nth(1).is_none() && text.chars().all(|c| u32::from(c) < 0x100) =>
            {
                KeyId::Shared(text.clone())
            }
            _ => KeyId::Node(n),
        }
    }

    /// `SafeConstructor.flatten_mapping` (PyYAML 6.0.4): the pairs of every `<<` value (a
    /// mapping, or a list of mappings, each flattened first) come first, a key already
    /// merged (see [`KeyId`]) taken once; then the mapping's own pairs, a `=` key made
    /// text. Done once per node, as PyYAML's rewrite of the node leaves no `<<` behind.
    fn flatten(&mut self, n: usize, depth: usize) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            return Err(Fail::Unsupported);
        }
        let line = self.node(n)?.line;
        let pairs = match self.nodes.get_mut(n).map(|n| &mut n.body) {
            Some(Body::Map(_, FLAT)) | None | Some(Body::Scalar(_) | Body::Seq(_)) => return Ok(()),
            // Python recurses until its stack overflows (RecursionError).
            Some(Body::Map(_, FLATTENING)) => return Err(Fail::Unsupported),
            Some(Body::Map(pairs, state)) => {
                *state = FLATTENING;
                std::mem::take(pairs)
            }
        };
        let mut merged = Vec::new();
        let mut seen = HashSet::new();
        let mut own = Vec::new();
        for (k, v) in pairs {
            if self.node(k)?.tag != Resolved::Merge {
                if let Some(key) = self.nodes.get_mut(k).filter(|k| k.tag == Resolved::Value) {
                    key.tag = Resolved::Str;
                }
                own.push((k, v));
                continue;
            }
            let sources = match &self.node(v)?.body {
                Body::Map(..) => vec![v],
                Body::Seq(items) => items.clone(),
                Body::Scalar(_) => {
                    return Err(yaml_error(
                        "while constructing a mapping: expected a mapping or list of mappings for merging, but found scalar",
                        line,
                    ))
                }
            };
            for source in sources {
                let what = match &self.node(source)?.body {
                    Body::Map(..) => None,
                    Body::Seq(_) => Some("sequence"),
                    Body::Scalar(_) => Some("scalar"),
                };
                if let Some(what) = what {
                    return Err(yaml_error(
                        format!("while constructing a mapping: expected a mapping for merging, but found {what}"),
                        line,
                    ));
                }
                self.flatten(source, depth + 1)?;
                let pairs = self.pairs(source);
                self.merged = self.merged.saturating_add(pairs.len());
                if self.merged > MAX_EVENTS {
                    return Err(Fail::Unsupported);
                }
                for pair in pairs {
                    if seen.insert(self.key_id(pair.0)) {
                        merged.push(pair);
                    }
                }
            }
        }
        merged.extend(own);
        if let Some(Body::Map(pairs, state)) = self.nodes.get_mut(n).map(|n| &mut n.body) {
            *pairs = merged;
            *state = FLAT;
        }
        Ok(())
    }

    /// The value of the top-level mapping's `key` (the last one), with its node, as
    /// python-frontmatter hands it over (`None` when the document is no dict).
    fn top_level(&mut self, root: usize, key: &str) -> Option<(usize, PyValue)> {
        let node = self.nodes.get(root)?;
        if node.tag != Resolved::Map || !matches!(node.body, Body::Map(..)) {
            return None;
        }
        self.flatten(root, 0).ok()?;
        let mut found = None;
        for (k, v) in self.pairs(root) {
            let Some(Node {
                tag,
                body: Body::Scalar(text),
                line,
            }) = self.nodes.get(k)
            else {
                continue;
            };
            if matches!(scalar_value(tag, text, *line), Ok(PyValue::Str(s)) if s == key) {
                found = Some(v);
            }
        }
        let v = found?;
        let value = Builder {
            doc: self,
            spent: 0,
            stack: Vec::new(),
        }
        .build(v, 0)
        .ok()?;
        Some((v, value))
    }
}

const RAW: u8 = 0;
const FLATTENING: u8 = 1;
const FLAT: u8 = 2;

/// The tag PyYAML resolves for a scalar (explicit, `!`, or its implicit resolvers).
fn scalar_tag(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Resolved {
    let implicit = || match text {
        "<<" => Resolved::Merge,
        "=" => Resolved::Value,
        _ => match super::yaml::yaml_1_1_tag(text) {
            Some(Kind::Null) => Resolved::Null,
            Some(Kind::Bool(_)) => Resolved::Bool,
            Some(Kind::Int) => Resolved::Int,
            Some(Kind::Float) => Resolved::Float,
            Some(Kind::Timestamp) => Resolved::Timestamp,
            None => Resolved::Str,
        },
    };
    let Some(tag) = tag else {
        return if style == ScalarStyle::Plain {
            implicit()
        } else {
            Resolved::Str
        };
    };
    if tag.handle() == "!" && tag.suffix().is_empty() {
        return Resolved::Str;
    }
    let Some(suffix) = yaml_org_suffix(tag) else {
        return Resolved::Undefined(format!("{}{}", tag.handle(), tag.suffix()));
    };
    // An explicit typed tag builds the text with that type's constructor; only text the
    // implicit resolver gives the same type is reproduced.
    let typed = |want: Resolved| {
        if implicit() == want {
            want
        } else {
            Resolved::Unsupported
        }
    };
    match suffix.as_str() {
        "str" => Resolved::Str,
        "null" => Resolved::Null,
        "binary" => Resolved::Binary,
        "merge" => Resolved::Merge,
        "value" => Resolved::Value,
        "bool" => typed(Resolved::Bool),
        "int" => typed(Resolved::Int),
        "timestamp" => typed(Resolved::Timestamp),
        "float" => match implicit() {
            Resolved::Float => Resolved::Float,
            Resolved::Int => Resolved::IntAsFloat,
            _ => Resolved::Unsupported,
        },
        "seq" => Resolved::Seq,
        "map" => Resolved::Map,
        "set" => Resolved::Set,
        "omap" => Resolved::Omap,
        "pairs" => Resolved::Pairs,
        other => Resolved::Undefined(format!("tag:yaml.org,2002:{other}")),
    }
}

/// The tag of a sequence or mapping node. A scalar type on a collection fails as soon as
/// it is built (`construct_scalar`: "expected a scalar node"), as an undefined tag does.
fn collection_tag(tag: Option<&Tag>, mapping: bool) -> Resolved {
    let plain = if mapping {
        Resolved::Map
    } else {
        Resolved::Seq
    };
    let Some(tag) = tag else {
        return plain;
    };
    if tag.handle() == "!" && tag.suffix().is_empty() {
        return plain;
    }
    let name = format!("{}{}", tag.handle(), tag.suffix());
    let Some(suffix) = yaml_org_suffix(tag) else {
        return Resolved::Undefined(name);
    };
    match suffix.as_str() {
        "seq" => Resolved::Seq,
        "map" => Resolved::Map,
        "set" => Resolved::Set,
        "omap" => Resolved::Omap,
        "pairs" => Resolved::Pairs,
        "str" | "null" | "bool" | "int" | "float" | "timestamp" | "binary" => {
            Resolved::Undefined(format!("{name} (expected a scalar node)"))
        }
        _ => Resolved::Undefined(name),
    }
}

/// The type name of a tag in PyYAML's `tag:yaml.org,2002:` namespace (however written:
/// `!!set`, `!<tag:yaml.org,2002:set>`, a `%TAG` handle).
fn yaml_org_suffix(tag: &Tag) -> Option<String> {
    let uri = format!("{}{}", tag.handle(), tag.suffix());
    uri.strip_prefix("tag:yaml.org,2002:").map(str::to_string)
}

fn body_kind(body: &Body) -> &'static str {
    match body {
        Body::Scalar(_) => "scalar",
        Body::Seq(_) => "sequence",
        Body::Map(..) => "mapping",
    }
}

/// PyYAML's construction order (`BaseConstructor.construct_document`): a node is built
/// once; a scalar at once, a collection first as an empty container whose contents are
/// built later, by rounds, in the order the containers were met. So a mapping's scalars
/// are all built before the lists and mappings inside it, and the first failure in that
/// order is the error the host meets.
struct Construction<'d> {
    doc: &'d mut Doc,
    built: Vec<bool>,
    queue: Vec<usize>,
}

impl<'d> Construction<'d> {
    fn new(doc: &'d mut Doc) -> Self {
        let built = vec![false; doc.nodes.len()];
        Construction {
            doc,
            built,
            queue: Vec::new(),
        }
    }

    fn run(&mut self, root: usize) -> Result<(), Fail> {
        self.object(root)?;
        while !self.queue.is_empty() {
            for n in std::mem::take(&mut self.queue) {
                self.contents(n)?;
            }
        }
        Ok(())
    }

    /// `construct_object`.
    fn object(&mut self, n: usize) -> Result<(), Fail> {
        match self.built.get_mut(n) {
            Some(true) => return Ok(()),
            Some(done) => *done = true,
            None => return Err(Fail::Unsupported),
        }
        let node = self.doc.node(n)?;
        match (&node.tag, &node.body) {
            (Resolved::Undefined(tag), _) => Err(undefined(tag, node.line)),
            (tag, _) if tag.is_collection() => {
                self.queue.push(n);
                Ok(())
            }
            (tag, Body::Scalar(text)) => scalar_value(tag, text, node.line).map(drop),
            (_, body) => Err(yaml_error(
                format!("expected a scalar node, but found {}", body_kind(body)),
                node.line,
            )),
        }
    }

    /// The rest of a collection's generator constructor.
    fn contents(&mut self, n: usize) -> Result<(), Fail> {
        let node = self.doc.node(n)?;
        let line = node.line;
        match (&node.tag, &node.body) {
            (Resolved::Seq, Body::Seq(items)) => {
                for item in items.clone() {
                    self.object(item)?;
                }
                Ok(())
            }
            (Resolved::Omap | Resolved::Pairs, Body::Seq(items)) => {
                for (k, v) in omap_items(self.doc, items, line)? {
                    self.object(k)?;
                    self.object(v)?;
                }
                Ok(())
            }
            (Resolved::Map | Resolved::Set, Body::Map(..)) => {
                self.doc.flatten(n, 0)?;
                for (k, v) in self.doc.pairs(n) {
                    self.object(k)?;
                    let key = self.doc.node(k)?;
                    if key.tag.is_collection() {
                        return Err(yaml_error(
                            "while constructing a mapping: found unhashable key",
                            key.line,
                        ));
                    }
                    self.object(v)?;
                }
                Ok(())
            }
            (tag, body) => {
                let want = match tag {
                    Resolved::Seq | Resolved::Omap | Resolved::Pairs => "sequence",
                    _ => "mapping",
                };
                Err(yaml_error(
                    format!("expected a {want} node, but found {}", body_kind(body)),
                    line,
                ))
            }
        }
    }
}

fn undefined(tag: &str, line: u32) -> Fail {
    yaml_error(
        format!("could not determine a constructor for the tag '{tag}'"),
        line,
    )
}

/// The key and value of each item of an `!!omap`/`!!pairs` sequence: each must be a
/// mapping of one pair (`construct_yaml_omap`, `construct_yaml_pairs`; no merge there).
fn omap_items(doc: &Doc, items: &[usize], line: u32) -> Result<Vec<(usize, usize)>, Fail> {
    items
        .iter()
        .map(|&item| match &doc.node(item)?.body {
            Body::Map(pairs, _) => match pairs.as_slice() {
                [pair] => Ok(*pair),
                _ => Err(yaml_error(
                    "while constructing an ordered map: expected a single mapping item",
                    line,
                )),
            },
            body => Err(yaml_error(
                format!(
                    "while constructing an ordered map: expected a mapping of length 1, but found {}",
                    body_kind(body)
                ),
                line,
            )),
        })
        .collect()
}

/// A scalar node's value, as the constructor its tag selects builds it.
fn scalar_value(tag: &Resolved, text: &str, line: u32) -> Result<PyValue, Fail> {
    match tag {
        Resolved::Null => Ok(PyValue::None),
        Resolved::Bool => Ok(PyValue::Bool(matches!(
            text.to_ascii_lowercase().as_str(),
            "yes" | "true" | "on"
        ))),
        Resolved::Int => int(text, line),
        Resolved::Float | Resolved::IntAsFloat => {
            float(text).map(PyValue::Float).ok_or(Fail::Unsupported)
        }
        Resolved::Timestamp => timestamp(text, line),
        Resolved::Str => Ok(PyValue::Str(text.to_string())),
        Resolved::Binary => base64(text, line),
        Resolved::Merge => Err(undefined("tag:yaml.org,2002:merge", line)),
        Resolved::Value => Err(undefined("tag:yaml.org,2002:value", line)),
        Resolved::Undefined(tag) => Err(undefined(tag, line)),
        Resolved::Unsupported => Err(Fail::Unsupported),
        Resolved::Seq | Resolved::Omap | Resolved::Pairs => Err(yaml_error(
            "expected a sequence node, but found scalar",
            line,
        )),
        Resolved::Map | Resolved::Set => Err(yaml_error(
            "expected a mapping node, but found scalar",
            line,
        )),
    }
}

/// Builds one node's value, following aliases; a recursive structure or a value past
/// [`MAX_BUILT`] is not built.
struct Builder<'d> {
    doc: &'d mut Doc,
    spent: usize,
    stack: Vec<usize>,
}

impl Builder<'_> {
    fn build(&mut self, n: usize, depth: usize) -> Result<PyValue, Fail> {
        if depth > MAX_DEPTH || self.stack.contains(&n) {
            return Err(Fail::Unsupported);
        }
        let node = self.doc.node(n)?;
        let size = match &node.body {
            Body::Scalar(text) => text.len(),
            Body::Seq(items) => items.len(),
            Body::Map(pairs, _) => pairs.len(),
        };
        self.spent = self.spent.saturating_add(1 + size);
        if self.spent > MAX_BUILT {
            return Err(Fail::Unsupported);
        }
        let (tag, line) = (node.tag.clone(), node.line);
        if let Body::Scalar(text) = &node.body {
            return match tag {
                Resolved::Undefined(t) => Err(undefined(&t, line)),
                tag => scalar_value(&tag, text, line),
            };
        }
        self.stack.push(n);
        let value = self.collection(n, tag, line, depth);
        self.stack.pop();
        value
    }

    fn collection(
        &mut self,
        n: usize,
        tag: Resolved,
        line: u32,
        depth: usize,
    ) -> Result<PyValue, Fail> {
        let body_items = match &self.doc.node(n)?.body {
            Body::Seq(items) => Some(items.clone()),
            _ => None,
        };
        match (tag, body_items) {
            (Resolved::Seq, Some(items)) => items
                .into_iter()
                .map(|i| self.build(i, depth + 1))
                .collect::<Result<_, _>>()
                .map(PyValue::List),
            (Resolved::Omap | Resolved::Pairs, Some(items)) => {
                let pairs = omap_items(self.doc, &items, line)?;
                let mut out = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    let k = self.build(k, depth + 1)?;
                    let v = self.build(v, depth + 1)?;
                    out.push(PyValue::Tuple(vec![k, v]));
                }
                Ok(PyValue::List(out))
            }
            (tag @ (Resolved::Map | Resolved::Set), None) => {
                self.doc.flatten(n, 0)?;
                let mut out: Vec<(PyValue, PyValue)> = Vec::new();
                let mut index: HashMap<KeyClass, usize> = HashMap::new();
                for (k, v) in self.doc.pairs(n) {
                    let key = self.build(k, depth + 1)?;
                    let class = key_class(&key, line)?;
                    let value = self.build(v, depth + 1)?;
                    // Python keeps the first equal key and its place, with the last value.
                    match index.get(&class).and_then(|&i| out.get_mut(i)) {
                        Some(slot) => slot.1 = value,
                        None => {
                            index.insert(class, out.len());
                            out.push((key, value));
                        }
                    }
                }
                if tag == Resolved::Set {
                    // The order of a set of several elements follows their hashes (a
                    // string's is random per process): not reproduced.
                    if out.len() > 1 {
                        return Err(Fail::Unsupported);
                    }
                    return Ok(PyValue::Set(out.into_iter().map(|(k, _)| k).collect()));
                }
                Ok(PyValue::Dict(out))
            }
            (Resolved::Undefined(t), _) => Err(undefined(&t, line)),
            _ => Err(yaml_error("a node of the wrong kind for its tag", line)),
        }
    }
}

/// What Python's dict compares keys by (`__hash__` and `__eq__`): `True == 1 == 1.0`,
/// `False == 0 == -0.0`, an int equal to a float of the same value, aware datetimes at
/// the same instant; every `.nan` PyYAML builds is one object, so they are one key.
#[derive(Clone, PartialEq, Eq, Hash)]
enum KeyClass {
    None,
    /// An integral number, exact decimal.
    Integral(String),
    /// Any other float, by its bits.
    Float(u64),
    Nan,
    Str(String),
    Bytes(Vec<u8>),
    Date(Date),
    Naive(DateTime),
    /// Microseconds since 1970-01-01 UTC.
    Aware(i64),
}

fn key_class(key: &PyValue, line: u32) -> Result<KeyClass, Fail> {
    Ok(match key {
        PyValue::None => KeyClass::None,
        PyValue::Bool(b) => KeyClass::Integral(if *b { "1" } else { "0" }.into()),
        PyValue::Int(digits) => KeyClass::Integral(digits.clone()),
        PyValue::Float(f) if f.is_nan() => KeyClass::Nan,
        PyValue::Float(f) if f.is_finite() && f.fract() == 0.0 => {
            KeyClass::Integral(integral_decimal(*f))
        }
        PyValue::Float(f) => KeyClass::Float(f.to_bits()),
        PyValue::Str(s) => KeyClass::Str(s.clone()),
        PyValue::Bytes(b) => KeyClass::Bytes(b.clone()),
        PyValue::Date(d) => KeyClass::Date(*d),
        PyValue::DateTime(dt) => match dt.offset_minutes {
            None => KeyClass::Naive(*dt),
            Some(offset) => {
                let days = days_from_civil(dt.date);
                let seconds = days * 86_400
                    + i64::from(dt.hour) * 3600
                    + i64::from(dt.minute) * 60
                    + i64::from(dt.second)
                    - i64::from(offset) * 60;
                KeyClass::Aware(seconds * 1_000_000 + i64::from(dt.microsecond))
            }
        },
        PyValue::HugeInt | PyValue::Tuple(_) => return Err(Fail::Unsupported),
        PyValue::List(_) | PyValue::Dict(_) | PyValue::Set(_) => {
            return Err(yaml_error(
                "while constructing a mapping: found unhashable key",
                line,
            ))
        }
    })
}

/// Days from 1970-01-01 to `d` (proleptic Gregorian; Howard Hinnant's algorithm).
fn days_from_civil(d: Date) -> i64 {
    let (m, day) = (i64::from(d.month), i64::from(d.day));
    let y = i64::from(d.year) - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The exact decimal digits of an integral finite float (`-0.0` is `0`).
fn integral_decimal(f: f64) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: every integer below is an i64 cast
    if f.abs() < EXACT {
        return format!("{}", f as i64);
    }
    let bits = f.to_bits();
    let exponent = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0) - 1075;
    let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let mut n = BigUint::default();
    n.mul_add(1, mantissa);
    // By 2^32 at a time: a limb (below 10^9) times 2^32 still fits a u64.
    let mut shift = exponent.max(0);
    while shift > 0 {
        let step = shift.min(32);
        n.mul_add(1 << step, 0);
        shift -= step;
    }
    let sign = if f < 0.0 { "-" } else { "" };
    format!("{sign}{}", n.to_decimal())
}

/// `SafeConstructor.construct_yaml_binary`: the text as ASCII, then
/// `base64.decodebytes` (binascii's lenient decoder: characters outside the alphabet are
/// skipped, a completed `=` padding ends the data).
fn base64(text: &str, line: u32) -> Result<PyValue, Fail> {
    if !text.is_ascii() {
        return Err(yaml_error("failed to convert base64 data into ascii", line));
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut quad, mut pads, mut left) = (0u8, 0u8, 0u32);
    for b in text.bytes() {
        if b == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    return Ok(PyValue::Bytes(out));
                }
            }
            continue;
        }
        let v = match b {
            b'A'..=b'Z' => u32::from(b - b'A'),
            b'a'..=b'z' => u32::from(b - b'a') + 26,
            b'0'..=b'9' => u32::from(b - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        pads = 0;
        match quad {
            0 => left = v,
            1 => {
                out.push(((left << 2) | (v >> 4)) as u8);
                left = v & 0x0f;
            }
            2 => {
                out.push((((left << 4) | (v >> 2)) & 0xff) as u8);
                left = v & 0x03;
            }
            _ => {
                out.push((((left << 6) | v) & 0xff) as u8);
                left = 0;
            }
        }
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Ok(PyValue::Bytes(out)),
        1 => Err(yaml_error(
            format!(
                "failed to decode base64 data: Invalid base64-encoded string: number of data characters ({}) cannot be 1 more than a multiple of 4",
                out.len() / 3 * 4 + 1
            ),
            line,
        )),
        _ => Err(yaml_error(
            "failed to decode base64 data: Incorrect padding",
            line,
        )),
    }
}

/// What PyYAML's implicit resolvers make of a plain scalar (see [`super::yaml::yaml_1_1_tag`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool(bool),
    Int,
    Float,
    Timestamp,
}

/// `SafeConstructor.construct_yaml_int`: `_` dropped, sign, then `0b`, `0x`, a leading `0`
/// (octal) or base 60 (`1:20` is 80). `int()` of a decimal text past CPython's digit limit
/// raises `ValueError`, as does an empty one (`0b_`); a value built from another base may
/// be past it too, which only its `str()` finds out ([`PyValue::HugeInt`]).
fn int(text: &str, line: u32) -> Result<PyValue, Fail> {
    let clean = text.replace('_', "");
    let (negative, digits) = match clean.as_bytes().first() {
        Some(b'-') => (true, &clean[1..]),
        Some(b'+') => (false, &clean[1..]),
        Some(_) => (false, &clean[..]),
        None => return Err(Fail::Unsupported),
    };
    let invalid = || python_error(format!("invalid literal for int(): `{text}`"), line);
    let too_long = || {
        python_error(
            format!("`{}…` is an int of more than 4300 decimal digits: Python's int() raises ValueError", text.chars().take(12).collect::<String>()),
            line,
        )
    };
    let Some(fits) = within_python_int_limit(digits) else {
        return Err(too_long());
    };
    if !fits {
        return Ok(PyValue::HugeInt);
    }
    let mut n = BigUint::default();
    if digits == "0" {
    } else if let Some(bin) = digits.strip_prefix("0b") {
        n.push_digits(bin, 2).ok_or_else(invalid)?;
    } else if let Some(hex) = digits.strip_prefix("0x") {
        n.push_digits(hex, 16).ok_or_else(invalid)?;
    } else if digits.starts_with('0') {
        n.push_digits(digits, 8).ok_or_else(invalid)?;
    } else if digits.contains(':') {
        for part in digits.split(':') {
            n.mul_add(60, 0);
            let mut p = BigUint::default();
            p.push_digits(part, 10).ok_or_else(invalid)?;
            n.add(&p);
        }
    } else {
        n.push_digits(digits, 10).ok_or_else(invalid)?;
    }
    let decimal = n.to_decimal();
    if decimal.len() > PYTHON_INT_MAX_STR_DIGITS {
        return Ok(PyValue::HugeInt);
    }
    Ok(PyValue::Int(if negative && decimal != "0" {
        format!("-{decimal}")
    } else {
        decimal
    }))
}

/// CPython's `sys.get_int_max_str_digits()` default (3.11+): `int()` of a longer decimal
/// string and `str()` of an int with more decimal digits raise `ValueError`, so no name
/// comes from such a value (the host fails on that file).
const PYTHON_INT_MAX_STR_DIGITS: usize = 4300;

/// Whether the int of `digits` (sign and `_` removed) can be converted here: `None` when
/// Python's `int()` itself raises (a decimal text, or a base-60 part, past the limit),
/// `Some(false)` when its value surely has more decimal digits than `str()` allows.
/// Checked before the conversion, which is quadratic in the digits: the frontmatter may
/// hold 64 KiB of them.
fn within_python_int_limit(digits: &str) -> Option<bool> {
    // Significant digits in `radix` and how many decimal digits each is worth, rounded up
    // so that nothing CPython accepts is refused; the exact check follows the conversion.
    let significant = |rest: &str| rest.trim_start_matches('0').len();
    let limit = PYTHON_INT_MAX_STR_DIGITS as f64 + 1.0;
    let (count, log10_radix) = if let Some(bin) = digits.strip_prefix("0b") {
        (significant(bin), 0.302)
    } else if let Some(hex) = digits.strip_prefix("0x") {
        (significant(hex), 1.205)
    } else if digits.starts_with('0') {
        (significant(digits), 0.904)
    } else if digits.contains(':') {
        // `int()` of each part; each part past the first multiplies by 60 (1.78 digits).
        let mut parts = digits.split(':');
        let first = parts.next().unwrap_or_default().len();
        if first > PYTHON_INT_MAX_STR_DIGITS {
            return None;
        }
        let rest = parts.count();
        return Some(first as f64 + rest as f64 * 1.782 <= limit);
    } else {
        // CPython counts every digit of a decimal string.
        return (digits.len() <= PYTHON_INT_MAX_STR_DIGITS).then_some(true);
    };
    Some(count as f64 * log10_radix <= limit)
}

/// An unbounded natural number, base 10^9 limbs, least significant first.
#[derive(Default)]
struct BigUint(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl BigUint {
    fn mul_add(&mut self, mul: u64, add: u64) {
        let mut carry = add;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * mul + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    fn add(&mut self, other: &BigUint) {
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            let v = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(other.0.get(i).copied().unwrap_or(0))
                + carry;
            match self.0.get_mut(i) {
                Some(limb) => *limb = (v % LIMB) as u32,
                None => self.0.push((v % LIMB) as u32),
            }
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Append `digits` in `radix` (Python's `int(digits, radix)`: at least one digit).
    fn push_digits(&mut self, digits: &str, radix: u32) -> Option<()> {
        if digits.is_empty() {
            return None;
        }
        for c in digits.chars() {
            let d = c.to_digit(radix)?;
            self.mul_add(u64::from(radix), u64::from(d));
        }
        Some(())
    }

    fn to_decimal(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|l| **l == 0);
        let Some(first) = limbs.next() else {
            return "0".into();
        };
        let mut out = first.to_string();
        for limb in limbs {
            let _ = write!(out, "{limb:09}");
        }
        out
    }
}

/// `SafeConstructor.construct_yaml_float`: `_` dropped, lower-cased, `.inf`/`.nan`, base 60
/// summed from the last part as Python sums it, else `float(text)`.
fn float(text: &str) -> Option<f64> {
    let clean = text.replace('_', "").to_lowercase();
    let (sign, body) = match clean.as_bytes().first()? {
        b'-' => (-1.0, &clean[1..]),
        b'+' => (1.0, &clean[1..]),
        _ => (1.0, &clean[..]),
    };
    if body == ".inf" {
        return Some(sign * f64::INFINITY);
    }
    if body == ".nan" {
        return Some(f64::NAN);
    }
    if body.contains(':') {
        let mut value = 0.0;
        let mut base = 1.0;
        for part in body.rsplit(':') {
            value += py_float(part)? * base;
            base *= 60.0;
        }
        return Some(sign * value);
    }
    py_float(body).map(|f| sign * f)
}

/// Python's `float()` of the digits PyYAML's float pattern lets through (`1.`, `.5`, `1.e+5`).
fn py_float(text: &str) -> Option<f64> {
    let fixed = text.replace(".e", ".0e");
    let fixed = if fixed.ends_with('.') {
        format!("{fixed}0")
    } else {
        fixed
    };
    fixed.parse().ok()
}

/// `SafeConstructor.construct_yaml_timestamp`; a `ValueError` where Python's `date`/
/// `datetime`/`timezone` raise (month 13, February 30, hour 24, an offset of a day or more,
/// year 0).
fn timestamp(text: &str, line: u32) -> Result<PyValue, Fail> {
    dated(text).ok_or_else(|| {
        python_error(
            format!("`{text}` is a YAML timestamp that Python's datetime refuses (ValueError)"),
            line,
        )
    })
}

fn dated(text: &str) -> Option<PyValue> {
    let (date, rest) = match text.find(['T', 't', ' ', '\t']) {
        Some(i) => (
            &text[..i],
            Some(text[i..].trim_start_matches(['T', 't', ' ', '\t'])),
        ),
        None => (text, None),
    };
    let mut parts = date.splitn(3, '-');
    let year: u16 = parts.next()?.parse().ok()?;
    let month: u8 = parts.next()?.parse().ok()?;
    let day: u8 = parts.next()?.parse().ok()?;
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days[usize::from(month - 1)] {
        return None;
    }
    let date = Date { year, month, day };
    let Some(rest) = rest else {
        return Some(PyValue::Date(date));
    };
    // hh:mm:ss[.fraction][ws][Z|±h[h][:mm]]
    let tz_at = rest.find(['Z', '+', '-', ' ', '\t']).unwrap_or(rest.len());
    let (clock, tz) = rest.split_at(tz_at);
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut hms = hms.split(':');
    let hour: u8 = hms.next()?.parse().ok()?;
    let minute: u8 = hms.next()?.parse().ok()?;
    let second: u8 = hms.next()?.parse().ok()?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let micro: String = fraction.chars().take(6).collect();
    let microsecond = if micro.is_empty() {
        0
    } else {
        format!("{micro:0<6}").parse().ok()?
    };
    let tz = tz.trim_start_matches([' ', '\t']);
    let offset_minutes = match tz.as_bytes().first() {
        None => None,
        Some(b'Z') => Some(0),
        Some(sign) => {
            // `get`: the resolver lets only an ASCII sign through, but never slice blind.
            let offset = tz.get(1..)?;
            let (h, m) = offset.split_once(':').unwrap_or((offset, "0"));
            let minutes = i32::from(h.parse::<u8>().ok()?) * 60 + i32::from(m.parse::<u8>().ok()?);
            if minutes >= 24 * 60 {
                return None;
            }
            Some(if *sign == b'-' { -minutes } else { minutes })
        }
    };
    Some(PyValue::DateTime(DateTime {
        date,
        hour,
        minute,
        second,
        microsecond,
        offset_minutes,
    }))
}

/// Python's `str(value)`.
pub fn to_str(value: &PyValue) -> String {
    match value {
        PyValue::Str(s) => s.clone(),
        PyValue::Date(d) => date_str(d),
        PyValue::DateTime(dt) => {
            let mut out = format!(
                "{} {:02}:{:02}:{:02}",
                date_str(&dt.date),
                dt.hour,
                dt.minute,
                dt.second
            );
            if dt.microsecond != 0 {
                let _ = write!(out, ".{:06}", dt.microsecond);
            }
            if let Some(offset) = dt.offset_minutes {
                let sign = if offset < 0 { '-' } else { '+' };
                let a = offset.unsigned_abs();
                let _ = write!(out, "{sign}{:02}:{:02}", a / 60, a % 60);
            }
            out
        }
        other => repr(other),
    }
}

fn date_str(d: &Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// Python's `repr(value)`.
pub fn repr(value: &PyValue) -> String {
    let mut out = String::new();
    repr_into(value, &mut out);
    out
}

fn repr_into(value: &PyValue, out: &mut String) {
    match value {
        PyValue::None => out.push_str("None"),
        PyValue::Bool(true) => out.push_str("True"),
        PyValue::Bool(false) => out.push_str("False"),
        PyValue::Int(digits) => out.push_str(digits),
        PyValue::Float(f) => out.push_str(&float_repr(*f)),
        PyValue::Str(s) => crate::compat::pystr::repr_str_into(s, out),
        PyValue::Bytes(b) => bytes_repr_into(b, out),
        // Never printed: `str()` raises first (see `name_str`).
        PyValue::HugeInt => out.push_str("<int>"),
        PyValue::Date(d) => {
            let _ = write!(out, "datetime.date({}, {}, {})", d.year, d.month, d.day);
        }
        PyValue::DateTime(dt) => {
            let d = dt.date;
            let _ = write!(
                out,
                "datetime.datetime({}, {}, {}, {}, {}",
                d.year, d.month, d.day, dt.hour, dt.minute
            );
            // CPython leaves out a zero microsecond, then a zero second.
            if dt.microsecond != 0 {
                let _ = write!(out, ", {}, {}", dt.second, dt.microsecond);
            } else if dt.second != 0 {
                let _ = write!(out, ", {}", dt.second);
            }
            match dt.offset_minutes {
                None => {}
                Some(0) => out.push_str(", tzinfo=datetime.timezone.utc"),
                Some(m) => {
                    // timedelta normalises to whole days (possibly negative) and seconds in
                    // [0, 86400).
                    let seconds = i64::from(m) * 60;
                    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
                    out.push_str(", tzinfo=datetime.timezone(datetime.timedelta(");
                    match (days, secs) {
                        (0, s) => {
                            let _ = write!(out, "seconds={s}");
                        }
                        (d, 0) => {
                            let _ = write!(out, "days={d}");
                        }
                        (d, s) => {
                            let _ = write!(out, "days={d}, seconds={s}");
                        }
                    }
                    out.push_str("))");
                }
            }
            out.push(')');
        }
        PyValue::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            out.push(']');
        }
        PyValue::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        PyValue::Set(items) if items.is_empty() => out.push_str("set()"),
        PyValue::Set(items) => {
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            out.push('}');
        }
        PyValue::Dict(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(k, out);
                out.push_str(": ");
                repr_into(v, out);
            }
            out.push('}');
        }
    }
}

/// `repr(bytes)`: single quotes unless the bytes hold `'` and no `"`; `\t`, `\n`, `\r`,
/// `\\` and the quote escaped, other bytes outside printable ASCII as `\xhh`.
fn bytes_repr_into(bytes: &[u8], out: &mut String) {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    out.push('b');
    out.push(char::from(quote));
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            _ if b == quote => {
                out.push('\\');
                out.push(char::from(b));
            }
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push(char::from(quote));
}

/// `repr(float)`: the shortest digits that round-trip (`float_repr_style = 'short'`), in
/// exponent form when the decimal point falls more than 16 places right or 4 places left of
/// the first digit.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` prints the same shortest round-trip digits: `d[.ddd]e[-]x`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    // The decimal point's place counted from the left of the digits (CPython's `decpt`).
    let decpt = exp + 1;
    let n = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if !(-3..=16).contains(&decpt) {
        let mut out = format!("{sign}{}", &digits[..1]);
        if digits.len() > 1 {
            let _ = write!(out, ".{}", &digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
        return out;
    }
    if decpt <= 0 {
        let zeros = "0".repeat(decpt.unsigned_abs() as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    if decpt >= n {
        let zeros = "0".repeat((decpt - n) as usize);
        return format!("{sign}{digits}{zeros}.0");
    }
    let (int, frac) = digits.split_at(decpt as usize);
    format!("{sign}{int}.{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `str()` of the `name` value of a one-key frontmatter.
    fn name(yaml_value: &str) -> String {
        let v = value_of(&format!("name: {yaml_value}\n"), "name")
            .unwrap_or_else(|| panic!("{yaml_value:?} built nothing"));
        to_str(&v)
    }

    // Every expected string below was printed by CPython 3.12.1 with PyYAML 6.0.3:
    // `print(str(yaml.safe_load("name: " + VALUE)["name"]))`.
    #[test]
    fn null_bool_and_text() {
        for (yaml, python) in [
            ("null", "None"),
            ("~", "None"),
            ("", "None"),
            ("NULL", "None"),
            ("true", "True"),
            ("yes", "True"),
            ("On", "True"),
            ("Off", "False"),
            ("n", "n"),
            ("\"\"", ""),
            ("'0x1f'", "0x1f"),
            ("!!str 42", "42"),
            ("Plain Name", "Plain Name"),
            ("|\n  multi\n  line", "multi\nline\n"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn integers_in_every_form() {
        for (yaml, python) in [
            ("42", "42"),
            ("-7", "-7"),
            ("+12", "12"),
            ("-0", "0"),
            ("017", "15"),
            ("0o17", "0o17"),
            ("0x1f", "31"),
            ("0x_1F", "31"),
            ("0b101", "5"),
            ("1:20", "80"),
            ("-1:30:00", "-5400"),
            ("1_000", "1000"),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
            ("0xffffffffffffffffffff", "1208925819614629174706175"),
            (
                "-0b1111111111111111111111111111111111111111111111111111111111111111",
                "-18446744073709551615",
            ),
            ("0", "0"),
            ("!!int 0x10", "16"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn floats_print_as_python_repr() {
        for (yaml, python) in [
            ("1.50", "1.5"),
            ("1.", "1.0"),
            (".5", "0.5"),
            ("10000000000000000.0", "1e+16"),
            ("1000000000000000.0", "1000000000000000.0"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1.0e+20", "1e+20"),
            ("1.0e+300", "1e+300"),
            ("1.5e-10", "1.5e-10"),
            ("1e5", "1e5"),
            (".inf", "inf"),
            ("-.Inf", "-inf"),
            (".NaN", "nan"),
            ("0.333333333333333333", "0.3333333333333333"),
            ("123456789.123456789", "123456789.12345679"),
            ("1:30.5", "90.5"),
            ("1_0.2_5", "10.25"),
            ("-0.0", "-0.0"),
            ("!!float 3", "3.0"),
            ("1.7976931348623157e+308", "1.7976931348623157e+308"),
            ("5e-324", "5e-324"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn dates_and_datetimes() {
        for (yaml, python) in [
            ("2024-01-02", "2024-01-02"),
            ("2024-01-02T10:00:00", "2024-01-02 10:00:00"),
            ("2024-01-02T10:00:00Z", "2024-01-02 10:00:00+00:00"),
            ("2024-01-02 10:00:00 +05:30", "2024-01-02 10:00:00+05:30"),
            (
                "2024-01-02t10:00:00.5-02",
                "2024-01-02 10:00:00.500000-02:00",
            ),
            ("2024-1-2 1:02:03.1234567", "2024-01-02 01:02:03.123456"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn containers_print_as_python_repr() {
        for (yaml, python) in [
            ("[a]", "['a']"),
            ("[yes, 1.50, null, \"q\", it's, 0x10]", "[True, 1.5, None, 'q', \"it's\", 16]"),
            ("{a: 1, b: [true, ~]}", "{'a': 1, 'b': [True, None]}"),
            ("[[], {}, [[1]]]", "[[], {}, [[1]]]"),
            ("{1: a, null: b, 2024-01-02: c, 1.5: d}", "{1: 'a', None: 'b', datetime.date(2024, 1, 2): 'c', 1.5: 'd'}"),
            ("{a: 1, a: 2, b: 3}", "{'a': 2, 'b': 3}"),
            ("[&x 1, *x]", "[1, 1]"),
            (
                "[\"it's\", 'say \"hi\"', \"both ' \\\"\"]",
                "[\"it's\", 'say \"hi\"', 'both \\' \"']",
            ),
            (
                "[\"a\\\\b\", \"nl\\nx\", \"\\x00\\x1b\\u00ff\\u0378\\U0001F600\\ud7ff\", \"\\u2028\\ue000\\u00ad\", \"\\ttab\"]",
                "['a\\\\b', 'nl\\nx', '\\x00\\x1bÿ\\u0378😀\\ud7ff', '\\u2028\\ue000\\xad', '\\ttab']",
            ),
            (
                "[2024-01-02T10:00:00, 2024-01-02T10:00:00Z, 2024-01-02 10:00:00.25 +05:30, 2024-01-02 10:00:00 -1, 2024-01-02T10:00:00.000001+00:00, 2024-01-02T10:00:07]",
                "[datetime.datetime(2024, 1, 2, 10, 0), datetime.datetime(2024, 1, 2, 10, 0, tzinfo=datetime.timezone.utc), datetime.datetime(2024, 1, 2, 10, 0, 0, 250000, tzinfo=datetime.timezone(datetime.timedelta(seconds=19800))), datetime.datetime(2024, 1, 2, 10, 0, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=82800))), datetime.datetime(2024, 1, 2, 10, 0, 0, 1, tzinfo=datetime.timezone.utc), datetime.datetime(2024, 1, 2, 10, 0, 7)]",
            ),
            ("\n  - x\n  - 2", "['x', 2]"),
            ("{<<: {a: 1}}", "{'a': 1}"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn what_python_refuses_or_this_module_does_not_build_is_none() {
        for yaml in [
            "2024-13-01",
            "2024-02-30",
            "2024-01-02 24:00:00",
            "{[a]: 1}",
            "!custom x",
            "!!set {a, b}",
            "&a [*a]",
            "!!int abc",
        ] {
            assert_eq!(value_of(&format!("name: {yaml}\n"), "name"), None, "{yaml}");
        }
        // CPython's 4,300-digit limit on int <-> str (checked with CPython 3.11.7): past it
        // `int()` or `str()` raises, and the conversion is never attempted (64 KiB of digits
        // would take quadratic time).
        let int_of = |text: String| match value_of(&format!("name: {text}\n"), "name") {
            Some(PyValue::Int(digits)) => Some(digits.len()),
            _ => None,
        };
        assert_eq!(int_of("1".repeat(4300)), Some(4300));
        assert_eq!(int_of("1".repeat(4301)), None);
        // A leading 0 is octal: int(text, 8) has no limit on its input, and the value is 1.
        assert_eq!(int_of(format!("{}1", "0".repeat(4400))), Some(1));
        assert_eq!(int_of(format!("0x{}", "f".repeat(3500))), Some(4215));
        assert_eq!(int_of(format!("0x{}", "f".repeat(3600))), None);
        assert_eq!(int_of(format!("0b{}", "1".repeat(60_000))), None);
        assert_eq!(int_of(format!("{}1", "1:".repeat(3000))), None);
        assert_eq!(value_of("other: 1\n", "name"), None);
        assert_eq!(value_of("- a\n", "name"), None);
        assert_eq!(
            value_of("name: a\nname: 0x10\n", "name"),
            Some(PyValue::Int("16".into()))
        );
    }

    // Printed by CPython 3.12.1 with PyYAML 6.0.4 (`yaml.load(text, Loader=CSafeLoader)`),
    // and by openhands-sdk 1.44.1 (tests/vectors/discover/oracle-openhands-yaml-types).
    #[test]
    fn tags_pyyaml_builds() {
        for (yaml, python) in [
            ("!!binary aGVsbG8=", "b'hello'"),
            (
                "!!binary AAEJCg0nXH/+",
                "b\"\\x00\\x01\\t\\n\\r'\\\\\\x7f\\xfe\"",
            ),
            ("!!binary IidgIg==", "b'\"\\'`\"'"),
            ("!!binary |\n  aGVs\n  bG8=", "b'hello'"),
            ("!!binary aGk=ignored", "b'hi'"),
            ("!!set {a}", "{'a'}"),
            ("!!set {}", "set()"),
            ("!!set {1, 1.0, true}", "{1}"),
            ("!!omap [a: 1, b: [x]]", "[('a', 1), ('b', ['x'])]"),
            ("!!pairs [a: 1, a: 2]", "[('a', 1), ('a', 2)]"),
            ("!!omap []", "[]"),
            (
                "{x: !!set {a}, y: !!binary aGk=, z: !!omap [k: v]}",
                "{'x': {'a'}, 'y': b'hi', 'z': [('k', 'v')]}",
            ),
            ("{!!binary aGk=: 1, hi: 2}", "{b'hi': 1, 'hi': 2}"),
            ("!!timestamp 2024-01-02 10:00:00", "2024-01-02 10:00:00"),
            ("!<tag:yaml.org,2002:str> 5", "5"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
    }

    #[test]
    fn merges_null_keys_and_equal_keys() {
        for (yaml, python) in [
            ("{b: 2, <<: [{a: 1}, {b: 3, c: 4}]}", "{'a': 1, 'b': 2, 'c': 4}"),
            ("{a: 0, <<: [{a: 1}, {b: 2}]}", "{'a': 0, 'b': 2}"),
            ("{<<: {<<: {a: 1}, b: 2}, c: 3}", "{'a': 1, 'b': 2, 'c': 3}"),
            // PyYAML 6.0.4 takes a merged key once by the `id()` of its text: one shared
            // object per one-character string below U+0100 (and ""), else one per node.
            ("{<<: [{a: 1}, {a: 2}]}", "{'a': 1}"),
            ("{<<: [{ab: 1}, {ab: 2}]}", "{'ab': 2}"),
            ("{<<: [{é: 1}, {é: 2}, {\"\": 3}, {\"\": 4}]}", "{'é': 1, '': 3}"),
            ("{<<: [{€: 1}, {€: 2}, {0: 3}, {0: 4}, {10: 5}, {10: 6}]}", "{'€': 2, 0: 3, 10: 6}"),
            ("{\"<<\": {a: 1}}", "{'<<': {'a': 1}}"),
            ("[{<<: {a: 1}, b: 2}]", "[{'a': 1, 'b': 2}]"),
            ("{=: 1}", "{'=': 1}"),
            ("{null: a, b: c}", "{None: 'a', 'b': 'c'}"),
            ("[{~: x}]", "[{None: 'x'}]"),
            ("{1: a, 1.0: b, true: c}", "{1: 'c'}"),
            ("{true: a, 1: b}", "{True: 'b'}"),
            ("{0: a, false: b, 0.0: c, -0: d, 0x0: e, -0.0: f}", "{0: 'f'}"),
            ("{1.0: a, 1: b, 2: c, 0b10: d, 017: e, 15: f}", "{1.0: 'b', 2: 'd', 15: 'f'}"),
            (
                "{9007199254740993: a, 9007199254740992.0: b, 9007199254740992: c}",
                "{9007199254740993: 'a', 9007199254740992.0: 'c'}",
            ),
            ("{1.0e+300: a, 1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160: b}", "{1e+300: 'b'}"),
            ("{1.0e+300: a, 1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540161: b}", "{1e+300: 'a', 1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540161: 'b'}"),
            ("{.nan: a, .NaN: b}", "{nan: 'b'}"),
            ("{.inf: a, .Inf: b, -.inf: c}", "{inf: 'b', -inf: 'c'}"),
            (
                "{2024-01-02: a, 2024-01-02 00:00:00: b, 2024-01-02T00:00:00Z: c, 2024-01-02 05:30:00+05:30: d}",
                "{datetime.date(2024, 1, 2): 'a', datetime.datetime(2024, 1, 2, 0, 0): 'b', datetime.datetime(2024, 1, 2, 0, 0, tzinfo=datetime.timezone.utc): 'd'}",
            ),
            ("{\"1\": a, 1: b, \"true\": c}", "{'1': 'a', 1: 'b', 'true': 'c'}"),
        ] {
            assert_eq!(name(yaml), python, "{yaml}");
        }
        assert_eq!(
            value_of("base: &b {name: m}\n<<: *b\n", "name"),
            Some(PyValue::Str("m".into()))
        );
        assert_eq!(
            value_of("<<: {name: m}\nname: own\n", "name"),
            Some(PyValue::Str("own".into()))
        );
    }

    fn verdict(yaml: &str) -> &'static str {
        match construct(yaml) {
            Verdict::Builds => "builds",
            Verdict::Refused(Refusal::Yaml { .. }) => "file",
            Verdict::Refused(Refusal::Python { .. }) => "root",
            Verdict::Unknown => "unknown",
        }
    }

    #[test]
    fn refusals_in_pyyaml_order() {
        for (yaml, expected) in [
            ("name: a\ncreated: 2024-99-99\n", "root"),
            ("name: 2024-02-30\n", "root"),
            ("tags: [2024-02-30]\n", "root"),
            ("when: 2024-01-02 24:00:00\n", "root"),
            ("day: 2024-02-29\nwhen: 2024-01-02 23:59:59\n", "builds"),
            ("a: \"2024-02-30\"\nb: !!str 2024-13-45\n", "builds"),
            ("n: 0b_\n", "root"),
            (&format!("n: {}\n", "1".repeat(4301)), "root"),
            (&format!("n: 0x{}\n", "f".repeat(3600)), "builds"),
            (&format!("name: 0x{}\n", "f".repeat(3600)), "root"),
            ("a: !custom x\nb: 2024-02-30\n", "file"),
            // The scalars of a mapping are built before the collections inside it.
            ("x: [!custom a]\ny: 2024-02-30\n", "root"),
            ("x: [[2024-02-30]]\ny: [!custom a]\n", "file"),
            ("name: !!python/name:os.system x\n", "file"),
            ("name: !!binary 'not base64!'\n", "file"),
            ("name: !!binary é\n", "file"),
            ("name: !!omap [a]\n", "file"),
            ("name: !!omap {a: 1}\n", "file"),
            ("name: {<<: 1}\n", "file"),
            ("name: {<<: [a]}\n", "file"),
            ("x: {? [a] : 1}\n", "file"),
            ("name: !!set {? [a]}\n", "file"),
            ("name: =\n", "file"),
            ("name: <<\n", "file"),
            ("name: !!str [a]\n", "file"),
            ("name: !!seq a\n", "file"),
            ("&a [*a]\n", "builds"),
            ("&a {<<: *a}\n", "unknown"),
            ("name: !!int abc\nb: 2024-02-30\n", "unknown"),
            ("name: [unclosed\n", "unknown"),
            ("", "builds"),
        ] {
            assert_eq!(verdict(yaml), expected, "{yaml}");
        }
        assert!(may_refuse("a: 2024-02-30"));
        assert!(may_refuse("a: !x y"));
        assert!(!may_refuse("name: a-b\ndescription: 1-2 and 123-4x"));
    }

    #[test]
    fn merges_of_one_large_mapping_stop_at_the_budget() {
        let keys: Vec<String> = (0..2000).map(|i| format!("k{i}: {i}")).collect();
        let mut yaml = format!("a: &a {{{}}}\n", keys.join(", "));
        for i in 0..2000 {
            let _ = writeln!(yaml, "m{i}: {{<<: *a}}");
        }
        assert_eq!(construct(&yaml), Verdict::Unknown);
        // The name alone merges `a` once: the same key nodes twice are taken once.
        yaml.push_str("name: {<<: [*a, *a]}\n");
        assert!(matches!(value_of(&yaml, "name"), Some(PyValue::Dict(p)) if p.len() == 2000));
    }

    #[test]
    fn entries_hold_what_json_cannot_key() {
        let entries = entries("name: {null: a, 1: b}\nm: [{~: x}]\n~: top\n").unwrap_or_default();
        let keys: Vec<_> = entries.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(keys, ["name", "m", ""]);
        assert_eq!(entries[0].2, serde_json::json!({"None": "a", "1": "b"}));
        assert_eq!(entries[1].2, serde_json::json!([{"None": "x"}]));
    }
}
