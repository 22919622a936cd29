//! Property tests for the frontmatter splitter and the manifest parser: they never panic on
//! any input, splitting keeps its invariants whatever the line endings, and a manifest's
//! canonical JSON reads back to the same manifest.
//!
//! Run with `cargo test -p skilldeck --test parse_props`; `PROPTEST_CASES=20000` for a
//! longer search.

use proptest::prelude::*;
use skilldeck::Fences;
use skilldeck::Manifest;

/// Lines that are never a fence on their own.
fn yaml_line() -> impl Strategy<Value = String> {
    "[a-z]{1,8}: [ -~]{0,20}".prop_filter("not a fence", |l| l.trim() != "---")
}

fn line_ending() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]
}

/// YAML-ish text mixing keys, lists, flow collections, quotes, anchors and junk.
fn yamlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z_-]{1,10}: [ -~]{0,30}",
        "  - [ -~]{0,10}",
        "[a-z]{1,5}: \\{[a-z, :]{0,20}\\}?",
        "[a-z]{1,5}: \\[[a-z, \\[\\]]{0,20}",
        "[a-z]{1,5}: &[a-z]{1,3} [a-z]{0,5}",
        "[a-z]{1,5}: \\*[a-z]{1,3}",
        "[a-z]{1,5}: [|>]-?",
        "\"[ -~]{0,10}",
        "name: (yes|no|on|1\\.0|~|null|0x1F|1e3)",
        "\\PC{0,20}",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|lines| lines.join("\n"))
}

/// One line of every key the manifest types (spec, Claude Code, tool-style, lifted from
/// `metadata`) and an unknown one, with values of every shape.
fn known_field() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "name",
        "description",
        "license",
        "compatibility",
        "allowed-tools",
        "when_to_use",
        "argument-hint",
        "arguments",
        "disable-model-invocation",
        "user-invocable",
        "disallowed-tools",
        "model",
        "effort",
        "context",
        "agent",
        "background",
        "hooks",
        "paths",
        "shell",
        "version",
        "max-thinking-tokens",
        "category",
        "tags",
        "os",
        "enabled",
        "timeout",
        "command",
        "parameters",
        "requires",
        "install",
        "metadata",
        "x-own",
    ]);
    let value = prop_oneof![
        "[a-z]{1,8}",
        "(true|false|~|1\\.0)",
        "[0-9]{1,4}",
        "\\[[a-z]{1,4}, [a-z]{1,4}\\]",
        "\\{bins: \\[[a-z]{1,4}\\], env: \\[[A-Z]{1,4}\\]\\}",
        "\\{mcp: \\{server: [a-z]{1,4}, tool: [a-z]{1,4}\\}, short-description: [a-z]{1,8}\\}",
        "\\{[a-z]{1,4}: \\{type: string, required: (true|false), default: (~|x|1)\\}\\}",
        "\\[\\{kind: brew, formula: [a-z]{1,4}\\}\\]",
    ];
    (key, value).prop_map(|(k, v)| format!("{k}: {v}"))
}

proptest! {
    #[test]
    fn manifests_read_back_from_their_json(lines in prop::collection::vec(known_field(), 0..10)) {
        let text = format!("---\n{}\n---\n", lines.join("\n"));
        let parsed = skilldeck::parse(&text);
        let json = serde_json::to_value(&parsed.manifest)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: Manifest = serde_json::from_value(json.clone())
            .map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
        prop_assert_eq!(&back, &parsed.manifest, "{}", json);
        prop_assert_eq!(back.claude_code.is_set(), parsed.manifest.claude_code.is_set());
        prop_assert_eq!(back.tool.is_set(), parsed.manifest.tool.is_set());
    }

    #[test]
    fn split_never_panics(text in "\\PC*") {
        let _ = skilldeck::split_frontmatter(&text);
    }

    #[test]
    fn split_finds_what_was_built(
        lines in prop::collection::vec(yaml_line(), 0..8),
        body in "[ -~\n]{0,40}",
        eol in line_ending(),
        bom in any::<bool>(),
    ) {
        // A lone-CR fence followed by a body starting with LF reads as one CRLF ending.
        prop_assume!(!(eol == "\r" && body.starts_with('\n')));
        let mut text = String::new();
        if bom {
            text.push('\u{feff}');
        }
        text.push_str("---");
        text.push_str(eol);
        for l in &lines {
            text.push_str(l);
            text.push_str(eol);
        }
        text.push_str("---");
        text.push_str(eol);
        let body_at = text.len();
        text.push_str(&body);

        let s = skilldeck::split_frontmatter(&text);
        prop_assert_eq!(s.fences, Fences::Closed);
        prop_assert_eq!(s.bom, bom);
        let expected_yaml: String = lines.iter().map(|l| format!("{l}\n")).collect();
        prop_assert_eq!(&s.yaml, &expected_yaml);
        prop_assert_eq!(s.body_line, Some(u32::try_from(lines.len()).unwrap_or(u32::MAX) + 3));
        prop_assert_eq!(s.body_offset, Some(body_at));
        prop_assert_eq!(&text[body_at..], body.as_str());
    }

    #[test]
    fn line_endings_do_not_change_the_split(text in "[ -~\n]{0,200}", eol in line_ending()) {
        let converted = text.replace('\n', eol);
        let a = skilldeck::split_frontmatter(&text);
        let b = skilldeck::split_frontmatter(&converted);
        prop_assert_eq!(a.fences, b.fences);
        prop_assert_eq!(a.yaml, b.yaml);
        prop_assert_eq!(a.body_line, b.body_line);
    }

    #[test]
    fn parse_never_panics_and_lines_are_in_range(yaml in yamlish(), eol in line_ending()) {
        let text = format!("---\n{yaml}\n---\nbody\n").replace('\n', eol);
        let parsed = skilldeck::parse(&text);
        let lines = u32::try_from(skilldeck::split_lines(&text).len()).unwrap_or(u32::MAX);
        for d in parsed.diagnostics.iter().chain(parsed.strict_notes.iter()) {
            if let Some(line) = d.line {
                prop_assert!(line >= 1 && line <= lines + 1, "{d:?} outside 1..={lines}");
            }
        }
        // Canonical JSON always serialises.
        prop_assert!(serde_json::to_string(&parsed).is_ok());
    }

    #[test]
    fn parse_never_panics_on_anything(text in "\\PC{0,400}") {
        let _ = skilldeck::parse(&text);
    }

    #[test]
    fn plain_names_round_trip(name in "[a-z][a-z0-9-]{0,30}", desc in "[A-Za-z][A-Za-z ,.]{0,60}") {
        let text = format!("---\nname: {name}\ndescription: {desc}\n---\n");
        let parsed = skilldeck::parse(&text);
        prop_assert!(parsed.is_ok(), "{:?}", parsed.diagnostics);
        prop_assert_eq!(parsed.manifest.name.as_deref(), Some(name.as_str()));
        prop_assert_eq!(parsed.manifest.description.as_deref(), Some(desc.trim_end()));
    }

    #[test]
    fn read_frontmatter_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let path = dir.path().join("SKILL.md");
        std::fs::write(&path, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let parsed = skilldeck::read_frontmatter(&path);
        for d in &parsed.diagnostics {
            prop_assert_eq!(d.path.as_deref(), Some(path.as_path()));
        }
    }
}
