//! The engine's typed errors. Each variant has a stable `code()` shared by every binding
//! (Python exception classes, Node `err.code`, uniffi error enums).

use crate::diagnostic::Diagnostic;
use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A SKILL.md (or settings file) could not be parsed.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Parse {
        path: PathBuf,
        line: Option<u32>,
        message: String,
    },
    /// A skill failed validation; the diagnostics say why.
    #[error("{}: invalid skill ({} problem(s)); run `skilldeck validate {}` for details", path.display(), diagnostics.len(), path.display())]
    Validation {
        path: PathBuf,
        diagnostics: Vec<Diagnostic>,
    },
    /// No skill with this id or name in the catalog.
    #[error("no skill named `{id}`; run `skilldeck list --all` to see what was found")]
    NotFound { id: String },
    /// A permission rule denies the skill.
    #[error("skill `{id}` is denied by permission rule `{rule}`")]
    PermissionDenied { id: String, rule: String },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The caller's options are inconsistent (unknown profile, bad format name, ...).
    #[error("invalid option: {message}")]
    InvalidOptions { message: String },
}

impl Error {
    /// Stable machine-readable code, identical in every language binding.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Parse { .. } => "PARSE_ERROR",
            Error::Validation { .. } => "VALIDATION_ERROR",
            Error::NotFound { .. } => "NOT_FOUND",
            Error::PermissionDenied { .. } => "PERMISSION_DENIED",
            Error::Io { .. } => "IO_ERROR",
            Error::InvalidOptions { .. } => "INVALID_OPTIONS",
        }
    }

    /// The file the error is about, when there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Parse { path, .. } | Error::Validation { path, .. } | Error::Io { path, .. } => {
                Some(path)
            }
            _ => None,
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub fn invalid_options(message: impl Into<String>) -> Self {
        Error::InvalidOptions {
            message: message.into(),
        }
    }
}
