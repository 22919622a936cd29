//! Sites publishing an Agent Skills discovery index (`/.well-known/agent-skills/index.json`,
//! or the v0.1 location `/.well-known/skills/index.json`). Both published 0.2.0 shapes are
//! read:
//!
//! - the RFC's (`cloudflare/agent-skills-discovery-rfc`): `{name, description, digest,
//!   files: [{path, digest}], package?: {url, digest}}`, each file fetched from
//!   `{name}/{path}` beside the index and checked against its digest, then the skill digest;
//!   v0.1 `files` as plain strings are fetched without digests (a warning says so);
//! - the typed-entry shape (`{name, type: "skill-md" | "archive", description, url,
//!   digest}`): one `SKILL.md` or one archive, checked against `digest` before use.

use crate::archive::{self, ExtractLimits, Kind};
use crate::error::{InstallError, Result};
use crate::http;
use crate::Limits;
use serde::Deserialize;
use serde_json::Value;
use skilldeck::digest_hex;
use std::path::Path;

#[derive(Deserialize)]
struct Index {
    #[serde(default)]
    skills: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FileRef {
    Digest { path: String, digest: String },
    Plain(String),
}

/// The index URL for a SOURCE: itself when it names a JSON file, else the v0.2 location
/// first and the v0.1 location second.
fn candidates(url: &str) -> Vec<String> {
    let trimmed = url.split(['?', '#']).next().unwrap_or(url);
    if trimmed.ends_with(".json") {
        return vec![url.to_string()];
    }
    let base = trimmed.trim_end_matches('/');
    let base = base.split("/.well-known/").next().unwrap_or(base);
    vec![
        format!("{base}/.well-known/agent-skills/index.json"),
        format!("{base}/.well-known/skills/index.json"),
    ]
}

/// Fetch the index and every listed skill into `dest/<name>/`, verifying digests. Returns
/// the index URL used and warnings.
pub fn fetch(
    url: &str,
    dest: &Path,
    limits: &Limits,
    wanted: &[String],
) -> Result<(String, Vec<String>)> {
    let mut last_err = None;
    let mut found = None;
    for candidate in candidates(url) {
        match http::get(&candidate, limits.max_download_bytes, limits.timeout) {
            Ok(bytes) => {
                found = Some((candidate, bytes));
                break;
            }
            Err(err) => last_err = Some(err),
        }
    }
    let Some((index_url, bytes)) = found else {
        return Err(last_err.unwrap_or_else(|| InstallError::Http {
            url: url.to_string(),
            message: "no index found".into(),
        }));
    };
    let index: Index = serde_json::from_slice(&bytes).map_err(|err| InstallError::Http {
        url: index_url.clone(),
        message: format!("not a skills index ({err})"),
    })?;
    let mut warnings = Vec::new();
    for entry in &index.skills {
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            warnings.push(format!("{index_url}: an entry without `name` was skipped"));
            continue;
        };
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        if let Some(problem) = skilldeck::skill_name_problem(name) {
            return Err(InstallError::InvalidName {
                path: index_url.clone().into(),
                message: problem,
            });
        }
        let skill_dir = dest.join(name);
        std::fs::create_dir_all(&skill_dir).map_err(|e| InstallError::io(&skill_dir, e))?;
        let digest = entry.get("digest").and_then(Value::as_str);
        if let Some(files) = entry.get("files") {
            let files: Vec<FileRef> =
                serde_json::from_value(files.clone()).map_err(|err| InstallError::Http {
                    url: index_url.clone(),
                    message: format!("`{name}`: bad `files` ({err})"),
                })?;
            fetch_files(
                &index_url,
                name,
                &files,
                digest,
                &skill_dir,
                limits,
                &mut warnings,
            )?;
        } else {
            let kind = entry
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("skill-md");
            let Some(file_url) = entry.get("url").and_then(Value::as_str) else {
                return Err(InstallError::Http {
                    url: index_url.clone(),
                    message: format!("`{name}` has neither `files` nor `url`"),
                });
            };
            let Some(digest) = digest else {
                return Err(InstallError::Http {
                    url: index_url.clone(),
                    message: format!("`{name}` has no `digest`, so it cannot be verified"),
                });
            };
            let full = http::join(&index_url, file_url);
            let body = http::get(&full, limits.max_download_bytes, limits.timeout)?;
            check(&format!("{name} ({full})"), digest, &body)?;
            if kind == "archive" {
                let kind = Kind::from_url(&full).unwrap_or(Kind::TarGz);
                archive::extract(&body, kind, &skill_dir, &full, extract_limits(limits))?;
            } else {
                let path = skill_dir.join("SKILL.md");
                std::fs::write(&path, &body).map_err(|e| InstallError::io(&path, e))?;
            }
        }
    }
    Ok((index_url, warnings))
}

fn fetch_files(
    index_url: &str,
    name: &str,
    files: &[FileRef],
    skill_digest: Option<&str>,
    skill_dir: &Path,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let mut digests = Vec::new();
    let mut unverified = false;
    if files.len() > limits.max_files {
        return Err(InstallError::TooLarge {
            path: skill_dir.to_path_buf(),
            message: format!(
                "`{name}` lists {} files; the cap is {}",
                files.len(),
                limits.max_files
            ),
        });
    }
    for file in files {
        let (path, digest) = match file {
            FileRef::Digest { path, digest } => (path.as_str(), Some(digest.as_str())),
            FileRef::Plain(path) => (path.as_str(), None),
        };
        let safe = !path.is_empty()
            && !path.starts_with('/')
            && path
                .split('/')
                .all(|p| !p.is_empty() && p != ".." && p != ".")
            && path
                .bytes()
                .all(|b| (0x20..0x7f).contains(&b) && !b"\\?#[]".contains(&b));
        if !safe {
            return Err(InstallError::UnsafeArchive {
                archive: index_url.to_string(),
                entry: format!("{name}/{path}"),
                reason: "is not a plain relative path".into(),
            });
        }
        let url = http::join(index_url, &format!("{name}/{path}"));
        let body = http::get(&url, limits.max_bytes, limits.timeout)?;
        match digest {
            Some(digest) => {
                check(&format!("{name}/{path}"), digest, &body)?;
                digests.push((path.to_string(), digest.to_string()));
            }
            None => unverified = true,
        }
        let dest = skill_dir.join(path);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
        }
        std::fs::write(&dest, &body).map_err(|e| InstallError::io(&dest, e))?;
    }
    if unverified {
        warnings.push(format!(
            "{index_url}: `{name}` is listed in the v0.1 format without digests; its files could not be verified"
        ));
    } else if let Some(expected) = skill_digest {
        let actual = skilldeck::skill_digest(digests.iter().map(|(p, d)| (p.as_str(), d.as_str())))
            .map_err(|e| InstallError::Http {
                url: index_url.to_string(),
                message: e.to_string(),
            })?;
        if digest_hex(expected).ok() != digest_hex(&actual).ok() {
            return Err(InstallError::DigestMismatch {
                what: format!("skill digest of `{name}`"),
                expected: expected.to_string(),
                actual,
            });
        }
    }
    Ok(())
}

/// Refuse `body` unless it hashes to `expected`.
pub fn check(what: &str, expected: &str, body: &[u8]) -> Result<()> {
    let actual = skilldeck::file_digest(body);
    let matches = digest_hex(expected).is_ok_and(|hex| actual.ends_with(hex));
    if !matches {
        return Err(InstallError::DigestMismatch {
            what: what.to_string(),
            expected: expected.to_string(),
            actual,
        });
    }
    Ok(())
}

pub(crate) fn extract_limits(limits: &Limits) -> ExtractLimits {
    ExtractLimits {
        max_entries: limits.max_archive_entries,
        max_bytes: limits.max_archive_bytes,
    }
}
