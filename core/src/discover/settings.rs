//! OpenCode's `skills.paths` (from `opencode.json` / `opencode.jsonc`): extra skill
//! directories, `~/` expanded, relative paths resolved against the project directory.
//!
//! The files are read with [`crate::host_settings`]; this module only decides which files
//! count and in what order. OpenCode merges its config files global first, then from the
//! repository root down to the project directory, and a later file's list replaces an
//! earlier one's (arrays are not concatenated), so the nearest file naming `skills.paths` wins.

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
