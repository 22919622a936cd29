//! OpenCode's two renderings: the system-prompt block (two intro lines, then the verbose
//! `<available_skills>` list with `file://` locations) and the terse `## Available Skills`
//! list of the skill tool's description. OpenCode sorts by name; so do we. Unlike OpenCode,
//! name and description are XML-escaped in the verbose form, so a `<` in a description
//! cannot break the block.

use super::text::{file_url, xml_escape};
use super::{Frame, Layout};
use crate::catalog::Skill;

const INTRO: &str = "Skills provide specialized instructions and workflows for specific tasks.\n\
Use the skill tool to load a skill when a task matches its description.";
const NONE: &str = "No skills are currently available.";

fn by_name(skills: &mut [&Skill]) {
    skills.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
}

pub struct Opencode;

impl Layout for Opencode {
    fn order(&self, skills: &mut Vec<&Skill>) {
        by_name(skills);
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
            xml_escape(&skill.name),
            xml_escape(description),
            file_url(&skill.location)
        )
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return format!("{INTRO}\n{NONE}");
        }
        format!(
            "{INTRO}\n<available_skills>\n{}\n</available_skills>",
            entries.join("\n")
        )
    }
}

pub struct OpencodeTool;

impl Layout for OpencodeTool {
    fn order(&self, skills: &mut Vec<&Skill>) {
        by_name(skills);
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!("- **{}**: {}", skill.name, description)
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return NONE.to_string();
        }
        format!("## Available Skills\n{}", entries.join("\n"))
    }
}
