//! `Deck`: the engine entry point. Long calls come in two flavours: a Promise (`load`) that
//! runs on the libuv pool, and a blocking `...Sync` twin for scripts and CLIs.

use crate::error::check;
use crate::model::{Activation, Catalog, Diff, Rendered, SearchResults, Skill};
use crate::options::{
    strict, ActivateOptions, DeckOptions, RenderOptions, SearchOptions, ACTIVATE_KEYS, DECK_KEYS,
    RENDER_KEYS, SEARCH_KEYS,
};
use crate::task::CoreTask;
use napi::bindgen_prelude::*;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use skilldeck::catch_panic;
use std::sync::Arc;

/// Discovers, filters, renders and activates skills. Cheap to share; every method may be
/// called concurrently.
#[napi]
pub struct Deck {
    inner: skilldeck::Deck,
}

fn catalog(inner: Arc<skilldeck::Catalog>) -> Catalog {
    Catalog { inner }
}

fn diff(inner: skilldeck::Diff) -> Diff {
    Diff { inner }
}

fn rendered(inner: skilldeck::Rendered) -> Rendered {
    Rendered { inner }
}

fn search_results(inner: skilldeck::SearchResults) -> SearchResults {
    SearchResults { inner }
}

fn activation(inner: skilldeck::Activation) -> Activation {
    Activation { inner }
}

#[napi]
impl Deck {
    /// Build a deck (nothing is read until `load()`). Throws `INVALID_OPTIONS` on bad options.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "DeckOptions | undefined | null")] options: Option<Object>,
    ) -> Result<Self> {
        let options = match options {
            Some(object) => check(
                &env,
                strict::<DeckOptions>("Deck options", DECK_KEYS, object)
                    .and_then(|options| options.into_core(&env)),
            )?,
            None => skilldeck::DeckOptions::default(),
        };
        let inner = check(&env, catch_panic(|| skilldeck::Deck::new(options)))?;
        Ok(Deck { inner })
    }

    /// Discover, parse, resolve and filter on the libuv pool.
    #[napi(ts_return_type = "Promise<Catalog>")]
    pub fn load(&self) -> AsyncTask<CoreTask<Arc<skilldeck::Catalog>, Catalog>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.load(), catalog)
    }

    /// `load()` on the calling thread.
    #[napi]
    pub fn load_sync(&self, env: Env) -> Result<Catalog> {
        check(&env, catch_panic(|| self.inner.load())).map(catalog)
    }

    /// `load()` for a process that loads once and exits: nothing a later load could reuse
    /// is kept (no directory stamps, fingerprints or parse cache), which saves memory and
    /// time on large trees; a later `load()` or `reload()` discovers from scratch.
    #[napi(ts_return_type = "Promise<Catalog>")]
    pub fn load_once(&self) -> AsyncTask<CoreTask<Arc<skilldeck::Catalog>, Catalog>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.load_once(), catalog)
    }

    /// `loadOnce()` on the calling thread.
    #[napi]
    pub fn load_once_sync(&self, env: Env) -> Result<Catalog> {
        check(&env, catch_panic(|| self.inner.load_once())).map(catalog)
    }

    /// Load again and report what changed since the previous snapshot.
    #[napi(ts_return_type = "Promise<Diff>")]
    pub fn reload(&self) -> AsyncTask<CoreTask<skilldeck::Diff, Diff>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.reload(), diff)
    }

    /// `reload()` on the calling thread.
    #[napi]
    pub fn reload_sync(&self, env: Env) -> Result<Diff> {
        check(&env, catch_panic(|| self.inner.reload())).map(diff)
    }

    /// A skill by id or name (loads first if needed). Throws `NOT_FOUND`.
    #[napi]
    pub fn get(&self, env: Env, id: String) -> Result<Skill> {
        check(&env, catch_panic(|| self.inner.get(&id))).map(|inner| Skill { inner })
    }

    /// Render the model-visible skills into system-prompt text.
    #[napi(ts_return_type = "Promise<Rendered>")]
    pub fn render(
        &self,
        #[napi(ts_arg_type = "RenderOptions | undefined | null")] options: Option<Object>,
    ) -> AsyncTask<CoreTask<skilldeck::Rendered, Rendered>> {
        // Bad options reject the Promise like any other engine error instead of throwing.
        let options = render_options(options);
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.render(&options?), rendered)
    }

    /// `render()` on the calling thread.
    #[napi]
    pub fn render_sync(
        &self,
        env: Env,
        #[napi(ts_arg_type = "RenderOptions | undefined | null")] options: Option<Object>,
    ) -> Result<Rendered> {
        let result =
            render_options(options).and_then(|options| catch_panic(|| self.inner.render(&options)));
        check(&env, result).map(rendered)
    }

    /// Search the skills by what they do (BM25F over name, tags, category, description,
    /// parameter descriptions and, with `body: true`, the body; hybrid with your own
    /// embeddings), on the libuv pool. Rejects with `INVALID_OPTIONS` on unknown keys, wrong
    /// types, a blank query, a `limit` outside 1..=1000 or embeddings of different sizes.
    #[napi(
        ts_args_type = "options: SearchOptions",
        ts_return_type = "Promise<SearchResults>"
    )]
    pub fn search(
        &self,
        options: Option<Object>,
    ) -> AsyncTask<CoreTask<skilldeck::SearchResults, SearchResults>> {
        let options = search_options(options);
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.search(&options?), search_results)
    }

    /// `search()` on the calling thread.
    #[napi(ts_args_type = "options: SearchOptions")]
    pub fn search_sync(&self, env: Env, options: Option<Object>) -> Result<SearchResults> {
        let result =
            search_options(options).and_then(|options| catch_panic(|| self.inner.search(&options)));
        check(&env, result).map(search_results)
    }

    /// Activate a skill: permission check, body load, argument substitution, formatting.
    #[napi(ts_return_type = "Promise<Activation>")]
    pub fn activate(
        &self,
        id: String,
        #[napi(ts_arg_type = "ActivateOptions | undefined | null")] options: Option<Object>,
    ) -> AsyncTask<CoreTask<skilldeck::Activation, Activation>> {
        let options = activate_options(options);
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.activate(&id, &options?), activation)
    }

    /// `activate()` on the calling thread.
    #[napi]
    pub fn activate_sync(
        &self,
        env: Env,
        id: String,
        #[napi(ts_arg_type = "ActivateOptions | undefined | null")] options: Option<Object>,
    ) -> Result<Activation> {
        let result = activate_options(options)
            .and_then(|options| catch_panic(|| self.inner.activate(&id, &options)));
        check(&env, result).map(activation)
    }

    /// Call `callback` with every engine event. Delivery is queued to the JS thread and
    /// never blocks the engine; the subscription does not keep the process alive.
    /// Returns an id for `unsubscribe`.
    #[napi(ts_args_type = "callback: (event: SkillEvent) => void")]
    pub fn subscribe(
        &self,
        callback: Function<serde_json::Value, Unknown<'static>>,
    ) -> Result<i64> {
        let tsfn = callback
            .build_threadsafe_function()
            .weak::<true>()
            .build()?;
        let id = self.inner.subscribe(move |event| {
            if let Ok(value) = serde_json::to_value(event) {
                // Non-blocking: a full queue or a closing environment drops the event
                // rather than stalling the thread that caused it.
                let _ = tsfn.call(value, ThreadsafeFunctionCallMode::NonBlocking);
            }
        });
        i64::try_from(id.0).map_err(|_| Error::from_reason("subscription ids exhausted"))
    }

    /// Stop delivering events to a subscription. Returns false when the id is unknown.
    #[napi]
    pub fn unsubscribe(&self, id: i64) -> bool {
        match u64::try_from(id) {
            Ok(id) => self.inner.unsubscribe(skilldeck::SubscriptionId(id)),
            Err(_) => false,
        }
    }
}

fn render_options(options: Option<Object>) -> skilldeck::Result<skilldeck::RenderOptions> {
    match options {
        Some(object) => strict::<RenderOptions>("render options", RENDER_KEYS, object)?.into_core(),
        None => Ok(Default::default()),
    }
}

fn search_options(options: Option<Object>) -> skilldeck::Result<skilldeck::SearchOptions> {
    match options {
        Some(object) => strict::<SearchOptions>("search options", SEARCH_KEYS, object)?.into_core(),
        None => Err(skilldeck::Error::invalid_options(
            "search options: give an object with a `query`",
        )),
    }
}

fn activate_options(options: Option<Object>) -> skilldeck::Result<skilldeck::ActivateOptions> {
    match options {
        Some(object) => {
            strict::<ActivateOptions>("activate options", ACTIVATE_KEYS, object)?.into_core()
        }
        None => Ok(Default::default()),
    }
}
