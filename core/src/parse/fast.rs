//! The fast path of the YAML loader: frontmatter written in the handful of shapes nearly
//! every SKILL.md uses is read here directly, without the general YAML machinery, which
//! costs tens of microseconds per file and dominated discovery (bench/PROFILE.md).
//!
//! It is exact or it declines. Every line must be one of the shapes below, read exactly as
//! serde-saphyr reads it with the options of [`super::yaml`]; at the first doubt (a tab, a
//! comment after a value, a scalar YAML would type as a number, boolean or null, an escape
//! it does not know, a block scalar with leading blank or more-indented lines, ...) it
//! returns `None` and the caller runs the full parser. The property test at the end of this
//! file checks that both readings agree on generated documents (raise `PROPTEST_CASES` for
//! longer runs).
//!
//! Shapes read here, at the top level (column 1):
//! - `key: plain text`, `key: "double quoted"`, `key: 'single quoted'`, each on one line;
//! - `key: |`, `|-`, `|+`, `>`, `>-`, `>+` block scalars;
//! - `key:` followed by a block list of one-line scalars (`- item`, indented or not) or by
//!   an indented block mapping of one-line scalars (`  k: v`);
//! - one-line flow collections of such scalars (`[a, "b"]`, `{k: v, k2: 'w'}`) as a value
//!   at the top level or in a block mapping; the first one's position is reported, as
//!   strict validation needs it ([`Fast::first_flow`]);
//! - blank lines and `#` comment lines.

use super::yaml::{Entry, Loaded};
use serde_json::{Map, Value};

/// What the fast path read.
#[derive(Clone, Debug, PartialEq)]
pub struct Fast {
    pub loaded: Loaded,
    /// 1-based line and column of the first flow collection (`[` or `{`), if any: the only
    /// presentation feature ([`super::yaml::presentation`]) these shapes can contain.
    pub first_flow: Option<(u32, u32)>,
    /// 1-based lines of the values the repair pass would quote, in order
    /// ([`super::repair::load_with_repairs`]); `loaded` is then what it reads after them.
    pub repaired: Vec<u32>,
}

/// The entries of `yaml` and the position of its first flow collection, or `None` when it is
/// not entirely made of the shapes above.
pub fn read(yaml: &str) -> Option<Fast> {
    if has_unsupported_char(yaml) {
        return None;
    }
    // Block scalars keep or drop their final line break; without one the rules differ.
    if !yaml.ends_with('\n') {
        return None;
    }
    let lines = split_lines(yaml);
    let mut entries = Vec::with_capacity(lines.len());
    let mut flows = Flows::default();
    let mut repaired = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if is_blank(line) || line.starts_with('#') {
            i += 1;
            continue;
        }
        let (key, rest) = split_key(line)?;
        let line_no = u32::try_from(i + 1).ok()?;
        let rest = rest.trim_start_matches(' ');
        let (value, value_line, next) = if rest.is_empty() {
            nested(&lines, i + 1, &mut flows)?
        } else if let Some(header) = block_header(rest) {
            let (text, next) = block_scalar(&lines, i + 1, header)?;
            // serde-saphyr places a block scalar on its first content line.
            (Value::String(text), line_no.checked_add(1)?, next)
        } else {
            let column = line.len() - rest.len();
            // A following indented line continues this scalar.
            let continued = lines
                .get(i + 1)
                .is_some_and(|l| !is_blank(l) && l.starts_with(' '));
            match value_scalar(rest, line_no, column, &mut flows) {
                Some(Value::String(first)) if continued && !rest.starts_with(['"', '\'']) => {
                    let (text, next) = plain_continued(first, &lines, i + 1)?;
                    (Value::String(text), line_no, next)
                }
                Some(_) if continued => return None,
                Some(value) => (value, line_no, i + 1),
                None if !continued && repairable(rest) => {
                    repaired.push(line_no);
                    let text = rest.trim_end_matches(' ').to_string();
                    (Value::String(text), line_no, i + 1)
                }
                None => return None,
            }
        };
        // String fields keep the source text of a typed scalar (see `yaml::Entry::raw`).
        let raw = (value.is_boolean() || value.is_number())
            .then(|| rest.trim_end_matches(' ').to_string());
        entries.push(Entry {
            key: key.to_string(),
            line: line_no,
            column: 1,
            value,
            raw,
            value_line,
        });
        i = next;
    }
    // Past the repair pass's limit the file fails; the full parser says how.
    if entries.is_empty() || repaired.len() > super::repair::MAX_REPAIRS {
        return None;
    }
    Some(Fast {
        loaded: Loaded::Mapping(entries),
        first_flow: flows.first,
        repaired,
    })
}

/// A plain scalar started on a key's line (`first`, already read by [`plain`]) and continued
/// on the indented lines from `lines[start]`: YAML folds each line break between two
/// non-blank lines into one space and drops the lines' indentation and trailing spaces. A
/// blank line ends it here (the full parser reads what follows). Returns the text and the
/// index of the first line after it.
fn plain_continued(first: String, lines: &[&str], start: usize) -> Option<(String, usize)> {
    let mut text = first;
    let mut end = start;
    while let Some(line) = lines.get(end) {
        if is_blank(line) || !line.starts_with(' ') {
            break;
        }
        let part = line.trim_matches(' ');
        // A continuation line must read as more of the same plain scalar: no indicator at
        // its start (`- x` could be taken as a list, `#` is a comment), no `: `, ` #` or
        // final `:`.
        if b"-?:,[]{}#&*!|>'\"%@`".contains(&part.as_bytes()[0]) || !plain_free(part) {
            return None;
        }
        text.push(' ');
        text.push_str(part);
        end += 1;
    }
    Some((text, end))
}

/// A one-line plain value the repair pass ([`super::repair`]) quotes because it holds `: `
/// (`description: Use when: asked`): YAML refuses it, the repair reads it as the text as
/// written. Only values [`plain`] would read but for their `: ` or final `:` are taken, so
/// the repaired text is the value itself.
fn repairable(text: &str) -> bool {
    let text = text.trim_end_matches(' ');
    let Some(first) = text.chars().next() else {
        return false;
    };
    let last = text.chars().next_back().unwrap_or(first);
    // The repair trims Unicode whitespace that a plain scalar keeps.
    if first.is_whitespace() || last.is_whitespace() {
        return false;
    }
    let bytes = text.as_bytes();
    let has_comment = memchr::memchr_iter(b'#', bytes).any(|i| i > 0 && bytes[i - 1] == b' ');
    !"-?:,[]{}#&*!|>'\"%@`+.~".contains(first)
        && !first.is_ascii_digit()
        && !has_comment
        && (memchr::memmem::find(bytes, b": ").is_some() || text.ends_with(':'))
}

/// `yaml.split('\n')`, with line ends found by `memchr` into a vector sized once (the
/// split iterator and the vector's growth were a tenth of this reader's instructions).
fn split_lines(yaml: &str) -> Vec<&str> {
    // Frontmatter lines run 30-80 bytes; a guess too small costs one more growth.
    let mut lines = Vec::with_capacity(yaml.len() / 24 + 2);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', yaml.as_bytes()) {
        lines.push(&yaml[start..end]);
        start = end + 1;
    }
    lines.push(&yaml[start..]);
    lines
}

/// Where flow collections were seen.
#[derive(Default)]
struct Flows {
    first: Option<(u32, u32)>,
}

impl Flows {
    /// `column` is the 0-based byte offset of the bracket; every character before it on
    /// these lines is ASCII (indentation and a simple key), so it is also the character
    /// offset.
    fn saw(&mut self, line: u32, column: usize) -> Option<()> {
        if self.first.is_none() {
            self.first = Some((line, u32::try_from(column + 1).ok()?));
        }
        Some(())
    }
}

/// A value written on its key's line: a one-line scalar or flow collection. `column` is the
/// 0-based offset of `text` in its line.
fn value_scalar(text: &str, line: u32, column: usize, flows: &mut Flows) -> Option<Value> {
    let value = match text.as_bytes().first()? {
        b'[' => Value::Array(
            flow_items(text, b'[', b']')?
                .into_iter()
                .map(flow_scalar)
                .collect::<Option<Vec<Value>>>()?,
        ),
        b'{' => {
            let mut map = Map::new();
            for item in flow_items(text, b'{', b'}')? {
                let (key, rest) = split_key(item)?;
                let value = flow_scalar(rest.trim_start_matches(' '))?;
                if map.insert(key.to_string(), value).is_some() {
                    return None;
                }
            }
            Value::Object(map)
        }
        _ => return scalar(text),
    };
    flows.saw(line, column)?;
    Some(value)
}

/// The comma-separated items of a one-line flow collection `open ... close` (nothing may
/// follow it), trimmed; commas inside quotes do not separate. Declines empty collections,
/// empty items, nesting and anything it cannot split with certainty.
fn flow_items(text: &str, open: u8, close: u8) -> Option<Vec<&str>> {
    let text = text.trim_end_matches(' ');
    let bytes = text.as_bytes();
    if bytes.first() != Some(&open) || bytes.last() != Some(&close) || bytes.len() < 2 {
        return None;
    }
    let inner = &text[1..text.len() - 1];
    let mut items = Vec::new();
    let mut start = 0;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (at, b) in inner.bytes().enumerate() {
        match quote {
            Some(b'"') if escaped => escaped = false,
            Some(b'"') if b == b'\\' => escaped = true,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b',' => {
                    items.push(inner[start..at].trim_matches(' '));
                    start = at + 1;
                }
                b'[' | b']' | b'{' | b'}' | b'#' => return None,
                _ => {}
            },
        }
    }
    if quote.is_some() {
        return None;
    }
    items.push(inner[start..].trim_matches(' '));
    if items.iter().any(|i| i.is_empty()) {
        return None;
    }
    Some(items)
}

/// One item of a flow collection: a quoted scalar that spans the whole item, `true`/`false`,
/// or a plain scalar (which [`flow_items`] already kept free of flow indicators).
fn flow_scalar(item: &str) -> Option<Value> {
    // `'a' 'b'` or `"a"x` would pass the item split but is not one scalar.
    match item.as_bytes().first()? {
        b'"' | b'\'' => scalar(item),
        _ => scalar(item).filter(|_| !item.contains(['"', '\'', ':'])),
    }
}

/// Characters with rules of their own in YAML (tabs, other line breaks, a BOM, control
/// characters YAML does not allow in a stream): the full parser handles them.
#[cfg(test)]
fn unsupported_char(c: char) -> bool {
    (c < ' ' && c != '\n')
        || ('\u{7f}'..='\u{9f}').contains(&c)
        || matches!(
            c,
            '\u{feff}' | '\u{fffe}' | '\u{ffff}' | '\u{2028}' | '\u{2029}'
        )
}

/// `text.chars().any(unsupported_char)`, by bytes: every such character's UTF-8 form is
/// recognised from its lead byte and the bytes after it, without decoding the text.
fn has_unsupported_char(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (control, lead) = control_and_lead(bytes);
    if control {
        return true;
    }
    if !lead {
        return false;
    }
    // No control byte: only the multi-byte characters below are left to look at, from
    // their lead bytes.
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    memchr::memchr3_iter(0xc2, 0xe2, 0xef, bytes).any(|i| match at(i) {
        // U+0080..U+009F
        0xc2 => matches!(at(i + 1), 0x80..=0x9f),
        // U+2028, U+2029
        0xe2 => at(i + 1) == 0x80 && matches!(at(i + 2), 0xa8 | 0xa9),
        // U+FEFF, U+FFFE, U+FFFF
        _ => matches!(
            (at(i + 1), at(i + 2)),
            (0xbb, 0xbf) | (0xbf, 0xbe) | (0xbf, 0xbf)
        ),
    })
}

/// Whether `bytes` holds a control byte (below 0x20 but `\n`, or 0x7f), and whether it holds
/// a lead byte of the multi-byte characters [`has_unsupported_char`] looks for (0xc2, 0xe2,
/// 0xef). Eight bytes at a time with word arithmetic: the per-byte fold this replaces was
/// not vectorised where the compiler inlined it, and cost ~5,500 instructions per file,
/// ~10% of a 10,000-skill `list` (bench/PROFILE.md item 207).
fn control_and_lead(bytes: &[u8]) -> (bool, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Non-zero exactly when some byte of `v` is below `n` (`n` at most 0x80).
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGHS;
    let has = |v: u64, b: u64| below(v ^ (ONES * b), 1);
    let byte_control = |b: u8| ((b < 0x20) & (b != b'\n')) | (b == 0x7f);
    let byte_lead = |b: u8| (b == 0xc2) | (b == 0xe2) | (b == 0xef);
    let (mut control, mut lead) = (false, false);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let v = u64::from_le_bytes(eight);
        // A byte below 0x20 is most often a line's `\n`: such a word is looked at byte by
        // byte.
        if below(v, 0x20) | has(v, 0x7f) != 0 {
            control |= word.iter().any(|&b| byte_control(b));
        }
        lead |= has(v, 0xc2) | has(v, 0xe2) | has(v, 0xef) != 0;
    }
    for &b in words.remainder() {
        control |= byte_control(b);
        lead |= byte_lead(b);
    }
    (control, lead)
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ')
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `key: rest` (or `key:` at the end of the line) with a simple key.
fn split_key(line: &str) -> Option<(&str, &str)> {
    // The key's characters are found by bytes up to the first one outside them, which must
    // be the `:`: the same answer as finding the first `:` and checking the key before it
    // with `simple_key` (the test below compares both).
    let bytes = line.as_bytes();
    if !bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return None;
    }
    let colon = bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')))?;
    if bytes[colon] != b':' {
        return None;
    }
    let (key, after) = (&line[..colon], &line[colon + 1..]);
    if !(after.is_empty() || after.starts_with(' ')) || typed_word(key) {
        return None;
    }
    Some((key, after))
}

/// A key YAML reads as the same plain string: ASCII word characters, not a word the core
/// schema types (`null`, `true`, ...). [`split_key`] checks the same by bytes.
#[cfg(test)]
fn simple_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !typed_word(key)
}

/// Words some YAML schema types as null or boolean.
fn typed_word(word: &str) -> bool {
    // Compared in place: a lowercased copy was an allocation per key and per plain value.
    word.len() <= 5
        && ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]
            .iter()
            .any(|typed| word.eq_ignore_ascii_case(typed))
}

/// A one-line scalar: plain, double-quoted or single-quoted, with nothing after it; plain
/// `true`/`false` are the only typed values read here.
fn scalar(text: &str) -> Option<Value> {
    let text = text.trim_end_matches(' ');
    match text.as_bytes().first()? {
        b'"' => double_quoted(text).map(Value::String),
        b'\'' => single_quoted(text).map(Value::String),
        _ => match text {
            // The YAML 1.2 core schema's booleans (the loader runs with strict booleans).
            "true" | "True" | "TRUE" => Some(Value::Bool(true)),
            "false" | "False" | "FALSE" => Some(Value::Bool(false)),
            _ if decimal(text) => text.parse::<u64>().ok().map(Value::from),
            _ => plain(text).map(Value::String),
        },
    }
}

/// A decimal integer the core schema reads as that number, in the range of `u64` and
/// without a sign or leading zeros (whose readings differ between YAML versions).
fn decimal(text: &str) -> bool {
    let bytes = text.as_bytes();
    (text == "0" || bytes.first().is_some_and(|b| (b'1'..=b'9').contains(b)))
        && bytes.len() <= 18
        && bytes.iter().all(u8::is_ascii_digit)
}

/// A dotted version such as `1.2.0`: digits and at least two dots, which no YAML schema
/// reads as a number.
fn dotted_version(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|b| *b == b'.').count() >= 2
        && !text.starts_with('.')
}

/// `"-?:,[]{}#&*!|>'\"%@`+.~".contains(c)`: characters no plain scalar read here starts with.
fn indicator(c: char) -> bool {
    matches!(
        c,
        '-' | '?'
            | ':'
            | ','
            | '['
            | ']'
            | '{'
            | '}'
            | '#'
            | '&'
            | '*'
            | '!'
            | '|'
            | '>'
            | '\''
            | '"'
            | '%'
            | '@'
            | '`'
            | '+'
            | '.'
            | '~'
    )
}

fn plain(text: &str) -> Option<String> {
    let first = text.chars().next()?;
    // Indicators, and the first characters of everything the core schema types as a
    // number, boolean or null (digits, signs, `.inf`, `~`).
    let typed_start = first.is_ascii_digit() && !dotted_version(text);
    if indicator(first) || typed_start || typed_word(text) {
        return None;
    }
    plain_free(text).then(|| text.to_string())
}

/// No `: ` or ` #` anywhere and no final `:`, which would end a plain scalar.
fn plain_free(text: &str) -> bool {
    // Found from the rarer `:` and `#` in one scan.
    let bytes = text.as_bytes();
    let comment_or_key = memchr::memchr2_iter(b':', b'#', bytes).any(|i| {
        if bytes[i] == b':' {
            bytes.get(i + 1) == Some(&b' ')
        } else {
            i > 0 && bytes[i - 1] == b' '
        }
    });
    !comment_or_key && !text.ends_with(':')
}

fn double_quoted(text: &str) -> Option<String> {
    // Copied a run at a time between quotes and escapes (found with memchr), not char by
    // char.
    let mut rest = &text[1..];
    let mut out = String::with_capacity(rest.len());
    loop {
        // Not closed on this line: a multi-line quoted scalar.
        let at = memchr::memchr2(b'"', b'\\', rest.as_bytes())?;
        out.push_str(&rest[..at]);
        if rest.as_bytes()[at] == b'"' {
            return rest[at + 1..].is_empty().then_some(out);
        }
        let escape = rest[at + 1..].chars().next()?;
        out.push(match escape {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'n' => '\n',
            't' => '\t',
            _ => return None,
        });
        rest = &rest[at + 1 + escape.len_utf8()..];
    }
}

fn single_quoted(text: &str) -> Option<String> {
    let mut rest = &text[1..];
    let mut out = String::with_capacity(rest.len());
    loop {
        let at = memchr::memchr(b'\'', rest.as_bytes())?;
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match after.strip_prefix('\'') {
            // `''` is one quote inside the scalar.
            Some(more) => {
                out.push('\'');
                rest = more;
            }
            None => return after.is_empty().then_some(out),
        }
    }
}

#[derive(Clone, Copy)]
struct BlockHeader {
    folded: bool,
    chomp: Chomp,
}

/// What a block scalar does with its final line break and the blank lines after it.
#[derive(Clone, Copy, PartialEq)]
enum Chomp {
    /// `-`: drops them all.
    Strip,
    /// No indicator: keeps the final line break only.
    Clip,
    /// `+`: keeps the final line break and every blank line after it.
    Keep,
}

fn block_header(rest: &str) -> Option<BlockHeader> {
    let header = rest.trim_end_matches(' ');
    let folded = match header.as_bytes().first()? {
        b'|' => false,
        b'>' => true,
        _ => return None,
    };
    let chomp = match &header[1..] {
        "" => Chomp::Clip,
        "-" => Chomp::Strip,
        "+" => Chomp::Keep,
        // Explicit indentation and comments are left to the full parser; `scalar` declines
        // anything else starting with `|` / `>` as well.
        _ => return None,
    };
    Some(BlockHeader { folded, chomp })
}

/// The text of a block scalar whose content starts at `lines[start]`, and the index of the
/// first line after it.
fn block_scalar(lines: &[&str], start: usize, header: BlockHeader) -> Option<(String, usize)> {
    let first = lines.get(start)?;
    let width = indent(first);
    // Leading blank lines and an empty scalar have rules of their own.
    if is_blank(first) || width == 0 {
        return None;
    }
    let mut content: Vec<&str> = Vec::new();
    let mut end = start;
    while let Some(line) = lines.get(end) {
        if is_blank(line) {
            // Spaces beyond the indentation would be content of a blank-looking line.
            if line.len() > width {
                return None;
            }
            content.push("");
        } else if indent(line) >= width {
            let text = &line[width..];
            if header.folded && text.starts_with(' ') {
                return None;
            }
            content.push(text);
        } else if indent(line) == 0 {
            break;
        } else {
            return None;
        }
        end += 1;
    }
    let mut trailing_blank: usize = 0;
    while content.last() == Some(&"") {
        content.pop();
        trailing_blank += 1;
    }
    // The split of a text ending in a line break yields a last empty line: not a blank line
    // of the document.
    if end == lines.len() {
        trailing_blank = trailing_blank.saturating_sub(1);
    }
    let mut text = String::new();
    if header.folded {
        let mut pending_breaks = 0;
        for (n, line) in content.iter().enumerate() {
            if line.is_empty() {
                pending_breaks += 1;
                continue;
            }
            if n > 0 {
                if pending_breaks == 0 {
                    text.push(' ');
                } else {
                    text.extend(std::iter::repeat_n('\n', pending_breaks));
                }
            }
            pending_breaks = 0;
            text.push_str(line);
        }
    } else {
        text = content.join("\n");
    }
    match header.chomp {
        Chomp::Strip => {}
        Chomp::Clip => text.push('\n'),
        Chomp::Keep => text.extend(std::iter::repeat_n('\n', 1 + trailing_blank)),
    }
    Some((text, end))
}

/// The block list or block mapping under a `key:` line, its 1-based line, and the index of
/// the first line after it.
fn nested(lines: &[&str], start: usize, flows: &mut Flows) -> Option<(Value, u32, usize)> {
    let first = *lines.get(start)?;
    // `key:` with nothing under it is null; the full parser reports that.
    if is_blank(first) {
        return None;
    }
    let width = indent(first);
    let line_no = u32::try_from(start + 1).ok()?;
    if first[width..].starts_with("- ") {
        let mut items = Vec::new();
        let mut end = start;
        while let Some(line) = lines.get(end) {
            if indent(line) != width || is_blank(line) {
                break;
            }
            let Some(item) = line[width..].strip_prefix("- ") else {
                break;
            };
            items.push(scalar(item.trim_start_matches(' '))?);
            end += 1;
        }
        let done = !items.is_empty() && after_nested(lines, end);
        return done.then_some((Value::Array(items), line_no, end));
    }
    if width == 0 {
        return None;
    }
    let (map, end) = map_lines(lines, start, width, true, flows)?;
    let done = !map.is_empty() && after_nested(lines, end);
    done.then_some((Value::Object(map), line_no, end))
}

/// The lines of a block mapping indented `width` from `lines[start]` on, each `key: scalar`
/// or, when `deeper`, `key:` over a mapping one level deeper (`mcp:` / `  server: x`).
/// Returns the mapping and the index of its first line after it.
fn map_lines(
    lines: &[&str],
    start: usize,
    width: usize,
    deeper: bool,
    flows: &mut Flows,
) -> Option<(Map<String, Value>, usize)> {
    let mut map = Map::new();
    let mut end = start;
    while let Some(line) = lines.get(end) {
        if is_blank(line) || indent(line) < width {
            break;
        }
        if indent(line) > width {
            return None;
        }
        let (key, rest) = split_key(&line[width..])?;
        let rest = rest.trim_start_matches(' ');
        let line_no = u32::try_from(end + 1).ok()?;
        let value = if deeper && rest.is_empty() {
            let (value, next) = deeper_map(lines, end + 1, width, flows)?;
            end = next;
            value
        } else {
            end += 1;
            value_scalar(rest, line_no, line.len() - rest.len(), flows)?
        };
        if map.insert(key.to_string(), value).is_some() {
            return None;
        }
    }
    Some((map, end))
}

/// The block mapping of one-line scalars under a `key:` line of a nested mapping indented
/// `parent`, starting at `lines[start]` and indented deeper; no further level. Returns it and
/// the index of the first line after it, which the parent mapping reads on.
fn deeper_map(
    lines: &[&str],
    start: usize,
    parent: usize,
    flows: &mut Flows,
) -> Option<(Value, usize)> {
    let first = *lines.get(start)?;
    let width = indent(first);
    if is_blank(first) || width <= parent {
        return None;
    }
    let (map, end) = map_lines(lines, start, width, false, flows)?;
    // Back to the parent's indentation or less; anything between would be a syntax error.
    if lines
        .get(end)
        .is_some_and(|l| !is_blank(l) && indent(l) > parent && indent(l) < width)
    {
        return None;
    }
    Some((Value::Object(map), end))
}

/// A nested collection must be followed by a blank line, a top-level line or the end.
fn after_nested(lines: &[&str], end: usize) -> bool {
    lines
        .get(end)
        .is_none_or(|l| is_blank(l) || !l.starts_with(' ') && !l.starts_with("- "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(yaml: &str) -> Vec<(String, Value, u32)> {
        match read(yaml).map(|f| f.loaded) {
            Some(Loaded::Mapping(e)) => e
                .into_iter()
                .map(|e| (e.key, e.value, e.value_line))
                .collect(),
            other => panic!("declined or not a mapping: {other:?}"),
        }
    }

    #[test]
    fn common_shapes() {
        let got = map("name: pdf\ndescription: \"Use it \\\"now\\\".\"\nlicense: 'It''s MIT'\n# c\n\nallowed-tools:\n  - Read\n  - Grep\nmetadata:\n  author: me\n  version: \"1.0\"\n");
        assert_eq!(got[0].1, "pdf");
        assert_eq!(got[1].1, "Use it \"now\".");
        assert_eq!(got[2].1, "It's MIT");
        assert_eq!(got[3].1, serde_json::json!(["Read", "Grep"]));
        assert_eq!(
            got[4].1,
            serde_json::json!({"author": "me", "version": "1.0"})
        );
    }

    #[test]
    fn unsupported_chars_found_by_bytes() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            // Long texts too, the character at every offset within a word.
            let pad = "key: value\n-abcdefghijklmnop";
            let at = (c as usize) % 9;
            let long = format!("{}{c}{}", &pad[..at + 8], &pad[at..]);
            for text in [c.to_string(), format!("ab{c}"), format!("{c}\u{e9}"), long] {
                assert_eq!(
                    has_unsupported_char(&text),
                    text.chars().any(unsupported_char),
                    "{:?}",
                    c
                );
            }
        }
    }

    /// Word-at-a-time against byte by byte: every byte value at every offset of texts of
    /// 1 to 24 bytes, among line ends and plain letters.
    #[test]
    fn control_and_lead_as_byte_by_byte() {
        let slow = |bytes: &[u8]| {
            bytes.iter().fold((false, false), |(control, lead), &b| {
                (
                    control | ((b < 0x20) & (b != b'\n')) | (b == 0x7f),
                    lead | (b == 0xc2) | (b == 0xe2) | (b == 0xef),
                )
            })
        };
        for len in 1..=24 {
            for at in 0..len {
                for b in 0..=255u8 {
                    for filler in [b'a', b'\n', 0x80] {
                        let mut bytes = vec![filler; len];
                        bytes[at] = b;
                        assert_eq!(control_and_lead(&bytes), slow(&bytes), "{bytes:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn quoted_scalars_as_char_by_char() {
        // The readers before they copied runs between quotes and escapes.
        fn double_by_char(text: &str) -> Option<String> {
            let mut out = String::new();
            let mut chars = text[1..].char_indices();
            while let Some((at, c)) = chars.next() {
                match c {
                    '"' => return text[1 + at + 1..].is_empty().then_some(out),
                    '\\' => out.push(match chars.next()?.1 {
                        '"' => '"',
                        '\\' => '\\',
                        '/' => '/',
                        'n' => '\n',
                        't' => '\t',
                        _ => return None,
                    }),
                    c => out.push(c),
                }
            }
            None
        }
        fn single_by_char(text: &str) -> Option<String> {
            let mut out = String::new();
            let mut chars = text[1..].char_indices().peekable();
            while let Some((at, c)) = chars.next() {
                if c == '\'' {
                    if chars.peek().is_some_and(|(_, n)| *n == '\'') {
                        chars.next();
                        out.push('\'');
                        continue;
                    }
                    return text[1 + at + 1..].is_empty().then_some(out);
                }
                out.push(c);
            }
            None
        }
        // Every text of up to five pieces after the opening quote.
        let pieces = ["\"", "'", "\\", "n", "u", "\u{e9}", " "];
        let texts = super::super::every_text(&pieces, 5);
        for tail in &texts {
            let double = format!("\"{tail}");
            assert_eq!(
                double_quoted(&double),
                double_by_char(&double),
                "{double:?}"
            );
            let single = format!("'{tail}");
            assert_eq!(
                single_quoted(&single),
                single_by_char(&single),
                "{single:?}"
            );
        }
    }

    #[test]
    fn keys_and_lines_found_by_bytes() {
        // The readers before they scanned bytes.
        fn split_key_by_find(line: &str) -> Option<(&str, &str)> {
            let colon = line.find(':')?;
            let (key, after) = (&line[..colon], &line[colon + 1..]);
            if !(after.is_empty() || after.starts_with(' ')) || !simple_key(key) {
                return None;
            }
            Some((key, after))
        }
        let pieces = ["a", "_", "1", "-", ".", ":", " ", "é", "#", "y", "\n"];
        for text in super::super::every_text(&pieces, 5) {
            assert_eq!(split_key(&text), split_key_by_find(&text), "{text:?}");
            let want: Vec<&str> = text.split('\n').collect();
            assert_eq!(split_lines(&text), want, "{text:?}");
        }
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let chars = "-?:,[]{}#&*!|>'\"%@`+.~";
            assert_eq!(indicator(c), chars.contains(c), "{c:?}");
        }
    }

    #[test]
    fn block_scalars() {
        let got = map("a: |\n  one\n\n  two\nb: >-\n  one\n  two\n\n  three\n");
        assert_eq!(got[0].1, "one\n\ntwo\n");
        assert_eq!(got[1].1, "one two\nthree");
    }

    #[test]
    fn declines_what_it_does_not_read_exactly() {
        for yaml in [
            "version: 1.0\n",
            "name: yes\n",
            "a: b # comment\n",
            "a: Use when: asked\n  continued\n",
            "a: plain\n  continued: no\n",
            "a: plain\n  - continued\n",
            "a: plain\n\n  continued\n",
            "a: 'quoted'\n  continued\n",
            "a: 012\n",
            "a: -1\n",
            "a:\n  b:\n    c:\n      d: e\n",
            "a:\n  b:\n    c: d\n   e: f\n",
            "a: \"multi\n  line\"\n",
            "a: \"\\u00e9\"\n",
            "a: >\n  x\n    more indented\n",
            "a:\n",
            "a:\tb\n",
            "a: [x, y]\n",
            "a: b\r\n",
            "a: b",
            "# only a comment\n",
        ] {
            assert!(read(yaml).is_none(), "{yaml:?}");
        }
    }
}

#[cfg(test)]
mod differential {
    use super::super::repair::load_with_repairs;
    use super::super::yaml::{load, presentation, Presentation};
    use super::*;
    use proptest::prelude::*;

    /// Text pieces chosen to hit every rule above: indicators, typed words, comment and
    /// mapping markers, quotes, escapes, non-ASCII.
    const PIECES: &[&str] = &[
        "Use",
        "when",
        "the",
        "user",
        "asks",
        "pdf",
        "é",
        "技能",
        "naïve",
        "C#",
        "a:b",
        "x #y",
        "#z",
        "[a]",
        "{b: c}",
        "\"q\"",
        "'s'",
        "\\",
        "\\\"",
        "-",
        "- x",
        "1.0",
        "0x1F",
        "yes",
        "No",
        "null",
        "~",
        "true",
        "FALSE",
        ":",
        ": ",
        "  ",
        "*ref",
        "&a",
        "!t",
        "|",
        ">",
        "%",
        "@",
        "`",
        "...",
        "---",
        "+1",
        ".5",
        "e",
        "<b>",
        "1",
        "\\n",
        "\\t",
        "\\u00e9",
        "\\/",
        "\\x41",
        "''",
        "'",
        ",",
        "?",
        "=",
        "a -",
        "end:",
        "1.2.0",
        "0.10.3",
        "1..2",
        "True",
        "false",
        "1.2.3a",
        "0",
        "42",
        "007",
        "99999999999999999999",
        "-3",
    ];

    type Pieces = &'static [&'static str];

    /// Fewer pieces that make a file decline, so that more generated documents reach the
    /// shapes read past one line (continued plain scalars, repaired values, numbers, deeper
    /// mappings).
    const CALM: &[&str] = &[
        "Use", "when", "the", "é", "技能", "a:b", ":", ": ", "x #y", "'s'", "\"q\"", "1", "0",
        "42", "007", "-", "[a]", "end:", "true", "1.2.0",
    ];

    fn text(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
        prop::collection::vec(
            (
                prop::sample::select(pieces),
                prop::sample::select(&[" ", "", " "][..]),
            ),
            0..6,
        )
        .prop_map(|parts| {
            parts
                .into_iter()
                .map(|(p, sep)| format!("{p}{sep}"))
                .collect()
        })
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(
            &[
                "name",
                "description",
                "license",
                "allowed-tools",
                "metadata",
                "tags",
                "version",
                "when_to_use",
                "x.y",
                "_k",
                "Name",
                "on",
                "a b",
                "1",
                "k",
            ][..],
        )
        .prop_map(str::to_string)
    }

    fn one_line(p: Pieces) -> impl Strategy<Value = String> {
        prop_oneof![
            text(p),
            text(p).prop_map(|t| format!("\"{t}\"")),
            text(p).prop_map(|t| format!("'{t}'")),
            text(p).prop_map(|t| format!("\"{}\"", t.replace('\\', "\\\\").replace('"', "\\\""))),
            text(p).prop_map(|t| format!("'{}'", t.replace('\'', "''"))),
        ]
    }

    /// A flow sequence or mapping of one-line scalars, with irregular spacing.
    fn flow(p: Pieces) -> impl Strategy<Value = String> {
        let items = prop::collection::vec(
            (
                one_line(p),
                prop::sample::select(&[", ", ",", " , ", ",  "][..]),
            ),
            0..4,
        );
        (items, key(), any::<bool>()).prop_map(|(items, k, map)| {
            let mut body = String::new();
            for (n, (item, sep)) in items.iter().enumerate() {
                if n > 0 {
                    body.push_str(sep);
                }
                if map {
                    body.push_str(&format!("{k}{n}: {item}"));
                } else {
                    body.push_str(item);
                }
            }
            if map {
                format!("{{{body}}}")
            } else {
                format!("[{body}]")
            }
        })
    }

    fn value(p: Pieces) -> impl Strategy<Value = String> {
        let block = (
            prop::sample::select(&["|", "|-", ">", ">-", "|+", ">+", "|2", "> # c"][..]),
            prop::collection::vec((0usize..3, text(p)), 1..5),
            1usize..4,
        )
            .prop_map(|(header, lines, width)| {
                let mut out = format!("{header}\n");
                for (extra, line) in lines {
                    if line.trim().is_empty() {
                        out.push('\n');
                    } else {
                        let pad = " ".repeat(width + usize::from(extra == 2));
                        out.push_str(&format!("{pad}{line}\n"));
                    }
                }
                out.pop();
                out
            });
        let list = (prop::collection::vec(one_line(p), 1..4), 0usize..3).prop_map(|(items, w)| {
            let pad = " ".repeat(w);
            let body: Vec<String> = items.iter().map(|i| format!("{pad}- {i}")).collect();
            format!("\n{}", body.join("\n"))
        });
        // A nested value is a one-line scalar, a flow collection or (`None`) a mapping one
        // level deeper, indented by `deeper` more spaces (0 and 1 are not deeper for every
        // width).
        let deeper =
            prop::collection::vec((key(), prop_oneof![3 => one_line(p), 1 => flow(p)]), 1..3);
        let map = (
            prop::collection::vec(
                (
                    key(),
                    prop_oneof![3 => one_line(p).prop_map(Some), 1 => flow(p).prop_map(Some), 1 => Just(None)],
                    deeper,
                    0usize..4,
                ),
                1..4,
            ),
            1usize..4,
        )
            .prop_map(|(pairs, w)| {
                let pad = " ".repeat(w);
                let mut body = Vec::new();
                for (k, v, deeper, more) in pairs {
                    match v {
                        Some(v) => body.push(format!("{pad}{k}: {v}")),
                        None => {
                            body.push(format!("{pad}{k}:"));
                            let inner = " ".repeat(w + more);
                            for (k, v) in deeper {
                                body.push(format!("{inner}{k}: {v}"));
                            }
                        }
                    }
                }
                format!("\n{}", body.join("\n"))
            });
        // A plain scalar continued on indented lines (some of them blank or holding what
        // ends a plain scalar).
        let continued = (text(p), prop::collection::vec((0usize..4, text(p)), 1..4)).prop_map(
            |(first, more)| {
                let mut out = first;
                for (pad, line) in more {
                    out.push('\n');
                    out.push_str(&" ".repeat(pad));
                    out.push_str(&line);
                }
                out
            },
        );
        prop_oneof![
            4 => one_line(p),
            2 => continued,
            2 => flow(p),
            2 => block,
            1 => list,
            1 => map,
            1 => Just(String::new()),
        ]
    }

    /// Documents of keys the fast path reads and values of [`CALM`] pieces.
    fn calm_document() -> impl Strategy<Value = String> {
        let key = prop::sample::select(&["name", "description", "license", "metadata", "k"][..]);
        prop::collection::vec((key, value(CALM)), 1..6).prop_map(|lines| {
            let lines: Vec<String> = lines
                .into_iter()
                .map(|(k, v)| {
                    if v.starts_with('\n') || v.is_empty() {
                        format!("{k}:{v}")
                    } else {
                        format!("{k}: {v}")
                    }
                })
                .collect();
            format!("{}\n", lines.join("\n"))
        })
    }

    fn document(p: Pieces) -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                8 => (key(), value(p)).prop_map(|(k, v)| {
                    if v.starts_with('\n') || v.is_empty() { format!("{k}:{v}") } else { format!("{k}: {v}") }
                }),
                1 => Just("# a comment".to_string()),
                1 => Just(String::new()),
                1 => text(p).prop_map(|t| format!("  {t}")),
            ],
            1..7,
        )
        .prop_map(|lines| format!("{}\n", lines.join("\n")))
    }

    /// Values the repair pass quotes are read as it reads them, with the same lines.
    #[test]
    fn reads_what_the_repair_pass_reads() {
        for doc in [
            "name: a\ndescription: Use when: the user asks\nlicense: MIT\n",
            "name: a\ndescription: Use when: asked \"twice\" \\ more\nhint: ends with:\nx: [a]\n",
        ] {
            let fast = read(doc).expect("read");
            assert!(!fast.repaired.is_empty(), "{doc:?}");
            assert_eq!(
                (Ok(fast.loaded), fast.repaired),
                load_with_repairs(doc, Default::default()),
                "{doc:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn fast_path_agrees_with_serde_saphyr(doc in prop_oneof![document(PIECES), calm_document()]) {
            if let Some(fast) = read(&doc) {
                if !fast.repaired.is_empty() {
                    // What the repair pass reads; the presentation check then reads the text.
                    prop_assert_eq!(
                        (Ok(fast.loaded), fast.repaired),
                        load_with_repairs(&doc, Default::default()),
                        "document:\n{}",
                        doc
                    );
                    return Ok(());
                }
                prop_assert_eq!(Ok(fast.loaded), load(&doc), "document:\n{}", doc);
                let flow = presentation(&doc)
                    .into_iter()
                    .find(|(what, _, _)| *what == Presentation::FlowStyle)
                    .map(|(_, line, column)| (line, column));
                prop_assert_eq!(fast.first_flow, flow, "document:\n{}", doc);
            }
        }
    }

    /// The fast path must actually take the common shapes (a differential test that only
    /// ever saw `None` would prove nothing).
    #[test]
    fn takes_the_common_shapes_and_agrees() {
        let docs = [
            "name: pdf\ndescription: Extract text from PDF files.\n",
            "name: pdf\ndescription: \"Says \\\"hi\\\" / é\"\nlicense: 'It''s MIT'\n",
            "name: a\ndescription: |\n  Line one.\n\n  Line two.\n\nlicense: MIT\n",
            "name: a\ndescription: >+\n  Kept\n  breaks.\n\n\nlicense: MIT\n",
            "name: a\ndescription: |+\n  Kept to the end.\n\n",
            "name: a\ndescription: >-\n  Folded\n  text.\n\n  Para.\nmetadata:\n  author: me\n  version: \"1.0\"\n",
            "name: a\nuser-invocable: false\nversion: 1.2.10\nmetadata:\n  beta: True\n",
            "name: a\nos: [linux, macos]\nmetadata: { author: acme, version: \"1.0\" }\nrequires:\n  bins: [git, jq]\n",
            "name: a\nallowed-tools:\n- Read\n- 'Bash(git:*)'\ntags:\n  - x\n  - z\n# trailing comment\n",
            "name: a\ndescription: Plain text\n  continued on   \n    lines, with 'quotes'.\nlicense: MIT\n",
            "name: a\nmetadata:\n  priority: 3\n  mcp:\n    server: github\n    tool: x\n  keywords: [ci, release]\nversion: 10\n",
        ];
        for doc in docs {
            let fast = read(doc);
            assert!(fast.is_some(), "declined {doc:?}");
            let fast = fast.expect("checked");
            assert!(fast.repaired.is_empty(), "{doc:?}");
            assert_eq!(Ok(fast.loaded), load(doc), "{doc:?}");
            let flow = presentation(doc)
                .first()
                .map(|(_, line, column)| (*line, *column));
            assert_eq!(fast.first_flow, flow, "{doc:?}");
        }
    }
}
