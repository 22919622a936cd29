//! Roots: a profile's path templates expanded against the deck's inputs into concrete
//! directories, in precedence order.

use super::profile::{Each, MarkedDirs, NameOrder, NoRepository, Profile, Source, WalkRules};
use super::repo;
use crate::catalog::{Scope, SkillKind};
use crate::diagnostic::Diagnostic;
use std::collections::{BTreeMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Everything outside the profile that decides where to look. Built once by the `Deck`, so
/// nothing below reads the process environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Absolute project directory.
    pub project: PathBuf,
    /// Absolute home directory (`None`: no home-relative source is used).
    pub home: Option<PathBuf>,
    /// OS strings: a variable need not be UTF-8, and one that names a directory must reach
    /// the file system byte for byte.
    pub env: BTreeMap<OsString, OsString>,
    /// Prefix for absolute system paths.
    pub system_root: PathBuf,
}

/// One directory to walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Shared with every skill found under it ([`crate::Skill::source`]).
    pub path: crate::SharedPath,
    pub scope: Scope,
    pub kind: SkillKind,
    pub pattern: String,
    pub walk: WalkRules,
    /// Set for the nested-skills root: the marker (`.claude/skills`) whose prefix qualifies ids.
    pub nested_marker: Option<String>,
    /// Directories whose `plugin.json` makes their parent a plugin root (the profile's
    /// `plugin_markers`): the walk notes every one it passes.
    pub plugin_markers: Arc<[String]>,
    /// The plugin every skill of this root belongs to, when a plugin registry named it
    /// (no marker lookup then).
    pub plugin: Option<String>,
    /// Markdown files that are skills by themselves in this root (the profile's `[loose]`).
    pub loose: Option<Arc<super::profile::Loose>>,
}

/// The expanded roots plus what the cache must watch to notice that the expansion itself
/// changed (repository markers).
#[derive(Clone, Debug, Default)]
pub struct Expansion {
    pub roots: Vec<Root>,
    pub repo_root: PathBuf,
    pub probed: Vec<PathBuf>,
    /// Files read to expand (plugin registries, their settings and manifests), with their
    /// stamps: an edit to one changes the roots.
    pub stamped: Vec<(PathBuf, Option<crate::cache::Stamp>)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Path templates that gave no root on this machine, and why.
    pub skipped: Vec<Skipped>,
}

/// A path template that gave no root: a trust gate switched its source off, or a variable
/// it needs is unset.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub scope: Scope,
    pub template: String,
    /// The directory it would have been (a gated source whose template expands).
    #[serde(serialize_with = "crate::serde_path::lossy_opt")]
    pub path: Option<PathBuf>,
    pub reason: String,
    /// What to change, when it is not the gate's variable (e.g. a plugin's missing marker).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// Why `template` expanded to nothing: the variables it needs that are unset.
fn unset_reason(template: &str, inputs: &Inputs) -> String {
    let mut unset = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find("${") {
        let body = &rest[at + 2..];
        let end = body.find(['}', ':']).unwrap_or(body.len());
        let var = &body[..end];
        let has_fallback = body[end..].starts_with(":-");
        if env_var(inputs, var).is_none() && !has_fallback {
            unset.push(format!("${var}"));
        }
        rest = &body[end..];
    }
    if inputs.home.is_none() && (template.contains('~') || template.contains("{home}")) {
        unset.push("the home directory".to_string());
    }
    if unset.is_empty() {
        "a variable it needs is unset".to_string()
    } else {
        format!("{} is unset", unset.join(", "))
    }
}

/// Expand `profile` for `inputs`. `host_settings`: read the host's settings files where a
/// source needs them (a plugin registry's `enabled_key`); off, no registry plugin is enabled.
pub fn expand(profile: &Profile, inputs: &Inputs, nested: bool, host_settings: bool) -> Expansion {
    let (mut repo_root, probed) = repo::repo_root(&inputs.project);
    if profile.no_repository == NoRepository::FilesystemRoot && !repo::in_repository(&repo_root) {
        // The host walks every ancestor when there is no repository to stop at.
        if let Some(top) = inputs.project.ancestors().last() {
            repo_root = top.to_path_buf();
        }
    }
    let mut out = Expansion {
        repo_root,
        probed,
        ..Expansion::default()
    };
    for source in &profile.sources {
        let gate = source.unless_env.iter().find(|(var, value)| {
            inputs
                .env
                .get(OsStr::new(var.as_str()))
                .map(OsString::as_os_str)
                == Some(OsStr::new(value.as_str()))
        });
        if let Some(registry) = &source.registry {
            if let Some((var, value)) = gate {
                out.skipped.push(Skipped {
                    scope: source.scope,
                    template: registry.file.clone(),
                    path: None,
                    reason: format!("`{var}={value}` is set: the host skips this source"),
                    fix: None,
                });
                continue;
            }
            let settings: Option<Vec<PathBuf>> = host_settings.then(|| {
                profile
                    .settings
                    .iter()
                    .flat_map(|s| &s.files)
                    .filter_map(|t| expand_template(t, inputs, None).ok().flatten())
                    .collect()
            });
            let found =
                super::registry::read(registry, &source.pattern, inputs, settings.as_deref());
            out.stamped.extend(found.probed);
            out.diagnostics.extend(found.diagnostics);
            for plugin in found.plugins {
                for (path, pattern) in plugin.roots {
                    let mut root = root_for(profile, source, path);
                    root.pattern = pattern;
                    root.plugin = registry.namespace.then(|| plugin.name.clone());
                    out.roots.push(root);
                }
            }
            continue;
        }
        let dirs: Vec<Option<PathBuf>> = match source.each {
            Each::Once => vec![None],
            Each::AncestorsNearestFirst => repo::ancestors(&inputs.project, &out.repo_root)
                .into_iter()
                .map(Some)
                .collect(),
            Each::AncestorsRootFirst => repo::ancestors(&inputs.project, &out.repo_root)
                .into_iter()
                .rev()
                .map(Some)
                .collect(),
            Each::ProjectThenRepository => repo::project_then_root(&inputs.project, &out.repo_root)
                .into_iter()
                .map(Some)
                .collect(),
        };
        for dir in &dirs {
            for template in &source.paths {
                let expanded = expand_template(template, inputs, dir.as_deref());
                if let Some((var, value)) = gate {
                    // Recorded (with the path it would have been) for `doctor`.
                    out.skipped.push(Skipped {
                        scope: source.scope,
                        template: template.clone(),
                        path: expanded.ok().flatten(),
                        reason: format!("`{var}={value}` is set: the host skips this source"),
                        fix: None,
                    });
                    continue;
                }
                match expanded {
                    Ok(Some(path)) => match &source.marked_dirs {
                        Some(marked) => {
                            let (roots, unmarked) = marked_dirs(&path, marked, &mut out.stamped);
                            for dir in roots {
                                out.roots.push(root_for(profile, source, dir));
                            }
                            // Recorded for `doctor`: a skill in an unmarked plugin is explained.
                            out.skipped.extend(unmarked.into_iter().map(|dir| Skipped {
                                scope: source.scope,
                                template: template.clone(),
                                reason: format!(
                                    "{} holds no `{}` that is a JSON object or list, so the host does not take it for a plugin",
                                    dir.display(),
                                    marked.file
                                ),
                                fix: Some(format!(
                                    "write the plugin's `{}` (a JSON object) into {}",
                                    marked.file,
                                    dir.display()
                                )),
                                path: Some(dir.join(&marked.skills)),
                            }));
                        }
                        None => out.roots.push(root_for(profile, source, path)),
                    },
                    Ok(None) => out.skipped.push(Skipped {
                        scope: source.scope,
                        template: template.clone(),
                        path: None,
                        reason: unset_reason(template, inputs),
                        fix: None,
                    }),
                    Err(message) => out.diagnostics.push(
                        Diagnostic::error("invalid-profile", message)
                            .with_hint("fix the path template in the profile"),
                    ),
                }
            }
        }
    }
    if nested {
        if let Some(n) = &profile.nested {
            out.roots.push(Root {
                path: inputs.project.as_path().into(),
                scope: n.scope,
                kind: SkillKind::Skill,
                pattern: n.pattern.clone(),
                walk: WalkRules {
                    hidden: true,
                    ..profile.walk.clone()
                },
                nested_marker: Some(n.marker.clone()),
                plugin_markers: profile.plugin_markers.clone().into(),
                plugin: None,
                loose: None,
            });
        }
    }
    out
}

/// The roots of the plugin directories in `parent` that `marked.file` marks, in name order,
/// and the directories it does not mark. `parent` and every marker read are stamped, so a
/// plugin added or a marker edited changes the roots.
fn marked_dirs(
    parent: &Path,
    marked: &MarkedDirs,
    stamped: &mut Vec<(PathBuf, Option<crate::cache::Stamp>)>,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let stamp = |p: &Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| crate::cache::Stamp::of(&m))
    };
    stamped.push((parent.to_path_buf(), stamp(parent)));
    let Ok(entries) = std::fs::read_dir(parent) else {
        return (Vec::new(), Vec::new());
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    match marked.order {
        NameOrder::Bytes => dirs.sort(),
        NameOrder::LocaleCompare => dirs.sort_by(|a, b| {
            let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
            super::collate::compare(&name(a).unwrap_or_default(), &name(b).unwrap_or_default())
        }),
    }
    let (marked_dirs, unmarked): (Vec<PathBuf>, Vec<PathBuf>) = dirs.into_iter().partition(|dir| {
        let marker = dir.join(&marked.file);
        stamped.push((marker.clone(), stamp(&marker)));
        // Only a regular file is read: opening a FIFO of that name would block.
        let regular = std::fs::metadata(&marker).is_ok_and(|m| m.is_file());
        regular
            && std::fs::read(&marker).is_ok_and(|bytes| {
                serde_json::from_slice::<serde_json::Value>(&bytes)
                    .is_ok_and(|v| v.is_object() || v.is_array())
            })
    });
    let roots = marked_dirs
        .into_iter()
        .map(|d| d.join(&marked.skills))
        .collect();
    // Only those with a skills directory look like plugins to a user (`.cline` also holds
    // the host's tasks, hooks and data).
    let unmarked = unmarked
        .into_iter()
        .filter(|d| d.join(&marked.skills).is_dir())
        .collect();
    (roots, unmarked)
}

fn root_for(profile: &Profile, source: &Source, path: PathBuf) -> Root {
    Root {
        path: path.into(),
        scope: source.scope,
        kind: source.kind,
        pattern: source.pattern.clone(),
        walk: source.walk.clone().unwrap_or_else(|| profile.walk.clone()),
        nested_marker: None,
        plugin_markers: profile.plugin_markers.clone().into(),
        plugin: None,
        loose: profile.loose.clone().map(Arc::new),
    }
}

/// A caller-supplied or settings root, walked with the profile's rules.
pub fn extra_root(profile: &Profile, path: PathBuf, scope: Scope, pattern: Option<&str>) -> Root {
    Root {
        path: path.into(),
        scope,
        kind: SkillKind::Skill,
        pattern: pattern.unwrap_or("**/SKILL.md").to_string(),
        walk: profile.walk.clone(),
        nested_marker: None,
        plugin_markers: profile.plugin_markers.clone().into(),
        plugin: None,
        loose: None,
    }
}

/// Drop roots that repeat an earlier one (same directory and pattern): when the project is
/// the home directory, `~/.claude/skills` is both a project and a user root, and it counts
/// once, where it first appears.
pub fn dedup(roots: Vec<Root>) -> Vec<Root> {
    let mut seen = HashSet::new();
    roots
        .into_iter()
        .filter(|r| seen.insert((normalise(&r.path), r.pattern.clone(), r.kind)))
        .collect()
}

/// Lexical normalisation (`a/./b/../c` → `a/c`) without touching the file system.
pub fn normalise(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Resolve `path` against `base` when relative, expanding a leading `~`.
pub fn absolutise(path: &Path, base: &Path, home: Option<&Path>) -> PathBuf {
    if let (Some(rest), Some(home)) = (tilde_rest(path), home) {
        return normalise(&home.join(rest));
    }
    if path.is_absolute() {
        normalise(path)
    } else {
        normalise(&base.join(path))
    }
}

/// What follows a leading `~` component (`~` → ``, `~/a/b` → `a/b`); `None` for `~user`,
/// `/~` or no tilde. Works on components, so paths that are not UTF-8 keep every byte.
fn tilde_rest(path: &Path) -> Option<&Path> {
    path.strip_prefix("~").ok()
}

/// The value of an environment variable, when set and not empty.
fn env_var<'a>(inputs: &'a Inputs, name: &str) -> Option<&'a OsStr> {
    inputs
        .env
        .get(OsStr::new(name))
        .map(OsString::as_os_str)
        .filter(|v| !v.is_empty())
}

/// Expand one path template. `Ok(None)`: a variable it needs is unset, so the path does not
/// apply on this machine.
pub fn expand_template(
    template: &str,
    inputs: &Inputs,
    dir: Option<&Path>,
) -> Result<Option<PathBuf>, String> {
    let Some(text) = expand_vars(template, inputs, dir)? else {
        return Ok(None);
    };
    let text = PathBuf::from(text);
    let path = match tilde_rest(&text) {
        Some(rest) => match &inputs.home {
            Some(home) => home.join(rest),
            None => return Ok(None),
        },
        None => text.clone(),
    };
    if !path.is_absolute() {
        return Err(format!(
            "path template `{template}` expands to the relative path `{}`; start it with ~, {{home}}, {{project}}, {{dir}}, {{system}}, {{config}} or an absolute path",
            text.display()
        ));
    }
    Ok(Some(normalise(&path)))
}

/// The template with its variables replaced. Built as an OS string: the values are paths
/// and environment variables, which need not be UTF-8, and a lossy conversion would point
/// at a directory that does not exist (its skills would silently disappear).
fn expand_vars(
    template: &str,
    inputs: &Inputs,
    dir: Option<&Path>,
) -> Result<Option<OsString>, String> {
    let mut out = OsString::new();
    let mut rest = template;
    while let Some(start) = rest.find(['{', '$']) {
        out.push(&rest[..start]);
        let tail = &rest[start..];
        if let Some(inner) = tail.strip_prefix("${") {
            let end = matching_brace(inner)
                .ok_or_else(|| format!("unclosed `${{` in path template `{template}`"))?;
            let body = &inner[..end];
            let (var, fallback) = match body.split_once(":-") {
                Some((v, f)) => (v, Some(f)),
                None => (body, None),
            };
            match env_var(inputs, var) {
                Some(value) => out.push(value),
                None => match fallback {
                    Some(f) => match expand_vars(f, inputs, dir)? {
                        Some(v) => out.push(expand_tilde(&v, inputs)),
                        None => return Ok(None),
                    },
                    None => return Ok(None),
                },
            }
            rest = &inner[end + 1..];
        } else if let Some(inner) = tail.strip_prefix('{') {
            let end = inner
                .find('}')
                .ok_or_else(|| format!("unclosed `{{` in path template `{template}`"))?;
            let value: OsString = match &inner[..end] {
                "home" => match &inputs.home {
                    Some(h) => h.clone().into_os_string(),
                    None => return Ok(None),
                },
                "project" => inputs.project.clone().into_os_string(),
                // Without its trailing `/`, so `{system}/etc` stays one path when it is `/`.
                "system" => {
                    let trimmed: PathBuf = inputs.system_root.components().collect();
                    if trimmed == Path::new("/") {
                        OsString::new()
                    } else {
                        trimmed.into_os_string()
                    }
                }
                "config" => match env_var(inputs, "XDG_CONFIG_HOME") {
                    Some(v) => v.to_os_string(),
                    None => match &inputs.home {
                        Some(h) => h.join(".config").into_os_string(),
                        None => return Ok(None),
                    },
                },
                "dir" => match dir {
                    Some(d) => d.as_os_str().to_os_string(),
                    None => {
                        return Err(format!(
                            "`{{dir}}` in `{template}` needs `each = \"ancestors-nearest-first\"` or `\"ancestors-root-first\"`"
                        ))
                    }
                },
                other => return Err(format!("unknown variable `{{{other}}}` in path template `{template}`")),
            };
            out.push(&value);
            rest = &inner[end + 1..];
        } else {
            // A lone `$` is literal.
            out.push("$");
            rest = &tail[1..];
        }
    }
    out.push(rest);
    Ok(Some(out))
}

/// A fallback's leading `~` replaced by the home directory (left as is without one).
fn expand_tilde(text: &OsStr, inputs: &Inputs) -> OsString {
    match (tilde_rest(Path::new(text)), &inputs.home) {
        (Some(rest), Some(home)) if rest.as_os_str().is_empty() => home.clone().into_os_string(),
        (Some(rest), Some(home)) => home.join(rest).into_os_string(),
        _ => text.to_os_string(),
    }
}

/// Index of the `}` closing a `${` whose body starts `s`, allowing nested `{...}`.
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Inputs {
        Inputs {
            project: PathBuf::from("/w/p"),
            home: Some(PathBuf::from("/h")),
            env: BTreeMap::from([("CODEX_HOME".into(), "/c".into())]),
            system_root: PathBuf::from("/t/"),
        }
    }

    #[test]
    fn templates_expand_variables_and_fallbacks() {
        let i = inputs();
        let e = |t: &str| expand_template(t, &i, Some(Path::new("/w"))).unwrap();
        assert_eq!(
            e("${CODEX_HOME:-~/.codex}/skills"),
            Some("/c/skills".into())
        );
        assert_eq!(
            e("${CLAUDE_CONFIG_DIR:-~/.claude}/skills"),
            Some("/h/.claude/skills".into())
        );
        assert_eq!(e("${OPENCODE_CONFIG_DIR}/skills"), None);
        assert_eq!(e("{config}/opencode"), Some("/h/.config/opencode".into()));
        assert_eq!(
            e("{system}/etc/codex/skills"),
            Some("/t/etc/codex/skills".into())
        );
        assert_eq!(e("{dir}/.agents/skills"), Some("/w/.agents/skills".into()));
        assert_eq!(e("~/x/../y"), Some("/h/y".into()));
        assert!(expand_template("{nope}/x", &i, None).is_err());
        assert!(expand_template("{dir}/x", &i, None).is_err());
        assert!(expand_template("rel/x", &i, None).is_err());
        assert!(expand_template("${UNCLOSED", &i, None).is_err());
    }

    #[test]
    fn xdg_config_home_overrides_dot_config() {
        let mut i = inputs();
        i.env.insert("XDG_CONFIG_HOME".into(), "/xdg".into());
        assert_eq!(
            expand_template("{config}/opencode/skills", &i, None).unwrap(),
            Some("/xdg/opencode/skills".into())
        );
    }

    #[test]
    fn no_home_drops_home_paths() {
        let mut i = inputs();
        i.home = None;
        assert_eq!(expand_template("~/.agents/skills", &i, None).unwrap(), None);
        assert_eq!(expand_template("{home}/x", &i, None).unwrap(), None);
    }

    #[test]
    fn duplicate_roots_count_once() {
        let p = Profile::builtin("universal").unwrap();
        let mut i = inputs();
        i.project = PathBuf::from("/h");
        let roots = dedup(expand(&p, &i, false, true).roots);
        let claude: Vec<_> = roots
            .iter()
            .filter(|r| r.path == Path::new("/h/.claude/skills"))
            .collect();
        assert_eq!(claude.len(), 1);
        assert_eq!(claude[0].scope, Scope::Project);
    }

    #[test]
    fn unless_env_skips_a_source() {
        let profile = Profile::builtin("gemini").unwrap();
        let mut inputs = Inputs {
            project: PathBuf::from("/p"),
            home: Some(PathBuf::from("/h")),
            env: BTreeMap::new(),
            system_root: PathBuf::from("/"),
        };
        let paths = |inputs: &Inputs| -> Vec<PathBuf> {
            expand(&profile, inputs, false, true)
                .roots
                .into_iter()
                .map(|r| r.path.to_path_buf())
                .collect()
        };
        assert_eq!(paths(&inputs).len(), 4);
        inputs
            .env
            .insert("GEMINI_CLI_TRUST_WORKSPACE".into(), "false".into());
        assert_eq!(
            paths(&inputs),
            [
                PathBuf::from("/h/.gemini/skills"),
                PathBuf::from("/h/.agents/skills")
            ]
        );
        inputs.env.insert("GEMINI_CLI_HOME".into(), "/g".into());
        assert_eq!(paths(&inputs)[0], PathBuf::from("/g/.gemini/skills"));
    }
}
