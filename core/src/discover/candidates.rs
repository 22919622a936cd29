//! Candidates: the files the walk found, de-duplicated by file identity and read up to the
//! end of their frontmatter (never the body), named by the profile's rules.

use super::plugin::Plugins;
use super::profile::{FieldTypes, Naming, Profile};
use super::roots::Root;
use super::walk::WalkedFile;
use crate::cache::{CachedParse, Frontmatter, ParseCache, SlimFields, Stamp};
use crate::catalog::{BaseDir, Scope, Shadowed, SkillKind};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::Manifest;
use crate::parse::{self, ValueKind};
use crate::shared_path::SharedPath;
use crate::shared_str::SharedStr;
use crate::validate;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A skill that could be loaded, before name clashes are settled.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub scope: Scope,
    pub kind: SkillKind,
    /// Root directory it was found under.
    pub source: SharedPath,
    pub location: SharedPath,
    pub base_dir: BaseDir,
    /// The skill's `name` and `id` (one buffer when they are the same text).
    pub name: SharedStr,
    pub id: SharedStr,
    pub plugin: Option<String>,
    pub manifest: Arc<Manifest>,
    /// Warnings and infos (a candidate with errors is not loaded); shared with its cache
    /// entry when naming changed none of the file's own.
    pub diagnostics: Arc<[Diagnostic]>,
    /// Nested skills directory below the project (`apps/web`), used to qualify a clashing id.
    pub nested_prefix: Option<String>,
    /// Its place among its root's skills when the root has loose files
    /// (`loose::GROUP_*`); resolve orders each root by it.
    pub group: u8,
}

impl Candidate {
    /// This candidate as a [`super::Keep::Summary`] load keeps it: no warnings, and only
    /// the manifest fields a listing shows and the filter reads.
    fn summary(mut self) -> Candidate {
        self.diagnostics = Diagnostic::shared(Vec::new());
        let manifest = Arc::try_unwrap(self.manifest).unwrap_or_else(|shared| (*shared).clone());
        self.manifest = Arc::new(crate::filter::status_fields(manifest));
        self
    }
}

/// A walked file with its stamp and (cached or fresh) frontmatter.
pub(crate) struct FileRead<'a> {
    pub(crate) root: usize,
    pub(crate) found: &'a WalkedFile,
    pub(crate) stamp: Option<Stamp>,
    pub(crate) entry: Option<Arc<CachedParse>>,
}

/// The result of reading every walked file.
#[derive(Default)]
pub struct Collected {
    pub candidates: Vec<Candidate>,
    /// Files reached twice (same device and inode, e.g. through a symlink).
    pub duplicates: Vec<Shadowed>,
    /// Errors of files that were not loaded, and problems found while naming.
    pub diagnostics: Vec<Diagnostic>,
    /// The stamp of every walked file, in walk order (for a reloadable deck's check).
    pub files: Vec<Option<Stamp>>,
    /// Candidates named from a slim cache entry ([`Frontmatter::Slim`]), by root index and
    /// walked path: [`settle_slim`] reads again those whose skill loads.
    pub slim_hits: Vec<(usize, SharedPath)>,
}

/// Read and name every file of `walked` (one list per root, in root order).
pub fn collect<'a>(
    profile: &Profile,
    roots: &[Root],
    walked: &'a [(usize, Vec<WalkedFile>)],
    cache: &mut ParseCache,
    plugins_out: &mut Plugins,
    keep: super::Keep,
) -> Collected {
    let summary = keep == super::Keep::Summary;
    let keep = keep == super::Keep::ForReload;
    let items: Vec<(usize, &WalkedFile)> = walked
        .iter()
        .flat_map(|(root, files)| files.iter().map(move |f| (*root, f)))
        .collect();
    // A one-shot discovery names each file right after reading it, on the worker: the
    // parse's keys, notes and diagnostics are dropped there instead of piling up for the
    // whole tree (a good part of the peak memory of `skilldeck list`). A reloadable one
    // keeps them in the cache anyway and names in the loop below. Plugin lookups share one
    // cache behind a lock.
    let plugins = Mutex::new(std::mem::take(plugins_out));
    let read = {
        let cache: &ParseCache = cache;
        let on_worker = (!keep).then_some(&plugins);
        move |(root, found): &(usize, &'a WalkedFile)| {
            let mut read = read_one(*root, found, cache, profile, keep);
            let named = match (on_worker, read.entry.take()) {
                (Some(plugins), Some(entry)) => {
                    // The candidate shares the entry's diagnostics unless naming changed
                    // them, so dropping the entry here frees all but one copy (~3 MB of
                    // `list`'s heap peak on the real-world corpus, where most files have
                    // unknown keys).
                    Some(candidate(profile, &roots[*root], found, &entry, plugins))
                }
                (_, entry) => {
                    read.entry = entry;
                    None
                }
            };
            let named = match named {
                // After the entry is gone, so the manifest is this candidate's alone and is
                // taken apart rather than copied.
                Some(Ok(Some(candidate))) if summary => Some(Ok(Some(candidate.summary()))),
                named => named,
            };
            (read, named)
        }
    };

    let mut out = Collected::default();
    if keep {
        out.files.reserve(items.len());
    }
    // Sized once: a candidate carries its manifest inline, and doubling a vector of 10k of
    // them copies megabytes and briefly holds both buffers.
    out.candidates.reserve(items.len());
    let mut seen: crate::FastMap<(u64, u64), Option<usize>> =
        crate::FastMap::with_capacity_and_hasher(items.len(), Default::default());
    // Roots a file emptied (`[refuse_root]`), with that file; and each candidate's root.
    let mut refused: BTreeMap<usize, PathBuf> = BTreeMap::new();
    let mut candidate_roots: Vec<usize> = Vec::with_capacity(items.len());
    // Rebuilt from this walk rather than pruned: every file read has its entry (hit or
    // fresh), so the cache holds exactly the tree's files and never grows across reloads.
    let mut next = ParseCache::with_capacity(if keep { items.len() } else { 0 });
    // Batches of 32: small enough to balance, large enough to keep hand-out cheap. Each
    // read is taken in walk order as soon as it is done, while the workers read on, so the
    // reads of the whole tree never wait in memory together (~3 MB of `list`'s heap peak at
    // N=10,000, bench/PROFILE.md item 41).
    crate::par::each_in_order(&items, 32, read, |(read, named)| {
        if keep {
            out.files.push(read.stamp);
        }
        let named = match (named, read.entry) {
            (Some(named), _) => named,
            (None, Some(mut entry)) => {
                let root = &roots[read.root];
                let mut named = candidate(profile, root, read.found, &entry, &plugins);
                if entry.is_slim() {
                    match &named {
                        Ok(Some(_)) => out.slim_hits.push((read.root, read.found.path.clone())),
                        Ok(None) => {}
                        // A slim entry keeps no warnings: a file that does not load now
                        // (it did, but lost) is read again, so its diagnostics are whole.
                        Err(_) => {
                            if let Some(fresh) = read_fresh(read.root, read.found, profile) {
                                named = candidate(profile, root, read.found, &fresh, &plugins);
                                entry = fresh;
                            }
                        }
                    }
                }
                if keep {
                    next.insert(&read.found.path, entry);
                }
                named
            }
            (None, None) => return,
        };
        // The same file reached twice (a symlinked directory, an overlapping root): the
        // first path wins and the second is reported, never loaded twice.
        let identity = read
            .stamp
            .map(|s| (s.device, s.inode))
            .filter(|(_, ino)| *ino != 0);
        let first = identity.and_then(|id| seen.get(&id).copied());
        let candidate = match named {
            Ok(Some(c)) => c,
            Ok(None) => return,
            Err(diagnostics) => {
                if diagnostics.iter().any(|d| d.code == REFUSES_ROOT) {
                    refused
                        .entry(read.root)
                        .or_insert_with(|| read.found.path.to_path_buf());
                }
                if first.is_none() {
                    out.diagnostics.extend(diagnostics);
                }
                if let Some(id) = identity {
                    seen.entry(id).or_insert(None);
                }
                return;
            }
        };
        match first {
            Some(Some(winner)) => {
                let winner: &Candidate = &out.candidates[winner];
                out.duplicates.push(Shadowed {
                    id: candidate.id.clone(),
                    name: candidate.name.clone(),
                    location: candidate.location.clone(),
                    winner: winner.location.clone(),
                    reason: SharedStr::interned(SAME_FILE_REASON),
                });
            }
            Some(None) => {}
            None => {
                if let Some(id) = identity {
                    seen.insert(id, Some(out.candidates.len()));
                }
                out.candidates.push(candidate);
                candidate_roots.push(read.root);
            }
        }
    });
    if !refused.is_empty() {
        drop_refused_roots(&mut out, &candidate_roots, &refused, roots);
    }
    if keep {
        *cache = next;
    }
    *plugins_out = plugins.into_inner().unwrap_or_else(|e| e.into_inner());
    // In path order whichever way the lookups ran, so a one-shot load reports exactly what
    // a reloadable one does.
    plugins_out.sort_diagnostics();
    out
}

/// The code of the error a file gets when its failure empties its whole root.
pub const REFUSES_ROOT: &str = "refuses-root";

/// The code of the error of every skill of a root that one of its files emptied.
pub const ROOT_REFUSED: &str = "root-refused";

/// Why a file reached a second time (same device and inode) is shadowed; resolve never
/// gives this reason, so it also tells these entries from name clashes.
pub const SAME_FILE_REASON: &str = "same file as the winner (reached through a link)";

/// Take every candidate of a root that one of its files emptied out of the collection, each
/// with a `root-refused` error naming that file (the host loads nothing from such a root).
fn drop_refused_roots(
    out: &mut Collected,
    candidate_roots: &[usize],
    refused: &BTreeMap<usize, PathBuf>,
    roots: &[Root],
) {
    let candidates = std::mem::take(&mut out.candidates);
    for (candidate, root) in candidates.into_iter().zip(candidate_roots) {
        match refused.get(root) {
            Some(culprit) => out.diagnostics.push(
                Diagnostic::error(
                    ROOT_REFUSED,
                    format!(
                        "not loaded: {} in the same directory {} fails in a way that makes the host drop every skill there",
                        culprit.display(),
                        roots.get(*root).map_or(Path::new(""), |r| &*r.path).display()
                    ),
                )
                .with_path(&candidate.location)
                .with_hint(format!("fix {} (see its `refuses-root` error)", culprit.display())),
            ),
            None => out.candidates.push(candidate),
        }
    }
}

/// Stat, read and check one file (runs on all cores): the frontmatter parse, the location
/// (resolved for profiles that report real paths) and the lenient validation are reused from
/// the cache while the file's stamp and location are unchanged.
///
/// A slim entry ([`Frontmatter::Slim`]) is a hit only with `take_slim`: for a reloadable
/// discovery, which reads the file again should its skill load ([`settle_slim`]).
pub(crate) fn read_one<'a>(
    root: usize,
    found: &'a WalkedFile,
    cache: &ParseCache,
    profile: &Profile,
    take_slim: bool,
) -> FileRead<'a> {
    let usable = |c: &&Arc<CachedParse>| take_slim || !c.is_slim();
    // A file the cache does not know is read anyway: open it first and `fstat` the handle,
    // one path lookup instead of two. Known files are only stat'ed (most are cache hits).
    let opened = if found.regular && cache.entry(&found.path).filter(usable).is_none() {
        open_regular(&found.path)
    } else {
        None
    };
    let (meta, file) = match opened {
        Some(file) => match file.metadata() {
            Ok(meta) => (Some(meta), Some(file)),
            Err(_) => (std::fs::metadata(&found.path).ok(), None),
        },
        None => (std::fs::metadata(&found.path).ok(), None),
    };
    let mut read = FileRead {
        root,
        found,
        stamp: meta.as_ref().map(Stamp::of),
        entry: None,
    };
    let (Some(meta), Some(stamp)) = (meta, read.stamp) else {
        // Vanished between the walk and now, or a dangling link: nothing to load.
        return read;
    };
    let location: Arc<Path> = if profile.canonical_locations {
        match (found.path.parent(), found.path.file_name()) {
            (Some(dir), Some(file)) => std::fs::canonicalize(dir)
                .map(|d| Arc::from(d.join(file)))
                .unwrap_or_else(|_| Arc::clone(found.path.as_arc())),
            _ => Arc::clone(found.path.as_arc()),
        }
    } else {
        Arc::clone(found.path.as_arc())
    };
    if let Some(hit) = cache.get(&found.path, &stamp).filter(usable) {
        let mut entry = hit.clone();
        if entry.location != location {
            // Seen at another real path (a link moved): validate again there. The cache keeps
            // no full parse, so the unchanged file (same stamp) is read again; the manifest
            // stays the shared one.
            let parsed = fresh_parse(found, None, &meta, profile);
            let mut moved = CachedParse::clone(&entry);
            moved.checked = Diagnostic::shared(validate::check(&parsed, &location, false));
            moved.location = location;
            entry = Arc::new(moved);
        }
        read.entry = Some(entry);
        return read;
    }
    let bom = profile.reject_bom && starts_with_bom(&found.path);
    let parsed = fresh_parse(found, file, &meta, profile);
    // Lenient validation: what a host would refuse is an error, the rest are warnings.
    let checked = validate::check(&parsed, &location, false);
    read.entry = Some(Arc::new(CachedParse::new(
        stamp,
        parsed,
        bom,
        location,
        checked,
        |key| naming_key(profile, key),
    )));
    read
}

/// `found` read again whatever the cache holds; `None` when it vanished.
pub(crate) fn read_fresh(
    root: usize,
    found: &WalkedFile,
    profile: &Profile,
) -> Option<Arc<CachedParse>> {
    read_one(root, found, &ParseCache::default(), profile, false).entry
}

/// `entry` cut to what naming its file reads ([`candidate`]): the name, whether there
/// is a description (its text only for a profile that limits its length), the keys, and
/// the lenient diagnostics only when one is an error (warnings never decide whether a file
/// loads). Naming a slim entry gives the same id, name, place and outcome as naming the
/// whole one; only the skill's manifest and warnings would differ, and a skill named from
/// a slim entry that loads is read again ([`settle_slim`]).
pub(crate) fn slim(profile: &Profile, entry: &CachedParse) -> CachedParse {
    let full = entry.manifest.manifest();
    let description = full
        .description
        .as_deref()
        .map(|d| match profile.max_description_chars {
            Some(_) => Box::from(d),
            None => Box::from(""),
        });
    let fields = SlimFields {
        name: full.name.as_deref().map(Box::from),
        description,
    };
    let checked = if entry.checked.iter().any(Diagnostic::is_error) {
        Arc::clone(&entry.checked)
    } else {
        Diagnostic::shared(Vec::new())
    };
    entry.with(Frontmatter::Slim(Box::new(fields)), checked)
}

/// After resolving a reloadable discovery: give the skills named from slim cache entries
/// (`slim_hits`) their whole read, then make slim the cache entries of the files whose
/// skill lost (`shadowed`), which a deck otherwise keeps whole for its life (on a tree
/// with many duplicate names, a third of its files). Profiles with loose files keep every
/// entry whole: their grouping reads fields a slim manifest does not keep.
pub fn settle_slim(
    profile: &Profile,
    layout: &super::WalkLayout,
    slim_hits: &[(usize, SharedPath)],
    cache: &mut ParseCache,
    plugins: &Mutex<Plugins>,
    skills: &mut [Arc<crate::catalog::Skill>],
    shadowed: &[Shadowed],
) {
    // Locations are the cache entries' own buffers, so pointers identify them.
    let key = |p: &Path| p.as_os_str().as_encoded_bytes().as_ptr() as usize;
    if !slim_hits.is_empty() {
        let by_location: HashMap<usize, usize> = skills
            .iter()
            .enumerate()
            .map(|(i, s)| (key(&s.location), i))
            .collect();
        for (root, path) in slim_hits {
            let Some(entry) = cache.entry(path) else {
                continue;
            };
            let Some(&at) = by_location.get(&key(&entry.location)) else {
                continue;
            };
            let found = layout
                .walked
                .iter()
                .filter(|(r, _)| r == root)
                .find_map(|(_, files)| {
                    files
                        .binary_search_by(|f| f.path.cmp(path))
                        .ok()
                        .map(|i| &files[i])
                });
            let (Some(found), Some(root_dir)) = (found, layout.roots.get(*root)) else {
                continue;
            };
            let Some(fresh) = read_fresh(*root, found, profile) else {
                continue;
            };
            // The file is unchanged (same stamp as when it was named), so this names it
            // as before; only a file edited during the load could differ, and its new
            // stamp makes the next load discover again.
            if let Ok(Some(full)) = candidate(profile, root_dir, found, &fresh, plugins) {
                let skill = Arc::make_mut(&mut skills[at]);
                skill.location = full.location;
                skill.manifest = full.manifest;
                skill.diagnostics = full.diagnostics;
            }
            cache.insert(path, fresh);
        }
    }
    if profile.loose.is_some() || shadowed.is_empty() {
        return;
    }
    let lost: std::collections::HashSet<usize> =
        shadowed.iter().map(|s| key(&s.location)).collect();
    for entry in cache.entries_mut() {
        if !entry.is_slim() && lost.contains(&key(&entry.location)) {
            *entry = Arc::new(slim(profile, entry));
        }
    }
}

/// The frontmatter of `found` as `profile` reads it, with the body check of profiles that
/// require one.
fn fresh_parse(
    found: &WalkedFile,
    file: Option<std::fs::File>,
    meta: &std::fs::Metadata,
    profile: &Profile,
) -> parse::Parsed {
    let mut parsed = parse::read_frontmatter_dialect(&found.path, file, meta, &profile.parse);
    if profile.require_body && parsed.is_ok() && body_blank(&found.path, &profile.parse) {
        parsed.diagnostics.push(
            Diagnostic::error(
                "empty-body",
                "the skill has no instructions after its frontmatter; this host refuses it",
            )
            .with_path(&found.path)
            .at(parsed.body_line.unwrap_or(1), None)
            .with_hint("write the skill's instructions below the closing `---`"),
        );
    }
    if profile.description_fallback_line
        && parsed.is_ok()
        && parsed
            .manifest
            .description
            .as_deref()
            .is_none_or(str::is_empty)
    {
        // The prefix reader stops at the closing fence; the line is in the body.
        if let Ok(bytes) = std::fs::read(&found.path) {
            parsed.manifest.fallback_line =
                parse::fallback_line(&String::from_utf8_lossy(&bytes)).map(Box::new);
        }
    }
    parsed
}

/// The keys whose kind and position naming a file looks at ([`candidate`],
/// [`root_refusal`]), the only ones a cache entry keeps: `key`'s place in the profile's list
/// of them (`name`, `description`, then the keys of its field rules, root rules and loose
/// field rules), or `None`.
fn naming_key(profile: &Profile, key: &str) -> Option<u16> {
    let loose = profile.loose.iter().flat_map(|l| l.field_rules.keys());
    let position = ["name", "description"]
        .into_iter()
        .chain(profile.field_rules.keys().map(String::as_str))
        .chain(profile.refuse_root.fields.keys().map(String::as_str))
        .chain(loose.map(String::as_str))
        .position(|k| k == key)?;
    u16::try_from(position).ok()
}

/// The last occurrence of `key` in `entry`'s frontmatter, if naming reads it.
fn key_info(profile: &Profile, entry: &CachedParse, key: &str) -> Option<crate::parse::KeyInfo> {
    let index = naming_key(profile, key)?;
    entry
        .keys
        .iter()
        .rev()
        .find(|k| k.index == index)
        .map(|k| k.info())
}

/// Whether `pattern` matches all of `name`; a pattern that does not compile matches nothing.
fn whole_match(pattern: &str, name: &str) -> bool {
    thread_local! {
        // Compiling the profile's pattern costs far more than matching a name, and it was
        // done once per file; each walker thread now compiles a pattern once.
        static COMPILED: std::cell::RefCell<HashMap<String, Option<regex::Regex>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    COMPILED.with(|cache| {
        let mut cache = cache.borrow_mut();
        // Looked up by `&str` first: `entry` wants an owned key, a copy per file.
        if !cache.contains_key(pattern) {
            cache.insert(pattern.to_owned(), regex::Regex::new(pattern).ok());
        }
        let re = cache.get(pattern).and_then(Option::as_ref);
        re.is_some_and(|re| {
            re.find(name)
                .is_some_and(|m| m.start() == 0 && m.end() == name.len())
        })
    })
}

/// Open a file the walk listed as regular, without blocking should it have been replaced by
/// a FIFO since; `None` when it cannot be opened (the `stat` path then reports why).
fn open_regular(path: &Path) -> Option<std::fs::File> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()
        .map(std::fs::File::from)
    }
    #[cfg(not(unix))]
    {
        std::fs::File::open(path).ok()
    }
}

/// The whole file, as the host reads it (invalid UTF-8 as U+FFFD): is its body blank? The
/// prefix reader stops at the closing fence, so the body is read here, and only for a
/// profile that needs it.
/// The host's `str()` of a `name` that PyYAML does not read as text (see
/// [`Profile::name_python_str`]), read again from the file: the cache keeps only its kind.
/// `None` when the name is text or absent, or the file cannot be read again.
fn python_str_name(
    profile: &Profile,
    entry: &CachedParse,
    manifest: &Manifest,
    path: &Path,
) -> Option<String> {
    let kind = key_info(profile, entry, "name")?.kind;
    // A text value could still be a plain scalar PyYAML types (`.nan`, which the YAML 1.2
    // reader keeps as text); a quoted one reads back as the same text.
    let text = manifest.name.as_deref();
    if kind == ValueKind::String && text.is_none_or(|t| parse::yaml_1_1_tag(t).is_none()) {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    parse::pyyaml::name_str(std::str::from_utf8(&bytes).ok()?, &profile.parse)
}

fn body_blank(path: &Path, dialect: &parse::Dialect) -> bool {
    match std::fs::read(path) {
        Ok(bytes) => parse::dash_prefix_body_blank(&String::from_utf8_lossy(&bytes), dialect),
        Err(_) => false,
    }
}

fn starts_with_bom(path: &Path) -> bool {
    let mut head = [0u8; 3];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == [0xEF, 0xBB, 0xBF]
}

/// Name one file; `Err` carries the diagnostics of a file that is not loaded.
pub(crate) fn candidate(
    profile: &Profile,
    root: &Root,
    found: &WalkedFile,
    entry: &CachedParse,
    plugins: &Mutex<Plugins>,
) -> Result<Option<Candidate>, Vec<Diagnostic>> {
    // The cache entry's buffer: one copy of the path per file.
    let location = SharedPath::from(Arc::clone(&entry.location));
    let base_dir = BaseDir::of(&location).unwrap_or_else(|| BaseDir::from(root.path.to_path_buf()));
    let mut diagnostics = entry.checked.to_vec();
    let mut manifest = entry.manifest.manifest();
    let loose = root.loose.as_deref().filter(|_| found.loose);
    if let Some(name) = loose.and_then(|l| super::loose::whole_name(l, found.rel())) {
        return whole_file(profile, root, name, location, base_dir, diagnostics);
    }
    if loose.is_some() {
        // Named by its path, so the checks of a name against its directory say nothing.
        diagnostics.retain(|d| d.code != "missing-name" && !d.code.starts_with("name-"));
    }
    // The profile's name rules are the host's checks of SKILL.md names; a loose file's name
    // is taken as it is.
    let name_rules = loose.is_none();
    if profile.name_python_str {
        if let Some(name) = python_str_name(profile, entry, &manifest, &found.path) {
            // The host names the file by the value whatever its type: not a wrong shape.
            diagnostics.retain(|d| {
                !(d.code == "invalid-field-type" && d.message.starts_with("`name` cannot be"))
            });
            let manifest = Arc::make_mut(&mut manifest);
            if manifest.extra.get("name").is_some() {
                let mut extra = manifest.extra.to_object();
                extra.remove("name");
                manifest.extra = extra.into();
            }
            manifest.name = Some(name);
        }
    }

    let nested_prefix = match &root.nested_marker {
        Some(marker) => match nested_prefix(found.rel(), marker) {
            Some(prefix) => Some(prefix),
            // The project's own skills directory: already a regular root.
            None => return Ok(None),
        },
        None => None,
    };

    if root.kind == SkillKind::Command {
        // Any Markdown file is a command; frontmatter problems do not stop it from loading.
        diagnostics.retain(|d| d.code != "missing-description" && d.code != "missing-name");
        for d in &mut diagnostics {
            if d.severity == Severity::Error {
                d.severity = Severity::Warning;
            }
        }
        if manifest.description.is_none() {
            Arc::make_mut(&mut manifest).description = command_description(&found.path);
        }
    } else {
        for key in ["name", "description"] {
            let Some(info) = key_info(profile, entry, key) else {
                continue;
            };
            if profile.field_types == FieldTypes::StringsOnly {
                if !matches!(info.kind, ValueKind::String | ValueKind::Null) {
                    let m = Arc::make_mut(&mut manifest);
                    if key == "name" {
                        m.name = None;
                    } else {
                        m.description = None;
                    }
                    // The reader's own refusal of a list or map here is this warning instead.
                    diagnostics
                        .retain(|d| !(d.code == "invalid-field-type" && d.line == Some(info.line)));
                    diagnostics.push(
                        Diagnostic::warning(
                            "ignored-field",
                            format!(
                                "profile `{}` reads `{key}` only when it is a YAML string; this one is ignored",
                                profile.name
                            ),
                        )
                        .with_path(&location)
                        .at(info.line, Some(info.column))
                        .with_hint(format!("write `{key}:` as text, quoted if needed")),
                    );
                }
                continue;
            }
            let refused = match profile.field_types {
                FieldTypes::Any | FieldTypes::StringsOnly => false,
                FieldTypes::Scalar => matches!(info.kind, ValueKind::List | ValueKind::Map),
                FieldTypes::String => info.kind != ValueKind::String,
            };
            if refused {
                diagnostics.push(
                    Diagnostic::error(
                        "invalid-field-type",
                        format!(
                            "profile `{}` refuses a `{key}` that is not {}",
                            profile.name,
                            match profile.field_types {
                                FieldTypes::String => "a YAML string",
                                _ => "a single value",
                            }
                        ),
                    )
                    .with_path(&location)
                    .at(info.line, Some(info.column))
                    .with_hint(format!(
                        "write `{key}:` as one line of text, quoted if needed"
                    )),
                );
            }
        }
        let loose_rules = loose.map(|l| &l.field_rules).into_iter().flatten();
        for (key, rule) in profile.field_rules.iter().chain(loose_rules) {
            let Some(info) = key_info(profile, entry, key) else {
                continue;
            };
            if !rule.accepts(&info) {
                diagnostics.push(
                    Diagnostic::error("invalid-field-type", rule.refusal(&profile.name, key))
                        .with_path(&location)
                        .at(info.line, Some(info.column))
                        .with_hint(format!("fix the value of `{key}:` or remove it")),
                );
            }
        }
        if profile.description_optional {
            for d in &mut diagnostics {
                if d.code == "missing-description" {
                    d.severity = Severity::Warning;
                }
            }
        }
        if let (Some(max), Some(name), true) =
            (profile.max_name_chars, manifest.name.as_deref(), name_rules)
        {
            let chars = name.trim().chars().count();
            if chars > max {
                diagnostics.retain(|d| d.code != "name-too-long");
                diagnostics.push(
                    Diagnostic::error(
                        "name-too-long",
                        format!("profile `{}` refuses names over {max} characters (this one has {chars})", profile.name),
                    )
                    .with_path(&location)
                    .with_hint("shorten the name"),
                );
            }
        }
        if let (Some(pattern), Some(name), true) =
            (&profile.name_pattern, manifest.name.as_deref(), name_rules)
        {
            if !whole_match(pattern, name) {
                diagnostics.push(
                    Diagnostic::error(
                        "invalid-name",
                        format!(
                            "profile `{}` refuses the name `{name}`: it must match `{pattern}`",
                            profile.name
                        ),
                    )
                    .with_path(&location)
                    .with_hint("use lowercase letters, digits and single hyphens"),
                );
            }
        }
        if let (Some(max), Some(description)) = (
            profile.max_description_chars,
            manifest.description.as_deref(),
        ) {
            let chars = description.chars().count();
            if chars > max {
                diagnostics.push(
                    Diagnostic::error(
                        "description-too-long",
                        format!("profile `{}` refuses descriptions over {max} characters (this one has {chars})", profile.name),
                    )
                    .with_path(&location)
                    .with_hint("shorten the description"),
                );
            }
        }
        if let (Some(allowed), Some(name), true) =
            (&profile.name_chars, manifest.name.as_deref(), name_rules)
        {
            if !allowed.allows(name) {
                diagnostics.push(invalid_name_chars(profile, name, &location));
            }
        }
        if let (Some(name), true) = (manifest.name.as_deref(), name_rules) {
            if profile.reserved_names.iter().any(|r| r == name) {
                diagnostics.push(
                    Diagnostic::error(
                        "reserved-name",
                        format!(
                            "profile `{}` keeps the name `{name}` for one of the host's built-in skills",
                            profile.name
                        ),
                    )
                    .with_path(&location)
                    .with_hint("rename the skill"),
                );
            }
        }
        if entry.bom {
            diagnostics.push(
                Diagnostic::error(
                    "bom-rejected",
                    "the file starts with a UTF-8 byte-order mark, which this host rejects",
                )
                .with_path(&location)
                .at(1, Some(1))
                .with_hint("save the file as UTF-8 without BOM"),
            );
        }
        // After a refused file's own error, "no name" would only repeat it.
        let refused = diagnostics.iter().any(Diagnostic::is_error);
        if profile.require_name && manifest.name.is_none() && !refused && name_rules {
            diagnostics.retain(|d| d.code != "missing-name");
            diagnostics.push(
                Diagnostic::error(
                    "missing-name",
                    format!("profile `{}` requires a string `name`", profile.name),
                )
                .with_path(&location)
                .with_hint("add `name: <directory-name>` to the frontmatter"),
            );
        }
        if profile.require_description && manifest.description.is_none() {
            diagnostics.retain(|d| d.code != "missing-description");
            diagnostics.push(
                Diagnostic::error(
                    "missing-description",
                    format!("profile `{}` requires a string `description`", profile.name),
                )
                .with_path(&location)
                .with_hint("add `description: what it does and when to use it` to the frontmatter"),
            );
        }
        if profile.name_matches_directory && name_rules {
            if let Some(d) =
                directory_mismatch(profile, manifest.name.as_deref(), &base_dir, &location)
            {
                // The lenient check's warning says the same.
                diagnostics.retain(|d| d.code != "name-mismatch");
                diagnostics.push(d);
            }
        }
        let root_refusal = root_refusal(profile, entry, &location, &mut diagnostics);
        if diagnostics.iter().any(Diagnostic::is_error) {
            if let Some(why) = root_refusal {
                diagnostics.push(
                    Diagnostic::error(
                        REFUSES_ROOT,
                        format!(
                            "profile `{}` loads no skill from {} because this file fails: {why}",
                            profile.name,
                            root.path.display()
                        ),
                    )
                    .with_path(&location)
                    .with_hint(
                        "fix this file: until then the host ignores every skill in that directory",
                    ),
                );
            }
            return Err(dedup(diagnostics));
        }
    }

    // `BaseDir` finds its directory by parsing the location's components on each deref:
    // once here for the name and the plugin lookup.
    let dir: &Path = &base_dir;
    let dir_name = crate::path_bytes::file_name(dir)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match (root.kind, profile.naming) {
        (SkillKind::Command, _) => command_name(found.rel()),
        (SkillKind::Skill, _) if loose.is_some() => match manifest.name.as_deref() {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => super::loose::name_from_path(found.rel()),
        },
        (SkillKind::Skill, Naming::Directory) => dir_name.clone(),
        (SkillKind::Skill, Naming::Frontmatter) => match manifest.name.as_deref() {
            Some(n) if !n.trim().is_empty() => n.to_string(),
            // A host that requires a string `name` takes a blank one as written.
            Some(n) if profile.require_name && !n.is_empty() => n.to_string(),
            _ => {
                if !diagnostics.iter().any(|d| d.code.contains("name")) {
                    diagnostics.push(
                        Diagnostic::info(
                            "name-from-directory",
                            format!("no `name`; using the directory name `{dir_name}`"),
                        )
                        .with_path(&location)
                        .with_hint("add `name:` to the frontmatter"),
                    );
                }
                dir_name.clone()
            }
        },
    };
    if profile.description_from_body
        && root.kind == SkillKind::Skill
        && manifest.description.is_none()
    {
        Arc::make_mut(&mut manifest).description = Some(body_text(&found.path));
    }
    if root.kind == SkillKind::Skill {
        if let Some(description) = manifest.description.as_deref() {
            match clean_description(profile, description) {
                Cow::Owned(cleaned) if cleaned != description => {
                    // An empty result is no description, as the host's `if (!description)`
                    // reads it.
                    Arc::make_mut(&mut manifest).description =
                        (!cleaned.is_empty()).then_some(cleaned);
                }
                _ => {}
            }
        }
    }
    if let (Some(allowed), SkillKind::Skill, None, true) = (
        &profile.name_chars,
        root.kind,
        manifest.name.as_deref(),
        name_rules,
    ) {
        // The directory name stands in for a missing one and must pass the same check.
        if !allowed.allows(&name) {
            return Err(vec![invalid_name_chars(profile, &name, &location)]);
        }
    }
    let name = match (&profile.name_replace, root.kind, name_rules) {
        (Some(replace), SkillKind::Skill, true) => replace.apply(&name),
        _ => name,
    };
    let group = match loose {
        Some(l) => super::loose::group(l, &manifest),
        None => super::loose::GROUP_PATTERN,
    };
    if let Some(why) = super::loose::unlisted(profile, group, &manifest) {
        Arc::make_mut(&mut manifest).unlisted = Some(why);
    }
    if name.is_empty() {
        return Err(vec![Diagnostic::error(
            "unnamed-skill",
            "cannot name this skill: no `name` and no directory name",
        )
        .with_path(&location)
        .with_hint("put the SKILL.md in a directory named after the skill")]);
    }
    let plugin = match &root.plugin {
        Some(name) => Some(name.clone()),
        None => plugins.lock().unwrap_or_else(|e| e.into_inner()).find(
            dir,
            &root.path,
            crate::path_bytes::parent(&root.path).unwrap_or(&root.path),
        ),
    };
    let name = SharedStr::from(name);
    let id = match &plugin {
        Some(p) => format!("{p}:{name}").into(),
        None => name.clone(),
    };
    Ok(Some(Candidate {
        scope: root.scope,
        kind: root.kind,
        source: root.path.clone(),
        location,
        base_dir,
        name,
        id,
        plugin,
        manifest,
        diagnostics: shared_with(dedup(diagnostics), &entry.checked),
        nested_prefix,
        group,
    }))
}

/// The errors of reading a file, as opposed to reading its frontmatter.
const READ_ERRORS: [&str; 5] = [
    "permission-denied",
    "io-error",
    "not-a-file",
    "file-too-large",
    "invalid-utf8",
];

/// A loose file taken whole under a fixed name (`[loose] whole`): its frontmatter is not
/// read, so only a failure to read the file stops it (and may empty the root, as a
/// `[refuse_root]` code).
fn whole_file(
    profile: &Profile,
    root: &Root,
    name: &str,
    location: SharedPath,
    base_dir: BaseDir,
    mut diagnostics: Vec<Diagnostic>,
) -> Result<Option<Candidate>, Vec<Diagnostic>> {
    diagnostics.retain(|d| d.is_error() && READ_ERRORS.contains(&&*d.code));
    if let Some(d) = diagnostics
        .iter()
        .find(|d| profile.refuse_root.codes.iter().any(|c| *c == d.code))
    {
        let why = format!("of `{}`", d.code);
        diagnostics.push(
            Diagnostic::error(
                REFUSES_ROOT,
                format!(
                    "profile `{}` loads no skill from {} because this file fails: {why}",
                    profile.name,
                    root.path.display()
                ),
            )
            .with_path(&location)
            .with_hint("fix this file: until then the host ignores every skill in that directory"),
        );
    }
    if !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let manifest = Manifest {
        unlisted: Some(crate::manifest::Unlisted::AlwaysOn),
        ..Manifest::default()
    };
    Ok(Some(Candidate {
        scope: root.scope,
        kind: root.kind,
        source: root.path.clone(),
        location,
        base_dir,
        name: name.into(),
        id: name.into(),
        plugin: root.plugin.clone(),
        manifest: Arc::new(manifest),
        diagnostics: Diagnostic::shared(diagnostics),
        nested_prefix: None,
        group: super::loose::GROUP_ALWAYS_ON,
    }))
}

/// Why this file empties its whole root (`[refuse_root]`), if it does. A listed code
/// refuses the root whatever else is wrong; a key breaking its root rule only when the file
/// has no other error (the host's own per-file errors are raised first). The broken root
/// rules are added to `diagnostics` as `invalid-field-type` errors.
fn root_refusal(
    profile: &Profile,
    entry: &CachedParse,
    location: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let code = diagnostics
        .iter()
        .find(|d| d.is_error() && profile.refuse_root.codes.iter().any(|c| *c == d.code))
        .map(|d| format!("of `{}`", d.code));
    let alone = !diagnostics.iter().any(Diagnostic::is_error);
    let mut field = None;
    for (key, rule) in &profile.refuse_root.fields {
        let Some(info) = key_info(profile, entry, key) else {
            continue;
        };
        if !rule.accepts(&info) {
            diagnostics.push(
                Diagnostic::error("invalid-field-type", rule.refusal(&profile.name, key))
                    .with_path(location)
                    .at(info.line, Some(info.column))
                    .with_hint(format!("fix the value of `{key}:` or remove it")),
            );
            field.get_or_insert_with(|| format!("its `{key}` is not {}", rule.what()));
        }
    }
    code.or(field.filter(|_| alone))
}

/// `name-mismatch` when the skill's name (its `name`, else the directory's) is not the name
/// of its directory.
fn directory_mismatch(
    profile: &Profile,
    name: Option<&str>,
    base_dir: &Path,
    location: &Path,
) -> Option<Diagnostic> {
    let dir = crate::path_bytes::file_name(base_dir)?.to_string_lossy();
    let name = name?;
    (name != dir).then(|| {
        Diagnostic::error(
            "name-mismatch",
            format!(
                "profile `{}` refuses the name `{name}`: it must equal its directory's name `{dir}`",
                profile.name
            ),
        )
        .with_path(location)
        .with_hint("rename the directory or change `name` so they are equal")
    })
}

/// A command without a `description` is described by the first paragraph of its text, as
/// Claude Code does. Only the first 4 KiB are read: enough for a paragraph, bounded for huge files.
/// The body's text lines (not blank, not `#` headings), trimmed and joined with spaces: a
/// missing description as Copilot CLI fills it in.
fn body_text(path: &Path) -> String {
    let mut head = Vec::new();
    if std::fs::File::open(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut head))
        .is_err()
    {
        return String::new();
    }
    let text = String::from_utf8_lossy(&head);
    let split = crate::parse::split(&text);
    let body = match (split.fences, split.body_offset) {
        (crate::parse::Fences::Closed, Some(at)) => text.get(at..).unwrap_or_default(),
        _ => "",
    };
    body.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ")
}

fn command_description(path: &Path) -> Option<String> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .ok()?;
    let text = String::from_utf8_lossy(&head);
    let split = crate::parse::split(&text);
    let body = match (split.fences, split.body_offset) {
        (crate::parse::Fences::Closed, Some(at)) => text.get(at..).unwrap_or_default(),
        _ => &text,
    };
    crate::parse::fallback_description(body)
}

/// `diagnostics` as a shared slice: `checked`'s own when they are the same (naming a file
/// usually adds nothing to its lenient diagnostics), so a skill and its cache entry keep one
/// copy.
fn shared_with(diagnostics: Vec<Diagnostic>, checked: &Arc<[Diagnostic]>) -> Arc<[Diagnostic]> {
    if diagnostics[..] == checked[..] {
        Arc::clone(checked)
    } else {
        Diagnostic::shared(diagnostics)
    }
}

/// Drop repeats of the same finding (same code, line and severity): validation and the
/// profile's own requirements may both report a missing `name`, at different severities,
/// and the stricter one must survive.
fn dedup(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // In place, comparing with the ones kept so far: a file has a handful of diagnostics,
    // and copying each code into a seen-list was an allocation per diagnostic.
    let mut kept = 0;
    for i in 0..diagnostics.len() {
        let d = &diagnostics[i];
        let repeat = diagnostics[..kept]
            .iter()
            .any(|k| k.code == d.code && k.line == d.line && k.severity == d.severity);
        if !repeat {
            diagnostics.swap(kept, i);
            kept += 1;
        }
    }
    diagnostics.truncate(kept);
    diagnostics
}

/// `a/b/c.md` → `a:b:c`.
pub fn command_name(rel: &Path) -> String {
    let stem = rel.with_extension("");
    stem.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(":")
}

/// `apps/web/.claude/skills/deploy/SKILL.md` with marker `.claude/skills` → `apps/web`;
/// `None` when the marker is at the top (the project's own directory) or absent.
pub fn nested_prefix(rel: &Path, marker: &str) -> Option<String> {
    let rel = rel.to_string_lossy().replace('\\', "/");
    let at = rel.find(&format!("/{marker}/"))?;
    Some(rel[..at].to_string()).filter(|p| !p.is_empty())
}

/// A name (or the directory name standing in for it) with characters the profile refuses.
fn invalid_name_chars(profile: &Profile, name: &str, location: &Path) -> Diagnostic {
    let rules = profile.name_chars.as_ref();
    Diagnostic::error(
        "invalid-name",
        format!(
            "profile `{}` refuses the name `{name}`: it must start with [{}] and hold only [{}]",
            profile.name,
            rules.map_or("", |r| r.first.as_str()),
            rules.map_or("", |r| r.rest.as_str()),
        ),
    )
    .with_path(location)
    .with_hint("rename the skill (and its directory) with ASCII letters, digits and `-`")
}

/// The description as the profile's host shows it: tags removed
/// ([`Profile::description_strip_tags`]), then cut ([`Profile::description_truncate`]).
/// Borrowed when the host shows it as written (no copy per skill).
pub(crate) fn clean_description<'d>(profile: &Profile, description: &'d str) -> Cow<'d, str> {
    let mut text = if profile.description_strip_tags && description.contains('<') {
        Cow::Owned(strip_tags(description))
    } else {
        Cow::Borrowed(description)
    };
    if let Some(max) = profile.description_truncate {
        let mut units = 0usize;
        let end = text
            .char_indices()
            .find(|(_, c)| {
                units += c.len_utf16();
                units > max
            })
            .map_or(text.len(), |(i, _)| i);
        if end < text.len() {
            text.to_mut().truncate(end);
        }
    }
    text
}

/// JavaScript's `text.replace(/<[^>]+>/g, '')`.
fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('>') {
            Some(close) if close > 0 => rest = &after[close + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_patterns_match_whole_names_and_a_broken_one_matches_nothing() {
        let pattern = "[a-z]+(-[a-z]+)*";
        assert!(whole_match(pattern, "pdf-tools"));
        // Found inside the name but not the whole of it.
        assert!(!whole_match(pattern, "PDF-tools"));
        assert!(!whole_match(pattern, "pdf-"));
        // The second call takes the compiled pattern from the cache: same answers.
        assert!(whole_match(pattern, "pdf-tools"));
        assert!(!whole_match("(unclosed", "unclosed"));
    }

    #[test]
    fn descriptions_lose_tags_and_are_cut_in_utf16_units() {
        let mut profile = Profile::builtin("universal").unwrap();
        assert_eq!(clean_description(&profile, "a <b>c</b>"), "a <b>c</b>");
        profile.description_strip_tags = true;
        assert_eq!(
            clean_description(&profile, "a <b>c</b> <> 1 < 2"),
            "a c <> 1 < 2"
        );
        assert_eq!(clean_description(&profile, "x <multi\nline> y"), "x  y");
        profile.description_truncate = Some(3);
        assert_eq!(clean_description(&profile, "abcdef"), "abc");
        // U+1F600 is two UTF-16 units: it does not fit after two letters.
        assert_eq!(clean_description(&profile, "ab\u{1f600}"), "ab");
        assert_eq!(clean_description(&profile, "a\u{1f600}"), "a\u{1f600}");
    }

    #[test]
    fn command_names_join_path_segments() {
        assert_eq!(command_name(Path::new("a/b/c.md")), "a:b:c");
        assert_eq!(command_name(Path::new("deploy.md")), "deploy");
    }

    #[test]
    fn nested_prefix_needs_a_subdirectory() {
        assert_eq!(
            nested_prefix(
                Path::new("apps/web/.claude/skills/d/SKILL.md"),
                ".claude/skills"
            ),
            Some("apps/web".to_string())
        );
        assert_eq!(
            nested_prefix(Path::new(".claude/skills/d/SKILL.md"), ".claude/skills"),
            None
        );
    }
}
