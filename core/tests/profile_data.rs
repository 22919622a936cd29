//! Host knowledge that lives in profile data: a custom profile file chooses its plugin
//! marker directories (and, in `filter.rs`'s tests, its settings files and semantics).

use skilldeck::{Deck, DeckOptions};
use std::collections::BTreeMap;

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn ids(profile: &str, root: &std::path::Path) -> Vec<String> {
    let file = root.join("profile.toml");
    std::fs::write(&file, profile).expect("profile");
    let deck = Deck::new(DeckOptions {
        profile_file: Some(file),
        project_dir: root.join("project"),
        home_dir: Some(root.join("home")),
        env: Some(BTreeMap::new()),
        system_root: Some(root.to_path_buf()),
        ..DeckOptions::default()
    })
    .expect("deck");
    let catalog = deck.load().expect("load");
    catalog.skills.iter().map(|s| s.id.to_string()).collect()
}

#[test]
fn a_custom_profile_names_its_plugin_markers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    write(
        &root,
        "project/skills/tools/.acme-plugin/plugin.json",
        r#"{"name": "acme"}"#,
    );
    write(
        &root,
        "project/skills/tools/skills/hello/SKILL.md",
        "---\nname: hello\ndescription: Say hello.\n---\nHi.\n",
    );
    std::fs::create_dir_all(root.join("home")).expect("home");
    let base = r#"name = "acme-host"
[[sources]]
scope = "project"
paths = ["{project}/skills"]
pattern = "**/SKILL.md"
"#;
    // The default markers do not know `.acme-plugin`: a plain skill.
    assert_eq!(ids(base, &root), ["hello"]);
    let with_marker = format!("plugin_markers = [\".acme-plugin\"]\n{base}");
    assert_eq!(ids(&with_marker, &root), ["acme:hello"]);
}
