//! `codex`: Codex's `<skills_instructions>` section: `## Skills`, an intro, `### Available
//! skills` with one `- name: description (file: path)` line per skill, ordered by scope
//! priority (system, admin, project, user, then the rest) and name, then `### How to use
//! skills`. The guidance text is our own wording of the same progressive-disclosure advice.
//! Nothing at all when no skill is visible.

use super::budget::Algorithm;
use super::{Frame, Layout};
use crate::catalog::{Scope, Skill};

const INTRO: &str = "Each skill below is a folder of local instructions whose entry point is a `SKILL.md` file. The list gives every skill's name, what it is for, and the path of its `SKILL.md`; open that file when you decide to use the skill.";

const GUIDANCE: &str = "\
- Choosing: use a skill when the user names it (as `$name` or in plain words) or when the task plainly fits its description; if several fit, use the smallest set that covers the task. A skill applies to the turn it was chosen for; choose again on later turns.
- Loading: read the skill's `SKILL.md` first and only as far as needed to follow it. Resolve relative paths it mentions (`scripts/`, `references/`, `assets/`) against the skill's directory.
- Resources: open only the referenced files the task needs; run or adapt bundled scripts rather than retyping their code; reuse bundled templates and assets.
- Telling the user: say in one short line which skill you are using and why; if an obvious skill does not fit, say why you skipped it.
- Problems: if a skill is missing, unreadable or unclear, say so briefly and continue with the best alternative.";

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

pub struct Codex;

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

    fn entry(&self, skill: &Skill, description: &str) -> String {
        let path = skill.location.to_string_lossy().replace('\\', "/");
        format!("- {}: {} (file: {path})", skill.name, description)
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return String::new();
        }
        format!(
            "<skills_instructions>\n## Skills\n{INTRO}\n### Available skills\n{}\n### How to use skills\n{GUIDANCE}\n</skills_instructions>",
            entries.join("\n")
        )
    }
}
