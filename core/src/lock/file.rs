//! `skills-lock.json`: the `skills` CLI's v1 format (`version`, `skills.<name>.{source, ref,
//! sourceType, computedHash}`) plus what it lacks — where the skill came from exactly
//! (`url`, `subpath`, `commit`, `sha256`), where it is installed (`path`, `links`) and what
//! was installed (`digest`, `files`). Fields other tools wrote are kept as they were.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The file name of a project's lock, at the project root.
pub const LOCK_FILE_NAME: &str = "skills-lock.json";
/// The format version written (the `skills` CLI's current version).
pub const LOCK_VERSION: u32 = 1;

/// A whole lock file. Skills are keyed by name; a `BTreeMap` keeps them sorted so the output
/// is deterministic and two branches adding different skills merge cleanly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockFile {
    /// Format version; `1`.
    pub version: u32,
    /// The installed skills by name.
    #[serde(default)]
    pub skills: BTreeMap<String, LockEntry>,
    /// Top-level fields written by other tools, kept on rewrite.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl Default for LockFile {
    fn default() -> Self {
        LockFile {
            version: LOCK_VERSION,
            skills: BTreeMap::new(),
            extra: BTreeMap::new(),
        }
    }
}

/// One installed skill.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockEntry {
    /// Where the skill came from as the user wrote it (`owner/repo`, a URL, a path).
    pub source: String,
    /// The branch, tag or commit asked for, when one was.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub git_ref: Option<String>,
    /// `github`, `git`, `local`, `archive` or `well-known`.
    pub source_type: String,
    /// The `skills` CLI's own folder hash (see [`super::skills_cli_hash`]), so it reads us.
    #[serde(default)]
    pub computed_hash: String,
    /// The URL actually fetched (clone URL, archive URL, index URL); absent for local sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The skill's directory inside the source (`skills/pdf`); absent when it is the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
    /// The resolved git commit (full SHA), for git sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The archive's pinned `sha256:<hex>`, for archive sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Where the real copy is, relative to the lock's base (project root or home), `/`-separated.
    #[serde(default)]
    pub path: String,
    /// Other install locations that point at the real copy (symlinks or copies), same base.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    /// The skill digest (`sha256:<hex>`) of the installed files.
    #[serde(default)]
    pub digest: String,
    /// Every installed file, `/`-separated relative path → `sha256:<hex>`.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Fields other tools wrote on this entry, kept on rewrite.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl LockFile {
    /// Read a lock file; a missing file is an empty lock. A file that is not a lock (bad
    /// JSON, wrong shape, a version newer than this reader) is an error naming the file.
    pub fn read(path: &Path) -> Result<LockFile> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(LockFile::default())
            }
            Err(err) => return Err(Error::io(path, err)),
        };
        Self::parse(&text, path)
    }

    /// Parse lock text; `path` names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<LockFile> {
        let lock: LockFile = serde_json::from_str(text).map_err(|err| Error::Parse {
            path: path.to_path_buf(),
            line: u32::try_from(err.line()).ok().filter(|l| *l > 0),
            message: format!(
                "not a skills lock file ({err}); fix the JSON or delete the file and reinstall"
            ),
        })?;
        if lock.version > LOCK_VERSION {
            return Err(Error::Parse {
                path: path.to_path_buf(),
                line: None,
                message: format!(
                    "lock version {} is newer than this skilldeck reads ({LOCK_VERSION}); upgrade skilldeck",
                    lock.version
                ),
            });
        }
        Ok(lock)
    }

    /// The lock as text: two-space indented JSON, keys sorted, one trailing newline (the
    /// `skills` CLI writes the same shape, so diffs stay small when both tools are used).
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Write atomically: a temporary file in the same directory, flushed, then renamed over
    /// `path`, so a reader sees the old lock or the new one, never half of one.
    pub fn write(&self, path: &Path) -> Result<()> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| LOCK_FILE_NAME.to_string());
        // Unique per process and per call, so two writers (threads of one binding host)
        // never share a temporary file.
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{file_name}.{}.{seq}.tmp", std::process::id()));
        let result = (|| {
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(self.to_text().as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if let Err(err) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io(path, err));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILLS_CLI: &str = r#"{
  "version": 1,
  "skills": {
    "pdf": {
      "source": "anthropics/skills",
      "ref": "main",
      "sourceType": "github",
      "computedHash": "abc"
    }
  }
}
"#;

    #[test]
    fn reads_the_skills_cli_format_and_keeps_unknown_fields() {
        let text = SKILLS_CLI.replace(
            "\"computedHash\": \"abc\"",
            "\"computedHash\": \"abc\", \"future\": 1",
        );
        let lock = LockFile::parse(&text, Path::new("skills-lock.json")).unwrap();
        let entry = &lock.skills["pdf"];
        assert_eq!(entry.source, "anthropics/skills");
        assert_eq!(entry.git_ref.as_deref(), Some("main"));
        assert_eq!(entry.source_type, "github");
        assert_eq!(entry.extra["future"], 1);
        assert!(lock.to_text().contains("\"future\": 1"));
    }

    #[test]
    fn output_is_sorted_and_stable() {
        let mut lock = LockFile::default();
        for name in ["zeta", "alpha", "mid"] {
            lock.skills.insert(
                name.into(),
                LockEntry {
                    source: format!("./{name}"),
                    source_type: "local".into(),
                    ..Default::default()
                },
            );
        }
        let text = lock.to_text();
        let a = text.find("\"alpha\"").unwrap();
        let m = text.find("\"mid\"").unwrap();
        let z = text.find("\"zeta\"").unwrap();
        assert!(a < m && m < z);
        let again = LockFile::parse(&text, Path::new("x")).unwrap().to_text();
        assert_eq!(text, again);
    }

    #[test]
    fn bad_lock_names_file_and_line() {
        let err = LockFile::parse(
            "{\n  \"version\": 1,\n  \"skills\": [\n",
            Path::new("l.json"),
        )
        .unwrap_err();
        assert_eq!(err.code(), "PARSE_ERROR");
        assert!(err.to_string().contains("l.json"));
        let newer = LockFile::parse(r#"{"version": 9, "skills": {}}"#, Path::new("l.json"));
        assert!(newer.unwrap_err().to_string().contains("upgrade"));
    }

    #[test]
    fn atomic_write_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE_NAME);
        assert_eq!(LockFile::read(&path).unwrap(), LockFile::default());
        let lock = LockFile::parse(SKILLS_CLI, &path).unwrap();
        lock.write(&path).unwrap();
        assert_eq!(LockFile::read(&path).unwrap(), lock);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }
}
