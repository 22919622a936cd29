//! Digests: `sha256:<64 lowercase hex>` per file, and the skill digest of the Agent Skills
//! discovery RFC v0.2.0: entries sorted by path (byte order), one `path\0hex\n` line each,
//! the SHA-256 of those lines.

use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The `sha256:` prefix every digest in the lock file and in a discovery index carries.
pub const PREFIX: &str = "sha256:";

/// A digest string that is not `sha256:` followed by 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{value}` is not a digest; expected `sha256:` followed by 64 lowercase hex digits")]
pub struct DigestError {
    /// The string as given.
    pub value: String,
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `sha256:<hex>` of a file's raw bytes.
pub fn file_digest(bytes: &[u8]) -> String {
    format!("{PREFIX}{}", sha256_hex(bytes))
}

/// The 64 hex digits of a `sha256:<hex>` digest (a bare 64-digit hex is accepted too, as
/// `--sha256` pins are usually written that way).
pub fn digest_hex(value: &str) -> Result<&str, DigestError> {
    let hex = value.strip_prefix(PREFIX).unwrap_or(value);
    if hex.len() == 64
        && hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(hex)
    } else {
        Err(DigestError {
            value: value.to_string(),
        })
    }
}

/// True when `value` is exactly `sha256:` and 64 lowercase hex digits (the form a manifest
/// or a lock entry must carry; [`digest_hex`] also takes bare hex).
pub fn is_sha256_digest(value: &str) -> bool {
    value.starts_with(PREFIX) && digest_hex(value).is_ok()
}

/// The skill digest over `(path, digest)` pairs, where each digest is `sha256:<hex>` (or bare
/// hex). Entries are sorted by path bytes here, so callers may pass them in any order.
pub fn skill_digest<'a, I>(files: I) -> Result<String, DigestError>
where
    I: IntoIterator<Item = (&'a str, &'a str)>,
{
    let mut entries: Vec<(&str, &str)> = Vec::new();
    for (path, digest) in files {
        entries.push((path, digest_hex(digest)?));
    }
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut hasher = Sha256::new();
    for (path, hex) in entries {
        hasher.update(path.as_bytes());
        hasher.update([0u8]);
        hasher.update(hex.as_bytes());
        hasher.update(b"\n");
    }
    Ok(format!("{PREFIX}{}", hex(&hasher.finalize())))
}

/// The `computedHash` the `skills` CLI writes into `skills-lock.json`: SHA-256 over each
/// file's relative path followed by its bytes, files in path order, as bare hex. Kept so that
/// `skills` reading our lock sees the value it would compute itself (it sorts with
/// `localeCompare`; byte order agrees for the lowercase ASCII paths skills use).
pub fn skills_cli_hash<'a, I>(files: I) -> String
where
    I: IntoIterator<Item = (&'a str, &'a [u8])>,
{
    let mut entries: Vec<(&str, &[u8])> = files.into_iter().collect();
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut hasher = Sha256::new();
    for (path, bytes) in entries {
        hasher.update(path.as_bytes());
        hasher.update(bytes);
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_worked_example() {
        let skill = file_digest(b"# Hello\n");
        let run = file_digest(b"#!/bin/sh\n");
        assert_eq!(
            skill,
            "sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be"
        );
        assert_eq!(
            run,
            "sha256:a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf"
        );
        // Given out of order: the digest sorts by path itself.
        let digest = skill_digest([
            ("scripts/run.sh", run.as_str()),
            ("SKILL.md", skill.as_str()),
        ])
        .unwrap();
        assert_eq!(
            digest,
            "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"
        );
    }

    #[test]
    fn malformed_digests_are_refused() {
        assert!(digest_hex("sha256:ABC").is_err());
        assert!(digest_hex(&format!("sha256:{}", "A".repeat(64))).is_err());
        assert!(digest_hex(&"a".repeat(64)).is_ok());
        assert!(skill_digest([("SKILL.md", "md5:00")]).is_err());
    }

    #[test]
    fn skills_cli_hash_includes_paths() {
        let a = skills_cli_hash([("a", b"x".as_slice())]);
        let b = skills_cli_hash([("b", b"x".as_slice())]);
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
    }
}
