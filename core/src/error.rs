//! The engine's typed errors. Each variant has a stable `code()` shared by every binding
//! (Python exception classes, Node `err.code`, uniffi error enums).

use crate::diagnostic::Diagnostic;
use std::any::Any;
use std::panic::AssertUnwindSafe;
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
    #[error("no skill named `{id}` is available; use one of the skills listed as available")]
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
    /// A configuration skilldeck defines (a rules file or value, a profile file, an options
    /// object) has an unknown key, a wrong type or a shape skilldeck does not read. Never
    /// ignored: a rule nobody reads would leave a skill the user believes denied exposed.
    /// Same stable code as [`Error::InvalidOptions`]: to a caller both are bad options.
    #[error("{}{}", config_location(path.as_deref(), *line, key), message)]
    InvalidConfig {
        /// The file, when the configuration came from one.
        path: Option<PathBuf>,
        /// 1-based line in that file, when the format gives one.
        line: Option<u32>,
        /// Where in the document: `permission.skill.pdf`, `rules[2].decision`, `agents`;
        /// empty when the whole document is at fault.
        key: String,
        /// What was found, what was expected, and what to do.
        message: String,
    },
    /// A skill from a remote source (an MCP server) failed a check before use, or its
    /// server failed; no unverified content was used. `kind` picks the stable code.
    #[error("{message}")]
    Remote {
        kind: RemoteFailure,
        /// The server's label and the URI at fault (`label skill://…`).
        origin: String,
        /// What failed (naming the server and URI) and what to do.
        message: String,
    },
    /// A bug in skilldeck: the engine panicked. The engine never returns this itself; the
    /// bindings and the CLI turn a panic at their boundary into it (see [`catch_panic`]), so
    /// a bug becomes an error the host can catch instead of a crashed process.
    #[error("internal error (a bug in skilldeck; please report it): {message}")]
    Internal { message: String },
}

/// Why content from a remote skill source was refused (see [`Error::Remote`]). Each has
/// its own stable code, identical in every binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RemoteFailure {
    /// A file's length differs from the manifest's `size`: `REMOTE_SIZE_MISMATCH`.
    SizeMismatch,
    /// A file's sha256 differs from the manifest's `digest`: `REMOTE_DIGEST_MISMATCH`.
    DigestMismatch,
    /// The fetched `SKILL.md` frontmatter differs from the listed entry's, or does not
    /// parse: `REMOTE_FRONTMATTER_MISMATCH`.
    FrontmatterMismatch,
    /// The skill's files exceed the extension's 512-file / 16 MiB limits:
    /// `REMOTE_LIMIT_EXCEEDED`.
    LimitExceeded,
    /// A file the held entry does not list (the skill changed on the server; reload the
    /// deck): `REMOTE_NOT_LISTED`.
    NotListed,
    /// The server answered with an error, an invalid result or not in time:
    /// `REMOTE_SERVER_ERROR`.
    ServerError,
    /// The connection to the server is gone: `REMOTE_UNAVAILABLE`.
    Unavailable,
    /// The server's entry for the skill breaks the extension's rules (bad URI, name,
    /// digest format, a file outside the skill): `REMOTE_ENTRY_INVALID`.
    InvalidEntry,
}

impl RemoteFailure {
    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            RemoteFailure::SizeMismatch => "REMOTE_SIZE_MISMATCH",
            RemoteFailure::DigestMismatch => "REMOTE_DIGEST_MISMATCH",
            RemoteFailure::FrontmatterMismatch => "REMOTE_FRONTMATTER_MISMATCH",
            RemoteFailure::LimitExceeded => "REMOTE_LIMIT_EXCEEDED",
            RemoteFailure::NotListed => "REMOTE_NOT_LISTED",
            RemoteFailure::ServerError => "REMOTE_SERVER_ERROR",
            RemoteFailure::Unavailable => "REMOTE_UNAVAILABLE",
            RemoteFailure::InvalidEntry => "REMOTE_ENTRY_INVALID",
        }
    }

    /// Every failure, for tables of codes (bindings, docs).
    pub const ALL: [RemoteFailure; 8] = [
        RemoteFailure::SizeMismatch,
        RemoteFailure::DigestMismatch,
        RemoteFailure::FrontmatterMismatch,
        RemoteFailure::LimitExceeded,
        RemoteFailure::NotListed,
        RemoteFailure::ServerError,
        RemoteFailure::Unavailable,
        RemoteFailure::InvalidEntry,
    ];
}

fn config_location(path: Option<&Path>, line: Option<u32>, key: &str) -> String {
    let mut out = String::new();
    if let Some(path) = path {
        out.push_str(&path.display().to_string());
        if let Some(line) = line {
            out.push_str(&format!(":{line}"));
        }
        out.push_str(": ");
    }
    if !key.is_empty() {
        out.push_str(&format!("`{key}`: "));
    }
    out
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
            Error::InvalidOptions { .. } | Error::InvalidConfig { .. } => "INVALID_OPTIONS",
            Error::Internal { .. } => "INTERNAL",
            Error::Remote { kind, .. } => kind.code(),
        }
    }

    /// The file the error is about, when there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Parse { path, .. } | Error::Validation { path, .. } | Error::Io { path, .. } => {
                Some(path)
            }
            Error::InvalidConfig { path, .. } => path.as_deref(),
            _ => None,
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A configuration error (see [`Error::InvalidConfig`]).
    pub fn invalid_config(
        path: Option<&Path>,
        line: Option<u32>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::InvalidConfig {
            path: path.map(Path::to_path_buf),
            line,
            key: key.into(),
            message: message.into(),
        }
    }

    /// The 1-based line the error points at, when there is one.
    pub fn line(&self) -> Option<u32> {
        match self {
            Error::Parse { line, .. } | Error::InvalidConfig { line, .. } => *line,
            _ => None,
        }
    }

    pub fn invalid_options(message: impl Into<String>) -> Self {
        Error::InvalidOptions {
            message: message.into(),
        }
    }

    /// The [`Error::Internal`] for a caught panic's payload (its message when it has one).
    pub fn from_panic(payload: &(dyn Any + Send)) -> Self {
        let message = if let Some(text) = payload.downcast_ref::<&str>() {
            (*text).to_string()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            "panic with a non-text payload".to_string()
        };
        Error::Internal { message }
    }
}

/// Run `f`, turning a panic into [`Error::Internal`]. For the entry points of the bindings
/// and the CLI: a panic unwinding out of a Node addon aborts the whole process, and one
/// reaching Python is a `BaseException` that `except Exception` does not catch.
///
/// `AssertUnwindSafe` holds because what a panic can leave half-updated is the `Deck`'s
/// cache, behind locks whose poisoning the deck recovers from (a later load re-checks
/// the disk); nothing else outlives the call. The default panic hook still prints the
/// panic to stderr, which is what a bug report needs.
pub fn catch_panic<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|payload| Err(Error::from_panic(payload.as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_message() {
        let err = catch_panic::<()>(|| panic!("boom {}", 42)).expect_err("caught");
        assert_eq!(err.code(), "INTERNAL");
        assert!(err.to_string().contains("boom 42"), "{err}");
        let err = catch_panic::<()>(|| panic!("static")).expect_err("caught");
        assert!(matches!(&err, Error::Internal { message } if message == "static"));
        let err = catch_panic::<()>(|| std::panic::panic_any(7_u8)).expect_err("caught");
        assert_eq!(err.code(), "INTERNAL");
    }

    #[test]
    fn results_pass_through_unchanged() {
        assert_eq!(catch_panic(|| Ok(3)).ok(), Some(3));
        let err = catch_panic::<()>(|| Err(Error::invalid_options("x"))).expect_err("err");
        assert_eq!(err.code(), "INVALID_OPTIONS");
    }
}
