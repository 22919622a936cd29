//! The StrictYAML subset that skills-ref 0.1.1 parses frontmatter with.
//!
//! skills-ref loads frontmatter with `strictyaml.load()` and no schema, which means:
//! every scalar is a string (`version: 1.0` is `"1.0"`, `enabled: yes` is `"yes"`), and
//! flow collections (`[a, b]`, `{a: b}`), anchors, aliases, tags and duplicate keys are
//! errors rather than being interpreted. A document without any node (empty or only
//! comments) is returned as its raw text, as StrictYAML does. Reproducing this exactly is
//! what lets `skilldeck.compat.skills_ref` give the reference library's answers.

use granit_parser::{Event, Parser, ScanError, Span, StrInput, StructureStyle};
use serde_json::{Map, Value};

/// A YAML text StrictYAML would reject, with StrictYAML's wording and the 1-based position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrictYamlError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for StrictYamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}\n  in \"<unicode string>\", line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for StrictYamlError {}

fn error_at(span: Span, message: impl Into<String>) -> StrictYamlError {
    StrictYamlError {
        message: message.into(),
        line: span.start.line(),
        column: span.start.col() + 1,
    }
}

fn scan_error(err: &ScanError) -> StrictYamlError {
    StrictYamlError {
        message: err.info().to_string(),
        line: err.marker().line(),
        column: err.marker().col() + 1,
    }
}

/// Parse `text` the way `strictyaml.load(text).data` does (see the module docs).
pub fn load(text: &str) -> Result<Value, StrictYamlError> {
    let mut reader = Reader {
        parser: Parser::new_from_str(text),
    };
    let mut root = None;
    loop {
        let (event, span) = reader.next()?;
        match event {
            Event::StreamStart | Event::DocumentStart(..) | Event::DocumentEnd => {}
            Event::StreamEnd => break,
            _ if root.is_some() => {
                return Err(error_at(
                    span,
                    "Found a second YAML document; only one is allowed",
                ))
            }
            other => root = Some(reader.node(other, span, 0)?),
        }
    }
    Ok(root.unwrap_or_else(|| Value::String(text.to_string())))
}

/// Nesting deeper than this is refused rather than risking the stack on hostile input.
const MAX_DEPTH: usize = 256;

struct Reader<'a> {
    parser: Parser<'a, StrInput<'a>>,
}

impl<'a> Reader<'a> {
    /// The next event that carries structure; presentation-only events (comments, when the
    /// parser's `comments` feature is on) are skipped.
    fn next(&mut self) -> Result<(Event<'a>, Span), StrictYamlError> {
        loop {
            match self.parser.next_event() {
                Some(Ok((event, span))) => match event {
                    Event::StreamStart
                    | Event::StreamEnd
                    | Event::DocumentStart(..)
                    | Event::DocumentEnd
                    | Event::Alias(_)
                    | Event::Anchor(..)
                    | Event::UnresolvedAlias(_)
                    | Event::Scalar(..)
                    | Event::SequenceStart(..)
                    | Event::SequenceEnd
                    | Event::MappingStart(..)
                    | Event::MappingEnd => return Ok((event, span)),
                    _ => continue,
                },
                Some(Err(err)) => return Err(scan_error(&err)),
                None => return Ok((Event::StreamEnd, Span::default())),
            }
        }
    }

    fn check_block(&self, style: StructureStyle, span: Span) -> Result<(), StrictYamlError> {
        match style {
            StructureStyle::Flow => Err(error_at(
                span,
                "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)",
            )),
            StructureStyle::Block => Ok(()),
        }
    }

    fn check_plain(&self, anchor: usize, tagged: bool, span: Span) -> Result<(), StrictYamlError> {
        if anchor != 0 {
            return Err(error_at(
                span,
                "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)",
            ));
        }
        if tagged {
            return Err(error_at(
                span,
                "Found disallowed tag tokens (do not specify types in markup)",
            ));
        }
        Ok(())
    }

    fn node(
        &mut self,
        event: Event<'a>,
        span: Span,
        depth: usize,
    ) -> Result<Value, StrictYamlError> {
        if depth > MAX_DEPTH {
            return Err(error_at(span, "YAML nested too deeply"));
        }
        match event {
            Event::Scalar(value, _, anchor, tag) => {
                self.check_plain(anchor, tag.is_some(), span)?;
                // An omitted value (`key:`) comes as a zero-width `~`; StrictYAML reads "".
                if span.is_empty() {
                    return Ok(Value::String(String::new()));
                }
                Ok(Value::String(value.into_owned()))
            }
            Event::Alias(_) | Event::Anchor(..) | Event::UnresolvedAlias(_) => Err(error_at(
                span,
                "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)",
            )),
            Event::SequenceStart(style, anchor, tag) => {
                self.check_plain(anchor, tag.is_some(), span)?;
                self.check_block(style, span)?;
                let mut items = Vec::new();
                loop {
                    let (event, span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(event, span, depth + 1)?);
                }
                Ok(Value::Array(items))
            }
            Event::MappingStart(style, anchor, tag) => {
                self.check_plain(anchor, tag.is_some(), span)?;
                self.check_block(style, span)?;
                let mut map = Map::new();
                loop {
                    let (event, key_span) = self.next()?;
                    let key = match event {
                        Event::MappingEnd => break,
                        Event::Scalar(key, _, anchor, tag) => {
                            self.check_plain(anchor, tag.is_some(), key_span)?;
                            key.into_owned()
                        }
                        Event::Alias(_) => {
                            return Err(error_at(
                                key_span,
                                "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)",
                            ))
                        }
                        _ => {
                            return Err(error_at(
                                key_span,
                                "Found a complex (non-scalar) mapping key, which is not allowed",
                            ))
                        }
                    };
                    if map.contains_key(&key) {
                        return Err(error_at(key_span, format!("Duplicate key '{key}' found")));
                    }
                    let (event, value_span) = self.next()?;
                    let value = self.node(event, value_span, depth + 1)?;
                    map.insert(key, value);
                }
                Ok(Value::Object(map))
            }
            _ => Err(error_at(span, "Unexpected YAML structure")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_stay_strings() {
        let v = load("a: 1.0\nb: yes\nc: null\nd: ~\ne:\n").unwrap();
        assert_eq!(
            v,
            json!({"a": "1.0", "b": "yes", "c": "null", "d": "~", "e": ""})
        );
    }

    #[test]
    fn block_collections_nest() {
        let v = load("a:\n  b: x\n  c:\n  - 1\n  - 2\n").unwrap();
        assert_eq!(v, json!({"a": {"b": "x", "c": ["1", "2"]}}));
    }

    #[test]
    fn documents_without_nodes_are_raw_text() {
        assert_eq!(load("").unwrap(), json!(""));
        assert_eq!(load("\n# c\n").unwrap(), json!("\n# c\n"));
        assert_eq!(load("x").unwrap(), json!("x"));
    }

    #[test]
    fn flow_anchor_tag_and_duplicates_are_errors() {
        for text in [
            "a: [b]",
            "a: {b: c}",
            "a: &x b\nc: *x",
            "a: !!str b",
            "a: b\na: c",
            "name: [invalid\n",
        ] {
            assert!(load(text).is_err(), "{text:?} should be rejected");
        }
        let err = load("a: b\na: c").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("Duplicate key 'a'"));
    }

    #[test]
    fn quoted_and_block_scalars_are_unescaped() {
        let v = load("a: \"q\\\"x\"\nb: |\n  x\n  y\n").unwrap();
        assert_eq!(v, json!({"a": "q\"x", "b": "x\ny\n"}));
    }
}
