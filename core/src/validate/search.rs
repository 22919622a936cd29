//! A small bounded search for SKILL.md files below a directory, for `validate DIR`.
//! (Discovery has its own walker with profiles and scopes; this one only has to be safe.)

use crate::diagnostic::Diagnostic;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

const MAX_DEPTH: usize = 16;
const MAX_ENTRIES: usize = 200_000;
const SKIP_DIRS: [&str; 2] = [".git", "node_modules"];

/// The file names that make a directory a skill (`skill.md` is accepted as skills-ref does).
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// What the search found: SKILL.md candidates (possibly not regular files: the caller
/// reports those) and problems met on the way.
#[derive(Default)]
pub struct SkillSearch {
    pub skill_files: Vec<PathBuf>,
    pub problems: Vec<Diagnostic>,
}

/// The SKILL.md in `dir`, preferring the uppercase name.
pub fn skill_file_in(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.symlink_metadata().is_ok())
}

/// Every SKILL.md below `root` (depth-first, sorted). Directory symlinks are followed once
/// (by canonical path), so loops end; `.git` and `node_modules` are skipped.
pub fn find(root: &Path) -> SkillSearch {
    let mut found = SkillSearch::default();
    let mut visited = HashSet::new();
    let mut entries = 0usize;
    walk(root, 0, &mut visited, &mut entries, &mut found);
    found.skill_files.sort();
    found
}

fn walk(
    dir: &Path,
    depth: usize,
    visited: &mut HashSet<PathBuf>,
    entries: &mut usize,
    found: &mut SkillSearch,
) {
    let Ok(real) = dir.canonicalize() else {
        return;
    };
    if !visited.insert(real) {
        return;
    }
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(err) => {
            // The caller asked for everything below `root`: a part that cannot be read
            // means the answer is incomplete, which must not pass as valid.
            found.problems.push(
                Diagnostic::error(
                    "unreadable-directory",
                    format!("cannot read directory {}: {err}", dir.display()),
                )
                .with_path(dir),
            );
            return;
        }
    };
    let mut children: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
    children.sort();
    // One skill file per directory: SKILL.md wins over skill.md when both exist.
    if let Some(skill) = skill_file_in(dir) {
        found.skill_files.push(skill);
    }
    for child in children {
        *entries += 1;
        if *entries > MAX_ENTRIES {
            found.problems.push(
                Diagnostic::error(
                    "search-limit",
                    format!("stopped after {MAX_ENTRIES} entries"),
                )
                .with_path(dir),
            );
            return;
        }
        let name = child
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if SKIP_DIRS.contains(&name.as_str()) || SKILL_FILE_NAMES.contains(&name.as_str()) {
            continue;
        }
        if child.is_dir() {
            if depth + 1 > MAX_DEPTH {
                found.problems.push(
                    Diagnostic::info(
                        "search-depth",
                        format!("not searched: deeper than {MAX_DEPTH} levels"),
                    )
                    .with_path(&child),
                );
                continue;
            }
            walk(&child, depth + 1, visited, entries, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_skips_git_and_survives_loops() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for d in ["a", "a/b", ".git/x", "node_modules/y", "c"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        for f in [
            "a/SKILL.md",
            "a/b/skill.md",
            ".git/x/SKILL.md",
            "node_modules/y/SKILL.md",
        ] {
            std::fs::write(root.join(f), "---\n---\n").expect("write");
        }
        std::os::unix::fs::symlink("..", root.join("c/loop")).expect("symlink");
        let found = find(root);
        let rel: Vec<_> = found
            .skill_files
            .iter()
            .map(|p| p.strip_prefix(root).expect("under root").to_path_buf())
            .collect();
        assert_eq!(
            rel,
            [PathBuf::from("a/SKILL.md"), PathBuf::from("a/b/skill.md")]
        );
    }
}
