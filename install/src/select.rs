//! Finding the skills a fetched source holds.

use crate::error::{InstallError, Result};
use std::path::{Path, PathBuf};

/// Provenance `gh skill` writes into a skill's frontmatter `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GhProvenance {
    /// `metadata.github-repo` (`owner/repo`).
    pub repo: String,
    /// `metadata.github-path`.
    pub path: Option<String>,
    /// `metadata.github-ref`.
    pub git_ref: Option<String>,
    /// `metadata.github-tree-sha`.
    pub tree_sha: Option<String>,
}

/// One skill found in a source.
#[derive(Debug, Clone)]
pub struct Found {
    /// Its name: frontmatter `name`, else its directory's name.
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
    /// Its directory relative to the source root, `/`-separated (empty for the root).
    pub rel: String,
    /// `gh skill` provenance, when its frontmatter carries one.
    pub provenance: Option<GhProvenance>,
}

const MAX_DEPTH: usize = 8;
const SKIP_DIRS: [&str; 2] = [".git", "node_modules"];

/// The skills under `start` (inside `root`): `start` itself when it holds a `SKILL.md`,
/// else every `**/SKILL.md` (no symlinks followed, no skill nested in another), the
/// conventional places first (`skills/`, `.agents/skills/`, `.claude/skills/`), so when two
/// share a name the conventional one wins and the other is reported.
pub fn find(root: &Path, start: &Path, warnings: &mut Vec<String>) -> Result<Vec<Found>> {
    let mut dirs = Vec::new();
    if start.join("SKILL.md").is_file() {
        dirs.push(start.to_path_buf());
    } else {
        walk(start, 0, &mut dirs);
    }
    let rank = |rel: &str| {
        if rel.starts_with("skills/") {
            0
        } else if rel.starts_with(".agents/skills/") {
            1
        } else if rel.starts_with(".claude/skills/") {
            2
        } else {
            3
        }
    };
    let mut found: Vec<Found> = Vec::new();
    for dir in dirs {
        let rel = dir
            .strip_prefix(root)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let skill_md = dir.join("SKILL.md");
        let text = std::fs::read(&skill_md).map_err(|e| InstallError::io(&skill_md, e))?;
        let parsed = skilldeck::parse(&String::from_utf8_lossy(&text));
        let dir_name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = parsed
            .manifest
            .name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .unwrap_or(dir_name);
        let meta = parsed.manifest.metadata.to_object();
        let text_of = |key: &str| meta.get(key).and_then(|v| v.as_str()).map(str::to_string);
        let provenance = text_of("github-repo").map(|repo| GhProvenance {
            repo,
            path: text_of("github-path"),
            git_ref: text_of("github-ref"),
            tree_sha: text_of("github-tree-sha"),
        });
        found.push(Found {
            name,
            dir,
            rel,
            provenance,
        });
    }
    found.sort_by(|a, b| (rank(&a.rel), &a.rel).cmp(&(rank(&b.rel), &b.rel)));
    let mut out: Vec<Found> = Vec::new();
    for skill in found {
        if let Some(first) = out.iter().find(|f| f.name == skill.name) {
            warnings.push(format!(
                "`{}` at `{}` is shadowed by `{}`; pick the directory as the source to install it",
                skill.name, skill.rel, first.rel
            ));
        } else {
            out.push(skill);
        }
    }
    Ok(out)
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !SKIP_DIRS.iter().any(|s| e.file_name() == *s))
        .map(|e| e.path())
        .collect();
    children.sort();
    for child in children {
        if child.join("SKILL.md").is_file() {
            out.push(child);
        } else {
            walk(&child, depth + 1, out);
        }
    }
}

/// Keep the skills named in `wanted` (all when empty); a name not found is an error listing
/// what the source holds.
pub fn pick(found: Vec<Found>, wanted: &[String], source: &str) -> Result<Vec<Found>> {
    if found.is_empty() {
        return Err(InstallError::NoSuchSkill {
            message: format!("{source}: no SKILL.md found (looked in skills/*, .agents/skills, .claude/skills and **/SKILL.md)"),
        });
    }
    if wanted.is_empty() {
        return Ok(found);
    }
    let missing: Vec<&String> = wanted
        .iter()
        .filter(|w| !found.iter().any(|f| &f.name == *w))
        .collect();
    if !missing.is_empty() {
        let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
        return Err(InstallError::NoSuchSkill {
            message: format!(
                "{source}: no skill named {}; it holds: {}",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                names.join(", ")
            ),
        });
    }
    Ok(found
        .into_iter()
        .filter(|f| wanted.contains(&f.name))
        .collect())
}
