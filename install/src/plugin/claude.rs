//! Claude Code's plugin layout, byte-compatible with what Claude Code itself reads and writes
//! (shapes copied from the zod schemas in Claude Code 2.1.197's bundle):
//!
//! - `${CLAUDE_CONFIG_DIR:-~/.claude}/plugins/known_marketplaces.json`: marketplace name →
//!   `{source, installLocation, lastUpdated, autoUpdate?}`; git marketplaces are cloned to
//!   `plugins/marketplaces/<name>/`, a `directory` marketplace is read in place;
//! - `plugins/installed_plugins.json`: `{"version": 2, "plugins": {"plugin@marketplace":
//!   [{scope, projectPath?, installPath, version?, installedAt?, lastUpdated?,
//!   gitCommitSha?}]}}`, one entry per scope (and project);
//! - `plugins/cache/<marketplace>/<plugin>/<version>/`: the installed copy (each name with
//!   characters outside `[A-Za-z0-9_-]` (`.` kept in the version) replaced by `-`);
//! - `enabledPlugins["plugin@marketplace"]` in the scope's `settings.json` (user:
//!   `<claude dir>/settings.json`, project: `<project>/.claude/settings.json`);
//! - policy from managed settings only (`policySettings`): `strictKnownMarketplaces`,
//!   `blockedMarketplaces`, and the reserved official marketplace names.

use crate::error::{InstallError, Result};
use crate::plugin::PluginScope;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a marketplace comes from, as `known_marketplaces.json` and the policy lists write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum MarketplaceSource {
    /// A GitHub repository.
    Github {
        /// `owner/repo`.
        repo: String,
        /// Branch or tag.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        git_ref: Option<String>,
        /// Path of marketplace.json inside the repository.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<String>,
    },
    /// Any git repository.
    Git {
        /// The clone URL.
        url: String,
        /// Branch or tag.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        git_ref: Option<String>,
        /// Path of marketplace.json inside the repository.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<String>,
    },
    /// A local directory holding `.claude-plugin/marketplace.json` (read in place).
    Directory {
        /// The absolute directory.
        path: String,
    },
    /// A URL of a marketplace.json file.
    Url {
        /// The URL.
        url: String,
    },
    /// A local marketplace.json file.
    File {
        /// The file.
        path: String,
    },
    /// An npm package holding a marketplace.
    Npm {
        /// The package.
        package: String,
    },
}

impl MarketplaceSource {
    /// Parse a `marketplace add` argument the way Claude Code does (`git@host:path[#ref]`,
    /// `https://….git[#ref]`, a github.com URL, any other https URL as a marketplace.json URL,
    /// `./dir`, `/dir`, `~/dir`, `owner/repo[#ref|@ref]`), plus skilldeck's `github:owner/repo`,
    /// `file://` and `ssh://` git URLs, and a bare existing directory.
    pub fn parse(spec: &str, cwd: &Path, home: Option<&Path>) -> Result<MarketplaceSource> {
        let t = spec.trim();
        let bad = |message: &str| InstallError::BadSource {
            source_spec: spec.to_string(),
            message: message.to_string(),
        };
        let split_ref = |s: &str| -> (String, Option<String>) {
            match s.split_once('#') {
                Some((u, r)) if !r.is_empty() => (u.to_string(), Some(r.to_string())),
                _ => (s.trim_end_matches('#').to_string(), None),
            }
        };
        if let Some(rest) = t.strip_prefix("github:") {
            let (repo, git_ref) = match rest.rsplit_once('@') {
                Some((r, g)) if !g.is_empty() => (r.to_string(), Some(g.to_string())),
                _ => split_ref(rest),
            };
            return github_repo(&repo)
                .map(|repo| MarketplaceSource::Github {
                    repo,
                    git_ref,
                    path: None,
                })
                .ok_or_else(|| bad("expected `github:owner/repo[@ref]`"));
        }
        let lower = t.to_ascii_lowercase();
        let scp = !t.contains("://")
            && t.split_once(':')
                .is_some_and(|(h, _)| h.contains('@') && !h.contains('/'));
        if scp
            || lower.starts_with("ssh://")
            || lower.starts_with("file://")
            || lower.starts_with("git://")
        {
            let (url, git_ref) = split_ref(t);
            return Ok(MarketplaceSource::Git {
                url,
                git_ref,
                path: None,
            });
        }
        if lower.starts_with("http://") || lower.starts_with("https://") {
            let (url, git_ref) = split_ref(t);
            let host_path = url.split_once("://").map(|x| x.1).unwrap_or("");
            let (host, path) = host_path.split_once('/').unwrap_or((host_path, ""));
            let is_github = host.eq_ignore_ascii_case("github.com")
                && path
                    .trim_end_matches('/')
                    .split('/')
                    .filter(|p| !p.is_empty())
                    .count()
                    >= 2;
            if url.ends_with(".git") || url.contains("/_git/") {
                return Ok(MarketplaceSource::Git {
                    url,
                    git_ref,
                    path: None,
                });
            }
            if is_github {
                let url = format!("{}.git", url.trim_end_matches('/'));
                return Ok(MarketplaceSource::Git {
                    url,
                    git_ref,
                    path: None,
                });
            }
            return Ok(MarketplaceSource::Url { url });
        }
        let looks_local = t.starts_with("./")
            || t.starts_with("../")
            || t.starts_with('/')
            || t.starts_with('~')
            || t == "."
            || cwd.join(t).exists();
        if looks_local {
            let path = match (t.strip_prefix('~'), home) {
                (Some(rest), Some(home)) => home.join(rest.trim_start_matches('/')),
                _ => cwd.join(t),
            };
            let path = std::fs::canonicalize(&path)
                .map_err(|e| bad(&format!("{}: {e}", path.display())))?;
            let text = path.to_string_lossy().into_owned();
            if path.is_file() {
                if !text.ends_with(".json") {
                    return Err(bad("a file path must point to a marketplace.json file"));
                }
                return Ok(MarketplaceSource::File { path: text });
            }
            return Ok(MarketplaceSource::Directory { path: text });
        }
        if t.contains('/') && !t.starts_with('@') && !t.contains(':') {
            let (repo, git_ref) = match t.split_once(['#', '@']) {
                Some((r, g)) if !g.is_empty() => (r.to_string(), Some(g.to_string())),
                _ => (t.to_string(), None),
            };
            return github_repo(&repo)
                .map(|repo| MarketplaceSource::Github { repo, git_ref, path: None })
                .ok_or_else(|| bad("not a valid GitHub owner/repo shorthand; for a git repository use the full URL"));
        }
        Err(bad(
            "expected a directory, a git URL, github:owner/repo or owner/repo",
        ))
    }

    /// The clone URL and ref, for git-backed sources.
    pub fn git(&self) -> Option<(String, Option<String>)> {
        match self {
            MarketplaceSource::Github { repo, git_ref, .. } => {
                Some((format!("https://github.com/{repo}.git"), git_ref.clone()))
            }
            MarketplaceSource::Git { url, git_ref, .. } => Some((url.clone(), git_ref.clone())),
            _ => None,
        }
    }

    /// How `marketplace list` shows it.
    pub fn display(&self) -> String {
        match self {
            MarketplaceSource::Github { repo, git_ref, .. } => match git_ref {
                Some(r) => format!("github:{repo}@{r}"),
                None => format!("github:{repo}"),
            },
            MarketplaceSource::Git { url, git_ref, .. } => match git_ref {
                Some(r) => format!("git:{url}@{r}"),
                None => format!("git:{url}"),
            },
            MarketplaceSource::Directory { path } => format!("dir:{path}"),
            MarketplaceSource::Url { url } => url.clone(),
            MarketplaceSource::File { path } => format!("file:{path}"),
            MarketplaceSource::Npm { package } => format!("npm:{package}"),
        }
    }
}

fn github_repo(repo: &str) -> Option<String> {
    let repo = repo.trim_end_matches('/').trim_end_matches(".git");
    let parts: Vec<&str> = repo.split('/').collect();
    let ok = |p: &str| {
        !p.is_empty()
            && p != "."
            && p != ".."
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    (parts.len() == 2 && parts.iter().all(|p| ok(p))).then(|| repo.to_string())
}

/// One `known_marketplaces.json` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KnownMarketplace {
    /// Where it comes from (kept as written, so source kinds skilldeck does not fetch survive).
    pub source: Value,
    /// Where its files are.
    pub install_location: String,
    /// ISO 8601 time of the last refresh.
    pub last_updated: String,
    /// Claude Code's auto-update flag, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_update: Option<bool>,
    /// Fields other versions wrote, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `installed_plugins.json` (version 2) installation; fields in the order Claude Code
/// writes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Installation {
    /// `user`, `project`, `local` or `managed`.
    pub scope: String,
    /// The versioned cache directory.
    pub install_path: String,
    /// The installed version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// ISO 8601 time of installation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installed_at: Option<String>,
    /// ISO 8601 time of the last update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<String>,
    /// The commit, for git-backed plugins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_commit_sha: Option<String>,
    /// The project, for project and local scopes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_path: Option<String>,
    /// Fields other versions wrote, kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `installed_plugins.json`, version 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstalledPlugins {
    /// Always 2.
    pub version: u32,
    /// `plugin@marketplace` → installations.
    pub plugins: BTreeMap<String, Vec<Installation>>,
}

impl Default for InstalledPlugins {
    fn default() -> Self {
        InstalledPlugins {
            version: 2,
            plugins: BTreeMap::new(),
        }
    }
}

/// The files of the Claude Code layout for one context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeLayout {
    /// `${CLAUDE_CONFIG_DIR:-~/.claude}`.
    pub config_dir: PathBuf,
    /// The project (for project-scope settings).
    pub project_dir: PathBuf,
    /// Claude Code's managed settings file.
    pub managed_settings: PathBuf,
}

impl ClaudeLayout {
    /// `<config>/plugins`.
    pub fn plugins_dir(&self) -> PathBuf {
        self.config_dir.join("plugins")
    }
    /// `<config>/plugins/known_marketplaces.json`.
    pub fn known_marketplaces(&self) -> PathBuf {
        self.plugins_dir().join("known_marketplaces.json")
    }
    /// `<config>/plugins/installed_plugins.json`.
    pub fn installed_plugins(&self) -> PathBuf {
        self.plugins_dir().join("installed_plugins.json")
    }
    /// `<config>/plugins/skilldeck-lock.json`: skilldeck's digests for installed plugins.
    pub fn lock(&self) -> PathBuf {
        self.plugins_dir().join("skilldeck-lock.json")
    }
    /// `<config>/plugins/marketplaces/<name>`.
    pub fn marketplace_dir(&self, name: &str) -> PathBuf {
        self.plugins_dir().join("marketplaces").join(name)
    }
    /// `<config>/plugins/cache/<marketplace>/<plugin>/<version>`, sanitised as Claude Code does.
    pub fn cache_dir(&self, marketplace: &str, plugin: &str, version: &str) -> PathBuf {
        let clean = |s: &str, keep_dot: bool| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' || (keep_dot && c == '.') {
                        c
                    } else {
                        '-'
                    }
                })
                .collect()
        };
        let mut v = clean(version, true);
        if v == "." || v == ".." {
            v = "-".into();
        }
        self.plugins_dir()
            .join("cache")
            .join(clean(marketplace, false))
            .join(clean(plugin, false))
            .join(v)
    }
    /// The settings file of `scope`.
    pub fn settings(&self, scope: PluginScope) -> PathBuf {
        match scope {
            PluginScope::User => self.config_dir.join("settings.json"),
            PluginScope::Project => self.project_dir.join(".claude").join("settings.json"),
            PluginScope::Local => self.project_dir.join(".claude").join("settings.local.json"),
            PluginScope::Managed => self.managed_settings.clone(),
        }
    }
}

/// The managed settings file Claude Code reads on this platform.
pub fn default_managed_settings() -> PathBuf {
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json")
    } else if cfg!(windows) {
        PathBuf::from(r"C:\Program Files\ClaudeCode\managed-settings.json")
    } else {
        PathBuf::from("/etc/claude-code/managed-settings.json")
    }
}

/// Read a JSON file; a missing file is `None`.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(InstallError::io(path, e)),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: format!("cannot read it ({e}); fix the JSON or move the file away"),
        })
}

/// Write `text` atomically: a temporary file beside `path`, flushed, renamed over it.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".skilldeck-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| InstallError::io(dir, e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| InstallError::io(path, e))?;
    tmp.persist(path)
        .map_err(|e| InstallError::io(path, e.error))?;
    Ok(())
}

/// JSON as Claude Code writes it (`JSON.stringify(x, null, 2)`), plus a newline.
pub fn to_json_text<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// A set of file rewrites applied together: each file's previous bytes are kept so
/// [`Rewrites::rollback`] restores every file already written when a later step fails.
#[derive(Default)]
pub struct Rewrites {
    done: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl Rewrites {
    /// Write `text` to `path`, remembering what was there.
    pub fn write(&mut self, path: &Path, text: &str) -> Result<()> {
        let before = std::fs::read(path).ok();
        write_atomic(path, text)?;
        self.done.push((path.to_path_buf(), before));
        Ok(())
    }

    /// Put every written file back as it was.
    pub fn rollback(self) {
        for (path, before) in self.done.into_iter().rev() {
            match before {
                Some(bytes) => {
                    let _ = std::fs::write(&path, bytes);
                }
                None => {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
}

/// Set `enabledPlugins[id]` in a settings object (`None` removes it), keeping every other key.
pub fn set_enabled(settings: &mut Value, id: &str, value: Option<bool>) -> Result<()> {
    if !settings.is_object() {
        *settings = Value::Object(Map::new());
    }
    let Some(obj) = settings.as_object_mut() else {
        return Ok(());
    };
    let enabled = obj
        .entry("enabledPlugins")
        .or_insert_with(|| Value::Object(Map::new()));
    if !enabled.is_object() {
        *enabled = Value::Object(Map::new());
    }
    if let Some(map) = enabled.as_object_mut() {
        match value {
            Some(v) => {
                map.insert(id.to_string(), Value::Bool(v));
            }
            None => {
                map.remove(id);
            }
        }
    }
    Ok(())
}

/// Declare (`Some(source)`) or forget (`None`) `extraKnownMarketplaces[name]` in the user's
/// settings, as `claude plugin marketplace add` / `remove` do ("declared in user settings").
pub fn set_declared_marketplace(settings: &mut Value, name: &str, source: Option<&Value>) {
    if !settings.is_object() {
        *settings = Value::Object(Map::new());
    }
    let Some(obj) = settings.as_object_mut() else {
        return;
    };
    let extra = obj
        .entry("extraKnownMarketplaces")
        .or_insert_with(|| Value::Object(Map::new()));
    if !extra.is_object() {
        *extra = Value::Object(Map::new());
    }
    if let Some(map) = extra.as_object_mut() {
        match source {
            Some(source) => {
                map.insert(name.to_string(), serde_json::json!({ "source": source }));
            }
            None => {
                map.remove(name);
            }
        }
    }
}

/// `enabledPlugins[id]` of a settings object: `Some(true)` enabled, `Some(false)` disabled.
pub fn enabled_in(settings: &Value, id: &str) -> Option<bool> {
    match settings.get("enabledPlugins")?.get(id)? {
        Value::Bool(b) => Some(*b),
        // Claude Code also accepts a version-constraint list as "enabled".
        Value::Array(_) => Some(true),
        _ => None,
    }
}

// ---- policy ----

/// The official marketplace names Claude Code reserves for sources under
/// `github.com/anthropics/` (its `cIe` and `sDt` sets, 2.1.197).
pub const RESERVED_MARKETPLACE_NAMES: [&str; 14] = [
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "claude-community",
    "claude-plugins-community",
];

fn from_anthropics(source: &MarketplaceSource) -> bool {
    match source {
        MarketplaceSource::Github { repo, .. } => {
            repo.to_ascii_lowercase().starts_with("anthropics/")
        }
        MarketplaceSource::Git { url, .. } => {
            let lower = url.to_ascii_lowercase();
            let rest = lower
                .strip_prefix("https://")
                .or_else(|| lower.strip_prefix("http://"))
                .or_else(|| lower.strip_prefix("ssh://git@"))
                .or_else(|| lower.strip_prefix("git@"));
            rest.is_some_and(|r| {
                (r.starts_with("github.com/anthropics/") || r.starts_with("github.com:anthropics/"))
                    && !r.split('/').any(|p| p == "..")
            })
        }
        _ => false,
    }
}

/// Why `name` may not be used for a marketplace from `source`: a reserved official name from
/// anywhere but `github.com/anthropics/`, or a name impersonating an official marketplace
/// (Claude Code's `SFu`: non-printable-ASCII characters, or `official` next to
/// `anthropic`/`claude`, or `anthropic`/`claude` followed by `marketplace`/`plugins`/`official`).
pub fn reserved_name_problem(name: &str, source: &MarketplaceSource) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if RESERVED_MARKETPLACE_NAMES.contains(&lower.as_str()) {
        if from_anthropics(source) {
            return None;
        }
        return Some(format!(
            "the marketplace name `{name}` is reserved for official Anthropic marketplaces (github.com/anthropics/…); rename the marketplace in its marketplace.json"
        ));
    }
    let impersonates = name.chars().any(|c| !(' '..='~').contains(&c))
        || regex::RegexBuilder::new(
            r"(?:official[^a-z0-9]*(anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official|^(?:anthropic|claude)[^a-z0-9]*(marketplace|plugins|official))",
        )
        .case_insensitive(true)
        .build()
        .is_ok_and(|re| re.is_match(name));
    impersonates.then(|| {
        format!("the marketplace name `{name}` impersonates an official Anthropic/Claude marketplace; rename it in its marketplace.json")
    })
}

/// The policy lists of the managed settings file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Policy {
    /// `strictKnownMarketplaces`: `None` allows every marketplace; a list allows only matches.
    pub strict: Option<Vec<Value>>,
    /// `blockedMarketplaces`: matches are refused.
    pub blocked: Vec<Value>,
    /// The file the lists came from (for messages).
    pub file: PathBuf,
}

impl Policy {
    /// Read the managed settings file (missing: no policy).
    pub fn read(path: &Path) -> Result<Policy> {
        let settings: Value = read_json(path)?.unwrap_or(Value::Null);
        let list = |key: &str| settings.get(key).and_then(Value::as_array).cloned();
        Ok(Policy {
            strict: list("strictKnownMarketplaces"),
            blocked: list("blockedMarketplaces").unwrap_or_default(),
            file: path.to_path_buf(),
        })
    }

    /// Refuse `source` when blocked, or not allowed by a strict list (Claude Code's
    /// `isSourceAllowedByPolicy`: block-list entries match loosely (a missing `ref`/`path`
    /// matches any), allow-list entries exactly; `hostPattern` and `pathPattern` are regexes).
    pub fn check(&self, source: &MarketplaceSource) -> Result<()> {
        let shown = source.display();
        if let Some(rule) = self.blocked.iter().find(|b| matches_rule(source, b, true)) {
            return Err(InstallError::Policy {
                message: format!(
                    "marketplace source `{shown}` is blocked by blockedMarketplaces in {} (rule {rule}); ask your administrator",
                    self.file.display()
                ),
            });
        }
        if let Some(strict) = &self.strict {
            if !strict.iter().any(|s| matches_rule(source, s, false)) {
                return Err(InstallError::Policy {
                    message: format!(
                        "marketplace source `{shown}` is not in strictKnownMarketplaces in {}, which allows only the marketplaces it lists; ask your administrator",
                        self.file.display()
                    ),
                });
            }
        }
        Ok(())
    }
}

fn host_of(source: &MarketplaceSource) -> Option<String> {
    let from_url = |url: &str| -> Option<String> {
        if let Some((_, rest)) = url.split_once("://") {
            let authority = rest.split('/').next()?;
            let host = authority.rsplit('@').next()?;
            let host = host.split(':').next()?;
            return Some(host.to_ascii_lowercase());
        }
        let (user_host, _) = url.split_once(':')?;
        Some(user_host.rsplit('@').next()?.to_ascii_lowercase())
    };
    match source {
        MarketplaceSource::Github { .. } => Some("github.com".into()),
        MarketplaceSource::Git { url, .. } | MarketplaceSource::Url { url } => from_url(url),
        _ => None,
    }
}

fn norm_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_ascii_lowercase()
}

fn github_repo_of_url(url: &str) -> Option<String> {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .split_once("github.com")
        .map(|x| x.1)?
        .trim_start_matches([':', '/']);
    github_repo(rest)
}

fn matches_rule(source: &MarketplaceSource, rule: &Value, loose: bool) -> bool {
    let text = |key: &str| rule.get(key).and_then(Value::as_str).map(str::to_string);
    let kind = text("source").unwrap_or_default();
    let same_opt = |want: Option<String>, have: &Option<String>| -> bool {
        if loose && want.as_deref().is_none_or(str::is_empty) {
            return true;
        }
        want.filter(|w| !w.is_empty()) == have.clone().filter(|h| !h.is_empty())
    };
    let regex = |pat: Option<String>, against: Option<String>| -> bool {
        match (pat, against) {
            (Some(p), Some(a)) => regex::Regex::new(&p).is_ok_and(|re| re.is_match(&a)),
            _ => false,
        }
    };
    match (kind.as_str(), source) {
        ("hostPattern", _) => regex(text("hostPattern"), host_of(source)),
        (
            "pathPattern",
            MarketplaceSource::Directory { path } | MarketplaceSource::File { path },
        ) => regex(text("pathPattern"), Some(path.clone())),
        (
            "github",
            MarketplaceSource::Github {
                repo,
                git_ref,
                path,
            },
        ) => {
            text("repo").as_deref() == Some(repo.as_str())
                && same_opt(text("ref"), git_ref)
                && same_opt(text("path"), path)
        }
        ("git", MarketplaceSource::Git { url, git_ref, path }) => {
            text("url").is_some_and(|u| norm_url(&u) == norm_url(url))
                && same_opt(text("ref"), git_ref)
                && same_opt(text("path"), path)
        }
        // The block list also matches a github rule against the same repository given as a
        // git URL, and the other way round.
        ("github", MarketplaceSource::Git { url, git_ref, path }) if loose => {
            text("repo").is_some_and(|r| github_repo_of_url(url).as_deref() == Some(r.as_str()))
                && same_opt(text("ref"), git_ref)
                && same_opt(text("path"), path)
        }
        (
            "git",
            MarketplaceSource::Github {
                repo,
                git_ref,
                path,
            },
        ) if loose => {
            text("url").is_some_and(|u| github_repo_of_url(&u).as_deref() == Some(repo.as_str()))
                && same_opt(text("ref"), git_ref)
                && same_opt(text("path"), path)
        }
        ("url", MarketplaceSource::Url { url }) => {
            text("url").is_some_and(|u| norm_url(&u) == norm_url(url))
        }
        ("npm", MarketplaceSource::Npm { package }) => {
            text("package").as_deref() == Some(package.as_str())
        }
        ("file", MarketplaceSource::File { path })
        | ("directory", MarketplaceSource::Directory { path }) => {
            text("path").as_deref() == Some(path.as_str())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn add_argument_forms() {
        let t = tempfile::tempdir().unwrap();
        let cwd = t.path();
        std::fs::create_dir(cwd.join("m")).unwrap();
        let p = |s: &str| MarketplaceSource::parse(s, cwd, None).unwrap();
        assert_eq!(
            p("acme/market#v1"),
            MarketplaceSource::Github {
                repo: "acme/market".into(),
                git_ref: Some("v1".into()),
                path: None
            }
        );
        assert_eq!(
            p("github:acme/market"),
            MarketplaceSource::Github {
                repo: "acme/market".into(),
                git_ref: None,
                path: None
            }
        );
        assert!(
            matches!(p("git@example.com:a/b.git#main"), MarketplaceSource::Git { git_ref: Some(r), .. } if r == "main")
        );
        assert!(
            matches!(p("https://github.com/a/b"), MarketplaceSource::Git { url, .. } if url == "https://github.com/a/b.git")
        );
        assert!(matches!(
            p("https://example.com/m.json"),
            MarketplaceSource::Url { .. }
        ));
        assert!(matches!(p("file:///srv/m"), MarketplaceSource::Git { .. }));
        assert!(matches!(p("./m"), MarketplaceSource::Directory { .. }));
        assert!(matches!(p("m"), MarketplaceSource::Directory { .. }));
        assert!(MarketplaceSource::parse("a/../b", cwd, None).is_err());
        assert!(MarketplaceSource::parse("./missing", cwd, None).is_err());
    }

    #[test]
    fn known_and_installed_files_keep_unknown_fields() {
        let known: BTreeMap<String, KnownMarketplace> = serde_json::from_value(json!({
            "m": {"source": {"source": "github", "repo": "a/b"}, "installLocation": "/x",
                  "lastUpdated": "2026-01-01T00:00:00.000Z", "future": 1}
        }))
        .unwrap();
        let text = to_json_text(&known);
        assert!(text.contains("\"installLocation\": \"/x\"") && text.contains("\"future\": 1"));
        let installed: InstalledPlugins = serde_json::from_value(json!({
            "version": 2,
            "plugins": {"p@m": [{"scope": "user", "installPath": "/c", "version": "1.0.0",
                                 "installedAt": "t", "lastUpdated": "t", "gitCommitSha": "abc"}]}
        }))
        .unwrap();
        assert_eq!(
            installed.plugins["p@m"][0].git_commit_sha.as_deref(),
            Some("abc")
        );
    }

    #[test]
    fn cache_dir_is_sanitised_like_claude_code() {
        let l = ClaudeLayout {
            config_dir: PathBuf::from("/h/.claude"),
            project_dir: PathBuf::from("/p"),
            managed_settings: PathBuf::from("/m"),
        };
        assert_eq!(
            l.cache_dir("my.market", "p@x", "1.2.0+b/1"),
            PathBuf::from("/h/.claude/plugins/cache/my-market/p-x/1.2.0-b-1")
        );
        assert!(l.cache_dir("m", "p", "..").ends_with("p/-"));
    }

    #[test]
    fn settings_edit_keeps_other_keys() {
        let mut s = json!({"model": "x", "enabledPlugins": {"a@m": true}});
        set_enabled(&mut s, "b@m", Some(false)).unwrap();
        assert_eq!(
            s,
            json!({"model": "x", "enabledPlugins": {"a@m": true, "b@m": false}})
        );
        assert_eq!(enabled_in(&s, "b@m"), Some(false));
        set_enabled(&mut s, "a@m", None).unwrap();
        assert_eq!(enabled_in(&s, "a@m"), None);
    }

    #[test]
    fn reserved_names() {
        let other = MarketplaceSource::Github {
            repo: "me/x".into(),
            git_ref: None,
            path: None,
        };
        let official = MarketplaceSource::Github {
            repo: "anthropics/x".into(),
            git_ref: None,
            path: None,
        };
        assert!(reserved_name_problem("claude-plugins-official", &other).is_some());
        assert!(reserved_name_problem("claude-plugins-official", &official).is_none());
        assert!(reserved_name_problem("official-claude-tools", &other).is_some());
        assert!(reserved_name_problem("anthropic-marketplace-2", &other).is_some());
        assert!(reserved_name_problem("my-claude-tools", &other).is_none());
        assert!(reserved_name_problem("café", &other).is_some());
    }

    #[test]
    fn policy_semantics() {
        let gh = |repo: &str, r: Option<&str>| MarketplaceSource::Github {
            repo: repo.into(),
            git_ref: r.map(str::to_string),
            path: None,
        };
        let policy = Policy {
            strict: Some(vec![
                json!({"source": "github", "repo": "acme/ok"}),
                json!({"source": "hostPattern", "hostPattern": "^git\\.acme\\.dev$"}),
                json!({"source": "pathPattern", "pathPattern": "^/srv/"}),
            ]),
            blocked: vec![json!({"source": "github", "repo": "acme/bad"})],
            file: PathBuf::from("managed-settings.json"),
        };
        assert!(policy.check(&gh("acme/ok", None)).is_ok());
        // Allow-list entries match exactly: a ref the entry does not name is not allowed.
        assert!(policy.check(&gh("acme/ok", Some("dev"))).is_err());
        assert!(policy
            .check(&MarketplaceSource::Git {
                url: "ssh://git@git.acme.dev/m.git".into(),
                git_ref: None,
                path: None
            })
            .is_ok());
        assert!(policy
            .check(&MarketplaceSource::Directory {
                path: "/srv/m".into()
            })
            .is_ok());
        assert!(policy
            .check(&MarketplaceSource::Directory {
                path: "/tmp/m".into()
            })
            .is_err());
        // Block-list entries match loosely, across github and git forms.
        let open = Policy {
            strict: None,
            ..policy
        };
        assert_eq!(
            open.check(&gh("acme/bad", Some("v2"))).unwrap_err().code(),
            "POLICY_BLOCKED"
        );
        assert!(open
            .check(&MarketplaceSource::Git {
                url: "https://github.com/acme/bad.git".into(),
                git_ref: None,
                path: None
            })
            .is_err());
        assert!(open.check(&gh("acme/other", None)).is_ok());
    }
}
