//! One SKILL.md as real repositories write them: every quoting style of `description`,
//! flow and block collections, host extension keys, CRLF and BOM, and the broken variants
//! a scanner must survive.

use crate::rng::Rng;
use crate::text;

/// Ways a SKILL.md can be broken in the wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    Unterminated,
    BadYaml,
    NoFrontmatter,
    Empty,
    InvalidUtf8,
    NoDescription,
    NotAMapping,
}

const BROKEN_KINDS: [Broken; 7] = [
    Broken::Unterminated,
    Broken::BadYaml,
    Broken::NoFrontmatter,
    Broken::Empty,
    Broken::InvalidUtf8,
    Broken::NoDescription,
    Broken::NotAMapping,
];

impl Broken {
    pub fn random(rng: &mut Rng) -> Broken {
        *rng.pick(&BROKEN_KINDS)
    }
}

/// What was written, for the corpus summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Traits {
    pub non_ascii: bool,
    pub crlf: bool,
    pub bom: bool,
    pub needs_repair: bool,
}

/// A description of 50–900 characters in one of the styles seen in public skills.
fn description(rng: &mut Rng, traits: &mut Traits) -> String {
    // Most descriptions are a sentence or two; a long tail runs to several paragraphs.
    let len = rng.log_range(50, 900);
    traits.non_ascii = rng.chance(0.10);
    let prose = text::prose(rng, len.saturating_sub(10).max(40), traits.non_ascii);
    match rng.weighted(&[35, 15, 25, 7, 3, 5, 5, 5]) {
        0 => {
            // Double-quoted, often with escaped quotes inside.
            let mut value = prose.replace('"', "\\\"");
            if rng.chance(0.3) {
                value.push_str(" Triggers on \\\"review this\\\" or \\\"check my code\\\".");
            }
            format!("description: \"{value}\"\n")
        }
        1 => format!(
            "description: '{}'\n",
            format!("{prose} It's the team's default.").replace('\'', "''")
        ),
        2 => format!("description: {prose}\n"),
        3 | 4 => {
            let indicator = *rng.pick(&[">", ">-", ">+"]);
            let mut out = format!("description: {indicator}\n");
            for line in text::wrap(&prose, 80) {
                out.push_str("  ");
                out.push_str(&line);
                out.push('\n');
            }
            out
        }
        5 => {
            let indicator = *rng.pick(&["|", "|-"]);
            let mut out = format!("description: {indicator}\n");
            for line in text::wrap(&prose, 70) {
                out.push_str("  ");
                out.push_str(&line);
                out.push('\n');
            }
            out
        }
        6 => {
            // A plain scalar continued on indented lines.
            let lines = text::wrap(&prose, 90);
            let mut out = String::from("description:");
            for (i, line) in lines.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { "\n  " });
                out.push_str(line);
            }
            out.push('\n');
            out
        }
        _ => {
            // An unquoted `: ` inside a plain value: invalid YAML that hosts still load.
            traits.needs_repair = true;
            format!("description: Use when: {prose}\n")
        }
    }
}

/// The frontmatter lines (between the fences) of a loadable skill.
fn frontmatter(rng: &mut Rng, name: &str, dir_name: &str, traits: &mut Traits) -> String {
    let mut fm = String::new();
    // ~5% of public skills have a name that differs from their directory.
    let name = if rng.chance(0.05) && name == dir_name {
        format!("{name}-skill")
    } else {
        name.to_string()
    };
    fm.push_str(&format!("name: {name}\n"));
    fm.push_str(&description(rng, traits));
    if rng.chance(0.4) {
        let license = *rng.pick(&[
            "MIT",
            "Apache-2.0",
            "Proprietary. LICENSE.txt has complete terms",
        ]);
        fm.push_str(&format!("license: {license}\n"));
    }
    if rng.chance(0.1) {
        fm.push_str(
            "compatibility: Requires git, python3 and network access to the package index\n",
        );
    }
    if rng.chance(0.15) {
        fm.push_str(&format!(
            "version: {}.{}.{}\n",
            rng.below(4),
            rng.below(10),
            rng.below(20)
        ));
    }
    match rng.weighted(&[60, 25, 10, 5]) {
        0 => {}
        1 => fm.push_str("allowed-tools: Read Grep Glob Bash(git:*)\n"),
        2 => fm.push_str("allowed-tools:\n  - Read\n  - Write\n  - Bash\n"),
        _ => fm.push_str("allowed-tools: Read, Edit, WebFetch\n"),
    }
    if rng.chance(0.4) {
        fm.push_str("metadata:\n");
        fm.push_str(&format!(
            "  author: {}\n",
            rng.pick(&["acme", "Jörg Müller", "platform-team", "oss"])
        ));
        fm.push_str(&format!(
            "  version: \"{}.{}\"\n",
            rng.below(3),
            rng.below(10)
        ));
        if rng.chance(0.3) {
            fm.push_str(&format!(
                "  short-description: {}\n",
                text::prose(rng, 40, false)
            ));
        }
        if rng.chance(0.12) {
            // Non-string metadata values, as ~9% of real files have.
            fm.push_str("  priority: 3\n  mcp:\n    server: github\n    tool: search_issues\n  keywords: [ci, release]\n");
        }
    } else if rng.chance(0.05) {
        fm.push_str("metadata: { author: acme, version: \"1.0\" }\n");
    }
    if rng.chance(0.15) {
        let a = text::skill_name(rng);
        let b = text::skill_name(rng);
        fm.push_str(&format!("tags: [{a}, {b}]\n"));
    }
    if rng.chance(0.1) {
        fm.push_str("argument-hint: \"[file] [--fix]\"\n");
    }
    if rng.chance(0.05) {
        fm.push_str("user-invocable: true\n");
    }
    if rng.chance(0.03) {
        fm.push_str("disable-model-invocation: true\n");
    }
    if rng.chance(0.05) {
        fm.push_str("requires:\n  bins: [git, jq]\n  env: [GITHUB_TOKEN]\n");
    }
    if rng.chance(0.03) {
        fm.push_str("os: [linux, macos]\n");
    }
    if rng.chance(0.15) {
        // Extra top-level keys (46% of real files have some).
        fm.push_str(&format!(
            "source: community\nrisk: {}\ndate_added: \"2025-{:02}-{:02}\"\n",
            rng.pick(&["low", "medium", "high"]),
            rng.range(1, 12),
            rng.range(1, 28)
        ));
    }
    fm
}

/// Bytes of a SKILL.md for a loadable skill named `name` in directory `dir_name`, with a
/// body of about `body_len` bytes sliced from `pool`.
pub fn skill_md(
    rng: &mut Rng,
    pool: &str,
    name: &str,
    dir_name: &str,
    body_len: usize,
) -> (Vec<u8>, Traits) {
    let mut traits = Traits::default();
    let fm = frontmatter(rng, name, dir_name, &mut traits);
    let title = name.replace('-', " ");
    let body = text::slice_pool(pool, rng, body_len);
    let mut doc = format!("---\n{fm}---\n\n# {title}\n\n## When to use\n\n{body}");
    traits.crlf = rng.chance(0.03);
    if traits.crlf {
        doc = doc.replace('\n', "\r\n");
    }
    traits.bom = rng.chance(0.01);
    let mut bytes = Vec::with_capacity(doc.len() + 3);
    if traits.bom {
        bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    bytes.extend_from_slice(doc.as_bytes());
    (bytes, traits)
}

/// Bytes of a broken SKILL.md of the given kind.
pub fn broken_md(rng: &mut Rng, pool: &str, name: &str, kind: Broken) -> Vec<u8> {
    let len = rng.log_range(1024, 8 * 1024);
    let body = text::slice_pool(pool, rng, len);
    let desc = text::prose(rng, 120, false);
    match kind {
        Broken::Unterminated => {
            format!("---\nname: {name}\ndescription: {desc}\n\n# {name}\n\n{body}")
        }
        Broken::BadYaml => format!("---\nname: [invalid\ndescription: {desc}\n---\n\n{body}"),
        Broken::NoFrontmatter => format!("# {name}\n\n{desc}\n\n{body}"),
        Broken::Empty => String::new(),
        Broken::InvalidUtf8 => {
            let mut bytes = format!("---\nname: {name}\ndescription: ").into_bytes();
            bytes.extend_from_slice(b"caf\xE9 \xFF\xFE broken latin-1 text\n---\n\n");
            bytes.extend_from_slice(body.as_bytes());
            return bytes;
        }
        Broken::NoDescription => format!("---\nname: {name}\nlicense: MIT\n---\n\n{body}"),
        Broken::NotAMapping => format!("---\n- {name}\n- {desc}\n---\n\n{body}"),
    }
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loadable_skill_has_fences_and_name() {
        let mut rng = Rng::new(9);
        let pool = text::body_pool(&mut rng);
        for _ in 0..200 {
            let (bytes, traits) = skill_md(&mut rng, &pool, "pdf-fill", "pdf-fill", 4096);
            let text = String::from_utf8(bytes).expect("generator writes UTF-8");
            let text = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
            assert!(text.starts_with("---\nname: pdf-fill"));
            assert!(text[4..].contains("\n---\n"));
            assert!(text.contains("description:"));
            assert!(text.len() >= 4096 || traits.crlf);
        }
    }

    #[test]
    fn invalid_utf8_variant_is_invalid() {
        let mut rng = Rng::new(10);
        let pool = text::body_pool(&mut rng);
        let bytes = broken_md(&mut rng, &pool, "x", Broken::InvalidUtf8);
        assert!(std::str::from_utf8(&bytes).is_err());
        assert!(broken_md(&mut rng, &pool, "x", Broken::Empty).is_empty());
    }
}
