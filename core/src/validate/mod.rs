//! Validation against the Agent Skills specification (strict) or what hosts load (lenient).
//!
//! - **strict** reproduces skills-ref 0.1.1 (the specification's reference validator):
//!   name 1–64 characters after NFKC, lowercase, letters/digits/hyphens, no leading,
//!   trailing or double hyphen, equal to the directory name (NFKC on both); description
//!   non-empty and ≤ 1024 characters; compatibility ≤ 500; only the six spec keys; and the
//!   YAML strictyaml accepts (no flow style, anchors, tags, duplicate keys, BOM). One
//!   deliberate difference: a `metadata` that is not a mapping is an error here (the spec
//!   requires a map; skills-ref 0.1.1 does not check it).
//! - **lenient** is what hosts load: the same findings are warnings, except a missing
//!   description and unreadable or unparseable frontmatter, which are errors.
//!
//! Both modes also flag `allowed-tools` written as a list, non-string metadata values, and
//! (in [`validate`] only, which reads bodies) bodies over 500 lines and references to files
//! missing from the skill directory.

mod body;
mod rules;
mod search;

pub use rules::skill_name_problem;

use crate::diagnostic::Diagnostic;
use crate::parse::Parsed;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ValidateOptions {
    /// Spec conformance as enforced by skills-ref 0.1.1 instead of host leniency.
    pub strict: bool,
}

/// The verdict on one skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationReport {
    /// The SKILL.md (or the directory when none was found).
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub path: PathBuf,
    pub name: Option<String>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// Every diagnostic for a skill whose frontmatter was read with
/// [`crate::parse::read_frontmatter`]: the parse diagnostics (with strict-mode severities)
/// followed by the frontmatter rule findings, each carrying `skill_md` as its path.
///
/// This is what discovery calls for each found skill: it never reads the body, so the body
/// rules (length, missing referenced files) are left to [`validate`].
pub fn check(parsed: &Parsed, skill_md: &Path, strict: bool) -> Vec<Diagnostic> {
    let mut out = rules::mode_parse_diagnostics(parsed, strict);
    out.extend(rules::check_frontmatter(parsed, skill_md, strict));
    // One buffer for the file's path, shared by its diagnostics.
    let shared = crate::SharedPath::from(skill_md);
    crate::diagnostic::Diagnostic::share_path(&mut out, &shared);
    for d in &mut out {
        if d.path.is_none() {
            d.path = Some(shared.clone());
        }
    }
    // Source order reads best; findings without a line (missing keys) come last.
    out.sort_by_key(|d| d.line.unwrap_or(u32::MAX));
    out
}

/// Validate a skill directory, a SKILL.md file, or every skill below a directory (searched
/// recursively, skipping `.git` and `node_modules`, following directory symlinks once).
/// Reports are sorted by path. Never panics and never fails: unreadable paths become
/// reports with error diagnostics.
pub fn validate(path: &Path, options: &ValidateOptions) -> Vec<ValidationReport> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(err) => {
            let code = match err.kind() {
                std::io::ErrorKind::NotFound => "file-not-found",
                std::io::ErrorKind::PermissionDenied => "permission-denied",
                _ => "io-error",
            };
            return vec![failure(
                path,
                Diagnostic::error(code, format!("cannot read {}: {err}", path.display())),
            )];
        }
    };
    if !meta.is_dir() {
        return vec![validate_file(path, options.strict)];
    }
    if let Some(skill_md) = search::skill_file_in(path) {
        return vec![validate_file(&skill_md, options.strict)];
    }
    let found = search::find(path);
    let mut reports: Vec<ValidationReport> = found
        .skill_files
        .iter()
        .map(|p| validate_file(p, options.strict))
        .collect();
    for problem in found.problems.into_iter().filter(Diagnostic::is_error) {
        let at = problem
            .path
            .as_deref()
            .map_or_else(|| path.to_path_buf(), Path::to_path_buf);
        reports.push(failure(&at, problem));
    }
    if reports.is_empty() {
        reports.push(failure(
            path,
            Diagnostic::error(
                "no-skills-found",
                format!("no SKILL.md found in {} or below it", path.display()),
            )
            .with_hint("point at a skill directory, a SKILL.md, or a directory holding skills"),
        ));
    }
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    reports
}

/// Lenient mode: say which text hosts would use in place of a missing description.
fn show_fallback_description(diagnostics: &mut [Diagnostic], body: &str) {
    const SHOWN: usize = 80;
    let Some(d) = diagnostics
        .iter_mut()
        .find(|d| d.code == "missing-description")
    else {
        return;
    };
    let Some(fallback) = crate::parse::fallback_description(body) else {
        d.message = format!(
            "{} (and the body has no paragraph to fall back to)",
            d.message
        )
        .into();
        return;
    };
    let mut shown: String = fallback.chars().take(SHOWN).collect();
    if fallback.chars().count() > SHOWN {
        shown.push('…');
    }
    d.message = format!("{} (here: \"{shown}\")", d.message).into();
}

/// When a `---` inside the frontmatter makes skills-ref read less than we do, the parse of
/// what it reads (see [`crate::parse::skills_ref_view`]).
fn reference_view(parsed: &Parsed, skill_md: &Path) -> Option<Parsed> {
    if !parsed
        .strict_notes
        .iter()
        .any(|n| n.code == "dashes-in-frontmatter")
    {
        return None;
    }
    // The file was just read within the size caps, so reading it whole is bounded.
    let text = std::fs::read_to_string(skill_md).ok()?;
    let view = crate::parse::skills_ref_view(&text)?;
    Some(crate::parse::parse(&view))
}

fn failure(path: &Path, diagnostic: Diagnostic) -> ValidationReport {
    let diagnostic = if diagnostic.path.is_none() {
        diagnostic.with_path(path)
    } else {
        diagnostic
    };
    ValidationReport {
        path: path.to_path_buf(),
        name: None,
        valid: false,
        diagnostics: vec![diagnostic],
    }
}

/// Validate one SKILL.md: frontmatter rules, then the body rules.
fn validate_file(skill_md: &Path, strict: bool) -> ValidationReport {
    let parsed = crate::parse::read_frontmatter(skill_md);
    let mut diagnostics = match strict.then(|| reference_view(&parsed, skill_md)).flatten() {
        Some(view) => {
            // Strict mode judges what the reference validator reads; the note (a warning)
            // says where its frontmatter ends.
            let mut d = check(&view, skill_md, strict);
            d.extend(
                parsed
                    .strict_notes
                    .iter()
                    .filter(|n| n.code == "dashes-in-frontmatter")
                    .cloned(),
            );
            d.sort_by_key(|d| d.line.unwrap_or(u32::MAX));
            d
        }
        None => check(&parsed, skill_md, strict),
    };
    if let Some(body_line) = parsed.body_line {
        let dir = skill_md.parent().unwrap_or(Path::new("."));
        match crate::parse::read_body(skill_md) {
            Ok(body) => {
                if !strict {
                    show_fallback_description(&mut diagnostics, &body);
                }
                diagnostics.extend(
                    body::check_body(&body, body_line, dir)
                        .into_iter()
                        .map(|d| d.with_path(skill_md)),
                )
            }
            Err(err) => diagnostics.push(
                Diagnostic::error("unreadable-body", err.to_string())
                    .with_path(skill_md)
                    .with_hint("the body must be UTF-8 text that the host can load"),
            ),
        }
    }
    let name = parsed
        .manifest
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .or_else(|| crate::parse::fallback_name(skill_md));
    ValidationReport {
        path: skill_md.to_path_buf(),
        name,
        valid: !diagnostics.iter().any(Diagnostic::is_error),
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_names_for_installers() {
        for good in ["pdf", "pdf-tools", "a1", "données"] {
            assert_eq!(skill_name_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "Pdf",
            "-x",
            "x-",
            "a--b",
            "a_b",
            "../x",
            "a/b",
            ".",
            &"a".repeat(65),
        ] {
            assert!(skill_name_problem(bad).is_some(), "{bad}");
        }
    }

    fn skill(root: &Path, dir: &str, text: &str) -> PathBuf {
        let d = root.join(dir);
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(d.join("SKILL.md"), text).expect("write");
        d
    }

    fn codes(r: &ValidationReport) -> Vec<(&str, &str)> {
        r.diagnostics
            .iter()
            .map(|d| (&*d.code, d.severity.as_str()))
            .collect()
    }

    #[test]
    fn strict_and_lenient_differ_on_spec_rules() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = skill(
            tmp.path(),
            "pdf",
            "---\nname: PDF\ndescription: d\nauthor: me\n---\n",
        );
        let strict = &validate(&dir, &ValidateOptions { strict: true })[0];
        assert!(!strict.valid);
        assert_eq!(
            codes(strict),
            [
                ("name-not-lowercase", "error"),
                ("name-mismatch", "error"),
                ("unknown-key", "error")
            ]
        );
        let lenient = &validate(&dir, &ValidateOptions { strict: false })[0];
        assert!(lenient.valid);
        assert!(lenient
            .diagnostics
            .iter()
            .all(|d| d.severity.as_str() == "warning"));
    }

    #[test]
    fn unicode_names_after_nfkc() {
        let tmp = tempfile::tempdir().expect("tempdir");
        for (dir, ok) in [("技能", true), ("мой-навык", true), ("НАВЫК", false)] {
            let d = skill(
                tmp.path(),
                dir,
                &format!("---\nname: {dir}\ndescription: d\n---\n"),
            );
            let r = &validate(&d, &ValidateOptions { strict: true })[0];
            assert_eq!(r.valid, ok, "{dir}: {:?}", r.diagnostics);
        }
    }

    #[test]
    fn lenient_missing_description_shows_the_fallback() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = skill(
            tmp.path(),
            "pdf",
            "---\nname: pdf\n---\n# PDF\n\nReads PDFs.\n",
        );
        let r = &validate(&dir, &ValidateOptions::default())[0];
        assert_eq!(r.diagnostics[0].code, "missing-description");
        assert!(
            r.diagnostics[0]
                .message
                .ends_with("(here: \"Reads PDFs.\")"),
            "{}",
            r.diagnostics[0].message
        );
    }

    #[test]
    fn directory_search_and_empty_dir() {
        let tmp = tempfile::tempdir().expect("tempdir");
        skill(tmp.path(), "a/one", "---\nname: one\ndescription: d\n---\n");
        skill(tmp.path(), "b/two", "---\nname: [x\n---\n");
        let reports = validate(tmp.path(), &ValidateOptions::default());
        assert_eq!(reports.len(), 2);
        assert!(reports[0].valid);
        assert!(!reports[1].valid);
        let empty = tempfile::tempdir().expect("tempdir");
        let r = validate(empty.path(), &ValidateOptions::default());
        assert_eq!(r[0].diagnostics[0].code, "no-skills-found");
    }
}
