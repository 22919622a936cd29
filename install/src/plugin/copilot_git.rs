//! GitHub Copilot CLI 1.0.102's git marketplaces, as its own `copilot plugin marketplace
//! add|update|remove` and `plugin install|update|uninstall` wrote them, run offline with git's
//! `insteadOf` (recorded in `install/tests/oracle/copilot-cli-1.0.102/git-*`):
//!
//! - `marketplace add URL|owner/repo`: a shallow clone at
//!   `~/.copilot/.cache/copilot/marketplaces/<URL or owner/repo, each character other than
//!   a letter or digit made `-`>`, `settings.json` `extraKnownMarketplaces.<name>.source` =
//!   `{"source": "git", "url"}` (or `{"source": "github", "repo"}`), and the clone's path →
//!   the time in milliseconds in `marketplaces/freshness.json`. A name already registered is
//!   refused, even from the same source;
//! - `marketplace update`: fetched again (still shallow), `freshness.json` updated; installed
//!   plugins are not touched;
//! - `plugin install p@m`: the plugin copied (no `.git`) to `installed-plugins/<m>/<p>/`,
//!   `enabledPlugins["p@m"] = true`, and a `config.json` `installedPlugins` entry
//!   (`name`, `marketplace`, `version`, `installed_at`, `cache_path`, `enabled`);
//!   `plugin update` copies it again and writes the entry afresh (moved last);
//!   `enable`/`disable` set both `enabledPlugins` and the entry's `enabled`; `uninstall`
//!   deletes the copy, the entry and the `enabledPlugins` key;
//! - `marketplace remove` is refused while a plugin of it is installed (the host's `--force`
//!   is not offered), else drops the settings entry and deletes the clone; the host leaves
//!   the clone's key in `freshness.json`.
//!
//! Not reproduced: the entry's `source_sha` (a digest of the plugin whose input could not be
//! worked out from the closed native runtime; Copilot CLI only compares it to decide whether
//! an update changes anything) and the `.lock` files beside the clones.

use crate::error::{InstallError, Result};
use crate::git;
use crate::plugin::claude::{to_json_text, write_atomic};
use crate::plugin::marketplace::Marketplace;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// A remote marketplace source as `settings.json` records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteSource {
    /// `{"source": "git", "url"}`.
    Git(String),
    /// `{"source": "github", "repo"}`.
    Github(String),
}

impl RemoteSource {
    /// A `marketplace add` argument that names a remote: an `http(s)://`, `ssh://`,
    /// `git@host:path` or (skilldeck's, for local repositories) `file://` URL, or `owner/repo`.
    pub fn parse(spec: &str) -> Option<RemoteSource> {
        let s = spec.trim();
        let url = ["https://", "http://", "ssh://", "file://"]
            .iter()
            .any(|p| s.starts_with(p))
            || (s.starts_with("git@") && s.contains(':'));
        if url {
            return Some(RemoteSource::Git(s.to_string()));
        }
        let parts: Vec<&str> = s.split('/').collect();
        let segment = |p: &str| {
            !p.is_empty()
                && p != "."
                && p != ".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        (parts.len() == 2 && parts.iter().all(|p| segment(p)))
            .then(|| RemoteSource::Github(s.to_string()))
    }

    /// The recorded source of an `extraKnownMarketplaces` entry, when it is remote.
    pub fn from_entry(entry: &Value) -> Option<RemoteSource> {
        let source = entry.get("source")?;
        match source.get("source")?.as_str()? {
            "git" => Some(RemoteSource::Git(source.get("url")?.as_str()?.to_string())),
            "github" => Some(RemoteSource::Github(
                source.get("repo")?.as_str()?.to_string(),
            )),
            _ => None,
        }
    }

    /// `{"source": ...}` as settings.json holds it.
    pub fn to_entry(&self) -> Value {
        match self {
            RemoteSource::Git(url) => json!({"source": {"source": "git", "url": url}}),
            RemoteSource::Github(repo) => json!({"source": {"source": "github", "repo": repo}}),
        }
    }

    /// What git clones.
    pub fn clone_url(&self) -> String {
        match self {
            RemoteSource::Git(url) => url.clone(),
            RemoteSource::Github(repo) => format!("https://github.com/{repo}.git"),
        }
    }

    /// The clone's directory name: the URL or `owner/repo`, every character other than an
    /// ASCII letter or digit made `-` (recorded: `https---git-example-test-market-git`).
    pub fn cache_name(&self) -> String {
        let raw = match self {
            RemoteSource::Git(url) => url,
            RemoteSource::Github(repo) => repo,
        };
        raw.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect()
    }
}

/// `~/.copilot/.cache/copilot/marketplaces`.
pub fn clones_dir(home: &Path) -> PathBuf {
    home.join(".cache").join("copilot").join("marketplaces")
}

/// Where the host keeps `source`'s clone.
pub fn clone_dir(home: &Path, source: &RemoteSource) -> PathBuf {
    clones_dir(home).join(source.cache_name())
}

/// A fetched marketplace, staged beside the clones until [`Staged::place`].
pub struct Staged {
    dir: tempfile::TempDir,
    /// The commit checked out.
    pub commit: String,
    /// Its catalogue.
    pub marketplace: Marketplace,
}

impl Staged {
    fn checkout(&self) -> PathBuf {
        self.dir.path().join("checkout")
    }

    /// Move the clone to `target`, replacing the old one (put back when the move fails).
    pub fn place(&self, target: &Path) -> Result<()> {
        let aside = self.dir.path().join("previous");
        let had_old = std::fs::symlink_metadata(target).is_ok();
        if had_old {
            std::fs::rename(target, &aside).map_err(|e| InstallError::io(target, e))?;
        }
        if let Err(e) = std::fs::rename(self.checkout(), target) {
            if had_old {
                let _ = std::fs::rename(&aside, target);
            }
            return Err(InstallError::io(target, e));
        }
        Ok(())
    }
}

/// Clone `source` shallowly beside the clones and read its catalogue with `read`.
pub fn fetch(
    home: &Path,
    source: &RemoteSource,
    read: impl Fn(&Path) -> Result<Marketplace>,
) -> Result<Staged> {
    let parent = clones_dir(home);
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    let dir = tempfile::Builder::new()
        .prefix(".skilldeck-clone-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let checkout = dir.path().join("checkout");
    let commit = git::clone(&source.clone_url(), None, &checkout)?;
    let marketplace = read(&checkout)?;
    Ok(Staged {
        dir,
        commit,
        marketplace,
    })
}

/// Record in `freshness.json` that `clone` was fetched now (milliseconds, as a float).
pub fn record_freshness(home: &Path, clone: &Path) -> Result<()> {
    let path = clones_dir(home).join("freshness.json");
    let mut map: Map<String, Value> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or_default();
    map.insert(clone.to_string_lossy().into_owned(), json!(ms));
    let text = serde_json::to_string(&map).unwrap_or_else(|_| to_json_text(&map));
    write_atomic(&path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_and_clone_names() {
        let git = RemoteSource::parse("https://git.example.test/market.git").unwrap();
        assert_eq!(git.cache_name(), "https---git-example-test-market-git");
        assert_eq!(
            git.to_entry(),
            json!({"source": {"source": "git", "url": "https://git.example.test/market.git"}})
        );
        let gh = RemoteSource::parse("acme/market").unwrap();
        assert_eq!(gh.cache_name(), "acme-market");
        assert_eq!(gh.clone_url(), "https://github.com/acme/market.git");
        assert_eq!(RemoteSource::from_entry(&gh.to_entry()), Some(gh));
        assert!(RemoteSource::parse("git@h:a/b.git").is_some());
        for local in ["./m", "m", "a/b/c", "../m"] {
            assert_eq!(RemoteSource::parse(local), None, "{local}");
        }
    }

    #[test]
    fn freshness_keeps_other_clones() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        record_freshness(home, &home.join("a")).unwrap();
        record_freshness(home, &home.join("b")).unwrap();
        let text = std::fs::read_to_string(clones_dir(home).join("freshness.json")).unwrap();
        let map: Map<String, Value> = serde_json::from_str(&text).unwrap();
        assert_eq!(map.len(), 2);
        assert!(text.contains(".0"), "{text}");
    }
}
