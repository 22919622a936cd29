//! Hashing an installed skill directory and comparing it with its lock entry.

use super::digest::{file_digest, skill_digest, skills_cli_hash};
use super::file::LockEntry;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The digests of a directory's regular files.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeHash {
    /// `/`-separated relative path → `sha256:<hex>`.
    pub files: BTreeMap<String, String>,
    /// The skill digest over `files`.
    pub digest: String,
    /// The `skills` CLI's `computedHash` over the same files.
    pub computed_hash: String,
    /// Entries that are neither files nor directories (symlinks, sockets, …), never followed.
    pub others: Vec<String>,
}

/// What differs between an installed directory and its lock entry; every list sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeDiff {
    /// Files whose bytes differ from the recorded digest (or that are no longer regular files).
    pub changed: Vec<String>,
    /// Files present but not recorded.
    pub added: Vec<String>,
    /// Files recorded but absent.
    pub missing: Vec<String>,
}

impl TreeDiff {
    /// True when the directory is exactly what the lock records.
    pub fn is_clean(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.missing.is_empty()
    }
}

/// Hash every regular file under `dir` (symlinks are listed in `others`, never followed).
/// A missing directory hashes as empty.
pub fn hash_tree(dir: &Path) -> Result<TreeHash> {
    let mut contents: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut others = Vec::new();
    match std::fs::symlink_metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(Error::io(dir, err)),
        Ok(meta) if meta.is_dir() => walk(dir, "", &mut contents, &mut others)?,
        Ok(_) => {
            return Err(Error::InvalidOptions {
                message: format!(
                    "{} is not a directory; remove it or install the skill elsewhere",
                    dir.display()
                ),
            })
        }
    }
    let files: BTreeMap<String, String> = contents
        .iter()
        .map(|(path, bytes)| (path.clone(), file_digest(bytes)))
        .collect();
    let digest =
        skill_digest(files.iter().map(|(p, d)| (p.as_str(), d.as_str()))).unwrap_or_default();
    let computed_hash = skills_cli_hash(contents.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
    Ok(TreeHash {
        files,
        digest,
        computed_hash,
        others,
    })
}

fn walk(
    dir: &Path,
    prefix: &str,
    files: &mut BTreeMap<String, Vec<u8>>,
    others: &mut Vec<String>,
) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            return Err(Error::InvalidOptions {
                message: format!(
                    "{}: the file name is not UTF-8, so a lock cannot record it; rename it",
                    path.display()
                ),
            });
        };
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
        if kind.is_dir() {
            walk(&path, &rel, files, others)?;
        } else if kind.is_file() {
            let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            files.insert(rel, bytes);
        } else {
            others.push(rel);
        }
    }
    others.sort();
    Ok(())
}

/// Compare the directory `dir` with what `entry` records.
pub fn verify_tree(dir: &Path, entry: &LockEntry) -> Result<TreeDiff> {
    let tree = hash_tree(dir)?;
    Ok(diff(&entry.files, &tree))
}

/// The difference between recorded digests and a hashed tree.
pub fn diff(recorded: &BTreeMap<String, String>, tree: &TreeHash) -> TreeDiff {
    let mut out = TreeDiff::default();
    for (path, digest) in recorded {
        match tree.files.get(path) {
            Some(actual) if actual == digest => {}
            Some(_) => out.changed.push(path.clone()),
            None if tree.others.contains(path) => out.changed.push(path.clone()),
            None => out.missing.push(path.clone()),
        }
    }
    for path in tree.files.keys().chain(tree.others.iter()) {
        if !recorded.contains_key(path) {
            out.added.push(path.clone());
        }
    }
    out.added.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn reports_changed_added_missing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("demo");
        fs::create_dir_all(root.join("scripts")).unwrap();
        fs::write(root.join("SKILL.md"), "# Hello\n").unwrap();
        fs::write(root.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        let tree = hash_tree(&root).unwrap();
        assert_eq!(
            tree.digest,
            "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"
        );
        let entry = LockEntry {
            files: tree.files.clone(),
            ..Default::default()
        };
        assert!(verify_tree(&root, &entry).unwrap().is_clean());

        fs::write(root.join("SKILL.md"), "# Changed\n").unwrap();
        fs::remove_file(root.join("scripts/run.sh")).unwrap();
        fs::write(root.join("extra.txt"), "x").unwrap();
        let diff = verify_tree(&root, &entry).unwrap();
        assert_eq!(diff.changed, ["SKILL.md"]);
        assert_eq!(diff.missing, ["scripts/run.sh"]);
        assert_eq!(diff.added, ["extra.txt"]);
        assert!(!diff.is_clean());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("secret"), "s").unwrap();
        let root = dir.path().join("demo");
        fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), root.join("link")).unwrap();
        let tree = hash_tree(&root).unwrap();
        assert!(tree.files.is_empty());
        assert_eq!(tree.others, ["link"]);
    }

    #[test]
    fn missing_directory_is_all_missing() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = BTreeMap::new();
        files.insert("SKILL.md".to_string(), file_digest(b"x"));
        let entry = LockEntry {
            files,
            ..Default::default()
        };
        let diff = verify_tree(&dir.path().join("gone"), &entry).unwrap();
        assert_eq!(diff.missing, ["SKILL.md"]);
    }
}
