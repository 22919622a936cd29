//! `.claude-plugin/marketplace.json`: the marketplace's name and its plugin entries, each
//! with a plugin source of one of the kinds Claude Code accepts.
//!
//! Shapes and rules follow Claude Code 2.1.197's own schemas (read from its bundled
//! JavaScript, `npm pack @anthropic-ai/claude-code-linux-x64@2.1.197`): a relative source
//! is a string starting `./` (`"."` is read as `"./"`), resolved against the marketplace
//! root (the directory holding `.claude-plugin/`); object sources are `github` (`repo`,
//! `ref`?, `sha`?), `url` (a git URL, `ref`?, `sha`?), `git-subdir` (`url`, `path`, `ref`?,
//! `sha`?) and `npm` (`package`, `version`?, `registry`?). Unknown keys are kept and ignored,
//! as Claude Code does.

use crate::error::{InstallError, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// Where a marketplace entry's plugin comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum PluginSource {
    /// A directory inside the marketplace (`./plugins/x`).
    Relative {
        /// The path as written (`./…`).
        path: String,
    },
    /// A GitHub repository.
    Github {
        /// `owner/repo`.
        repo: String,
        /// Branch or tag.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        git_ref: Option<String>,
        /// A full commit SHA.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sha: Option<String>,
    },
    /// Any git URL.
    Url {
        /// The clone URL.
        url: String,
        /// Branch or tag.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        git_ref: Option<String>,
        /// A full commit SHA.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sha: Option<String>,
    },
    /// A directory inside a git repository (monorepos).
    GitSubdir {
        /// `owner/repo`, an https:// or a git@ URL.
        url: String,
        /// The directory inside the repository.
        path: String,
        /// Branch or tag.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        git_ref: Option<String>,
        /// A full commit SHA.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sha: Option<String>,
    },
    /// An npm package, fetched from its registry (see [`crate::plugin::npm`]).
    Npm {
        /// The package.
        package: String,
        /// An exact version or a dist-tag (default `latest`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<String>,
        /// The registry URL (default npm's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        registry: Option<String>,
    },
}

impl PluginSource {
    /// The git URL and subdirectory to fetch, for git-backed sources.
    pub fn git(&self) -> Option<(String, Option<String>, Option<String>)> {
        let github =
            |repo: &str| format!("https://github.com/{}.git", repo.trim_end_matches(".git"));
        let shorthand = |url: &str| {
            let is_short = !url.contains(':')
                && url.split('/').count() == 2
                && url.split('/').all(|p| !p.is_empty() && p != "..");
            if is_short {
                github(url)
            } else {
                url.to_string()
            }
        };
        match self {
            PluginSource::Github { repo, git_ref, sha } => {
                Some((github(repo), sha.clone().or(git_ref.clone()), None))
            }
            PluginSource::Url { url, git_ref, sha } => {
                Some((url.clone(), sha.clone().or(git_ref.clone()), None))
            }
            PluginSource::GitSubdir {
                url,
                path,
                git_ref,
                sha,
            } => Some((
                shorthand(url),
                sha.clone().or(git_ref.clone()),
                Some(
                    path.trim_start_matches("./")
                        .trim_end_matches('/')
                        .to_string(),
                ),
            )),
            _ => None,
        }
    }
}

/// One plugin a marketplace lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceEntry {
    /// The plugin's name in this marketplace.
    pub name: String,
    /// Where it comes from.
    pub source: PluginSource,
    /// `strict` (default true): the plugin's own plugin.json is authoritative; false: this
    /// entry defines the plugin and no plugin.json is needed.
    pub strict: bool,
    /// The entry's version, used when the plugin declares none.
    pub version: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// The entry object as written (inline component fields such as `skills`).
    pub raw: Map<String, Value>,
}

/// A parsed `marketplace.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Marketplace {
    /// The marketplace's name (the `marketplace` of `plugin@marketplace`).
    pub name: String,
    /// Its `owner` object, when given.
    pub owner: Option<Value>,
    /// Its plugins.
    pub plugins: Vec<MarketplaceEntry>,
}

/// Where a marketplace file sits inside its root.
pub const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";

fn invalid(path: &Path, message: impl Into<String>) -> InstallError {
    InstallError::InvalidManifest {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// The marketplace name rules Claude Code applies to every marketplace (its `axs` schema):
/// no spaces, no path separators or `..`, not `.`, not `inline`/`builtin`/`skills-dir`.
/// Reserved official names are checked separately ([`crate::plugin::claude::reserved_name_problem`])
/// because they depend on the source.
pub fn marketplace_name_problem(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if name.is_empty() {
        Some("a marketplace must have a name".into())
    } else if name.contains(' ') {
        Some("cannot contain spaces; use kebab-case (e.g. `my-marketplace`)".into())
    } else if name.contains('/') || name.contains('\\') || name.contains("..") || name == "." {
        Some("cannot contain path separators (/ or \\), `..`, or be `.`".into())
    } else if lower == "inline" {
        Some("`inline` is reserved for --plugin-dir session plugins".into())
    } else if lower == "builtin" {
        Some("`builtin` is reserved for built-in plugins".into())
    } else if lower == "skills-dir" {
        Some("`skills-dir` is reserved for plugins auto-loaded from .claude/skills/".into())
    } else {
        None
    }
}

fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    path: &Path,
    at: &str,
) -> Result<Option<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(invalid(path, format!("{at}: `{key}` must be a string"))),
    }
}

fn sha(obj: &Map<String, Value>, path: &Path, at: &str) -> Result<Option<String>> {
    let sha = opt_string(obj, "sha", path, at)?;
    if let Some(s) = &sha {
        if s.len() != 40 || !s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) {
            return Err(invalid(
                path,
                format!("{at}: `sha` must be a full 40-character lowercase git commit SHA"),
            ));
        }
    }
    Ok(sha)
}

fn parse_source(value: &Value, path: &Path, at: &str) -> Result<PluginSource> {
    let obj = match value {
        Value::String(s) => {
            let s = if s == "." { "./" } else { s.as_str() };
            if !s.starts_with("./") {
                return Err(invalid(
                    path,
                    format!("{at}: a relative `source` must start with `./` (relative to the marketplace root), got `{s}`"),
                ));
            }
            return Ok(PluginSource::Relative {
                path: s.to_string(),
            });
        }
        Value::Object(obj) => obj,
        _ => {
            return Err(invalid(
                path,
                format!("{at}: `source` must be a `./` path or a source object"),
            ))
        }
    };
    let kind = obj.get("source").and_then(Value::as_str).unwrap_or("");
    let required = |key: &str| -> Result<String> {
        opt_string(obj, key, path, at)?
            .filter(|s| !s.is_empty())
            .ok_or_else(|| invalid(path, format!("{at}: a `{kind}` source needs `{key}`")))
    };
    Ok(match kind {
        "github" => PluginSource::Github {
            repo: required("repo")?,
            git_ref: opt_string(obj, "ref", path, at)?,
            sha: sha(obj, path, at)?,
        },
        "url" | "git" => PluginSource::Url {
            url: required("url")?,
            git_ref: opt_string(obj, "ref", path, at)?,
            sha: sha(obj, path, at)?,
        },
        "git-subdir" => PluginSource::GitSubdir {
            url: required("url")?,
            path: required("path")?,
            git_ref: opt_string(obj, "ref", path, at)?,
            sha: sha(obj, path, at)?,
        },
        "npm" => PluginSource::Npm {
            package: required("package")?,
            version: opt_string(obj, "version", path, at)?,
            registry: opt_string(obj, "registry", path, at)?,
        },
        other => {
            return Err(invalid(
                path,
                format!("{at}: unknown source kind `{other}` (expected github, url, git-subdir or npm, or a `./` path)"),
            ))
        }
    })
}

/// Parse `marketplace.json` text; `path` names the file in errors.
pub fn parse_marketplace(text: &str, path: &Path) -> Result<Marketplace> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| invalid(path, format!("not valid JSON ({e})")))?;
    let Value::Object(obj) = value else {
        return Err(invalid(path, "must hold a JSON object"));
    };
    let name = opt_string(&obj, "name", path, "marketplace")?
        .ok_or_else(|| invalid(path, "`name` is required"))?;
    if let Some(problem) = marketplace_name_problem(&name) {
        return Err(invalid(
            path,
            format!("marketplace name `{name}`: {problem}"),
        ));
    }
    let Some(Value::Array(items)) = obj.get("plugins") else {
        return Err(invalid(path, "`plugins` is required and must be a list"));
    };
    let mut plugins: Vec<MarketplaceEntry> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Value::Object(entry) = item else {
            return Err(invalid(path, format!("plugins[{i}] must be an object")));
        };
        let at = format!("plugins[{i}]");
        let pname = opt_string(entry, "name", path, &at)?
            .ok_or_else(|| invalid(path, format!("{at}: `name` is required")))?;
        if let Some(problem) = crate::plugin::manifest::plugin_name_problem(&pname) {
            return Err(invalid(
                path,
                format!("{at}: plugin name `{pname}` {problem}"),
            ));
        }
        if plugins.iter().any(|p| p.name == pname) {
            return Err(invalid(
                path,
                format!("{at}: plugin `{pname}` is listed twice"),
            ));
        }
        let source = entry
            .get("source")
            .ok_or_else(|| invalid(path, format!("{at}: `source` is required")))?;
        let source = parse_source(source, path, &at)?;
        let strict = match entry.get("strict") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(invalid(
                    path,
                    format!("{at}: `strict` must be true or false"),
                ))
            }
        };
        plugins.push(MarketplaceEntry {
            name: pname,
            source,
            strict,
            version: opt_string(entry, "version", path, &at)?,
            description: opt_string(entry, "description", path, &at)?,
            raw: entry.clone(),
        });
    }
    Ok(Marketplace {
        name,
        owner: obj.get("owner").cloned(),
        plugins,
    })
}

impl Marketplace {
    /// The entry listing `plugin`, or the error naming the marketplace that lacks it.
    pub(crate) fn entry(&self, market: &str, plugin: &str) -> Result<&MarketplaceEntry> {
        self.plugins
            .iter()
            .find(|p| p.name == plugin)
            .ok_or_else(|| InstallError::NoSuchSkill {
                message: format!("marketplace `{market}` lists no plugin `{plugin}`"),
            })
    }
}

/// Read `<root>/.claude-plugin/marketplace.json`.
pub fn read_marketplace(root: &Path) -> Result<Marketplace> {
    // A marketplace fetched from a URL is kept as the catalogue file itself.
    if root.is_file() {
        let text = std::fs::read_to_string(root).map_err(|e| InstallError::io(root, e))?;
        return parse_marketplace(&text, root);
    }
    let path = root.join(MARKETPLACE_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => invalid(
            &path,
            "no marketplace file here; a marketplace keeps its catalogue at .claude-plugin/marketplace.json",
        ),
        _ => InstallError::io(&path, e),
    })?;
    parse_marketplace(&text, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn every_source_kind() {
        let text = format!(
            r#"{{"name":"acme","owner":{{"name":"A"}},"plugins":[
            {{"name":"a","source":"./plugins/a"}},
            {{"name":"b","source":"."}},
            {{"name":"c","source":{{"source":"github","repo":"acme/c","ref":"v1","sha":"{SHA}"}}}},
            {{"name":"d","source":{{"source":"url","url":"https://git.example/d.git"}}}},
            {{"name":"e","source":{{"source":"git-subdir","url":"acme/mono","path":"./tools/e"}}}},
            {{"name":"f","source":{{"source":"npm","package":"@acme/f"}}}},
            {{"name":"g","source":"./g","strict":false,"skills":["./s"],"futureKey":1}}
        ]}}"#
        );
        let m = parse_marketplace(&text, Path::new("m.json")).unwrap();
        assert_eq!(m.name, "acme");
        assert_eq!(m.plugins.len(), 7);
        assert_eq!(
            m.plugins[1].source,
            PluginSource::Relative { path: "./".into() }
        );
        assert_eq!(
            m.plugins[2].source.git(),
            Some((
                "https://github.com/acme/c.git".into(),
                Some(SHA.into()),
                None
            ))
        );
        assert_eq!(
            m.plugins[4].source.git(),
            Some((
                "https://github.com/acme/mono.git".into(),
                None,
                Some("tools/e".into())
            ))
        );
        assert!(matches!(m.plugins[5].source, PluginSource::Npm { .. }));
        assert!(m.plugins[0].strict && !m.plugins[6].strict);
        assert_eq!(m.plugins[6].raw["futureKey"], 1);
    }

    #[test]
    fn refusals() {
        for bad in [
            r#"{"name":"my market","plugins":[]}"#,
            r#"{"name":"a/b","plugins":[]}"#,
            r#"{"name":"inline","plugins":[]}"#,
            r#"{"name":"m","plugins":[{"name":"x","source":"plugins/x"}]}"#,
            r#"{"name":"m","plugins":[{"name":"x","source":{"source":"github","repo":"a/b","sha":"abc"}}]}"#,
            r#"{"name":"m","plugins":[{"name":"x","source":{"source":"svn","url":"x"}}]}"#,
            r#"{"name":"m","plugins":[{"name":"x y","source":"./x"}]}"#,
            r#"{"name":"m","plugins":[{"name":"x","source":"./x"},{"name":"x","source":"./y"}]}"#,
            r#"{"name":"m"}"#,
        ] {
            let err = parse_marketplace(bad, Path::new("m.json")).unwrap_err();
            assert_eq!(err.code(), "INVALID_MANIFEST", "{bad}");
        }
    }
}
