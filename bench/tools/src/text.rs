//! Text for the corpus: skill names, descriptions and Markdown bodies built from word
//! pools, so files look like real SKILL.md files (prose, lists, code blocks, some
//! non-ASCII) without shipping anyone's content.

use crate::rng::Rng;

const WORDS: &[&str] = &[
    "analyze",
    "api",
    "audit",
    "automate",
    "backend",
    "branch",
    "build",
    "bundle",
    "cache",
    "changelog",
    "check",
    "ci",
    "cli",
    "cloud",
    "code",
    "commit",
    "compare",
    "component",
    "config",
    "container",
    "convert",
    "coverage",
    "create",
    "csv",
    "dashboard",
    "data",
    "database",
    "debug",
    "deploy",
    "design",
    "diagram",
    "diff",
    "doc",
    "docker",
    "document",
    "draft",
    "edit",
    "email",
    "endpoint",
    "error",
    "excel",
    "export",
    "extract",
    "feature",
    "fetch",
    "file",
    "fix",
    "form",
    "format",
    "frontend",
    "generate",
    "git",
    "graph",
    "helm",
    "html",
    "image",
    "import",
    "incident",
    "index",
    "infra",
    "inspect",
    "invoice",
    "issue",
    "json",
    "kubernetes",
    "lint",
    "log",
    "markdown",
    "merge",
    "metric",
    "migrate",
    "mobile",
    "model",
    "monitor",
    "notebook",
    "optimize",
    "package",
    "parse",
    "pdf",
    "performance",
    "pipeline",
    "plan",
    "plot",
    "postgres",
    "pptx",
    "profile",
    "prompt",
    "publish",
    "python",
    "query",
    "react",
    "readme",
    "refactor",
    "release",
    "render",
    "report",
    "repository",
    "request",
    "research",
    "resolve",
    "review",
    "route",
    "rust",
    "scan",
    "schema",
    "script",
    "search",
    "secret",
    "security",
    "server",
    "service",
    "slide",
    "snapshot",
    "spec",
    "sql",
    "summarize",
    "sync",
    "table",
    "terraform",
    "test",
    "ticket",
    "trace",
    "translate",
    "triage",
    "typescript",
    "ui",
    "update",
    "upload",
    "validate",
    "version",
    "video",
    "web",
    "workflow",
    "write",
    "xlsx",
    "yaml",
];

const FILLER: &[&str] = &[
    "the", "a", "when", "user", "asks", "to", "and", "with", "for", "of", "in", "this", "skill",
    "use", "it", "files", "project", "before", "after", "that", "from", "into", "each", "every",
    "only", "then", "also", "across", "without", "your", "team", "tools",
];

const NON_ASCII: &[&str] = &[
    "café",
    "naïve",
    "über",
    "résumé",
    "Straße",
    "日本語",
    "文档",
    "données",
    "превью",
    "señal",
    "🚀",
    "façade",
    "Ångström",
    "größe",
    "データ",
    "코드",
    "ελληνικά",
    "—",
];

/// A kebab-case skill name of 1–3 words, like `pdf-form-fill` or `review`.
pub fn skill_name(rng: &mut Rng) -> String {
    let words = rng.weighted(&[2, 6, 3]) + 1;
    (0..words)
        .map(|_| *rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join("-")
}

/// Prose of about `len` characters made of safe YAML-plain words (letters, digits,
/// spaces, commas, periods), optionally with non-ASCII words mixed in.
pub fn prose(rng: &mut Rng, len: usize, non_ascii: bool) -> String {
    let mut out = String::with_capacity(len + 16);
    let mut sentence_start = true;
    while out.chars().count() < len {
        if !out.is_empty() {
            out.push(' ');
        }
        let word = if non_ascii && rng.chance(0.08) {
            *rng.pick(NON_ASCII)
        } else if rng.chance(0.45) {
            *rng.pick(WORDS)
        } else {
            *rng.pick(FILLER)
        };
        if sentence_start {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
            sentence_start = false;
        } else {
            out.push_str(word);
        }
        if rng.chance(0.08) {
            out.push('.');
            sentence_start = true;
        } else if rng.chance(0.05) {
            out.push(',');
        }
    }
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// Break `text` into lines of at most ~`width` characters (for folded/literal scalars).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// About 1.5 MiB of Markdown (headings, prose, lists, code blocks, tables) from which
/// bodies are sliced; generating every body word by word would dominate generation time.
pub fn body_pool(rng: &mut Rng) -> String {
    let mut out = String::with_capacity(1_600_000);
    while out.len() < 1_500_000 {
        match rng.weighted(&[3, 10, 4, 3, 1]) {
            0 => {
                let title = prose(rng, 25, false);
                out.push_str(&format!("\n## {}\n\n", title.trim_end_matches('.')));
            }
            1 => {
                let len = rng.range(120, 700);
                let non_ascii = rng.chance(0.1);
                for line in wrap(&prose(rng, len, non_ascii), 100) {
                    out.push_str(&line);
                    out.push('\n');
                }
                out.push('\n');
            }
            2 => {
                for _ in 0..rng.range(2, 7) {
                    let len = rng.range(20, 120);
                    out.push_str(&format!("- {}\n", prose(rng, len, false)));
                }
                out.push('\n');
            }
            3 => {
                let lang = *rng.pick(&["bash", "python", "typescript", "json", ""]);
                out.push_str(&format!("```{lang}\n"));
                for _ in 0..rng.range(3, 15) {
                    let a = *rng.pick(WORDS);
                    let b = *rng.pick(WORDS);
                    out.push_str(&format!("{a}_{b} --input {b}.json --out ./{a}/\n"));
                }
                out.push_str("```\n\n");
            }
            _ => {
                out.push_str("| step | command | notes |\n|---|---|---|\n");
                for i in 0..rng.range(2, 6) {
                    let a = *rng.pick(WORDS);
                    out.push_str(&format!(
                        "| {i} | `{a} run` | {} |\n",
                        prose(rng, 30, false)
                    ));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// A slice of `pool` of about `len` bytes starting and ending on line boundaries (so it
/// is valid UTF-8 and starts with a whole Markdown line).
pub fn slice_pool<'a>(pool: &'a str, rng: &mut Rng, len: usize) -> &'a str {
    let len = len.min(pool.len() / 2);
    // Search bytes, not chars: a random offset may fall inside a multi-byte character,
    // but b'\n' never occurs inside one, so the position after it is a char boundary.
    let bytes = pool.as_bytes();
    let next_line = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| from + i + 1)
    };
    let start = next_line(rng.below(pool.len() - len)).unwrap_or(0);
    let end = next_line((start + len).min(pool.len())).unwrap_or(pool.len());
    &pool[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kebab_case() {
        let mut rng = Rng::new(1);
        for _ in 0..500 {
            let name = skill_name(&mut rng);
            assert!(name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            assert!(!name.starts_with('-') && !name.ends_with('-'));
        }
    }

    #[test]
    fn prose_is_safe_as_a_plain_yaml_scalar() {
        let mut rng = Rng::new(2);
        for _ in 0..200 {
            let text = prose(&mut rng, 300, true);
            assert!(!text.contains(": ") && !text.contains(" #"));
            assert!(text.chars().count() >= 300);
        }
    }

    #[test]
    fn pool_slices_are_whole_lines() {
        let mut rng = Rng::new(3);
        let pool = body_pool(&mut rng);
        for _ in 0..100 {
            let s = slice_pool(&pool, &mut rng, 5000);
            assert!(s.len() >= 5000 || s.ends_with('\n'));
            let at = s.as_ptr() as usize - pool.as_ptr() as usize;
            assert!(at == 0 || pool.as_bytes()[at - 1] == b'\n');
        }
    }

    #[test]
    fn wrap_keeps_every_word() {
        let text = "alpha beta gamma delta epsilon zeta eta theta";
        let lines = wrap(text, 12);
        assert_eq!(lines.join(" "), text);
        assert!(lines.len() > 1);
    }
}
