//! Loose files: Markdown files that are skills by themselves, found in the same roots as a
//! profile's SKILL.md skills (the profile's `[loose]`, see [`Loose`]). Modelled on OpenHands
//! SDK 1.44.1's legacy skills and microagents (`openhands/sdk/skills/utils.py`
//! `find_regular_md_files`, `load_and_categorize`; `skill.py` `_load_legacy_openhands_skill`,
//! `_handle_third_party`, `_create_skill_from_metadata`), but every rule is profile data.
//!
//! The walk decides which files are loose ([`keeps_name`], [`retain`]); naming decides their
//! name ([`name_from_path`], [`whole_name`]) and their group ([`group`]), which orders them
//! within the root and tells the filter whether the model is offered them ([`unlisted`]).

use super::profile::{Loose, Profile};
use super::walk::WalkedFile;
use crate::manifest::{Manifest, Unlisted};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Where a candidate stands among the skills of its root: loose files that are always on,
/// then the other loose files, then the pattern's matches.
pub const GROUP_ALWAYS_ON: u8 = 0;
pub const GROUP_ON_DEMAND: u8 = 1;
pub const GROUP_PATTERN: u8 = 2;

/// Whether a file named `name` may be a loose skill (the exclusion lists).
pub fn keeps_name(loose: &Loose, name: &str) -> bool {
    !loose.exclude.iter().any(|e| e == name)
        && !loose
            .exclude_any_case
            .iter()
            .any(|e| e.to_lowercase() == name.to_lowercase())
}

/// Drop the loose files the walk listed that sit in a skill directory (a directory below
/// the root holding a pattern match, with `skip_skill_dirs`) or below a symlinked directory
/// (without `follow_links`).
pub fn retain(loose: &Loose, root: &Path, files: &mut Vec<WalkedFile>) {
    if !files.iter().any(|f| f.loose) {
        return;
    }
    let skill_dirs: HashSet<PathBuf> = if loose.skip_skill_dirs {
        files
            .iter()
            .filter(|f| !f.loose)
            .filter_map(|f| f.rel().parent().map(Path::to_path_buf))
            .filter(|d| !d.as_os_str().is_empty())
            .collect()
    } else {
        HashSet::new()
    };
    let mut linked: HashMap<PathBuf, bool> = HashMap::new();
    files.retain(|f| {
        if !f.loose {
            return true;
        }
        let mut dirs = f
            .rel()
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty());
        if dirs.clone().any(|d| skill_dirs.contains(d)) {
            return false;
        }
        loose.follow_links
            || !dirs.any(|d| {
                *linked.entry(d.to_path_buf()).or_insert_with(|| {
                    std::fs::symlink_metadata(root.join(d))
                        .is_ok_and(|m| m.file_type().is_symlink())
                })
            })
    });
}

/// The fixed name of a file taken whole (`agents.md` → `agents`), matched in any case.
pub fn whole_name<'l>(loose: &'l Loose, rel: &Path) -> Option<&'l str> {
    let file = rel.file_name()?.to_string_lossy().to_lowercase();
    loose
        .whole
        .iter()
        .find(|(name, _)| name.to_lowercase() == file)
        .map(|(_, skill)| skill.as_str())
}

/// `tools/git.md` → `tools/git`: the path relative to the root without its last suffix,
/// `/`-separated (Python's `relative_to(...).with_suffix("")`; a name that is only a suffix,
/// `.md`, keeps it).
pub fn name_from_path(rel: &Path) -> String {
    rel.with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Python's truth test of a frontmatter value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// Whether `paths` names at least one glob (a blank entry names none).
pub fn is_path_rule(manifest: &Manifest) -> bool {
    manifest
        .claude_code
        .paths
        .iter()
        .any(|p| !p.trim().is_empty())
}

/// Whether the frontmatter sets `key` (truthy) or, with `present`, has it at all.
fn sets(manifest: &Manifest, key: &str, present: bool) -> bool {
    if key == "paths" {
        return is_path_rule(manifest);
    }
    match manifest.extra.get(key) {
        Some(v) => present || truthy(&v),
        None => false,
    }
}

/// The group of a loose file read with its frontmatter.
pub fn group(loose: &Loose, manifest: &Manifest) -> u8 {
    let on_demand = loose.on_demand.iter().any(|k| sets(manifest, k, false))
        || loose
            .on_demand_if_present
            .iter()
            .any(|k| sets(manifest, k, true));
    if on_demand {
        GROUP_ON_DEMAND
    } else {
        GROUP_ALWAYS_ON
    }
}

/// Why the host never offers this skill to the model, if it does not.
pub fn unlisted(profile: &Profile, group: u8, manifest: &Manifest) -> Option<Unlisted> {
    if profile.path_rules_unlisted && is_path_rule(manifest) {
        return Some(Unlisted::PathRule);
    }
    (group == GROUP_ALWAYS_ON && profile.loose.is_some()).then_some(Unlisted::AlwaysOn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loose() -> Loose {
        Profile::builtin("openhands")
            .unwrap()
            .loose
            .expect("openhands has loose files")
    }

    fn file(rel: &str, loose: bool) -> WalkedFile {
        WalkedFile::new(Path::new("/r"), PathBuf::from("/r").join(rel), true, loose)
    }

    #[test]
    fn names_are_relative_paths_without_the_last_suffix() {
        assert_eq!(name_from_path(Path::new("tools/git.md")), "tools/git");
        assert_eq!(name_from_path(Path::new("a.b.md")), "a.b");
        assert_eq!(name_from_path(Path::new(".md")), ".md");
        assert_eq!(name_from_path(Path::new("x/.hidden.md")), "x/.hidden");
    }

    #[test]
    fn exclusions_and_whole_files_follow_the_profile() {
        let l = loose();
        assert!(!keeps_name(&l, "README.md") && keeps_name(&l, "readme.md"));
        assert!(!keeps_name(&l, "SKILL.md") && !keeps_name(&l, "sKiLl.md"));
        assert_eq!(whole_name(&l, Path::new("x/AGENTS.md")), Some("agents"));
        assert_eq!(whole_name(&l, Path::new("Agent.md")), Some("agents"));
        assert_eq!(whole_name(&l, Path::new("Claude.MD")), Some("claude"));
        assert_eq!(whole_name(&l, Path::new("notes.md")), None);
    }

    #[test]
    fn files_in_skill_directories_are_not_loose() {
        let l = loose();
        let mut files = vec![
            file("a/SKILL.md", false),
            file("a/notes.md", true),
            file("a/deep/more.md", true),
            file("b/notes.md", true),
            file("top.md", true),
        ];
        retain(&l, Path::new("/nonexistent-root"), &mut files);
        let rels: Vec<_> = files.iter().map(|f| f.rel().to_str().unwrap()).collect();
        assert_eq!(rels, ["a/SKILL.md", "b/notes.md", "top.md"]);
    }

    #[test]
    fn files_below_a_linked_directory_are_not_loose() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("real")).unwrap();
        std::fs::create_dir_all(t.path().join("elsewhere")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(t.path().join("elsewhere"), t.path().join("link")).unwrap();
        let mut files = vec![file("real/a.md", true), file("link/b.md", true)];
        retain(&loose(), t.path(), &mut files);
        let kept: Vec<_> = files.iter().map(|f| f.rel().to_str().unwrap()).collect();
        #[cfg(unix)]
        assert_eq!(kept, ["real/a.md"]);
    }

    #[test]
    fn groups_follow_triggers_inputs_and_paths() {
        let l = loose();
        let read = |text: &str| crate::parse(text).manifest;
        assert_eq!(group(&l, &read("---\nx: 1\n---\nbody")), GROUP_ALWAYS_ON);
        assert_eq!(
            group(&l, &read("---\ntriggers: []\n---\nb")),
            GROUP_ALWAYS_ON
        );
        assert_eq!(
            group(&l, &read("---\ntriggers: [a]\n---\nb")),
            GROUP_ON_DEMAND
        );
        assert_eq!(group(&l, &read("---\ninputs: []\n---\nb")), GROUP_ON_DEMAND);
        assert_eq!(
            group(&l, &read("---\npaths: ' , '\n---\nb")),
            GROUP_ALWAYS_ON
        );
        assert_eq!(
            group(&l, &read("---\npaths: 'src/**'\n---\nb")),
            GROUP_ON_DEMAND
        );
        let p = Profile::builtin("openhands").unwrap();
        let rule = read("---\npaths: [src/**]\ntriggers: [a]\n---\nb");
        assert_eq!(
            unlisted(&p, GROUP_ON_DEMAND, &rule),
            Some(Unlisted::PathRule)
        );
        assert_eq!(unlisted(&p, GROUP_PATTERN, &rule), Some(Unlisted::PathRule));
        assert_eq!(
            unlisted(&p, GROUP_ALWAYS_ON, &read("---\n---\nb")),
            Some(Unlisted::AlwaysOn)
        );
        assert_eq!(unlisted(&p, GROUP_PATTERN, &read("---\n---\nb")), None);
    }
}
