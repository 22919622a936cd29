//! `codex`: Codex's `<skills_instructions>` section exactly as Codex 0.169.0 renders it
//! (`codex debug prompt-input`, pinned by the `render/oracle-codex-*` vectors): `## Skills`,
//! Codex's one-line intro, a `### Skill roots` table (`rN` = root directory, numbered in
//! root-scan order, only roots holding a listed skill), then `### Available skills` with
//! one `- name: description (file: rN/relative/SKILL.md)` line per skill, ordered by scope
//! priority (system, admin, project, user, then the rest) and name. Descriptions are
//! collapsed to one line and nothing is escaped. Nothing at all when no skill is visible.
//!
//! Codex 0.169.0 puts no how-to-use guidance in this section, so neither do we.

use super::budget::Algorithm;
use super::{Frame, Layout};
use crate::catalog::{Scope, Skill};
use std::path::{Path, PathBuf};

const INTRO: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";

/// Codex's prompt priority: system, admin, repository, user; the scopes Codex does not have
/// (managed, plugin, extra) slot in next to their closest Codex equivalent.
fn rank(scope: Scope) -> u8 {
    match scope {
        Scope::System => 0,
        Scope::Admin | Scope::Managed => 1,
        Scope::Project => 2,
        Scope::User => 3,
        Scope::Plugin => 4,
        Scope::Extra => 5,
    }
}

fn slash(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

pub struct Codex {
    /// The roots table, in order (`r0`, `r1`, ...).
    roots: Vec<PathBuf>,
}

impl Codex {
    /// Number the roots of `skills`: in `scan_order` first (the deck's root-scan order),
    /// then any other root in the order its first skill appears.
    pub fn new(skills: &[&Skill], scan_order: &[PathBuf]) -> Codex {
        let mut used: Vec<&Path> = Vec::new();
        for s in skills {
            if !used.contains(&&*s.source) {
                used.push(&s.source);
            }
        }
        let mut roots: Vec<PathBuf> = scan_order
            .iter()
            .filter(|r| used.contains(&r.as_path()))
            .cloned()
            .collect();
        for u in used {
            if !roots.iter().any(|r| r == u) {
                roots.push(u.to_path_buf());
            }
        }
        Codex { roots }
    }

    fn short_path(&self, skill: &Skill) -> String {
        self.roots
            .iter()
            .position(|r| *r == skill.source)
            .and_then(|n| {
                let rel = skill.location.strip_prefix(&self.roots[n]).ok()?;
                Some(format!("r{n}/{}", slash(rel)))
            })
            .unwrap_or_else(|| slash(&skill.location))
    }
}

impl Layout for Codex {
    fn order(&self, skills: &mut Vec<&Skill>) {
        skills.sort_by(|a, b| {
            rank(a.scope)
                .cmp(&rank(b.scope))
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.location.cmp(&b.location))
        });
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::TrimThenDrop
    }

    fn description(&self, skill: &Skill) -> (String, usize) {
        let one_line = skill
            .description()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let len = super::text::chars(&one_line);
        (one_line, len)
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "- {}: {} (file: {})",
            skill.name,
            description,
            self.short_path(skill)
        )
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return String::new();
        }
        let table: Vec<String> = self
            .roots
            .iter()
            .enumerate()
            .map(|(n, r)| format!("- `r{n}` = `{}`", slash(r)))
            .collect();
        format!(
            "<skills_instructions>\n## Skills\n{INTRO}\n### Skill roots\n{}\n### Available skills\n{}\n</skills_instructions>",
            table.join("\n"),
            entries.join("\n")
        )
    }
}
