//! MCP servers as a deck root (`McpDeckSource` + `Deck::add_remote_source`) against an
//! independent server that serves sound and broken skills (`fake_server.py`, raw JSON-RPC
//! over stdio): listed beside the local skills with their origin, refused entries as
//! diagnostics, found by search, subject to permission rules, fetched only on activation,
//! and content that fails verification rejected without reaching the cache.

use skilldeck_mcp::{McpDeckSource, ServerSpec};
use std::path::Path;
use std::sync::Arc;

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn fake_server() -> ServerSpec {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_server.py");
    ServerSpec::Command {
        program: "python3".into(),
        args: vec![script.to_string_lossy().into_owned()],
    }
}

/// A deck over one local skill, `alpha`, with `rules` (a JSON rules file's text, if any).
fn deck(dir: &Path, rules: Option<&str>) -> skilldeck::Deck {
    write(
        &dir.join("skills/alpha/SKILL.md"),
        b"---\nname: alpha\ndescription: The local alpha.\n---\nlocal\n",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let mut options = skilldeck::DeckOptions {
        project_dir: empty.clone(),
        home_dir: Some(empty),
        roots: vec![skilldeck::RootSpec::new(dir.join("skills"))],
        read_host_settings: false,
        ..Default::default()
    };
    if let Some(rules) = rules {
        let path = dir.join("rules.json");
        write(&path, rules.as_bytes());
        options.rules = Some(skilldeck::PermissionRules::from_file(&path).expect("rules"));
    }
    skilldeck::Deck::new(options).expect("deck")
}

#[test]
fn an_mcp_server_is_a_deck_root() {
    let tmp = tempfile::tempdir().expect("tmp");
    let deck = deck(tmp.path(), None);
    let cache = tmp.path().join("cache");
    let source = McpDeckSource::connect("fake", fake_server(), &cache).expect("connect");
    deck.add_remote_source(Arc::new(source));
    let catalog = deck.load().expect("load");

    let ids: Vec<&str> = catalog.listed().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "alpha",
            "fake:good",
            "fake:bad-digest",
            "fake:wrong-size",
            "fake:fm-mismatch",
            "fake:dynamic",
            "fake:alpha",
            "fake:team-a/same",
            "fake:team-b/same"
        ]
    );
    let good = catalog.get("fake:good").expect("good");
    assert_eq!(skilldeck::remote_label(good), Some("fake"));
    assert_eq!(good.source, Path::new("mcp://fake"));
    assert!(good.location.starts_with(cache.join("fake").join("good")));
    assert!(
        !good.location.exists(),
        "nothing is fetched before activation"
    );
    // A bare name never reaches across origins.
    assert_eq!(catalog.get("alpha").map(|s| s.id.as_str()), Some("alpha"));
    assert!(catalog.get("good").is_none());

    let codes = |code: &str| -> Vec<String> {
        catalog
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| d.message.to_string())
            .collect()
    };
    assert_eq!(
        codes("REMOTE_ENTRY_REFUSED").len(),
        6,
        "{:#?}",
        catalog.diagnostics
    );
    let collisions = codes("REMOTE_NAME_COLLISION");
    assert_eq!(collisions.len(), 2, "{collisions:?}");
    assert!(collisions
        .iter()
        .any(|m| m.contains("`alpha`, `fake:alpha`")));
    assert!(collisions
        .iter()
        .any(|m| m.contains("`fake:team-a/same`, `fake:team-b/same`")));

    let results = deck
        .search(&skilldeck::SearchOptions {
            query: "good".into(),
            limit: 5,
            ..Default::default()
        })
        .expect("search");
    assert_eq!(
        results.hits.first().map(|h| h.id.as_str()),
        Some("fake:good")
    );

    let activation = deck
        .activate("fake:good", &skilldeck::ActivateOptions::default())
        .expect("activate");
    assert!(
        activation
            .text
            .starts_with("Origin: MCP server `fake` (skill `fake:good`)."),
        "{}",
        activation.text
    );
    assert!(activation.text.contains("# good"), "{}", activation.text);
    // The skill's files are the manifest's, by URI at the server: the cache holds only
    // SKILL.md.
    assert_eq!(activation.resources, ["skill://good/notes/a.txt"]);
    assert!(
        activation.text.contains(
            "Files of this skill, read through the server `fake` (each verified against the skill's manifest when read):\n- skill://good/notes/a.txt\n"
        ),
        "{}",
        activation.text
    );

    // A generated skill activates with its frontmatter checked, and says it is unverifiable.
    let dynamic = catalog.get("fake:dynamic").expect("dynamic listed");
    assert!(dynamic
        .diagnostics
        .iter()
        .any(|d| d.code == "REMOTE_DYNAMIC"));
    let activation = deck
        .activate("fake:dynamic", &skilldeck::ActivateOptions::default())
        .expect("activate dynamic");
    assert!(
        activation.text.contains("none of it can be verified")
            && activation.text.contains("read number"),
        "{}",
        activation.text
    );
    assert!(activation.resources.is_empty());
    assert!(
        good.location.exists(),
        "verified SKILL.md cached on activation"
    );

    for (id, why, code) in [
        ("fake:bad-digest", "digest", "REMOTE_DIGEST_MISMATCH"),
        ("fake:wrong-size", "bytes", "REMOTE_SIZE_MISMATCH"),
        (
            "fake:fm-mismatch",
            "frontmatter differs",
            "REMOTE_FRONTMATTER_MISMATCH",
        ),
    ] {
        let err = deck
            .activate(id, &skilldeck::ActivateOptions::default())
            .expect_err(id);
        assert_eq!(err.code(), code, "{id}: {err}");
        assert!(err.to_string().contains("reload the deck"), "{id}: {err}");
        assert!(
            err.to_string().contains("verification failed"),
            "{id}: {err}"
        );
        assert!(err.to_string().contains(why), "{id}: {err}");
        let skill = catalog.get(id).expect("listed");
        assert!(!skill.location.exists(), "{id}: unverified content cached");
    }
}

#[test]
fn permission_rules_apply_to_remote_skills() {
    let tmp = tempfile::tempdir().expect("tmp");
    let deck = deck(
        tmp.path(),
        Some(
            r#"{"semantics": "last-match", "rules": [{"pattern": "*", "decision": "allow"}, {"pattern": "fake:team-*", "decision": "deny"}, {"pattern": "fake:good", "decision": "ask"}]}"#,
        ),
    );
    let source =
        McpDeckSource::connect("fake", fake_server(), &tmp.path().join("cache")).expect("connect");
    deck.add_remote_source(Arc::new(source));
    let catalog = deck.load().expect("load");
    let listed: Vec<&str> = catalog.listed().map(|s| s.id.as_str()).collect();
    assert!(!listed.contains(&"fake:team-a/same"), "{listed:?}");
    assert!(listed.contains(&"fake:good"));
    let denied = deck
        .activate("fake:team-a/same", &skilldeck::ActivateOptions::default())
        .expect_err("denied");
    assert!(
        matches!(
            denied,
            skilldeck::Error::PermissionDenied { .. } | skilldeck::Error::NotFound { .. }
        ),
        "{denied}"
    );
    let asked = deck
        .activate("fake:good", &skilldeck::ActivateOptions::default())
        .expect("ask still activates, marked");
    assert_eq!(asked.permission, skilldeck::Decision::Ask);
    assert!(asked.text.contains("Origin: MCP server `fake`"));
}

#[test]
fn a_label_that_cannot_name_a_server_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let err = McpDeckSource::connect("a/b", fake_server(), tmp.path())
        .err()
        .expect("refused");
    assert!(err.to_string().contains("label"), "{err}");
}
