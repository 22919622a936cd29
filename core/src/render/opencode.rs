//! OpenCode's two renderings, as OpenCode 1.18.33 produces them (pinned by the
//! `render/oracle-opencode-*` vectors): the system-prompt block (two intro lines, then the
//! verbose `<available_skills>` list with the absolute location escaped `&`, `<`, `>`, `"`,
//! `'` → `&amp;` `&lt;` `&gt;` `&quot;` `&#39;`) and the terse `## Available Skills` list of
//! the skill tool's description. OpenCode sorts by name and leaves out skills without a
//! description; so do we. Unlike OpenCode, name and description are escaped the same way in
//! the verbose form, so a `<` in a description cannot break the block.
use super::{Frame, Layout};
use crate::catalog::Skill;

const INTRO: &str = "Skills provide specialized instructions and workflows for specific tasks.\n\
Use the skill tool to load a skill when a task matches its description.";
const NONE: &str = "No skills are currently available.";

fn by_name(skills: &mut Vec<&Skill>) {
    skills.retain(|s| !s.description().is_empty());
    skills.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
}

/// The escaping of OpenCode's formatter (`&#39;` for the apostrophe).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub struct Opencode;

impl Layout for Opencode {
    fn order(&self, skills: &mut Vec<&Skill>) {
        by_name(skills);
    }

    /// OpenCode leaves its skills section out when the skill tool is disabled.
    fn disabled(&self) -> String {
        String::new()
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
            escape(&skill.name),
            escape(description),
            escape(&skill.location.to_string_lossy())
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

    /// OpenCode leaves its skills section out when the skill tool is disabled.
    fn disabled(&self) -> String {
        String::new()
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
