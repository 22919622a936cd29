//! Codex's plugin files, as Codex 0.169.0's own `codex plugin marketplace add` and
//! `codex plugin add|remove` write them (recorded in `install/tests/oracle/codex-0.169.0`):
//!
//! - `$CODEX_HOME/config.toml`: `[marketplaces.<name>]` with `source_type = "local"` and
//!   `source = "<absolute directory>"` (a local marketplace is read in place), and
//!   `[plugins."plugin@marketplace"]` with `enabled = true`;
//! - `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>/`: a copy of the plugin, the
//!   whole `<plugin>` directory replaced on each install so it holds one version. The version
//!   is the manifest's (`.codex-plugin`, `.claude-plugin`, then `.cursor-plugin`), else
//!   `local`. A plugin with none of them that its marketplace entry defines (`strict: false`)
//!   gets a `.codex-plugin/plugin.json` made of the entry without `source`, plus `interface`
//!   (`developerName` from `author.name`, `category`) when the entry has those.
//!
//! Codex has no scopes (plugins live in the user's config only) and no enable/disable command;
//! `enabled` is the key it reads. Git marketplaces (`source_type = "git"`, cloned to
//! `.tmp/marketplaces/<name>`) and `marketplace update` (Codex's `marketplace upgrade`) are
//! in [`crate::plugin::codex_git`]. Codex has no `plugin update`: here it installs each plugin
//! again from its marketplace's current files, as the cache refresh after Codex's own
//! marketplace upgrade does (config.toml untouched). Only relative plugin sources are
//! installed (Codex fetches remote plugin sources itself).
//! The config is edited with `toml_edit`, as Codex does, so comments and other tables stay.

use crate::error::{InstallError, Result};
use crate::git;
use crate::plugin::codex_git::{self, CodexSource, InstallMetadata};
use crate::plugin::manifest;
use crate::plugin::marketplace::{self, PluginSource};
use crate::plugin::ops::PluginUpdateReport;
use crate::plugin::ops::{MarketplaceInfo, MarketplaceRemoveReport, MarketplaceUpdate, PluginInfo};
use crate::plugin::ops::{PluginInstallReport, PluginUninstallReport};
use crate::plugin::PluginScope;
use crate::{report, stage, Limits, ProgressFn};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, Table};

/// The manifests Codex reads, in its order.
pub const CODEX_MANIFESTS: [&str; 3] = [
    ".codex-plugin/plugin.json",
    ".claude-plugin/plugin.json",
    ".cursor-plugin/plugin.json",
];

/// The files of Codex's plugin layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexLayout {
    /// `${CODEX_HOME:-~/.codex}`.
    pub home: PathBuf,
}

impl CodexLayout {
    /// `<home>/config.toml`.
    pub fn config(&self) -> PathBuf {
        self.home.join("config.toml")
    }
    /// `<home>/.tmp/marketplaces`: the clones of git marketplaces.
    pub fn clones(&self) -> PathBuf {
        self.home.join(".tmp").join("marketplaces")
    }
    /// `<home>/.tmp/marketplaces/<name>`: one git marketplace's clone.
    pub fn marketplace_clone(&self, name: &str) -> PathBuf {
        self.clones().join(name)
    }
    /// `<home>/plugins/cache/<marketplace>/<plugin>`: every version of one plugin.
    pub fn plugin_base(&self, marketplace: &str, plugin: &str) -> PathBuf {
        self.home
            .join("plugins")
            .join("cache")
            .join(marketplace)
            .join(plugin)
    }
}

fn bad(spec: &str, message: impl Into<String>) -> InstallError {
    InstallError::BadSource {
        source_spec: spec.to_string(),
        message: message.into(),
    }
}

/// Codex's id segments (`validate_plugin_segment`): ASCII letters, digits, `-`, `_`.
fn segment_problem(s: &str, what: &str) -> Option<String> {
    let ok = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (!ok).then(|| {
        format!("invalid {what} `{s}`: Codex allows only ASCII letters, digits, `-` and `_`")
    })
}

/// Codex's version directory names: ASCII letters, digits, `.`, `+`, `_`, `-`; not `.`/`..`.
fn version_ok(v: &str) -> bool {
    !v.is_empty()
        && v != "."
        && v != ".."
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}

fn read_config(layout: &CodexLayout) -> Result<DocumentMut> {
    let path = layout.config();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(InstallError::io(&path, e)),
    };
    text.parse::<DocumentMut>()
        .map_err(|e| InstallError::InvalidManifest {
            path: path.clone(),
            message: format!("{}; fix the TOML syntax", e.message()),
        })
}

fn write_config(layout: &CodexLayout, doc: &DocumentMut) -> Result<()> {
    crate::plugin::claude::write_atomic(&layout.config(), &doc.to_string())
}

/// The table `[<key>]` of `doc`, created implicit (so only its subtables are written).
fn section<'d>(doc: &'d mut DocumentMut, key: &str, path: &Path) -> Result<&'d mut Table> {
    let item = doc.entry(key).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    item.as_table_mut()
        .ok_or_else(|| InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: format!("`{key}` must be a table; fix config.toml"),
        })
}

/// A configured marketplace as config.toml records it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Configured {
    Local(PathBuf),
    Git {
        url: String,
        git_ref: Option<String>,
    },
}

fn configured(doc: &DocumentMut, name: &str) -> Option<Configured> {
    let t = doc.get("marketplaces")?.get(name)?;
    let source = t.get("source").and_then(Item::as_str)?;
    match t.get("source_type").and_then(Item::as_str) {
        Some("local") => Some(Configured::Local(PathBuf::from(source))),
        Some("git") => Some(Configured::Git {
            url: source.to_string(),
            git_ref: t.get("ref").and_then(Item::as_str).map(String::from),
        }),
        _ => None,
    }
}

/// Where a configured marketplace's files are: a local one in place, a git one in its clone.
fn marketplace_root(layout: &CodexLayout, doc: &DocumentMut, name: &str) -> Option<PathBuf> {
    match configured(doc, name)? {
        Configured::Local(dir) => Some(dir),
        Configured::Git { .. } => Some(layout.marketplace_clone(name)),
    }
}

fn marketplace_info(layout: &CodexLayout, name: &str, how: &Configured) -> MarketplaceInfo {
    let (root, source, commit) = match how {
        Configured::Local(dir) => (
            dir.clone(),
            json!({"sourceType": "local", "source": dir.to_string_lossy()}),
            None,
        ),
        Configured::Git { url, git_ref } => {
            let clone = layout.marketplace_clone(name);
            let mut source = json!({"sourceType": "git", "source": url});
            if let Some(r) = git_ref {
                source["ref"] = Value::String(r.clone());
            }
            let commit = git::head(&clone);
            (clone, source, commit)
        }
    };
    let (plugins, error) = match marketplace::read_marketplace(&root) {
        Ok(m) => (m.plugins.into_iter().map(|p| p.name).collect(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    MarketplaceInfo {
        name: name.to_string(),
        source,
        install_location: root.to_string_lossy().into_owned(),
        last_updated: String::new(),
        commit,
        plugins,
        error,
    }
}

/// `[marketplaces.<name>]` as Codex writes it (`ref` only when given).
fn marketplace_table(how: &Configured) -> Table {
    let mut entry = Table::new();
    match how {
        Configured::Local(dir) => {
            entry.insert("source_type", toml_edit::value("local"));
            entry.insert("source", toml_edit::value(dir.to_string_lossy().as_ref()));
        }
        Configured::Git { url, git_ref } => {
            entry.insert("source_type", toml_edit::value("git"));
            entry.insert("source", toml_edit::value(url.as_str()));
            if let Some(r) = git_ref {
                entry.insert("ref", toml_edit::value(r.as_str()));
            }
        }
    }
    entry
}

fn describe(how: &Configured) -> String {
    match how {
        Configured::Local(dir) => dir.display().to_string(),
        Configured::Git { url, git_ref: None } => url.clone(),
        Configured::Git {
            url,
            git_ref: Some(r),
        } => format!("{url}#{r}"),
    }
}

/// `codex plugin marketplace add SOURCE`: a local directory is recorded and read in place; a
/// git repository is cloned to `.tmp/marketplaces/<name>` first. The same source again is
/// "already added" (nothing changes); another source under a configured name is refused.
pub fn marketplace_add(
    layout: &CodexLayout,
    spec: &str,
    cwd: &Path,
    home: Option<&Path>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<MarketplaceInfo> {
    let source = codex_git::parse_source(spec, cwd, home)?;
    let (how, staged, market) = match source {
        CodexSource::Local(root) => {
            let market = marketplace::read_marketplace(&root)?;
            (Configured::Local(root), None, market)
        }
        CodexSource::Git { url, git_ref } => {
            report(progress, "fetch", format!("git clone {url}"));
            let staged = codex_git::stage_clone(&layout.clones(), &url, git_ref.as_deref())?;
            let market = staged.marketplace.clone();
            (Configured::Git { url, git_ref }, Some(staged), market)
        }
    };
    if let Some(problem) = segment_problem(&market.name, "marketplace name") {
        return Err(bad(spec, problem));
    }
    let mut doc = read_config(layout)?;
    let name = market.name.clone();
    if let Some(existing) = configured(&doc, &name) {
        if existing != how {
            return Err(bad(
                spec,
                format!(
                    "marketplace `{name}` is already added from a different source ({}); remove it before adding this source (skilldeck marketplace remove {name} --host codex)",
                    describe(&existing)
                ),
            ));
        }
        let root = marketplace_root(layout, &doc, &name).unwrap_or_default();
        if marketplace::read_marketplace(&root).is_ok() {
            return Ok(marketplace_info(layout, &name, &how));
        }
    }
    let target = layout.marketplace_clone(&name);
    if let Some(staged) = &staged {
        report(progress, "install", format!("marketplace {name}"));
        codex_git::place(staged, &target)?;
    }
    let path = layout.config();
    let written = section(&mut doc, "marketplaces", &path)
        .map(|markets| {
            markets.insert(&name, Item::Table(marketplace_table(&how)));
        })
        .and_then(|()| write_config(layout, &doc));
    if let Err(err) = written {
        if staged.is_some() {
            let _ = std::fs::remove_dir_all(&target);
        }
        return Err(err);
    }
    Ok(marketplace_info(layout, &name, &how))
}

/// The configured marketplaces.
pub fn marketplace_list(layout: &CodexLayout) -> Result<Vec<MarketplaceInfo>> {
    let doc = read_config(layout)?;
    let mut out = Vec::new();
    if let Some(t) = doc.get("marketplaces").and_then(Item::as_table) {
        for (name, _) in t.iter() {
            if let Some(how) = configured(&doc, name) {
                out.push(marketplace_info(layout, name, &how));
            }
        }
    }
    Ok(out)
}

/// `codex plugin marketplace remove NAME`: drop the marketplace's table and a git
/// marketplace's clone; its installed plugins stay (Codex loads plugins from the cache
/// without their marketplace).
pub fn marketplace_remove(layout: &CodexLayout, name: &str) -> Result<MarketplaceRemoveReport> {
    let mut doc = read_config(layout)?;
    let how = configured(&doc, name);
    let removed = doc
        .get_mut("marketplaces")
        .and_then(Item::as_table_mut)
        .and_then(|t| t.remove(name));
    if removed.is_none() {
        return Err(InstallError::NoSuchSkill {
            message: format!(
                "no Codex marketplace named `{name}` in {}",
                layout.config().display()
            ),
        });
    }
    write_config(layout, &doc)?;
    if let Some(Configured::Git { .. }) = how {
        let clone = layout.marketplace_clone(name);
        if clone.exists() {
            std::fs::remove_dir_all(&clone).map_err(|e| InstallError::io(&clone, e))?;
        }
    }
    Ok(MarketplaceRemoveReport {
        name: name.to_string(),
        uninstalled: Vec::new(),
    })
}

/// `codex plugin marketplace upgrade [NAME]`: fetch each git marketplace (only `name` when
/// given) again. A clone whose `.codex-marketplace-install.json` names the fetched revision
/// stays; otherwise the new clone replaces it, with that file written, and every configured
/// plugin of the marketplace is installed again into the cache. Local marketplaces are read
/// in place and are not listed. Stops at the first failure.
pub fn marketplace_update(
    layout: &CodexLayout,
    name: Option<&str>,
    limits: &Limits,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Vec<MarketplaceUpdate>> {
    let doc = read_config(layout)?;
    let mut gits: Vec<(String, String, Option<String>)> = doc
        .get("marketplaces")
        .and_then(Item::as_table)
        .map(|t| {
            t.iter()
                .filter_map(|(n, _)| match configured(&doc, n) {
                    Some(Configured::Git { url, git_ref }) => Some((n.to_string(), url, git_ref)),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    gits.sort();
    if let Some(n) = name {
        if !gits.iter().any(|(g, _, _)| g == n) {
            return Err(InstallError::NoSuchSkill {
                message: format!(
                    "marketplace `{n}` is not configured as a Git marketplace in {}; see skilldeck marketplace list --host codex",
                    layout.config().display()
                ),
            });
        }
    }
    let mut out = Vec::new();
    for (market, url, git_ref) in gits {
        if name.is_some_and(|n| n != market) {
            continue;
        }
        let clone = layout.marketplace_clone(&market);
        let before = InstallMetadata::read(&clone);
        let from_commit = git::head(&clone);
        report(progress, "fetch", format!("git clone {url}"));
        let staged = codex_git::stage_clone(&layout.clones(), &url, git_ref.as_deref())?;
        let metadata = InstallMetadata::new(&url, git_ref.as_deref(), &staged.revision);
        if before.as_ref() == Some(&metadata) && marketplace::read_marketplace(&clone).is_ok() {
            out.push(MarketplaceUpdate {
                name: market,
                to_commit: from_commit.clone(),
                from_commit,
            });
            continue;
        }
        if staged.marketplace.name != market {
            return Err(InstallError::InvalidManifest {
                path: PathBuf::from(marketplace::MARKETPLACE_FILE),
                message: format!(
                    "upgraded marketplace name `{}` does not match configured marketplace `{market}`; remove it and add it again",
                    staged.marketplace.name
                ),
            });
        }
        metadata.write(&staged.root())?;
        codex_git::place(&staged, &clone)?;
        for id in configured_plugins(&doc, &market) {
            reinstall(layout, &id, limits, progress)?;
        }
        out.push(MarketplaceUpdate {
            name: market,
            from_commit,
            to_commit: Some(staged.revision.clone()),
        });
    }
    Ok(out)
}

/// The `[plugins]` ids of one marketplace, in config order.
fn configured_plugins(doc: &DocumentMut, market: &str) -> Vec<String> {
    doc.get("plugins")
        .and_then(Item::as_table)
        .map(|t| {
            t.iter()
                .map(|(id, _)| id.to_string())
                .filter(|id| id.rsplit_once('@').is_some_and(|(_, m)| m == market))
                .collect()
        })
        .unwrap_or_default()
}

/// Install `id` again into the cache from its marketplace's current files, leaving
/// config.toml alone; updates pass the default audit threshold (critical findings refused).
fn reinstall(
    layout: &CodexLayout,
    id: &str,
    limits: &Limits,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    let (plugin, market) = split(id)?;
    let doc = read_config(layout)?;
    install_cache(
        layout,
        &doc,
        plugin,
        market,
        limits,
        skilldeck::AuditSeverity::High,
        progress,
    )
}

fn split(id: &str) -> Result<(&str, &str)> {
    let (plugin, market) = id
        .rsplit_once('@')
        .ok_or_else(|| bad(id, "Codex installs PLUGIN@MARKETPLACE"))?;
    for (s, what) in [(plugin, "plugin name"), (market, "marketplace name")] {
        if let Some(p) = segment_problem(s, what) {
            return Err(bad(id, p));
        }
    }
    Ok((plugin, market))
}

fn user_only(scope: PluginScope) -> Result<()> {
    match scope {
        PluginScope::User => Ok(()),
        other => Err(bad(
            other.as_str(),
            "Codex keeps plugins in the user's config.toml only; use --scope user",
        )),
    }
}

/// The manifest Codex would read in `dir`, parsed.
fn codex_manifest(dir: &Path) -> Result<Option<(PathBuf, Value)>> {
    for rel in CODEX_MANIFESTS {
        let path = dir.join(rel);
        if path.is_file() {
            let text = std::fs::read_to_string(&path).map_err(|e| InstallError::io(&path, e))?;
            let value: Value =
                serde_json::from_str(&text).map_err(|e| InstallError::InvalidManifest {
                    path: path.clone(),
                    message: format!("{e}; fix the JSON"),
                })?;
            return Ok(Some((path, value)));
        }
    }
    Ok(None)
}

/// What Codex writes as `.codex-plugin/plugin.json` for a plugin its entry defines.
fn synthesized(entry: &Map<String, Value>) -> Value {
    let mut out: Map<String, Value> = entry
        .iter()
        .filter(|(k, _)| k.as_str() != "source")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut interface = Map::new();
    if let Some(dev) = entry
        .get("author")
        .and_then(|a| a.get("name"))
        .and_then(Value::as_str)
    {
        interface.insert("developerName".into(), Value::String(dev.into()));
    }
    if let Some(cat) = entry.get("category").and_then(Value::as_str) {
        interface.insert("category".into(), Value::String(cat.into()));
    }
    if !interface.is_empty() {
        out.insert("interface".into(), Value::Object(interface));
    }
    Value::Object(out)
}

/// `codex plugin add PLUGIN@MARKETPLACE`: the plugin into the cache and
/// `[plugins."<id>"] enabled = true`.
pub fn plugin_install(
    layout: &CodexLayout,
    id: &str,
    scope: PluginScope,
    limits: &Limits,
    max_severity: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    user_only(scope)?;
    let (plugin, market) = split(id)?;
    let mut doc = read_config(layout)?;
    let current = doc.clone();
    let path = layout.config();
    let mut enable =
        || set_plugin_enabled(&mut doc, id, true, &path).and_then(|()| write_config(layout, &doc));
    install_cache_then(
        layout,
        &current,
        plugin,
        market,
        limits,
        max_severity,
        progress,
        &mut enable,
    )
}

/// [`install_cache_then`] with nothing to write after the cache.
fn install_cache(
    layout: &CodexLayout,
    doc: &DocumentMut,
    plugin: &str,
    market: &str,
    limits: &Limits,
    max_severity: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    install_cache_then(
        layout,
        doc,
        plugin,
        market,
        limits,
        max_severity,
        progress,
        &mut || Ok(()),
    )
}

/// Copy `plugin` of `market` (as `doc` configures it) into `plugins/cache/<m>/<p>/<version>`,
/// replacing every older version, then run `finish`; when `finish` fails the old cache
/// directory is put back.
#[allow(clippy::too_many_arguments)]
fn install_cache_then(
    layout: &CodexLayout,
    doc: &DocumentMut,
    plugin: &str,
    market: &str,
    limits: &Limits,
    max_severity: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
    finish: &mut dyn FnMut() -> Result<()>,
) -> Result<PluginInstallReport> {
    let id = format!("{plugin}@{market}");
    let id = id.as_str();
    let root = marketplace_root(layout, doc, market).ok_or_else(|| InstallError::NoSuchSkill {
        message: format!(
            "no Codex marketplace `{market}` in {}; add it first (skilldeck marketplace add SOURCE --host codex)",
            layout.config().display()
        ),
    })?;
    let catalogue = marketplace::read_marketplace(&root)?;
    let item = catalogue.entry(market, plugin)?;
    let PluginSource::Relative { path } = &item.source else {
        return Err(bad(
            id,
            "only plugins at a path inside their marketplace are written for Codex (Codex fetches remote plugin sources itself)",
        ));
    };
    let dir = manifest::contained(&root, path).map_err(|_| {
        bad(
            path,
            format!("plugin `{plugin}` resolves outside the marketplace; refusing it"),
        )
    })?;
    if !dir.is_dir() {
        return Err(bad(path, format!("{} is not a directory", dir.display())));
    }
    let own = codex_manifest(&dir)?;
    let manifest_value = match &own {
        Some((_, v)) => v.clone(),
        None if !item.strict => synthesized(&item.raw),
        None => {
            return Err(InstallError::InvalidManifest {
                path: dir.join(CODEX_MANIFESTS[0]),
                message: format!(
                    "missing plugin manifest: Codex needs one of {}",
                    CODEX_MANIFESTS.join(", ")
                ),
            })
        }
    };
    let name = manifest_value
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if name != plugin {
        return Err(bad(
            id,
            format!(
                "plugin manifest name `{name}` does not match marketplace plugin name `{plugin}`"
            ),
        ));
    }
    let version = match manifest_value.get("version") {
        None | Some(Value::Null) => "local".to_string(),
        Some(Value::String(v)) if !v.trim().is_empty() => v.trim().to_string(),
        Some(_) => {
            return Err(bad(
                id,
                "invalid plugin version in manifest: expected a non-blank string",
            ))
        }
    };
    if !version_ok(&version) {
        return Err(bad(
            id,
            format!("invalid plugin version `{version}`: only ASCII letters, digits, `.`, `+`, `_`, and `-` are allowed"),
        ));
    }
    let base = layout.plugin_base(market, plugin);
    let parent = base.parent().unwrap_or(&base).to_path_buf();
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    report(progress, "stage", id.to_string());
    let stage_dir = tempfile::Builder::new()
        .prefix("plugin-install-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let staged_base = stage_dir.path().join(plugin);
    let staged = staged_base.join(&version);
    let mut warnings = stage::copy_skill(&dir, &staged, limits)?;
    if own.is_none() {
        let file = staged.join(CODEX_MANIFESTS[0]);
        if let Some(p) = file.parent() {
            std::fs::create_dir_all(p).map_err(|e| InstallError::io(p, e))?;
        }
        let text = serde_json::to_string_pretty(&manifest_value).unwrap_or_default();
        std::fs::write(&file, text).map_err(|e| InstallError::io(&file, e))?;
    }
    let audit = skilldeck::audit(&staged, &skilldeck::AuditOptions::default())
        .map_err(|err| InstallError::io(&staged, std::io::Error::other(err.to_string())))?;
    let above: Vec<skilldeck::AuditFinding> =
        audit.above(max_severity).into_iter().cloned().collect();
    if !above.is_empty() {
        return Err(InstallError::AuditRefused {
            name: id.to_string(),
            source_spec: market.to_string(),
            threshold: max_severity,
            findings: above,
        });
    }
    let package = manifest::read_plugin(&staged, Some((plugin, &item.raw, item.strict)))?;
    warnings.extend(package.warnings);
    let tree = skilldeck::hash_tree(&staged)?;
    // Swap the whole plugin directory (one version), keeping the old one until the config is
    // written.
    let aside = stage_dir.path().join("previous");
    let had_old = base.exists();
    if had_old {
        std::fs::rename(&base, &aside).map_err(|e| InstallError::io(&base, e))?;
    }
    if let Err(e) = std::fs::rename(&staged_base, &base) {
        if had_old {
            let _ = std::fs::rename(&aside, &base);
        }
        return Err(InstallError::io(&base, e));
    }
    if let Err(e) = finish() {
        let _ = std::fs::remove_dir_all(&base);
        if had_old {
            let _ = std::fs::rename(&aside, &base);
        }
        return Err(e);
    }
    let staged_skills = package.skills;
    Ok(PluginInstallReport {
        plugin: PluginInfo {
            id: id.to_string(),
            name: plugin.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled: true,
            version: Some(version.clone()),
            install_path: base.join(&version).to_string_lossy().into_owned(),
            git_commit_sha: None,
            skills: staged_skills
                .iter()
                .map(|s| format!("{plugin}:{}", s.name))
                .collect(),
            digest: Some(tree.digest.clone()),
            modified: false,
        },
        skill_dirs: staged_skills,
        files: tree.files,
        warnings,
        audit: audit.findings,
    })
}

/// `[plugins."<id>"] enabled = <on>`, the table made when missing.
fn set_plugin_enabled(doc: &mut DocumentMut, id: &str, on: bool, path: &Path) -> Result<()> {
    let plugins = section(doc, "plugins", path)?;
    let entry = plugins
        .entry(id)
        .or_insert_with(|| Item::Table(Table::new()));
    let t = entry
        .as_table_mut()
        .ok_or_else(|| InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: format!("`plugins.\"{id}\"` must be a table; fix config.toml"),
        })?;
    t.insert("enabled", toml_edit::value(on));
    Ok(())
}

/// Codex's active version of a plugin (see `skilldeck`'s `codex-config` registry reader).
fn active_version(base: &Path) -> Option<String> {
    let mut versions: Vec<String> = std::fs::read_dir(base)
        .ok()?
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|v| version_ok(v))
        .collect();
    if versions.iter().any(|v| v == "local") {
        return Some("local".into());
    }
    versions.sort_by(|a, b| skilldeck::compare_plugin_versions(a, b));
    versions.pop()
}

/// The plugins of config.toml's `plugins` table with their active cache version.
pub fn plugin_list(layout: &CodexLayout) -> Result<Vec<PluginInfo>> {
    let doc = read_config(layout)?;
    let mut out = Vec::new();
    let Some(plugins) = doc.get("plugins").and_then(Item::as_table) else {
        return Ok(out);
    };
    for (id, item) in plugins.iter() {
        let Some((plugin, market)) = id.rsplit_once('@') else {
            continue;
        };
        let enabled = item.get("enabled").and_then(Item::as_bool).unwrap_or(true);
        let base = layout.plugin_base(market, plugin);
        let version = active_version(&base);
        let install = version.as_ref().map(|v| base.join(v));
        let skills = install
            .as_ref()
            .and_then(|dir| manifest::read_plugin(dir, None).ok())
            .map(|p| {
                p.skills
                    .iter()
                    .map(|s| format!("{plugin}:{}", s.name))
                    .collect()
            })
            .unwrap_or_default();
        out.push(PluginInfo {
            id: id.to_string(),
            name: plugin.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled,
            version,
            install_path: install
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
            git_commit_sha: None,
            skills,
            digest: None,
            modified: false,
        });
    }
    Ok(out)
}

/// Set `enabled` of an installed plugin (the key Codex reads).
pub fn plugin_set_enabled(
    layout: &CodexLayout,
    spec: &str,
    scope: PluginScope,
    on: bool,
) -> Result<PluginInfo> {
    user_only(scope)?;
    let mut doc = read_config(layout)?;
    let id = resolve(&doc, spec)?;
    set_plugin_enabled(&mut doc, &id, on, &layout.config())?;
    write_config(layout, &doc)?;
    plugin_list(layout)?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| InstallError::NoSuchSkill {
            message: format!("`{id}` vanished from config.toml while it was written"),
        })
}

/// `PLUGIN@MARKETPLACE`, or a bare `PLUGIN` naming exactly one configured plugin.
fn resolve(doc: &DocumentMut, spec: &str) -> Result<String> {
    let ids: Vec<String> = doc
        .get("plugins")
        .and_then(Item::as_table)
        .map(|t| t.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_default();
    let found: Vec<&String> = ids
        .iter()
        .filter(|id| id.as_str() == spec || id.rsplit_once('@').is_some_and(|(p, _)| p == spec))
        .collect();
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(InstallError::NoSuchSkill {
            message: format!(
                "no Codex plugin `{spec}` is installed; installed: {}",
                ids.join(", ")
            ),
        }),
        _ => Err(bad(
            spec,
            "several marketplaces have this plugin; give PLUGIN@MARKETPLACE",
        )),
    }
}

/// `codex plugin remove`: delete `plugins/cache/<marketplace>/<plugin>` and its config table.
pub fn plugin_uninstall(
    layout: &CodexLayout,
    spec: &str,
    scope: PluginScope,
) -> Result<PluginUninstallReport> {
    user_only(scope)?;
    let mut doc = read_config(layout)?;
    let id = resolve(&doc, spec)?;
    let (plugin, market) = split(&id)?;
    let base = layout.plugin_base(market, plugin);
    if let Some(t) = doc.get_mut("plugins").and_then(Item::as_table_mut) {
        t.remove(&id);
    }
    write_config(layout, &doc)?;
    let removed = base.exists().then(|| base.to_string_lossy().into_owned());
    if base.exists() {
        std::fs::remove_dir_all(&base).map_err(|e| InstallError::io(&base, e))?;
    }
    Ok(PluginUninstallReport {
        id,
        scope: PluginScope::User,
        removed_path: removed,
    })
}

/// `plugin update [PLUGIN]` for Codex, which has no such command: each plugin (all of
/// config.toml's `[plugins]` when `spec` is `None`) is installed again from its marketplace's
/// current files, what `codex plugin add` would copy, keeping its `enabled`. A git
/// marketplace is not fetched here: `marketplace update` does that (and reinstalls its
/// plugins itself, as Codex's upgrade does).
pub fn plugin_update(
    layout: &CodexLayout,
    spec: Option<&str>,
    scope: PluginScope,
    limits: &Limits,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginUpdateReport> {
    user_only(scope)?;
    let doc = read_config(layout)?;
    let ids = match spec {
        Some(s) => vec![resolve(&doc, s)?],
        None => doc
            .get("plugins")
            .and_then(Item::as_table)
            .map(|t| t.iter().map(|(k, _)| k.to_string()).collect())
            .unwrap_or_default(),
    };
    let mut out = PluginUpdateReport::default();
    for id in ids {
        let Some((plugin, market)) = id.rsplit_once('@') else {
            out.warnings
                .push(format!("`{id}` is not PLUGIN@MARKETPLACE; skipped"));
            continue;
        };
        if spec.is_none() && configured(&doc, market).is_none() {
            out.warnings.push(format!(
                "`{id}`: marketplace `{market}` is not configured any more; skipped"
            ));
            continue;
        }
        let base = layout.plugin_base(market, plugin);
        let from_version = active_version(&base);
        let from_digest = from_version
            .as_ref()
            .and_then(|v| skilldeck::hash_tree(&base.join(v)).ok())
            .map(|t| t.digest);
        let done = reinstall(layout, &id, limits, progress)?;
        out.record_reinstall(id, from_version, from_digest, None, done);
    }
    Ok(out)
}
