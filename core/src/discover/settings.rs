//! OpenCode's `skills.paths` (from `opencode.json` / `opencode.jsonc`): extra skill
//! directories, `~/` expanded, relative paths resolved against the project directory.
//!
//! The files are read with [`crate::host_settings`]; this module only decides which files
//! count and in what order. OpenCode merges its config files global first, then from the
//! repository root down to the project directory, and a later file's list replaces an
//! earlier one's (arrays are not concatenated), so the nearest file naming `skills.paths` wins.

use super::profile::SkillLocations;
use crate::cache::Stamp;
use crate::catalog::Scope;
use crate::diagnostic::Diagnostic;
use crate::host_settings;
use std::path::{Path, PathBuf};

/// What the settings files contributed.
#[derive(Default)]
pub struct SettingsPaths {
    /// Directories, in order, with the scope of the file that named them.
    pub paths: Vec<(PathBuf, Scope)>,
    /// Every settings file looked at (for the cache).
    pub probed: Vec<(PathBuf, Option<Stamp>)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Read `skills.paths` from `files` in order (the profile's `[skills_paths]`: the global
/// files, then each project directory's from the repository root down), each with the scope
/// its paths get.
pub fn opencode_skill_paths(
    files: &[(PathBuf, Scope)],
    project: &Path,
    home: Option<&Path>,
) -> SettingsPaths {
    let mut out = SettingsPaths::default();
    for (path, scope) in files {
        let stamp = Stamp::read(path);
        out.probed.push((path.clone(), stamp));
        if stamp.is_none() {
            continue;
        }
        match host_settings::read_opencode(path) {
            Ok(Some(settings)) => {
                out.diagnostics
                    .extend(settings.warnings.iter().map(|w| warning(path, w.clone())));
                if !settings.skill_paths.is_empty() {
                    out.paths = settings
                        .skill_paths
                        .iter()
                        .map(|raw| (resolve(raw, home, project), *scope))
                        .collect();
                }
            }
            Ok(None) => {}
            Err(err) => out.diagnostics.push(warning(
                path,
                format!("{err}; its `skills.paths` were not used"),
            )),
        }
    }
    out
}

/// What VS Code's `chat.agentSkillsLocations` / `chat.useAgentSkills` settings say.
#[derive(Default)]
pub struct Locations {
    /// No skill roots at all (the switch is off, or the locations value is not a map).
    pub none: bool,
    /// The profile's roots switched off.
    pub off: Vec<PathBuf>,
    /// Roots added, in order, with their scope.
    pub added: Vec<(PathBuf, Scope)>,
    /// Every settings file looked at (for the cache).
    pub probed: Vec<(PathBuf, Option<Stamp>)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The merged value of the locations key.
enum Merged {
    Unset,
    Map(Vec<(String, bool)>),
    /// The file that set it to something else.
    NotMap(PathBuf),
}

/// Read `spec.key` (and `spec.switch`) from `files` in order. `defaults` are the profile's
/// own roots as VS Code writes them (`.github/skills`, `~/.copilot/skills`) with their
/// absolute paths.
pub fn vscode_skill_locations(
    spec: &SkillLocations,
    files: &[PathBuf],
    defaults: &[(String, PathBuf)],
    project: &Path,
    home: Option<&Path>,
) -> Locations {
    let mut out = Locations::default();
    let mut merged = Merged::Unset;
    let mut switch = None;
    for path in files {
        let stamp = Stamp::read(path);
        out.probed.push((path.clone(), stamp));
        if stamp.is_none() {
            continue;
        }
        let value = match std::fs::read_to_string(path)
            .map_err(|e| crate::Error::io(path, e))
            .and_then(|text| host_settings::parse_jsonc(&text, path))
        {
            Ok(value) => value,
            Err(err) => {
                out.diagnostics.push(vscode_warning(
                    path,
                    format!("{err}; its skill locations were not used"),
                ));
                continue;
            }
        };
        let Some(object) = value.as_object() else {
            out.diagnostics.push(vscode_warning(
                path,
                "the settings file is not a JSON object; it was not used".to_string(),
            ));
            continue;
        };
        if let Some((key, value)) = spec
            .switch
            .as_ref()
            .and_then(|k| object.get(k).map(|v| (k, v)))
        {
            switch = Some((js_truthy(value), key.clone(), path.clone()));
        }
        match object.get(&spec.key) {
            None => {}
            Some(serde_json::Value::Object(map)) => {
                let mut entries = match std::mem::replace(&mut merged, Merged::Unset) {
                    Merged::Map(entries) => entries,
                    Merged::Unset | Merged::NotMap(_) => Vec::new(),
                };
                for (key, value) in map {
                    let key = key.trim();
                    let Some(on) = as_boolean(value).filter(|_| !key.is_empty()) else {
                        continue;
                    };
                    match entries.iter_mut().find(|(k, _)| k == key) {
                        Some(entry) => entry.1 = on,
                        None => entries.push((key.to_string(), on)),
                    }
                }
                merged = Merged::Map(entries);
            }
            Some(_) => merged = Merged::NotMap(path.clone()),
        }
    }
    if let Some((false, key, path)) = switch {
        out.diagnostics.push(
            Diagnostic::info(
                "skills-switched-off",
                format!("`{key}` is off: the host reads no skills"),
            )
            .with_path(&path)
            .with_hint(format!("set `{key}` to true")),
        );
        out.none = true;
        return out;
    }
    let entries = match merged {
        Merged::Unset => return out,
        Merged::NotMap(path) => {
            out.diagnostics.push(vscode_warning(
                &path,
                format!(
                    "`{}` is not a map of paths to true/false: the host reads no skill folders",
                    spec.key
                ),
            ));
            out.none = true;
            return out;
        }
        Merged::Map(entries) => entries,
    };
    for (key, on) in entries {
        if let Some((_, path)) = defaults.iter().find(|(d, _)| *d == key) {
            if !on {
                out.off.push(path.clone());
            }
            continue;
        }
        if !on {
            continue;
        }
        if !valid_location(&key) {
            out.diagnostics.push(
                Diagnostic::warning(
                    "invalid-host-settings",
                    format!("skill location `{key}` is skipped: VS Code takes only relative paths and `~/` paths, without globs or backslashes"),
                )
                .with_hint("write the folder relative to the workspace, or as ~/..."),
            );
            continue;
        }
        match key.strip_prefix("~/") {
            Some(rest) => {
                if let Some(home) = home {
                    out.added
                        .push((super::roots::normalise(&home.join(rest)), Scope::User));
                }
            }
            None => out
                .added
                .push((super::roots::normalise(&project.join(&key)), Scope::Project)),
        }
    }
    out
}

/// VS Code's `isValidPromptFolderPath`: not empty, no backslash, not absolute (`/...`,
/// `C:...`), no `*`, and a leading `~` only as `~/`.
fn valid_location(path: &str) -> bool {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    !path.trim().is_empty()
        && !path.contains('\\')
        && !path.contains('*')
        && !path.starts_with('/')
        && !drive
        && (!path.starts_with('~') || path.starts_with("~/"))
}

/// VS Code's `asBoolean`: a boolean, or `true`/`false` in any case with spaces around.
fn as_boolean(value: &serde_json::Value) -> Option<bool> {
    match value {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// JavaScript's truthiness (`if (!value)`).
fn js_truthy(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => true,
    }
}

fn vscode_warning(path: &Path, message: String) -> Diagnostic {
    Diagnostic::warning("invalid-host-settings", message)
        .with_path(path)
        .with_hint("fix the VS Code settings file")
}

fn resolve(raw: &str, home: Option<&Path>, project: &Path) -> PathBuf {
    let path = match home {
        Some(home) => host_settings::resolve_opencode_path(raw, home, project),
        None => project.join(raw),
    };
    super::roots::normalise(&path)
}

fn warning(path: &Path, message: String) -> Diagnostic {
    Diagnostic::warning("invalid-host-settings", message)
        .with_path(path)
        .with_hint("fix the OpenCode config file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vscode_locations_merge_switch_off_and_add() {
        let t = tempfile::tempdir().expect("tempdir");
        let project = t.path().join("p");
        let home = t.path().join("h");
        std::fs::create_dir_all(&project).expect("mkdir");
        let user = t.path().join("user.json");
        let work = t.path().join("work.json");
        std::fs::write(
            &user,
            r#"{"loc": {"a": true, ".x/skills": false, "b": "FALSE"}}"#,
        )
        .expect("write");
        std::fs::write(
            &work,
            "{\"loc\": {\"a\": false, \"~/u\": true, \"/abs\": true,}} // c",
        )
        .expect("write");
        let spec = SkillLocations {
            key: "loc".into(),
            switch: Some("on".into()),
            files: Vec::new(),
            pattern: "*/SKILL.md".into(),
        };
        let defaults = vec![(".x/skills".to_string(), project.join(".x/skills"))];
        let out = vscode_skill_locations(
            &spec,
            &[user.clone(), work.clone()],
            &defaults,
            &project,
            Some(&home),
        );
        assert!(!out.none);
        assert_eq!(out.off, vec![project.join(".x/skills")]);
        // `a` was switched off again by the later file; `b` is "FALSE"; `/abs` is refused.
        assert_eq!(out.added, vec![(home.join("u"), Scope::User)]);
        assert_eq!(out.diagnostics.len(), 1);

        std::fs::write(&work, r#"{"loc": ["not", "a", "map"]}"#).expect("write");
        let out = vscode_skill_locations(
            &spec,
            &[user.clone(), work.clone()],
            &defaults,
            &project,
            Some(&home),
        );
        assert!(out.none);
        std::fs::write(&work, r#"{"on": false}"#).expect("write");
        let out = vscode_skill_locations(&spec, &[user, work], &defaults, &project, Some(&home));
        assert!(out.none);
    }

    #[test]
    fn nearest_file_naming_paths_wins() {
        let t = tempfile::tempdir().expect("tempdir");
        let cfg = t.path().join("cfg");
        let root = t.path().join("repo");
        let project = root.join("p");
        std::fs::create_dir_all(&cfg).expect("mkdir");
        std::fs::create_dir_all(&project).expect("mkdir");
        std::fs::write(
            cfg.join("opencode.json"),
            r#"{"skills": {"paths": ["~/g"]}}"#,
        )
        .expect("write");
        let home = t.path().join("home");
        // The files as the opencode profile lists them: global, then root down to project.
        let files = |with_cfg: bool| -> Vec<(PathBuf, Scope)> {
            let global = [cfg.join("opencode.json"), cfg.join("opencode.jsonc")];
            let global = global
                .into_iter()
                .filter(|_| with_cfg)
                .map(|p| (p, Scope::User));
            let local = [&root, &project].into_iter().flat_map(|d| {
                [d.join("opencode.json"), d.join("opencode.jsonc")].map(|p| (p, Scope::Project))
            });
            global.chain(local).collect()
        };
        let out = opencode_skill_paths(&files(true), &project, Some(&home));
        assert_eq!(out.paths, vec![(home.join("g"), Scope::User)]);

        std::fs::write(
            project.join("opencode.jsonc"),
            "{\"skills\": {\"paths\": [\"rel\", \"/abs\",]}} // x",
        )
        .expect("write");
        let out = opencode_skill_paths(&files(true), &project, Some(&home));
        assert_eq!(
            out.paths,
            vec![
                (project.join("rel"), Scope::Project),
                (PathBuf::from("/abs"), Scope::Project)
            ]
        );

        std::fs::write(root.join("opencode.json"), "{").expect("write");
        let out = opencode_skill_paths(&files(false), &project, None);
        assert_eq!(out.diagnostics[0].code, "invalid-host-settings");
        assert_eq!(out.paths.len(), 2, "a broken file does not drop the others");
    }
}
