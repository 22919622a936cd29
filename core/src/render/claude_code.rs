//! `claude-code`: Claude Code's skill listing: `- name: description` lines, the description
//! followed by ` - when_to_use` when present, each entry's text capped at 1,536 characters
//! (an ellipsis marks the cut); a skill whose description was dropped shows as `- name`.
//! Nothing at all when no skill is visible.

use super::budget::Algorithm;
use super::text::{chars, take_chars};
use super::{Frame, Layout};
use crate::catalog::Skill;

/// Claude Code caps each listing entry's description text.
pub const ENTRY_CAP: usize = 1_536;

const INTRO: &str = "The following skills are available for use with the Skill tool:";

pub struct ClaudeCode;

impl Layout for ClaudeCode {
    fn algorithm(&self) -> Algorithm {
        Algorithm::DropDescriptions
    }

    fn description(&self, skill: &Skill) -> (String, usize) {
        let mut text = skill.description().to_string();
        if let Some(when) = skill
            .manifest
            .claude_code
            .when_to_use
            .as_deref()
            .filter(|w| !w.is_empty())
        {
            text = if text.is_empty() {
                when.to_string()
            } else {
                format!("{text} - {when}")
            };
        }
        let len = chars(&text);
        if len <= ENTRY_CAP {
            return (text, len);
        }
        (format!("{}…", take_chars(&text, ENTRY_CAP - 1)), len)
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        if description.is_empty() {
            format!("- {}", skill.name)
        } else {
            format!("- {}: {}", skill.name, description)
        }
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return String::new();
        }
        format!("{INTRO}\n\n{}", entries.join("\n"))
    }
}
