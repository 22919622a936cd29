//! Diagnostics: every problem the engine finds in a user's files becomes one of these,
//! never a panic and never a silent drop.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How bad a diagnostic is. `Error` makes a skill invalid (strict) or unloadable (lenient).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one file. `code` is a stable kebab-case identifier (e.g. `name-mismatch`)
/// that tests and hosts may match on; `message` is for humans and may change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: String,
    pub severity: Severity,
    #[serde(serialize_with = "crate::serde_path::lossy_opt")]
    pub path: Option<PathBuf>,
    /// 1-based line in the file, when known.
    pub line: Option<u32>,
    /// 1-based column (in characters), when known.
    pub column: Option<u32>,
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(code: impl Into<String>, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.into(),
            severity,
            path: None,
            line: None,
            column: None,
            message: message.into(),
            hint: None,
        }
    }

    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, message)
    }

    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, message)
    }

    pub fn info(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Info, message)
    }

    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    pub fn at(mut self, line: u32, column: Option<u32>) -> Self {
        self.line = Some(line);
        self.column = column;
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
