//! `Deck::search` and `Deck::render` with a query, across reloads: the kept index follows
//! edits, additions and removals exactly as a fresh search of the new snapshot would.

use skilldeck::{Deck, DeckOptions, RenderFormat, RenderOptions, SearchOptions};
use std::collections::BTreeMap;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str, mtime: i64) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, text).expect("write");
    filetime::set_file_mtime(&path, filetime::FileTime::from_unix_time(mtime, 0)).expect("mtime");
}

fn skill(root: &Path, name: &str, description: &str, mtime: i64) {
    write(
        root,
        &format!("project/.agents/skills/{name}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"),
        mtime,
    );
}

fn ids(deck: &Deck, query: &str) -> Vec<String> {
    let options = SearchOptions {
        query: query.into(),
        ..SearchOptions::default()
    };
    let kept = deck.search(&options).expect("search");
    let fresh =
        skilldeck::search(&deck.catalog().expect("catalog"), &options).expect("fresh search");
    assert_eq!(kept, fresh, "the kept index ranks as a fresh one does");
    kept.hits.into_iter().map(|h| h.id).collect()
}

#[test]
fn the_kept_index_follows_reloads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    skill(&root, "pdf", "Fill PDF forms.", 1_000);
    skill(&root, "xlsx", "Edit spreadsheets.", 1_000);
    std::fs::create_dir_all(root.join("home")).expect("home");
    let deck = Deck::new(DeckOptions {
        project_dir: root.join("project"),
        home_dir: Some(root.join("home")),
        env: Some(BTreeMap::new()),
        system_root: Some(root.clone()),
        ..DeckOptions::default()
    })
    .expect("deck");
    deck.load().expect("load");
    assert_eq!(ids(&deck, "forms"), ["pdf"]);
    assert!(ids(&deck, "charts").is_empty());

    skill(&root, "xlsx", "Edit spreadsheets and charts.", 2_000);
    skill(&root, "deploy", "Deploy charts to the cluster.", 2_000);
    std::fs::remove_dir_all(root.join("project/.agents/skills/pdf")).expect("rm");
    deck.reload().expect("reload");
    assert_eq!(ids(&deck, "charts").len(), 2);
    assert!(ids(&deck, "forms").is_empty());

    let rendered = deck
        .render(&RenderOptions {
            format: RenderFormat::Markdown,
            query: Some("cluster".into()),
            ..RenderOptions::default()
        })
        .expect("render");
    assert_eq!(rendered.report.included, ["deploy"]);
    assert_eq!(rendered.report.omitted, ["xlsx"]);
}
