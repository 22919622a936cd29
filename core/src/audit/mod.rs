//! `audit`: an offline security report over a skill, a plugin or a tree of skills, meant to
//! be read before installing and after (issue 16). Nothing is executed and nothing is
//! followed: every file is read from disk (capped), symbolic links are inspected, not
//! traversed, and each finding carries a severity, a location and what to do about it.
//!
//! The checks are heuristics over text: they flag what a reviewer should look at (a
//! network command in a script, a `curl … | sh` in a `` !`…` `` block that runs at
//! activation, bidirectional Unicode, an injection phrase in a description), they do not
//! prove a skill safe. The severity says how much the finding needs a human: `critical`
//! findings are never legitimate in a skill (Trojan Source controls, invisible tag
//! characters, links out of the package, reverse shells, piping a download into a shell
//! that runs automatically).

mod commands;
mod files;
mod manifest;
mod text;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// How much a finding needs a human's attention; ordered from `Info` to `Critical`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditSeverity {
    /// Inventory: what the package contains that runs or reaches out (scripts, hooks).
    Info,
    /// Worth a glance: executables outside `scripts/`, links inside the package, big files.
    Low,
    /// Review before use: network commands in scripts, zero-width characters, shell grants.
    Medium,
    /// Likely harmful or deceptive unless explained: injection phrases, credential access,
    /// unrestricted shell, downloads piped into a shell from a script.
    High,
    /// Never legitimate in a skill: Trojan Source controls, invisible tag characters, links
    /// leaving the package, reverse shells, download-and-run at activation.
    Critical,
}

impl AuditSeverity {
    /// Every level, lowest first.
    pub const ALL: [AuditSeverity; 5] = [
        AuditSeverity::Info,
        AuditSeverity::Low,
        AuditSeverity::Medium,
        AuditSeverity::High,
        AuditSeverity::Critical,
    ];

    /// The lowercase name (`info` … `critical`).
    pub fn as_str(self) -> &'static str {
        match self {
            AuditSeverity::Info => "info",
            AuditSeverity::Low => "low",
            AuditSeverity::Medium => "medium",
            AuditSeverity::High => "high",
            AuditSeverity::Critical => "critical",
        }
    }
}

impl fmt::Display for AuditSeverity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for AuditSeverity {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Self> {
        AuditSeverity::ALL
            .into_iter()
            .find(|level| level.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = AuditSeverity::ALL.iter().map(|l| l.as_str()).collect();
                crate::Error::invalid_options(format!(
                    "unknown audit severity `{s}` (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// One thing a reviewer should look at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditFinding {
    pub severity: AuditSeverity,
    /// Stable kebab-case identifier of the check (`pipe-to-shell`, `bidi-control`, …).
    pub code: String,
    /// The file, relative to the audited root and `/`-separated (`""` for the root itself).
    pub path: String,
    /// 1-based line of the first occurrence, when the finding is in a text file.
    pub line: Option<u32>,
    /// 1-based column (in characters) of the first occurrence.
    pub column: Option<u32>,
    pub message: String,
    /// What to do about it.
    pub hint: String,
}

/// What was audited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditKind {
    /// One skill directory (it holds a `SKILL.md`).
    Skill,
    /// A plugin package (a plugin manifest at its root).
    Plugin,
    /// Any other directory (every `SKILL.md` below it is a skill of the report).
    Directory,
}

/// The result of [`audit`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditReport {
    /// The audited directory, as given (a `SKILL.md` path is reported as its directory).
    #[serde(serialize_with = "crate::serialize_path_lossy")]
    pub root: PathBuf,
    pub kind: AuditKind,
    /// Directories (relative to `root`, `/`-separated, `""` for the root) holding a
    /// `SKILL.md`, sorted.
    pub skills: Vec<String>,
    /// Files inspected (links and directories excluded).
    pub files: usize,
    /// Most severe first, then by path and line.
    pub findings: Vec<AuditFinding>,
}

impl AuditReport {
    /// The most severe finding's level, `None` when there is no finding.
    pub fn max_severity(&self) -> Option<AuditSeverity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// The findings strictly more severe than `threshold`: what an installer told
    /// `--max-severity threshold` refuses.
    pub fn above(&self, threshold: AuditSeverity) -> Vec<&AuditFinding> {
        self.findings
            .iter()
            .filter(|f| f.severity > threshold)
            .collect()
    }

    /// How many findings each level has, lowest level first.
    pub fn counts(&self) -> [(AuditSeverity, usize); 5] {
        AuditSeverity::ALL.map(|level| {
            let n = self.findings.iter().filter(|f| f.severity == level).count();
            (level, n)
        })
    }
}

/// Limits of one audit, so a hostile tree cannot make it slow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditOptions {
    /// Bytes read from each file; a longer file is reported `oversize-file` and only its
    /// head is scanned.
    pub max_file_bytes: u64,
    /// Files inspected; beyond it the audit stops with a `too-many-files` finding.
    pub max_files: usize,
    /// Directory levels walked below the root.
    pub max_depth: usize,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            max_file_bytes: 1024 * 1024,
            max_files: 10_000,
            max_depth: 32,
        }
    }
}

/// Why an audit could not start (problems inside the tree are findings, not errors).
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{}: {source}; give a skill directory, a SKILL.md, a plugin or a directory of skills", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a directory or a SKILL.md file; give a skill directory, a SKILL.md, a plugin or a directory of skills", path.display())]
    NotADirectory { path: PathBuf },
}

impl From<AuditError> for crate::Error {
    fn from(err: AuditError) -> Self {
        match err {
            AuditError::Io { path, source } => crate::Error::Io { path, source },
            err @ AuditError::NotADirectory { .. } => {
                crate::Error::invalid_options(err.to_string())
            }
        }
    }
}

/// Audit the skill, plugin or directory at `path` (a `SKILL.md` file stands for its
/// directory).
pub fn audit(path: &Path, options: &AuditOptions) -> Result<AuditReport, AuditError> {
    let meta = std::fs::metadata(path).map_err(|source| AuditError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let root = if meta.is_dir() {
        path.to_path_buf()
    } else if meta.is_file() && path.file_name().is_some_and(|n| n == "SKILL.md") {
        match path.parent() {
            Some(parent) if parent.as_os_str().is_empty() => PathBuf::from("."),
            Some(parent) => parent.to_path_buf(),
            None => PathBuf::from("."),
        }
    } else {
        return Err(AuditError::NotADirectory {
            path: path.to_path_buf(),
        });
    };
    let inventory = files::inventory(&root, options).map_err(|source| AuditError::Io {
        path: root.clone(),
        source,
    })?;
    let kind = if inventory.is_plugin() {
        AuditKind::Plugin
    } else if inventory.skills.iter().any(String::is_empty) {
        AuditKind::Skill
    } else {
        AuditKind::Directory
    };
    let mut findings = inventory.findings.clone();
    for file in &inventory.files {
        let Some(bytes) = &file.bytes else { continue };
        let role = files::role(file, &inventory);
        findings.extend(text::check(file, bytes, role));
        findings.extend(commands::check(file, bytes, role));
        findings.extend(manifest::check(file, bytes, role));
    }
    if kind == AuditKind::Directory {
        // In a tree of skills, hidden folders are the hosts' own roots (`.agents/skills`,
        // `.claude/skills`): only what hides inside a skill is worth a look.
        findings.retain(|f| {
            f.code != "hidden-file"
                || inventory.skills.iter().any(|s| {
                    f.path
                        .strip_prefix(s.as_str())
                        .is_some_and(|r| r.starts_with('/'))
                })
        });
    }
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.column.cmp(&b.column))
            .then_with(|| a.code.cmp(&b.code))
    });
    findings.dedup();
    Ok(AuditReport {
        root,
        kind,
        skills: inventory.skills.clone(),
        files: inventory.files.len(),
        findings,
    })
}

/// 1-based line and character column of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(start..).map_or(0, |s| s.chars().count()) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

pub(crate) fn finding(
    severity: AuditSeverity,
    code: &str,
    path: &str,
    at: Option<(u32, u32)>,
    message: String,
    hint: &str,
) -> AuditFinding {
    AuditFinding {
        severity,
        code: code.to_string(),
        path: path.to_string(),
        line: at.map(|(l, _)| l),
        column: at.map(|(_, c)| c),
        message,
        hint: hint.to_string(),
    }
}

#[cfg(test)]
mod tests;
