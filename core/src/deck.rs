//! `Deck`: ties the pipeline together, owns the cache, and delivers events.

use crate::activate::{self, ActivateOptions, Activation};
use crate::cache::{Fingerprint, ParseCache};
use crate::catalog::{Catalog, Diff, Skill};
use crate::discover::{self, Inputs, Profile};
use crate::error::{Error, Result};
use crate::events::{Event, SubscriptionId};
use crate::options::DeckOptions;
use crate::render::{self, RenderOptions, Rendered};
use std::collections::BTreeMap;
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
}

/// What the previous discovery looked at and parsed.
#[derive(Default)]
struct CacheState {
    fingerprint: Option<Fingerprint>,
    parses: ParseCache,
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
            options.env = Some(std::env::vars().collect());
        }
        let profile = match &options.profile_file {
            Some(path) => Profile::from_file(path)?,
            None => Profile::builtin(&options.profile)?,
        };
        let cwd = if options.project_dir.is_absolute() {
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
    /// skill file walked) and returns the same `Arc`.
    pub fn load(&self) -> Result<Arc<Catalog>> {
        Ok(self.refresh(false).0)
    }

    /// Walk again (reusing the frontmatter of files whose stamp did not change) and report
    /// what changed since the previous snapshot, by id. Before any load, everything is
    /// `added`.
    pub fn reload(&self) -> Result<Diff> {
        Ok(self.refresh(true).1)
    }

    /// The shared refresh: returns the current snapshot and its diff to the previous one.
    /// Events go out after every lock is released.
    fn refresh(&self, force: bool) -> (Arc<Catalog>, Diff) {
        let (catalog, diff, events) = {
            let mut state = self
                .inner
                .state
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let previous = self.current();
            if !force {
                if let (Some(previous), Some(fingerprint)) = (&previous, &state.fingerprint) {
                    if fingerprint.is_current() {
                        return (previous.clone(), Diff::default());
                    }
                }
            }
            let discovery = discover::discover(
                &self.inner.profile,
                &self.inner.inputs,
                &self.inner.options,
                &mut state.parses,
            );
            let mut catalog = discovery.catalog;
            crate::filter::apply(&mut catalog, &self.inner.options);
            state.fingerprint = Some(discovery.fingerprint);
            let empty = Catalog::default();
            let diff = diff(previous.as_deref().unwrap_or(&empty), &catalog);
            let catalog = Arc::new(catalog);
            match self.inner.catalog.write() {
                Ok(mut slot) => *slot = Some(catalog.clone()),
                Err(poisoned) => *poisoned.into_inner() = Some(catalog.clone()),
            }
            let mut events = vec![Event::Registered {
                skills: catalog.skills.iter().map(|s| s.id.clone()).collect(),
            }];
            if previous.is_some() && !diff.is_empty() {
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
            (catalog, diff, events)
        };
        for event in &events {
            self.emit(event);
        }
        (catalog, diff)
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
        render::render(self.catalog()?.as_ref(), options)
    }

    /// Activate a skill: permission check, body load, substitution, formatting.
    pub fn activate(&self, id: &str, options: &ActivateOptions) -> Result<Activation> {
        let skill = self.get(id)?;
        let activation = activate::activate(&skill, &self.inner.options.project_dir, options)?;
        self.emit(&Event::Activated {
            id: skill.id.clone(),
            agent: options
                .agent
                .clone()
                .or_else(|| self.inner.options.agent.clone()),
        });
        Ok(activation)
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

/// Resolve the deck's inputs once, so nothing below reads the process.
fn inputs(options: &DeckOptions, cwd: &Path) -> Inputs {
    let env: BTreeMap<String, String> = options.env.clone().unwrap_or_default();
    let project = absolute(&cwd.join(&options.project_dir));
    let home = options
        .home_dir
        .clone()
        .or_else(|| env.get("HOME").filter(|h| !h.is_empty()).map(PathBuf::from))
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

/// Added, removed and changed ids between two snapshots (each list sorted).
pub fn diff(before: &Catalog, after: &Catalog) -> Diff {
    let old: BTreeMap<&str, &Skill> = before.skills.iter().map(|s| (s.id.as_str(), s)).collect();
    let new: BTreeMap<&str, &Skill> = after.skills.iter().map(|s| (s.id.as_str(), s)).collect();
    let mut diff = Diff::default();
    for (id, skill) in &new {
        match old.get(id) {
            None => diff.added.push((*id).to_string()),
            Some(prev) if *prev != *skill => diff.changed.push((*id).to_string()),
            Some(_) => {}
        }
    }
    diff.removed = old
        .keys()
        .filter(|id| !new.contains_key(*id))
        .map(|id| (*id).to_string())
        .collect();
    diff
}
