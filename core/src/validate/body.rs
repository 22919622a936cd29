//! Body rules, run by `validate` only (discovery never reads bodies): long bodies, and
//! references to files that are not in the skill directory.

use crate::diagnostic::Diagnostic;
use std::path::Path;

/// The specification recommends keeping SKILL.md under this many body lines.
pub const MAX_BODY_LINES: usize = 500;

/// Findings about `body`, which starts on file line `body_line` of the SKILL.md in `skill_dir`.
pub fn check_body(body: &str, body_line: u32, skill_dir: &Path) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let lines: Vec<&str> = crate::parse::split_lines(body);
    if lines.len() > MAX_BODY_LINES {
        out.push(
            Diagnostic::info(
                "body-too-long",
                format!(
                    "the body has {} lines; keep SKILL.md under {MAX_BODY_LINES} lines",
                    lines.len()
                ),
            )
            .with_hint("move detailed material into references/ and link to it"),
        );
    }
    let mut in_fence = false;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let line_no = body_line.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        for (target, column) in references(line) {
            if !exists(skill_dir, &target) {
                out.push(
                    Diagnostic::warning(
                        "missing-reference",
                        format!(
                            "`{target}` is referenced but does not exist in the skill directory"
                        ),
                    )
                    .at(line_no, Some(column))
                    .with_hint("add the file, or fix the path (relative to the skill directory)"),
                );
            }
        }
    }
    out
}

fn exists(skill_dir: &Path, target: &str) -> bool {
    let decoded = target.replace("%20", " ");
    skill_dir.join(&decoded).exists()
}

/// Relative file references on one line, with their 1-based column: Markdown link and image
/// targets (`[x](references/a.md)`), and inline-code paths under the conventional
/// directories (`` `scripts/run.py` ``).
fn references(line: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let column = |byte: usize| u32::try_from(line[..byte].chars().count() + 1).unwrap_or(u32::MAX);
    let mut from = 0;
    while let Some(pos) = line[from..].find("](") {
        let start = from + pos + 2;
        let Some(len) = line[start..].find(')') else {
            break;
        };
        let raw = line[start..start + len].trim();
        // `[x](path "title")`
        let target = raw.split_whitespace().next().unwrap_or("");
        let target = target.trim_start_matches('<').trim_end_matches('>');
        if let Some(path) = local_path(target) {
            out.push((path, column(start)));
        }
        from = start + len;
    }
    let mut rest = line;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let code = &after[..close];
        let conventional = ["scripts/", "references/", "assets/"]
            .iter()
            .any(|d| code.starts_with(d));
        if conventional
            && !code.contains(char::is_whitespace)
            && !code.contains(['*', '?', '<', '$'])
        {
            out.push((code.to_string(), column(offset + open + 1)));
        }
        offset += open + 1 + close + 1;
        rest = &after[close + 1..];
    }
    out
}

/// The path part of a link target when it points into the skill directory.
fn local_path(target: &str) -> Option<String> {
    if target.is_empty()
        || target.starts_with('#')
        || target.starts_with('/')
        || target.starts_with("~")
        || target.contains("://")
        || target.starts_with("mailto:")
        || target.contains('$')
    {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or("");
    (!path.is_empty()).then(|| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_and_code_paths() {
        let refs = references(
            "See [guide](references/guide.md#top) and `scripts/run.py`, not [web](https://x.y) or `scripts/*.py`.",
        );
        let paths: Vec<_> = refs.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["references/guide.md", "scripts/run.py"]);
        assert_eq!(refs[0].1, 13);
    }

    #[test]
    fn reports_missing_files_with_lines() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("scripts")).expect("mkdir");
        std::fs::write(dir.path().join("scripts/ok.sh"), "").expect("write");
        let body = "# T\n\nRun `scripts/ok.sh`.\nRead [x](references/missing.md).\n```\n[y](nope.md)\n```\n";
        let found = check_body(body, 5, dir.path());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "missing-reference");
        assert_eq!(found[0].line, Some(8));
    }

    #[test]
    fn long_body_is_info() {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = "line\n".repeat(MAX_BODY_LINES + 1);
        let found = check_body(&body, 4, dir.path());
        assert_eq!(found[0].code, "body-too-long");
        assert_eq!(found[0].severity, crate::Severity::Info);
    }
}
