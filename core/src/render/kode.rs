//! `kode`: Kode's skill-tool list: one block per skill inside `<available_skills>`, tags and
//! values on their own lines, the location being the skill's scope. When the budget cut
//! the list, a `<!-- Showing N of M skills due to token limits -->` marker follows.

use super::budget::Algorithm;
use super::text::xml_escape;
use super::{Frame, Layout};
use crate::catalog::Skill;

pub struct Kode;

impl Layout for Kode {
    fn algorithm(&self) -> Algorithm {
        Algorithm::StopAtFirst
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
            xml_escape(&skill.name),
            xml_escape(description),
            skill.scope.as_str()
        )
    }

    fn frame(&self, entries: &[String], frame: &Frame) -> String {
        let mut out = format!("<available_skills>\n{}</available_skills>", {
            let mut body = entries.join("\n");
            if !body.is_empty() {
                body.push('\n');
            }
            body
        });
        if frame.shown < frame.total {
            out.push_str(&format!(
                "\n<!-- Showing {} of {} skills due to token limits -->",
                frame.shown, frame.total
            ));
        }
        out
    }
}
