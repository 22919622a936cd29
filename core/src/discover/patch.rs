//! Patch: bring a resolved catalog up to date when only skill files changed in place (no
//! directory, plugin manifest or settings file did), by re-reading just those files.
//!
//! A patch is only taken when it provably gives what a full discovery would: every changed
//! file was a loaded skill before and is one now, under the same id, name, location, scope,
//! plugin and file identity, so no name clash, ordering, shadowing or link de-duplication
//! can differ, and the previous snapshot's skill is exactly what the old read produces.
//! Anything else (a renamed skill, a file that broke or got fixed, a nested skill, a
//! duplicate) returns `None` and the caller runs the full discovery.

use super::candidates::{self, Candidate};
use super::plugin::Plugins;
use super::{resolve, Profile, WalkLayout};
use crate::cache::{CachedParse, ParseCache, Stamp};
use crate::catalog::{Catalog, Skill};
use std::sync::Arc;

/// Most changed files a patch takes on: it reads them one by one, and past this a full
/// (parallel) discovery costs about the same.
pub const MAX_FILES: usize = 256;

/// A patched catalog (the changed skills keep their old status until the caller filters
/// again, which recomputes every status), and `stamps`
/// are the new stamps of the changed files, by index into the flattened walk.
#[derive(Debug)]
pub struct Patched {
    pub catalog: Catalog,
    pub stamps: Vec<(usize, Option<Stamp>)>,
}

/// Patch `previous` (the last snapshot, filtered or not) for the files of `layout` at the
/// flattened-walk indices `changed`. Updates `cache` only when the patch is taken.
pub fn patch(
    profile: &Profile,
    layout: &WalkLayout,
    previous: &Catalog,
    changed: &[usize],
    cache: &mut ParseCache,
) -> Option<Patched> {
    if changed.len() > MAX_FILES {
        return None;
    }
    let mut plugins = Plugins::new(profile.plugin_markers.clone());
    plugins.mark(layout.plugin_dirs.iter().cloned());
    let plugins = std::sync::Mutex::new(plugins);
    let mut replacements: Vec<(usize, Arc<Skill>)> = Vec::with_capacity(changed.len());
    let mut fresh = Vec::with_capacity(changed.len());
    for &index in changed {
        let read = reread(profile, layout, cache, index)?;
        if !read.same_file() {
            return None;
        }
        let Reread {
            root,
            found,
            old_entry,
            new_stamp,
            new_entry,
            ..
        } = read;
        let old = loaded(candidates::candidate(
            profile, root, found, &old_entry, &plugins,
        ))?;
        let new = loaded(candidates::candidate(
            profile, root, found, &new_entry, &plugins,
        ))?;
        if !same_place(&old, &new) || old.nested_prefix.is_some() {
            return None;
        }
        // The id first: `Path`'s `==` compares component by component, and this scans
        // every skill. Locations from one walk spell a path one way, so bytes decide.
        let same_location = |l: &std::path::Path| l.as_os_str() == old.location.as_os_str();
        let mut at = previous
            .skills
            .iter()
            .enumerate()
            .filter(|(_, s)| s.id == old.id && same_location(&s.location));
        let (position, before) = at.next()?;
        if at.next().is_some()
            || replacements.iter().any(|(p, _)| *p == position)
            || previous
                .shadowed
                .iter()
                .any(|s| s.id == old.id && same_location(&s.location))
        {
            return None;
        }
        // The snapshot must be exactly what the old read gives, status aside: this is what
        // guarantees that replacing it is all a full discovery would change.
        let mut expected = resolve::into_skill(old, before.status.ambiguous);
        expected.status = before.status.clone();
        if expected != **before {
            return None;
        }
        let mut replacement = resolve::into_skill(new, before.status.ambiguous);
        // Filtering recomputes the status; starting from the old one keeps an unchanged
        // status from counting as a change.
        replacement.status = before.status.clone();
        replacements.push((position, Arc::new(replacement)));
        fresh.push((index, found.path.clone(), new_stamp, new_entry));
    }

    let mut catalog = previous.clone();
    for (position, skill) in replacements {
        catalog.skills[position] = skill;
    }
    let mut stamps = Vec::with_capacity(fresh.len());
    for (index, path, stamp, entry) in fresh {
        cache.insert(&path, entry);
        stamps.push((index, Some(stamp)));
    }
    Some(Patched { catalog, stamps })
}

/// The candidate of a file that loads; `None` for one that does not (or is skipped).
fn loaded(
    outcome: Result<Option<Candidate>, Vec<crate::diagnostic::Diagnostic>>,
) -> Option<Candidate> {
    outcome.ok().flatten()
}

/// Everything resolve and the link de-duplication look at, apart from the manifest.
fn same_place(a: &Candidate, b: &Candidate) -> bool {
    a.scope == b.scope
        && a.kind == b.kind
        && a.source == b.source
        && a.location == b.location
        && a.base_dir == b.base_dir
        && a.name == b.name
        && a.id == b.id
        && a.plugin == b.plugin
        && a.nested_prefix == b.nested_prefix
}

/// A changed walked file read again: its root, the cache entry it had and the stamp and
/// entry it has now (the first steps of both [`patch`] and `regroup`). `None` when the
/// index, its root or its old entry is gone, or the file cannot be read now.
pub(crate) struct Reread<'a> {
    pub(crate) root_index: usize,
    pub(crate) root: &'a super::roots::Root,
    pub(crate) found: &'a super::walk::WalkedFile,
    pub(crate) old_entry: Arc<CachedParse>,
    pub(crate) new_stamp: Stamp,
    pub(crate) new_entry: Arc<CachedParse>,
}

impl Reread<'_> {
    /// The same file as before (device, inode and location): neither replaced nor moved.
    pub(crate) fn same_file(&self) -> bool {
        let (old, new) = (self.old_entry.stamp(), &self.new_stamp);
        (old.device, old.inode) == (new.device, new.inode)
            && self.old_entry.location == self.new_entry.location
    }
}

pub(crate) fn reread<'a>(
    profile: &Profile,
    layout: &'a WalkLayout,
    cache: &ParseCache,
    index: usize,
) -> Option<Reread<'a>> {
    let (root_index, found) = nth_file(layout, index)?;
    let root = layout.roots.get(root_index)?;
    let old_entry = cache.entry(&found.path)?.clone();
    let read = candidates::read_one(root_index, found, cache, profile, false);
    Some(Reread {
        root_index,
        root,
        found,
        old_entry,
        new_stamp: read.stamp?,
        new_entry: read.entry?,
    })
}

/// The root index and file at position `index` of the flattened walk.
pub(crate) fn nth_file(
    layout: &WalkLayout,
    mut index: usize,
) -> Option<(usize, &super::walk::WalkedFile)> {
    for (root, files) in &layout.walked {
        if index < files.len() {
            return Some((*root, &files[index]));
        }
        index -= files.len();
    }
    None
}
