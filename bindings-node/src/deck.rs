//! `Deck`: the engine entry point. Long calls come in two flavours: a Promise (`load`) that
//! runs on the libuv pool, and a blocking `...Sync` twin for scripts and CLIs.

use crate::error::check;
use crate::heap::{trimmed, LastLoad};
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
    pub(crate) inner: skilldeck::Deck,
    last_load: Arc<LastLoad>,
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
        #[napi(ts_arg_type = "DeckOptions | undefined | null")] options: Option<Unknown>,
    ) -> Result<Self> {
        let options = check(
            &env,
            options_object(
                "new Deck(...)",
                "new Deck({ profile: 'claude-code' })",
                options,
            ),
        )?;
        let options = match options {
            Some(object) => check(
                &env,
                strict::<DeckOptions>("Deck options", DECK_KEYS, object)
                    .and_then(|options| options.into_core(&env)),
            )?,
            None => skilldeck::DeckOptions::default(),
        };
        let inner = check(&env, catch_panic(|| skilldeck::Deck::new(options)))?;
        Ok(Deck {
            inner,
            last_load: Arc::default(),
        })
    }

    /// Discover, parse, resolve and filter on the libuv pool.
    #[napi(ts_return_type = "Promise<Catalog>")]
    pub fn load(&self) -> AsyncTask<CoreTask<Arc<skilldeck::Catalog>, Catalog>> {
        let (deck, last_load) = (self.inner.clone(), self.last_load.clone());
        CoreTask::spawn(move || last_load.trimmed(deck.load()), catalog)
    }

    /// `load()` on the calling thread.
    #[napi]
    pub fn load_sync(&self, env: Env) -> Result<Catalog> {
        let loaded = catch_panic(|| self.inner.load());
        check(&env, self.last_load.trimmed(loaded)).map(catalog)
    }

    /// `load()` for a process that loads once and exits: nothing a later load could reuse
    /// is kept (no directory stamps, fingerprints or parse cache), which saves memory and
    /// time on large trees; a later `load()` or `reload()` discovers from scratch.
    #[napi(ts_return_type = "Promise<Catalog>")]
    pub fn load_once(&self) -> AsyncTask<CoreTask<Arc<skilldeck::Catalog>, Catalog>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || trimmed(deck.load_once()), catalog)
    }

    /// `loadOnce()` on the calling thread.
    #[napi]
    pub fn load_once_sync(&self, env: Env) -> Result<Catalog> {
        check(&env, trimmed(catch_panic(|| self.inner.load_once()))).map(catalog)
    }

    /// A one-shot load for a listing: the same skills, order, statuses, shadowed entries
    /// and catalog diagnostics as `loadOnce()`, but each skill keeps no warnings and only
    /// the manifest fields a listing shows and the filter reads (name, description,
    /// `enabled`/`disabled`, `disable-model-invocation`, `user-invocable`, `os`,
    /// `requires`), which roughly halves the peak memory on large trees. It does not replace
    /// the deck's snapshot: `get()`, `render()` and later loads see whole skills.
    #[napi(ts_return_type = "Promise<Catalog>")]
    pub fn load_summary(&self) -> AsyncTask<CoreTask<Arc<skilldeck::Catalog>, Catalog>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || trimmed(deck.load_summary()), catalog)
    }

    /// `loadSummary()` on the calling thread.
    #[napi]
    pub fn load_summary_sync(&self, env: Env) -> Result<Catalog> {
        check(&env, trimmed(catch_panic(|| self.inner.load_summary()))).map(catalog)
    }

    /// Load again and report what changed since the previous snapshot.
    #[napi(ts_return_type = "Promise<Diff>")]
    pub fn reload(&self) -> AsyncTask<CoreTask<skilldeck::Diff, Diff>> {
        let deck = self.inner.clone();
        CoreTask::spawn(move || trimmed(deck.reload()), diff)
    }

    /// `reload()` on the calling thread.
    #[napi]
    pub fn reload_sync(&self, env: Env) -> Result<Diff> {
        check(&env, trimmed(catch_panic(|| self.inner.reload()))).map(diff)
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
        #[napi(ts_arg_type = "RenderOptions | undefined | null")] options: Option<Unknown>,
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
        #[napi(ts_arg_type = "RenderOptions | undefined | null")] options: Option<Unknown>,
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
        options: Option<Unknown>,
    ) -> AsyncTask<CoreTask<skilldeck::SearchResults, SearchResults>> {
        let options = search_options(options);
        let deck = self.inner.clone();
        CoreTask::spawn(move || deck.search(&options?), search_results)
    }

    /// `search()` on the calling thread.
    #[napi(ts_args_type = "options: SearchOptions")]
    pub fn search_sync(&self, env: Env, options: Option<Unknown>) -> Result<SearchResults> {
        let result =
            search_options(options).and_then(|options| catch_panic(|| self.inner.search(&options)));
        check(&env, result).map(search_results)
    }

    /// Activate a skill: permission check, body load, argument substitution, formatting.
    #[napi(ts_return_type = "Promise<Activation>")]
    pub fn activate(
        &self,
        id: String,
        #[napi(ts_arg_type = "ActivateOptions | undefined | null")] options: Option<Unknown>,
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
        #[napi(ts_arg_type = "ActivateOptions | undefined | null")] options: Option<Unknown>,
    ) -> Result<Activation> {
        let result = activate_options(options)
            .and_then(|options| catch_panic(|| self.inner.activate(&id, &options)));
        check(&env, result).map(activation)
    }

    /// Call `callback` with every engine event. Delivery is queued to the JS thread and
    /// never blocks the engine; the subscription does not keep the process alive.
    /// Returns an id for `unsubscribe`.
    #[napi(ts_args_type = "callback: (event: SkillEvent) => void")]
    pub fn subscribe(&self, env: Env, callback: Unknown) -> Result<i64> {
        let kind = callback.get_type()?;
        if kind != ValueType::Function {
            return check(
                &env,
                Err(skilldeck::Error::invalid_options(format!(
                    "subscribe() needs a function taking one event, got {}; \
                     write deck.subscribe((event) => console.log(event))",
                    type_name(kind)
                ))),
            );
        }
        // SAFETY: the value is a function (checked just above), what `Function` wraps.
        let callback: Function<serde_json::Value, Unknown<'static>> = unsafe { callback.cast()? };
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

    /// Why a skill is (not) found, for this deck's profile: the roots searched and, for
    /// `target` (a skill's path or name; a path when it exists, holds a separator or ends in
    /// `.md`), each rule that decided and what to change. The `skilldeck doctor --json`
    /// report, on the libuv pool.
    #[napi(
        ts_args_type = "target?: string | undefined | null",
        ts_return_type = "Promise<DoctorReport>"
    )]
    pub fn doctor(&self, target: Option<String>) -> AsyncTask<CoreTask<Json, Json>> {
        let deck = self.inner.clone();
        CoreTask::spawn(
            move || trimmed(doctor(&deck, target)),
            std::convert::identity,
        )
    }

    /// `doctor()` on the calling thread.
    #[napi(
        ts_args_type = "target?: string | undefined | null",
        ts_return_type = "DoctorReport"
    )]
    pub fn doctor_sync(&self, env: Env, target: Option<String>) -> Result<Json> {
        check(&env, trimmed(catch_panic(|| doctor(&self.inner, target))))
    }

    /// Which built-in profiles (all, or those named) see which skills of this deck's
    /// project: one row per skill file, one cell per profile (`skilldeck list --compare`),
    /// on the libuv pool. An unknown profile name rejects with `INVALID_OPTIONS`.
    #[napi(
        ts_args_type = "profiles?: Profile[] | undefined | null",
        ts_return_type = "Promise<ProfileComparison>"
    )]
    pub fn compare_profiles(
        &self,
        profiles: Option<Vec<String>>,
    ) -> AsyncTask<CoreTask<Json, Json>> {
        let options = self.inner.options().clone();
        CoreTask::spawn(
            move || trimmed(compare_profiles(&options, profiles)),
            std::convert::identity,
        )
    }

    /// `compareProfiles()` on the calling thread.
    #[napi(
        ts_args_type = "profiles?: Profile[] | undefined | null",
        ts_return_type = "ProfileComparison"
    )]
    pub fn compare_profiles_sync(&self, env: Env, profiles: Option<Vec<String>>) -> Result<Json> {
        let options = self.inner.options();
        check(
            &env,
            trimmed(catch_panic(|| compare_profiles(options, profiles))),
        )
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

fn doctor(deck: &skilldeck::Deck, target: Option<String>) -> skilldeck::Result<Json> {
    // A relative target path is the caller's, as on the command line.
    let cwd = std::env::current_dir().unwrap_or_default();
    let target = target.map(|t| skilldeck::DoctorTarget::parse(&t, &cwd));
    Json::of(&skilldeck::diagnose(deck, target.as_ref()))
}

fn compare_profiles(
    options: &skilldeck::DeckOptions,
    profiles: Option<Vec<String>>,
) -> skilldeck::Result<Json> {
    let names: Vec<String> = match profiles {
        Some(names) => names,
        None => skilldeck::Profile::builtin_names()
            .map(str::to_string)
            .collect(),
    };
    let decks = names
        .into_iter()
        .map(|name| {
            let mut one = options.clone();
            one.profile = name;
            one.profile_file = None;
            skilldeck::Deck::new(one)
        })
        .collect::<skilldeck::Result<Vec<_>>>()?;
    Json::of(&skilldeck::compare_profiles(&decks))
}

/// A core report as its plain JSON object (what Python's dicts are).
pub struct Json(serde_json::Value);

impl Json {
    pub(crate) fn of<T: serde::Serialize>(value: &T) -> skilldeck::Result<Json> {
        serde_json::to_value(value)
            .map(Json)
            .map_err(|e| skilldeck::Error::Internal {
                message: format!("cannot serialise the report: {e}"),
            })
    }
}

impl TypeName for Json {
    fn type_name() -> &'static str {
        "object"
    }
    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Json {
    unsafe fn to_napi_value(
        env: napi::sys::napi_env,
        value: Self,
    ) -> Result<napi::sys::napi_value> {
        serde_json::Value::to_napi_value(env, value.0)
    }
}

/// `typeof`'s word for a JS value type, for messages.
fn type_name(kind: ValueType) -> &'static str {
    match kind {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => "a boolean",
        ValueType::Number => "a number",
        ValueType::String => "a string",
        ValueType::Symbol => "a symbol",
        ValueType::Object => "an object",
        ValueType::Function => "a function",
        ValueType::External => "an external",
        _ => "an unknown value",
    }
}

/// An options argument: `undefined`/`null` (defaults) or a plain object. Anything else,
/// such as `new Deck('claude-code')`, is `INVALID_OPTIONS` saying what to write instead,
/// never a silent default.
fn options_object<'a>(
    call: &str,
    example: &str,
    value: Option<Unknown<'a>>,
) -> skilldeck::Result<Option<Object<'a>>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let invalid =
        |e: napi::Error| skilldeck::Error::invalid_options(format!("{call}: {}", e.reason));
    let kind = value.get_type().map_err(invalid)?;
    match kind {
        ValueType::Undefined | ValueType::Null => Ok(None),
        // SAFETY: the value is an object (checked), what `Object` wraps.
        ValueType::Object => unsafe { value.cast::<Object>() }.map(Some).map_err(invalid),
        other => Err(skilldeck::Error::invalid_options(format!(
            "{call} takes an options object, got {}; write {example}",
            type_name(other)
        ))),
    }
}

fn render_options(options: Option<Unknown>) -> skilldeck::Result<skilldeck::RenderOptions> {
    match options_object("render(...)", "render({ format: 'xml' })", options)? {
        Some(object) => strict::<RenderOptions>("render options", RENDER_KEYS, object)?.into_core(),
        None => Ok(Default::default()),
    }
}

fn search_options(options: Option<Unknown>) -> skilldeck::Result<skilldeck::SearchOptions> {
    match options_object("search(...)", "search({ query: 'pdf tables' })", options)? {
        Some(object) => strict::<SearchOptions>("search options", SEARCH_KEYS, object)?.into_core(),
        None => Err(skilldeck::Error::invalid_options(
            "search options: give an object with a `query`",
        )),
    }
}

fn activate_options(options: Option<Unknown>) -> skilldeck::Result<skilldeck::ActivateOptions> {
    match options_object(
        "activate(id, ...)",
        "activate(id, { args: '...' })",
        options,
    )? {
        Some(object) => {
            strict::<ActivateOptions>("activate options", ACTIVATE_KEYS, object)?.into_core()
        }
        None => Ok(Default::default()),
    }
}
