//! `Deck::load_summary` (what `skilldeck list` loads) must list exactly what a full one-shot
//! load lists, under every built-in profile: same skills in the same order, same statuses
//! (the filter reads manifest fields the summary keeps), same shadowed entries and catalog
//! diagnostics. Only the manifests beyond their description and the skills' warnings may
//! differ, and they must actually be dropped.

mod common;

use common::listing;
use skilldeck::{Deck, DeckOptions, Profile};
use std::collections::BTreeMap;
use std::path::Path;

/// Skill folders every built-in profile reads from one of (project or home).
const ROOTS: &[&str] = &[
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
    ".github/skills",
    ".opencode/skills",
    ".gemini/skills",
    ".qwen/skills",
    ".cursor/skills",
    ".goose/skills",
    ".openhands/skills",
    ".vibe/skills",
    ".kode/skills",
    ".clinerules/skills",
    ".copilot/skills",
    ".config/opencode/skills",
    ".config/goose/skills",
    ".skills",
];

/// (folder, frontmatter) for every kind of field the filter decides on.
const SKILLS: &[(&str, &str)] = &[
    ("plain", "name: plain\ndescription: A plain skill."),
    (
        "rich",
        "name: rich\ndescription: \"Rich: metadata and extra keys.\"\nlicense: MIT\nallowed-tools: Read Grep\nmetadata:\n  author: someone\n  version: \"1.2\"\nsource: community\ntags: [a, b]",
    ),
    ("off", "name: off\ndescription: Switched off.\nenabled: false"),
    ("frontmatter-off", "name: frontmatter-off\ndescription: Disabled in frontmatter.\ndisabled: true"),
    (
        "user-only",
        "name: user-only\ndescription: Only the user.\ndisable-model-invocation: true",
    ),
    (
        "model-only",
        "name: model-only\ndescription: Only the model.\nuser-invocable: false",
    ),
    ("other-os", "name: other-os\ndescription: Not here.\nos: [no-such-os]"),
    (
        "needs-bin",
        "name: needs-bin\ndescription: Needs a binary.\nrequires:\n  bins: [skilldeck-no-such-binary]\n  env: [SKILLDECK_NO_SUCH_VAR]",
    ),
    (
        "path-rule",
        "name: path-rule\ndescription: Only for some files.\npaths: [\"src/**\"]",
    ),
    ("Bad_Name", "name: Bad_Name\ndescription: A name some hosts refuse."),
    ("mismatch", "name: other-name\ndescription: Named unlike its folder."),
    ("broken", "name: broken\ndescription: [unclosed"),
];

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn tree(base: &Path) {
    for scope in ["project", "home"] {
        for root in ROOTS {
            for (dir, front) in SKILLS {
                let text = format!("---\n{front}\n---\n\n# {dir}\n\nBody of {dir}.\n");
                write(
                    &base.join(scope).join(root).join(dir).join("SKILL.md"),
                    &text,
                );
            }
        }
    }
    write(
        &base.join("project/.claude/commands/cmd.md"),
        "Run the command.\n",
    );
}

#[test]
fn summary_statuses_match_a_full_load() {
    let t = tempfile::tempdir().expect("tempdir");
    tree(t.path());
    let mut restricted = 0;
    for profile in Profile::builtin_names() {
        let options = DeckOptions {
            profile: profile.to_string(),
            project_dir: t.path().join("project"),
            home_dir: Some(t.path().join("home")),
            env: Some(BTreeMap::from([("PATH".into(), "/nonexistent".into())])),
            system_root: Some(t.path().join("system")),
            ..DeckOptions::default()
        };
        let deck = Deck::new(options).expect("deck");
        let full = deck.load_once().expect("load_once");
        let summary = deck.load_summary().expect("load_summary");
        assert_eq!(
            listing(&full),
            listing(&summary),
            "profile {profile}: the summary lists differently"
        );
        assert!(!full.skills.is_empty(), "profile {profile} loaded nothing");
        restricted += full
            .skills
            .iter()
            .filter(|s| !s.status.reasons.is_empty())
            .count();
        // What the summary drops is gone: no warnings, no fields beyond the filter's.
        for s in &summary.skills {
            assert!(
                s.diagnostics.is_empty(),
                "{profile}: {} kept warnings",
                s.id
            );
            assert!(s.manifest.metadata.is_empty() && s.manifest.license.is_none());
            assert!(s.manifest.allowed_tools.is_empty());
        }
        // The summary is not the deck's snapshot.
        let current = deck.catalog().expect("catalog");
        assert!(std::sync::Arc::ptr_eq(&current, &full), "{profile}");
    }
    // The tree exercises the filter: some skills are switched off, unlisted or unavailable.
    assert!(restricted > 0);
}
