//! Typed install errors: each names the path or URL at fault and says what to do.

use std::path::PathBuf;

/// Everything an install operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The SOURCE argument names nothing skilldeck can install from.
    #[error("`{source_spec}`: {message}")]
    BadSource {
        /// The source as given.
        source_spec: String,
        /// Why, and what to write instead.
        message: String,
    },
    /// Reading or writing a local file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// `git` failed (not installed, unknown ref, unreachable remote).
    #[error("git {what} failed for {url}: {message}")]
    Git {
        /// The remote.
        url: String,
        /// Which step (`clone`, `checkout`, `rev-parse`).
        what: String,
        /// git's own message, and what to do.
        message: String,
    },
    /// An HTTP request failed or returned an error status.
    #[error("{url}: {message}")]
    Http {
        /// The URL.
        url: String,
        /// Why.
        message: String,
    },
    /// A digest did not match its pin or its index entry; nothing was extracted or installed.
    #[error("{what}: expected {expected}, got {actual}; the content changed or was tampered with — nothing was installed")]
    DigestMismatch {
        /// What was checked (an archive URL, `name/path` in an index).
        what: String,
        /// The recorded digest.
        expected: String,
        /// The digest of what was received.
        actual: String,
    },
    /// An archive holds an entry skilldeck will not extract.
    #[error("{archive}: entry `{entry}` {reason}; refusing the whole archive")]
    UnsafeArchive {
        /// The archive URL or path.
        archive: String,
        /// The entry path as stored.
        entry: String,
        /// Why it is refused.
        reason: String,
    },
    /// A skill exceeds the file-count or size cap.
    #[error("{}: {message}", path.display())]
    TooLarge {
        /// The skill directory.
        path: PathBuf,
        /// Which cap and how to raise it.
        message: String,
    },
    /// A skill's name cannot be used.
    #[error("{}: invalid skill name: {message}; fix `name` in its SKILL.md", path.display())]
    InvalidName {
        /// The skill's SKILL.md.
        path: PathBuf,
        /// What is wrong with the name.
        message: String,
    },
    /// `--skill NAME` named a skill the source does not hold, or the source holds none.
    #[error("{message}")]
    NoSuchSkill {
        /// Which names were asked, which exist.
        message: String,
    },
    /// The installed copy was modified since it was installed (or was not installed by us).
    #[error("{}: {message}", path.display())]
    Modified {
        /// The installed skill directory.
        path: PathBuf,
        /// What differs and how to proceed.
        message: String,
    },
    /// `install --frozen` found a difference between the lock and what the source gives.
    #[error("{message}")]
    Frozen {
        /// Every difference, one per line.
        message: String,
    },
    /// A skill's audit found something more severe than the installer was told to accept.
    #[error("`{name}` from `{source_spec}` is refused: {}", audit_summary(findings, *threshold))]
    AuditRefused {
        /// The skill's name.
        name: String,
        /// The source as given.
        source_spec: String,
        /// The most severe level that was accepted.
        threshold: skilldeck::AuditSeverity,
        /// The findings above it, most severe first.
        findings: Vec<skilldeck::AuditFinding>,
    },
    /// A plugin manifest (`plugin.json`) or a marketplace file (`marketplace.json`) is not
    /// one skilldeck can install from.
    #[error("{}: {message}", path.display())]
    InvalidManifest {
        /// The manifest file (or the plugin directory when none was found).
        path: PathBuf,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// A managed-settings policy (`strictKnownMarketplaces`, `blockedMarketplaces`) or a
    /// reserved marketplace name refuses the operation.
    #[error("{message}")]
    Policy {
        /// Which rule refused what, and where the rule is set.
        message: String,
    },
    /// The lock file could not be read or written.
    #[error(transparent)]
    Lock(#[from] skilldeck::Error),
}

impl InstallError {
    /// A stable code, identical in every binding.
    pub fn code(&self) -> &'static str {
        match self {
            InstallError::BadSource { .. } => "BAD_SOURCE",
            InstallError::Io { .. } => "IO_ERROR",
            InstallError::Git { .. } => "GIT_ERROR",
            InstallError::Http { .. } => "HTTP_ERROR",
            InstallError::DigestMismatch { .. } => "DIGEST_MISMATCH",
            InstallError::UnsafeArchive { .. } => "UNSAFE_ARCHIVE",
            InstallError::TooLarge { .. } => "TOO_LARGE",
            InstallError::InvalidName { .. } => "INVALID_NAME",
            InstallError::NoSuchSkill { .. } => "NOT_FOUND",
            InstallError::Modified { .. } => "MODIFIED",
            InstallError::Frozen { .. } => "FROZEN_MISMATCH",
            InstallError::AuditRefused { .. } => "AUDIT_REFUSED",
            InstallError::InvalidManifest { .. } => "INVALID_MANIFEST",
            InstallError::Policy { .. } => "POLICY_BLOCKED",
            InstallError::Lock(err) => err.code(),
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        InstallError::Io {
            path: path.into(),
            source,
        }
    }
}

/// The refusal message: how many findings, the first few with their place, what to do.
fn audit_summary(
    findings: &[skilldeck::AuditFinding],
    threshold: skilldeck::AuditSeverity,
) -> String {
    let mut lines: Vec<String> = findings
        .iter()
        .take(3)
        .map(|f| {
            let at = match f.line {
                Some(line) => format!("{}:{line}", f.path),
                None => f.path.clone(),
            };
            format!("{} {} at {at}: {}", f.severity, f.code, f.message)
        })
        .collect();
    if findings.len() > 3 {
        lines.push(format!("and {} more", findings.len() - 3));
    }
    format!(
        "{} audit finding(s) above {threshold}: {}; read the whole report with `skilldeck audit` on the source, and if you trust it pass --max-severity critical (Python `max_severity`, Node `maxSeverity`)",
        findings.len(),
        lines.join("; ")
    )
}

/// Result of an install operation.
pub type Result<T> = std::result::Result<T, InstallError>;
