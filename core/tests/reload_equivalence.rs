//! A reload must give exactly what a fresh deck loads from the same tree, whichever way it
//! got there: nothing re-read, a patch of the edited files, the previous walk with every
//! file re-read, or a full discovery. Each step edits the tree, reloads a long-lived deck
//! and compares its snapshot with a new deck's.

use skilldeck::{Catalog, Deck, DeckOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Tree {
    dir: tempfile::TempDir,
    /// Distinct, increasing mtimes: two writes within the file system's timer tick would
    /// otherwise look unchanged to any stat-based check.
    clock: i64,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            dir: tempfile::tempdir().expect("tempdir"),
            clock: 1_900_000_000,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&mut self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        self.clock += 10;
        let t = filetime::FileTime::from_unix_time(self.clock, 0);
        filetime::set_file_mtime(&path, t).expect("mtime");
    }

    fn skill(&mut self, rel: &str, name: &str, description: &str, extra: &str) {
        let text = format!(
            "---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}.\n"
        );
        self.write(&format!("{rel}/SKILL.md"), &text);
    }

    fn options(&self, profile: &str) -> DeckOptions {
        let home = self.path("home");
        DeckOptions {
            profile: profile.to_string(),
            project_dir: self.path("project"),
            home_dir: Some(home.clone()),
            env: Some(BTreeMap::from([
                ("HOME".into(), home.clone().into_os_string()),
                ("PATH".into(), "/usr/bin:/bin".into()),
            ])),
            system_root: Some(self.dir.path().to_path_buf()),
            ..DeckOptions::default()
        }
    }
}

fn fresh(tree: &Tree, profile: &str) -> Arc<Catalog> {
    Deck::new(tree.options(profile))
        .and_then(|d| d.load())
        .expect("fresh load")
}

/// Reload `deck` and check it against a fresh deck; returns the new snapshot.
fn reload_matches(deck: &Deck, tree: &Tree, profile: &str, step: &str) -> Arc<Catalog> {
    let before = deck.catalog().expect("catalog");
    let diff = deck.reload().expect("reload");
    let after = deck.catalog().expect("catalog");
    let expected = fresh(tree, profile);
    assert_eq!(
        *after, *expected,
        "{step}: reload differs from a fresh load"
    );
    // The diff names exactly the ids whose skills differ.
    let expected_diff = skilldeck::Diff::between(&before, &expected);
    assert_eq!(diff, expected_diff, "{step}: diff");
    after
}

fn shared(a: &Catalog, b: &Catalog, id: &str) -> bool {
    let find = |c: &Catalog| c.skills.iter().find(|s| s.id == id).cloned();
    match (find(a), find(b)) {
        (Some(x), Some(y)) => Arc::ptr_eq(&x, &y),
        _ => false,
    }
}

fn populate(tree: &mut Tree) {
    tree.skill(
        "project/.agents/skills/alpha",
        "alpha",
        "Alpha, project.",
        "",
    );
    tree.skill("home/.agents/skills/alpha", "alpha", "Alpha, user.", "");
    tree.skill("project/.agents/skills/beta", "beta", "Beta.", "");
    tree.skill("project/.claude/skills/gamma", "gamma", "Gamma.", "");
    tree.write(
        "project/.agents/skills/broken/SKILL.md",
        "---\nname: [broken\n---\n",
    );
    tree.write(
        "project/.agents/skills/plug/.claude-plugin/plugin.json",
        "{\"name\": \"pl\"}",
    );
    tree.skill(
        "project/.agents/skills/plug/skills/delta",
        "delta",
        "Delta.",
        "",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        tree.path("project/.claude/skills/gamma"),
        tree.path("project/.agents/skills/gamma-link"),
    )
    .expect("symlink");
}

/// A populated tree and a deck on it (nothing loaded yet).
fn populated(profile: &str) -> (Tree, Deck) {
    let mut tree = Tree::new();
    populate(&mut tree);
    let deck = Deck::new(tree.options(profile)).expect("deck");
    (tree, deck)
}

#[test]
fn every_reload_path_matches_a_fresh_load() {
    let profile = "universal";
    let (mut tree, deck) = populated(profile);
    let first = deck.load().expect("load");
    assert_eq!(*first, *fresh(&tree, profile));
    assert!(first.get("alpha").is_some() && first.get("pl:delta").is_some());

    // Nothing changed: same snapshot from load(), an empty diff from reload().
    assert!(Arc::ptr_eq(&first, &deck.load().expect("load")));
    let same = reload_matches(&deck, &tree, profile, "no change");
    assert!(shared(&first, &same, "beta"));

    // An in-place description edit: patched, every other skill shared.
    tree.skill("project/.agents/skills/beta", "beta", "Beta, edited.", "");
    let patched = reload_matches(&deck, &tree, profile, "description edit");
    assert_eq!(
        patched.get("beta").map(|s| s.description()),
        Some("Beta, edited.")
    );
    assert!(
        shared(&same, &patched, "alpha"),
        "an unrelated skill was rebuilt"
    );

    // Frontmatter that changes the status (filter stage) rather than the listing.
    tree.skill(
        "project/.agents/skills/beta",
        "beta",
        "Beta.",
        "disable-model-invocation: true\nrequires:\n  bins: [surely-not-installed-here]\n",
    );
    let status = reload_matches(&deck, &tree, profile, "status edit");
    let beta = status.get("beta").expect("beta");
    assert!(!beta.status.model_invocable && !beta.status.available);

    // A plugin skill and the user-scope loser of a clash.
    tree.skill(
        "project/.agents/skills/plug/skills/delta",
        "delta",
        "Delta 2.",
        "",
    );
    reload_matches(&deck, &tree, profile, "plugin skill edit");
    tree.skill(
        "home/.agents/skills/alpha",
        "alpha",
        "Alpha, user, edited.",
        "",
    );
    reload_matches(&deck, &tree, profile, "shadowed skill edit");

    // Edits that change names, clashes or loadability cannot be patched.
    tree.skill("project/.agents/skills/alpha", "alpha-two", "Renamed.", "");
    reload_matches(&deck, &tree, profile, "rename");
    tree.skill("project/.agents/skills/alpha", "alpha", "Back.", "");
    reload_matches(&deck, &tree, profile, "rename back");
    tree.skill("project/.agents/skills/broken", "broken", "Fixed.", "");
    reload_matches(&deck, &tree, profile, "fix a broken skill");
    tree.write("project/.agents/skills/beta/SKILL.md", "---\nname: beta\n");
    reload_matches(&deck, &tree, profile, "break a skill");

    // A file reached twice through a link: both walked paths change together.
    tree.skill("project/.claude/skills/gamma", "gamma", "Gamma 2.", "");
    reload_matches(&deck, &tree, profile, "linked skill edit");

    // Several files at once, then a new directory, then a removal.
    tree.skill("project/.agents/skills/beta", "beta", "Beta 3.", "");
    tree.skill("project/.claude/skills/gamma", "gamma", "Gamma 3.", "");
    reload_matches(&deck, &tree, profile, "two edits");
    tree.skill("project/.agents/skills/epsilon", "epsilon", "New.", "");
    reload_matches(&deck, &tree, profile, "new skill");
    std::fs::remove_dir_all(tree.path("project/.agents/skills/epsilon")).expect("rm");
    reload_matches(&deck, &tree, profile, "removed skill");

    // The plugin's manifest renames its namespace.
    tree.write(
        "project/.agents/skills/plug/.claude-plugin/plugin.json",
        "{\"name\": \"pl2\"}",
    );
    let renamed = reload_matches(&deck, &tree, profile, "plugin renamed");
    assert!(renamed.get("pl2:delta").is_some());
}

#[test]
fn load_after_edits_matches_a_fresh_load_in_every_profile() {
    for profile in ["universal", "claude-code", "codex", "opencode", "kode"] {
        let mut tree = Tree::new();
        populate(&mut tree);
        tree.skill("project/.claude/skills/dup", "same", "One.", "");
        tree.skill("project/.agents/skills/dup", "same", "Two.", "");
        let deck = Deck::new(tree.options(profile)).expect("deck");
        deck.load().expect("load");
        for (step, description) in ["First.", "Second, longer.", "Third."].iter().enumerate() {
            tree.skill("project/.claude/skills/dup", "same", description, "");
            tree.skill("project/.claude/skills/gamma", "gamma", description, "");
            let loaded = deck.load().expect("load");
            assert_eq!(
                *loaded,
                *fresh(&tree, profile),
                "{profile}, step {step}: load() after edits differs from a fresh load"
            );
        }
    }
}

#[test]
fn host_settings_edits_are_noticed_without_a_reload() {
    let profile = "claude-code";
    let mut tree = Tree::new();
    tree.skill("project/.claude/skills/beta", "beta", "Beta.", "");
    let deck = Deck::new(tree.options(profile)).expect("deck");
    let first = deck.load().expect("load");
    assert!(first.get("beta").is_some_and(|s| s.status.enabled));
    tree.write(
        "project/.claude/settings.json",
        "{\"skillOverrides\": {\"beta\": \"off\"}}",
    );
    let second = deck.load().expect("load");
    assert!(
        second.get("beta").is_some_and(|s| !s.status.enabled),
        "a settings change must invalidate the snapshot"
    );
    assert_eq!(*second, *fresh(&tree, profile));
}

#[test]
fn a_vanished_root_and_its_return_are_noticed() {
    let profile = "universal";
    let mut tree = Tree::new();
    tree.skill("project/.agents/skills/beta", "beta", "Beta.", "");
    let deck = Deck::new(tree.options(profile)).expect("deck");
    deck.load().expect("load");
    let root: &Path = &tree.path("project/.agents");
    std::fs::rename(root, tree.path("project/.agents-away")).expect("move away");
    assert!(deck.load().expect("load").skills.is_empty());
    std::fs::rename(tree.path("project/.agents-away"), root).expect("move back");
    tree.skill("project/.agents/skills/beta", "beta", "Beta again.", "");
    reload_matches(&deck, &tree, profile, "root back");
}

#[test]
fn a_one_shot_load_equals_a_load_and_later_loads_start_over() {
    let profile = "universal";
    let (mut tree, deck) = populated(profile);
    let once = deck.load_once().expect("load_once");
    assert_eq!(*once, *fresh(&tree, profile));
    // Nothing was kept to compare with, so the next load discovers again, and sees edits.
    tree.skill("project/.agents/skills/beta", "beta", "Beta, after.", "");
    let later = deck.load().expect("load");
    assert!(!Arc::ptr_eq(&once, &later));
    assert_eq!(*later, *fresh(&tree, profile));
    reload_matches(&deck, &tree, profile, "reload after a one-shot load");
}

/// One edit of a small tree, picked at random below.
#[derive(Clone, Debug)]
enum Edit {
    /// Rewrite skill `slot` with a new description (the same name).
    Describe(usize, u8),
    /// Give skill `slot` another name (a clash with another slot is possible).
    Rename(usize, usize),
    /// Turn the frontmatter of `slot` into invalid YAML.
    Break(usize),
    /// Add `disable-model-invocation` and an unmet requirement to `slot`.
    Restrict(usize),
    /// Delete the skill directory of `slot`.
    Remove(usize),
    /// Switch skill name `slot` off (or on again) in Claude Code's settings.
    Override(usize, bool),
    /// Rename the plugin.
    Plugin(u8),
}

/// Skill directories the edits play with: project, user, a plugin, and a nested one.
const SLOTS: [&str; 6] = [
    "project/.agents/skills/a",
    "project/.agents/skills/b",
    "project/.claude/skills/c",
    "home/.agents/skills/a",
    "project/.agents/skills/plug/skills/d",
    "project/.agents/skills/b/inner",
];
const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn edit() -> impl proptest::strategy::Strategy<Value = Edit> {
    use proptest::prelude::*;
    let slot = 0..SLOTS.len();
    prop_oneof![
        4 => (slot.clone(), any::<u8>()).prop_map(|(s, d)| Edit::Describe(s, d)),
        2 => (slot.clone(), 0..NAMES.len()).prop_map(|(s, n)| Edit::Rename(s, n)),
        1 => slot.clone().prop_map(Edit::Break),
        1 => slot.clone().prop_map(Edit::Restrict),
        1 => slot.clone().prop_map(Edit::Remove),
        2 => (0..NAMES.len(), any::<bool>()).prop_map(|(n, on)| Edit::Override(n, on)),
        1 => any::<u8>().prop_map(Edit::Plugin),
    ]
}

fn apply(tree: &mut Tree, edit: &Edit) {
    match edit {
        Edit::Describe(slot, d) => {
            let name = NAMES[*slot % NAMES.len()];
            tree.skill(SLOTS[*slot], name, &format!("Revision {d}."), "");
        }
        Edit::Rename(slot, n) => tree.skill(SLOTS[*slot], NAMES[*n], "Renamed.", ""),
        Edit::Break(slot) => {
            tree.write(
                &format!("{}/SKILL.md", SLOTS[*slot]),
                "---\nname: [x\n---\n",
            );
        }
        Edit::Restrict(slot) => tree.skill(
            SLOTS[*slot],
            NAMES[*slot % NAMES.len()],
            "Restricted.",
            "disable-model-invocation: true\nrequires:\n  bins: [surely-not-installed-here]\n",
        ),
        Edit::Remove(slot) => {
            let _ = std::fs::remove_dir_all(tree.path(SLOTS[*slot]));
        }
        Edit::Override(n, on) => {
            let state = if *on { "on" } else { "off" };
            tree.write(
                "project/.claude/settings.json",
                &format!("{{\"skillOverrides\": {{\"{}\": \"{state}\"}}}}", NAMES[*n]),
            );
        }
        Edit::Plugin(v) => tree.write(
            "project/.agents/skills/plug/.claude-plugin/plugin.json",
            &format!("{{\"name\": \"pl{}\"}}", v % 3),
        ),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever sequence of edits, a long-lived deck's `load()` or `reload()` equals a fresh
    /// deck's load of the same tree.
    #[test]
    fn random_edits_keep_a_long_lived_deck_exact(
        profile in proptest::sample::select(vec!["universal", "claude-code", "codex"]),
        edits in proptest::collection::vec((edit(), proptest::prelude::any::<bool>()), 1..8),
    ) {
        let mut tree = Tree::new();
        for (slot, dir) in SLOTS.iter().enumerate() {
            tree.skill(dir, NAMES[slot % NAMES.len()], "Initial.", "");
        }
        tree.write("project/.agents/skills/plug/.claude-plugin/plugin.json", "{\"name\": \"pl\"}");
        let deck = Deck::new(tree.options(profile)).expect("deck");
        deck.load().expect("load");
        for (step, (edit, use_reload)) in edits.iter().enumerate() {
            apply(&mut tree, edit);
            let got = if *use_reload {
                deck.reload().expect("reload");
                deck.catalog().expect("catalog")
            } else {
                deck.load().expect("load")
            };
            let expected = fresh(&tree, profile);
            proptest::prop_assert_eq!(
                &*got, &*expected,
                "{} after step {} ({:?}) of {:?}", profile, step, edit, edits
            );
        }
    }
}
