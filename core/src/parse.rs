//! Parsing a SKILL.md: frontmatter location, YAML (with limits and a repair pass) and the
//! typed manifest.

use crate::diagnostic::Diagnostic;
use crate::manifest::Manifest;
use serde::{Deserialize, Serialize};

/// A parsed SKILL.md frontmatter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    pub manifest: Manifest,
    pub diagnostics: Vec<Diagnostic>,
    /// 1-based line where the body starts, when the frontmatter was closed.
    pub body_line: Option<u32>,
}

impl Parsed {
    /// True when no error diagnostic was produced.
    pub fn is_ok(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse the text of a SKILL.md (frontmatter + body).
pub fn parse(text: &str) -> Parsed {
    let _ = text;
    Parsed {
        diagnostics: vec![Diagnostic::error(
            "not-built",
            "the parser is being built (issue 2)",
        )],
        ..Parsed::default()
    }
}

/// Discovery-time read: only the frontmatter prefix of the file at `path` is read (the body
/// is never loaded). I/O problems, size caps and bad encodings become diagnostics carrying
/// `path`; this never fails and never panics.
pub fn read_frontmatter(path: &std::path::Path) -> Parsed {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text),
        Err(err) => Parsed {
            diagnostics: vec![Diagnostic::error("io-error", err.to_string()).with_path(path)],
            ..Parsed::default()
        },
    }
}

/// Activation-time read: the Markdown body after the frontmatter.
pub fn read_body(path: &std::path::Path) -> crate::Result<String> {
    std::fs::read_to_string(path).map_err(|e| crate::Error::io(path, e))
}
