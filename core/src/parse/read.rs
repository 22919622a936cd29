//! Reading SKILL.md files from disk: the frontmatter prefix at discovery time, the body at
//! activation time, and the name/description fallbacks hosts use.

use super::frontmatter::{self, Fences};
use super::{parse_with, Dialect, FenceRule, Parsed, ReadRule, RepairRule, SyntaxRule};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

/// Files larger than this are not considered skills (`file-too-large`).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// A frontmatter block longer than this is not read (`frontmatter-too-large`).
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;
/// The first read; real frontmatter almost always fits.
const FIRST_READ: usize = 4 * 1024;

fn io_diagnostic(path: &Path, err: &std::io::Error) -> Diagnostic {
    let (code, hint) = match err.kind() {
        std::io::ErrorKind::NotFound => ("file-not-found", "check the path"),
        std::io::ErrorKind::PermissionDenied => {
            ("permission-denied", "make the file readable by this user")
        }
        _ => ("io-error", "check that the file is readable"),
    };
    Diagnostic::error(code, format!("cannot read {}: {err}", path.display()))
        .with_path(path)
        .with_hint(hint)
}

fn failed(diagnostic: Diagnostic) -> Parsed {
    Parsed {
        diagnostics: vec![diagnostic],
        ..Parsed::default()
    }
}

/// 1-based line of byte offset `at` in `bytes` (counting `\n`, `\r\n` and lone `\r`).
fn line_of(bytes: &[u8], at: usize) -> u32 {
    let mut line = 1u32;
    let mut i = 0;
    while i < at.min(bytes.len()) {
        match bytes[i] {
            b'\n' => line = line.saturating_add(1),
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => line = line.saturating_add(1),
            _ => {}
        }
        i += 1;
    }
    line
}

/// Decode a raw prefix. Returns the longest clean text (a multi-byte character cut by the read
/// boundary is left for the next read) and, when a NUL byte or invalid UTF-8 follows that
/// text, the diagnostic for it. The caller reports the diagnostic only when the problem lies
/// inside the frontmatter: binary-looking bytes in the body are the body's business, and
/// discovery never reads bodies.
fn decode<'a>(path: &Path, bytes: &'a [u8], at_eof: bool) -> (&'a str, Option<Diagnostic>) {
    // memchr: a vectorised scan; the byte-by-byte `position` was ~10% of a cold load's
    // instructions (every file's first 4 KiB).
    let nul = memchr::memchr(0, bytes);
    let clean = &bytes[..nul.unwrap_or(bytes.len())];
    let (text, utf8_error) = match std::str::from_utf8(clean) {
        Ok(text) => (text, None),
        Err(e) => {
            // `valid_up_to` is a char boundary by construction.
            let text = std::str::from_utf8(&clean[..e.valid_up_to()]).unwrap_or_default();
            let cut_by_read = e.error_len().is_none() && nul.is_none() && !at_eof;
            (text, (!cut_by_read).then_some(e.valid_up_to()))
        }
    };
    let problem = match (utf8_error, nul) {
        (Some(at), _) => Some(
            Diagnostic::error(
                "invalid-utf8",
                format!("the file is not valid UTF-8 (byte {at})"),
            )
            .with_path(path)
            .at(line_of(bytes, at), None)
            .with_hint("save the file as UTF-8"),
        ),
        (None, Some(at)) => Some(nul_diagnostic(path, bytes, at)),
        (None, None) => None,
    };
    (text, problem)
}

fn nul_diagnostic(path: &Path, bytes: &[u8], at: usize) -> Diagnostic {
    Diagnostic::error(
        "nul-byte",
        "the file contains a NUL byte; it looks binary, not a Markdown SKILL.md",
    )
    .with_path(path)
    .at(line_of(bytes, at), None)
    .with_hint("SKILL.md must be a UTF-8 text file")
}

/// Discovery-time read: only the frontmatter prefix of the file at `path` is read (the body
/// is never loaded). The first 4 KiB are read, and more only while the closing fence is not
/// in what was read, up to `MAX_FRONTMATTER_BYTES` (64 KiB). I/O problems, size caps, NUL bytes and
/// invalid UTF-8 become diagnostics; every diagnostic carries `path`. Never fails, never
/// panics.
pub fn read_frontmatter(path: &Path) -> Parsed {
    match std::fs::metadata(path) {
        Ok(meta) => read_frontmatter_with(path, &meta),
        Err(err) => failed(io_diagnostic(path, &err)),
    }
}

/// [`read_frontmatter`] for a caller that already holds the file's metadata (`stat`
/// following symlinks): discovery stats every file for its cache stamp anyway, and a second
/// path lookup per file is measurable on a 10k-skill tree.
pub fn read_frontmatter_with(path: &Path, meta: &std::fs::Metadata) -> Parsed {
    read_frontmatter_from(path, None, meta)
}

/// [`read_frontmatter_with`] reading from `file` (already open, `meta` its `fstat`) when
/// given: a cold discovery opens each file first and saves the path lookup of a `stat`.
pub fn read_frontmatter_from(
    path: &Path,
    file: Option<std::fs::File>,
    meta: &std::fs::Metadata,
) -> Parsed {
    read_frontmatter_dialect(path, file, meta, &Dialect::default())
}

/// [`read_frontmatter_from`] as the host of `dialect` reads the file: its fences and YAML
/// rules, and how much of the file must be valid UTF-8 ([`ReadRule`]).
pub fn read_frontmatter_dialect(
    path: &Path,
    file: Option<std::fs::File>,
    meta: &std::fs::Metadata,
    dialect: &Dialect,
) -> Parsed {
    let mut parsed = read_prefix(path, file, meta, dialect);
    // One buffer for the path, shared by the file's diagnostics.
    let mut shared: Option<crate::SharedPath> = None;
    for d in parsed
        .diagnostics
        .iter_mut()
        .chain(parsed.strict_notes.iter_mut())
    {
        if d.path.is_none() {
            d.path = Some(shared.get_or_insert_with(|| path.into()).clone());
        }
    }
    parsed
}

/// Does `text` hold the whole frontmatter block, closing fence included?
fn closed(text: &str, dialect: &Dialect) -> bool {
    let text = if dialect.strip_bom {
        text.strip_prefix('\u{feff}').unwrap_or(text)
    } else {
        text
    };
    match dialect.fences {
        FenceRule::DashPrefix => return super::hosts::dash_prefix(text).is_some(),
        FenceRule::ExactLines => return super::hosts::exact_lines(text).is_some(),
        FenceRule::DashRuns => return super::hosts::dash_runs(text).is_some(),
        FenceRule::SplitAnywhere => return super::hosts::split_anywhere(text).is_some(),
        _ => {}
    }
    if dialect.fences == FenceRule::GrayMatter {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        return text
            .strip_prefix("---")
            .is_some_and(|rest| !rest.starts_with('-') && rest.contains("\n---"));
    }
    frontmatter::fences_rules(text, dialect.lone_cr(), dialect.indented_fences()) == Fences::Closed
}

/// Is the frontmatter's extent known from `text`, or must more of the file be read?
fn decided(text: &str, at_eof: bool, dialect: &Dialect) -> bool {
    if at_eof {
        return true;
    }
    if dialect.fences == FenceRule::DashRuns {
        return closed(text, dialect) || super::hosts::dash_runs_refused(text);
    }
    if dialect.fences == FenceRule::SplitAnywhere {
        return closed(text, dialect);
    }
    if matches!(
        dialect.fences,
        FenceRule::DashPrefix | FenceRule::ExactLines
    ) {
        if closed(text, dialect) {
            return true;
        }
        // The opening line is known once five bytes are in (`---\r\n`); a text that does
        // not start with it has no frontmatter.
        let head = if dialect.fences == FenceRule::ExactLines {
            super::hosts::normalise_content(text)
        } else if dialect.strip_bom {
            text.strip_prefix('\u{feff}').unwrap_or(text).to_string()
        } else {
            text.to_string()
        };
        return head.len() >= 5 && !head.starts_with("---\n") && !head.starts_with("---\r\n");
    }
    if dialect.fences == FenceRule::GrayMatter {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        return match text.strip_prefix("---") {
            Some(rest) => rest.starts_with('-') || rest.contains("\n---"),
            None => text.len() >= 3,
        };
    }
    match frontmatter::fences_rules(text, dialect.lone_cr(), dialect.indented_fences()) {
        Fences::Closed => true,
        // The first line is complete and is not a fence: nothing more to learn.
        Fences::MissingOpening => text.contains(['\n', '\r']),
        Fences::Unterminated => false,
    }
}

/// The bytes of `buf` through the closing fence's line end, as text, when those alone are
/// clean UTF-8 without a NUL and close the block; `None` sends the caller to [`decode`].
///
/// Validating every byte read (4 KiB, most of it body) was ~3% of `list`'s instructions.
/// Only for dialects whose result depends on nothing past the closing fence: the prefix
/// reader's rule (the body is never checked), NUL and invalid bytes refusing the file, and
/// [`parse_with`]'s own splitter. For them `decode` would return a longer text `t` with
/// these bytes as its start (they are clean and end on a line end, so a char boundary),
/// `closed(t)` would hold for the same fence line, and `parse_with(t)` reads the same
/// lines up to that fence, so both give the same result (a test compares them).
///
/// With the text comes its split by `parse_with`'s splitter when that split is what decided
/// the block closed (no BOM for `closed` to strip first): the block is then located once per
/// file, not twice (~1,400 instructions per file, bench/PROFILE.md item 206).
fn through_closing_fence<'a>(
    buf: &'a [u8],
    dialect: &Dialect,
) -> Option<(&'a str, Option<frontmatter::Split>)> {
    let eligible = dialect.read == ReadRule::Prefix
        && !dialect.nul_is_text
        && matches!(
            dialect.fences,
            FenceRule::Lines | FenceRule::LfLines | FenceRule::LfLinesTrimEnd
        )
        && dialect.syntax == SyntaxRule::Yaml
        && dialect.repair != RepairRule::Gemini;
    if !eligible {
        return None;
    }
    // A fence line holds `---`; the first few after the opening line are tried (a `---`
    // inside a value is not a fence), each cut after the next `\n`.
    let opening = memchr::memchr(b'\n', buf)?;
    let after = opening + 1;
    for at in super::DASHES.find_iter(&buf[after..]).take(4) {
        let from = after + at;
        let cut = from + memchr::memchr(b'\n', &buf[from..])? + 1;
        let head = &buf[..cut];
        if memchr::memchr(0, head).is_some() {
            return None;
        }
        let text = std::str::from_utf8(head).ok()?;
        if dialect.strip_bom && text.starts_with('\u{feff}') {
            if closed(text, dialect) {
                return Some((text, None));
            }
            continue;
        }
        // `closed`'s test for these fences, keeping the split it makes.
        let split = frontmatter::split_rules(text, dialect.lone_cr(), dialect.indented_fences());
        if split.fences == Fences::Closed {
            return Some((text, Some(split)));
        }
    }
    None
}

/// Codex reads the whole file as UTF-8: read what is left after the prefix and check it.
fn rest_is_utf8(path: &Path, prefix: &[u8], file: std::fs::File) -> Option<Diagnostic> {
    let mut rest = Vec::new();
    if let Err(err) = file.take(MAX_FILE_BYTES).read_to_end(&mut rest) {
        return Some(io_diagnostic(path, &err));
    }
    // A character cut by the prefix read continues in `rest`.
    let cut = match std::str::from_utf8(prefix) {
        Ok(_) => 0,
        Err(e) if e.error_len().is_none() => prefix.len() - e.valid_up_to(),
        Err(e) => return Some(whole_file_utf8(path, prefix, e.valid_up_to())),
    };
    let mut tail = prefix[prefix.len() - cut..].to_vec();
    tail.extend_from_slice(&rest);
    match std::str::from_utf8(&tail) {
        Ok(_) => None,
        Err(e) => {
            let mut all = prefix[..prefix.len() - cut].to_vec();
            let at = all.len() + e.valid_up_to();
            all.extend_from_slice(&tail);
            Some(whole_file_utf8(path, &all, at))
        }
    }
}

fn whole_file_utf8(path: &Path, bytes: &[u8], at: usize) -> Diagnostic {
    Diagnostic::error(
        "invalid-utf8",
        format!("the file is not valid UTF-8 (byte {at}); this host reads the whole file as UTF-8 and refuses it"),
    )
    .with_path(path)
    .at(line_of(bytes, at), None)
    .with_hint("save the file as UTF-8")
}

/// The prefix reader's buffer, kept by each thread between files: a fresh 4 KiB buffer per
/// file was a `malloc`, a `free` and, often, freshly faulted pages (bench/PROFILE.md item 84).
struct ReadBuffer(Vec<u8>);

thread_local! {
    static READ_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl ReadBuffer {
    /// This thread's buffer, empty, with room for the first read.
    fn take() -> ReadBuffer {
        let mut buf = READ_BUFFER.take();
        buf.clear();
        buf.reserve(FIRST_READ);
        ReadBuffer(buf)
    }
}

impl Drop for ReadBuffer {
    fn drop(&mut self) {
        // A buffer grown for a long frontmatter is not kept.
        if self.0.capacity() <= 4 * FIRST_READ {
            READ_BUFFER.set(std::mem::take(&mut self.0));
        }
    }
}

impl std::ops::Deref for ReadBuffer {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl std::ops::DerefMut for ReadBuffer {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

fn read_prefix(
    path: &Path,
    file: Option<std::fs::File>,
    meta: &std::fs::Metadata,
    dialect: &Dialect,
) -> Parsed {
    if !meta.is_file() {
        return failed(
            Diagnostic::error(
                "not-a-file",
                format!("{} is not a regular file", path.display()),
            )
            .with_path(path)
            .with_hint("SKILL.md must be a file (a directory of that name is not a skill)"),
        );
    }
    if meta.len() > MAX_FILE_BYTES {
        return failed(
            Diagnostic::error(
                "file-too-large",
                format!(
                    "the file is {} bytes; files over {MAX_FILE_BYTES} bytes are not read",
                    meta.len()
                ),
            )
            .with_path(path)
            .with_hint("a SKILL.md should be short; move large content into references/"),
        );
    }
    let file = match file.map_or_else(|| std::fs::File::open(path), Ok) {
        Ok(f) => f,
        Err(err) => return failed(io_diagnostic(path, &err)),
    };
    // Room for both fence lines (`---` and a CRLF each) on top of the frontmatter itself.
    let cap = MAX_FRONTMATTER_BYTES + 2 * "---\r\n".len();
    let mut reader = file.take(u64::try_from(cap).unwrap_or(u64::MAX));
    let mut buf = ReadBuffer::take();
    let mut want = FIRST_READ;
    loop {
        let before = buf.len();
        let mut chunk = (&mut reader).take(u64::try_from(want - before).unwrap_or(0));
        if let Err(err) = chunk.read_to_end(&mut buf) {
            return failed(io_diagnostic(path, &err));
        }
        let at_eof = buf.len() < want;
        if let Some((text, split)) = through_closing_fence(&buf, dialect) {
            return match split {
                Some(split) => super::parse_split(text, split, dialect),
                None => parse_with(text, dialect),
            };
        }
        let (mut text, mut problem) = decode(path, &buf, at_eof);
        let mut lossy = Cow::Borrowed(text);
        let text_anyway = |d: &Diagnostic| {
            d.code == "nul-byte" || (dialect.read == ReadRule::Lossy && d.code == "invalid-utf8")
        };
        if dialect.nul_is_text && problem.as_ref().is_some_and(text_anyway) {
            // The host reads every byte as text: NUL as U+0000, invalid UTF-8 as U+FFFD
            // (strictly UTF-8 otherwise).
            match std::str::from_utf8(&buf) {
                Ok(all) => {
                    lossy = Cow::Borrowed(all);
                    problem = None;
                }
                Err(_) if dialect.read == ReadRule::Lossy => {
                    lossy = String::from_utf8_lossy(&buf);
                    problem = None;
                }
                Err(_) => {}
            }
        }
        if dialect.read == ReadRule::Lossy
            && problem.as_ref().is_some_and(|d| d.code == "invalid-utf8")
        {
            // A JavaScript host decodes invalid bytes to U+FFFD and reads on.
            let nul = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
            lossy = String::from_utf8_lossy(&buf[..nul]);
            problem = (nul < buf.len()).then(|| nul_diagnostic(path, &buf, nul));
        }
        text = &lossy;
        if let Some(problem) = problem {
            // A bad byte after the closing fence is in the body: the frontmatter is intact
            // (unless the host reads the whole file as UTF-8). Split only here: most files
            // have no such byte, and the split is a hot path of discovery.
            let body_only = !(dialect.read == ReadRule::WholeFile
                && problem.code == "invalid-utf8")
                && closed(text, dialect);
            if body_only {
                return parse_with(text, dialect);
            }
            if dialect.read == ReadRule::WholeFile && problem.code == "invalid-utf8" {
                let at = std::str::from_utf8(&buf)
                    .err()
                    .map_or(0, |e| e.valid_up_to());
                return failed(whole_file_utf8(path, &buf, at));
            }
            return failed(problem);
        }
        if decided(text, at_eof, dialect) {
            if dialect.read == ReadRule::WholeFile && !at_eof {
                if let Some(problem) = rest_is_utf8(path, &buf, reader.into_inner()) {
                    return failed(problem);
                }
            }
            return parse_with(text, dialect);
        }
        if buf.len() >= cap {
            return failed(
                Diagnostic::error(
                    "frontmatter-too-large",
                    format!("no closing `---` within the first {MAX_FRONTMATTER_BYTES} bytes"),
                )
                .with_path(path)
                .at(1, Some(1))
                .with_hint("close the frontmatter with `---`, or shorten it"),
            );
        }
        want = (want * 2).min(cap);
    }
}

/// Activation-time read: the Markdown body after the frontmatter (the whole text when the
/// file has no frontmatter, as hosts treat it). A leading BOM is dropped.
pub fn read_body(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Error::Parse {
            path: path.to_path_buf(),
            line: None,
            message: format!("the file is larger than {MAX_FILE_BYTES} bytes"),
        });
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = String::from_utf8(bytes).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: Some(line_of(e.as_bytes(), e.utf8_error().valid_up_to())),
        message: "the file is not valid UTF-8; save it as UTF-8".into(),
    })?;
    body_of(&text)
        .map(str::to_string)
        .ok_or_else(|| Error::Parse {
            path: path.to_path_buf(),
            line: Some(1),
            message: "the frontmatter is never closed; add a `---` line after it".into(),
        })
}

/// The body part of a SKILL.md text; `None` for an unterminated frontmatter.
pub(crate) fn body_of(text: &str) -> Option<&str> {
    let split = frontmatter::split(text);
    match split.fences {
        Fences::Closed => text.get(split.body_offset.unwrap_or(text.len())..),
        Fences::MissingOpening => Some(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Fences::Unterminated => None,
    }
}

/// [`fallback_description`] for the SKILL.md at `path`, reading at most the first 16 KiB of
/// the file (enough for a heading and a paragraph; a paragraph cut by the limit is shortened).
/// For discovery, when a skill has no `description`: the body is otherwise never read then.
#[cfg(test)]
pub fn read_fallback_description(path: &Path) -> Option<String> {
    const LIMIT: u64 = 16 * 1024;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(LIMIT).read_to_end(&mut bytes))
        .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    fallback_description(body_of(&text)?)
}

/// The name a host gives a skill whose frontmatter has no `name`: the name of the directory
/// holding the SKILL.md (`skills/pdf-tools/SKILL.md` → `pdf-tools`). `None` when the path has
/// no parent directory name.
pub fn fallback_name(skill_md: &Path) -> Option<String> {
    skill_md
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
}

/// The description a host gives a skill whose frontmatter has no `description`: the first
/// paragraph of the body. Leading blank lines, Markdown headings, HTML comments and fenced
/// code blocks are skipped; the paragraph's lines are joined with single spaces. `None` when
/// the body has no paragraph. Call it only when the description is missing, since it needs
/// the body (use [`read_body`] to get it).
pub fn fallback_description(body: &str) -> Option<String> {
    let mut lines = frontmatter::lines_from(body, 0).map(|l| l.text.trim());
    let mut paragraph: Vec<&str> = Vec::new();
    let mut in_fence = false;
    let mut in_comment = false;
    for line in lines.by_ref() {
        if in_fence {
            in_fence = !(line.starts_with("```") || line.starts_with("~~~"));
            continue;
        }
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            if !paragraph.is_empty() {
                break;
            }
            in_fence = true;
            continue;
        }
        if line.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            if paragraph.is_empty() {
                continue;
            }
            break;
        }
        paragraph.push(line);
    }
    let joined = paragraph.join(" ");
    (!joined.is_empty()).then_some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the prefix reader made of a whole file `bytes` before `through_closing_fence`
    /// (the dialects it serves: strict UTF-8, NUL refused, the file read to its end).
    fn by_decode(bytes: &[u8], dialect: &Dialect) -> Parsed {
        let (text, problem) = decode(Path::new("SKILL.md"), bytes, true);
        match problem {
            Some(_) if closed(text, dialect) => parse_with(text, dialect),
            Some(problem) => failed(problem),
            None => parse_with(text, dialect),
        }
    }

    #[test]
    fn reading_through_the_closing_fence_matches_decoding_every_byte() {
        let pieces = [
            "---\n",
            "---\r\n",
            "---\r",
            " --- \n",
            "---x\n",
            "\u{feff}",
            "a: b\n",
            "d: x---y\n",
            "\r",
            "\n",
            "\u{3000}",
            "é",
            "\0",
            "\u{fffd}",
        ];
        let dialects = [
            Dialect::default(),
            Dialect {
                fences: FenceRule::LfLines,
                ..Dialect::default()
            },
            Dialect {
                fences: FenceRule::LfLinesTrimEnd,
                ..Dialect::default()
            },
            Dialect {
                strip_bom: true,
                ..Dialect::default()
            },
        ];
        let mut served = 0;
        for text in crate::parse::every_text(&pieces, 5) {
            // `\u{fffd}` stands for a byte that is not UTF-8.
            let mut bytes = text.replace('\u{fffd}', "\u{1}").into_bytes();
            for b in &mut bytes {
                if *b == 1 {
                    *b = 0xff;
                }
            }
            for dialect in &dialects {
                if let Some((head, split)) = through_closing_fence(&bytes, dialect) {
                    served += 1;
                    // As the reader parses it: from the split it was handed, if any.
                    let parsed = match split {
                        Some(split) => crate::parse::parse_split(head, split, dialect),
                        None => parse_with(head, dialect),
                    };
                    assert_eq!(
                        parsed,
                        by_decode(&bytes, dialect),
                        "{:?} under {:?}",
                        String::from_utf8_lossy(&bytes),
                        dialect.fences
                    );
                }
            }
        }
        assert!(served > 10_000, "only {served} texts took the short path");
    }

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write test file");
        path
    }

    #[test]
    fn reads_only_the_prefix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut text = b"---\nname: a\ndescription: b\n---\n".to_vec();
        // Invalid UTF-8 far into the body is never seen by discovery.
        text.extend(std::iter::repeat_n(b'x', 100_000));
        text.extend([0xff, 0xfe, 0]);
        let p = read_frontmatter(&write(dir.path(), "SKILL.md", &text));
        assert!(p.is_ok(), "{:?}", p.diagnostics);
        assert_eq!(p.manifest.name.as_deref(), Some("a"));
    }

    #[test]
    fn binary_bytes_near_the_top_of_the_body_do_not_break_discovery() {
        let dir = tempfile::tempdir().expect("tempdir");
        for tail in [&b"\0\x01binary"[..], &b"\xff\xfe not utf-8"[..]] {
            let mut text = b"---\nname: a\ndescription: b\n---\nbody ".to_vec();
            text.extend_from_slice(tail);
            let p = read_frontmatter(&write(dir.path(), "SKILL.md", &text));
            assert!(p.is_ok(), "{:?}", p.diagnostics);
            assert_eq!(p.manifest.description.as_deref(), Some("b"));
        }
    }

    #[test]
    fn read_rules_of_the_hosts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let whole = Dialect {
            read: ReadRule::WholeFile,
            ..Dialect::default()
        };
        let lossy = Dialect {
            read: ReadRule::Lossy,
            fences: FenceRule::GrayMatter,
            ..Dialect::default()
        };
        let read = |name: &str, bytes: &[u8], dialect: &Dialect| {
            let path = write(dir.path(), name, bytes);
            let meta = std::fs::metadata(&path).expect("stat");
            read_frontmatter_dialect(&path, None, &meta, dialect)
        };
        // Far past the prefix, and a character cut by the first read.
        let mut far = b"---\nname: a\ndescription: b\n---\n".to_vec();
        far.extend(std::iter::repeat_n(b'x', 4090 - far.len()));
        far.extend("é".repeat(10).as_bytes());
        let mut bad = far.clone();
        bad.extend(b"\xff");
        assert!(read("ok", &far, &whole).is_ok());
        let p = read("bad", &bad, &whole);
        assert_eq!(p.diagnostics[0].code, "invalid-utf8");
        assert!(read("bad-prefix", &bad, &Dialect::default()).is_ok());
        let p = read(
            "latin1",
            b"---\nname: caf\xe9\ndescription: b\n---\n",
            &lossy,
        );
        assert!(p.is_ok(), "{:?}", p.diagnostics);
        assert_eq!(p.manifest.name.as_deref(), Some("caf\u{fffd}"));
        let p = read("nul", b"---\nname: a\xff\0\ndescription: b\n---\n", &lossy);
        assert_eq!(p.diagnostics[0].code, "nul-byte");
    }

    #[test]
    fn long_frontmatter_is_read_past_the_first_chunk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let long = "d".repeat(10_000);
        let text = format!("---\nname: a\ndescription: {long}\n---\nbody\n");
        let p = read_frontmatter(&write(dir.path(), "SKILL.md", text.as_bytes()));
        assert_eq!(p.manifest.description.map(|d| d.len()), Some(10_000));
    }

    #[test]
    fn hostile_files_become_diagnostics_with_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cases: Vec<(std::path::PathBuf, &str)> = vec![
            (
                write(dir.path(), "bin", b"---\nname: a\0\n---\n"),
                "nul-byte",
            ),
            (
                write(dir.path(), "latin1", b"---\nname: caf\xe9\n---\n"),
                "invalid-utf8",
            ),
            (dir.path().to_path_buf(), "not-a-file"),
            (dir.path().join("missing"), "file-not-found"),
            (
                write(
                    dir.path(),
                    "huge-fm",
                    format!("---\n{}", "k: v\n".repeat(20_000)).as_bytes(),
                ),
                "frontmatter-too-large",
            ),
        ];
        for (path, code) in cases {
            let p = read_frontmatter(&path);
            assert_eq!(p.diagnostics.len(), 1, "{path:?}");
            assert_eq!(p.diagnostics[0].code, code);
            assert_eq!(p.diagnostics[0].path.as_deref(), Some(path.as_path()));
        }
    }

    #[test]
    fn multibyte_character_across_the_read_boundary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = format!("---\nname: a\ndescription: {}\n---\n", "é".repeat(3000));
        let p = read_frontmatter(&write(dir.path(), "SKILL.md", text.as_bytes()));
        assert!(p.is_ok(), "{:?}", p.diagnostics);
    }

    #[test]
    fn body_and_fallbacks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let skill = dir.path().join("pdf-tools");
        std::fs::create_dir(&skill).expect("mkdir");
        let path = write(
            &skill,
            "SKILL.md",
            b"---\nname: x\n---\n# Title\n\n<!-- note -->\nFirst line\nsecond line.\n\nMore.\n",
        );
        let body = read_body(&path).expect("body");
        assert!(body.starts_with("# Title"));
        assert_eq!(
            fallback_description(&body).as_deref(),
            Some("First line second line.")
        );
        assert_eq!(fallback_name(&path).as_deref(), Some("pdf-tools"));
        assert_eq!(
            read_fallback_description(&path).as_deref(),
            Some("First line second line.")
        );
        assert_eq!(fallback_description("# Only a heading\n"), None);
    }
}
