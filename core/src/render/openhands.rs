//! `openhands`: the `<available_skills>` block OpenHands SDK 1.44.1 puts in its system prompt
//! (`openhands/sdk/skills/skill.py` `to_prompt`): name and description only, no location (the
//! model must go through `invoke_skill`), each stripped and escaped for `&`, `<`, `>` only
//! (`xml.sax.saxutils.escape`). Without skills the block says `no available skills`.
//!
//! A description over 1,024 characters never reaches `to_prompt` whole: the SDK's `Skill`
//! model cuts its middle on load (`_truncate_long_description`, `utils/truncate.py`
//! `maybe_truncate`) and puts a notice naming the file there. skilldeck's catalog keeps the
//! description whole, so this format makes that cut; `to_prompt`'s own 1,024 cap then has
//! nothing left to do.
//!
//! For a skill without a description the SDK shows the first line of its body that is
//! neither blank nor a `#` heading, followed by `... [N characters truncated. Call
//! invoke_skill(name="NAME") to load the full skill]` when N characters of the body come after
//! it (the line itself cut to 1,024 characters first, the cut counted in N). The catalog keeps
//! only that line and N, computed when the file is parsed (the profile's
//! `description_fallback_line`); without them the description is empty.

use super::text::{chars, take_chars};
use super::{Frame, Layout};
use crate::catalog::Skill;
use crate::manifest::FallbackLine;
use crate::parse::py_strip;

/// `Skill.MAX_DESCRIPTION_LENGTH` (the AgentSkills limit).
pub const DESCRIPTION_CAP: usize = 1_024;

pub struct Openhands;

impl Layout for Openhands {
    fn description(&self, skill: &Skill) -> (String, usize) {
        let text = skill.description();
        if let (true, Some(line)) = (text.is_empty(), &skill.manifest.fallback_line) {
            return fallback(&skill.name, line);
        }
        let len = chars(text);
        if len <= DESCRIPTION_CAP {
            return (text.to_string(), len);
        }
        let notice = format!(
            "<response clipped><NOTE>Due to the max output limit, only part of the full description is shown. You can view the complete skill content at {}.</NOTE>",
            skill.location.to_string_lossy()
        );
        (clip_middle(text, len, &notice), len)
    }

    fn entry(&self, skill: &Skill, description: &str) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n  </skill>",
            escape(py_strip(&skill.name)),
            escape(py_strip(description))
        )
    }

    fn frame(&self, entries: &[String], _: &Frame) -> String {
        if entries.is_empty() {
            return "<available_skills>\n  no available skills\n</available_skills>".to_string();
        }
        format!(
            "<available_skills>\n{}\n</available_skills>",
            entries.join("\n")
        )
    }
}

/// `to_prompt`'s stand-in for a missing description: the body line, cut to the cap, and a
/// note counting what it leaves out.
fn fallback(name: &str, line: &FallbackLine) -> (String, usize) {
    let len = chars(&line.text);
    let mut left_out = line.rest_chars;
    let mut text = line.text.clone();
    if len > DESCRIPTION_CAP {
        left_out += len - DESCRIPTION_CAP;
        text = take_chars(&line.text, DESCRIPTION_CAP).to_string();
    }
    if left_out > 0 {
        text.push_str(&format!(
            "... [{left_out} characters truncated. Call invoke_skill(name=\"{name}\") to load the full skill]"
        ));
    }
    (text, len)
}

/// `maybe_truncate(text, DESCRIPTION_CAP, notice)` for a `text` of `len` characters above
/// the cap: the head (the larger half) and tail of what the notice leaves room for, the notice
/// between them; a notice that fills the cap alone is cut to it.
fn clip_middle(text: &str, len: usize, notice: &str) -> String {
    let notice_len = chars(notice);
    if notice_len >= DESCRIPTION_CAP {
        return take_chars(notice, DESCRIPTION_CAP).to_string();
    }
    let room = DESCRIPTION_CAP - notice_len;
    let head = room.div_ceil(2);
    let tail = room - head;
    let tail_start = text
        .char_indices()
        .nth(len - tail)
        .map_or(text.len(), |(i, _)| i);
    format!("{}{notice}{}", take_chars(text, head), &text[tail_start..])
}

/// `xml.sax.saxutils.escape` without entities: quotes stay as they are.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Catalog, Scope};
    use crate::render::{render, RenderFormat, RenderOptions};

    /// The shared render test skill at `/s/long/SKILL.md`, in the project scope.
    fn long_skill(description: &str) -> Skill {
        let mut skill = crate::render::tests::skill("long", description);
        skill.scope = Scope::Project;
        skill
    }

    /// Expected text from the SDK itself (openhands-sdk 1.44.1): `to_prompt([Skill(name="long",
    /// content="Body.", description=D, source="/s/long/SKILL.md")])`, D as below. A vector
    /// cannot pin this: the cut depends on the length of the absolute path in the notice.
    #[test]
    fn long_description_is_cut_as_the_sdk_cuts_it() {
        let description = format!("{} <&> {}", "é".repeat(700), "z".repeat(400));
        let catalog = Catalog {
            skills: vec![long_skill(&description).into()],
            ..Catalog::default()
        };
        let options = RenderOptions {
            format: RenderFormat::Openhands,
            ..RenderOptions::default()
        };
        let rendered = render(&catalog, &options).expect("renders");
        let expected = format!(
            "<available_skills>\n  <skill>\n    <name>long</name>\n    <description>{}&lt;response clipped&gt;&lt;NOTE&gt;Due to the max output limit, only part of the full description is shown. You can view the complete skill content at /s/long/SKILL.md.&lt;/NOTE&gt;{} &lt;&amp;&gt; {}</description>\n  </skill>\n</available_skills>",
            "é".repeat(430),
            "é".repeat(25),
            "z".repeat(400)
        );
        assert_eq!(rendered.text, expected);
    }

    #[test]
    fn clips_the_middle_like_maybe_truncate() {
        let notice = "n".repeat(20);
        let text = format!("{}{}", "h".repeat(600), "t".repeat(600));
        let clipped = clip_middle(&text, 1_200, &notice);
        assert_eq!(chars(&clipped), DESCRIPTION_CAP);
        assert_eq!(
            clipped,
            format!("{}{notice}{}", "h".repeat(502), "t".repeat(502))
        );
        let long = "x".repeat(2_000);
        assert_eq!(clip_middle("y", 1_100, &long), "x".repeat(DESCRIPTION_CAP));
    }

    #[test]
    fn strips_like_python_and_escapes_only_markup() {
        assert_eq!(py_strip("\u{1f} a b\u{a0}\n"), "a b");
        assert_eq!(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; \"c\" 'd'&gt;");
    }
}
