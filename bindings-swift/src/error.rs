//! The error type every fallible call throws: Swift `SkillError`, Kotlin `SkillException`
//! (uniffi renames the `Error` suffix for Kotlin). One variant per stable core code.
//!
//! No field is called `message`: generated Kotlin exceptions already have a `message`
//! property and a field of that name would not compile.

/// An engine error. Every variant carries the stable `code` (the same string in every
/// binding), the file it is about (when there is one) and a human `detail` saying what to do.
#[derive(Debug, thiserror::Error, uniffi::Error)]
// The variant names are the binding API's class names (`ParseError`, ...), shared with
// Python and Node, hence the common suffix.
#[allow(clippy::enum_variant_names)]
pub enum SkillError {
    /// A SKILL.md (or settings file) could not be parsed. `code` is `PARSE_ERROR`.
    #[error("{detail}")]
    ParseError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// A skill failed validation. `code` is `VALIDATION_ERROR`.
    #[error("{detail}")]
    ValidationError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// No skill with this id or name. `code` is `NOT_FOUND`.
    #[error("{detail}")]
    NotFoundError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// A permission rule denies the skill. `code` is `PERMISSION_DENIED`.
    #[error("{detail}")]
    PermissionDeniedError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// Reading or writing a file failed. `code` is `IO_ERROR`.
    #[error("{detail}")]
    IoError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// A skill from an MCP server failed a check before use, or its server failed; no
    /// unverified content was used. `code` is `REMOTE_SIZE_MISMATCH`,
    /// `REMOTE_DIGEST_MISMATCH`, `REMOTE_FRONTMATTER_MISMATCH` (the server serves other
    /// content than it listed: reload the deck), `REMOTE_NOT_LISTED`,
    /// `REMOTE_LIMIT_EXCEEDED`, `REMOTE_ENTRY_INVALID`, `REMOTE_SERVER_ERROR` or
    /// `REMOTE_UNAVAILABLE`.
    #[error("{detail}")]
    RemoteError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// The caller's options are inconsistent (unknown profile, bad format name, bad JSON).
    /// `code` is `INVALID_OPTIONS`.
    #[error("{detail}")]
    InvalidOptionsError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// An install operation (`add`, `remove`, `update`, `installed`, `verify`,
    /// `installFrozen`, the `marketplace*` and `plugin*` functions) failed or refused. `code`
    /// is the install engine's: `BAD_SOURCE`, `GIT_ERROR`, `HTTP_ERROR`, `DIGEST_MISMATCH`,
    /// `UNSAFE_ARCHIVE`, `TOO_LARGE`, `INVALID_NAME`, `NOT_FOUND`, `MODIFIED`,
    /// `FROZEN_MISMATCH`, `AUDIT_REFUSED`, `INVALID_MANIFEST`, `POLICY_BLOCKED`, `IO_ERROR`,
    /// or a lock file's engine code.
    #[error("{detail}")]
    InstallError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// A run (`runCommand`, `runScript`, `callTool`) was refused: nothing ran. `code` is the
    /// runner's (`NOT_RUNNABLE`, `SCRIPT_REFUSED`, `NO_INTERPRETER`, `DESTINATION_REFUSED`,
    /// `APPROVAL_REQUIRED`, `SANDBOX_UNAVAILABLE`, `REQUIREMENTS_MISSING`, `SPAWN_FAILED`,
    /// `IO_ERROR`) or the engine's (`NOT_FOUND`, `PERMISSION_DENIED`, ...). A run that
    /// started and failed is a `RunOutcome`, not an error.
    #[error("{detail}")]
    RunError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
    /// A run's input does not match the skill's `parameters` (or a tool call's arguments
    /// have the wrong shape); nothing ran. `code` is `INVALID_INPUT`.
    #[error("{detail}")]
    InvalidInputError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
        /// One line per mismatch, e.g. `` `text`: 5 is not of type "string" ``.
        problems: Vec<String>,
    },
    /// A bug in skilldeck (the engine's own `Internal` error). `code` is `INTERNAL`.
    ///
    /// A panic in a call is not this variant: uniffi's scaffolding catches every panic
    /// before it reaches the foreign side and raises its own internal error (Kotlin: the
    /// top-level `dev.skilldeck.InternalException`, not this nested class; Swift:
    /// `UniffiInternalError.rustPanic`), which never aborts the host process either.
    #[error("{detail}")]
    InternalError {
        /// The stable code, identical in every binding.
        code: String,
        /// The file the error is about, when there is one.
        path: Option<String>,
        /// What went wrong and what to do about it.
        detail: String,
    },
}

impl SkillError {
    /// An `INVALID_OPTIONS` error raised by the binding itself (argument conversion).
    pub fn invalid_options(detail: impl Into<String>) -> Self {
        SkillError::InvalidOptionsError {
            code: "INVALID_OPTIONS".to_string(),
            path: None,
            detail: detail.into(),
        }
    }

    /// The stable code (`PARSE_ERROR`, `NOT_FOUND`, ...).
    pub fn code(&self) -> &str {
        match self {
            SkillError::ParseError { code, .. }
            | SkillError::ValidationError { code, .. }
            | SkillError::NotFoundError { code, .. }
            | SkillError::PermissionDeniedError { code, .. }
            | SkillError::IoError { code, .. }
            | SkillError::RemoteError { code, .. }
            | SkillError::InvalidOptionsError { code, .. }
            | SkillError::InstallError { code, .. }
            | SkillError::RunError { code, .. }
            | SkillError::InvalidInputError { code, .. }
            | SkillError::InternalError { code, .. } => code,
        }
    }
}

impl From<skilldeck::Error> for SkillError {
    fn from(err: skilldeck::Error) -> Self {
        let code = err.code().to_string();
        let path = err.path().map(|p| p.to_string_lossy().into_owned());
        let detail = err.to_string();
        match err {
            skilldeck::Error::Parse { .. } => SkillError::ParseError { code, path, detail },
            skilldeck::Error::Validation { .. } => {
                SkillError::ValidationError { code, path, detail }
            }
            skilldeck::Error::NotFound { .. } => SkillError::NotFoundError { code, path, detail },
            skilldeck::Error::PermissionDenied { .. } => {
                SkillError::PermissionDeniedError { code, path, detail }
            }
            skilldeck::Error::Io { .. } => SkillError::IoError { code, path, detail },
            skilldeck::Error::InvalidOptions { .. } | skilldeck::Error::InvalidConfig { .. } => {
                SkillError::InvalidOptionsError { code, path, detail }
            }
            skilldeck::Error::Internal { .. } => SkillError::InternalError { code, path, detail },
            skilldeck::Error::Remote { .. } => SkillError::RemoteError { code, path, detail },
        }
    }
}

impl From<skilldeck_install::InstallError> for SkillError {
    fn from(err: skilldeck_install::InstallError) -> Self {
        use skilldeck_install::InstallError as E;
        let path = match &err {
            E::Io { path, .. }
            | E::TooLarge { path, .. }
            | E::InvalidName { path, .. }
            | E::Modified { path, .. }
            | E::InvalidManifest { path, .. } => Some(path.to_string_lossy().into_owned()),
            E::Lock(inner) => inner.path().map(|p| p.to_string_lossy().into_owned()),
            _ => None,
        };
        SkillError::InstallError {
            code: err.code().to_string(),
            path,
            detail: err.to_string(),
        }
    }
}

impl From<skilldeck_run::RunError> for SkillError {
    fn from(err: skilldeck_run::RunError) -> Self {
        use skilldeck_run::RunError as E;
        let path = match &err {
            E::ScriptRefused { path, .. }
            | E::NoInterpreter { path, .. }
            | E::DestinationRefused { path, .. }
            | E::Io { path, .. } => Some(path.to_string_lossy().into_owned()),
            E::Spawn { program, .. } => Some(program.to_string_lossy().into_owned()),
            E::Engine(inner) => inner.path().map(|p| p.to_string_lossy().into_owned()),
            _ => None,
        };
        let code = err.code().to_string();
        let detail = err.to_string();
        match err {
            E::InvalidInput { problems, .. } => SkillError::InvalidInputError {
                code,
                path,
                detail,
                problems,
            },
            _ => SkillError::RunError { code, path, detail },
        }
    }
}

/// A foreign event listener threw something that is not a `SkillError`: uniffi reports it
/// here instead of panicking, and the deck ignores it (one bad listener must not break a load).
impl From<uniffi::UnexpectedUniFFICallbackError> for SkillError {
    fn from(err: uniffi::UnexpectedUniFFICallbackError) -> Self {
        SkillError::invalid_options(format!("event listener failed: {}", err.reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_errors_keep_code_path_and_detail() {
        let err: SkillError = skilldeck::Error::io(
            "/x/SKILL.md",
            std::io::Error::new(std::io::ErrorKind::NotFound, "gone"),
        )
        .into();
        match &err {
            SkillError::IoError { code, path, detail } => {
                assert_eq!(code, "IO_ERROR");
                assert_eq!(path.as_deref(), Some("/x/SKILL.md"));
                assert!(detail.contains("gone"), "{detail}");
            }
            other => panic!("wrong variant: {other:?}"),
        }
        let err: SkillError = skilldeck::Error::NotFound { id: "a".into() }.into();
        assert_eq!(err.code(), "NOT_FOUND");
        assert!(matches!(err, SkillError::NotFoundError { path: None, .. }));
    }

    #[test]
    fn run_errors_keep_their_code_and_problems() {
        let err: SkillError = skilldeck_run::RunError::InvalidInput {
            skill: "echo".into(),
            problems: vec!["`text`: required".into()],
        }
        .into();
        match &err {
            SkillError::InvalidInputError { code, problems, .. } => {
                assert_eq!(code, "INVALID_INPUT");
                assert_eq!(problems, &["`text`: required".to_string()]);
            }
            other => panic!("wrong variant: {other:?}"),
        }
        let err: SkillError =
            skilldeck_run::RunError::Engine(skilldeck::Error::NotFound { id: "x".into() }).into();
        assert!(matches!(&err, SkillError::RunError { code, .. } if code == "NOT_FOUND"));
        let err: SkillError = skilldeck_install::InstallError::Frozen {
            message: "differs".into(),
        }
        .into();
        assert!(
            matches!(&err, SkillError::InstallError { code, detail, .. } if code == "FROZEN_MISMATCH" && detail == "differs")
        );
    }

    #[test]
    fn remote_failures_keep_their_own_codes() {
        for kind in skilldeck::RemoteFailure::ALL {
            let err: SkillError = skilldeck::Error::Remote {
                kind,
                origin: "srv skill://a/SKILL.md".into(),
                message: "refused".into(),
            }
            .into();
            assert_eq!(err.code(), kind.code());
            assert!(
                matches!(&err, SkillError::RemoteError { detail, .. } if detail == "refused"),
                "{err:?}"
            );
        }
    }

    #[test]
    fn internal_errors_map_to_their_variant() {
        let err: SkillError = skilldeck::Error::Internal {
            message: "boom".into(),
        }
        .into();
        assert_eq!(err.code(), "INTERNAL");
        assert!(
            matches!(&err, SkillError::InternalError { detail, .. } if detail.contains("boom"))
        );
    }
}
