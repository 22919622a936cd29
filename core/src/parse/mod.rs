//! Parsing a SKILL.md: frontmatter location, YAML (with limits and a repair pass) and the
//! typed manifest.
//!
//! - [`parse`] works on text already in memory.
//! - [`read_frontmatter`] is the discovery-time read: only a prefix of the file, never the body.
//! - [`read_body`] is the activation-time read of the Markdown body.
//! - [`fallback_name`] and [`fallback_description`] (or [`read_fallback_description`], which
//!   reads only a bounded prefix) give what hosts use when `name` or `description` is missing.
//!
//! Diagnostic codes produced here: `missing-frontmatter`, `unterminated-frontmatter`,
//! `empty-frontmatter`, `frontmatter-not-mapping`, `invalid-yaml`, `yaml-limit`,
//! `yaml-repaired`, `duplicate-key`, `invalid-field-type`, `invalid-boolean`,
//! `invalid-number`, `flow-value-as-text`, `missing-field` and `invalid-name` (hosts that need
//! both fields, or refuse a name's characters, while reading), and for files `file-not-found`,
//! `permission-denied`, `io-error`, `not-a-file`, `file-too-large`, `frontmatter-too-large`,
//! `invalid-utf8`, `nul-byte`.

mod codex;
mod dialect;
mod fallback_line;
mod fast;
mod fields;
pub(crate) mod frontmatter;
mod gray;
mod hosts;
pub(crate) mod pyyaml;
mod qwen;
mod read;
mod repair;
pub(crate) mod yaml;

#[cfg(test)]
pub(crate) use dialect::KeyRule;
pub use dialect::{Dialect, DuplicateRule, FenceRule, ReadRule, RepairRule, SyntaxRule};

pub use fallback_line::fallback_line;
pub(crate) use fallback_line::py_strip;
pub use fields::{folds_to, is_known as is_known_key};
pub use frontmatter::{split, Fences, Split};
pub use hosts::dash_prefix_body_blank;
pub use read::{
    fallback_description, fallback_name, read_body, read_frontmatter, read_frontmatter_dialect,
};
pub(crate) use yaml::yaml_1_1_tag;

use crate::diagnostic::Diagnostic;
use crate::manifest::Manifest;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// Searchers for the fence and document-end markers, built once: `memmem::find` builds one
/// per call (~450 instructions with its CPU check), more than the search itself costs on a
/// frontmatter block, and each file asked two or three times (~7M instructions of a
/// 10,000-skill `list`, bench/PROFILE.md item 202).
static DASHES: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"---"));
static DOTS: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"..."));

/// A parsed SKILL.md frontmatter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    pub manifest: Manifest,
    pub diagnostics: Vec<Diagnostic>,
    /// 1-based line where the body starts, when the frontmatter was closed.
    pub body_line: Option<u32>,
    /// Every top-level key as written, in source order (validation checks spellings and
    /// value shapes against the spec with these).
    #[serde(skip)]
    pub keys: Vec<KeyInfo>,
    /// Findings that only matter for the spec's reference validator (skills-ref 0.1.1):
    /// YAML it rejects although hosts read it (flow style, anchors, tags, a BOM, ...).
    /// Strict validation reports them as errors; lenient validation ignores them.
    #[serde(skip)]
    pub strict_notes: Vec<Diagnostic>,
}

impl Parsed {
    /// True when no error diagnostic was produced.
    pub fn is_ok(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn failed(diagnostic: Diagnostic) -> Self {
        Parsed {
            diagnostics: vec![diagnostic],
            ..Parsed::default()
        }
    }
}

/// The shape of a top-level value as YAML typed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueKind {
    #[default]
    String,
    Number,
    Bool,
    Null,
    List,
    Map,
}

/// A top-level key as written in the frontmatter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyInfo {
    pub key: String,
    /// 1-based line and column in the file.
    pub line: u32,
    pub column: u32,
    pub kind: ValueKind,
    /// The value is what pydantic's lax `bool` accepts: a boolean, 0 or 1, or one of
    /// `true`/`false`/`yes`/`no`/`on`/`off`/`t`/`f`/`y`/`n`/`1`/`0` in any case.
    pub lax_bool: bool,
    /// The value is text, null, a list of text, or a mapping (whose keys are text).
    pub texts: bool,
    /// The host reads no field from this entry: its spelling is one the host does not read
    /// (`Name:` where keys are read as written), the dashed spelling of the same field is
    /// given too, or another entry of the same key is the one used. Diagnostics about a
    /// field point at the entry that is read.
    pub unread: bool,
}

/// Parse the text of a SKILL.md (frontmatter + body). Never fails: every problem is a
/// diagnostic (without `path`; [`read_frontmatter`] adds it).
pub fn parse(text: &str) -> Parsed {
    parse_with(text, &Dialect::default())
}

/// [`parse`] as the host of `dialect` reads the file (fences, YAML rules, repair).
pub fn parse_with(text: &str, dialect: &Dialect) -> Parsed {
    if dialect.fences == FenceRule::GrayMatter {
        return gray::parse(text, dialect);
    }
    if matches!(
        dialect.fences,
        FenceRule::DashPrefix
            | FenceRule::ExactLines
            | FenceRule::DashRuns
            | FenceRule::SplitAnywhere
    ) || dialect.syntax != SyntaxRule::Yaml
        || dialect.repair == RepairRule::Gemini
    {
        return hosts::parse(text, dialect);
    }
    let split = frontmatter::split_rules(text, dialect.lone_cr(), dialect.indented_fences());
    parse_split(text, split, dialect)
}

/// [`parse_with`] for a dialect split by [`frontmatter::split_rules`] (fences `lines`,
/// `lf-lines`, `lf-lines-trim-end`, YAML, no Gemini repair), `split` being that split of
/// `text`.
fn parse_split(text: &str, split: frontmatter::Split, dialect: &Dialect) -> Parsed {
    let mut parsed = match split.fences {
        Fences::MissingOpening => {
            let first = text.split('\n').next().unwrap_or_default();
            let lone_cr = matches!(
                dialect.fences,
                FenceRule::LfLines | FenceRule::LfLinesTrimEnd
            ) && first.trim_end_matches('\r').contains('\r');
            let missing = |d: Diagnostic| {
                if dialect.missing_is_empty {
                    hosts::without_frontmatter(d)
                } else {
                    Parsed::failed(d)
                }
            };
            return missing(
                Diagnostic::error(
                    "missing-frontmatter",
                    if lone_cr {
                        "SKILL.md does not start with a `---` frontmatter block (its lines end in a lone CR, which this host does not take as a line end)"
                    } else {
                        "SKILL.md does not start with a `---` frontmatter block"
                    },
                )
                .at(1, Some(1))
                .with_hint(
                    "start the file with `---`, then `name:` and `description:`, then `---`",
                ),
            );
        }
        Fences::Unterminated if dialect.unterminated_to_end => Parsed::default(),
        Fences::Unterminated => {
            return Parsed::failed(
                Diagnostic::error(
                    "unterminated-frontmatter",
                    "the frontmatter opened on line 1 is never closed",
                )
                .at(1, Some(1))
                .with_hint("add a line holding only `---` after the last frontmatter key"),
            )
        }
        Fences::Closed => Parsed {
            body_line: split.body_line,
            ..Parsed::default()
        },
    };
    strict_notes_for_text(text, &split, &mut parsed.strict_notes);
    parse_block(parsed, &split.yaml, split.yaml_line, dialect)
}

/// The YAML block (`yaml`, starting on file line `yaml_line`) into `parsed`.
fn parse_block(mut parsed: Parsed, yaml: &str, yaml_line: u32, dialect: &Dialect) -> Parsed {
    let offset = yaml_line.saturating_sub(1);
    if yaml.trim().is_empty() {
        if dialect.non_mapping_is_empty {
            return parsed;
        }
        parsed.diagnostics.push(empty_frontmatter());
        return parsed;
    }
    if let Some(line) = dialect
        .document_end_first_error
        .then(|| document_end_first(yaml))
        .flatten()
    {
        parsed.diagnostics.push(
            Diagnostic::error(
                "invalid-yaml",
                "invalid YAML: the document end marker `...` comes before any content",
            )
            .at(line.saturating_add(offset), Some(1))
            .with_hint("remove the `...` line"),
        );
        return parsed;
    }
    if let Some(line) = second_document(yaml) {
        parsed.diagnostics.push(
            Diagnostic::error(
                "invalid-yaml",
                "invalid YAML: content after the document end marker `...` starts a second document",
            )
            .at(line.saturating_add(offset), Some(1))
            .with_hint("remove the `...` line: the frontmatter is one YAML document"),
        );
        return parsed;
    }
    let (mut loaded, repaired, first_flow) = load_block(yaml, dialect);
    if dialect.python_constructor {
        python_construct(&mut parsed, &mut loaded, yaml, offset, dialect.yaml());
    }
    for line in repaired {
        let line = line.saturating_add(offset);
        parsed.diagnostics.push(
            Diagnostic::warning(
                "yaml-repaired",
                "this value is not valid YAML as written; it was read as a quoted string",
            )
            .at(line, None)
            .with_hint("put the value in double quotes"),
        );
    }
    let entries = match loaded {
        Ok(yaml::Loaded::Mapping(entries)) => entries,
        Ok(yaml::Loaded::Empty | yaml::Loaded::NotMapping(_)) if dialect.non_mapping_is_empty => {
            return parsed;
        }
        Ok(yaml::Loaded::Empty) => {
            parsed.diagnostics.push(empty_frontmatter());
            return parsed;
        }
        Ok(yaml::Loaded::NotMapping(what)) => {
            parsed.diagnostics.push(
                Diagnostic::error(
                    "frontmatter-not-mapping",
                    format!("the frontmatter is {what}, not a mapping of `key: value` lines"),
                )
                .at(yaml_line, Some(1))
                .with_hint("write `name: ...` and `description: ...` lines between the fences"),
            );
            return parsed;
        }
        Err(err) if dialect.unparsed_is_empty => {
            let mut d = Diagnostic::warning(
                "yaml-ignored",
                format!(
                    "invalid YAML ({}); this host reads the frontmatter as having no keys",
                    err.message
                ),
            )
            .with_hint("fix the YAML syntax, or quote the value");
            if let Some(line) = err.line {
                d = d.at(line.saturating_add(offset), err.column);
            }
            parsed.diagnostics.push(d);
            return parsed;
        }
        Err(mut err) => {
            // serde-saphyr's wording names its own option; say what the host does instead.
            if let Some(key) = err.message.strip_prefix("duplicate mapping key: ") {
                let key = key.split(", set DuplicateKeyPolicy").next().unwrap_or(key);
                let mut d = Diagnostic::error(
                    "duplicate-key",
                    format!("`{key}` is given twice in one mapping; this host refuses the file"),
                )
                .with_hint("remove all but one of these keys");
                if let Some(line) = err.line.take() {
                    d = d.at(line.saturating_add(offset), err.column);
                }
                parsed.diagnostics.push(d);
                return parsed;
            }
            let code = if err.limit {
                "yaml-limit"
            } else {
                "invalid-yaml"
            };
            let hint = if err.limit {
                "remove the anchors/aliases or the deep nesting"
            } else {
                "fix the YAML syntax, or quote the value"
            };
            let mut d =
                Diagnostic::error(code, format!("invalid YAML: {}", err.message)).with_hint(hint);
            if let Some(line) = err.line {
                d = d.at(line.saturating_add(offset), err.column);
            }
            // The parser notices an unclosed `[`/`{` only on a later line; point at the
            // opener, which is what needs fixing.
            if let Some((line, column, open)) = err.line.and_then(|l| unclosed_flow_before(yaml, l))
            {
                let stopped = d.line.unwrap_or(line);
                d = d.at(line.saturating_add(offset), Some(column));
                d.message = format!(
                    "invalid YAML: the `{open}` opened here is never closed (the parser stopped on line {stopped}: {})",
                    err.message
                )
                .into();
                d.hint = Some(
                    format!("close the `{open}`, or quote the whole value if it is text").into(),
                );
            }
            parsed.diagnostics.push(d);
            return parsed;
        }
    };
    let presentation = match first_flow {
        Some(flow) => flow
            .map(|(line, column)| (yaml::Presentation::FlowStyle, line, column))
            .into_iter()
            .collect(),
        None => yaml::presentation(yaml),
    };
    for (what, line, column) in presentation {
        let (code, message) = match what {
            yaml::Presentation::FlowStyle => (
                "yaml-flow-style",
                "flow-style YAML (`[...]` / `{...}`) is rejected by the spec's reference validator",
            ),
            yaml::Presentation::Anchor => (
                "yaml-anchor",
                "YAML anchors and aliases are rejected by the spec's reference validator",
            ),
            yaml::Presentation::Tag => (
                "yaml-tag",
                "explicit YAML tags are rejected by the spec's reference validator",
            ),
        };
        parsed.strict_notes.push(
            Diagnostic::error(code, message)
                .at(line.saturating_add(offset), Some(column))
                .with_hint("use block style: one `key: value` or `- item` per line"),
        );
    }
    let typed = fields::build(
        entries,
        yaml,
        offset,
        dialect.description_null_text,
        dialect.duplicate_keys == DuplicateRule::FirstWins,
        dialect.keys,
    );
    parsed.manifest = typed.manifest;
    parsed.keys = typed.keys;
    parsed.diagnostics.extend(typed.diagnostics);
    host_rules(&mut parsed, dialect);
    parsed
}

/// PyYAML's constructor over the block (see [`Dialect::python_constructor`]). It runs when
/// the YAML reader took the block, or refused it only for what PyYAML reads (a tag
/// serde-saphyr does not know, a null key inside a mapping): a syntax error is raised
/// before anything is built.
fn python_construct(
    parsed: &mut Parsed,
    loaded: &mut Result<yaml::Loaded, yaml::YamlError>,
    yaml: &str,
    offset: u32,
    with: yaml::YamlOptions,
) {
    // serde-saphyr's refusals of what PyYAML reads: a tag it does not know, a null key in
    // a nested mapping (which a JSON value cannot hold), a tagged scalar it will not type.
    const READER_ONLY: [&str; 3] = [
        "unsupported tag",
        "cannot deserialize null into string",
        "cannot deserialize tagged scalar",
    ];
    let refused_for = match &*loaded {
        Ok(_) if !pyyaml::may_refuse(yaml) => return,
        Ok(_) => None,
        Err(e) if !e.limit && READER_ONLY.iter().any(|m| e.message.starts_with(m)) => {
            Some(e.message.starts_with(READER_ONLY[0]))
        }
        Err(_) => return,
    };
    match pyyaml::construct(yaml) {
        pyyaml::Verdict::Refused(pyyaml::Refusal::Python { message, line }) => {
            parsed.diagnostics.push(
                Diagnostic::error(
                    "python-value-error",
                    format!("this host's YAML reader (PyYAML) fails on this file: {message}"),
                )
                .at(line.saturating_add(offset), None)
                .with_hint("quote the value to keep it as text, or write a valid one"),
            );
        }
        pyyaml::Verdict::Refused(pyyaml::Refusal::Yaml { message, line }) if loaded.is_ok() => {
            parsed.diagnostics.push(
                Diagnostic::error(
                    "invalid-yaml",
                    format!("invalid YAML for this host (PyYAML): {message}"),
                )
                .at(line.saturating_add(offset), None)
                .with_hint("remove the tag or the merge, or quote the value"),
            );
        }
        // PyYAML builds what serde-saphyr refused: read it again without the tag rule, or
        // take PyYAML's own entries for a null key.
        pyyaml::Verdict::Builds => match refused_for {
            Some(tag) => {
                let again = tag.then(|| {
                    yaml::load_with(
                        yaml,
                        yaml::YamlOptions {
                            reject_unknown_tags: false,
                            ..with
                        },
                    )
                });
                match again {
                    Some(Ok(l)) => *loaded = Ok(l),
                    _ => python_entries(loaded, yaml),
                }
                binary_text(loaded, yaml);
            }
            None => binary_text(loaded, yaml),
        },
        _ => {}
    }
}

/// `name` and `description` as the host takes a `!!binary` value, which serde-saphyr
/// keeps as its base64 text: `str()` of the bytes (`b'...'`) for the name, the bytes
/// decoded as UTF-8 for the description (pydantic's `str`; bytes that are not UTF-8 are
/// left as written, see tests/ORACLES.md).
fn binary_text(loaded: &mut Result<yaml::Loaded, yaml::YamlError>, yaml: &str) {
    let Ok(yaml::Loaded::Mapping(entries)) = loaded else {
        return;
    };
    for key in ["name", "description"] {
        let Some(entry) = entries.iter_mut().rev().find(|e| e.key == key) else {
            continue;
        };
        if !entry.value.is_string() {
            continue;
        }
        let Some(pyyaml::PyValue::Bytes(bytes)) = pyyaml::value_of(yaml, key) else {
            continue;
        };
        let text = if key == "name" {
            Some(pyyaml::to_str(&pyyaml::PyValue::Bytes(bytes)))
        } else {
            String::from_utf8(bytes).ok()
        };
        if let Some(text) = text {
            entry.value = serde_json::Value::String(text);
        }
    }
}

fn python_entries(loaded: &mut Result<yaml::Loaded, yaml::YamlError>, yaml: &str) {
    if let Some(entries) = pyyaml::entries(yaml) {
        *loaded = Ok(yaml::Loaded::Mapping(
            entries
                .into_iter()
                .map(|(key, line, value, value_line)| yaml::Entry {
                    key,
                    line,
                    column: 1,
                    value,
                    raw: None,
                    value_line,
                })
                .collect(),
        ));
    }
}

/// Load the block with the dialect's YAML options and repair rule. Returns the result, the
/// repaired lines (1-based in the block) and, from the fast path, the first flow collection.
#[allow(clippy::type_complexity)]
fn load_block(
    yaml: &str,
    dialect: &Dialect,
) -> (
    Result<yaml::Loaded, yaml::YamlError>,
    Vec<u32>,
    Option<Option<(u32, u32)>>,
) {
    let with = dialect.yaml();
    if dialect.tab_token_error || dialect.duplicate_anchors_error {
        if let Some((line, column, message)) = python_scan(yaml, dialect) {
            let err = yaml::YamlError {
                message: message.into(),
                line: Some(line),
                column: Some(column),
                limit: false,
            };
            return (Err(err), Vec::new(), None);
        }
    }
    if dialect.tab_indent_error
        || matches!(
            dialect.repair,
            RepairRule::Codex | RepairRule::Opencode | RepairRule::Gemini
        )
    {
        // libyaml and js-yaml refuse a tab before the first token, which serde-saphyr takes
        // as separation.
        let mut content = yaml
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let first = content.next();
        let later = if dialect.tab_indent_error {
            content.find(|(_, l)| l.starts_with('\t'))
        } else {
            None
        };
        for (i, line) in first.into_iter().chain(later) {
            let lead = &line[..line.len() - line.trim_start().len()];
            if lead.contains('\t') {
                let err = yaml::YamlError {
                    message: if i == first.map_or(0, |f| f.0) {
                        "a tab character indents the first line".into()
                    } else {
                        "tab characters must not be used in indentation".into()
                    },
                    line: u32::try_from(i + 1).ok(),
                    column: Some(1),
                    limit: false,
                };
                return (Err(err), Vec::new(), None);
            }
        }
    }
    // The fast path types scalars by YAML 1.2; a YAML 1.1 dialect takes the full loader.
    if let Some(fast) = (!dialect.yaml_1_1).then(|| fast::read(yaml)).flatten() {
        if fast.repaired.is_empty() {
            if dialect.repair != RepairRule::Codex || codex::accepted(&fast.loaded) {
                return (Ok(fast.loaded), Vec::new(), Some(fast.first_flow));
            }
        } else if dialect.repair == RepairRule::Skilldeck && !with.duplicate_keys_error {
            // What the repair pass reads, without its parse per repaired line. The
            // presentation check reads the text as written, as it does after a repair.
            return (Ok(fast.loaded), fast.repaired, None);
        }
    }
    if dialect.repair == RepairRule::Skilldeck {
        let (loaded, repaired) = repair::load_with_repairs(yaml, with);
        return (loaded, repaired, None);
    }
    let first = yaml::load_with(yaml, with);
    let first = match first {
        Err(e) if dialect.tab_separation && !e.limit && yaml.contains('\t') => {
            yaml::load_with(&tabs_as_separation(yaml), with).map_err(|_| e)
        }
        other => other,
    };
    match dialect.repair {
        RepairRule::Codex => {
            let (loaded, repaired) = codex::load(yaml, first, with);
            (loaded, repaired, None)
        }
        // OpenCode repairs the whole text and reads it again (`gray::parse`).
        // Gemini CLI scans the lines instead (`hosts::parse`).
        RepairRule::Skilldeck | RepairRule::None | RepairRule::Opencode | RepairRule::Gemini => {
            (first, Vec::new(), None)
        }
    }
}

/// PyYAML's errors that serde-saphyr does not raise, at their 1-based line and column: a tab
/// where its scanner looks for a token (outside quoted scalars, which may span lines,
/// comments and the lines of a block scalar indented deeper than its parent), with
/// `tab_token_error`; an anchor name defined twice, with `duplicate_anchors_error`.
fn python_scan(yaml: &str, dialect: &Dialect) -> Option<(u32, u32, &'static str)> {
    let mut anchors = std::collections::HashSet::new();
    let mut quote: Option<char> = None;
    let mut block_parent: Option<usize> = None;
    for (i, line) in yaml.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if quote.is_none() {
            if let Some(parent) = block_parent {
                if line.trim_start_matches(' ').is_empty() || indent > parent {
                    continue;
                }
                block_parent = None;
            }
        }
        let chars: Vec<char> = line.chars().collect();
        let mut last_token: Option<char> = None;
        let mut j = 0;
        let mut col = 0u32;
        while j < chars.len() {
            let c = chars[j];
            col += 1;
            match quote {
                Some('"') => match c {
                    '\\' => {
                        j += 1;
                        col += 1;
                    }
                    '"' => quote = None,
                    _ => {}
                },
                Some(_) => {
                    if c == '\'' {
                        if chars.get(j + 1) == Some(&'\'') {
                            j += 1;
                            col += 1;
                        } else {
                            quote = None;
                        }
                    }
                }
                None => {
                    let prev = j.checked_sub(1).map(|p| chars[p]);
                    let at_token = prev.is_none_or(|p| matches!(p, ' ' | '[' | '{' | ','));
                    match c {
                        '\t' if dialect.tab_token_error => {
                            return Some((
                                u32::try_from(i + 1).unwrap_or(u32::MAX),
                                col,
                                "found a tab character that cannot start any token",
                            ));
                        }
                        '&' if dialect.duplicate_anchors_error
                            && at_token
                            && last_token
                                .is_none_or(|t| matches!(t, ':' | '-' | '[' | '{' | ',' | '?')) =>
                        {
                            let name: String = chars[j + 1..]
                                .iter()
                                .take_while(|c| {
                                    !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}')
                                })
                                .collect();
                            if !anchors.insert(name) {
                                return Some((
                                    u32::try_from(i + 1).unwrap_or(u32::MAX),
                                    col,
                                    "found duplicate anchor",
                                ));
                            }
                            last_token = Some(c);
                        }
                        '#' if prev.is_none_or(|p| p == ' ') => break,
                        '"' | '\''
                            if at_token
                                && last_token.is_none_or(|t| {
                                    matches!(t, ':' | '-' | '[' | '{' | ',' | '?')
                                }) =>
                        {
                            quote = Some(c);
                        }
                        ' ' => {}
                        other => last_token = Some(other),
                    }
                }
            }
            j += 1;
        }
        if quote.is_none() {
            let content = line.split(" #").next().unwrap_or_default().trim_end();
            let header = content.rsplit(' ').next().unwrap_or_default();
            let is_header = header.starts_with(['|', '>'])
                && header[1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '+' || c == '-')
                && content.len() > header.len();
            if is_header {
                block_parent = Some(indent);
            }
        }
    }
    None
}

/// The 1-based line of the first content after a `...` document end marker: YAML readers
/// (serde_yaml, js-yaml, PyYAML's `safe_load`) refuse a second document in the frontmatter.
/// The line of a document end marker `...` that comes before any content (only blank and
/// comment lines above it), which PyYAML refuses ("did not find expected node content").
fn document_end_first(yaml: &str) -> Option<u32> {
    for (i, line) in yaml.lines().enumerate() {
        let content = line.trim_end();
        if content.is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let marker =
            content == "..." || content.starts_with("... ") || content.starts_with("...\t");
        return marker.then(|| u32::try_from(i + 1).ok()).flatten();
    }
    None
}

fn second_document(yaml: &str) -> Option<u32> {
    // Only a line holding `...` ends a document: no need to look at lines without one.
    DOTS.find(yaml.as_bytes())?;
    let mut ended = false;
    for (i, line) in yaml.lines().enumerate() {
        let content = line.trim_end();
        if ended && !content.is_empty() && !content.trim_start().starts_with('#') {
            return u32::try_from(i + 1).ok();
        }
        if content == "..." || content.starts_with("... #") {
            ended = true;
        }
    }
    None
}

/// js-yaml counts only spaces as indentation and skips the tabs after them as separation:
/// `\tkey: v` is a key at column 0.
fn tabs_as_separation(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len());
    // The first content line sets the mapping's indentation from its column, tabs included,
    // so a tab there stays (and fails, as it does in js-yaml).
    let mut first = true;
    for line in yaml.split_inclusive('\n') {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        let blank = line.trim().is_empty() || line.trim_start().starts_with('#');
        if !blank && std::mem::take(&mut first) {
            out.push_str(line);
        } else if rest.starts_with('\t') {
            out.push_str(&line[..spaces]);
            out.push_str(rest.trim_start_matches([' ', '\t']));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The dialect's rules on a loaded manifest: keys a host refuses to see twice, and
/// one-line `name`/`description`.
fn host_rules(parsed: &mut Parsed, dialect: &Dialect) {
    let refused: &[&str] = match dialect.duplicate_keys {
        DuplicateRule::Allow | DuplicateRule::FirstWins => &[],
        DuplicateRule::ErrorFields => &["name", "description", "metadata"],
        DuplicateRule::Error => &[""],
    };
    if !refused.is_empty() {
        let mut seen: Vec<&str> = Vec::new();
        let mut twice: Vec<(String, u32, u32)> = Vec::new();
        for k in &parsed.keys {
            let counts = refused == [""] || refused.contains(&k.key.as_str());
            if counts && seen.contains(&k.key.as_str()) {
                twice.push((k.key.clone(), k.line, k.column));
            }
            seen.push(&k.key);
        }
        if !twice.is_empty() {
            parsed.diagnostics.retain(|d| d.code != "duplicate-key");
        }
        for (key, line, column) in twice {
            parsed.diagnostics.push(
                Diagnostic::error(
                    "duplicate-key",
                    format!("`{key}` is given more than once; this host refuses the file"),
                )
                .at(line, Some(column))
                .with_hint("remove all but one of these keys"),
            );
        }
    }
    if dialect.trim_values {
        let m = &mut parsed.manifest;
        for value in [&mut m.name, &mut m.description] {
            if let Some(text) = value.as_mut() {
                let trimmed = text.trim();
                if trimmed.is_empty() {
                    *value = None;
                } else if trimmed.len() != text.len() {
                    *value = Some(trimmed.to_string());
                }
            }
        }
    }
    if dialect.trim_final_newlines {
        let m = &mut parsed.manifest;
        for value in [m.name.as_mut(), m.description.as_mut()]
            .into_iter()
            .flatten()
        {
            let kept = value.trim_end_matches(['\n', '\r']).len();
            value.truncate(kept);
        }
    }
    if dialect.single_line {
        let m = &mut parsed.manifest;
        if let Some(name) = m.name.as_mut() {
            *name = dialect::single_line(name);
        }
        if let Some(description) = m.description.as_mut() {
            *description = dialect::single_line(description);
        }
    }
}

/// The SKILL.md text as the spec's reference validator (skills-ref 0.1.1) reads its
/// frontmatter, when that differs from this parser's reading: skills-ref takes everything
/// between the first two occurrences of `---` anywhere in the file (after universal-newline
/// decoding), so a `---` inside a value ends its frontmatter there. Returns that block
/// re-fenced as a SKILL.md text (lines keep their numbers), or `None` when both readings agree.
pub fn skills_ref_view(text: &str) -> Option<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let rest = text.strip_prefix("---")?;
    let end = rest.find("---")?;
    let ours = frontmatter::split(&text);
    if ours.fences != Fences::Closed || !ours.yaml.contains("---") {
        return None;
    }
    Some(format!("---{}\n---\n", &rest[..end]))
}

/// The lines of `text`, accepting `\n`, `\r\n` and lone `\r` as line ends.
pub fn split_lines(text: &str) -> Vec<&str> {
    frontmatter::lines_from(text, 0).map(|l| l.text).collect()
}

/// The last `key: [` / `key: {` value at or before YAML line `upto` (1-based) whose brackets
/// do not balance on its line: (line, column, opener). Quoted text is skipped.
fn unclosed_flow_before(yaml: &str, upto: u32) -> Option<(u32, u32, char)> {
    let upto = usize::try_from(upto).ok()?;
    let mut found = None;
    for (i, line) in yaml.lines().take(upto).enumerate() {
        let Some((_, value)) = line.split_once(": ") else {
            continue;
        };
        let value = value.trim_start();
        let Some(open @ ('[' | '{')) = value.chars().next() else {
            continue;
        };
        let mut depth = 0i32;
        let mut quote: Option<char> = None;
        for c in value.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '[' | '{') => depth += 1,
                (None, ']' | '}') => depth -= 1,
                _ => {}
            }
        }
        if depth > 0 {
            let column = line.len() - value.len();
            let column = u32::try_from(line[..column].chars().count() + 1).ok()?;
            found = Some((u32::try_from(i + 1).ok()?, column, open));
        }
    }
    found
}

pub(crate) fn empty_frontmatter() -> Diagnostic {
    Diagnostic::error("empty-frontmatter", "the frontmatter block is empty")
        .at(1, Some(1))
        .with_hint("add `name:` and `description:` between the `---` lines")
}

/// skills-ref reads the frontmatter as `text.split("---", 2)[1]` after checking that the file
/// starts with `---`: a BOM, indentation before the fence, or `---` anywhere inside the
/// block changes what it sees.
fn strict_notes_for_text(text: &str, split: &Split, notes: &mut Vec<Diagnostic>) {
    if split.bom {
        notes.push(
            Diagnostic::error("bom", "the file starts with a UTF-8 byte order mark")
                .at(1, Some(1))
                .with_hint("save the file as UTF-8 without BOM"),
        );
    } else if !text.starts_with("---") {
        notes.push(
            Diagnostic::error(
                "fence-not-at-start",
                "the opening `---` is not at the very start of the file",
            )
            .at(1, Some(1))
            .with_hint("remove whitespace before the opening `---`"),
        );
    }
    // The first `---` of the block, found in one search instead of one per line (a `---`
    // never spans a line end, so it is on the line of its first byte).
    if let Some(at) = DASHES.find(split.yaml.as_bytes()) {
        let before = &split.yaml[..at];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let i = memchr::memchr_iter(b'\n', before.as_bytes()).count();
        let line_no = split
            .yaml_line
            .saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        let column = u32::try_from(before[line_start..].chars().count() + 1).unwrap_or(u32::MAX);
        notes.push(
            Diagnostic::warning(
                "dashes-in-frontmatter",
                "`---` inside the frontmatter ends it here for the spec's reference validator",
            )
            .at(line_no, Some(column))
            .with_hint("avoid `---` inside frontmatter values"),
        );
    }
}

/// Every concatenation of up to `up_to` of `pieces` (the empty text first): the inputs of
/// the exhaustive tests that check a fast scanner against the plain one it replaced.
#[cfg(test)]
fn every_text(pieces: &[&str], up_to: usize) -> Vec<String> {
    let mut texts = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..up_to {
        last = last
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        texts.extend(last.iter().cloned());
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vscode() -> Dialect {
        Dialect {
            fences: FenceRule::LfLinesTrimEnd,
            non_mapping_is_empty: true,
            missing_is_empty: true,
            unterminated_to_end: true,
            unparsed_is_empty: true,
            ..Dialect::default()
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_first_value_when_the_host_says_so() {
        let text = "---\nname: a\ndescription: one\ndescription: [two]\n---\n";
        let first = Dialect {
            duplicate_keys: DuplicateRule::FirstWins,
            ..vscode()
        };
        let p = parse_with(text, &first);
        assert_eq!(p.manifest.description.as_deref(), Some("one"));
        assert!(p.diagnostics.iter().any(|d| d.code == "duplicate-key"));
        // The value used is the one the field checks see.
        let seen: Vec<_> = p.keys.iter().filter(|k| k.key == "description").collect();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].kind, ValueKind::String);
        let last = parse_with(text, &vscode());
        assert_eq!(last.manifest.description, None);
    }

    #[test]
    fn an_unclosed_block_runs_to_the_end_when_the_host_says_so() {
        let text = "---\nname: a\ndescription: the rest is yaml\n";
        let p = parse_with(text, &vscode());
        assert!(p.is_ok(), "{:?}", p.diagnostics);
        assert_eq!(p.manifest.description.as_deref(), Some("the rest is yaml"));
        assert_eq!(p.body_line, None);
        let strict = Dialect {
            unterminated_to_end: false,
            ..vscode()
        };
        assert!(!parse_with(text, &strict).is_ok());
    }

    #[test]
    fn yaml_that_does_not_load_reads_as_no_keys_when_the_host_says_so() {
        let text = "---\nname: a\ndescription: [unclosed\n---\nbody\n";
        let p = parse_with(text, &vscode());
        assert!(p.is_ok(), "{:?}", p.diagnostics);
        assert_eq!((p.manifest.name, p.manifest.description), (None, None));
        assert!(p.diagnostics.iter().any(|d| d.code == "yaml-ignored"));
        let strict = Dialect {
            unparsed_is_empty: false,
            repair: RepairRule::None,
            ..vscode()
        };
        assert!(!parse_with(text, &strict).is_ok());
    }

    #[test]
    fn a_file_without_fences_loads_without_keys_when_the_host_says_so() {
        let p = parse_with("# only a body\n", &vscode());
        assert!(p.is_ok(), "{:?}", p.diagnostics);
        assert_eq!(p.manifest.name, None);
        let strict = Dialect {
            missing_is_empty: false,
            ..vscode()
        };
        assert!(!parse_with("# only a body\n", &strict).is_ok());
    }

    fn codes(p: &Parsed) -> Vec<&str> {
        p.diagnostics.iter().map(|d| &*d.code).collect()
    }

    #[test]
    fn minimal() {
        let p = parse("---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n");
        assert_eq!(p.manifest.name.as_deref(), Some("pdf"));
        assert_eq!(p.manifest.description.as_deref(), Some("Extract text."));
        assert_eq!(p.body_line, Some(5));
        assert!(p.diagnostics.is_empty());
        assert!(p.strict_notes.is_empty());
    }

    #[test]
    fn distinct_structural_errors() {
        assert_eq!(codes(&parse("# no fm\n")), ["missing-frontmatter"]);
        assert_eq!(
            codes(&parse("---\nname: a\n")),
            ["unterminated-frontmatter"]
        );
        assert_eq!(codes(&parse("---\n---\n")), ["empty-frontmatter"]);
        assert_eq!(codes(&parse("---\n# c\n---\n")), ["empty-frontmatter"]);
        assert_eq!(
            codes(&parse("---\n- a\n---\n")),
            ["frontmatter-not-mapping"]
        );
    }

    #[test]
    fn source_text_and_spellings() {
        let p = parse("---\nname: yes\nversion: 1.10\nallowed_tools: Read Grep\nuser-invocable: Off\nmaxThinkingTokens: 2048\nauthor: me\n---\n");
        assert_eq!(p.manifest.name.as_deref(), Some("yes"));
        assert_eq!(p.manifest.tool.version.as_deref(), Some("1.10"));
        assert_eq!(p.manifest.allowed_tools, ["Read", "Grep"]);
        assert_eq!(p.manifest.claude_code.user_invocable, Some(false));
        assert_eq!(p.manifest.tool.max_thinking_tokens, Some(2048));
        assert_eq!(p.manifest.extra.get("author"), Some("me".into()));
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    }

    #[test]
    fn invalid_yaml_line_is_file_line() {
        let p = parse("---\nname: a\ndescription: [x\n---\n");
        assert_eq!(codes(&p), ["invalid-yaml"]);
        assert_eq!(p.diagnostics[0].line, Some(3));
    }

    #[test]
    fn unclosed_flow_points_at_the_opener() {
        let p = parse("---\nname: a\ndescription: [never closed\nlicense: MIT\n---\n");
        assert_eq!(codes(&p), ["invalid-yaml"]);
        assert_eq!(
            (p.diagnostics[0].line, p.diagnostics[0].column),
            (Some(3), Some(14))
        );
    }

    #[test]
    fn repaired_line_is_file_line() {
        let p = parse("---\nname: a\ndescription: Use when: asked\n---\n");
        assert_eq!(codes(&p), ["yaml-repaired"]);
        assert_eq!(p.diagnostics[0].line, Some(3));
        assert_eq!(p.manifest.description.as_deref(), Some("Use when: asked"));
    }

    #[test]
    fn skills_ref_view_cuts_at_inner_dashes() {
        let text = "---\nname: a\nlicense: x --- y\n---\nbody\n";
        assert_eq!(
            skills_ref_view(text).as_deref(),
            Some("---\nname: a\nlicense: x \n---\n")
        );
        assert_eq!(skills_ref_view("---\nname: a\n---\nbody --- x\n"), None);
    }

    #[test]
    fn strict_notes() {
        let p = parse("\u{feff}---\nname: a\nmetadata: {k: v}\n---\n");
        let notes: Vec<_> = p.strict_notes.iter().map(|d| &*d.code).collect();
        assert_eq!(notes, ["bom", "yaml-flow-style"]);
        assert_eq!(p.strict_notes[1].line, Some(3));
    }
}
