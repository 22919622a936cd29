//! OpenCode's `skills.paths` (from `opencode.json` / `opencode.jsonc`): extra skill
//! directories, `~/` expanded, relative paths resolved against the project directory.
//!
//! Kept here (a few lines) because only discovery needs it; the permission side of the host
//! settings lives with the filter stage.

use super::roots::absolutise;
use crate::cache::Stamp;
use crate::catalog::Scope;
use crate::diagnostic::Diagnostic;
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

/// Read `skills.paths` from the global config directory, then from the project directory.
pub fn opencode_skill_paths(
    config_dir: Option<&Path>,
    project: &Path,
    home: Option<&Path>,
) -> SettingsPaths {
    let mut out = SettingsPaths::default();
    let files = config_dir
        .map(|d| (d.to_path_buf(), Scope::User))
        .into_iter()
        .chain(std::iter::once((project.to_path_buf(), Scope::Project)));
    for (dir, scope) in files {
        for name in ["opencode.json", "opencode.jsonc"] {
            let path = dir.join(name);
            let stamp = Stamp::read(&path);
            out.probed.push((path.clone(), stamp));
            if stamp.is_none() {
                continue;
            }
            match read_paths(&path) {
                Ok(paths) => out.paths.extend(
                    paths
                        .into_iter()
                        .map(|p| (absolutise(Path::new(&p), project, home), scope)),
                ),
                Err(message) => out.diagnostics.push(
                    Diagnostic::warning("invalid-host-settings", message)
                        .with_path(&path)
                        .with_hint("fix the JSON; its `skills.paths` were not used"),
                ),
            }
        }
    }
    out
}

fn read_paths(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let value: serde_json::Value =
        serde_json::from_str(&strip_jsonc(&text)).map_err(|e| format!("invalid JSON: {e}"))?;
    let Some(paths) = value.pointer("/skills/paths") else {
        return Ok(Vec::new());
    };
    let Some(items) = paths.as_array() else {
        return Err("`skills.paths` must be an array of strings".to_string());
    };
    Ok(items
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect())
}

/// JSONC to JSON: drop `//` and `/* */` comments and trailing commas, outside strings.
pub fn strip_jsonc(text: &str) -> String {
    drop_trailing_commas(&strip_comments(text))
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    if n == '\n' {
                        out.push('\n');
                    }
                    prev = n;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn drop_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = text[i + 1..].trim_start().chars().next();
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let text = "{\n // c\n \"a\": \"x//y\", /* b */ \"s\": {\"paths\": [\"p\",],},\n}";
        let v: serde_json::Value = serde_json::from_str(&strip_jsonc(text)).unwrap();
        assert_eq!(v["a"], "x//y");
        assert_eq!(v["s"]["paths"][0], "p");
    }

    #[test]
    fn reads_project_and_global_paths() {
        let t = tempfile::tempdir().unwrap();
        let cfg = t.path().join("cfg");
        let project = t.path().join("p");
        std::fs::create_dir_all(&cfg).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            cfg.join("opencode.json"),
            r#"{"skills": {"paths": ["~/g"]}}"#,
        )
        .unwrap();
        std::fs::write(
            project.join("opencode.jsonc"),
            "{\"skills\": {\"paths\": [\"rel\", \"/abs\"]}} // x",
        )
        .unwrap();
        let home = t.path().join("home");
        let out = opencode_skill_paths(Some(&cfg), &project, Some(&home));
        assert_eq!(
            out.paths,
            vec![
                (home.join("g"), Scope::User),
                (project.join("rel"), Scope::Project),
                (PathBuf::from("/abs"), Scope::Project)
            ]
        );
        std::fs::write(project.join("opencode.json"), "{").unwrap();
        let out = opencode_skill_paths(None, &project, None);
        assert_eq!(out.diagnostics[0].code, "invalid-host-settings");
    }
}
