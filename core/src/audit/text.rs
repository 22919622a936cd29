//! Characters that make what a reviewer reads differ from what a model or a shell gets:
//! bidirectional controls (Trojan Source, CVE-2021-42574), Unicode tag characters (invisible
//! ASCII that models read), zero-width characters inside words, and terminal control codes.

use super::files::{File, Role};
use super::{finding, line_column, AuditFinding, AuditSeverity};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CharKind {
    Bidi,
    Tag,
    ZeroWidth,
    Control,
}

impl CharKind {
    pub fn severity(self) -> AuditSeverity {
        match self {
            CharKind::Bidi | CharKind::Tag => AuditSeverity::Critical,
            CharKind::ZeroWidth | CharKind::Control => AuditSeverity::Medium,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            CharKind::Bidi => "a bidirectional control character",
            CharKind::Tag => "an invisible Unicode tag character",
            CharKind::ZeroWidth => "a zero-width character",
            CharKind::Control => "a control character",
        }
    }

    fn code(self) -> &'static str {
        match self {
            CharKind::Bidi => "bidi-control",
            CharKind::Tag => "invisible-tag-characters",
            CharKind::ZeroWidth => "zero-width-character",
            CharKind::Control => "control-character",
        }
    }

    fn why(self) -> &'static str {
        match self {
            CharKind::Bidi => "it reorders the text on screen, so the code or instructions a reviewer reads are not the ones that run (Trojan Source)",
            CharKind::Tag => "tag characters are invisible but models read them as ASCII: a hidden instruction channel",
            CharKind::ZeroWidth => "it hides inside a word, changing what a name or command is without any visible difference",
            CharKind::Control => "terminal control codes can hide or rewrite what `cat` shows",
        }
    }
}

/// The kind of `c` if it is a character a reviewer cannot see.
pub(super) fn suspicious_char(c: char) -> Option<CharKind> {
    match c {
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => Some(CharKind::Bidi),
        '\u{E0000}'..='\u{E007F}' => Some(CharKind::Tag),
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}' => {
            Some(CharKind::ZeroWidth)
        }
        // Whitespace, including the form feed old sources use as a page break.
        '\t' | '\n' | '\r' | '\u{B}' | '\u{C}' => None,
        '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}' => Some(CharKind::Control),
        _ => None,
    }
}

/// Where each kind was first seen in one file, and how often.
struct Seen {
    kind: CharKind,
    first: usize,
    count: usize,
}

pub(super) fn check(file: &File, bytes: &[u8], role: Role) -> Vec<AuditFinding> {
    if role == Role::Binary {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(bytes);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut seen: Vec<Seen> = Vec::new();
    for (i, &(offset, c)) in chars.iter().enumerate() {
        let Some(kind) = suspicious_char(c) else {
            continue;
        };
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).map(|&(_, c)| c);
        let next = chars.get(i + 1).map(|&(_, c)| c);
        if !counts(kind, c, offset, prev, next, &chars[..i]) {
            continue;
        }
        match seen.iter_mut().find(|s| s.kind == kind) {
            Some(s) => s.count += 1,
            None => seen.push(Seen {
                kind,
                first: offset,
                count: 1,
            }),
        }
    }
    seen.into_iter()
        .map(|s| {
            // Outside instructions and programs (documentation, data), bidi controls can be
            // honest right-to-left text: still worth a look, not an alarm.
            let severity = match (s.kind, role) {
                (CharKind::Bidi, Role::Text) => AuditSeverity::High,
                (kind, _) => kind.severity(),
            };
            let times = if s.count == 1 {
                String::new()
            } else {
                format!(" ({} occurrences; the first is shown)", s.count)
            };
            finding(
                severity,
                s.kind.code(),
                &file.path,
                Some(line_column(&text, s.first)),
                format!("{}{times}: {}", s.kind.describe(), s.kind.why()),
                "delete the character (an editor that shows invisible characters helps), then review the text again",
            )
        })
        .collect()
}

/// Whether one occurrence is suspicious in its context: the legitimate uses are a BOM at the
/// start, emoji sequences (ZWJ between pictographs, tag characters after the black flag) and
/// joiners in scripts that need them (not next to ASCII).
fn counts(
    kind: CharKind,
    c: char,
    offset: usize,
    prev: Option<char>,
    next: Option<char>,
    before: &[(usize, char)],
) -> bool {
    match kind {
        CharKind::ZeroWidth => {
            if c == '\u{FEFF}' && offset == 0 {
                return false;
            }
            let ascii = |c: Option<char>| c.is_some_and(|c| c.is_ascii_graphic());
            let invisible = |c: Option<char>| {
                c.is_some_and(|c| suspicious_char(c) == Some(CharKind::ZeroWidth))
            };
            ascii(prev) || ascii(next) || invisible(prev) || invisible(next)
        }
        CharKind::Tag => {
            // A subdivision flag: U+1F3F4 then tag letters, ended by U+E007F.
            let flag = before
                .iter()
                .rev()
                .take(16)
                .find(|&&(_, c)| !('\u{E0020}'..='\u{E007E}').contains(&c))
                .is_some_and(|&(_, c)| c == '\u{1F3F4}');
            !flag
        }
        CharKind::Bidi | CharKind::Control => true,
    }
}
