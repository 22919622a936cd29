//! `skills-ref`: byte-for-byte the output of skills-ref 0.1.1's `to_prompt` (tags and values
//! on their own lines, `html.escape` on name and description, the location unescaped, and
//! `<available_skills>\n</available_skills>` for an empty list), so hosts built on the
//! reference library can switch without a diff.

use super::text::html_escape;
use super::{Frame, Layout};
use crate::catalog::Skill;

pub struct SkillsRef;

impl Layout for SkillsRef {
    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
            html_escape(&skill.name),
            html_escape(description),
            skill.location.to_string_lossy()
        )
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return "<available_skills>\n</available_skills>".to_string();
        }
        format!(
            "<available_skills>\n{}\n</available_skills>",
            entries.join("\n")
        )
    }
}
