//! GitHub Copilot CLI's skill context (`@github/copilot` 1.0.102). Its `skill` tool answers
//! `Skill "NAME" loaded successfully. Follow the instructions in the skill context.` and the
//! host then adds this message for the model. The code is native and closed
//! (`runtime.node`: `session_base/skill_content_registry.rs`), so every rule here was found
//! by running the host against a scripted model and is recorded in
//! `tests/vectors/activate/oracle-copilot-cli-format-*` (tests/ORACLES.md).

use crate::catalog::Skill;
use std::path::{Path, PathBuf};

/// At most this many files are listed; a further one adds the truncation line.
const MAX_FILES: usize = 100;
/// A folder below the skill directory with more entries than this is named with its count
/// instead of being listed (the skill directory itself never is).
const SUMMARY_OVER: usize = 50;
/// Folders the host neither lists nor enters (exact, case-sensitive names; found by trying
/// ~45 common names, so the host's list may hold more).
const SKIPPED_DIRS: [&str; 16] = [
    ".git",
    "node_modules",
    "dist",
    "build",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    "vendor",
    ".next",
    ".nuxt",
    ".cache",
    "coverage",
    "out",
    "bin",
    "obj",
];

/// The skill context message: `<skill-context name="NAME">`, the skill directory (as found,
/// links not resolved), the summarized folders and related files when there are any, then
/// the body as written (no substitution: the tool takes only the name) with `\r\n` line
/// ends made `\n` and leading blank lines dropped.
pub(super) fn skill_context(skill: &Skill, raw: &str) -> String {
    let dir = &skill.base_dir;
    let listing = list(dir);
    let mut sections = String::new();
    if !listing.summarized.is_empty() {
        sections.push_str("Summarized directories:\n");
        for (rel, count) in &listing.summarized {
            sections.push_str(&format!("  - {}/ ({count} items)\n", rel.to_string_lossy()));
        }
    }
    if !listing.files.is_empty() {
        sections.push_str("Related files (use view tool to read):\n");
        for rel in &listing.files {
            sections.push_str(&format!("  - {}\n", dir.join(rel).to_string_lossy()));
        }
        if listing.truncated {
            sections.push_str("  ...and more files (listing truncated)\n");
        }
    }
    if !sections.is_empty() {
        sections.push('\n');
    }
    format!(
        "<skill-context name=\"{}\">\nBase directory for this skill: {}\n\n{sections}{}\n</skill-context>",
        skill.name,
        dir.to_string_lossy(),
        body(raw)
    )
}

/// The body as the host shows it: `\r\n` made `\n` (a lone `\r` stays), then the lines
/// before the first one with text dropped; indentation and the end kept.
fn body(raw: &str) -> String {
    let text = raw.replace("\r\n", "\n");
    match text.find(|c: char| !c.is_whitespace()) {
        Some(first) => {
            let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
            text[line_start..].to_string()
        }
        None => String::new(),
    }
}

#[derive(Default)]
struct Listing {
    files: Vec<PathBuf>,
    summarized: Vec<(PathBuf, usize)>,
    truncated: bool,
}

/// The host's walk: depth first in directory order (so which files make the first 100 of a
/// bigger skill depends on the file system, as in the host), links and files named
/// `SKILL.md` left out, then both lists sorted by path.
fn list(dir: &Path) -> Listing {
    let mut listing = Listing::default();
    walk(dir, Path::new(""), &mut listing);
    listing.files.sort();
    listing.summarized.sort();
    listing
}

fn walk(root: &Path, rel: &Path, listing: &mut Listing) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        if listing.truncated {
            return;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name();
        let path = rel.join(&name);
        if kind.is_dir() {
            if SKIPPED_DIRS.iter().any(|s| name == *s) {
                continue;
            }
            let count = std::fs::read_dir(entry.path()).map_or(0, |d| d.count());
            if count > SUMMARY_OVER {
                listing.summarized.push((path, count));
            } else {
                walk(root, &path, listing);
            }
        } else if kind.is_file() && name != "SKILL.md" {
            if listing.files.len() == MAX_FILES {
                listing.truncated = true;
            } else {
                listing.files.push(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::body;

    #[test]
    fn body_ends_lines_with_lf_and_drops_leading_blank_lines_only() {
        assert_eq!(
            body(" \n\t\r\n  Text.\rmore\r\n\n  "),
            "  Text.\rmore\n\n  "
        );
        assert_eq!(body("\n\n"), "");
        assert_eq!(body("First"), "First");
    }
}
