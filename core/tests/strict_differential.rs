//! Differential property test: `validate --strict` must give the same valid/invalid verdict
//! as `skilldeck::skills_ref::validate` (the port of skills-ref 0.1.1, itself checked
//! against the real Python package by the Python suite) on generated skills: random
//! directory names, names with Unicode and symbols, extra keys, flow style, anchors,
//! duplicate keys, long fields, BOMs and CRLF.
//!
//! Known, documented difference (core/src/validate/mod.rs): a `metadata` that is not a
//! mapping is an error in strict mode; skills-ref does not check it. The generator never
//! writes one.

use proptest::prelude::*;
use skilldeck::{validate, ValidateOptions};

fn name_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,5}){0,2}",
        "[a-zA-Z0-9_ :-]{1,12}",
        Just("技能".to_string()),
        Just("мой-навык".to_string()),
        Just("НАВЫК".to_string()),
        Just("नमस्ते".to_string()),
        Just("ﬁle-tool".to_string()),
        Just("-lead".to_string()),
        Just("double--dash".to_string()),
        Just("yes".to_string()),
        Just("1.10".to_string()),
        "[a-z]{65,70}",
    ]
}

fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z][A-Za-z ,.]{0,40}",
        Just("\"quoted \\\"text\\\"\"".to_string()),
        Just("'single'".to_string()),
        Just(">-\n  folded\n  text".to_string()),
        Just("|\n  literal".to_string()),
        Just("[flow, list]".to_string()),
        Just("{flow: map}".to_string()),
        Just("Use when: asked".to_string()),
        Just("before --- after".to_string()),
        Just("a: b: c".to_string()),
        Just("@handle".to_string()),
        Just("&a anchored".to_string()),
        Just("!!str tagged".to_string()),
        Just("".to_string()),
        "x{1020,1030}",
        "y{495,505}",
    ]
}

#[derive(Debug, Clone)]
struct Skill {
    dir: String,
    lines: Vec<String>,
    bom: bool,
    crlf: bool,
}

fn skill() -> impl Strategy<Value = Skill> {
    let entry = prop_oneof![
        name_text().prop_map(|n| format!("name: {n}")),
        value_text().prop_map(|v| format!("description: {v}")),
        value_text().prop_map(|v| format!("compatibility: {v}")),
        value_text().prop_map(|v| format!("license: {v}")),
        Just("metadata:\n  author: ada\n  n: 1".to_string()),
        Just("metadata: {a: b}".to_string()),
        Just("allowed-tools: Read Grep".to_string()),
        Just("allowed-tools:\n  - Read".to_string()),
        Just("author: someone".to_string()),
        Just("Name: skill".to_string()),
        Just("name: ~".to_string()),
        Just("name:\tskill".to_string()),
        Just("# a comment".to_string()),
        Just("".to_string()),
        Just("metadata:\n  tags:\n    - a\n  nested:\n    k: v".to_string()),
        Just("description:".to_string()),
        Just("name: skill # trailing comment".to_string()),
        Just("allowed_tools: Read".to_string()),
    ];
    (
        prop_oneof![name_text(), Just("skill".to_string())],
        prop::collection::vec(entry, 0..6),
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(dir, lines, bom, crlf)| Skill {
            dir,
            lines,
            bom,
            crlf,
        })
}

/// Usually a well-formed name/description pair first, so the interesting rules get reached.
fn skill_with_basics() -> impl Strategy<Value = Skill> {
    (skill(), any::<bool>()).prop_map(|(mut s, basics)| {
        if basics {
            s.lines
                .insert(0, format!("name: {}\ndescription: Does things.", s.dir));
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn strict_verdict_matches_skills_ref(s in skill_with_basics()) {
        let dir_name = s.dir.replace('/', "_");
        prop_assume!(!dir_name.trim().is_empty() && dir_name != "." && dir_name != "..");
        let tmp = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let dir = tmp.path().join(&dir_name);
        std::fs::create_dir_all(&dir).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut text = format!("---\n{}\n---\n# Body\n", s.lines.join("\n"));
        if s.crlf {
            text = text.replace('\n', "\r\n");
        }
        if s.bom {
            text.insert(0, '\u{feff}');
        }
        std::fs::write(dir.join("SKILL.md"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;

        let reference = skilldeck::skills_ref::validate(&dir)
            .map(|errors| errors.is_empty())
            .unwrap_or(false);
        let reports = validate(&dir, &ValidateOptions { strict: true });
        prop_assert_eq!(reports.len(), 1);
        let ours = reports[0].valid;
        prop_assert_eq!(
            ours,
            reference,
            "dir {:?}\n{}\nskills-ref: {:?}\nskilldeck: {:?}",
            dir_name,
            text,
            skilldeck::skills_ref::validate(&dir),
            reports[0].diagnostics.iter().map(|d| (&d.code, d.severity, d.line)).collect::<Vec<_>>()
        );
    }
}
