//! `audit`: the engine's offline security report (`skilldeck::audit`) as typed records, and
//! the records `add` reports its per-skill audit with. The finding, severity and kind are
//! the core's own types mirrored with `#[uniffi::remote]`; the report is copied because its
//! `files` count is a `usize`, which uniffi lacks.

use crate::error::SkillError;
use crate::records::canonical_json;
use crate::remote::FsPath;
use skilldeck::{AuditFinding, AuditKind, AuditSeverity};
use skilldeck_install::SkillAudit;

/// How much a finding needs a human's attention, from `INFO` to `CRITICAL` (Swift: `.info`
/// … `.critical`), the same lowercase names as the other bindings' strings.
#[uniffi::remote(Enum)]
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

/// What was audited.
#[uniffi::remote(Enum)]
pub enum AuditKind {
    /// One skill directory (it holds a `SKILL.md`).
    Skill,
    /// A plugin package (a plugin manifest at its root).
    Plugin,
    /// Any other directory (every `SKILL.md` below it is a skill of the report).
    Directory,
}

/// One thing a reviewer should look at.
#[uniffi::remote(Record)]
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

/// One installed skill's audit findings (`AddReport.audit`).
#[uniffi::remote(Record)]
pub struct SkillAudit {
    /// The skill's name.
    pub name: String,
    /// Its findings, most severe first; paths are relative to the skill directory.
    pub findings: Vec<AuditFinding>,
}

/// Limits of one audit, so a hostile tree cannot make it slow; `null` keeps the engine's
/// default.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct AuditOptions {
    /// Bytes read from each file (default 1 MiB); a longer file is reported
    /// `oversize-file` and only its head is scanned.
    #[uniffi(default)]
    pub max_file_bytes: Option<u64>,
    /// Files inspected (default 10,000); beyond it the audit stops with a `too-many-files`
    /// finding.
    #[uniffi(default)]
    pub max_files: Option<u64>,
    /// Directory levels walked below the root (default 32).
    #[uniffi(default)]
    pub max_depth: Option<u64>,
}

impl AuditOptions {
    fn to_core(&self) -> skilldeck::AuditOptions {
        let defaults = skilldeck::AuditOptions::default();
        skilldeck::AuditOptions {
            max_file_bytes: self.max_file_bytes.unwrap_or(defaults.max_file_bytes),
            max_files: self.max_files.map_or(defaults.max_files, to_usize),
            max_depth: self.max_depth.map_or(defaults.max_depth, to_usize),
        }
    }
}

// A cap beyond the address space cannot be reached, so it means "no cap".
fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// What `audit` found.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct AuditReport {
    /// The audited directory, as given (a `SKILL.md` path is reported as its directory).
    pub root: FsPath,
    pub kind: AuditKind,
    /// Directories (relative to `root`, `/`-separated, `""` for the root) holding a
    /// `SKILL.md`, sorted.
    pub skills: Vec<String>,
    /// Files inspected (links and directories excluded).
    pub files: u64,
    /// Most severe first, then by path and line.
    pub findings: Vec<AuditFinding>,
}

impl From<skilldeck::AuditReport> for AuditReport {
    fn from(r: skilldeck::AuditReport) -> Self {
        AuditReport {
            root: r.root,
            kind: r.kind,
            skills: r.skills,
            files: u64::try_from(r.files).unwrap_or(u64::MAX),
            findings: r.findings,
        }
    }
}

#[uniffi::export]
impl AuditReport {
    /// Canonical JSON (the engine's serde form), the same text every binding produces.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::AuditReport {
            root: self.root.clone(),
            kind: self.kind,
            skills: self.skills.clone(),
            files: to_usize(self.files),
            findings: self.findings.clone(),
        })
    }
}

/// Audit a skill directory, a SKILL.md, a plugin or a directory of skills: scripts, network
/// and exfiltration commands, hidden Unicode, injection phrases, links leaving the package,
/// shell grants, hooks and MCP servers. Nothing is executed or followed. Findings are
/// sorted most severe first. Throws `IoError` when `path` cannot be read and
/// `InvalidOptionsError` when it is neither a directory nor a SKILL.md. Blocks until done.
#[uniffi::export(default(options))]
pub fn audit(path: String, options: AuditOptions) -> Result<AuditReport, SkillError> {
    let report = skilldeck::audit(std::path::Path::new(&path), &options.to_core())
        .map_err(skilldeck::Error::from)?;
    Ok(report.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_keep_the_engine_defaults_unless_given() {
        let defaults = skilldeck::AuditOptions::default();
        assert_eq!(AuditOptions::default().to_core(), defaults);
        let given = AuditOptions {
            max_files: Some(2),
            max_depth: Some(u64::MAX),
            ..Default::default()
        };
        let core = given.to_core();
        assert_eq!(core.max_files, 2);
        assert_eq!(core.max_depth, usize::MAX);
        assert_eq!(core.max_file_bytes, defaults.max_file_bytes);
    }

    #[test]
    fn audit_errors_map_to_io_and_invalid_options() {
        let dir =
            std::env::temp_dir().join(format!("skilldeck-uniffi-audit-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| e.to_string())
            .unwrap();
        let missing = dir.join("missing").to_string_lossy().into_owned();
        let err = audit(missing, AuditOptions::default())
            .err()
            .map(|e| e.code().to_string());
        assert_eq!(err.as_deref(), Some("IO_ERROR"));
        let notes = dir.join("notes.txt");
        std::fs::write(&notes, "x")
            .map_err(|e| e.to_string())
            .unwrap();
        let err = audit(
            notes.to_string_lossy().into_owned(),
            AuditOptions::default(),
        )
        .err()
        .map(|e| e.code().to_string());
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(err.as_deref(), Some("INVALID_OPTIONS"));
    }
}
