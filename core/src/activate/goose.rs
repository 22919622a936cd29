//! Goose's `load_skill` answer (goose 1.37.0, its skills extension:
//! `crates/goose/src/skills/client.rs` `call_tool`, `skills/mod.rs`
//! `loaded_skill_context_with_args`, `skills/arguments.rs` `apply_skill_arguments`). Recorded
//! by running the host: `tests/vectors/activate/oracle-goose-format-*`.

use super::substitute::split_args;
use crate::catalog::Skill;
use std::path::{Path, PathBuf};

/// `# Loaded Skill: NAME (skill)`, the description as written, `## Content` with the trimmed
/// body (arguments applied when given), then `## Supporting Files` when the skill has any.
pub(super) fn load_skill(skill: &Skill, raw: &str, args: &str) -> String {
    let content = raw.trim();
    let content = if args.is_empty() {
        content.to_string()
    } else {
        apply_arguments(content, args, &argument_names(skill))
    };
    let mut out = format!(
        "# Loaded Skill: {} (skill)\n\n{}\n\n## Content\n\n{content}\n",
        skill.name,
        skill.manifest.description.as_deref().unwrap_or("")
    );
    let files = supporting_files(&skill.base_dir);
    if !files.is_empty() {
        out.push_str(&format!(
            "\n## Supporting Files\n\nSkill directory: {}\n\n",
            skill.base_dir.to_string_lossy()
        ));
        for rel in files {
            let rel = rel.to_string_lossy();
            out.push_str(&format!(
                "- {rel} → load_skill(name: \"{}/{rel}\")\n",
                skill.name
            ));
        }
    }
    out
}

/// `skill_argument_names`: the text items of `metadata.arguments` (not the top-level
/// `arguments` Claude Code reads), empty ones left out.
fn argument_names(skill: &Skill) -> Vec<String> {
    skill
        .manifest
        .metadata
        .get("arguments")
        .and_then(|v| match v {
            serde_json::Value::Array(items) => Some(items),
            _ => None,
        })
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str())
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// One placeholder the host's `PLACEHOLDER_RE` matches
/// (`\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)|\$([A-Za-z_][A-Za-z0-9_-]*)`).
enum Placeholder<'a> {
    Index(usize),
    All,
    Position(usize),
    Name(&'a str),
}

/// The placeholder at the start of `s` (which starts with `$`) and its length.
fn placeholder(s: &str) -> Option<(Placeholder<'_>, usize)> {
    let rest = &s[1..];
    let digits = |t: &str| t.chars().take_while(char::is_ascii_digit).count();
    if let Some(after) = rest.strip_prefix("ARGUMENTS") {
        if let Some(inner) = after.strip_prefix('[') {
            let n = digits(inner);
            if n > 0 && inner[n..].starts_with(']') {
                let index = inner[..n].parse().unwrap_or(usize::MAX);
                return Some((Placeholder::Index(index), 1 + 9 + 1 + n + 1));
            }
        }
        // `\b`: not followed by a word character.
        let word = after
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !word {
            return Some((Placeholder::All, 10));
        }
    }
    let n = digits(rest);
    if n > 0 {
        return Some((Placeholder::Position(rest[..n].parse().unwrap_or(0)), 1 + n));
    }
    let first = rest.chars().next()?;
    if first.is_ascii_alphabetic() || first == '_' {
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        return Some((Placeholder::Name(&rest[..n]), 1 + n));
    }
    None
}

/// `apply_skill_arguments`: with no placeholder it can fill (a `$name` counts only when
/// `name` is in the `arguments` list), the raw text is appended as `ARGUMENTS: …`; else
/// `$ARGUMENTS` is the raw text, `$ARGUMENTS[i]` the i-th word (from 0), `$n` the n-th (from
/// 1), `$name` the word at the name's position; a missing word is empty and an unknown name
/// stays as written.
fn apply_arguments(content: &str, args: &str, names: &[String]) -> String {
    let resolvable = |p: &Placeholder<'_>| match p {
        Placeholder::Name(name) => names.iter().any(|n| n == name),
        _ => true,
    };
    let placeholders = || {
        content
            .match_indices('$')
            .filter_map(|(at, _)| placeholder(&content[at..]).map(|(p, len)| (at, p, len)))
    };
    if !placeholders().any(|(_, p, _)| resolvable(&p)) {
        return format!("{content}\n\nARGUMENTS: {args}");
    }
    let words = split_args(args);
    let nth = |i: usize| words.get(i).cloned().unwrap_or_default();
    let mut out = String::with_capacity(content.len());
    let mut done = 0;
    for (at, p, len) in placeholders() {
        if at < done {
            continue; // inside a placeholder already replaced
        }
        out.push_str(&content[done..at]);
        let value = match p {
            Placeholder::Index(i) => nth(i),
            Placeholder::All => args.to_string(),
            Placeholder::Position(p) => p.checked_sub(1).map(nth).unwrap_or_default(),
            Placeholder::Name(name) => match names.iter().position(|n| n == name) {
                Some(i) => nth(i),
                None => content[at..at + len].to_string(),
            },
        };
        out.push_str(&value);
        done = at + len;
    }
    out.push_str(&content[done..]);
    out
}

/// The skill's other files: a walk in directory order (the host does not sort, so the order
/// of several files follows the file system, as in the host), hidden entries and
/// `node_modules` included, links followed, a folder holding its own `SKILL.md` (another
/// skill) left out.
fn supporting_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut seen = Vec::new();
    walk(dir, Path::new(""), &mut files, &mut seen);
    files
}

/// Bounds for a skill folder; a bigger one is not listed further.
const MAX_FILES: usize = 1_000;
const MAX_DEPTH: usize = 16;

fn walk(root: &Path, rel: &Path, files: &mut Vec<PathBuf>, seen: &mut Vec<PathBuf>) {
    let here = root.join(rel);
    if rel.components().count() > MAX_DEPTH {
        return;
    }
    // A directory reached twice through links is read once, so a loop ends.
    if let Ok(real) = std::fs::canonicalize(&here) {
        if seen.contains(&real) {
            return;
        }
        seen.push(real);
    }
    let Ok(entries) = std::fs::read_dir(&here) else {
        return;
    };
    for entry in entries.flatten() {
        if files.len() >= MAX_FILES {
            return;
        }
        let name = entry.file_name();
        let path = rel.join(&name);
        let full = entry.path();
        if full.is_dir() {
            if !full.join("SKILL.md").is_file() {
                walk(root, &path, files, seen);
            }
        } else if full.is_file() && !(rel.as_os_str().is_empty() && name == "SKILL.md") {
            files.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{apply_arguments, supporting_files};
    use std::path::{Path, PathBuf};

    /// Goose 1.37.0 lists a skill's files depth first in directory (`readdir`) order, a
    /// folder's files where the folder itself comes, unsorted (checked by running the host on
    /// a skill of nine files in four folders; ORACLES.md). The order differs between file
    /// systems, so it is checked against `std::fs::read_dir` here rather than in a vector.
    #[test]
    fn supporting_files_keep_directory_order_depth_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let skill = dir.path().join("multi");
        for rel in [
            "SKILL.md",
            "b.txt",
            "a.txt",
            ".hidden",
            "zz/c.md",
            "zz/inner/e.txt",
            "aa/d.md",
            "scripts/run.sh",
            "m.json",
            "k.md",
            "other/SKILL.md",
            "other/x.txt",
        ] {
            let path = skill.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "x").expect("write");
        }
        fn expected(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(root.join(rel))
                .expect("read_dir")
                .flatten()
            {
                let path = rel.join(entry.file_name());
                if entry.path().is_dir() {
                    // Another skill's folder is not listed.
                    if !entry.path().join("SKILL.md").exists() {
                        expected(root, &path, out);
                    }
                } else if path != Path::new("SKILL.md") {
                    out.push(path);
                }
            }
        }
        let mut want = Vec::new();
        expected(&skill, Path::new(""), &mut want);
        assert_eq!(want.len(), 9);
        assert_eq!(supporting_files(&skill), want);
    }

    #[test]
    fn arguments_follow_the_host_placeholders() {
        let names = vec!["target".to_string()];
        assert_eq!(
            apply_arguments(
                "$ARGUMENTS|$1|$ARGUMENTS[1]|$target|$3|$HOME|${X}|$ARGUMENTSX",
                "a \"b c\"",
                &names
            ),
            "a \"b c\"|a|b c|a||$HOME|${X}|$ARGUMENTSX"
        );
        assert_eq!(
            apply_arguments("No placeholder, $HOME.", "go", &[]),
            "No placeholder, $HOME.\n\nARGUMENTS: go"
        );
    }
}
