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
        diagnostics: vec![Diagnostic::error("not-built", "the parser is being built (issue 2)")],
        ..Parsed::default()
    }
}
