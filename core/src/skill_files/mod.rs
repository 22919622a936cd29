//! A skill's files as the MCP Skills extension (SEP-2640) publishes them: the complete file
//! manifest (relative path, size, `sha256:` digest of the raw bytes) within the
//! extension's per-skill limits, the `SKILL.md` frontmatter rendered verbatim as a JSON
//! object, confined reads of one listed file, and the size/digest check a client applies
//! to what it fetched. Pure data and hashing; the protocol lives in `skilldeck-mcp`.

use crate::lock::file_digest as sha256_digest;

use serde_json::{Map, Value};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The extension's limit on files per skill (`SKILL.md` included).
pub const MAX_SKILL_FILES: usize = 512;
/// The extension's limit on the sum of a skill's file sizes (16 MiB).
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;
/// Directory levels walked below a skill root; deeper trees are refused, not truncated,
/// because a manifest must be complete.
const MAX_DEPTH: usize = 32;

/// One file of a skill.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SkillFile {
    /// Path relative to the skill directory, `/`-separated (`SKILL.md`, `scripts/run.sh`).
    pub path: String,
    /// Length of the raw bytes.
    pub size: u64,
    /// `sha256:` and 64 lowercase hexadecimal characters, over the raw bytes.
    pub digest: String,
}

/// Every file of one skill, sorted by path, `SKILL.md` included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileManifest {
    pub files: Vec<SkillFile>,
    /// Sum of the files' sizes.
    pub total_bytes: u64,
}

impl FileManifest {
    /// The entry for `path` (relative, `/`-separated), if the skill has that file.
    pub fn get(&self, path: &str) -> Option<&SkillFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .and_then(|i| self.files.get(i))
    }

    /// True when `dir` (relative, `/`-separated, `""` for the skill root) is a directory
    /// holding at least one listed file.
    pub fn is_directory(&self, dir: &str) -> bool {
        dir.is_empty()
            || self
                .files
                .iter()
                .any(|f| f.path.strip_prefix(dir).is_some_and(|r| r.starts_with('/')))
    }

    /// The direct children of directory `dir` (`""` for the root): `(name, is_directory)`,
    /// sorted by name, each once.
    pub fn children(&self, dir: &str) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = Vec::new();
        for file in &self.files {
            let rest = if dir.is_empty() {
                Some(file.path.as_str())
            } else {
                file.path
                    .strip_prefix(dir)
                    .and_then(|r| r.strip_prefix('/'))
            };
            let Some(rest) = rest else { continue };
            let child = match rest.split_once('/') {
                Some((name, _)) => (name.to_string(), true),
                None => (rest.to_string(), false),
            };
            if !out.contains(&child) {
                out.push(child);
            }
        }
        out.sort();
        out
    }
}

/// Why a skill's files cannot be published or a fetched file was refused.
#[derive(Debug, thiserror::Error)]
pub enum SkillFilesError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: more than {limit} files; the MCP Skills extension caps a skill at {limit} files, so move bulk data out of the skill directory", dir.display())]
    TooManyFiles { dir: PathBuf, limit: usize },
    #[error("{}: more than {limit} bytes of files; the MCP Skills extension caps a skill at 16 MiB, so move large files out of the skill directory", dir.display())]
    TooLarge { dir: PathBuf, limit: u64 },
    #[error("{}: deeper than {limit} directory levels; a skill's manifest must be complete, so flatten the tree", dir.display())]
    TooDeep { dir: PathBuf, limit: usize },
    #[error("{}: the file name is not UTF-8 and cannot be written in a URI; rename it", path.display())]
    NonUtf8Name { path: PathBuf },
    #[error("{}: `{file}` is not a file of this skill (only listed, non-hidden regular files inside the skill directory are served)", dir.display())]
    NotInSkill { dir: PathBuf, file: String },
    #[error("{}: frontmatter cannot be published: {reason}", path.display())]
    Frontmatter { path: PathBuf, reason: String },
    #[error("{origin}: {size} bytes received but the manifest says {expected}; the content is not what the entry describes (refresh the entry with skills/get)")]
    SizeMismatch {
        origin: String,
        expected: u64,
        size: u64,
    },
    #[error("{origin}: digest {digest} but the manifest says {expected}; the content is not what the entry describes (refresh the entry with skills/get)")]
    DigestMismatch {
        origin: String,
        expected: String,
        digest: String,
    },
}

/// Compute the manifest of the skill whose directory is `dir` from the bytes on disk.
///
/// Every regular file below `dir` is listed. Hidden entries (names starting with `.`) and
/// symbolic links are left out and never served: a dotfile is usually local state or a
/// secret, and a link can point outside the skill. Over [`MAX_SKILL_FILES`] files or
/// [`MAX_SKILL_BYTES`] bytes is an error (the extension says such a skill should not be
/// served), checked from metadata before any oversized read.
pub fn file_manifest(dir: &Path) -> Result<FileManifest, SkillFilesError> {
    let mut files = Vec::new();
    let mut total = 0u64;
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SkillFilesError::Io { path, source }
    };
    while let Some((current, depth)) = stack.pop() {
        for entry in std::fs::read_dir(&current).map_err(io(&current))? {
            let entry = entry.map_err(io(&current))?;
            let path = entry.path();
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                return Err(SkillFilesError::NonUtf8Name { path });
            };
            if name.starts_with('.') {
                continue;
            }
            let kind = entry.file_type().map_err(io(&path))?;
            if kind.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    return Err(SkillFilesError::TooDeep {
                        dir: dir.to_path_buf(),
                        limit: MAX_DEPTH,
                    });
                }
                stack.push((path, depth + 1));
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            if files.len() == MAX_SKILL_FILES {
                return Err(SkillFilesError::TooManyFiles {
                    dir: dir.to_path_buf(),
                    limit: MAX_SKILL_FILES,
                });
            }
            let size = entry.metadata().map_err(io(&path))?.len();
            if total.saturating_add(size) > MAX_SKILL_BYTES {
                return Err(SkillFilesError::TooLarge {
                    dir: dir.to_path_buf(),
                    limit: MAX_SKILL_BYTES,
                });
            }
            let bytes = read_capped(&path, MAX_SKILL_BYTES - total)?;
            total += bytes.len() as u64;
            files.push(SkillFile {
                path: relative(dir, &path),
                size: bytes.len() as u64,
                digest: sha256_digest(&bytes),
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(FileManifest {
        files,
        total_bytes: total,
    })
}

/// Read the file at `file` (relative, `/`-separated) of the skill in `dir`, confined to
/// it: no `..`, no absolute or empty segments, no hidden segment, no symbolic link on the
/// way, a regular file, at most [`MAX_SKILL_BYTES`].
pub fn read_skill_file(dir: &Path, file: &str) -> Result<Vec<u8>, SkillFilesError> {
    let refuse = || SkillFilesError::NotInSkill {
        dir: dir.to_path_buf(),
        file: file.to_string(),
    };
    if file.is_empty() || file.contains('\\') || file.contains('\0') {
        return Err(refuse());
    }
    let mut path = dir.to_path_buf();
    for segment in file.split('/') {
        let ok = matches!(
            Path::new(segment).components().collect::<Vec<_>>()[..],
            [Component::Normal(_)]
        );
        if !ok || segment.starts_with('.') {
            return Err(refuse());
        }
        path.push(segment);
        // A segment swapped for a link after the manifest was computed must not lead out.
        let meta = std::fs::symlink_metadata(&path).map_err(|_| refuse())?;
        if meta.file_type().is_symlink() {
            return Err(refuse());
        }
    }
    let meta = std::fs::symlink_metadata(&path).map_err(|_| refuse())?;
    if !meta.is_file() {
        return Err(refuse());
    }
    read_capped(&path, MAX_SKILL_BYTES)
}

/// Check fetched `bytes` against a manifest entry: size first (a wrong length is a
/// failure whether or not the digest is computed), then the digest. `origin` names the
/// content in the error (server and URI).
pub fn verify_bytes(
    origin: &str,
    bytes: &[u8],
    size: u64,
    digest: &str,
) -> Result<(), SkillFilesError> {
    let actual = bytes.len() as u64;
    if actual != size {
        return Err(SkillFilesError::SizeMismatch {
            origin: origin.to_string(),
            expected: size,
            size: actual,
        });
    }
    let computed = sha256_digest(bytes);
    if computed != digest {
        return Err(SkillFilesError::DigestMismatch {
            origin: origin.to_string(),
            expected: digest.to_string(),
            digest: computed,
        });
    }
    Ok(())
}

/// The frontmatter of a `SKILL.md` (its raw bytes) as a JSON object with every field the
/// author wrote, in source order, typed by YAML 1.2's core schema. `path` only names the
/// file in errors. Fails when the file is not UTF-8, has no closed frontmatter, the YAML
/// does not parse or is not a mapping, or `name`/`description` is missing or not text:
/// the extension requires both, and a repaired or guessed frontmatter would not be
/// verbatim.
pub fn frontmatter_json(path: &Path, bytes: &[u8]) -> Result<Map<String, Value>, SkillFilesError> {
    let fail = |reason: String| SkillFilesError::Frontmatter {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::str::from_utf8(bytes)
        .map_err(|e| fail(format!("the file is not UTF-8 ({e}); save it as UTF-8")))?;
    let split = crate::parse::split(text);
    if split.fences != crate::parse::Fences::Closed {
        return Err(fail(
            "no frontmatter between `---` lines at the top of the file; add one with `name` and `description`".into(),
        ));
    }
    let entries = match crate::parse::yaml::load(&split.yaml) {
        Ok(crate::parse::yaml::Loaded::Mapping(entries)) => entries,
        Ok(crate::parse::yaml::Loaded::Empty) => Vec::new(),
        Ok(crate::parse::yaml::Loaded::NotMapping(what)) => {
            return Err(fail(format!(
                "the frontmatter is {what}, not a mapping of fields; write `key: value` lines"
            )))
        }
        Err(err) => {
            return Err(fail(format!(
                "YAML error{}: {}; run `skilldeck validate` on the file",
                err.line
                    .map(|l| format!(" on line {}", l + split.yaml_line - 1))
                    .unwrap_or_default(),
                err.message
            )))
        }
    };
    let mut map = Map::new();
    for entry in entries {
        map.insert(entry.key, entry.value);
    }
    for key in ["name", "description"] {
        match map.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            _ => {
                return Err(fail(format!(
                "`{key}` is missing or not text; the extension requires `name` and `description`"
            )))
            }
        }
    }
    Ok(map)
}

/// True when `name` follows the Agent Skills naming rules: 1–64 characters, lowercase
/// letters, digits and single hyphens, not starting or ending with a hyphen.
pub fn is_spec_name(name: &str) -> bool {
    let chars = name.chars().count();
    (1..=64).contains(&chars)
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.to_lowercase() == name
        && name.chars().all(|c| c.is_alphanumeric() || c == '-')
}

fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, SkillFilesError> {
    let file = std::fs::File::open(path).map_err(|source| SkillFilesError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut bytes = Vec::new();
    // One byte past the limit tells a file that grew since its metadata was read.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| SkillFilesError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(SkillFilesError::TooLarge {
            dir: path.to_path_buf(),
            limit: MAX_SKILL_BYTES,
        });
    }
    Ok(bytes)
}

fn relative(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests;
