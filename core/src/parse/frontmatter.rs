//! Locating the frontmatter block by lines.
//!
//! The first line (after an optional UTF-8 BOM) must trim to `---`; the block ends at the
//! next line that trims to `---`. Fences are found by whole lines, so a `---` inside a value
//! or a horizontal rule later in the body never ends the block. `\n`, `\r\n` and a lone `\r`
//! all end a line.

/// Where the frontmatter is, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fences {
    /// Both fences found.
    Closed,
    /// The first line is not `---`.
    MissingOpening,
    /// An opening fence but no closing one.
    Unterminated,
}

/// The result of splitting a SKILL.md into frontmatter and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub fences: Fences,
    /// The YAML between the fences, every line ending normalised to `\n`. Empty unless
    /// `fences` is `Closed` or `Unterminated` (then it holds everything after the opening).
    pub yaml: String,
    /// 1-based line number of the first YAML line (the line after the opening fence).
    pub yaml_line: u32,
    /// 1-based line where the body starts (the line after the closing fence).
    pub body_line: Option<u32>,
    /// Byte offset in the input where the body starts.
    pub body_offset: Option<usize>,
    /// The input started with a UTF-8 byte order mark.
    pub bom: bool,
}

/// One line of the input: its content (without terminator) and where the next line starts.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub text: &'a str,
    pub next: usize,
}

/// Iterate over the lines of `text` starting at byte `from`, accepting `\n`, `\r\n` and
/// lone `\r` as terminators.
pub fn lines_from(text: &str, from: usize) -> impl Iterator<Item = Line<'_>> {
    lines_with(text, from, true)
}

/// [`lines_from`]; with `lone_cr` false only `\n` and `\r\n` end a line (Rust's
/// `str::lines`), and a lone `\r` stays in the line's text.
pub fn lines_with(text: &str, from: usize, lone_cr: bool) -> impl Iterator<Item = Line<'_>> {
    let bytes = text.as_bytes();
    let mut pos = from.min(text.len());
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        // Searched with memchr rather than byte by byte (the line scan was ~4% of a cold
        // load's instructions).
        let rest = &bytes[start..];
        let (end, next) = if lone_cr {
            match memchr::memchr2(b'\n', b'\r', rest) {
                Some(at) if rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n') => {
                    (start + at, start + at + 2)
                }
                Some(at) => (start + at, start + at + 1),
                None => (bytes.len(), bytes.len()),
            }
        } else {
            // Only `\n` and `\r\n` end a line.
            match memchr::memchr(b'\n', rest) {
                Some(at) if at > 0 && rest[at - 1] == b'\r' => (start + at - 1, start + at + 1),
                Some(at) => (start + at, start + at + 1),
                None => (bytes.len(), bytes.len()),
            }
        };
        pos = next;
        // `start` and `end` sit on ASCII bytes or the ends of the string, so both are char
        // boundaries and the slice cannot fail.
        Some(Line {
            text: &text[start..end],
            next,
        })
    })
}

/// A fence line: `---` with optional surrounding whitespace.
pub fn is_fence(line: &str) -> bool {
    // Most lines start with a key's letter: not a fence, without trimming. A fence starts
    // with `-` or whitespace (ASCII, or a multi-byte Unicode space).
    match line.as_bytes().first() {
        Some(b'-' | b'\t'..=b'\r' | b' ' | 0x80..) => line.trim() == "---",
        _ => false,
    }
}

/// Split `text` into frontmatter and body (see the module docs for the rules).
pub fn split(text: &str) -> Split {
    split_with(text, true)
}

/// [`split`], with [`lines_with`]'s choice of line ends.
pub fn split_with(text: &str, lone_cr: bool) -> Split {
    split_rules(text, lone_cr, true)
}

/// [`split_with`]; with `indented` false a fence line may carry trailing whitespace only.
pub fn split_rules(text: &str, lone_cr: bool, indented: bool) -> Split {
    let (mut split, block) = locate(text, lone_cr, indented);
    if let Some(block) = block {
        let yaml = &text[block.start..block.end];
        if block.plain {
            split.yaml = yaml.to_owned();
        } else {
            // A `\r\n`, lone `\r` or missing last line end: each line gets a `\n`.
            split.yaml.reserve(yaml.len() + 1);
            for line in lines_with(yaml, 0, lone_cr) {
                split.yaml.push_str(line.text);
                split.yaml.push('\n');
            }
        }
    }
    split
}

/// [`split_rules`]'s `fences` alone, without copying the block (the prefix reader asks it
/// after each read to know whether the block is complete).
pub fn fences_rules(text: &str, lone_cr: bool, indented: bool) -> Fences {
    locate(text, lone_cr, indented).0.fences
}

/// Where the YAML block is in the input.
struct Block {
    start: usize,
    end: usize,
    /// Every line of it ends in a lone `\n`: the block is that slice of the input as it is.
    plain: bool,
}

/// The split without its `yaml`, and where that is (`None`: no opening fence).
fn locate(text: &str, lone_cr: bool, indented: bool) -> (Split, Option<Block>) {
    let is_fence = |line: &str| {
        if indented {
            is_fence(line)
        } else {
            line.starts_with("---") && line.trim_end() == "---"
        }
    };
    let bom = text.starts_with('\u{feff}');
    let from = if bom { '\u{feff}'.len_utf8() } else { 0 };
    let mut lines = lines_with(text, from, lone_cr);
    let mut split = Split {
        fences: Fences::MissingOpening,
        yaml: String::new(),
        yaml_line: 2,
        body_line: None,
        body_offset: None,
        bom,
    };
    let start = match lines.next() {
        Some(first) if is_fence(first.text) => first.next,
        _ => return (split, None),
    };
    split.fences = Fences::Unterminated;
    let mut block = Block {
        start,
        end: text.len(),
        plain: true,
    };
    let mut line_start = start;
    let mut number = 1u32;
    for line in lines {
        number = number.saturating_add(1);
        if is_fence(line.text) {
            split.fences = Fences::Closed;
            split.body_line = Some(number.saturating_add(1));
            split.body_offset = Some(line.next);
            block.end = line_start;
            break;
        }
        let terminator = &text.as_bytes()[line_start + line.text.len()..line.next];
        block.plain &= terminator == b"\n";
        line_start = line.next;
    }
    (split, Some(block))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_block_with_body() {
        let s = split("---\nname: a\n---\n# Body\n");
        assert_eq!(s.fences, Fences::Closed);
        assert_eq!(s.yaml, "name: a\n");
        assert_eq!(s.body_line, Some(4));
        assert_eq!(s.body_offset, Some(16));
    }

    #[test]
    fn crlf_lone_cr_and_bom() {
        let s = split("\u{feff}---\r\nname: a\rdescription: b\r\n---\r\nbody");
        assert!(s.bom);
        assert_eq!(s.fences, Fences::Closed);
        assert_eq!(s.yaml, "name: a\ndescription: b\n");
        assert_eq!(s.body_line, Some(5));
    }

    #[test]
    fn dashes_inside_a_value_do_not_close() {
        let s = split("---\ndescription: a --- b\n---\n---\n");
        assert_eq!(s.yaml, "description: a --- b\n");
        assert_eq!(s.body_line, Some(4));
    }

    #[test]
    fn missing_and_unterminated() {
        assert_eq!(split("# Title\n---\n").fences, Fences::MissingOpening);
        assert_eq!(split("").fences, Fences::MissingOpening);
        let s = split("---\nname: a\n");
        assert_eq!(s.fences, Fences::Unterminated);
        assert_eq!(s.body_line, None);
    }

    #[test]
    fn lone_cr_is_text_for_lf_lines() {
        let text = "---\rname: a\r---\r";
        assert_eq!(split(text).fences, Fences::Closed);
        assert_eq!(split_with(text, false).fences, Fences::MissingOpening);
        let s = split_with("---\r\nname: a\rb: c\n---\n", false);
        assert_eq!(s.fences, Fences::Closed);
        assert_eq!(s.yaml, "name: a\rb: c\n");
    }

    /// The splitter as it was before it copied the block in one slice and searched line
    /// ends with memchr: line by line, byte by byte.
    fn split_line_by_line(text: &str, lone_cr: bool, indented: bool) -> Split {
        let is_fence = |line: &str| {
            if indented {
                line.trim() == "---"
            } else {
                line.trim_end() == "---"
            }
        };
        let bom = text.starts_with('\u{feff}');
        let bytes = text.as_bytes();
        let mut pos = if bom { 3 } else { 0 };
        let mut lines = std::iter::from_fn(|| {
            if pos >= bytes.len() {
                return None;
            }
            let start = pos;
            let mut end = start;
            while end < bytes.len()
                && bytes[end] != b'\n'
                && !(bytes[end] == b'\r' && (lone_cr || bytes.get(end + 1) == Some(&b'\n')))
            {
                end += 1;
            }
            pos = match bytes.get(end) {
                Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end + 2,
                Some(_) => end + 1,
                None => end,
            };
            Some((&text[start..end], pos))
        });
        let mut split = Split {
            fences: Fences::MissingOpening,
            yaml: String::new(),
            yaml_line: 2,
            body_line: None,
            body_offset: None,
            bom,
        };
        match lines.next() {
            Some((first, _)) if is_fence(first) => {}
            _ => return split,
        }
        split.fences = Fences::Unterminated;
        let mut number = 1u32;
        for (line, next) in lines {
            number += 1;
            if is_fence(line) {
                split.fences = Fences::Closed;
                split.body_line = Some(number + 1);
                split.body_offset = Some(next);
                return split;
            }
            split.yaml.push_str(line);
            split.yaml.push('\n');
        }
        split
    }

    #[test]
    fn splits_as_line_by_line() {
        // Every text of up to six pieces after an opening fence, over pieces that make
        // fences, line ends of each kind, whitespace and a multi-byte space.
        let pieces = ["---", "\n", "\r", "a", " ", "\u{a0}"];
        let texts = super::super::every_text(&pieces, 6);
        for tail in &texts {
            for head in ["---\n", "---\r\n", "\u{feff}---\r", " --- \n", ""] {
                let text = format!("{head}{tail}");
                for (lone_cr, indented) in
                    [(true, true), (false, true), (true, false), (false, false)]
                {
                    let split = split_rules(&text, lone_cr, indented);
                    assert_eq!(
                        split,
                        split_line_by_line(&text, lone_cr, indented),
                        "{text:?} lone_cr={lone_cr} indented={indented}"
                    );
                    assert_eq!(fences_rules(&text, lone_cr, indented), split.fences);
                }
            }
        }
    }

    #[test]
    fn fence_with_trailing_spaces() {
        assert_eq!(split("---  \nname: a\n ---\n").fences, Fences::Closed);
    }
}
