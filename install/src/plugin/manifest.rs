//! Reading a plugin package: its manifest (`.claude-plugin/plugin.json`,
//! `.codex-plugin/plugin.json`, `.kode-plugin/plugin.json`, or an Agent Plugins 1.0.0 root
//! `plugin.json`) and the skills it ships.
//!
//! Agent Plugins 1.0.0 (agent-plugins.org, spec §4–§9): the root manifest's schema is closed;
//! an unknown top-level key is reported and ignored (§5.2 says clients MUST continue loading),
//! every other violation (missing or unknown `$schema`, a bad `name`, a wrong type, an unknown
//! key inside `author`) rejects the plugin. Skills are exactly `skills/<dir>/SKILL.md`, one
//! level deep (§7.1). Package paths begin with `./` and stay inside the plugin root (§4.1).

use crate::error::{InstallError, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Component, Path, PathBuf};

/// The Agent Plugins 1.0.0 manifest schema identifier (spec §5.2).
pub const AGENT_PLUGINS_SCHEMA_1_0_0: &str =
    "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// The host manifest directories, in the order skilldeck reads them.
pub const HOST_MANIFEST_DIRS: [&str; 3] = [".claude-plugin", ".codex-plugin", ".kode-plugin"];

/// Which manifest described the plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManifestKind {
    /// `.claude-plugin/plugin.json`.
    Claude,
    /// `.codex-plugin/plugin.json`.
    Codex,
    /// `.kode-plugin/plugin.json`.
    Kode,
    /// A root `plugin.json` with the Agent Plugins 1.0.0 `$schema`.
    AgentPlugins,
    /// No manifest: a marketplace entry with `"strict": false` defines the plugin.
    MarketplaceEntry,
}

/// A plugin's manifest, the fields skilldeck uses plus the whole object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginManifest {
    /// Which manifest this is.
    pub kind: ManifestKind,
    /// The plugin's name (the `plugin` of `plugin:skill` ids and of `plugin@marketplace`).
    pub name: String,
    /// Its version, when it declares one.
    pub version: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Extra skill directories the manifest names (`"skills": "./x"` or `["./x", "./y"]`),
    /// `./`-relative to the plugin root; `skills/` is always read too.
    pub skill_paths: Vec<String>,
    /// The manifest object as written.
    pub raw: Value,
}

/// One skill a plugin ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginSkill {
    /// The skill's directory name (Claude Code names plugin skills by directory).
    pub name: String,
    /// Its directory relative to the plugin root, `/`-separated.
    pub path: String,
}

/// A plugin package read from a directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginPackage {
    /// The manifest that names the plugin.
    pub manifest: PluginManifest,
    /// Its skills.
    pub skills: Vec<PluginSkill>,
    /// What was reported and ignored (unknown Agent Plugins keys, skipped skills).
    pub warnings: Vec<String>,
}

fn invalid(path: &Path, message: impl Into<String>) -> InstallError {
    InstallError::InvalidManifest {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// An Agent Plugins plugin name (spec §5.5): 1–64 of `a-z0-9-.`, alphanumeric at both ends,
/// no `--` or `..`.
pub fn agent_plugin_name_problem(name: &str) -> Option<String> {
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.');
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if name.is_empty() || name.chars().count() > 64 {
        Some("must be 1 to 64 characters".into())
    } else if !ok_chars {
        Some("may hold only lowercase letters, digits, `-` and `.`".into())
    } else if !alnum(name.chars().next()) || !alnum(name.chars().last()) {
        Some("must start and end with a letter or digit".into())
    } else if name.contains("--") || name.contains("..") {
        Some("cannot contain `--` or `..`".into())
    } else {
        None
    }
}

/// A name skilldeck will use as a directory and in `plugin@marketplace` (Claude Code refuses
/// spaces; we also refuse separators and dot-only names, which would leave the cache).
pub fn plugin_name_problem(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        Some("is empty".into())
    } else if name.contains(' ') {
        Some("cannot contain spaces; use kebab-case (e.g. `my-plugin`)".into())
    } else if name.contains(['/', '\\', '@', ':']) || name == "." || name == ".." {
        Some("cannot contain `/`, `\\`, `@` or `:`, nor be `.` or `..`".into())
    } else if name.chars().any(|c| c.is_control()) {
        Some("cannot contain control characters".into())
    } else {
        None
    }
}

/// Parse an Agent Plugins 1.0.0 root `plugin.json`. Returns the manifest and the warnings
/// the spec says to report (unknown top-level keys, a non-object `extensions`).
pub fn parse_agent_plugin(text: &str, path: &Path) -> Result<(PluginManifest, Vec<String>)> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| invalid(path, format!("not valid JSON ({e})")))?;
    let Value::Object(obj) = &value else {
        return Err(invalid(path, "must hold a JSON object"));
    };
    let mut warnings = Vec::new();
    match obj.get("$schema") {
        Some(Value::String(s)) if s == AGENT_PLUGINS_SCHEMA_1_0_0 => {}
        Some(Value::String(s)) => {
            return Err(invalid(
                path,
                format!("`$schema` is `{s}`, an Agent Plugins version skilldeck does not support (it reads {AGENT_PLUGINS_SCHEMA_1_0_0})"),
            ))
        }
        _ => {
            return Err(invalid(
                path,
                format!("`$schema` is required: \"{AGENT_PLUGINS_SCHEMA_1_0_0}\""),
            ))
        }
    }
    let name = match obj.get("name") {
        Some(Value::String(name)) => name.clone(),
        _ => return Err(invalid(path, "`name` is required and must be a string")),
    };
    if let Some(problem) = agent_plugin_name_problem(&name) {
        return Err(invalid(path, format!("`name` `{name}` {problem}")));
    }
    for (key, v) in obj {
        let ok = match key.as_str() {
            "$schema" | "name" => true,
            "version" | "description" | "homepage" | "repository" | "license" => v.is_string(),
            "keywords" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            "author" => match v {
                Value::Object(author) => {
                    if let Some(bad) = author
                        .keys()
                        .find(|k| !matches!(k.as_str(), "name" | "email" | "url"))
                    {
                        return Err(invalid(
                            path,
                            format!(
                                "`author` may hold only `name`, `email` and `url`, not `{bad}`"
                            ),
                        ));
                    }
                    author.values().all(Value::is_string)
                }
                _ => false,
            },
            "extensions" => {
                match v {
                    Value::Object(ext) if ext.values().all(Value::is_object) => {}
                    Value::Object(_) => {
                        return Err(invalid(
                            path,
                            "every `extensions` namespace must map to an object",
                        ))
                    }
                    _ => warnings.push(format!(
                        "{}: `extensions` is not an object; ignored",
                        path.display()
                    )),
                }
                true
            }
            other => {
                warnings.push(format!(
                    "{}: unknown top-level key `{other}` is not part of Agent Plugins 1.0.0; ignored (client data belongs under `extensions`)",
                    path.display()
                ));
                true
            }
        };
        if !ok {
            return Err(invalid(path, format!("`{key}` has the wrong type")));
        }
    }
    let text_of = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    Ok((
        PluginManifest {
            kind: ManifestKind::AgentPlugins,
            name,
            version: text_of("version"),
            description: text_of("description"),
            skill_paths: Vec::new(),
            raw: value.clone(),
        },
        warnings,
    ))
}

/// Parse a host manifest (`.claude-plugin/plugin.json` and its Codex and Kode twins): an
/// open object with a string `name`; `skills` may name extra skill directories.
pub fn parse_host_manifest(kind: ManifestKind, text: &str, path: &Path) -> Result<PluginManifest> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| invalid(path, format!("not valid JSON ({e})")))?;
    let Value::Object(obj) = &value else {
        return Err(invalid(path, "must hold a JSON object"));
    };
    let Some(name) = obj.get("name").and_then(Value::as_str) else {
        return Err(invalid(path, "`name` is required and must be a string"));
    };
    if let Some(problem) = plugin_name_problem(name) {
        return Err(invalid(path, format!("`name` `{name}` {problem}")));
    }
    let manifest = from_object(kind, name, obj, path)?;
    Ok(PluginManifest {
        raw: value.clone(),
        ..manifest
    })
}

/// The fields of a host manifest or of a marketplace entry that defines its plugin.
pub(crate) fn from_object(
    kind: ManifestKind,
    name: &str,
    obj: &Map<String, Value>,
    path: &Path,
) -> Result<PluginManifest> {
    let skill_paths = match obj.get("skills") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| invalid(path, "`skills` must be a path or a list of paths"))
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(invalid(path, "`skills` must be a path or a list of paths")),
    };
    for p in &skill_paths {
        if !p.starts_with("./") {
            return Err(invalid(
                path,
                format!("`skills` path `{p}` must start with `./` (relative to the plugin root)"),
            ));
        }
    }
    let text_of = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    Ok(PluginManifest {
        kind,
        name: name.to_string(),
        version: text_of("version"),
        description: text_of("description"),
        skill_paths,
        raw: Value::Object(obj.clone()),
    })
}

/// `root` joined with the `./`-relative `rel`, refused when it leaves `root` lexically or,
/// once it exists, through a symlink.
pub fn contained(root: &Path, rel: &str) -> Result<PathBuf> {
    let outside = || {
        invalid(
            root,
            format!("`{rel}` resolves outside the plugin or marketplace root; refusing it"),
        )
    };
    let rel_path = Path::new(rel);
    let mut depth = 0usize;
    for part in rel_path.components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1).ok_or_else(outside)?;
            }
            Component::RootDir | Component::Prefix(_) => return Err(outside()),
        }
    }
    let joined = root.join(rel_path);
    if let (Ok(real_root), Ok(real)) = (std::fs::canonicalize(root), std::fs::canonicalize(&joined))
    {
        if !real.starts_with(&real_root) {
            return Err(outside());
        }
    }
    Ok(joined)
}

/// Expand `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` once, without rescanning what was inserted
/// (Agent Plugins §9.2); any other `${…}` stays literal.
pub fn expand_plugin_vars(value: &str, plugin_root: &str, plugin_data: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    loop {
        let next = [
            ("${PLUGIN_ROOT}", plugin_root),
            ("${PLUGIN_DATA}", plugin_data),
        ]
        .into_iter()
        .filter_map(|(pat, with)| rest.find(pat).map(|at| (at, pat, with)))
        .min_by_key(|(at, _, _)| *at);
        match next {
            Some((at, pat, with)) => {
                out.push_str(&rest[..at]);
                out.push_str(with);
                rest = &rest[at + pat.len()..];
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Read the plugin at `dir`. `entry` is the marketplace entry when the plugin comes from a
/// marketplace; with `strict` false it defines the plugin and no manifest is needed.
pub fn read_plugin(
    dir: &Path,
    entry: Option<(&str, &Map<String, Value>, bool)>,
) -> Result<PluginPackage> {
    let mut warnings = Vec::new();
    let mut host: Option<PluginManifest> = None;
    for (marker, kind) in HOST_MANIFEST_DIRS.iter().zip([
        ManifestKind::Claude,
        ManifestKind::Codex,
        ManifestKind::Kode,
    ]) {
        let path = dir.join(marker).join("plugin.json");
        if !path.is_file() {
            continue;
        }
        contained(dir, &format!("./{marker}/plugin.json"))?;
        let text = std::fs::read_to_string(&path).map_err(|e| InstallError::io(&path, e))?;
        host = Some(parse_host_manifest(kind, &text, &path)?);
        break;
    }
    let mut agent: Option<PluginManifest> = None;
    let root_manifest = dir.join("plugin.json");
    if root_manifest.is_file() {
        contained(dir, "./plugin.json")?;
        let text = std::fs::read_to_string(&root_manifest)
            .map_err(|e| InstallError::io(&root_manifest, e))?;
        let (m, w) = parse_agent_plugin(&text, &root_manifest)?;
        warnings.extend(w);
        agent = Some(m);
    }
    let manifest = match (entry, host, agent) {
        (Some((name, obj, false)), _, _) => {
            from_object(ManifestKind::MarketplaceEntry, name, obj, dir)?
        }
        (_, Some(host), _) => host,
        (_, None, Some(agent)) => agent,
        (Some((name, obj, true)), None, None) => {
            // Claude Code treats plugin.json as optional: the entry names the plugin.
            from_object(ManifestKind::MarketplaceEntry, name, obj, dir)?
        }
        (None, None, None) => {
            return Err(invalid(
                dir,
                "no plugin manifest: expected .claude-plugin/plugin.json (or .codex-plugin/, .kode-plugin/) or an Agent Plugins plugin.json",
            ))
        }
    };
    let skills = find_skills(dir, &manifest, &mut warnings)?;
    Ok(PluginPackage {
        manifest,
        skills,
        warnings,
    })
}

/// `skills/<dir>/SKILL.md` one level deep, then (host manifests) each `skills` path: a skill
/// directory itself or a directory of skill directories.
fn find_skills(
    dir: &Path,
    manifest: &PluginManifest,
    warnings: &mut Vec<String>,
) -> Result<Vec<PluginSkill>> {
    let mut out: Vec<PluginSkill> = Vec::new();
    let mut bases = vec!["./skills".to_string()];
    if manifest.kind != ManifestKind::AgentPlugins {
        bases.extend(manifest.skill_paths.iter().cloned());
    }
    for base in bases {
        let base_dir = contained(dir, &base)?;
        if !base_dir.is_dir() {
            continue;
        }
        let rel_base = base
            .trim_start_matches("./")
            .trim_end_matches('/')
            .to_string();
        let mut candidates: Vec<(String, PathBuf, String)> = Vec::new();
        if base_dir.join("SKILL.md").is_file() && base != "./skills" {
            let name = base_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            candidates.push((name, base_dir.clone(), rel_base.clone()));
        } else {
            let mut entries: Vec<_> = std::fs::read_dir(&base_dir)
                .map_err(|e| InstallError::io(&base_dir, e))?
                .filter_map(|e| e.ok())
                .collect();
            entries.sort_by_key(|e| e.file_name());
            for e in entries {
                let name = e.file_name().to_string_lossy().into_owned();
                candidates.push((name.clone(), e.path(), format!("{rel_base}/{name}")));
            }
        }
        for (name, path, rel) in candidates {
            let skill_md = path.join("SKILL.md");
            if !skill_md.is_file() {
                continue;
            }
            if contained(dir, &format!("./{rel}/SKILL.md")).is_err() {
                warnings.push(format!(
                    "{}: `{rel}/SKILL.md` resolves outside the plugin; skipped",
                    dir.display()
                ));
                continue;
            }
            if out.iter().any(|s| s.name == name) {
                continue;
            }
            out.push(PluginSkill { name, path: rel });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, files: &[(&str, &str)]) {
        for (p, text) in files {
            let p = root.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }

    const SKILL: &str = "---\nname: s\ndescription: d\n---\nbody\n";

    #[test]
    fn agent_plugins_closed_schema() {
        let p = Path::new("plugin.json");
        let ok = format!(
            r#"{{"$schema":"{AGENT_PLUGINS_SCHEMA_1_0_0}","name":"acme.tools","version":"1.0.0","author":{{"name":"A"}}}}"#
        );
        let (m, w) = parse_agent_plugin(&ok, p).unwrap();
        assert_eq!(
            (m.name.as_str(), m.version.as_deref()),
            ("acme.tools", Some("1.0.0"))
        );
        assert!(w.is_empty());
        // Unknown top-level keys: reported, ignored (spec §5.2).
        let extra = ok.replace("\"version\"", "\"commands\":[\"./c.md\"],\"version\"");
        let (_, w) = parse_agent_plugin(&extra, p).unwrap();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("`commands`"), "{w:?}");
        // Everything else is fatal.
        for bad in [
            ok.replace(
                "\"author\":{\"name\":\"A\"}",
                "\"author\":{\"name\":\"A\",\"twitter\":\"x\"}",
            ),
            ok.replace("acme.tools", "Acme"),
            ok.replace("acme.tools", "a--b"),
            ok.replace("1.0.0/plugin", "9.9.9/plugin"),
            ok.replace("\"version\":\"1.0.0\"", "\"version\":1"),
            r#"{"name":"x"}"#.to_string(),
            "[]".to_string(),
        ] {
            let err = parse_agent_plugin(&bad, p).unwrap_err();
            assert_eq!(err.code(), "INVALID_MANIFEST", "{bad}");
        }
    }

    #[test]
    fn host_manifests_and_skills() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(
            d,
            &[
                (
                    ".codex-plugin/plugin.json",
                    r#"{"name":"tools","version":"2.0.0","skills":"./extra"}"#,
                ),
                ("skills/pdf/SKILL.md", SKILL),
                ("skills/notes.md", "not a skill"),
                ("skills/deep/nested/SKILL.md", SKILL),
                ("extra/csv/SKILL.md", SKILL),
            ],
        );
        let pkg = read_plugin(d, None).unwrap();
        assert_eq!(pkg.manifest.kind, ManifestKind::Codex);
        assert_eq!(pkg.manifest.name, "tools");
        let names: Vec<_> = pkg.skills.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(names, ["skills/pdf", "extra/csv"]);
    }

    #[test]
    fn agent_plugin_skills_one_level_and_manifest_required() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(d, &[("skills/a/SKILL.md", SKILL)]);
        assert_eq!(read_plugin(d, None).unwrap_err().code(), "INVALID_MANIFEST");
        let m = format!(r#"{{"$schema":"{AGENT_PLUGINS_SCHEMA_1_0_0}","name":"p"}}"#);
        write(d, &[("plugin.json", &m), ("skills/b/c/SKILL.md", SKILL)]);
        let pkg = read_plugin(d, None).unwrap();
        assert_eq!(pkg.manifest.kind, ManifestKind::AgentPlugins);
        assert_eq!(pkg.skills.len(), 1);
        assert_eq!(pkg.skills[0].name, "a");
    }

    #[test]
    fn strict_false_entry_defines_the_plugin() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), &[("skills/a/SKILL.md", SKILL)]);
        let entry: Map<String, Value> =
            serde_json::from_str(r#"{"name":"inline","version":"0.1.0"}"#).unwrap();
        let pkg = read_plugin(t.path(), Some(("inline", &entry, false))).unwrap();
        assert_eq!(pkg.manifest.kind, ManifestKind::MarketplaceEntry);
        assert_eq!(pkg.manifest.version.as_deref(), Some("0.1.0"));
        assert_eq!(pkg.skills.len(), 1);
    }

    #[test]
    fn containment() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("root");
        std::fs::create_dir_all(root.join("a")).unwrap();
        assert!(contained(&root, "./a").is_ok());
        assert!(contained(&root, "./a/../a").is_ok());
        assert!(contained(&root, "./../x").is_err());
        assert!(contained(&root, "/etc").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(t.path(), root.join("out")).unwrap();
            assert!(contained(&root, "./out").is_err());
        }
    }

    #[test]
    fn plugin_vars_expand_once() {
        assert_eq!(
            expand_plugin_vars(
                "${PLUGIN_ROOT}/x:${PLUGIN_DATA}:${HOME}",
                "/r${PLUGIN_DATA}",
                "/d"
            ),
            "/r${PLUGIN_DATA}/x:/d:${HOME}"
        );
    }
}
