//! Validation against the Agent Skills specification (strict) or what hosts load (lenient).

use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ValidateOptions {
    /// Spec conformance as enforced by skills-ref 0.1.1 instead of host leniency.
    pub strict: bool,
}

/// The verdict on one skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationReport {
    /// The SKILL.md (or the directory when none was found).
    pub path: PathBuf,
    pub name: Option<String>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// Validate a skill directory, a SKILL.md file, or every skill below a directory.
pub fn validate(path: &Path, options: &ValidateOptions) -> Vec<ValidationReport> {
    let _ = options;
    vec![ValidationReport {
        path: path.to_path_buf(),
        name: None,
        valid: false,
        diagnostics: vec![Diagnostic::error(
            "not-built",
            "the validator is being built (issue 2)",
        )],
    }]
}
