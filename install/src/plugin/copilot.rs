//! GitHub Copilot CLI's plugin files, as Copilot CLI 1.0.102's own `copilot plugin ...` writes
//! them (recorded in `install/tests/oracle/copilot-cli-1.0.102`):
//!
//! - `${COPILOT_HOME:-~/.copilot}/settings.json`: `extraKnownMarketplaces.<name>.source` =
//!   `{"source": "directory", "path": "<absolute directory>"}` for `marketplace add DIR`, and
//!   `enabledPlugins["plugin@marketplace"]`: `true` on install and enable, `false` on disable
//!   and on uninstall (a directory marketplace's plugin is loaded live from it, so nothing is
//!   copied and nothing removed). `marketplace remove` drops the marketplace only.
//! - `config.json` (two `//` comment lines, then JSON): `installedPlugins`, one entry per
//!   plugin installed straight from a directory (`name`, `marketplace: ""`, `version`,
//!   `installed_at`, `cache_path`, `enabled`, `source: {"source": "local", "path"}`), copied to
//!   `installed-plugins/_direct/<name>/`; `update` copies it again, `uninstall` deletes the
//!   copy and the entry, `enable`/`disable` set `enabled`.
//!
//! User scope only (Copilot CLI has no plugin scopes). Git and GitHub marketplaces (a clone
//! in the host's cache, their plugins copied to `installed-plugins/<m>/<p>`) are in
//! [`crate::plugin::copilot_git`].

use crate::error::{InstallError, Result};
use crate::git;
use crate::plugin::claude::{to_json_text, write_atomic};
use crate::plugin::copilot_git::{self, RemoteSource};
use crate::plugin::manifest::{self, PluginSkill};
use crate::plugin::marketplace::{self, Marketplace, PluginSource};
use crate::plugin::ops::{
    swap_into, undo_swap, MarketplaceInfo, MarketplaceRemoveReport, MarketplaceUpdate, PluginInfo,
    PluginInstallReport, PluginUninstallReport, PluginUpdateReport,
};
use crate::plugin::PluginScope;
use crate::{report, stage, Limits, ProgressFn};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Where Copilot CLI looks for a marketplace's catalogue, in its order.
pub const COPILOT_MARKETPLACE_FILES: [&str; 3] = [
    ".plugin/marketplace.json",
    ".github/plugin/marketplace.json",
    ".claude-plugin/marketplace.json",
];

/// The manifests Copilot CLI reads in a plugin, in its order (the first found is used; its
/// `skills` paths replace `skills/`).
pub const COPILOT_MANIFESTS: [&str; 4] = [
    "plugin.json",
    ".plugin/plugin.json",
    ".github/plugin/plugin.json",
    ".claude-plugin/plugin.json",
];

/// The header Copilot CLI writes above `config.json`'s JSON.
const CONFIG_HEADER: &str =
    "// User settings belong in settings.json.\n// This file is managed automatically.\n";

/// The files of Copilot CLI's plugin layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopilotLayout {
    /// `${COPILOT_HOME:-~/.copilot}`.
    pub home: PathBuf,
}

impl CopilotLayout {
    /// `<home>/settings.json`.
    pub fn settings(&self) -> PathBuf {
        self.home.join("settings.json")
    }
    /// `<home>/config.json`.
    pub fn config(&self) -> PathBuf {
        self.home.join("config.json")
    }
    /// `<home>/installed-plugins/_direct`.
    pub fn direct_dir(&self) -> PathBuf {
        self.home.join("installed-plugins").join("_direct")
    }
}

/// `root` joined with the relative `rel` when it stays inside `root`, without `.` parts.
fn inside(root: &Path, rel: &str) -> Result<PathBuf> {
    let joined = manifest::contained(root, rel)?;
    Ok(joined
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect())
}

fn bad(spec: &str, message: impl Into<String>) -> InstallError {
    InstallError::BadSource {
        source_spec: spec.to_string(),
        message: message.into(),
    }
}

fn user_only(scope: PluginScope) -> Result<()> {
    match scope {
        PluginScope::User => Ok(()),
        other => Err(bad(
            other.as_str(),
            "Copilot CLI keeps plugins in the user's ~/.copilot only; use --scope user",
        )),
    }
}

/// A JSON object file, `{}` when absent; whole-line `//` comments (Copilot's `config.json`
/// header) are skipped, which is safe because a JSON string cannot span lines.
fn read_object(path: &Path) -> Result<Map<String, Value>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
        Err(e) => return Err(InstallError::io(path, e)),
    };
    let json: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    if json.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&json) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: "must hold a JSON object; fix or delete the file".into(),
        }),
        Err(e) => Err(InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: format!("not valid JSON ({e}); fix the file"),
        }),
    }
}

fn object_at<'m>(
    doc: &'m mut Map<String, Value>,
    key: &str,
    path: &Path,
) -> Result<&'m mut Map<String, Value>> {
    doc.entry(key)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| InstallError::InvalidManifest {
            path: path.to_path_buf(),
            message: format!("`{key}` must be an object; fix the file"),
        })
}

fn write_config(layout: &CopilotLayout, doc: &Map<String, Value>) -> Result<()> {
    let text = format!("{CONFIG_HEADER}{}", to_json_text(doc));
    write_atomic(&layout.config(), &text)
}

/// The marketplace catalogue Copilot CLI reads in `root`.
fn read_catalogue(root: &Path) -> Result<Marketplace> {
    for rel in COPILOT_MARKETPLACE_FILES {
        let path = root.join(rel);
        if path.is_file() {
            let text = std::fs::read_to_string(&path).map_err(|e| InstallError::io(&path, e))?;
            return marketplace::parse_marketplace(&text, &path);
        }
    }
    Err(InstallError::InvalidManifest {
        path: root.to_path_buf(),
        message: format!(
            "no marketplace file here; Copilot CLI reads {}",
            COPILOT_MARKETPLACE_FILES.join(", ")
        ),
    })
}

/// The directory of a `directory` marketplace recorded in settings.
fn marketplace_root(settings: &Map<String, Value>, name: &str) -> Option<PathBuf> {
    let source = settings
        .get("extraKnownMarketplaces")?
        .get(name)?
        .get("source")?;
    (source.get("source")?.as_str()? == "directory")
        .then(|| source.get("path")?.as_str().map(PathBuf::from))
        .flatten()
}

/// The remote source of marketplace `name` in settings, when it is a git or GitHub one.
fn remote_of(settings: &Map<String, Value>, name: &str) -> Option<RemoteSource> {
    RemoteSource::from_entry(settings.get("extraKnownMarketplaces")?.get(name)?)
}

fn marketplace_info(layout: &CopilotLayout, name: &str, entry: &Value) -> MarketplaceInfo {
    let source = entry.get("source").cloned().unwrap_or(Value::Null);
    let remote = RemoteSource::from_entry(entry);
    let dir = match &remote {
        Some(r) => Some(
            copilot_git::clone_dir(&layout.home, r)
                .to_string_lossy()
                .into_owned(),
        ),
        None => (source.get("source").and_then(Value::as_str) == Some("directory"))
            .then(|| source.get("path").and_then(Value::as_str).map(String::from))
            .flatten(),
    };
    let (plugins, error) = match &dir {
        Some(d) => match read_catalogue(Path::new(d)) {
            Ok(m) => (m.plugins.into_iter().map(|p| p.name).collect(), None),
            Err(e) => (Vec::new(), Some(e.to_string())),
        },
        None => (
            Vec::new(),
            Some("a marketplace source kind skilldeck does not read for Copilot CLI".into()),
        ),
    };
    let commit = remote
        .is_some()
        .then(|| dir.as_deref().and_then(|d| git::head(Path::new(d))))
        .flatten();
    MarketplaceInfo {
        name: name.to_string(),
        source,
        install_location: dir.unwrap_or_default(),
        last_updated: String::new(),
        commit,
        plugins,
        error,
    }
}

/// `copilot plugin marketplace add DIR|URL|owner/repo`: record a local directory marketplace
/// (read in place), or clone a remote one ([`copilot_git`]).
pub fn marketplace_add(
    layout: &CopilotLayout,
    spec: &str,
    cwd: &Path,
    progress: Option<&ProgressFn<'_>>,
) -> Result<MarketplaceInfo> {
    let local = std::fs::canonicalize(cwd.join(spec))
        .ok()
        .filter(|p| p.is_dir());
    let Some(root) = local else {
        let remote = RemoteSource::parse(spec).ok_or_else(|| {
            bad(
                spec,
                "give the directory holding .claude-plugin/marketplace.json, a git URL or owner/repo",
            )
        })?;
        return add_remote(layout, spec, &remote, progress);
    };
    let market = read_catalogue(&root)?;
    let path = layout.settings();
    let mut settings = read_object(&path)?;
    if let Some(existing) = marketplace_root(&settings, &market.name) {
        if existing != root {
            return Err(bad(
                spec,
                format!(
                    "a marketplace named `{}` is already added from {}; remove it first (skilldeck marketplace remove {} --host copilot-cli)",
                    market.name,
                    existing.display(),
                    market.name
                ),
            ));
        }
    }
    let entry = json!({"source": {"source": "directory", "path": root.to_string_lossy()}});
    object_at(&mut settings, "extraKnownMarketplaces", &path)?.insert(market.name.clone(), entry);
    write_atomic(&path, &to_json_text(&settings))?;
    let entry = settings["extraKnownMarketplaces"][&market.name].clone();
    Ok(marketplace_info(layout, &market.name, &entry))
}

/// Clone a remote marketplace into the host's cache and register it; a registered name is
/// refused, as the host refuses it ("already registered").
fn add_remote(
    layout: &CopilotLayout,
    spec: &str,
    remote: &RemoteSource,
    progress: Option<&ProgressFn<'_>>,
) -> Result<MarketplaceInfo> {
    let path = layout.settings();
    let mut settings = read_object(&path)?;
    report(
        progress,
        "fetch",
        format!("git clone {}", remote.clone_url()),
    );
    let staged = copilot_git::fetch(&layout.home, remote, read_catalogue)?;
    let name = staged.marketplace.name.clone();
    let taken = settings
        .get("extraKnownMarketplaces")
        .and_then(|m| m.get(&name))
        .is_some();
    if taken {
        return Err(bad(
            spec,
            format!(
                "Marketplace \"{name}\" already registered; remove it first (skilldeck marketplace remove {name} --host copilot-cli)"
            ),
        ));
    }
    let target = copilot_git::clone_dir(&layout.home, remote);
    staged.place(&target)?;
    let written = object_at(&mut settings, "extraKnownMarketplaces", &path)
        .map(|m| {
            m.insert(name.clone(), remote.to_entry());
        })
        .and_then(|()| write_atomic(&path, &to_json_text(&settings)))
        .and_then(|()| copilot_git::record_freshness(&layout.home, &target));
    if let Err(err) = written {
        let _ = std::fs::remove_dir_all(&target);
        return Err(err);
    }
    let mut info = marketplace_info(layout, &name, &remote.to_entry());
    info.commit = Some(staged.commit.clone());
    Ok(info)
}

/// The marketplaces of settings.json.
pub fn marketplace_list(layout: &CopilotLayout) -> Result<Vec<MarketplaceInfo>> {
    let settings = read_object(&layout.settings())?;
    Ok(settings
        .get("extraKnownMarketplaces")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(n, e)| marketplace_info(layout, n, e))
                .collect()
        })
        .unwrap_or_default())
}

/// `marketplace update [NAME]`: a git or GitHub marketplace is fetched again (its clone
/// replaced, `freshness.json` updated, installed plugins left alone); a directory marketplace
/// is read live, so there is nothing to fetch and it is reported with no commit.
pub fn marketplace_update(
    layout: &CopilotLayout,
    name: Option<&str>,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Vec<MarketplaceUpdate>> {
    let settings = read_object(&layout.settings())?;
    let all = marketplace_list(layout)?;
    if let Some(n) = name {
        if !all.iter().any(|m| m.name == n) {
            return Err(not_registered(n));
        }
    }
    let mut out = Vec::new();
    for m in all.into_iter().filter(|m| name.is_none_or(|n| n == m.name)) {
        let Some(remote) = remote_of(&settings, &m.name) else {
            out.push(MarketplaceUpdate {
                name: m.name,
                from_commit: None,
                to_commit: None,
            });
            continue;
        };
        let target = copilot_git::clone_dir(&layout.home, &remote);
        let from_commit = git::head(&target);
        report(
            progress,
            "fetch",
            format!("git clone {}", remote.clone_url()),
        );
        let staged = copilot_git::fetch(&layout.home, &remote, read_catalogue)?;
        if staged.marketplace.name != m.name {
            return Err(InstallError::InvalidManifest {
                path: target,
                message: format!(
                    "marketplace `{}` now calls itself `{}`; remove it and add it again",
                    m.name, staged.marketplace.name
                ),
            });
        }
        staged.place(&target)?;
        copilot_git::record_freshness(&layout.home, &target)?;
        out.push(MarketplaceUpdate {
            name: m.name,
            from_commit,
            to_commit: Some(staged.commit.clone()),
        });
    }
    Ok(out)
}

fn not_registered(name: &str) -> InstallError {
    InstallError::NoSuchSkill {
        message: format!(
            "marketplace `{name}` is not registered in Copilot CLI's settings.json; see skilldeck marketplace list --host copilot-cli"
        ),
    }
}

/// `copilot plugin marketplace remove NAME`: drop it from `extraKnownMarketplaces`; its
/// `enabledPlugins` entries stay, as the host leaves them. A git or GitHub marketplace's
/// clone is deleted, and it is refused while one of its plugins is installed (the host
/// wants `--force` then).
pub fn marketplace_remove(layout: &CopilotLayout, name: &str) -> Result<MarketplaceRemoveReport> {
    let path = layout.settings();
    let mut settings = read_object(&path)?;
    let remote = remote_of(&settings, name);
    if remote.is_some() {
        let config = read_object(&layout.config())?;
        let installed: Vec<String> = config
            .get("installedPlugins")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|e| e.get("marketplace").and_then(Value::as_str) == Some(name))
            .filter_map(|e| e.get("name").and_then(Value::as_str).map(String::from))
            .collect();
        if !installed.is_empty() {
            return Err(bad(
                name,
                format!(
                    "Cannot remove marketplace \"{name}\". Installed plugins from this marketplace: {}; uninstall them first (skilldeck plugin uninstall PLUGIN@{name} --host copilot-cli)",
                    installed.join(", ")
                ),
            ));
        }
    }
    let removed = settings
        .get_mut("extraKnownMarketplaces")
        .and_then(Value::as_object_mut)
        .and_then(|m| m.shift_remove(name));
    if removed.is_none() {
        return Err(not_registered(name));
    }
    write_atomic(&path, &to_json_text(&settings))?;
    if let Some(remote) = remote {
        let clone = copilot_git::clone_dir(&layout.home, &remote);
        if clone.exists() {
            std::fs::remove_dir_all(&clone).map_err(|e| InstallError::io(&clone, e))?;
        }
    }
    Ok(MarketplaceRemoveReport {
        name: name.to_string(),
        uninstalled: Vec::new(),
    })
}

/// The manifest Copilot CLI reads in `dir`, parsed (the first of [`COPILOT_MANIFESTS`]).
fn read_manifest(dir: &Path) -> Result<Option<Map<String, Value>>> {
    for rel in COPILOT_MANIFESTS {
        let path = dir.join(rel);
        if path.is_file() {
            manifest::contained(dir, &format!("./{rel}"))?;
            return read_object(&path).map(Some);
        }
    }
    Ok(None)
}

/// The skills Copilot CLI lists for the plugin at `dir`: the manifest's `skills` paths when
/// it has them, else `skills/`, each walked for the first directories holding a `SKILL.md`
/// (hidden directories skipped), in path order.
fn plugin_skills(dir: &Path, manifest: Option<&Map<String, Value>>) -> Result<Vec<PluginSkill>> {
    let declared: Vec<String> = match manifest.and_then(|m| m.get("skills")) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    };
    let bases = if declared.is_empty() {
        vec!["./skills".to_string()]
    } else {
        declared
    };
    let mut out: Vec<PluginSkill> = Vec::new();
    for base in bases {
        let rel = if base.starts_with("./") {
            base
        } else {
            format!("./{base}")
        };
        let Ok(root) = manifest::contained(dir, &rel) else {
            continue;
        };
        let mut found = Vec::new();
        walk_skills(&root, 0, &mut found);
        found.sort();
        for skill_dir in found {
            let name = skill_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let path = skill_dir
                .strip_prefix(dir)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            if !out.iter().any(|s| s.path == path) {
                out.push(PluginSkill { name, path });
            }
        }
    }
    Ok(out)
}

fn walk_skills(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > 64 {
        return;
    }
    if dir.join("SKILL.md").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(std::result::Result::ok) {
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk_skills(&entry.path(), depth + 1, out);
        }
    }
}

fn version_of(
    manifest: Option<&Map<String, Value>>,
    entry: Option<&Map<String, Value>>,
) -> Option<String> {
    manifest
        .and_then(|m| m.get("version"))
        .or_else(|| entry.and_then(|e| e.get("version")))
        .and_then(Value::as_str)
        .map(String::from)
}

fn audit_dir(
    dir: &Path,
    id: &str,
    source: &str,
    threshold: skilldeck::AuditSeverity,
) -> Result<Vec<skilldeck::AuditFinding>> {
    let audit = skilldeck::audit(dir, &skilldeck::AuditOptions::default())
        .map_err(|err| InstallError::io(dir, std::io::Error::other(err.to_string())))?;
    let above: Vec<skilldeck::AuditFinding> = audit.above(threshold).into_iter().cloned().collect();
    if !above.is_empty() {
        return Err(InstallError::AuditRefused {
            name: id.to_string(),
            source_spec: source.to_string(),
            threshold,
            findings: above,
        });
    }
    Ok(audit.findings)
}

/// `copilot plugin install PLUGIN@MARKETPLACE` (enable it, loaded in place from a directory
/// marketplace) or `copilot plugin install DIR` (a direct install: copy it).
pub fn plugin_install(
    layout: &CopilotLayout,
    spec: &str,
    scope: PluginScope,
    cwd: &Path,
    limits: &Limits,
    threshold: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    user_only(scope)?;
    let settings_path = layout.settings();
    let mut settings = read_object(&settings_path)?;
    let by_id = spec
        .rsplit_once('@')
        .filter(|(p, m)| !p.is_empty() && !m.contains(['/', '\\', ':']) && !spec.contains("://"));
    let Some((plugin, market)) = by_id else {
        return install_direct(layout, spec, cwd, limits, threshold, progress);
    };
    if let Some(remote) = remote_of(&settings, market) {
        let clone = copilot_git::clone_dir(&layout.home, &remote);
        return install_copy(layout, plugin, market, &clone, limits, threshold, progress);
    }
    let root = marketplace_root(&settings, market).ok_or_else(|| InstallError::NoSuchSkill {
        message: format!(
            "no marketplace `{market}` in {}; add it first (skilldeck marketplace add SOURCE --host copilot-cli)",
            settings_path.display()
        ),
    })?;
    let catalogue = read_catalogue(&root)?;
    let item = catalogue.entry(market, plugin)?;
    let PluginSource::Relative { path } = &item.source else {
        return Err(bad(
            spec,
            "only plugins at a path inside a directory marketplace are written for Copilot CLI (it fetches remote plugin sources itself)",
        ));
    };
    let dir = inside(&root, path).map_err(|_| {
        bad(
            path,
            format!("Plugin path escapes marketplace directory: {path}"),
        )
    })?;
    if !dir.is_dir() {
        return Err(bad(path, format!("{} is not a directory", dir.display())));
    }
    report(progress, "audit", spec.to_string());
    let findings = audit_dir(&dir, spec, market, threshold)?;
    let own = read_manifest(&dir)?;
    let skills = plugin_skills(&dir, own.as_ref())?;
    let tree = skilldeck::hash_tree(&dir)?;
    object_at(&mut settings, "enabledPlugins", &settings_path)?
        .insert(spec.to_string(), Value::Bool(true));
    write_atomic(&settings_path, &to_json_text(&settings))?;
    Ok(PluginInstallReport {
        plugin: PluginInfo {
            id: spec.to_string(),
            name: plugin.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled: true,
            version: version_of(own.as_ref(), Some(&item.raw)),
            install_path: dir.to_string_lossy().into_owned(),
            git_commit_sha: None,
            skills: skills.iter().map(|s| s.name.clone()).collect(),
            digest: Some(tree.digest.clone()),
            modified: false,
        },
        skill_dirs: skills,
        files: tree.files,
        warnings: Vec::new(),
        audit: findings,
    })
}

/// Install `plugin` of the git marketplace cloned at `clone`: copy it to
/// `installed-plugins/<market>/<plugin>`, write its `installedPlugins` entry afresh (last) and
/// enable it in `enabledPlugins`.
fn install_copy(
    layout: &CopilotLayout,
    plugin: &str,
    market: &str,
    clone: &Path,
    limits: &Limits,
    threshold: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    let id = format!("{plugin}@{market}");
    let catalogue = read_catalogue(clone)?;
    let item = catalogue.entry(market, plugin)?;
    let PluginSource::Relative { path } = &item.source else {
        return Err(bad(
            &id,
            "only plugins at a path inside their marketplace are written for Copilot CLI (it fetches remote plugin sources itself)",
        ));
    };
    let src = inside(clone, path).map_err(|_| {
        bad(
            path,
            format!("Plugin path escapes marketplace directory: {path}"),
        )
    })?;
    if !src.is_dir() {
        return Err(bad(path, format!("{} is not a directory", src.display())));
    }
    let own = read_manifest(&src)?;
    let parent = layout.home.join("installed-plugins").join(market);
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    report(progress, "stage", id.clone());
    let stage_dir = tempfile::Builder::new()
        .prefix(".plugin-install-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let staged = stage_dir.path().join(plugin);
    let warnings = stage::copy_skill(&src, &staged, limits)?;
    let findings = audit_dir(&staged, &id, market, threshold)?;
    let skills = plugin_skills(&staged, own.as_ref())?;
    let tree = skilldeck::hash_tree(&staged)?;
    let target = parent.join(plugin);
    let aside = swap_into(&staged, &target, stage_dir.path())?;
    let version = version_of(own.as_ref(), Some(&item.raw));
    let entry = json!({
        "name": plugin,
        "marketplace": market,
        "version": version,
        "installed_at": crate::plugin::ops::now_iso(),
        "cache_path": target.to_string_lossy(),
        "enabled": true,
    });
    let settings_path = layout.settings();
    let written = (|| {
        let mut config = read_object(&layout.config())?;
        let list = installed_list(&mut config, layout)?;
        list.retain(|e| !is_copy(e, plugin, market));
        list.push(entry.clone());
        let mut settings = read_object(&settings_path)?;
        object_at(&mut settings, "enabledPlugins", &settings_path)?
            .insert(id.clone(), Value::Bool(true));
        write_config(layout, &config)?;
        write_atomic(&settings_path, &to_json_text(&settings))
    })();
    if let Err(e) = written {
        undo_swap(&target, aside);
        return Err(e);
    }
    Ok(PluginInstallReport {
        plugin: PluginInfo {
            id: id.clone(),
            name: plugin.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled: true,
            version,
            install_path: target.to_string_lossy().into_owned(),
            git_commit_sha: git::head(clone),
            skills: skills.iter().map(|s| s.name.clone()).collect(),
            digest: Some(tree.digest.clone()),
            modified: false,
        },
        skill_dirs: skills,
        files: tree.files,
        warnings,
        audit: findings,
    })
}

/// config.json's `installedPlugins` list, made when missing.
fn installed_list<'c>(
    config: &'c mut Map<String, Value>,
    layout: &CopilotLayout,
) -> Result<&'c mut Vec<Value>> {
    config
        .entry("installedPlugins")
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or_else(|| InstallError::InvalidManifest {
            path: layout.config(),
            message: "`installedPlugins` must be a list; fix config.json".into(),
        })
}

/// An `installedPlugins` entry of a plugin copied from marketplace `market`.
fn is_copy(entry: &Value, name: &str, market: &str) -> bool {
    !market.is_empty()
        && entry.get("name").and_then(Value::as_str) == Some(name)
        && entry.get("marketplace").and_then(Value::as_str) == Some(market)
}

/// Whether `config` holds a copy of `name@market`.
fn has_copy(config: &Map<String, Value>, name: &str, market: &str) -> bool {
    config
        .get("installedPlugins")
        .and_then(Value::as_array)
        .is_some_and(|l| l.iter().any(|e| is_copy(e, name, market)))
}

/// A direct install: copy the plugin directory to `installed-plugins/_direct/<name>` and
/// record it in config.json's `installedPlugins` (replacing an entry of the same name).
fn install_direct(
    layout: &CopilotLayout,
    spec: &str,
    cwd: &Path,
    limits: &Limits,
    threshold: skilldeck::AuditSeverity,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginInstallReport> {
    let src = std::fs::canonicalize(cwd.join(spec))
        .ok()
        .filter(|p| p.is_dir())
        .ok_or_else(|| {
            bad(
                spec,
                "give PLUGIN@MARKETPLACE or a local plugin directory (Copilot CLI fetches repositories and URLs itself)",
            )
        })?;
    let own = read_manifest(&src)?;
    let name = own
        .as_ref()
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .map(String::from)
        .ok_or_else(|| InstallError::InvalidManifest {
            path: src.join(COPILOT_MANIFESTS[0]),
            message: format!(
                "no plugin manifest with a string `name`: Copilot CLI reads {}",
                COPILOT_MANIFESTS.join(", ")
            ),
        })?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        || name.starts_with('.')
    {
        return Err(bad(
            spec,
            format!("invalid plugin name `{name}`: use letters, digits, `-`, `_` and `.`"),
        ));
    }
    // The copy is named after the source directory, not the manifest (recorded).
    let dir_name = src
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.clone());
    let parent = layout.direct_dir();
    std::fs::create_dir_all(&parent).map_err(|e| InstallError::io(&parent, e))?;
    report(progress, "stage", name.clone());
    let stage_dir = tempfile::Builder::new()
        .prefix(".plugin-install-")
        .tempdir_in(&parent)
        .map_err(|e| InstallError::io(&parent, e))?;
    let staged = stage_dir.path().join(&dir_name);
    let warnings = stage::copy_skill(&src, &staged, limits)?;
    let findings = audit_dir(&staged, &name, spec, threshold)?;
    let skills = plugin_skills(&staged, own.as_ref())?;
    let tree = skilldeck::hash_tree(&staged)?;
    let target = parent.join(&dir_name);
    let aside = swap_into(&staged, &target, stage_dir.path())?;
    let version = version_of(own.as_ref(), None);
    let entry = json!({
        "name": name,
        "marketplace": "",
        "version": version,
        "installed_at": crate::plugin::ops::now_iso(),
        "cache_path": target.to_string_lossy(),
        "enabled": true,
        "source": {"source": "local", "path": src.to_string_lossy()},
    });
    let written = (|| {
        let mut config = read_object(&layout.config())?;
        let list = config
            .entry("installedPlugins")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| InstallError::InvalidManifest {
                path: layout.config(),
                message: "`installedPlugins` must be a list; fix config.json".into(),
            })?;
        match list.iter_mut().find(|e| is_direct(e, &name)) {
            Some(slot) => *slot = entry.clone(),
            None => list.push(entry.clone()),
        }
        write_config(layout, &config)
    })();
    if let Err(e) = written {
        undo_swap(&target, aside);
        return Err(e);
    }
    Ok(PluginInstallReport {
        plugin: PluginInfo {
            id: name.clone(),
            name,
            marketplace: String::new(),
            scope: PluginScope::User,
            enabled: true,
            version,
            install_path: target.to_string_lossy().into_owned(),
            git_commit_sha: None,
            skills: skills.iter().map(|s| s.name.clone()).collect(),
            digest: Some(tree.digest.clone()),
            modified: false,
        },
        skill_dirs: skills,
        files: tree.files,
        warnings,
        audit: findings,
    })
}

fn is_direct(entry: &Value, name: &str) -> bool {
    entry.get("name").and_then(Value::as_str) == Some(name)
        && entry
            .get("marketplace")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
}

/// The direct installs of config.json, then every `enabledPlugins` entry of a directory
/// marketplace that lists the plugin (enabled or not).
pub fn plugin_list(layout: &CopilotLayout) -> Result<Vec<PluginInfo>> {
    let mut out = Vec::new();
    let config = read_object(&layout.config())?;
    for entry in config
        .get("installedPlugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            continue;
        };
        let market = entry
            .get("marketplace")
            .and_then(Value::as_str)
            .unwrap_or("");
        let path = entry
            .get("cache_path")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let own = read_manifest(Path::new(&path)).ok().flatten();
        let skills = plugin_skills(Path::new(&path), own.as_ref()).unwrap_or_default();
        out.push(PluginInfo {
            id: if market.is_empty() {
                name.to_string()
            } else {
                format!("{name}@{market}")
            },
            name: name.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled: entry.get("enabled") != Some(&Value::Bool(false)),
            version: entry
                .get("version")
                .and_then(Value::as_str)
                .map(String::from),
            install_path: path,
            git_commit_sha: None,
            skills: skills.into_iter().map(|s| s.name).collect(),
            digest: None,
            modified: false,
        });
    }
    let settings = read_object(&layout.settings())?;
    let Some(enabled) = settings.get("enabledPlugins").and_then(Value::as_object) else {
        return Ok(out);
    };
    for (id, on) in enabled {
        let Some((plugin, market)) = id.rsplit_once('@') else {
            continue;
        };
        let Some(root) = marketplace_root(&settings, market) else {
            continue;
        };
        let Ok(catalogue) = read_catalogue(&root) else {
            continue;
        };
        let Some(item) = catalogue.plugins.iter().find(|p| p.name == plugin) else {
            continue;
        };
        let PluginSource::Relative { path } = &item.source else {
            continue;
        };
        let Ok(dir) = inside(&root, path) else {
            continue;
        };
        let own = read_manifest(&dir).ok().flatten();
        let skills = plugin_skills(&dir, own.as_ref()).unwrap_or_default();
        out.push(PluginInfo {
            id: id.clone(),
            name: plugin.to_string(),
            marketplace: market.to_string(),
            scope: PluginScope::User,
            enabled: on == &Value::Bool(true),
            version: version_of(own.as_ref(), Some(&item.raw)),
            install_path: dir.to_string_lossy().into_owned(),
            git_commit_sha: None,
            skills: skills.into_iter().map(|s| s.name).collect(),
            digest: None,
            modified: false,
        });
    }
    Ok(out)
}

/// `PLUGIN@MARKETPLACE`, or a bare name: the host takes it as the plugin of that name in the
/// first directory marketplace listing one (installed or not; recorded: `disable tools` with
/// a direct `tools` installed wrote `enabledPlugins["tools@acme"] = false`), else as a direct
/// install's name.
fn resolve(layout: &CopilotLayout, spec: &str) -> Result<PluginInfo> {
    let list = plugin_list(layout)?;
    if !spec.contains('@') {
        if let Some(info) = marketplace_plugin(layout, spec, &list)? {
            return Ok(info);
        }
    }
    let hits: Vec<&PluginInfo> = list
        .iter()
        .filter(|p| p.id == spec || (!spec.contains('@') && p.name == spec))
        .collect();
    match hits.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(InstallError::NoSuchSkill {
            message: format!(
                "no Copilot CLI plugin `{spec}` is installed; installed: {}",
                list.iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        _ => Err(bad(
            spec,
            "several plugins have this name; give PLUGIN@MARKETPLACE",
        )),
    }
}

/// The plugin `name` of the first directory marketplace that lists it.
fn marketplace_plugin(
    layout: &CopilotLayout,
    name: &str,
    listed: &[PluginInfo],
) -> Result<Option<PluginInfo>> {
    let settings = read_object(&layout.settings())?;
    let Some(markets) = settings
        .get("extraKnownMarketplaces")
        .and_then(Value::as_object)
    else {
        return Ok(None);
    };
    for market in markets.keys() {
        let id = format!("{name}@{market}");
        if let Some(info) = listed.iter().find(|p| p.id == id) {
            return Ok(Some(info.clone()));
        }
        let Some(root) = marketplace_root(&settings, market) else {
            continue;
        };
        let Ok(catalogue) = read_catalogue(&root) else {
            continue;
        };
        let Some(item) = catalogue.plugins.iter().find(|p| p.name == name) else {
            continue;
        };
        let install_path = match &item.source {
            PluginSource::Relative { path } => inside(&root, path)
                .map(|d| d.to_string_lossy().into_owned())
                .unwrap_or_default(),
            _ => String::new(),
        };
        return Ok(Some(PluginInfo {
            id,
            name: name.to_string(),
            marketplace: market.clone(),
            scope: PluginScope::User,
            enabled: false,
            version: item
                .raw
                .get("version")
                .and_then(Value::as_str)
                .map(String::from),
            install_path,
            git_commit_sha: None,
            skills: Vec::new(),
            digest: None,
            modified: false,
        }));
    }
    Ok(None)
}

/// `copilot plugin enable|disable`: `enabled` of a direct install, else
/// `enabledPlugins[id]`.
pub fn plugin_set_enabled(
    layout: &CopilotLayout,
    spec: &str,
    scope: PluginScope,
    on: bool,
) -> Result<PluginInfo> {
    user_only(scope)?;
    let mut info = resolve(layout, spec)?;
    if info.marketplace.is_empty() {
        let mut config = read_object(&layout.config())?;
        if let Some(list) = config
            .get_mut("installedPlugins")
            .and_then(Value::as_array_mut)
        {
            for e in list.iter_mut().filter(|e| is_direct(e, &info.name)) {
                if let Some(obj) = e.as_object_mut() {
                    obj.insert("enabled".into(), Value::Bool(on));
                }
            }
        }
        write_config(layout, &config)?;
    } else {
        let path = layout.settings();
        let mut settings = read_object(&path)?;
        object_at(&mut settings, "enabledPlugins", &path)?.insert(info.id.clone(), Value::Bool(on));
        write_atomic(&path, &to_json_text(&settings))?;
        // A plugin copied from a git marketplace has `enabled` in its entry too (recorded).
        let mut config = read_object(&layout.config())?;
        if has_copy(&config, &info.name, &info.marketplace) {
            for e in installed_list(&mut config, layout)?
                .iter_mut()
                .filter(|e| is_copy(e, &info.name, &info.marketplace))
            {
                if let Some(obj) = e.as_object_mut() {
                    obj.insert("enabled".into(), Value::Bool(on));
                }
            }
            write_config(layout, &config)?;
        }
    }
    info.enabled = on;
    Ok(info)
}

/// `copilot plugin uninstall`: a direct install's copy and entry are deleted; a directory
/// marketplace's plugin is only disabled (the host says "nothing was removed").
pub fn plugin_uninstall(
    layout: &CopilotLayout,
    spec: &str,
    scope: PluginScope,
) -> Result<PluginUninstallReport> {
    user_only(scope)?;
    let info = resolve(layout, spec)?;
    let mut config = read_object(&layout.config())?;
    if has_copy(&config, &info.name, &info.marketplace) {
        // A git marketplace's plugin: the copy, its entry and its enabledPlugins key go.
        installed_list(&mut config, layout)?.retain(|e| !is_copy(e, &info.name, &info.marketplace));
        write_config(layout, &config)?;
        let path = layout.settings();
        let mut settings = read_object(&path)?;
        if let Some(map) = settings
            .get_mut("enabledPlugins")
            .and_then(Value::as_object_mut)
        {
            map.shift_remove(&info.id);
        }
        write_atomic(&path, &to_json_text(&settings))?;
        let dir = PathBuf::from(&info.install_path);
        let removed = (dir.starts_with(layout.home.join("installed-plugins")) && dir.is_dir())
            .then(|| {
                std::fs::remove_dir_all(&dir).map_err(|e| InstallError::io(&dir, e))?;
                Ok::<_, InstallError>(info.install_path.clone())
            })
            .transpose()?;
        return Ok(PluginUninstallReport {
            id: info.id,
            scope,
            removed_path: removed,
        });
    }
    if !info.marketplace.is_empty() {
        plugin_set_enabled(layout, &info.id, scope, false)?;
        return Ok(PluginUninstallReport {
            id: info.id,
            scope,
            removed_path: None,
        });
    }
    let mut config = read_object(&layout.config())?;
    if let Some(list) = config
        .get_mut("installedPlugins")
        .and_then(Value::as_array_mut)
    {
        list.retain(|e| !is_direct(e, &info.name));
    }
    write_config(layout, &config)?;
    let path = PathBuf::from(&info.install_path);
    // Refuse deleting anything outside the host's own copies, as the host does.
    let removed = (path.starts_with(layout.home.join("installed-plugins")) && path.is_dir())
        .then(|| {
            std::fs::remove_dir_all(&path).map_err(|e| InstallError::io(&path, e))?;
            Ok::<_, InstallError>(info.install_path.clone())
        })
        .transpose()?;
    // The host leaves no empty `_direct` behind.
    let _ = std::fs::remove_dir(layout.direct_dir());
    Ok(PluginUninstallReport {
        id: info.id,
        scope,
        removed_path: removed,
    })
}

/// `copilot plugin update [PLUGIN]`: direct installs are copied again from their `source`
/// directory; a directory marketplace's plugins are live and always up to date.
pub fn plugin_update(
    layout: &CopilotLayout,
    spec: Option<&str>,
    scope: PluginScope,
    limits: &Limits,
    progress: Option<&ProgressFn<'_>>,
) -> Result<PluginUpdateReport> {
    user_only(scope)?;
    let targets = match spec {
        Some(s) => vec![resolve(layout, s)?],
        None => plugin_list(layout)?,
    };
    let config = read_object(&layout.config())?;
    let mut out = PluginUpdateReport::default();
    let settings = read_object(&layout.settings())?;
    for info in targets {
        let remote = remote_of(&settings, &info.marketplace)
            .filter(|_| has_copy(&config, &info.name, &info.marketplace));
        if let Some(remote) = remote {
            // Copied again from the marketplace's clone, as the host's update does (fetch the
            // clone first with `marketplace update`).
            let before = skilldeck::hash_tree(Path::new(&info.install_path))
                .ok()
                .map(|t| t.digest);
            let clone = copilot_git::clone_dir(&layout.home, &remote);
            let done = install_copy(
                layout,
                &info.name,
                &info.marketplace,
                &clone,
                limits,
                skilldeck::AuditSeverity::High,
                progress,
            )?;
            let to_commit = done.plugin.git_commit_sha.clone();
            out.record_reinstall(info.id, info.version, before, to_commit, done);
            continue;
        }
        if !info.marketplace.is_empty() {
            out.up_to_date.push(info.id);
            continue;
        }
        let source = config
            .get("installedPlugins")
            .and_then(Value::as_array)
            .and_then(|l| l.iter().find(|e| is_direct(e, &info.name)))
            .and_then(|e| e.get("source"))
            .filter(|s| s.get("source").and_then(Value::as_str) == Some("local"))
            .and_then(|s| s.get("path"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                bad(
                    &info.id,
                    "no local `source.path` recorded; install it again",
                )
            })?
            .to_string();
        let before = skilldeck::hash_tree(Path::new(&info.install_path))
            .ok()
            .map(|t| t.digest);
        // The host writes a fresh entry, enabled, whatever the old one said (recorded).
        let report_in = install_direct(
            layout,
            &source,
            Path::new("/"),
            limits,
            skilldeck::AuditSeverity::High,
            progress,
        )?;
        out.record_reinstall(info.id, info.version, before, None, report_in);
    }
    Ok(out)
}
