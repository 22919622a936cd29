//! `Deck`: ties the pipeline together, owns the cache, and delivers events.

use crate::activate::{self, ActivateOptions, Activation};
use crate::catalog::{Catalog, Diff, Skill};
use crate::error::{Error, Result};
use crate::events::{Event, SubscriptionId};
use crate::options::DeckOptions;
use crate::render::{self, RenderOptions, Rendered};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

type Subscriber = Arc<dyn Fn(&Event) + Send + Sync>;

struct Inner {
    options: DeckOptions,
    catalog: RwLock<Option<Arc<Catalog>>>,
    subscribers: Mutex<Vec<(SubscriptionId, Subscriber)>>,
    next_subscription: AtomicU64,
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
    /// Build a deck. The process environment is captured here when `options.env` is `None`.
    pub fn new(mut options: DeckOptions) -> Result<Deck> {
        if options.env.is_none() {
            options.env = Some(std::env::vars().collect());
        }
        Ok(Deck {
            inner: Arc::new(Inner {
                options,
                catalog: RwLock::new(None),
                subscribers: Mutex::new(Vec::new()),
                next_subscription: AtomicU64::new(1),
            }),
        })
    }

    pub fn options(&self) -> &DeckOptions {
        &self.inner.options
    }

    /// Discover, parse, resolve and filter. Returns the shared snapshot; a second call with
    /// nothing changed on disk only re-checks file metadata.
    pub fn load(&self) -> Result<Arc<Catalog>> {
        Err(Error::invalid_options("discovery is being built (issue 3)"))
    }

    /// Load again and report what changed since the previous snapshot.
    pub fn reload(&self) -> Result<Diff> {
        Err(Error::invalid_options("discovery is being built (issue 3)"))
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
