//! `Deck`: the engine entry point. Calls block the calling thread (run them off the UI
//! thread); the deck is safe to share between threads.

use crate::catalog::Catalog;
use crate::error::SkillError;
use crate::events::{Event, EventListener};
use crate::permissions::PermissionRules;
use crate::records::{canonical_json, Activation, Diff, Rendered, SearchResults, Skill};
use skilldeck::{
    ActivateOptions, ActivationFormat, DeckOptions, RenderFormat, RenderOptions, SearchOptions,
};
use skilldeck::{RootSpec, SubscriptionId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Discovers, resolves, filters, renders and activates skills, and caches what it loaded.
#[derive(uniffi::Object)]
pub struct Deck {
    pub(crate) inner: skilldeck::Deck,
}

fn budget(name: &str, value: Option<u64>) -> Result<Option<usize>, SkillError> {
    value
        .map(|n| {
            usize::try_from(n).map_err(|_| {
                SkillError::invalid_options(format!(
                    "{name} {n} is larger than this platform allows"
                ))
            })
        })
        .transpose()
}

fn activation_format(name: &str) -> Result<ActivationFormat, SkillError> {
    Ok(name.parse::<ActivationFormat>()?)
}

#[uniffi::export]
impl Deck {
    /// Build a deck; the arguments mirror `DeckOptions`. `env = null` captures the process
    /// environment; `homeDir = null` takes `HOME` from it. Nothing is read until `load()`.
    #[uniffi::constructor(default(
        profile = "universal",
        project_dir = ".",
        home_dir = None,
        env = None,
        system_root = None,
        roots = [],
        rules = None,
        agent = None,
        enable = [],
        disable = [],
        hide_unavailable = false,
        read_host_settings = true,
        nested = false,
        profile_file = None
    ))]
    // One argument per `DeckOptions` field is the binding API (named arguments with
    // defaults in Swift and Kotlin).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        profile: String,
        project_dir: String,
        home_dir: Option<String>,
        env: Option<HashMap<String, String>>,
        system_root: Option<String>,
        roots: Vec<RootSpec>,
        rules: Option<Arc<PermissionRules>>,
        agent: Option<String>,
        enable: Vec<String>,
        disable: Vec<String>,
        hide_unavailable: bool,
        read_host_settings: bool,
        nested: bool,
        profile_file: Option<String>,
    ) -> Result<Self, SkillError> {
        let options = DeckOptions {
            profile,
            profile_file: profile_file.map(PathBuf::from),
            project_dir: PathBuf::from(project_dir),
            home_dir: home_dir.map(PathBuf::from),
            env: env.map(|e| e.into_iter().map(|(k, v)| (k.into(), v.into())).collect()),
            system_root: system_root.map(PathBuf::from),
            roots,
            rules: rules.map(|r| r.inner.clone()),
            agent,
            enable,
            disable,
            hide_unavailable,
            read_host_settings,
            nested,
        };
        Ok(Deck {
            inner: skilldeck::Deck::new(options)?,
        })
    }

    /// Discover, parse, resolve and filter. A second call with nothing changed on disk only
    /// re-checks file metadata.
    pub fn load(&self) -> Result<Arc<Catalog>, SkillError> {
        Ok(Arc::new(Catalog::new(self.inner.load()?)))
    }

    /// `load()` for a process that loads once and exits: nothing a later load could reuse
    /// is kept (no directory stamps, fingerprints or parse cache); a later `load()` or
    /// `reload()` discovers from scratch.
    pub fn load_once(&self) -> Result<Arc<Catalog>, SkillError> {
        Ok(Arc::new(Catalog::new(self.inner.load_once()?)))
    }

    /// A one-shot load for a listing: the same skills, order, statuses, shadowed entries
    /// and catalog diagnostics as `loadOnce()`, but each skill keeps no warnings and only
    /// the manifest fields a listing shows and the filter reads (name, description,
    /// `enabled`/`disabled`, `disable-model-invocation`, `user-invocable`, `os`,
    /// `requires`), which roughly halves the peak memory on large trees. It does not replace
    /// the deck's snapshot: `get()`, `render()` and later loads see whole skills.
    pub fn load_summary(&self) -> Result<Arc<Catalog>, SkillError> {
        Ok(Arc::new(Catalog::new(self.inner.load_summary()?)))
    }

    /// Load again and report what changed since the previous load.
    pub fn reload(&self) -> Result<Diff, SkillError> {
        Ok(self.inner.reload()?.into())
    }

    /// A skill by id or name; throws `NOT_FOUND` when there is none.
    pub fn get(&self, id: String) -> Result<Skill, SkillError> {
        Ok(self.inner.get(&id)?.into())
    }

    /// Render the model-visible skills. `format`: `xml`, `skills-ref`, `opencode`,
    /// `opencode-tool`, `codex`, `claude-code`, `kode`, `markdown`, `cline` or `openhands`
    /// (an unknown name throws `INVALID_OPTIONS` listing them). `usage`: activation
    /// counts by id (Claude Code's budget drops descriptions of the least used first).
    /// `query`: the task text; only the relevant skills are kept, the most relevant first
    /// while they fit the budget, and `pinned` ids always (`report.reasons` says why each
    /// other skill was left out).
    #[uniffi::method(default(
        format = "xml",
        budget_chars = None,
        budget_tokens = None,
        agent = None,
        usage = None,
        query = None,
        pinned = []
    ))]
    // One argument per `RenderOptions` field (named arguments with defaults).
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &self,
        format: String,
        budget_chars: Option<u64>,
        budget_tokens: Option<u64>,
        agent: Option<String>,
        usage: Option<HashMap<String, u64>>,
        query: Option<String>,
        pinned: Vec<String>,
    ) -> Result<Rendered, SkillError> {
        let options = RenderOptions {
            format: format.parse::<RenderFormat>()?,
            budget_chars: budget("budgetChars", budget_chars)?,
            budget_tokens: budget("budgetTokens", budget_tokens)?,
            agent,
            usage: usage.unwrap_or_default().into_iter().collect(),
            query,
            pinned,
        };
        Ok(self.inner.render(&options)?.into())
    }

    /// Search the skills by what they do: BM25F over name, tags, category, description,
    /// parameter descriptions and (with `body`) the Markdown body. `all` searches every
    /// listed skill, not only the model-visible ones. With `queryEmbedding` and `embeddings`
    /// (id → vector, from your own model) the text and vector rankings are fused. Throws
    /// `INVALID_OPTIONS` on a blank query, a `limit` outside 1..=1000 or embeddings of
    /// different dimensions.
    #[uniffi::method(default(
        limit = 10,
        all = false,
        body = false,
        embeddings = None,
        query_embedding = None
    ))]
    pub fn search(
        &self,
        query: String,
        limit: u64,
        all: bool,
        body: bool,
        embeddings: Option<HashMap<String, Vec<f32>>>,
        query_embedding: Option<Vec<f32>>,
    ) -> Result<SearchResults, SkillError> {
        let options = SearchOptions {
            query,
            // Anything beyond usize is beyond the maximum: the core refuses it by name.
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            all,
            body,
            embeddings: embeddings.unwrap_or_default().into_iter().collect(),
            query_embedding,
        };
        Ok(self.inner.search(&options)?.into())
    }

    /// Activate a skill: permission check, body load, argument and variable substitution.
    /// `format`: `raw`, `opencode`, `codex`, `kode`, `cline`, `gemini`, `qwen-code`,
    /// `mistral-vibe`, `copilot-cli`, `openhands` or `goose` (an unknown name throws
    /// `INVALID_OPTIONS` listing them).
    #[uniffi::method(default(
        args = "",
        vars = None,
        format = "raw",
        agent = None,
        session_id = None,
        read_files = false,
        allow_commands = None
    ))]
    #[allow(clippy::too_many_arguments)]
    pub fn activate(
        &self,
        id: String,
        args: String,
        vars: Option<HashMap<String, String>>,
        format: String,
        agent: Option<String>,
        session_id: Option<String>,
        read_files: bool,
        allow_commands: Option<Vec<String>>,
    ) -> Result<Activation, SkillError> {
        let options = ActivateOptions {
            args,
            vars: vars.unwrap_or_default().into_iter().collect(),
            format: activation_format(&format)?,
            agent,
            session_id,
            read_files,
            allow_commands: allow_commands.unwrap_or_default(),
        };
        Ok(self.inner.activate(&id, &options)?.into())
    }

    /// Why a skill is or is not visible, as JSON text (the `skilldeck doctor --json`
    /// report): the roots searched, and for `target` (a skill name, a directory or a
    /// `SKILL.md` path; relative paths against the current directory) each rule that
    /// decided and what to change.
    #[uniffi::method(default(target = None))]
    pub fn doctor(&self, target: Option<String>) -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        let target = target.map(|t| skilldeck::DoctorTarget::parse(&t, &cwd));
        canonical_json(&skilldeck::diagnose(&self.inner, target.as_ref()))
    }

    /// Which built-in profiles (all, or those named) see which skills of this deck's
    /// project, as JSON text: one row per skill file, one cell per profile
    /// (`skilldeck list --compare`). An unknown profile is `InvalidOptionsError`.
    #[uniffi::method(default(profiles = None))]
    pub fn compare_profiles(&self, profiles: Option<Vec<String>>) -> Result<String, SkillError> {
        let names: Vec<String> = match profiles {
            Some(names) => names,
            None => skilldeck::Profile::builtin_names()
                .map(str::to_string)
                .collect(),
        };
        let decks = names
            .into_iter()
            .map(|name| {
                let mut one = self.inner.options().clone();
                one.profile = name;
                one.profile_file = None;
                skilldeck::Deck::new(one)
            })
            .collect::<skilldeck::Result<Vec<_>>>()?;
        Ok(canonical_json(&skilldeck::compare_profiles(&decks)))
    }

    /// Register a listener; returns the id to pass to `unsubscribe`.
    pub fn subscribe(&self, listener: Arc<dyn EventListener>) -> u64 {
        let id = self.inner.subscribe(move |event| {
            // A listener's failure is its own business: the load that emitted the event
            // goes on, and so do the other listeners.
            let _ = listener.on_event(Event::from(event));
        });
        id.0
    }

    /// Remove a listener; false when the id is unknown.
    pub fn unsubscribe(&self, id: u64) -> bool {
        self.inner.unsubscribe(SubscriptionId(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activation_formats_follow_core_names() {
        assert_eq!(activation_format("raw").ok(), Some(ActivationFormat::Raw));
        assert_eq!(
            activation_format("opencode").ok(),
            Some(ActivationFormat::Opencode)
        );
        let err = activation_format("html")
            .err()
            .map(|e| e.code().to_string());
        assert_eq!(err.as_deref(), Some("INVALID_OPTIONS"));
    }

    #[test]
    fn budgets_pass_through_to_usize() {
        assert_eq!(budget("b", None).ok(), Some(None));
        assert_eq!(budget("b", Some(10)).ok(), Some(Some(10)));
    }
}
