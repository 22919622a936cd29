//! `Deck`: ties the pipeline together, owns the cache, and delivers events.

use crate::activate::{self, ActivateOptions, Activation};
use crate::cache::{FileStamps, Fingerprint, ParseCache};
use crate::catalog::{Catalog, Diff, Skill};
use crate::discover::{self, Inputs, Profile};
use crate::error::{Error, Result};
use crate::events::{Event, SubscriptionId};
use crate::host_settings::HostRules;
use crate::options::DeckOptions;
use crate::render::{self, RenderOptions, Rendered};
use crate::search::{self, SearchOptions, SearchResults};
use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

type Subscriber = Arc<dyn Fn(&Event) + Send + Sync>;

struct Inner {
    options: DeckOptions,
    profile: Profile,
    inputs: Inputs,
    catalog: RwLock<Option<Arc<Catalog>>>,
    /// Serialises loads; holds what makes a repeated load cheap.
    state: Mutex<CacheState>,
    subscribers: Mutex<Vec<(SubscriptionId, Subscriber)>>,
    next_subscription: AtomicU64,
    /// The search index of the last snapshot searched.
    search: Mutex<SearchState>,
    /// Sources of skills not on disk (MCP servers), merged into every snapshot.
    remote: RwLock<Vec<Arc<dyn crate::remote::RemoteSkillSource>>>,
}

/// What [`Deck::search`] keeps between calls: the index of one snapshot (its skills' terms
/// are reused for the next snapshot's unchanged skills) and the body terms read so far.
#[derive(Default)]
struct SearchState {
    /// The snapshot indexed, and with which skills (`all`) and fields (`body`).
    of: Option<(Arc<Catalog>, bool, bool)>,
    index: Option<search::Index>,
    bodies: search::BodyCache,
}

/// What the previous discovery looked at and parsed.
#[derive(Default)]
struct CacheState {
    last: Option<Last>,
    parses: ParseCache,
    /// Every root of the last discovery (present or not).
    roots: Vec<PathBuf>,
}

/// The inputs of the current snapshot, enough to tell what changed since.
struct Last {
    /// The walk, reused while no directory it read changed.
    layout: discover::WalkLayout,
    /// The stamps of the walked files, in walk order (their paths are the layout's).
    files: FileStamps,
    /// Plugin manifests read while naming.
    probes: Fingerprint,
    /// The host settings the filter stage read (their files are in `host.files`).
    host: HostRules,
}

/// What changed on disk since [`Last`], per kind of input.
struct LastChanges {
    /// Directories the walk read (and markers, absent roots).
    walk: crate::cache::Changes,
    /// Skill files, by walk index.
    files: crate::cache::Changes,
    /// Plugin manifests.
    probes: crate::cache::Changes,
    /// Host settings files.
    settings: crate::cache::Changes,
}

impl Last {
    /// One parallel `stat` pass over every input of the snapshot.
    fn changes(&self) -> LastChanges {
        let paths = self.layout.file_paths();
        let (all, files) = crate::cache::check_all_with_files(
            &[&self.layout.fingerprint, &self.probes, &self.host.files],
            &self.files,
            &paths,
        );
        let mut all = all.into_iter();
        // `check_all` answers once per fingerprint; a missing answer counts as a change, so
        // the worst case is a needless rebuild, never a stale snapshot.
        let mut next = || {
            all.next().unwrap_or(crate::cache::Changes {
                entries: Vec::new(),
                markers: true,
            })
        };
        LastChanges {
            walk: next(),
            files,
            probes: next(),
            settings: next(),
        }
    }
}

/// What a refresh must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refresh {
    /// Reuse the snapshot when nothing changed.
    Load,
    /// Always filter again and report the diff.
    Reload,
    /// Discover keeping nothing for later.
    Once,
    /// Discover keeping nothing, each skill cut to what a listing shows.
    Summary,
}

/// The engine's entry point. Cheap to clone (shared state), `Send + Sync`.
#[derive(Clone)]
pub struct Deck {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Deck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deck")
            .field("profile", &self.inner.options.profile)
            .field("project_dir", &self.inner.options.project_dir)
            .finish()
    }
}

impl Deck {
    /// Build a deck. This is the only place that reads the process: the environment when
    /// `options.env` is `None`, and the current directory to resolve a relative
    /// `project_dir`. The home directory is `options.home_dir`, else `env["HOME"]`; the
    /// system root is `options.system_root`, else `/`. Fails on an unknown profile or an
    /// unreadable profile file.
    pub fn new(mut options: DeckOptions) -> Result<Deck> {
        if options.env.is_none() {
            // `vars_os`, not `vars`: `vars` panics on the first variable that is not UTF-8,
            // and a non-UTF-8 working directory (through `PWD`) is enough for that.
            options.env = Some(std::env::vars_os().collect());
        }
        let profile = match &options.profile_file {
            Some(path) => Profile::from_file(path)?,
            None => Profile::builtin(&options.profile)?,
        };
        // The process's directory is read only when some path needs it: a deck with absolute
        // paths loads even where the working directory is gone.
        let cwd = if !needs_cwd(&options) {
            PathBuf::from("/")
        } else {
            std::env::current_dir().map_err(|e| Error::io(".", e))?
        };
        let inputs = inputs(&options, &cwd);
        Ok(Deck {
            inner: Arc::new(Inner {
                options,
                profile,
                inputs,
                catalog: RwLock::new(None),
                state: Mutex::new(CacheState::default()),
                subscribers: Mutex::new(Vec::new()),
                next_subscription: AtomicU64::new(1),
                search: Mutex::new(SearchState::default()),
                remote: RwLock::new(Vec::new()),
            }),
        })
    }

    /// The profile this deck discovers with.
    pub fn profile(&self) -> &Profile {
        &self.inner.profile
    }

    /// The resolved project directory, home directory, environment and system root.
    pub fn inputs(&self) -> &Inputs {
        &self.inner.inputs
    }

    pub fn options(&self) -> &DeckOptions {
        &self.inner.options
    }

    /// Discover, parse, resolve and filter. Returns the shared snapshot; a second call with
    /// nothing changed on disk only re-checks file metadata (one `stat` per directory and
    /// skill file walked, plugin manifest and host settings file) and returns the same
    /// `Arc`. When skill files were edited in place, only those files are read: a skill
    /// that keeps its name and place is replaced, and otherwise (a shadowed file, a renamed
    /// skill, a winner that now loses) only the names those files had and have are settled
    /// again from the cached entries; every other skill is shared with the previous
    /// snapshot. When only files changed in a way neither covers (a file that now fails to
    /// load, loose files, nested roots), the previous walk is reused; otherwise everything
    /// is discovered again.
    pub fn load(&self) -> Result<Arc<Catalog>> {
        Ok(self.refresh(Refresh::Load).0)
    }

    /// [`Deck::load`] for a process that loads once and exits, such as the CLI: nothing a
    /// later load could reuse is kept (no directory stamps, fingerprints or parse cache),
    /// which saves a `stat` per directory and a good part of the peak memory on a large
    /// tree. The snapshot becomes the current one; a later `load()` or `reload()` discovers
    /// from scratch.
    pub fn load_once(&self) -> Result<Arc<Catalog>> {
        Ok(self.refresh(Refresh::Once).0)
    }

    /// A one-shot load for a listing, such as `skilldeck list`: the same skills, order,
    /// statuses, shadowed entries and catalog diagnostics as [`Deck::load_once`], but each
    /// skill keeps no warnings and only the manifest fields a listing shows and the filter
    /// reads (name, description, `enabled`/`disabled`, `disable-model-invocation`,
    /// `user-invocable`, `os`, `requires`); every other field is dropped as each file is
    /// read, which roughly halves the peak memory of listing a large tree. The result is
    /// not the deck's snapshot: [`Deck::catalog`] and every later call are unaffected, no
    /// event is sent, and a parse cache left by earlier loads is read but not changed.
    pub fn load_summary(&self) -> Result<Arc<Catalog>> {
        let mut state = self
            .inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let catalog = self
            .rebuild(&mut state, None, Refresh::Summary)
            .unwrap_or_default();
        Ok(Arc::new(catalog))
    }

    /// Like [`Deck::load`], but always evaluates the filter stage again (so a binary that
    /// appeared on `PATH` counts even when no file changed), and reports what changed since
    /// the previous snapshot, by id. Before any load, everything is `added`.
    pub fn reload(&self) -> Result<Diff> {
        Ok(self.refresh(Refresh::Reload).1)
    }

    /// The shared refresh: returns the current snapshot and its diff to the previous one.
    /// Events go out after every lock is released.
    fn refresh(&self, mode: Refresh) -> (Arc<Catalog>, Diff) {
        let (catalog, diff, events) = {
            let mut state = self
                .inner
                .state
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let previous = self.current();
            let catalog = match self.rebuild(&mut state, previous.as_ref(), mode) {
                Some(catalog) => catalog,
                // Only when a previous snapshot exists and still holds.
                None => return (previous.unwrap_or_default(), Diff::default()),
            };
            let empty = Catalog::default();
            let diff = Diff::between(previous.as_deref().unwrap_or(&empty), &catalog);
            let catalog = Arc::new(catalog);
            match self.inner.catalog.write() {
                Ok(mut slot) => *slot = Some(catalog.clone()),
                Err(poisoned) => *poisoned.into_inner() = Some(catalog.clone()),
            }
            let events = self.events(&catalog, &diff, previous.is_some());
            (catalog, diff, events)
        };
        for event in &events {
            self.emit(event);
        }
        (catalog, diff)
    }

    /// A new filtered catalog, or `None` when nothing on disk changed and `mode` is
    /// [`Refresh::Load`] (the previous snapshot stands). One parallel `stat` pass over
    /// everything the last discovery depended on decides how much to redo: nothing; only the
    /// skill files that changed in place (a patch, see [`discover::patch`], or, when a
    /// changed file's skill lost a clash or changed its name, the clashes of its names, see
    /// [`discover::regroup`]); the reading and resolving with the previous walk (no
    /// directory changed); or everything.
    fn rebuild(
        &self,
        state: &mut CacheState,
        previous: Option<&Arc<Catalog>>,
        mode: Refresh,
    ) -> Option<Catalog> {
        let options = &self.inner.options;
        let keep = match mode {
            Refresh::Once => discover::Keep::Nothing,
            Refresh::Summary => discover::Keep::Summary,
            Refresh::Load | Refresh::Reload => discover::Keep::ForReload,
        };
        let mut layout = None;
        if keep == discover::Keep::Nothing {
            state.last = None;
            state.parses = ParseCache::default();
        } else if let (discover::Keep::ForReload, Some(previous), Some(last)) =
            (keep, previous, state.last.as_mut())
        {
            let changes = last.changes();
            let walk_holds = changes.walk.is_empty();
            let rest_holds = changes.probes.is_empty() && changes.settings.is_empty();
            let changed_files = &changes.files.entries;
            if walk_holds && rest_holds {
                if changed_files.is_empty() && mode == Refresh::Load && !self.remote_stale() {
                    return None;
                }
                let profile = &self.inner.profile;
                let patched = discover::patch::patch(
                    profile,
                    &last.layout,
                    previous,
                    changed_files,
                    &mut state.parses,
                )
                .or_else(|| {
                    // Remote skills sit after the local ones, where the regrouped names
                    // would be inserted among them.
                    if !self.remote_sources().is_empty() {
                        return None;
                    }
                    discover::regroup::regroup(
                        profile,
                        &last.layout,
                        &last.files,
                        previous,
                        changed_files,
                        &mut state.parses,
                    )
                });
                if let Some(patched) = patched {
                    for (index, stamp) in patched.stamps {
                        last.files.update(index, stamp);
                    }
                    let mut catalog = patched.catalog;
                    self.merge_remote(&mut catalog);
                    crate::filter::apply(&mut catalog, options, &last.host);
                    project_dir_diagnostic(&mut catalog, &self.inner.inputs.project);
                    return Some(catalog);
                }
            }
            if walk_holds {
                layout = state.last.take().map(|last| last.layout);
            }
        }
        let layout = layout.unwrap_or_else(|| {
            discover::layout_for(&self.inner.profile, &self.inner.inputs, options, keep)
        });
        let discovery = discover::finish_for(&self.inner.profile, layout, &mut state.parses, keep);
        state.roots = discovery.roots();
        let mut catalog = discovery.catalog;
        let host = HostRules::read(options, &self.inner.profile, &self.inner.inputs);
        self.merge_remote(&mut catalog);
        crate::filter::apply(&mut catalog, options, &host);
        project_dir_diagnostic(&mut catalog, &self.inner.inputs.project);
        if keep == discover::Keep::ForReload {
            state.last = Some(Last {
                layout: discovery.layout,
                files: discovery.files,
                probes: discovery.probes,
                host,
            });
        }
        Some(catalog)
    }

    /// The events of a new snapshot. They copy every id and error diagnostic: only worth it
    /// when someone listens.
    fn events(&self, catalog: &Catalog, diff: &Diff, had_previous: bool) -> Vec<Event> {
        if !self.has_subscribers() {
            return Vec::new();
        }
        let mut events = vec![Event::Registered {
            skills: catalog.skills.iter().map(|s| s.id.to_string()).collect(),
        }];
        if had_previous && !diff.is_empty() {
            events.push(Event::Changed { diff: diff.clone() });
        }
        events.extend(
            catalog
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| Event::Error {
                    diagnostic: d.clone(),
                }),
        );
        events
    }

    /// Add a source of skills that are not on disk (an MCP server, see
    /// [`crate::RemoteSkillSource`]): its listed skills join the next snapshot, and every
    /// later one, beside the local ones. The next load discovers from scratch once.
    pub fn add_remote_source(&self, source: Arc<dyn crate::remote::RemoteSkillSource>) {
        match self.inner.remote.write() {
            Ok(mut sources) => sources.push(source),
            Err(poisoned) => poisoned.into_inner().push(source),
        }
        let mut state = self
            .inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.last = None;
    }

    fn remote_sources(&self) -> Vec<Arc<dyn crate::remote::RemoteSkillSource>> {
        match self.inner.remote.read() {
            Ok(sources) => sources.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Whether a remote source's catalog changed since it was merged.
    fn remote_stale(&self) -> bool {
        self.remote_sources().iter().any(|s| s.is_stale())
    }

    fn merge_remote(&self, catalog: &mut Catalog) {
        let sources = match self.inner.remote.read() {
            Ok(sources) => sources.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        crate::remote::merge(catalog, &sources);
    }

    /// Make a remote skill's verified `SKILL.md` present at its `location` (fetched and
    /// verified by its source, or already cached); nothing for a skill on disk. Activation
    /// does this itself; call it before reading a remote skill's files otherwise.
    pub fn fetch_remote(&self, skill: &Skill) -> Result<()> {
        let Some(label) = crate::remote::remote_label(skill) else {
            return Ok(());
        };
        let sources = match self.inner.remote.read() {
            Ok(sources) => sources.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        match sources.iter().find(|s| s.label() == label) {
            Some(source) => source.fetch(&skill.id),
            None => Err(Error::NotFound {
                id: skill.id.to_string(),
            }),
        }
    }

    /// Every root directory the last discovery looked at, present or not.
    pub fn watched_roots(&self) -> Vec<PathBuf> {
        self.inner
            .state
            .lock()
            .map(|s| s.roots.clone())
            .unwrap_or_else(|e| e.into_inner().roots.clone())
    }

    /// Reload whenever a skill directory changes, once the tree has been quiet for
    /// `debounce`; subscribers receive the `changed` events. Stops when the returned
    /// [`Watcher`](crate::Watcher) is dropped. Needs the `watch` feature.
    #[cfg(feature = "watch")]
    pub fn watch(&self, debounce: std::time::Duration) -> Result<crate::discover::watch::Watcher> {
        // The roots are known only after a discovery.
        self.catalog()?;
        let deck = self.clone();
        let watcher = crate::discover::watch::start(&self.watched_roots(), debounce, move || {
            deck.reload().ok().map(|_| deck.watched_roots())
        })?;
        // A server's `list_changed` is a change too: its waker reloads like a file event.
        for source in self.remote_sources() {
            source.on_stale(watcher.waker());
        }
        Ok(watcher)
    }

    fn current(&self) -> Option<Arc<Catalog>> {
        match self.inner.catalog.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// The current snapshot, loading it first if needed.
    pub fn catalog(&self) -> Result<Arc<Catalog>> {
        if let Ok(guard) = self.inner.catalog.read() {
            if let Some(catalog) = guard.as_ref() {
                return Ok(catalog.clone());
            }
        }
        self.load()
    }

    /// A skill by id or name.
    pub fn get(&self, id: &str) -> Result<Skill> {
        self.catalog()?
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound { id: id.to_string() })
    }

    /// Render the model-visible skills.
    pub fn render(&self, options: &RenderOptions) -> Result<Rendered> {
        self.render_with_counter(options, None)
    }

    /// [`Deck::render`] counting tokens with `counter` (for `budget_tokens`) instead of the
    /// 4-characters-per-token approximation. When `options.agent` differs from the deck's
    /// agent, permissions are evaluated for that agent.
    pub fn render_with_counter(
        &self,
        options: &RenderOptions,
        counter: Option<render::TokenCounter<'_>>,
    ) -> Result<Rendered> {
        options.check()?;
        let catalog = self.catalog()?;
        let roots = self.scan_roots();
        let rules = self.permission_rules();
        let deck_agent = self.inner.options.agent.as_deref();
        let agent = options.agent.as_deref().or(deck_agent);
        let relevance = match &options.query {
            Some(query) => Some(self.relevance(query)?),
            None => None,
        };
        let context = render::RenderContext {
            counter,
            roots: &roots,
            tool_disabled: rules.tool_disabled(agent),
            relevance: relevance.as_ref(),
        };
        match options.agent.as_deref() {
            Some(agent) if Some(agent) != deck_agent => {
                let mut for_agent = (*catalog).clone();
                crate::filter::apply_permissions(&mut for_agent, &rules, Some(agent));
                render::render_with(&for_agent, options, &context)
            }
            _ => render::render_with(&catalog, options, &context),
        }
    }

    /// Search the current snapshot (see [`crate::search`]). The index is kept: a second
    /// search of the same snapshot only ranks, and after a reload only the skills that
    /// changed are cut into terms again.
    pub fn search(&self, options: &SearchOptions) -> Result<SearchResults> {
        options.check()?;
        self.with_index(options.all, options.body, |index| {
            search::run(index, options)
        })
    }

    /// BM25F relevance of the model-visible skills to `query`, from the kept index.
    fn relevance(&self, query: &str) -> Result<HashMap<String, f64>> {
        self.with_index(false, false, |index| search::relevance(index, query))
    }

    fn with_index<T>(
        &self,
        all: bool,
        body: bool,
        f: impl FnOnce(&search::Index) -> T,
    ) -> Result<T> {
        let catalog = self.catalog()?;
        let mut state = match self.inner.search.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let current = matches!(
            &state.of,
            Some((c, a, b)) if Arc::ptr_eq(c, &catalog) && *a == all && *b == body
        );
        if !current || state.index.is_none() {
            let skills = search::index::searched(&catalog, all);
            let bodies = if body {
                state.bodies.terms_for(&skills)
            } else {
                HashMap::new()
            };
            let index = search::Index::build(&skills, state.index.as_ref(), &bodies);
            state.index = Some(index);
            state.of = Some((Arc::clone(&catalog), all, body));
        }
        Ok(f(state
            .index
            .as_ref()
            .map_or(&search::Index::default(), |i| i)))
    }

    /// The profile's skill roots in scan order, then the caller's extra roots (known
    /// before any load, unlike [`Deck::watched_roots`]).
    pub fn scan_roots(&self) -> Vec<std::path::PathBuf> {
        let inputs = &self.inner.inputs;
        let expansion = discover::roots::expand(
            &self.inner.profile,
            inputs,
            self.inner.options.nested,
            self.inner.options.read_host_settings,
        );
        expansion
            .roots
            .into_iter()
            .map(|r| r.path.to_path_buf())
            .chain(self.inner.options.roots.iter().map(|r| {
                discover::roots::absolutise(&r.path, &inputs.project, inputs.home.as_deref())
            }))
            .collect()
    }

    /// The permission rules in force: the host settings of the profile, then `options.rules`.
    pub fn permission_rules(&self) -> crate::permissions::PermissionRules {
        let host = HostRules::read(&self.inner.options, &self.inner.profile, &self.inner.inputs);
        crate::filter::effective_rules(&self.inner.options, &host)
    }

    /// Activate a skill: permission check, body load, substitution, formatting.
    pub fn activate(&self, id: &str, options: &ActivateOptions) -> Result<Activation> {
        self.activate_with(id, options, &activate::expand::Expansions::default())
    }

    /// [`Deck::activate`] with opt-in expansions of `` !`cmd` `` blocks and `@file`
    /// references (see [`activate::activate_with`]). A skill denied for the agent fails with
    /// [`Error::PermissionDenied`] naming the rule; a disabled one with [`Error::NotFound`].
    pub(crate) fn activate_with(
        &self,
        id: &str,
        options: &ActivateOptions,
        expansions: &activate::expand::Expansions<'_>,
    ) -> Result<Activation> {
        options.check()?;
        let (skill, evaluation, agent) = self.authorize(id, options.agent.as_deref())?;
        self.fetch_remote(&skill)?;
        let mut activation =
            activate::activate_with(&skill, &self.inner.inputs.project, options, expansions)?;
        if let Some(label) = crate::remote::remote_label(&skill) {
            // The cache holds only what was read (`SKILL.md`): the skill's files are the
            // manifest's, at the server, by URI (SEP-2640: reads resolve to listed URIs).
            let files = self
                .remote_sources()
                .iter()
                .find(|s| s.label() == label)
                .and_then(|s| s.files(&skill.id));
            if let Some(files) = &files {
                activation.resources = files.uris.clone();
            }
            activation.text = format!(
                "{}\n\n{}",
                crate::remote::origin_note(label, &skill.id, files.as_ref()),
                activation.text
            );
        }
        if evaluation.decision == crate::permissions::Decision::Ask {
            activation.mark_ask(evaluation.rule.as_ref());
        }
        self.emit(&Event::Activated {
            id: skill.id.to_string(),
            agent: agent.clone(),
        });
        self.emit(&Event::Equipped {
            id: skill.id.to_string(),
            agent,
        });
        Ok(activation)
    }

    /// The check every use of a skill passes first (activation, running it): the skill is
    /// in the catalog and switched on ([`Error::NotFound`] otherwise) and no permission rule
    /// denies it for `agent` (else the deck's agent) ([`Error::PermissionDenied`] naming the
    /// rule). Returns the skill, the rules' evaluation (`allow` or `ask`) and the agent.
    pub fn authorize(
        &self,
        id: &str,
        agent: Option<&str>,
    ) -> Result<(Skill, crate::permissions::Evaluation, Option<String>)> {
        let skill = self.get(id)?;
        // A switched-off skill is not loaded by its host (`enabled: false`, Codex config,
        // `skillOverrides: off`); `list --all` shows why.
        if !skill.status.enabled {
            return Err(Error::NotFound { id: id.to_string() });
        }
        let agent = agent
            .map(str::to_string)
            .or_else(|| self.inner.options.agent.clone());
        let rules = self.permission_rules();
        if let Some(rule) = crate::filter::denying_rule(&rules, &skill.id, agent.as_deref()) {
            return Err(Error::PermissionDenied {
                id: skill.id.to_string(),
                rule,
            });
        }
        let evaluation = rules.evaluate(&skill.id, agent.as_deref());
        Ok((skill, evaluation, agent))
    }

    /// Register an event callback. Callbacks run on the thread that caused the event,
    /// after every engine lock is released.
    pub fn subscribe(&self, callback: impl Fn(&Event) + Send + Sync + 'static) -> SubscriptionId {
        let id = SubscriptionId(self.inner.next_subscription.fetch_add(1, Ordering::Relaxed));
        if let Ok(mut subs) = self.inner.subscribers.lock() {
            subs.push((id, Arc::new(callback)));
        }
        id
    }

    pub fn unsubscribe(&self, id: SubscriptionId) -> bool {
        match self.inner.subscribers.lock() {
            Ok(mut subs) => {
                let before = subs.len();
                subs.retain(|(sid, _)| *sid != id);
                subs.len() != before
            }
            Err(_) => false,
        }
    }

    fn has_subscribers(&self) -> bool {
        match self.inner.subscribers.lock() {
            Ok(subs) => !subs.is_empty(),
            Err(_) => false,
        }
    }

    /// Deliver `event` to this deck's subscribers: how a companion crate (the runner's
    /// `exec_started` / `exec_finished`) reports on the deck's one event stream.
    pub fn publish(&self, event: &Event) {
        self.emit(event);
    }

    /// Deliver `event` to every subscriber. Callers must hold no engine lock.
    fn emit(&self, event: &Event) {
        // Copy the list out so a callback may subscribe/unsubscribe without deadlocking.
        let subscribers: Vec<Subscriber> = match self.inner.subscribers.lock() {
            Ok(subs) => subs.iter().map(|(_, s)| s.clone()).collect(),
            Err(_) => return,
        };
        for subscriber in subscribers {
            subscriber(event);
        }
    }
}

/// Code of the warning for a project directory that does not exist.
pub const PROJECT_DIR_MISSING: &str = "project-dir-missing";
/// Code of the warning for a project directory that is not a directory (a file).
pub const PROJECT_DIR_NOT_A_DIRECTORY: &str = "project-dir-not-a-directory";

/// Warn when the project directory does not exist or is not a directory: the project's
/// skills (and its ancestors') are then silently absent. A warning, not an error: the
/// user's own skills are still found, and the directory may appear before the next reload.
/// Replaces the warning of an earlier snapshot.
fn project_dir_diagnostic(catalog: &mut Catalog, project: &Path) {
    catalog
        .diagnostics
        .retain(|d| d.code != PROJECT_DIR_MISSING && d.code != PROJECT_DIR_NOT_A_DIRECTORY);
    let diagnostic = match std::fs::metadata(project) {
        Ok(meta) if meta.is_dir() => return,
        Ok(_) => crate::Diagnostic::warning(
            PROJECT_DIR_NOT_A_DIRECTORY,
            "the project directory is not a directory; no skills are found in or above it",
        )
        .with_hint(
            "give the directory the agent works in (a file's parent directory, not the file)",
        ),
        Err(_) => crate::Diagnostic::warning(
            PROJECT_DIR_MISSING,
            "the project directory does not exist; no skills are found in or above it",
        )
        .with_hint("check the path (relative paths are resolved against the current directory)"),
    };
    catalog.diagnostics.push(diagnostic.with_path(project));
}

/// Whether a path of the deck is resolved against the working directory: the project, the
/// home (given, or `HOME`) or the system root is relative.
fn needs_cwd(options: &DeckOptions) -> bool {
    let env_home = options
        .env
        .as_ref()
        .and_then(|env| env.get(OsStr::new("HOME")))
        .map(Path::new);
    [
        Some(options.project_dir.as_path()),
        options.home_dir.as_deref().or(env_home),
        options.system_root.as_deref(),
    ]
    .into_iter()
    .flatten()
    .any(Path::is_relative)
}

/// Resolve the deck's inputs once, so nothing below reads the process.
fn inputs(options: &DeckOptions, cwd: &Path) -> Inputs {
    let env: BTreeMap<OsString, OsString> = options.env.clone().unwrap_or_default();
    let project = absolute(&cwd.join(&options.project_dir));
    let home = options
        .home_dir
        .clone()
        .or_else(|| {
            env.get(OsStr::new("HOME"))
                .filter(|h| !h.is_empty())
                .map(PathBuf::from)
        })
        .map(|h| absolute(&cwd.join(h)));
    let system_root = options
        .system_root
        .clone()
        .map(|s| absolute(&cwd.join(s)))
        .unwrap_or_else(|| PathBuf::from("/"));
    Inputs {
        project,
        home,
        env,
        system_root,
    }
}

/// The real path when it exists (so ancestor walks see through `..` and links), else the
/// lexically normalised one.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| discover::roots::normalise(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn deck(root: &Path) -> Deck {
        Deck::new(DeckOptions {
            project_dir: root.join("project"),
            home_dir: Some(root.join("home")),
            env: Some(BTreeMap::new()),
            system_root: Some(root.to_path_buf()),
            ..DeckOptions::default()
        })
        .expect("deck")
    }

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n")
    }

    #[test]
    fn deck_is_send_sync_and_cheap_to_clone() {
        fn assert_send_sync<T: Send + Sync + Clone>() {}
        assert_send_sync::<Deck>();
    }

    #[test]
    fn a_relative_home_is_resolved_against_the_working_directory() {
        // With an absolute project the home used to be resolved against `/` (`home` was
        // `/home`), never against the process's directory.
        let cwd = std::env::current_dir().expect("cwd");
        let deck = Deck::new(DeckOptions {
            project_dir: cwd.clone(),
            home_dir: Some(PathBuf::from("some-home")),
            system_root: Some(PathBuf::from("sys")),
            env: Some(BTreeMap::new()),
            ..DeckOptions::default()
        })
        .expect("deck");
        let cwd = absolute(&cwd);
        assert_eq!(deck.inputs().home, Some(cwd.join("some-home")));
        assert_eq!(deck.inputs().system_root, cwd.join("sys"));
        let absolute_only = DeckOptions {
            project_dir: PathBuf::from("/p"),
            home_dir: Some(PathBuf::from("/h")),
            env: Some(BTreeMap::from([("HOME".into(), "rel".into())])),
            ..DeckOptions::default()
        };
        assert!(!needs_cwd(&absolute_only));
        assert!(needs_cwd(&DeckOptions {
            home_dir: None,
            ..absolute_only
        }));
    }

    #[test]
    fn unchanged_tree_returns_the_same_snapshot() {
        let t = tempfile::tempdir().expect("tempdir");
        write(
            &t.path().join("project/.agents/skills/a/SKILL.md"),
            &skill("a", "A."),
        );
        let deck = deck(t.path());
        let first = deck.load().expect("load");
        let second = deck.load().expect("load");
        assert!(
            Arc::ptr_eq(&first, &second),
            "a no-change load must reuse the snapshot"
        );
        assert_eq!(first.skills.len(), 1);
    }

    #[test]
    fn load_notices_a_new_skill_and_an_edit() {
        let t = tempfile::tempdir().expect("tempdir");
        let a = t.path().join("project/.agents/skills/a/SKILL.md");
        write(&a, &skill("a", "A."));
        let deck = deck(t.path());
        let first = deck.load().expect("load");
        write(
            &t.path().join("project/.agents/skills/b/SKILL.md"),
            &skill("b", "B."),
        );
        let second = deck.load().expect("load");
        assert_eq!(second.skills.len(), 2);
        // Same size, new content: the mtime/inode stamp still tells.
        write(&a, &skill("a", "Z."));
        let bumped = filetime::FileTime::from_unix_time(2_000_000_000, 0);
        filetime::set_file_mtime(&a, bumped).expect("mtime");
        let third = deck.load().expect("load");
        assert_eq!(third.get("a").map(|s| s.description()), Some("Z."));
        assert!(!Arc::ptr_eq(&first, &third));
    }

    #[test]
    fn a_shadowed_skill_that_wins_after_a_reload_is_whole() {
        let t = tempfile::tempdir().expect("tempdir");
        let winner = t.path().join("project/.agents/skills/a/SKILL.md");
        let loser = t.path().join("home/.agents/skills/a/SKILL.md");
        write(&winner, &skill("a", "Project."));
        // A field naming does not read, and a warning: what a slim cache entry drops.
        write(
            &loser,
            "---\nname: a\ndescription: Home.\nlicense: MIT\nunknown-key: 1\n---\nBody.\n",
        );
        let deck = deck(t.path());
        let first = deck.load().expect("load");
        assert_eq!(first.get("a").map(|s| s.description()), Some("Project."));
        assert_eq!(first.shadowed.len(), 1);
        {
            let state = deck.inner.state.lock().expect("state");
            let entry = state.parses.entry(&loser).expect("the loser is cached");
            assert!(entry.is_slim(), "a shadowed file keeps a slim cache entry");
            assert_eq!(entry.manifest.manifest().license, None);
        }

        std::fs::remove_dir_all(winner.parent().expect("dir")).expect("remove the winner");
        // A summary load cannot read a file again after resolving: it takes no slim entry.
        let summary = deck.load_summary().expect("load_summary");
        assert_eq!(summary.get("a").map(|s| s.description()), Some("Home."));
        let second = deck.load().expect("load");
        let fresh = deck_for_comparison(t.path());
        let expected = fresh.get("a").expect("a loads");
        assert_eq!(expected.description(), "Home.");
        assert_eq!(expected.manifest.license.as_deref(), Some("MIT"));
        assert!(!expected.diagnostics.is_empty(), "the loser has a warning");
        assert_eq!(second.get("a"), Some(expected));
        assert!(second.shadowed.is_empty());
        let state = deck.inner.state.lock().expect("state");
        let entry = state.parses.entry(&loser).expect("cached");
        assert!(!entry.is_slim(), "the winner's entry is whole again");
    }

    /// What a fresh deck's one-shot load finds under `root`.
    fn deck_for_comparison(root: &Path) -> Arc<Catalog> {
        deck(root).load_once().expect("load_once")
    }

    #[test]
    fn events_are_delivered_and_callbacks_may_reenter() {
        let t = tempfile::tempdir().expect("tempdir");
        write(
            &t.path().join("project/.agents/skills/a/SKILL.md"),
            &skill("a", "A."),
        );
        write(
            &t.path().join("project/.agents/skills/bad/SKILL.md"),
            "---\nname: [x\n---\n",
        );
        let deck = deck(t.path());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let reentered = Arc::new(AtomicUsize::new(0));
        {
            let seen = seen.clone();
            let reentered = reentered.clone();
            let inner = deck.clone();
            deck.subscribe(move |event| {
                // Calling back into the deck from a callback must not deadlock.
                if inner.catalog().is_ok() {
                    reentered.fetch_add(1, Ordering::SeqCst);
                }
                seen.lock().expect("lock").push(event.clone());
            });
        }
        deck.load().expect("load");
        write(
            &t.path().join("project/.agents/skills/b/SKILL.md"),
            &skill("b", "B."),
        );
        let diff = deck.reload().expect("reload");
        assert_eq!(diff.added, ["b"]);
        let events = seen.lock().expect("lock").clone();
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| match e {
                Event::Registered { .. } => "registered",
                Event::Changed { .. } => "changed",
                Event::Error { .. } => "error",
                Event::Activated { .. } => "activated",
                Event::Equipped { .. } => "equipped",
                Event::ExecStarted { .. } => "exec_started",
                Event::ExecFinished { .. } => "exec_finished",
            })
            .collect();
        assert_eq!(
            kinds,
            ["registered", "error", "registered", "changed", "error"]
        );
        assert_eq!(reentered.load(Ordering::SeqCst), events.len());
    }

    #[test]
    fn concurrent_loads_agree() {
        let t = tempfile::tempdir().expect("tempdir");
        for i in 0..20 {
            write(
                &t.path()
                    .join(format!("project/.agents/skills/s{i}/SKILL.md")),
                &skill(&format!("s{i}"), "S."),
            );
        }
        let deck = deck(t.path());
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let deck = deck.clone();
                std::thread::spawn(move || deck.load().map(|c| c.skills.len()).unwrap_or(0))
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().expect("join"), 20);
        }
    }

    #[cfg(feature = "watch")]
    #[test]
    fn watch_reloads_on_a_new_skill_and_on_an_edit() {
        let t = tempfile::tempdir().expect("tempdir");
        let skills = t.path().join("project/.agents/skills");
        write(&skills.join("a/SKILL.md"), &skill("a", "A."));
        let deck = deck(t.path());
        let (tx, rx) = std::sync::mpsc::channel();
        let tx = Mutex::new(tx);
        deck.subscribe(move |event| {
            if let Event::Changed { diff } = event {
                let _ = tx.lock().map(|tx| tx.send(diff.clone()));
            }
        });
        let _watcher = deck
            .watch(std::time::Duration::from_millis(50))
            .expect("watch");
        // Generous bound: this waits for the event, it does not time the engine.
        let wait = std::time::Duration::from_secs(30);
        write(&skills.join("b/SKILL.md"), &skill("b", "B."));
        let diff = rx.recv_timeout(wait).expect("a changed event for b");
        assert_eq!(diff.added, ["b"]);
        // A longer description: the size differs, so the stat-based check sees the edit
        // even within the file system's timestamp granularity.
        write(&skills.join("a/SKILL.md"), &skill("a", "A, edited."));
        let diff = rx.recv_timeout(wait).expect("a changed event for a");
        assert_eq!(diff.changed, ["a"]);
        assert_eq!(
            deck.get("a")
                .map(|s| s.description().to_string())
                .ok()
                .as_deref(),
            Some("A, edited.")
        );
    }

    /// `tmp/<name>` where `name` holds bytes that are not UTF-8.
    #[cfg(unix)]
    fn non_utf8(dir: &Path, name: &[u8]) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        dir.join(std::ffi::OsStr::from_bytes(name))
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_project_home_and_variables_find_their_skills() {
        let t = tempfile::tempdir().expect("tempdir");
        let project = non_utf8(t.path(), b"project-\xff");
        let home = non_utf8(t.path(), b"home-\xfe");
        let codex = non_utf8(t.path(), b"codex-\xfd");
        let config = non_utf8(t.path(), b"config-\xfc");
        write(
            &project.join(".agents/skills/p/SKILL.md"),
            &skill("p", "P."),
        );
        write(&home.join(".agents/skills/h/SKILL.md"), &skill("h", "H."));
        write(&codex.join("skills/c/SKILL.md"), &skill("c", "C."));
        write(
            &config.join("opencode/skills/x/SKILL.md"),
            &skill("x", "X."),
        );
        let env: BTreeMap<OsString, OsString> = BTreeMap::from([
            ("HOME".into(), home.clone().into_os_string()),
            ("CODEX_HOME".into(), codex.into_os_string()),
            ("XDG_CONFIG_HOME".into(), config.into_os_string()),
            (
                non_utf8(Path::new(""), b"ODD_\xff").into_os_string(),
                non_utf8(Path::new(""), b"\xfe").into_os_string(),
            ),
        ]);
        let deck = Deck::new(DeckOptions {
            project_dir: project.clone(),
            env: Some(env),
            system_root: Some(t.path().to_path_buf()),
            ..DeckOptions::default()
        })
        .expect("deck");
        assert_eq!(deck.inputs().home.as_deref(), Some(home.as_path()));
        let catalog = deck.load().expect("load");
        let mut ids: Vec<&str> = catalog.skills.iter().map(|s| s.id.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["c", "h", "p", "x"], "{:?}", catalog.diagnostics);
        let p = catalog.get("p").expect("p");
        assert!(p.location.starts_with(&project), "{}", p.location.display());
        let activation = deck.activate("p", &ActivateOptions::default());
        assert!(activation.is_ok(), "{activation:?}");
    }

    /// The process environment itself holds a variable that is not UTF-8 (`env: None`):
    /// `Deck::new` once panicked in `std::env::vars()`. The test runs itself again as a child
    /// process with that environment, so this process's environment is never changed while
    /// other tests run.
    #[cfg(unix)]
    #[test]
    fn a_non_utf8_process_environment_is_read() {
        const CHILD: &str = "SKILLDECK_TEST_NON_UTF8_CHILD";
        if let Some(project) = std::env::var_os(CHILD) {
            let project = PathBuf::from(project);
            let deck = Deck::new(DeckOptions {
                project_dir: project.clone(),
                ..DeckOptions::default()
            })
            .expect("deck");
            let home = std::env::var_os("HOME").map(PathBuf::from);
            assert_eq!(deck.inputs().home, home);
            let catalog = deck.load().expect("load");
            assert!(catalog.get("p").is_some(), "{:?}", catalog.diagnostics);
            assert!(catalog.get("h").is_some(), "{:?}", catalog.diagnostics);
            return;
        }
        let t = tempfile::tempdir().expect("tempdir");
        let project = non_utf8(t.path(), b"project-\xff");
        let home = non_utf8(t.path(), b"home-\xfe");
        write(
            &project.join(".agents/skills/p/SKILL.md"),
            &skill("p", "P."),
        );
        write(&home.join(".agents/skills/h/SKILL.md"), &skill("h", "H."));
        let exe = std::env::current_exe().expect("test binary");
        let output = std::process::Command::new(exe)
            .args([
                "--exact",
                "deck::tests::a_non_utf8_process_environment_is_read",
                "--test-threads=1",
            ])
            .env(CHILD, &project)
            .env("HOME", &home)
            .env("PWD", &project)
            .env(
                non_utf8(Path::new(""), b"SKILLDECK_ODD_\xff"),
                non_utf8(Path::new(""), b"\xfe"),
            )
            .output()
            .expect("run the child");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // The filter matched the test: it ran, it was not skipped.
        assert!(stdout.contains("1 passed"), "{stdout}");
    }

    #[test]
    fn nothing_is_read_from_the_process_home() {
        let t = tempfile::tempdir().expect("tempdir");
        let deck = Deck::new(DeckOptions {
            project_dir: t.path().to_path_buf(),
            env: Some(BTreeMap::new()),
            ..DeckOptions::default()
        })
        .expect("deck");
        assert_eq!(
            deck.inputs().home,
            None,
            "no HOME in the deck's env means no home"
        );
        assert!(deck.load().expect("load").skills.is_empty());
    }
}
