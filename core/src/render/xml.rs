//! `xml`: the Agent Skills specification's `<available_skills>` block, indented, with name,
//! description and location XML-escaped; nothing at all when no skill is visible.

use super::text::xml_escape;
use super::{Frame, Layout};
use crate::catalog::Skill;

pub struct Xml;

impl Layout for Xml {
    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
            xml_escape(&skill.name),
            xml_escape(description),
            xml_escape(&skill.location.to_string_lossy())
        )
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return String::new();
        }
        format!(
            "<available_skills>\n{}\n</available_skills>",
            entries.join("\n")
        )
    }
}
