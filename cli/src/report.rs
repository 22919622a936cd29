//! Human rendering of validation reports: one line per skill, then each diagnostic with the
//! offending source line and a caret (annotate-snippets), coloured only on a terminal.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use skilldeck::{Diagnostic, Severity, ValidationReport};
use std::io::Read;
use std::path::Path;

/// Source lines are looked up only in the first MiB of a file; a diagnostic further in (or
/// in a file that cannot be read) is shown without a snippet.
const MAX_SOURCE_BYTES: u64 = 1024 * 1024;

fn source_line(path: &Path, line: u32) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    skilldeck::split_lines(&text)
        .get(index)
        .map(|l| l.replace('\t', "    "))
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// The byte range to underline: from the column to the end of the word there, or the whole
/// line when no column is known.
fn span(source: &str, column: Option<u32>) -> std::ops::Range<usize> {
    let Some(column) = column.and_then(|c| usize::try_from(c).ok()) else {
        let start = source.len() - source.trim_start().len();
        return start..source.trim_end().len().max(start);
    };
    let start = source
        .char_indices()
        .nth(column.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(source.len());
    let end = source[start..]
        .find(|c: char| c.is_whitespace() || c == ':')
        .map(|n| start + n)
        .unwrap_or(source.len());
    start..end.max(start)
}

fn render_diagnostic(
    d: &Diagnostic,
    renderer: &Renderer,
    display: &dyn Fn(&Path) -> String,
) -> String {
    let path = d.path.as_deref().map(display).unwrap_or_default();
    let source = match (&d.path, d.line) {
        (Some(p), Some(line)) => source_line(p, line).map(|s| (s, line)),
        _ => None,
    };
    let title = level(d.severity)
        .primary_title(d.message.as_str())
        .id(&*d.code);
    let mut group = match (&source, d.line) {
        (Some((text, line)), _) => {
            let range = span(text, d.column);
            title.element(
                Snippet::source(text.as_str())
                    .line_start(usize::try_from(*line).unwrap_or(1))
                    .path(path.as_str())
                    .annotation(AnnotationKind::Primary.span(range)),
            )
        }
        (None, Some(line)) => {
            let mut origin = Origin::path(path.as_str()).line(usize::try_from(line).unwrap_or(1));
            if let Some(col) = d.column {
                origin = origin.char_column(usize::try_from(col).unwrap_or(1));
            }
            title.element(origin)
        }
        (None, None) if !path.is_empty() => title.element(Origin::path(path.as_str())),
        (None, None) => Group::with_title(title),
    };
    if let Some(hint) = &d.hint {
        group = group.element(Level::HELP.message(&**hint));
    }
    renderer.render(&[group])
}

/// Render `reports` for a human. `color` switches ANSI styling on.
pub fn render(reports: &[ValidationReport], color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for r in reports {
        let errors = r.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = r
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let verdict = match (r.valid, color) {
            (true, true) => "\x1b[32mok\x1b[0m  ",
            (true, false) => "ok  ",
            (false, true) => "\x1b[31mFAIL\x1b[0m",
            (false, false) => "FAIL",
        };
        let name = r.name.as_deref().unwrap_or("?");
        out.push_str(&format!(
            "{verdict} {name}  {}  ({errors} error(s), {warnings} warning(s))\n",
            r.path.display()
        ));
        for d in &r.diagnostics {
            out.push_str(&render_diagnostic(d, &renderer, &|p| {
                p.display().to_string()
            }));
            out.push_str("\n\n");
        }
    }
    let valid = reports.iter().filter(|r| r.valid).count();
    out.push_str(&format!(
        "{} skill(s): {valid} valid, {} invalid\n",
        reports.len(),
        reports.len() - valid
    ));
    out
}

/// Render catalog diagnostics the way `validate` does (level, code, source line, caret,
/// hint), each path shown through `display`. `color` switches ANSI styling on.
pub fn render_diagnostics(
    diagnostics: &[Diagnostic],
    color: bool,
    display: &dyn Fn(&Path) -> String,
) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&render_diagnostic(d, &renderer, display));
        out.push_str("\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_snippet_with_caret_and_hint() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("SKILL.md");
        std::fs::write(&path, "---\nname: Bad Name\ndescription: d\n---\n").expect("write");
        let report = ValidationReport {
            path: path.clone(),
            name: Some("Bad Name".into()),
            valid: false,
            diagnostics: vec![Diagnostic::error("name-not-lowercase", "must be lowercase")
                .with_path(&path)
                .at(2, Some(7))
                .with_hint("use lowercase")],
        };
        let text = render(&[report], false);
        assert!(text.starts_with("FAIL Bad Name"), "{text}");
        assert!(
            text.contains("error[name-not-lowercase]: must be lowercase"),
            "{text}"
        );
        assert!(text.contains("2 | name: Bad Name"), "{text}");
        assert!(text.contains("^^^"), "{text}");
        assert!(text.contains("help: use lowercase"), "{text}");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn span_stays_in_bounds() {
        assert_eq!(span("abc", Some(99)), 3..3);
        assert_eq!(span("  abc  ", None), 2..5);
        assert_eq!(span("é: x", Some(1)), 0..2);
    }
}
