//! `markdown`: a plain list for humans (`- **name** — description` with the location on the
//! next line).

use super::{Frame, Layout};
use crate::catalog::Skill;

pub struct Markdown;

impl Layout for Markdown {
    fn entry(&self, skill: &Skill, description: &str) -> String {
        let head = if description.is_empty() {
            format!("- **{}**", skill.name)
        } else {
            format!("- **{}** — {}", skill.name, description)
        };
        format!("{head}\n  `{}`", skill.location.to_string_lossy())
    }

    fn frame(&self, entries: &[String], frame: &Frame) -> String {
        if entries.is_empty() {
            return "# Skills\n\nNo skills available.".to_string();
        }
        let mut out = format!("# Skills\n\n{}", entries.join("\n"));
        if frame.shown < frame.total {
            out.push_str(&format!(
                "\n\n_{} of {} skills shown (budget)._",
                frame.shown, frame.total
            ));
        }
        out
    }
}
