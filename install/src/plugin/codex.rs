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
//! `enabled` is the key it reads. Only local marketplaces with relative plugin sources are
//! written here: Codex clones git marketplaces itself, which cannot be recorded offline.
//! The config is edited with `toml_edit`, as Codex does, so comments and other tables stay.

use crate::error::{InstallError, Result};
use crate::plugin::manifest;
use crate::plugin::marketplace::{self, PluginSource};
use crate::plugin::ops::{MarketplaceInfo, MarketplaceRemoveReport, PluginInfo};
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

/// The local directory of a configured marketplace.
fn marketplace_root(doc: &DocumentMut, name: &str) -> Option<PathBuf> {
    let t = doc.get("marketplaces")?.get(name)?;
    match t.get("source_type").and_then(Item::as_str) {
        Some("local") => t.get("source").and_then(Item::as_str).map(PathBuf::from),
        _ => None,
    }
}

fn marketplace_info(name: &str, root: &Path) -> MarketplaceInfo {
    let (plugins, error) = match marketplace::read_marketplace(root) {
        Ok(m) => (m.plugins.into_iter().map(|p| p.name).collect(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    MarketplaceInfo {
        name: name.to_string(),
        source: json!({"sourceType": "local", "source": root.to_string_lossy()}),
        install_location: root.to_string_lossy().into_owned(),
        last_updated: String::new(),
        commit: None,
        plugins,
        error,
    }
}

/// `codex plugin marketplace add DIR`: record a local marketplace (read in place).
pub fn marketplace_add(layout: &CodexLayout, spec: &str, cwd: &Path) -> Result<MarketplaceInfo> {
    let dir = cwd.join(spec);
    let root = std::fs::canonicalize(&dir).map_err(|_| {
        bad(
            spec,
            "Codex marketplaces are written here from a local directory only (Codex clones git marketplaces itself); give the directory holding .claude-plugin/marketplace.json",
        )
    })?;
    let market = marketplace::read_marketplace(&root)?;
    if let Some(problem) = segment_problem(&market.name, "marketplace name") {
        return Err(bad(spec, problem));
    }
    let mut doc = read_config(layout)?;
    if let Some(existing) = marketplace_root(&doc, &market.name) {
        if existing != root {
            return Err(bad(
                spec,
                format!(
                    "a marketplace named `{}` is already added from {}; remove it first (skilldeck marketplace remove {} --host codex)",
                    market.name,
                    existing.display(),
                    market.name
                ),
            ));
        }
    }
    let path = layout.config();
    let markets = section(&mut doc, "marketplaces", &path)?;
    let mut entry = Table::new();
    entry.insert("source_type", toml_edit::value("local"));
    entry.insert("source", toml_edit::value(root.to_string_lossy().as_ref()));
    markets.insert(&market.name, Item::Table(entry));
    write_config(layout, &doc)?;
    Ok(marketplace_info(&market.name, &root))
}

/// The configured marketplaces.
pub fn marketplace_list(layout: &CodexLayout) -> Result<Vec<MarketplaceInfo>> {
    let doc = read_config(layout)?;
    let mut out = Vec::new();
    if let Some(t) = doc.get("marketplaces").and_then(Item::as_table) {
        for (name, _) in t.iter() {
            if let Some(root) = marketplace_root(&doc, name) {
                out.push(marketplace_info(name, &root));
            }
        }
    }
    Ok(out)
}

/// `codex plugin marketplace remove NAME`: drop the marketplace's table; its installed
/// plugins stay (Codex loads plugins from the cache without their marketplace).
pub fn marketplace_remove(layout: &CodexLayout, name: &str) -> Result<MarketplaceRemoveReport> {
    let mut doc = read_config(layout)?;
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
    Ok(MarketplaceRemoveReport {
        name: name.to_string(),
        uninstalled: Vec::new(),
    })
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

/// `codex plugin add PLUGIN@MARKETPLACE`.
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
    let root = marketplace_root(&doc, market).ok_or_else(|| InstallError::NoSuchSkill {
        message: format!(
            "no local Codex marketplace `{market}` in {}; add it first (skilldeck marketplace add DIR --host codex)",
            layout.config().display()
        ),
    })?;
    let catalogue = marketplace::read_marketplace(&root)?;
    let item = catalogue.entry(market, plugin)?;
    let PluginSource::Relative { path } = &item.source else {
        return Err(bad(
            id,
            "only plugins at a path inside a local marketplace are written for Codex (Codex fetches remote plugin sources itself)",
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
    let path = layout.config();
    let written =
        set_plugin_enabled(&mut doc, id, true, &path).and_then(|()| write_config(layout, &doc));
    if let Err(e) = written {
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
