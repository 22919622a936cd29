//! Plugin registries: the skill roots of the plugins a host recorded as installed and its
//! settings switch on (a source with `registry = {...}`, see [`PluginRegistry`]).
//!
//! The registry file (`installed_plugins.json`, version 2) maps `plugin@marketplace` to its
//! installs, one per scope: `{"scope": "user"|"managed"|"project"|"local", "projectPath"?,
//! "installPath", ...}`. An install applies when its scope is `user` or `managed`, or when its
//! `projectPath` is the project directory; of several that apply, the first whose
//! `installPath` exists is used (else the first). A plugin is loaded only when the settings
//! key (`enabledPlugins`) of the profile's `[settings]` files, merged, says `true` (or lists
//! version constraints): each file replaces the entries of the ones before it, and the
//! managed files (the first `managed_settings` ones) win over all of them. Marketplace clones
//! and cache directories nobody points at are never read.
//!
//! A relative `installPath` or `projectPath` (the host always writes absolute ones) is taken
//! relative to the registry file's directory, so a registry can move with its tree.

use super::profile::{PluginRegistry, RegistryFormat};
use super::roots::{self, Inputs};
use crate::cache::Stamp;
use crate::diagnostic::Diagnostic;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// One installed, enabled plugin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisteredPlugin {
    /// The registry key (`plugin@marketplace`).
    pub key: String,
    /// The namespace of its skills: the manifest's `name`, else the key's plugin part.
    pub name: String,
    /// The install directory.
    pub install_path: PathBuf,
    /// Skill roots with their pattern: `<install>/<skills>` with the source's pattern, then
    /// each manifest `skills` path (a skill directory itself, pattern `SKILL.md`, or a
    /// directory of skill directories).
    pub roots: Vec<(PathBuf, String)>,
}

/// What reading a registry gave.
#[derive(Debug, Default)]
pub struct Registered {
    pub plugins: Vec<RegisteredPlugin>,
    /// Every file looked at, with its stamp (`None`: absent), for the cache.
    pub probed: Vec<(PathBuf, Option<Stamp>)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Read the registry of `spec` and the `enabled_key` of `settings` (already expanded, in the
/// profile's order). Without settings (`read_host_settings` off) no plugin is enabled:
/// the host loads only plugins its settings switch on, and a plugin the user switched off
/// must not come back because the switch was not read.
pub fn read(
    spec: &PluginRegistry,
    pattern: &str,
    inputs: &Inputs,
    settings: Option<&[PathBuf]>,
) -> Registered {
    let mut out = Registered::default();
    let Some(file) = roots::expand_template(&spec.file, inputs, None)
        .ok()
        .flatten()
    else {
        return out;
    };
    let stamp = Stamp::read(&file);
    out.probed.push((file.clone(), stamp));
    let Some(settings) = settings else {
        return out;
    };
    match spec.format {
        RegistryFormat::CodexConfig => {
            if stamp.is_some() {
                out.read_codex(spec, pattern, &file);
            }
            return out;
        }
        RegistryFormat::CopilotSettings => {
            out.read_copilot(spec, pattern, &file, stamp.is_some());
            return out;
        }
        RegistryFormat::InstalledPlugins => {}
    }
    let enabled = out.enabled(spec, settings);
    if stamp.is_none() || enabled.is_empty() {
        return out;
    }
    let installs = match read_json(&file) {
        Ok(v) => v,
        Err(message) => {
            out.diagnostics.push(registry_warning(&file, message));
            return out;
        }
    };
    let base = file.parent().unwrap_or(Path::new("/")).to_path_buf();
    let Some(plugins) = installs.get("plugins").and_then(Value::as_object) else {
        out.diagnostics.push(registry_warning(
            &file,
            "expected `plugins` to be an object of plugin@marketplace -> installs".into(),
        ));
        return out;
    };
    for (key, entries) in plugins {
        if enabled.get(key) != Some(&true) {
            continue;
        }
        // Version 1 kept one install per plugin (an object); version 2 a list per scope.
        let entries: Vec<&Value> = match entries {
            Value::Array(items) => items.iter().collect(),
            Value::Object(_) => vec![entries],
            _ => Vec::new(),
        };
        let applying: Vec<PathBuf> = entries
            .iter()
            .filter(|e| applies(e, &base, &inputs.project))
            .filter_map(|e| e.get("installPath").and_then(Value::as_str))
            .map(|p| roots::absolutise(Path::new(p), &base, None))
            .collect();
        let chosen = match applying.iter().find(|p| p.is_dir()) {
            Some(p) => p.clone(),
            None => match applying.into_iter().next() {
                Some(p) => p,
                None => continue,
            },
        };
        let stamp = Stamp::read(&chosen);
        out.probed.push((chosen.clone(), stamp));
        if stamp.is_none() {
            // The host reports the same (`plugin-cache-miss`) and loads nothing of it.
            out.diagnostics.push(
                Diagnostic::warning(
                    "plugin-not-cached",
                    format!(
                        "plugin `{key}` is installed and enabled but its installPath is missing"
                    ),
                )
                .with_path(&chosen)
                .with_hint(
                    "reinstall the plugin (`skilldeck plugin install` or `claude plugin install`)",
                ),
            );
            continue;
        }
        let plugin = out.plugin(spec, pattern, key, chosen);
        out.plugins.push(plugin);
    }
    out
}

/// Whether an install applies to `project`: user and managed installs everywhere, project
/// and local ones in their own project only.
fn applies(entry: &Value, base: &Path, project: &Path) -> bool {
    match entry.get("scope").and_then(Value::as_str) {
        Some("user" | "managed") => true,
        _ => entry
            .get("projectPath")
            .and_then(Value::as_str)
            .is_some_and(|p| same_dir(&roots::absolutise(Path::new(p), base, None), project)),
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let b = roots::normalise(b);
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(&b)),
            (Ok(x), Ok(y)) if x == y
        )
}

impl Registered {
    /// The merged `enabled_key` maps of the settings files: `true` for a plugin switched on
    /// (`true`, or a list of version constraints), `false` for one switched off.
    fn enabled(&mut self, spec: &PluginRegistry, settings: &[PathBuf]) -> BTreeMap<String, bool> {
        let managed = spec.managed_settings.min(settings.len());
        let (policy, rest) = settings.split_at(managed);
        let mut merged = BTreeMap::new();
        for path in rest.iter().chain(policy) {
            let stamp = Stamp::read(path);
            self.probed.push((path.clone(), stamp));
            if stamp.is_none() {
                continue;
            }
            let doc = match read_json(path) {
                Ok(v) => v,
                // The permissions reader reports a broken settings file once, already.
                Err(_) => continue,
            };
            let Some(map) = doc.get(&spec.enabled_key).and_then(Value::as_object) else {
                continue;
            };
            for (key, value) in map {
                let on = match value {
                    Value::Bool(b) => *b,
                    Value::Array(_) => true,
                    // `null` (what a removal writes) and anything else leave it as it was.
                    _ => continue,
                };
                if key.contains('@') {
                    merged.insert(key.clone(), on);
                }
            }
        }
        merged
    }

    fn plugin(
        &mut self,
        spec: &PluginRegistry,
        pattern: &str,
        key: &str,
        install: PathBuf,
    ) -> RegisteredPlugin {
        let fallback = key
            .rsplit_once('@')
            .map_or(key, |(name, _)| name)
            .to_string();
        let mut manifest_path = install.join(&spec.manifest);
        let mut stamp = Stamp::read(&manifest_path);
        self.probed.push((manifest_path.clone(), stamp));
        for other in &spec.fallback_manifests {
            if stamp.is_some() {
                break;
            }
            manifest_path = install.join(other);
            stamp = Stamp::read(&manifest_path);
            self.probed.push((manifest_path.clone(), stamp));
        }
        let mut name = fallback.clone();
        let mut extra: Vec<String> = Vec::new();
        let mut declared = false;
        if stamp.is_some() {
            match read_json(&manifest_path) {
                Ok(doc) => {
                    match doc.get("name").and_then(Value::as_str) {
                        Some(n) if !n.is_empty() => name = n.to_string(),
                        _ => self.diagnostics.push(
                            Diagnostic::warning(
                                "plugin-name-missing",
                                format!("plugin manifest has no string `name`; using `{fallback}` from `{key}`"),
                            )
                            .with_path(&manifest_path)
                            .with_hint("add \"name\": \"...\" to plugin.json"),
                        ),
                    }
                    match doc.get("skills") {
                        None | Some(Value::Null) => {}
                        Some(Value::String(s)) => {
                            declared = true;
                            extra.push(s.clone())
                        }
                        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                            declared = true;
                            extra.extend(items.iter().filter_map(Value::as_str).map(String::from))
                        }
                        Some(_) => self.diagnostics.push(manifest_warning(
                            &manifest_path,
                            "`skills` must be a path or a list of paths; only `skills/` was read",
                        )),
                    }
                }
                Err(message) => self.diagnostics.push(manifest_warning(
                    &manifest_path,
                    &format!(
                        "cannot read plugin manifest ({message}); using `{fallback}` from `{key}`"
                    ),
                )),
            }
        }
        let mut roots = if declared && spec.manifest_skills_replace {
            Vec::new()
        } else {
            vec![(install.join(&spec.skills), pattern.to_string())]
        };
        for rel in extra {
            let Some(dir) = contained(&install, &rel) else {
                self.diagnostics.push(manifest_warning(
                    &manifest_path,
                    &format!("`skills` path `{rel}` is not a `./` path inside the plugin; skipped"),
                ));
                continue;
            };
            if roots.iter().any(|(d, _)| *d == dir) {
                continue;
            }
            // A path holding a SKILL.md is one skill; otherwise a directory of skills.
            let skill_md = dir.join("SKILL.md");
            let own = Stamp::read(&skill_md);
            self.probed.push((skill_md, own));
            let pattern = if own.is_some() { "SKILL.md" } else { pattern };
            roots.push((dir, pattern.to_string()));
        }
        RegisteredPlugin {
            key: key.to_string(),
            name,
            install_path: install,
            roots,
        }
    }
}

impl Registered {
    /// Codex 0.169.0 (`codex-rs/core/src/plugins`): the user `config.toml`'s `plugins` table
    /// (a plugin is on unless `enabled = false`; one malformed entry drops them all, as
    /// deserialising the table fails), each from its active cache version.
    fn read_codex(&mut self, spec: &PluginRegistry, pattern: &str, file: &Path) {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                self.diagnostics.push(registry_warning(file, e.to_string()));
                return;
            }
        };
        let table: toml::Table = match toml::from_str(&text) {
            Ok(t) => t,
            // The settings reader reports a broken config.toml once, already.
            Err(_) => return,
        };
        let Some(plugins) = table.get("plugins") else {
            return;
        };
        let Some(plugins) = plugins.as_table() else {
            self.diagnostics.push(registry_warning(
                file,
                "expected `plugins` to be a table of \"plugin@marketplace\" tables".into(),
            ));
            return;
        };
        let mut enabled = Vec::new();
        for (key, entry) in plugins {
            let on = match entry.as_table().map(|t| t.get(&spec.enabled_key)) {
                Some(None) => true,
                Some(Some(toml::Value::Boolean(b))) => *b,
                _ => {
                    self.diagnostics.push(registry_warning(
                        file,
                        format!(
                            "`plugins.\"{key}\"` must be a table with a boolean `{}`; the host loads no plugin",
                            spec.enabled_key
                        ),
                    ));
                    return;
                }
            };
            if on {
                enabled.push(key.clone());
            }
        }
        let cache = file
            .parent()
            .unwrap_or(Path::new("/"))
            .join("plugins")
            .join("cache");
        for key in enabled {
            let Some((plugin, market)) = key.rsplit_once('@') else {
                continue;
            };
            if !valid_segment(plugin) || !valid_segment(market) {
                continue;
            }
            let base = cache.join(market).join(plugin);
            // The directory's stamp changes when a version is added or removed.
            self.probed.push((base.clone(), Stamp::read(&base)));
            let Some(version) = codex_active_version(&base) else {
                continue;
            };
            let install = base.join(version);
            // Codex loads no plugin without a manifest (it names the plugin).
            let has_manifest = std::iter::once(&spec.manifest)
                .chain(&spec.fallback_manifests)
                .any(|m| install.join(m).is_file());
            if !has_manifest {
                self.diagnostics.push(manifest_warning(
                    &install.join(&spec.manifest),
                    &format!("plugin `{key}` has no manifest; the host does not load it"),
                ));
                continue;
            }
            let plugin = self.plugin(spec, pattern, &key, install);
            self.plugins.push(plugin);
        }
    }
}

/// Where Copilot CLI looks for a marketplace's catalogue, in its order.
const COPILOT_MARKETPLACE_FILES: [&str; 3] = [
    ".plugin/marketplace.json",
    ".github/plugin/marketplace.json",
    ".claude-plugin/marketplace.json",
];

impl Registered {
    /// GitHub Copilot CLI 1.0.102 (recorded with `copilot plugin ...` and `copilot skill list
    /// --json`, see `install/tests/oracle/copilot-cli-1.0.102`): the copies `config.json`'s
    /// `installedPlugins` records come first (in its order; `enabled: false` skipped), then
    /// the plugins of each `directory` marketplace of `settings.json`'s
    /// `extraKnownMarketplaces`, in the marketplace's order, loaded in place from the
    /// marketplace directory when `enabledPlugins["plugin@marketplace"]` is `true`. A
    /// plugin source leaving its marketplace is refused, as the host refuses it.
    fn read_copilot(&mut self, spec: &PluginRegistry, pattern: &str, file: &Path, exists: bool) {
        let base = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        let config = base.join("config.json");
        let config_stamp = Stamp::read(&config);
        self.probed.push((config.clone(), config_stamp));
        if config_stamp.is_some() {
            match read_json(&config) {
                Ok(doc) => self.copilot_installed(spec, pattern, &base, &config, &doc),
                Err(message) => self.diagnostics.push(registry_warning(&config, message)),
            }
        }
        if !exists {
            return;
        }
        let settings = match read_json(file) {
            Ok(v) => v,
            Err(message) => {
                self.diagnostics.push(registry_warning(file, message));
                return;
            }
        };
        let enabled = settings.get(&spec.enabled_key).and_then(Value::as_object);
        let Some(markets) = settings
            .get("extraKnownMarketplaces")
            .and_then(Value::as_object)
        else {
            return;
        };
        for (market, entry) in markets {
            let source = entry.get("source");
            if source.and_then(|s| s.get("source")).and_then(Value::as_str) != Some("directory") {
                // Git and GitHub marketplaces are clones the host makes in its own cache.
                continue;
            }
            let Some(dir) = source.and_then(|s| s.get("path")).and_then(Value::as_str) else {
                continue;
            };
            let root = roots::absolutise(Path::new(dir), &base, None);
            self.copilot_marketplace(spec, pattern, market, &root, enabled);
        }
    }

    fn copilot_installed(
        &mut self,
        spec: &PluginRegistry,
        pattern: &str,
        base: &Path,
        config: &Path,
        doc: &Value,
    ) {
        let Some(list) = doc.get("installedPlugins") else {
            return;
        };
        let Some(list) = list.as_array() else {
            self.diagnostics.push(registry_warning(
                config,
                "expected `installedPlugins` to be a list of installed plugins".into(),
            ));
            return;
        };
        for entry in list {
            if entry.get("enabled") == Some(&Value::Bool(false)) {
                continue;
            }
            let Some(name) = entry.get("name").and_then(Value::as_str) else {
                continue;
            };
            let market = entry
                .get("marketplace")
                .and_then(Value::as_str)
                .unwrap_or("");
            let install = match entry.get("cache_path").and_then(Value::as_str) {
                Some(p) if !p.is_empty() => roots::absolutise(Path::new(p), base, None),
                _ => base
                    .join("installed-plugins")
                    .join(if market.is_empty() { "_direct" } else { market })
                    .join(name),
            };
            let key = if market.is_empty() {
                name.to_string()
            } else {
                format!("{name}@{market}")
            };
            self.push_present(spec, pattern, &key, install);
        }
    }

    fn copilot_marketplace(
        &mut self,
        spec: &PluginRegistry,
        pattern: &str,
        market: &str,
        root: &Path,
        enabled: Option<&serde_json::Map<String, Value>>,
    ) {
        let mut catalogue = None;
        for rel in COPILOT_MARKETPLACE_FILES {
            let path = root.join(rel);
            let stamp = Stamp::read(&path);
            self.probed.push((path.clone(), stamp));
            if stamp.is_some() {
                catalogue = Some(path);
                break;
            }
        }
        let Some(catalogue) = catalogue else {
            return;
        };
        let doc = match read_json(&catalogue) {
            Ok(v) => v,
            Err(message) => {
                self.diagnostics.push(registry_warning(&catalogue, message));
                return;
            }
        };
        let Some(plugins) = doc.get("plugins").and_then(Value::as_array) else {
            return;
        };
        for item in plugins {
            let Some(name) = item.get("name").and_then(Value::as_str) else {
                continue;
            };
            let key = format!("{name}@{market}");
            if enabled.and_then(|m| m.get(&key)) != Some(&Value::Bool(true)) {
                continue;
            }
            // Only relative sources are read in place; others are copies the host makes.
            let Some(rel) = item.get("source").and_then(Value::as_str) else {
                continue;
            };
            // The host joins any relative path (`./x` or `x`) and refuses one leaving the
            // marketplace.
            let inside = (!Path::new(rel).is_absolute())
                .then(|| contained(root, rel).or_else(|| contained(root, &format!("./{rel}"))))
                .flatten();
            let Some(dir) = inside else {
                self.diagnostics.push(
                    Diagnostic::warning(
                        "plugin-outside-marketplace",
                        format!("plugin `{key}`'s source `{rel}` escapes its marketplace directory; the host refuses it"),
                    )
                    .with_path(&catalogue)
                    .with_hint("give the plugin a `./` path inside the marketplace"),
                );
                continue;
            };
            self.push_present(spec, pattern, &key, dir);
        }
    }

    /// The plugin at `install`, or a `plugin-not-cached` warning when it is gone.
    fn push_present(&mut self, spec: &PluginRegistry, pattern: &str, key: &str, install: PathBuf) {
        let stamp = Stamp::read(&install);
        self.probed.push((install.clone(), stamp));
        if stamp.is_none() {
            self.diagnostics.push(
                Diagnostic::warning(
                    "plugin-not-cached",
                    format!("plugin `{key}` is enabled but its directory is missing"),
                )
                .with_path(&install)
                .with_hint("reinstall the plugin"),
            );
            return;
        }
        let plugin = self.plugin(spec, pattern, key, install);
        self.plugins.push(plugin);
    }
}

/// Codex's plugin id segments: ASCII letters, digits, `-` and `_`.
fn valid_segment(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Codex's `active_plugin_version`: of the version directories with valid names, `local`
/// when present, else the last after sorting (semver order when both parse, else text).
fn codex_active_version(base: &Path) -> Option<String> {
    let mut versions: Vec<String> = std::fs::read_dir(base)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|v| {
            !v.is_empty()
                && v != "."
                && v != ".."
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
        })
        .collect();
    if versions.iter().any(|v| v == "local") {
        return Some("local".into());
    }
    versions.sort_by(|a, b| compare_plugin_versions(a, b));
    versions.pop()
}

/// Codex's order of plugin cache versions (`compare_plugin_versions`): semver precedence
/// when both parse, else text order. The installer uses it to name the active version.
pub fn compare_plugin_versions(a: &str, b: &str) -> std::cmp::Ordering {
    match (semver(a), semver(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// (major, minor, patch, is a release, pre-release identifiers, build).
type SemverKey = (u64, u64, u64, bool, Vec<(bool, u64, String)>, String);

/// A sort key ordering versions as the `semver` crate's `Version` does (Codex's
/// `Version::parse`): major, minor, patch, a release after its pre-releases, pre-release
/// identifiers (numeric ones first, numerically), then build metadata as text.
fn semver(v: &str) -> Option<SemverKey> {
    let (core, build) = match v.split_once('+') {
        Some((c, b)) => (c, b.to_string()),
        None => (v, String::new()),
    };
    let (nums, pre) = match core.split_once('-') {
        Some((n, p)) => (n, Some(p)),
        None => (core, None),
    };
    let num = |s: &str| -> Option<u64> {
        if s.is_empty()
            || (s.len() > 1 && s.starts_with('0'))
            || !s.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        s.parse().ok()
    };
    let mut parts = nums.split('.');
    let major = num(parts.next()?)?;
    let minor = num(parts.next()?)?;
    let patch = num(parts.next()?)?;
    if parts.next().is_some() {
        return None;
    }
    let mut ids = Vec::new();
    if let Some(pre) = pre {
        for id in pre.split('.') {
            if id.is_empty() {
                return None;
            }
            // Numeric identifiers sort before alphanumeric ones, numerically.
            match num(id) {
                Some(n) => ids.push((false, n, String::new())),
                None if id.bytes().all(|b| b.is_ascii_digit()) => return None,
                None => ids.push((true, 0, id.to_string())),
            }
        }
    }
    Some((major, minor, patch, pre.is_none(), ids, build))
}

/// `root` joined with the `./`-relative `rel` when it stays inside `root` lexically.
fn contained(root: &Path, rel: &str) -> Option<PathBuf> {
    rel.strip_prefix("./")?;
    let mut depth = 0usize;
    for part in Path::new(rel).components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => depth = depth.checked_sub(1)?,
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(roots::normalise(&root.join(rel)))
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    crate::host_settings::parse_jsonc(&text, path).map_err(|e| e.to_string())
}

fn registry_warning(path: &Path, message: String) -> Diagnostic {
    Diagnostic::warning("invalid-plugin-registry", message)
        .with_path(path)
        .with_hint("fix or reinstall the plugins; no plugin skill was listed")
}

fn manifest_warning(path: &Path, message: &str) -> Diagnostic {
    Diagnostic::warning("invalid-plugin-manifest", message.to_string())
        .with_path(path)
        .with_hint("make plugin.json valid JSON with a string `name`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn spec() -> PluginRegistry {
        PluginRegistry {
            format: super::super::profile::RegistryFormat::InstalledPlugins,
            file: "~/plugins/installed_plugins.json".into(),
            manifest: ".claude-plugin/plugin.json".into(),
            fallback_manifests: Vec::new(),
            skills: "skills".into(),
            enabled_key: "enabledPlugins".into(),
            managed_settings: 1,
            namespace: true,
            manifest_skills_replace: false,
        }
    }

    #[test]
    fn only_installed_enabled_applying_plugins_are_read() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("h");
        let project = t.path().join("p");
        std::fs::create_dir_all(&project).expect("mkdir");
        let reg = format!(
            r#"{{"version": 2, "plugins": {{
              "a@m": [{{"scope": "user", "installPath": "cache/m/a/2"}}],
              "b@m": [{{"scope": "user", "installPath": "cache/m/b/1"}}],
              "c@m": [{{"scope": "project", "projectPath": "{}", "installPath": "cache/m/c/1"}}],
              "d@m": [{{"scope": "project", "projectPath": "/elsewhere", "installPath": "cache/m/d/1"}}],
              "e@m": [{{"scope": "user", "installPath": "cache/m/e/1"}}],
              "f@m": [{{"scope": "user", "installPath": "cache/m/f/1"}}]
            }}}}"#,
            project.display()
        );
        write(&home, "plugins/installed_plugins.json", &reg);
        write(
            &home,
            "plugins/cache/m/a/2/.claude-plugin/plugin.json",
            r#"{"name": "alpha", "skills": ["./more", "./one", "../out"]}"#,
        );
        write(&home, "plugins/cache/m/a/2/one/SKILL.md", "---\n---\n");
        write(&home, "plugins/cache/m/c/1/skills/x/SKILL.md", "---\n---\n");
        let user = home.join("settings.json");
        let managed = t.path().join("managed.json");
        write(
            &home,
            "settings.json",
            r#"{"enabledPlugins": {"a@m": true, "b@m": false, "c@m": ["^1"], "d@m": true, "e@m": true, "f@m": true}}"#,
        );
        write(
            t.path(),
            "managed.json",
            r#"{"enabledPlugins": {"e@m": false}}"#,
        );
        let inputs = Inputs {
            project: project.clone(),
            home: Some(home.clone()),
            env: BTreeMap::new(),
            system_root: PathBuf::from("/"),
        };
        let files = [managed.clone(), user.clone()];
        let found = read(&spec(), "*/SKILL.md", &inputs, Some(&files));
        let keys: Vec<_> = found.plugins.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["a@m", "c@m"]);
        let a = &found.plugins[0];
        assert_eq!(a.name, "alpha");
        let cache = home.join("plugins/cache/m/a/2");
        assert_eq!(
            a.roots,
            [
                (cache.join("skills"), "*/SKILL.md".to_string()),
                (cache.join("more"), "*/SKILL.md".to_string()),
                (cache.join("one"), "SKILL.md".to_string()),
            ]
        );
        assert_eq!(
            found.plugins[1].name, "c",
            "no manifest: the key's plugin part"
        );
        assert!(found
            .diagnostics
            .iter()
            .any(|d| d.message.contains("../out")));
        assert!(found.probed.iter().any(|(p, _)| *p == managed));
        // Enabled and installed, but the install directory is gone.
        assert!(found
            .diagnostics
            .iter()
            .any(|d| d.code == "plugin-not-cached" && d.message.contains("f@m")));

        // No settings read: nothing is enabled.
        assert!(read(&spec(), "*/SKILL.md", &inputs, None)
            .plugins
            .is_empty());
    }
}
