//! Regroup: bring a resolved catalog up to date when only skill files changed in place (no
//! directory, plugin manifest or settings file did) but [`super::patch`] cannot take the
//! change: a changed file's skill lost a name clash, or changed its name, or now wins or
//! loses. Re-reads just the changed files and settles again only the names they had and
//! have, from the cache entries of the other files holding those names; every other skill
//! and shadowed entry is kept.
//!
//! Resolve settles each name on its own (the candidates holding it, in walk order), so
//! settling the touched names again over those candidates alone gives what a full discovery
//! gives for them; the rest of the catalog cannot differ. That holds only where nothing
//! links names to each other or files to files, so anything else returns `None` and the
//! caller runs the full discovery: profiles with loose files (their groups), `keep-all`
//! (ambiguity flags), nested roots (their ids depend on every winner), canonical locations
//! (the walk order is then not the locations' order), a root emptied by a failing file, a
//! changed file reached through two paths, a changed file that fails to load before or
//! after (its diagnostics would move), or a catalog with skills from remote sources.

use super::candidates::{self, Candidate};
use super::patch::{reread, Patched, Reread, MAX_FILES};
use super::plugin::Plugins;
use super::profile::{Clash, Order, Profile};
use super::walk::{cmp_paths, WalkedFile};
use super::{resolve, WalkLayout};
use crate::cache::{CachedParse, FileStamps, ParseCache};
use crate::catalog::{Catalog, Skill};
use crate::shared_path::SharedPath;
use std::cmp::Ordering;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Regroup `previous` (the last snapshot, filtered or not) for the files of `layout` at the
/// flattened-walk indices `changed`; `files` are the walked files' stamps as of `previous`.
/// Updates `cache` only when the result is taken.
pub fn regroup(
    profile: &Profile,
    layout: &WalkLayout,
    files: &FileStamps,
    previous: &Catalog,
    changed: &[usize],
    cache: &mut ParseCache,
) -> Option<Patched> {
    if changed.is_empty()
        || changed.len() > MAX_FILES
        || profile.loose.is_some()
        || profile.clash == Clash::KeepAll
        || profile.canonical_locations
        || layout.roots.iter().any(|r| r.nested_marker.is_some())
        || previous
            .diagnostics
            .iter()
            .any(|d| d.code == candidates::ROOT_REFUSED)
    {
        return None;
    }
    let plugins = {
        let mut plugins = Plugins::new(profile.plugin_markers.clone());
        plugins.mark(layout.plugin_dirs.iter().cloned());
        Mutex::new(plugins)
    };
    let by_bytes = profile.order == Order::PrecedencePathBytes;
    // Resolve's shadowed entries come first, then the files reached twice (never touched here).
    let resolved_losers = previous
        .shadowed
        .iter()
        .position(|s| s.reason == candidates::SAME_FILE_REASON)
        .unwrap_or(previous.shadowed.len());

    let mut names: Vec<String> = Vec::new();
    let mut changed_locations: Vec<SharedPath> = Vec::with_capacity(changed.len());
    let mut fresh: Vec<(usize, usize, &WalkedFile, Arc<CachedParse>, Candidate)> = Vec::new();
    let mut stamps = Vec::with_capacity(changed.len());
    for &index in changed {
        let read = reread(profile, layout, cache, index)?;
        let identity = (read.new_stamp.device, read.new_stamp.inode);
        if !read.same_file() || files.identity_elsewhere(index, identity) {
            return None;
        }
        let Reread {
            root_index,
            root,
            found,
            old_entry,
            new_stamp,
            new_entry,
        } = read;
        let old = candidates::candidate(profile, root, found, &old_entry, &plugins)
            .ok()
            .flatten()?;
        let new = candidates::candidate(profile, root, found, &new_entry, &plugins)
            .ok()
            .flatten()?;
        let was_listed = previous
            .skills
            .iter()
            .any(|s| s.id == old.id && same(&s.location, &old.location))
            || previous.shadowed[..resolved_losers]
                .iter()
                .any(|s| s.id == old.id && same(&s.location, &old.location));
        if !was_listed || changed_locations.iter().any(|l| same(l, &old.location)) {
            return None;
        }
        for id in [&old.id, &new.id] {
            let key = group_key(profile, id);
            if !names.iter().any(|n| *n == key) {
                names.push(key.into_owned());
            }
        }
        changed_locations.push(old.location);
        stamps.push((index, Some(new_stamp)));
        fresh.push((index, root_index, found, new_entry, new));
    }
    // A few names at most: a scan beats hashing every id of the catalog.
    let touched = |id: &str| {
        if profile.clash_fold_case {
            let key = id.to_lowercase();
            names.contains(&key)
        } else {
            names.iter().any(|n| n == id)
        }
    };

    // Every candidate holding a touched name: the changed files' new ones, and the others'
    // as their (unchanged) cache entries name them.
    let mut members: Vec<Member> = Vec::new();
    let others = previous
        .skills
        .iter()
        .map(|s| (&s.id, &s.location, Some(s)))
        .chain(
            previous.shadowed[..resolved_losers]
                .iter()
                .map(|s| (&s.id, &s.location, None)),
        );
    for (id, location, skill) in others {
        if !touched(id) || changed_locations.iter().any(|l| same(l, location)) {
            continue;
        }
        let (index, root_index, found) = locate(layout, location)?;
        let root = layout.roots.get(root_index)?;
        let entry = cache.entry(&found.path)?.clone();
        let candidate = candidates::candidate(profile, root, found, &entry, &plugins)
            .ok()
            .flatten()
            .filter(|c| c.id == *id)?;
        members.push(Member {
            index,
            root: root_index,
            found,
            slim: entry.is_slim(),
            entry,
            candidate: Some(candidate),
            skill: skill.cloned(),
        });
    }
    for (index, root_index, found, entry, candidate) in fresh {
        members.push(Member {
            index,
            root: root_index,
            found,
            slim: false,
            entry,
            candidate: Some(candidate),
            skill: None,
        });
    }
    members.sort_by_key(|m| m.index);
    if members.windows(2).any(|w| w[0].index == w[1].index) {
        return None;
    }

    let candidates: Vec<Candidate> = members
        .iter_mut()
        .filter_map(|m| m.candidate.take())
        .collect();
    let (won, lost) = resolve::resolve(profile, candidates);

    // The winners as a full discovery gives them: a winner that was one before and did
    // not change is the previous snapshot's skill; one named from a slim cache entry is
    // read whole again (as `settle_slim` does).
    let mut updates: Vec<(&Path, Arc<CachedParse>)> = Vec::new();
    let mut winners: Vec<Arc<Skill>> = Vec::with_capacity(won.len());
    for skill in won {
        let member = members
            .iter()
            .find(|m| same(&m.entry.location, &skill.location))?;
        if let Some(before) = &member.skill {
            winners.push(Arc::clone(before));
        } else if member.slim {
            let root = layout.roots.get(member.root)?;
            let whole = candidates::read_fresh(member.root, member.found, profile)?;
            let candidate = candidates::candidate(profile, root, member.found, &whole, &plugins)
                .ok()
                .flatten()
                .filter(|c| c.id == skill.id && c.location == skill.location)?;
            winners.push(Arc::new(resolve::into_skill(candidate, false)));
            updates.push((&member.found.path, whole));
        } else {
            winners.push(skill);
        }
    }
    // The cache as a full discovery leaves it: whole entries for the changed files that
    // win, slim ones for every file that lost (`settle_slim`).
    for member in &members {
        let loses = lost
            .iter()
            .any(|s| same(&s.location, &member.entry.location));
        if loses && !member.slim {
            let slim = candidates::slim(profile, &member.entry);
            updates.push((&member.found.path, Arc::new(slim)));
        } else if !loses
            && changed_locations
                .iter()
                .any(|l| same(l, &member.entry.location))
        {
            updates.push((&member.found.path, Arc::clone(&member.entry)));
        }
    }

    let mut failed = false;
    let mut position = |location: &Path| match locate(layout, location) {
        Some((index, root, _)) => Position {
            index,
            root,
            bytes_order: by_bytes,
        },
        None => {
            failed = true;
            Position::default()
        }
    };
    let skills = merge(
        &previous.skills,
        |s| touched(&s.id),
        |a, b| a.id == b.id && same(&a.location, &b.location),
        winners,
        |a, b| skill_order(profile, a, b, &mut position) == Ordering::Less,
    );
    let mut shadowed = merge(
        &previous.shadowed[..resolved_losers],
        |s| touched(&s.id),
        |a, b| a.id == b.id && same(&a.location, &b.location),
        lost,
        |a, b| {
            let (pa, pb) = (position(&a.location), position(&b.location));
            pa.cmp_at(&pb, &a.location, &b.location) == Ordering::Less
        },
    );
    shadowed.extend_from_slice(&previous.shadowed[resolved_losers..]);
    let catalog = Catalog {
        profile: previous.profile.clone(),
        skills,
        shadowed,
        diagnostics: previous.diagnostics.clone(),
    };
    if failed {
        return None;
    }
    for (path, entry) in updates {
        cache.insert(path, entry);
    }
    Some(Patched { catalog, stamps })
}

/// `previous` without its touched entries, and `new` (in order) merged in: an entry of `new`
/// that a touched entry was too (`same_slot`: same id and location, so the same keys in
/// every order) takes its place, the others go where `precedes` puts them. Copies each
/// kept entry once, and searches only for the entries that are new.
fn merge<T: Clone>(
    previous: &[T],
    touched: impl Fn(&T) -> bool,
    same_slot: impl Fn(&T, &T) -> bool,
    new: Vec<T>,
    mut precedes: impl FnMut(&T, &T) -> bool,
) -> Vec<T> {
    let mut new: Vec<Option<T>> = new.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(previous.len() + new.len());
    for item in previous {
        if !touched(item) {
            out.push(item.clone());
        } else if let Some(slot) = new
            .iter_mut()
            .find(|n| n.as_ref().is_some_and(|n| same_slot(n, item)))
        {
            out.extend(slot.take());
        }
    }
    for item in new.into_iter().flatten() {
        let at = out.partition_point(|o| precedes(o, &item));
        out.insert(at, item);
    }
    out
}

/// A candidate of a touched name.
struct Member<'a> {
    /// Its place in the flattened walk, and its root.
    index: usize,
    root: usize,
    found: &'a WalkedFile,
    entry: Arc<CachedParse>,
    slim: bool,
    candidate: Option<Candidate>,
    /// The previous snapshot's skill when it won then and its file did not change.
    skill: Option<Arc<Skill>>,
}

/// The key resolve groups candidates by.
fn group_key<'a>(profile: &Profile, id: &'a str) -> std::borrow::Cow<'a, str> {
    if profile.clash_fold_case {
        std::borrow::Cow::Owned(id.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(id)
    }
}

/// A candidate's place in resolve's input order: the walk order, or with
/// `precedence-path-bytes` each root's files by the bytes of their paths.
#[derive(Default)]
struct Position {
    index: usize,
    root: usize,
    bytes_order: bool,
}

impl Position {
    fn cmp_at(&self, other: &Position, a: &Path, b: &Path) -> Ordering {
        if self.bytes_order {
            self.root.cmp(&other.root).then_with(|| {
                a.as_os_str()
                    .as_encoded_bytes()
                    .cmp(b.as_os_str().as_encoded_bytes())
            })
        } else {
            self.index.cmp(&other.index)
        }
    }
}

/// The order resolve puts winners in (`profile.order`).
fn skill_order(
    profile: &Profile,
    a: &Skill,
    b: &Skill,
    position: &mut impl FnMut(&Path) -> Position,
) -> Ordering {
    let (pa, pb) = (position(&a.location), position(&b.location));
    let input = pa.cmp_at(&pb, &a.location, &b.location);
    match profile.order {
        Order::Precedence | Order::PrecedencePathBytes => input,
        Order::Id => a.id.cmp(&b.id).then(input),
        Order::ScopeNamePath => (profile.scope_rank(a.scope), a.id.as_str(), &*a.location).cmp(&(
            profile.scope_rank(b.scope),
            b.id.as_str(),
            &*b.location,
        )),
    }
}

/// The walked file at `location`: its flattened-walk index, root index and entry, in the
/// first root that walked it. Only the roots whose path is a prefix of it are searched.
fn locate<'a>(layout: &'a WalkLayout, location: &Path) -> Option<(usize, usize, &'a WalkedFile)> {
    let bytes = location.as_os_str().as_encoded_bytes();
    let mut offset = 0;
    for (root, files) in &layout.walked {
        let below = layout.roots.get(*root).is_none_or(|r| {
            let prefix = r.path.as_os_str().as_encoded_bytes();
            bytes.starts_with(prefix)
        });
        if below {
            if let Ok(i) = files.binary_search_by(|f| cmp_paths(&f.path, location)) {
                return Some((offset + i, *root, &files[i]));
            }
        }
        offset += files.len();
    }
    None
}

/// Whether two locations are the same path. Both come from one walk, which spells a path
/// one way, so their bytes decide (`Path`'s `==` compares component by component).
fn same(a: &Path, b: &Path) -> bool {
    a.as_os_str() == b.as_os_str()
}

#[cfg(test)]
mod tests {
    use crate::catalog::{Catalog, Scope};
    use crate::options::{DeckOptions, RootSpec};
    use crate::Deck;
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, UNIX_EPOCH};

    /// Every write gets a later mtime than the last, so a rewrite is always seen even when
    /// its size does not change.
    fn write(path: &Path, text: &str) {
        static TICK: AtomicU64 = AtomicU64::new(1_000_000);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
        let at = UNIX_EPOCH + Duration::from_secs(TICK.fetch_add(1, Ordering::Relaxed));
        std::fs::File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_modified(at))
            .expect("set mtime");
    }

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\nlicense: MIT\n---\nBody.\n")
    }

    /// Three extra roots below `t` (`r1` project scope, `r2` and `r3` user scope), in
    /// precedence order.
    fn deck(t: &Path, profile: &str) -> Deck {
        let root = |name: &str, scope: Scope| RootSpec {
            path: t.join(name),
            scope,
            pattern: None,
        };
        Deck::new(DeckOptions {
            profile: profile.to_string(),
            project_dir: t.join("project"),
            home_dir: Some(t.join("home")),
            env: Some(BTreeMap::new()),
            system_root: Some(t.to_path_buf()),
            roots: vec![
                root("r1", Scope::Project),
                root("r2", Scope::User),
                root("r3", Scope::User),
            ],
            ..DeckOptions::default()
        })
        .expect("deck")
    }

    struct Tree {
        dir: tempfile::TempDir,
        profile: &'static str,
        deck: Deck,
    }

    impl Tree {
        /// `a` in every root, `b` in `r2` and `r3`, `a-b` (whose path sorts before `a/` by
        /// bytes) in `r1` and `r3`, and the lone `c`.
        fn new(profile: &'static str) -> Tree {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::create_dir_all(dir.path().join("project")).expect("project");
            for (rel, name) in [
                ("r1/a", "a"),
                ("r1/a-b", "a-b"),
                ("r2/a", "a"),
                ("r2/b", "b"),
                ("r3/a", "a"),
                ("r3/a-b", "a-b"),
                ("r3/b", "b"),
                ("r3/c", "c"),
            ] {
                write(
                    &dir.path().join(rel).join("SKILL.md"),
                    &skill(name, &format!("{rel} first")),
                );
            }
            let deck = deck(dir.path(), profile);
            let first = deck.load().expect("load");
            // `keep-all` shadows nothing.
            assert!(
                !first.shadowed.is_empty() || profile == "codex",
                "{profile}: names clash"
            );
            Tree { dir, profile, deck }
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.dir.path().join(rel).join("SKILL.md")
        }

        /// Reload after `change`, and compare with a fresh deck's cold load. Returns whether
        /// the untouched skill `c` is still the previous snapshot's (no full discovery).
        fn reload_after(&self, what: &str, change: impl FnOnce(&Tree)) -> bool {
            let before = self.deck.load().expect("load");
            change(self);
            self.deck.reload().expect("reload");
            let now = self.deck.load().expect("load");
            let cold = deck(self.dir.path(), self.profile).load().expect("load");
            assert_catalogs_equal(&now, &cold, &format!("{}: {what}", self.profile));
            let again = self.deck.load().expect("load");
            assert!(Arc::ptr_eq(&now, &again), "{what}: nothing changed since");
            match (before.get("c"), now.get("c")) {
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                _ => false,
            }
        }
    }

    fn assert_catalogs_equal(got: &Catalog, want: &Catalog, what: &str) {
        let ids = |c: &Catalog| c.skills.iter().map(|s| s.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(got), ids(want), "{what}: skills and their order");
        for (g, w) in got.skills.iter().zip(&want.skills) {
            assert_eq!(g, w, "{what}: skill {}", w.id);
        }
        assert_eq!(got.shadowed, want.shadowed, "{what}: shadowed");
        assert_eq!(got.diagnostics, want.diagnostics, "{what}: diagnostics");
        assert_eq!(got, want, "{what}");
    }

    /// A change to the tree, made between two loads.
    type Change = Box<dyn Fn(&Tree)>;

    /// Each kind of in-place change, on profiles of every clash rule and order regrouping
    /// takes, compared with a cold load after each; `fast` says which changes must not cost
    /// a full discovery.
    fn every_change(profile: &'static str, fast: bool) {
        let tree = Tree::new(profile);
        let edits: Vec<(&str, Change, bool)> = vec![
            (
                "a shadowed file edited, still losing",
                Box::new(|t| write(&t.path("r2/a"), &skill("a", "edited"))),
                true,
            ),
            (
                "a shadowed file renamed to a new name, now winning",
                Box::new(|t| {
                    write(
                        &t.path("r3/a"),
                        &skill("a", "now x").replace("name: a", "name: x"),
                    )
                }),
                true,
            ),
            (
                "a shadowed file renamed into another clash",
                Box::new(|t| write(&t.path("r3/a-b"), &skill("b", "now b"))),
                true,
            ),
            (
                "a winner renamed so that it loses, the next one wins from a slim entry",
                Box::new(|t| write(&t.path("r1/a"), &skill("b", "now b"))),
                true,
            ),
            (
                "a shadowed file renamed so that it wins its new name",
                Box::new(|t| write(&t.path("r2/a"), &skill("a-b", "r2 a-b"))),
                true,
            ),
            (
                "a shadowed file that breaks",
                Box::new(|t| write(&t.path("r2/b"), "---\nname: [b\n---\n")),
                false,
            ),
            (
                "the broken file fixed",
                Box::new(|t| write(&t.path("r2/b"), &skill("b", "fixed"))),
                false,
            ),
            (
                "two files edited at once",
                Box::new(|t| {
                    write(&t.path("r1/a"), &skill("a", "back"));
                    write(&t.path("r3/a"), &skill("a", "back"));
                }),
                true,
            ),
            (
                "a file added to a shadowed root",
                Box::new(|t| write(&t.path("r3/new/a"), &skill("a", "added"))),
                false,
            ),
            (
                "a file removed from a shadowed root",
                Box::new(|t| std::fs::remove_dir_all(t.dir.path().join("r3/new")).expect("remove")),
                false,
            ),
            (
                "the winner's description edited",
                Box::new(|t| write(&t.path("r1/a"), &skill("a", "again"))),
                true,
            ),
            (
                "a shadowed file edited again",
                Box::new(|t| write(&t.path("r3/b"), &skill("b", "again"))),
                true,
            ),
        ];
        for (what, change, must_be_fast) in edits {
            let shared = tree.reload_after(what, change);
            if fast && must_be_fast {
                assert!(shared, "{profile}: {what}: the untouched skill was rebuilt");
            }
        }
    }

    #[test]
    fn first_wins_in_walk_order() {
        every_change("universal", true);
    }

    #[test]
    fn first_wins_in_path_bytes_order() {
        every_change("copilot-cli", true);
    }

    #[test]
    fn last_wins_in_walk_order() {
        every_change("gemini", true);
    }

    #[test]
    fn last_wins_folding_case_in_id_order() {
        every_change("cline", true);
    }

    #[test]
    fn profiles_regrouping_does_not_take_still_match_a_cold_load() {
        every_change("codex", false);
        every_change("openhands", false);
    }
}
