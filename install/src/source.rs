//! Parsing the SOURCE argument into where to fetch from.

use crate::error::{InstallError, Result};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Where skills come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Source {
    /// A directory on this machine.
    Local {
        /// The directory.
        path: PathBuf,
    },
    /// A git repository, cloned with the system `git`.
    Git {
        /// The clone URL (`github:` shorthand already expanded).
        url: String,
        /// The branch, tag or commit; the remote's default branch when absent.
        git_ref: Option<String>,
        /// A directory inside the repository to install from.
        subpath: Option<String>,
        /// `github` for `github:`/github.com sources (what the `skills` CLI records), else `git`.
        source_type: String,
    },
    /// A `.tar.gz`, `.tgz` or `.zip` archive URL.
    Archive {
        /// The URL.
        url: String,
        /// The pinned `sha256:<hex>`, checked before extracting.
        sha256: Option<String>,
    },
    /// A site publishing `/.well-known/agent-skills/index.json` (or the v0.1
    /// `/.well-known/skills/index.json`), or the index URL itself.
    Index {
        /// The site or index URL.
        url: String,
    },
}

impl Source {
    /// Parse SOURCE. `git_ref` (`--ref`) overrides an `@ref` suffix; `sha256` (`--sha256`)
    /// pins an archive.
    ///
    /// - `github:owner/repo[/path][@ref]` → `https://github.com/owner/repo.git`;
    /// - `https://…`, `http://…`: an archive by extension, an index when the path is empty,
    ///   holds `/.well-known/` or ends in `index.json`, else a git repository;
    /// - `ssh://…`, `git@host:path`, `file://…`: git;
    /// - a git URL may end in `#sub/dir` to install from that directory;
    /// - anything else is a local directory.
    pub fn parse(spec: &str, git_ref: Option<&str>, sha256: Option<&str>) -> Result<Source> {
        let bad = |message: &str| InstallError::BadSource {
            source_spec: spec.to_string(),
            message: message.to_string(),
        };
        if let Some(rest) = spec.strip_prefix("github:") {
            let (path, at_ref) = match rest.rsplit_once('@') {
                Some((path, r)) if !r.is_empty() => (path, Some(r)),
                _ => (rest, None),
            };
            let mut parts = path.split('/').filter(|p| !p.is_empty());
            let (Some(owner), Some(repo)) = (parts.next(), parts.next()) else {
                return Err(bad("expected `github:owner/repo[/path][@ref]`"));
            };
            let sub: Vec<&str> = parts.collect();
            if sub.iter().any(|p| *p == ".." || *p == ".") {
                return Err(bad(
                    "the path inside the repository cannot contain `.` or `..`",
                ));
            }
            let repo = repo.strip_suffix(".git").unwrap_or(repo);
            return Ok(Source::Git {
                url: format!("https://github.com/{owner}/{repo}.git"),
                git_ref: git_ref.or(at_ref).map(str::to_string),
                subpath: (!sub.is_empty()).then(|| sub.join("/")),
                source_type: "github".into(),
            });
        }
        let lower = spec.to_ascii_lowercase();
        let is_http = lower.starts_with("https://") || lower.starts_with("http://");
        if is_http {
            let without_query = lower.split(['?', '#']).next().unwrap_or("");
            if [".tar.gz", ".tgz", ".zip"]
                .iter()
                .any(|ext| without_query.ends_with(ext))
            {
                return Ok(Source::Archive {
                    url: spec.to_string(),
                    sha256: sha256.map(str::to_string),
                });
            }
            let after_scheme = without_query.split_once("://").map(|x| x.1).unwrap_or("");
            let path = after_scheme.split_once('/').map(|x| x.1).unwrap_or("");
            if path.trim_matches('/').is_empty()
                || path.contains(".well-known/")
                || path.ends_with("index.json")
            {
                return Ok(Source::Index {
                    url: spec.to_string(),
                });
            }
        }
        if sha256.is_some() {
            return Err(bad(
                "`--sha256` pins an archive URL (.tar.gz, .tgz or .zip)",
            ));
        }
        let is_scp = !lower.contains("://")
            && spec
                .split_once(':')
                .is_some_and(|(host, _)| host.contains('@') && !host.contains('/'));
        if is_http || lower.starts_with("ssh://") || lower.starts_with("file://") || is_scp {
            let (url, subpath) = match spec.split_once('#') {
                Some((url, sub)) if !sub.is_empty() => (url, Some(sub.trim_matches('/'))),
                _ => (spec, None),
            };
            if subpath.is_some_and(|s| s.split('/').any(|p| p == ".." || p.is_empty())) {
                return Err(bad(
                    "the `#path` inside the repository cannot contain `..` or empty parts",
                ));
            }
            let source_type = if lower.contains("github.com") {
                "github"
            } else {
                "git"
            };
            return Ok(Source::Git {
                url: url.to_string(),
                git_ref: git_ref.map(str::to_string),
                subpath: subpath.map(str::to_string),
                source_type: source_type.into(),
            });
        }
        if git_ref.is_some() {
            return Err(bad("`--ref` applies to git sources only"));
        }
        Ok(Source::Local {
            path: PathBuf::from(spec),
        })
    }

    /// The `sourceType` recorded in the lock.
    pub fn source_type(&self) -> &str {
        match self {
            Source::Local { .. } => "local",
            Source::Git { source_type, .. } => source_type,
            Source::Archive { .. } => "archive",
            Source::Index { .. } => "well-known",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_shorthand() {
        let s = Source::parse("github:acme/tools/skills/pdf@v1", None, None).unwrap();
        assert_eq!(
            s,
            Source::Git {
                url: "https://github.com/acme/tools.git".into(),
                git_ref: Some("v1".into()),
                subpath: Some("skills/pdf".into()),
                source_type: "github".into()
            }
        );
        let s = Source::parse("github:acme/tools@v1", Some("main"), None).unwrap();
        assert!(matches!(s, Source::Git { git_ref: Some(r), subpath: None, .. } if r == "main"));
        assert!(Source::parse("github:acme", None, None).is_err());
        assert!(Source::parse("github:a/b/../c", None, None).is_err());
    }

    #[test]
    fn kinds() {
        assert!(matches!(
            Source::parse("https://x.dev/a.tar.gz", None, Some("ab")).unwrap(),
            Source::Archive {
                sha256: Some(_),
                ..
            }
        ));
        assert!(matches!(
            Source::parse("https://x.dev/s.zip?dl=1", None, None).unwrap(),
            Source::Archive { .. }
        ));
        assert!(matches!(
            Source::parse("https://x.dev", None, None).unwrap(),
            Source::Index { .. }
        ));
        assert!(matches!(
            Source::parse(
                "https://x.dev/.well-known/agent-skills/index.json",
                None,
                None
            )
            .unwrap(),
            Source::Index { .. }
        ));
        assert!(matches!(
            Source::parse("https://git.dev/a/b.git", None, None).unwrap(),
            Source::Git { .. }
        ));
        assert!(matches!(
            Source::parse("git@github.com:a/b.git", None, None).unwrap(),
            Source::Git { .. }
        ));
        assert!(matches!(
            Source::parse("file:///tmp/r#skills/x", None, None).unwrap(),
            Source::Git { subpath: Some(s), .. } if s == "skills/x"
        ));
        assert!(matches!(
            Source::parse("./here", None, None).unwrap(),
            Source::Local { .. }
        ));
        assert!(Source::parse("./here", Some("v1"), None).is_err());
        assert!(Source::parse("file:///r", None, Some("ab")).is_err());
    }
}
