//! npm plugin sources (`{"source": "npm", "package", "version"?, "registry"?}`).
//!
//! Claude Code 2.1.197 runs `npm install <package>@<version|latest> --prefix
//! <plugins>/npm-cache [--registry R]` and copies `npm-cache/node_modules/<package>` into the
//! plugin cache. skilldeck does what that npm does for the one package, without npm: it reads
//! the registry's packument (`<registry>/<package>`), picks the version (an exact version or a
//! dist-tag; no version means `latest`), downloads `dist.tarball`, refuses it unless its
//! SHA-512 matches `dist.integrity`, and extracts it (the tarball's top directory, npm's
//! `package/`, is the package root). Semver ranges are refused rather than resolved differently
//! from npm. Claude Code's `npm-cache` folder (npm's own cache) is not written.

use crate::archive::{self, ExtractLimits, Kind};
use crate::error::{InstallError, Result};
use crate::{http, Limits};
use base64::Engine;
use serde_json::Value;
use sha2::{Digest, Sha512};
use std::path::PathBuf;
use tempfile::TempDir;

/// npm's default registry.
pub const DEFAULT_REGISTRY: &str = "https://registry.npmjs.org";

/// A downloaded, verified, extracted package.
#[derive(Debug)]
pub struct Fetched {
    /// The package root (inside `_dir`).
    pub root: PathBuf,
    /// The version picked.
    pub version: String,
    /// The tarball URL.
    pub tarball: String,
    /// The `sha512-…` integrity it matched.
    pub integrity: String,
    _dir: TempDir,
}

fn bad(spec: &str, message: impl Into<String>) -> InstallError {
    InstallError::BadSource {
        source_spec: spec.to_string(),
        message: message.into(),
    }
}

/// The packument URL: a scoped name's `/` is escaped, as npm does.
pub fn packument_url(registry: &str, package: &str) -> String {
    format!(
        "{}/{}",
        registry.trim_end_matches('/'),
        package.replacen('/', "%2f", 1)
    )
}

/// npm's package-name rules, enough to keep the name out of the URL's path structure.
fn name_problem(package: &str) -> Option<String> {
    let bare = match package.strip_prefix('@') {
        Some(scoped) => match scoped.split_once('/') {
            Some((scope, name)) if !scope.is_empty() && !name.contains('/') => {
                return [scope, name]
                    .iter()
                    .find_map(|p| part_problem(p))
                    .map(|p| format!("`{package}`: {p}"))
            }
            _ => return Some(format!("`{package}` is not `@scope/name`")),
        },
        None => package,
    };
    part_problem(bare).map(|p| format!("`{package}`: {p}"))
}

fn part_problem(part: &str) -> Option<&'static str> {
    let ok = !part.is_empty()
        && !part.starts_with('.')
        && part
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._~".contains(c));
    (!ok).then_some("npm names are lowercase letters, digits, `-`, `.`, `_` and `~`")
}

/// The version `wanted` names in the packument: an exact version, a dist-tag, or `latest`.
fn pick(doc: &Value, wanted: Option<&str>, spec: &str) -> Result<String> {
    let versions = doc.get("versions").and_then(Value::as_object);
    let tags = doc.get("dist-tags").and_then(Value::as_object);
    let wanted = wanted.unwrap_or("latest");
    if versions.is_some_and(|v| v.contains_key(wanted)) {
        return Ok(wanted.to_string());
    }
    if let Some(v) = tags.and_then(|t| t.get(wanted)).and_then(Value::as_str) {
        return Ok(v.to_string());
    }
    Err(bad(
        spec,
        format!(
            "no version or dist-tag `{wanted}` in the registry (skilldeck does not resolve semver ranges; pin an exact version); it has: {}",
            versions
                .map(|v| v.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        ),
    ))
}

/// `sha512-<base64>` of `bytes`.
pub fn integrity_of(bytes: &[u8]) -> String {
    let digest = Sha512::digest(bytes);
    format!(
        "sha512-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Fetch `package` (at `version`, from `registry` or npm's) into a temporary directory.
pub fn fetch(
    package: &str,
    version: Option<&str>,
    registry: Option<&str>,
    limits: &Limits,
) -> Result<Fetched> {
    let spec = format!("npm:{package}");
    if let Some(problem) = name_problem(package) {
        return Err(bad(&spec, problem));
    }
    let registry = registry.unwrap_or(DEFAULT_REGISTRY);
    if !(registry.starts_with("https://") || registry.starts_with("http://")) {
        return Err(bad(
            &spec,
            format!("registry `{registry}` is not an http(s) URL"),
        ));
    }
    let url = packument_url(registry, package);
    let body = http::get(&url, limits.max_download_bytes, limits.timeout)?;
    let doc: Value = serde_json::from_slice(&body).map_err(|e| {
        bad(
            &spec,
            format!("the registry's answer at {url} is not JSON: {e}"),
        )
    })?;
    let picked = pick(&doc, version, &spec)?;
    let dist = doc
        .get("versions")
        .and_then(|v| v.get(&picked))
        .and_then(|v| v.get("dist"))
        .ok_or_else(|| bad(&spec, format!("version {picked} has no `dist` in {url}")))?;
    let tarball = dist
        .get("tarball")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(&spec, format!("version {picked} has no `dist.tarball`")))?
        .to_string();
    // Only sha512 is checked: npm's older `shasum` (SHA-1) is not a safe integrity check.
    let integrity = dist
        .get("integrity")
        .and_then(Value::as_str)
        .and_then(|i| i.split_whitespace().find(|h| h.starts_with("sha512-")))
        .ok_or_else(|| {
            bad(
                &spec,
                format!("version {picked} has no sha512 `dist.integrity`; refusing an unverifiable tarball"),
            )
        })?
        .to_string();
    let bytes = http::get(&tarball, limits.max_download_bytes, limits.timeout)?;
    let got = integrity_of(&bytes);
    if got != integrity {
        return Err(InstallError::DigestMismatch {
            what: tarball,
            expected: integrity,
            actual: got,
        });
    }
    let dir = tempfile::Builder::new()
        .prefix("skilldeck-npm-")
        .tempdir()
        .map_err(|e| InstallError::io(std::env::temp_dir(), e))?;
    let out = dir.path().join("x");
    std::fs::create_dir(&out).map_err(|e| InstallError::io(&out, e))?;
    archive::extract(
        &bytes,
        Kind::TarGz,
        &out,
        &tarball,
        ExtractLimits {
            max_entries: limits.max_archive_entries,
            max_bytes: limits.max_archive_bytes,
        },
    )?;
    let tops: Vec<PathBuf> = std::fs::read_dir(&out)
        .map_err(|e| InstallError::io(&out, e))?
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .collect();
    let root = match tops.as_slice() {
        [one] if one.is_dir() => one.clone(),
        _ => {
            return Err(bad(
                &spec,
                format!("{tarball} does not hold one top directory (npm's `package/`)"),
            ))
        }
    };
    Ok(Fetched {
        root,
        version: picked,
        tarball,
        integrity,
        _dir: dir,
    })
}
