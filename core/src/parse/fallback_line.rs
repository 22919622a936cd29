//! The line OpenHands SDK 1.44.1 shows in place of a missing description
//! (`openhands/sdk/skills/skill.py` `to_prompt`): the first line of the skill's content that
//! is neither blank nor a `#` heading, stripped, plus how many characters of the content
//! follow it (`to_prompt` reports them as truncated).
//!
//! The content is what python-frontmatter 1.3.0 returns after `open(..., encoding="utf-8")`:
//! line ends made `\n` (universal newlines), the text stripped, and when it opens with a
//! `^-{3,}\s*$` line and has a second such line, what follows the second, stripped again;
//! otherwise the whole stripped text (frontmatter included).

use crate::manifest::FallbackLine;

/// Python's `str.strip()` (and `\s` in its regular expressions): Unicode whitespace plus the
/// separators U+001C..U+001F, which Python counts as whitespace and Rust's `trim` does not.
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A line python-frontmatter's YAML handler splits at: three or more dashes, then only
/// whitespace up to the line end.
fn is_boundary(line: &str) -> bool {
    let rest = line.trim_start_matches('-');
    line.len() - rest.len() >= 3 && rest.chars().all(is_py_space)
}

/// The content python-frontmatter gives for `text` (line ends already `\n`).
fn content(text: &str) -> &str {
    let text = py_strip(text);
    let mut lines = text.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return text;
    };
    if !is_boundary(first.trim_end_matches('\n')) {
        return text;
    }
    let mut at = first.len();
    for line in lines {
        let bare = line.trim_end_matches('\n');
        if is_boundary(bare) {
            return py_strip(&text[at + bare.len()..]);
        }
        at += line.len();
    }
    // One boundary only: its `split` raises and the loader keeps the whole text.
    text
}

/// The fallback line of a skill file's whole `text`, `None` when every line of its content
/// is blank or a heading (the SDK then shows an empty description).
pub fn fallback_line(text: &str) -> Option<FallbackLine> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let content = content(&text);
    let mut before = 0usize;
    for line in content.split('\n') {
        let stripped = py_strip(line);
        let len = line.chars().count();
        if stripped.is_empty() || stripped.starts_with('#') {
            before += len + 1;
            continue;
        }
        let total = content.chars().count();
        return Some(FallbackLine {
            text: stripped.to_string(),
            rest_chars: total.saturating_sub(before + len),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Option<(String, usize)> {
        fallback_line(text).map(|f| (f.text, f.rest_chars))
    }

    #[test]
    fn skips_blank_lines_and_headings_and_counts_what_follows() {
        let text = "---\nname: a\n---\n\n# Title\n  #tag\n\n  First line.  \nSecond.\n";
        // Content: "# Title\n  #tag\n\n  First line.  \nSecond." (the line ends at 31).
        assert_eq!(line(text), Some(("First line.".into(), 8)));
    }

    #[test]
    fn line_ends_are_made_newlines_first() {
        assert_eq!(
            line("---\r\nname: a\r\n---\r\nOne.\r\nTwo.\rThree."),
            Some(("One.".into(), 12))
        );
    }

    #[test]
    fn without_a_second_boundary_the_whole_text_is_the_content() {
        assert_eq!(
            line("---\nname: a\n\nBody."),
            Some(("---".into(), "\nname: a\n\nBody.".len()))
        );
        assert_eq!(
            line("Plain text only."),
            Some(("Plain text only.".into(), 0))
        );
    }

    #[test]
    fn boundaries_take_longer_dash_runs_and_trailing_whitespace() {
        assert_eq!(
            line("  \n-----  \nname: a\n---\t\n\u{1f}é body\n"),
            Some(("é body".into(), 0))
        );
    }

    #[test]
    fn headings_and_blanks_only_give_nothing() {
        assert_eq!(line("---\nname: a\n---\n# Only\n\n## Headings\n"), None);
        assert_eq!(line("---\nname: a\n---\n"), None);
    }
}
