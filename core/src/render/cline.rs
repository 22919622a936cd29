//! `cline`: the description of Cline's `skills` tool (`@cline/core`), the only place its model
//! sees which skills exist: a fixed paragraph, then ` Available skills: a, b.` naming every
//! enabled skill (its id when namespaced `plugin:skill`, else its name), no descriptions.
//! Without skills the paragraph stands alone. Cline sets no budget; under one, entries past
//! it are dropped.

use super::budget::Algorithm;
use super::{Frame, Layout};
use crate::catalog::Skill;

pub struct Cline;

/// The tool description as Cline 3.0.65 writes it, before the list.
const DESCRIPTION: &str = "Execute a skill within the main conversation. When users ask you to perform tasks, check if any available skills match. When users reference a slash command, invoke it with this tool. Input: `skill` (required) and optional `args`. Example: `skill: \"pdf\"`, `skill: \"commit\", args: \"-m \\\"Fix bug\\\"\"`, `skill: \"review-pr\", args: \"123\"`, `skill: \"ms-office-suite:pdf\"`. When a skill matches the user's request, invoking this tool is a blocking requirement before any other response. Never mention a skill without invoking this tool.";

impl Layout for Cline {
    fn algorithm(&self) -> Algorithm {
        Algorithm::StopAtFirst
    }

    fn description(&self, _skill: &Skill) -> (String, usize) {
        (String::new(), 0)
    }

    fn entry(&self, skill: &Skill, _description: &str) -> String {
        if skill.id.contains(':') {
            skill.id.to_string()
        } else {
            skill.name.to_string()
        }
    }

    fn frame(&self, entries: &[String], _frame: &Frame) -> String {
        if entries.is_empty() {
            DESCRIPTION.to_string()
        } else {
            format!("{DESCRIPTION} Available skills: {}.", entries.join(", "))
        }
    }
}
