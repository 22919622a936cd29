//! Codex's marketplace sources and its git marketplaces, as Codex 0.169.0 handles them
//! (recorded in `install/tests/oracle/codex-0.169.0/git-*`, rules read from `openai/codex`
//! `codex-rs/core/src/plugins/marketplace_add/source.rs` and `marketplace_upgrade.rs`):
//!
//! - `codex plugin marketplace add SOURCE`: a path starting with `/`, `./`, `../`, `~/` (or
//!   `.`/`..`) is a local marketplace read in place; `http(s)://`, `ssh://` and `git@host:path`
//!   are git URLs (`https://github.com/o/r` gains `.git`); `owner/repo` is
//!   `https://github.com/owner/repo.git`. `#ref` (and `@ref` outside URLs) picks the ref. A git
//!   marketplace is cloned, with its `.git`, to `$CODEX_HOME/.tmp/marketplaces/<name>` and
//!   recorded as `[marketplaces.<name>] source_type = "git"`, `source`, `ref` (when given);
//!   nothing else is written. The same source again is "already added"; another source under
//!   the same name is refused.
//! - `codex plugin marketplace upgrade [NAME]`: each git marketplace is fetched again; when the
//!   clone's `.codex-marketplace-install.json` already names the fetched revision nothing
//!   changes, else the new clone replaces the old one with that file written into it
//!   (`source_type`, `source`, `ref_name`, `sparse_paths`, `revision`), and every plugin of
//!   `[plugins]` from that marketplace is installed again into the cache (config.toml is not
//!   touched).
//!
//! skilldeck also takes `file://` URLs (Codex refuses them) so local repositories work, and a
//! bare existing directory name as a local marketplace (Codex refuses it) as it did before.
//! Not reproduced: `--sparse` checkouts, and the `.staging.lock` files Codex keeps beside the
//! clones.

use crate::error::{InstallError, Result};
use crate::git;
use crate::plugin::marketplace::{self, Marketplace};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file Codex writes into a git marketplace's clone when it upgrades it.
pub const INSTALL_METADATA_FILE: &str = ".codex-marketplace-install.json";

/// Where a marketplace comes from, as `codex plugin marketplace add` reads its argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodexSource {
    /// A local directory, read in place (canonical path).
    Local(PathBuf),
    /// A git repository.
    Git {
        /// The clone URL, normalised as Codex writes it to config.toml.
        url: String,
        /// The branch, tag or commit.
        git_ref: Option<String>,
    },
}

fn bad(spec: &str, message: impl Into<String>) -> InstallError {
    InstallError::BadSource {
        source_spec: spec.to_string(),
        message: message.into(),
    }
}

/// Codex's `split_source_ref`: `#ref` anywhere, `@ref` only outside URLs.
fn split_ref(source: &str) -> (&str, Option<String>) {
    let non_empty = |r: &str| Some(r.trim().to_string()).filter(|r| !r.is_empty());
    if let Some((base, r)) = source.rsplit_once('#') {
        return (base, non_empty(r));
    }
    if !source.contains("://") && !is_ssh(source) {
        if let Some((base, r)) = source.rsplit_once('@') {
            return (base, non_empty(r));
        }
    }
    (source, None)
}

fn is_ssh(source: &str) -> bool {
    source.starts_with("ssh://") || (source.starts_with("git@") && source.contains(':'))
}

fn looks_local(source: &str) -> bool {
    Path::new(source).is_absolute()
        || ["./", "../", "~/", ".\\", "..\\"]
            .iter()
            .any(|p| source.starts_with(p))
        || source == "."
        || source == ".."
}

fn github_shorthand(source: &str) -> bool {
    let segment = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    let parts: Vec<&str> = source.split('/').collect();
    parts.len() == 2 && parts.iter().all(|p| segment(p))
}

fn local(spec: &str, base: &str, cwd: &Path, home: Option<&Path>) -> Result<CodexSource> {
    let path = match (base.strip_prefix("~/"), home) {
        (Some(rest), Some(h)) => h.join(rest),
        _ => cwd.join(base),
    };
    let root = std::fs::canonicalize(&path).map_err(|e| {
        bad(
            spec,
            format!(
                "failed to resolve local marketplace source {}: {e}",
                path.display()
            ),
        )
    })?;
    if root.is_file() {
        return Err(bad(
            spec,
            "local marketplace source must be a directory, not a file; give the directory holding .claude-plugin/marketplace.json",
        ));
    }
    Ok(CodexSource::Local(root))
}

/// Read a `marketplace add` argument as Codex 0.169.0 does (see the module docs).
pub fn parse_source(spec: &str, cwd: &Path, home: Option<&Path>) -> Result<CodexSource> {
    let source = spec.trim();
    if source.is_empty() {
        return Err(bad(spec, "marketplace source must not be empty"));
    }
    let (base, git_ref) = split_ref(source);
    if looks_local(base) {
        if git_ref.is_some() {
            return Err(bad(
                spec,
                "a ref is only supported for git marketplace sources; drop the `#ref`",
            ));
        }
        return local(spec, base, cwd, home);
    }
    if is_ssh(base) || base.starts_with("http://") || base.starts_with("https://") {
        let url = base.trim_end_matches('/');
        let url = if url.starts_with("https://github.com/") && !url.ends_with(".git") {
            format!("{url}.git")
        } else {
            url.to_string()
        };
        return Ok(CodexSource::Git { url, git_ref });
    }
    if base.starts_with("file://") {
        return Ok(CodexSource::Git {
            url: base.to_string(),
            git_ref,
        });
    }
    if github_shorthand(base) {
        return Ok(CodexSource::Git {
            url: format!("https://github.com/{base}.git"),
            git_ref,
        });
    }
    if git_ref.is_none() && cwd.join(base).is_dir() {
        return local(spec, base, cwd, home);
    }
    Err(bad(
        spec,
        "invalid marketplace source format; expected owner/repo, a git URL, or a local marketplace path (./dir, /dir, ~/dir)",
    ))
}

/// `.codex-marketplace-install.json`: which fetch of which source the clone holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstallMetadata {
    /// Always `git`.
    pub source_type: String,
    /// The configured source URL.
    pub source: String,
    /// The configured ref.
    pub ref_name: Option<String>,
    /// The configured sparse paths (skilldeck writes none).
    pub sparse_paths: Vec<String>,
    /// The commit checked out.
    pub revision: String,
}

impl InstallMetadata {
    /// The metadata of a clone of `url` at `git_ref`, checked out at `revision`.
    pub fn new(url: &str, git_ref: Option<&str>, revision: &str) -> InstallMetadata {
        InstallMetadata {
            source_type: "git".into(),
            source: url.to_string(),
            ref_name: git_ref.map(str::to_string),
            sparse_paths: Vec::new(),
            revision: revision.to_string(),
        }
    }

    /// What the clone at `root` says it holds, when it says it.
    pub fn read(root: &Path) -> Option<InstallMetadata> {
        let text = std::fs::read_to_string(root.join(INSTALL_METADATA_FILE)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Write it into `root` as Codex does (two-space JSON, no final newline).
    pub fn write(&self, root: &Path) -> Result<()> {
        let path = root.join(INSTALL_METADATA_FILE);
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| InstallError::io(&path, std::io::Error::other(e.to_string())))?;
        std::fs::write(&path, text).map_err(|e| InstallError::io(&path, e))
    }
}

/// A fresh clone in Codex's staging directory, removed when dropped unless placed.
pub struct StagedClone {
    dir: tempfile::TempDir,
    /// The commit checked out.
    pub revision: String,
    /// Its marketplace catalogue.
    pub marketplace: Marketplace,
}

impl StagedClone {
    /// The checkout.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("checkout")
    }
}

/// Clone `url` at `git_ref` into `<clones>/.staging/marketplace-*/checkout` and read its
/// catalogue; the name must be a valid Codex id segment.
pub fn stage_clone(clones: &Path, url: &str, git_ref: Option<&str>) -> Result<StagedClone> {
    let staging = clones.join(".staging");
    std::fs::create_dir_all(&staging).map_err(|e| InstallError::io(&staging, e))?;
    let dir = tempfile::Builder::new()
        .prefix("marketplace-")
        .tempdir_in(&staging)
        .map_err(|e| InstallError::io(&staging, e))?;
    let checkout = dir.path().join("checkout");
    let revision = git::clone(url, git_ref, &checkout)?;
    let marketplace = marketplace::read_marketplace(&checkout)?;
    Ok(StagedClone {
        dir,
        revision,
        marketplace,
    })
}

/// Put `staged` at `target`, replacing what is there; the old clone is deleted once the new
/// one is in place, and put back when the move fails.
pub fn place(staged: &StagedClone, target: &Path) -> Result<()> {
    let aside = staged.dir.path().join("previous");
    let had_old = std::fs::symlink_metadata(target).is_ok();
    if had_old {
        std::fs::rename(target, &aside).map_err(|e| InstallError::io(target, e))?;
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
    }
    if let Err(e) = std::fs::rename(staged.root(), target) {
        if had_old {
            let _ = std::fs::rename(&aside, target);
        }
        return Err(InstallError::io(target, e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(url: &str, r: Option<&str>) -> CodexSource {
        CodexSource::Git {
            url: url.into(),
            git_ref: r.map(String::from),
        }
    }

    #[test]
    fn sources_are_read_as_codex_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let cwd = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(cwd.join("market")).unwrap();
        let p = |s: &str| parse_source(s, &cwd, Some(&cwd));
        // Cases from Codex's own source.rs tests.
        assert_eq!(
            p("owner/repo@main").unwrap(),
            git("https://github.com/owner/repo.git", Some("main"))
        );
        assert_eq!(
            p("https://example.com/team/repo.git#v1").unwrap(),
            git("https://example.com/team/repo.git", Some("v1"))
        );
        assert_eq!(
            p("https://github.com/owner/repo/").unwrap(),
            git("https://github.com/owner/repo.git", None)
        );
        assert_eq!(
            p("https://gitlab.com/owner/repo").unwrap(),
            git("https://gitlab.com/owner/repo", None)
        );
        assert_eq!(
            p("ssh://git@github.com/owner/repo.git#main").unwrap(),
            git("ssh://git@github.com/owner/repo.git", Some("main"))
        );
        assert_eq!(
            p("git@github.com:owner/repo.git").unwrap(),
            git("git@github.com:owner/repo.git", None)
        );
        assert_eq!(
            p("./market").unwrap(),
            CodexSource::Local(cwd.join("market"))
        );
        assert_eq!(
            p("~/market").unwrap(),
            CodexSource::Local(cwd.join("market"))
        );
        // skilldeck's extensions: file:// and a bare existing directory.
        assert_eq!(
            p("file:///srv/m.git#v2").unwrap(),
            git("file:///srv/m.git", Some("v2"))
        );
        assert_eq!(p("market").unwrap(), CodexSource::Local(cwd.join("market")));
        for refused in ["", "./market#main", "nothing-here", "a/b/c"] {
            assert_eq!(p(refused).unwrap_err().code(), "BAD_SOURCE", "{refused}");
        }
        std::fs::write(cwd.join("f.json"), "{}").unwrap();
        assert!(p("./f.json")
            .unwrap_err()
            .to_string()
            .contains("not a file"));
    }

    #[test]
    fn metadata_is_written_as_codex_writes_it() {
        let tmp = tempfile::tempdir().unwrap();
        InstallMetadata::new("https://h/m.git", None, "abc")
            .write(tmp.path())
            .unwrap();
        let text = std::fs::read_to_string(tmp.path().join(INSTALL_METADATA_FILE)).unwrap();
        assert_eq!(
            text,
            "{\n  \"source_type\": \"git\",\n  \"source\": \"https://h/m.git\",\n  \"ref_name\": null,\n  \"sparse_paths\": [],\n  \"revision\": \"abc\"\n}"
        );
        assert_eq!(
            InstallMetadata::read(tmp.path()).unwrap().revision,
            "abc".to_string()
        );
    }
}
