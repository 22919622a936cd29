//! `Deck`: the engine entry point. Long calls run with the GIL released (`py.detach`), so
//! other Python threads keep running while skills are discovered, parsed and rendered.

use crate::convert::{from_json, py_to_json, repr_str, to_py};
use crate::errors::{detached, IntoPyResult};
use crate::permissions::rules_from_py;
use crate::types::{PyActivation, PyCatalog, PyDiff, PyRendered, PySearchResults, PySkill};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Discovers, resolves, filters, renders, searches and activates skills for one profile and
/// project.
#[pyclass(module = "skilldeck", name = "Deck", frozen)]
pub struct PyDeck {
    pub(crate) inner: skilldeck::Deck,
}

/// An extra root: a path, or a `{path, scope, pattern}` dict.
fn root_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let value = py_to_json(obj)?;
    Ok(match value {
        Value::String(path) => json!({ "path": path }),
        other => other,
    })
}

fn path_json(path: Option<PathBuf>) -> Value {
    path.map_or(Value::Null, |p| {
        Value::String(p.to_string_lossy().into_owned())
    })
}

/// The error for `Deck('claude-code')`: every option is a keyword.
fn positional_options(args: &Bound<'_, PyTuple>) -> skilldeck::Error {
    let example = match args
        .get_item(0)
        .ok()
        .and_then(|a| a.extract::<String>().ok())
    {
        Some(text) if skilldeck::Profile::builtin_names().any(|n| n == text) => {
            format!("Deck(profile={text:?})")
        }
        Some(text) => format!("Deck(project_dir={text:?})"),
        None => "Deck(profile=\"claude-code\", project_dir=\".\")".to_string(),
    };
    skilldeck::Error::invalid_options(format!(
        "Deck() takes keyword arguments only (got {} positional); write {example}",
        args.len()
    ))
}

/// A count given from Python (a budget, a usage count): a negative number is the library's
/// invalid-options error, not pyo3's `OverflowError`.
fn count(name: &str, n: i64) -> skilldeck::Result<u64> {
    u64::try_from(n).map_err(|_| {
        skilldeck::Error::invalid_options(format!("{name} must be a non-negative integer, got {n}"))
    })
}

/// [`count`] as a `usize`.
fn size(name: &str, n: Option<i64>) -> skilldeck::Result<Option<usize>> {
    n.map(|n| {
        count(name, n).and_then(|u| {
            usize::try_from(u)
                .map_err(|_| skilldeck::Error::invalid_options(format!("{name} {u} is too large")))
        })
    })
    .transpose()
}

#[pymethods]
impl PyDeck {
    #[new]
    // `*args` only to refuse positional arguments with the library's own error (and a
    // message saying what to write): `Deck('claude-code')` reads well but is ambiguous next
    // to `project_dir`, and every option is named in every binding.
    #[pyo3(signature = (
        *args, profile="universal", project_dir=PathBuf::from("."), home_dir=None, env=None,
        system_root=None, roots=Vec::new(), rules=None, agent=None, enable=Vec::new(),
        disable=Vec::new(), hide_unavailable=false, read_host_settings=true, nested=false,
        profile_file=None
    ), text_signature = "(*, profile='universal', project_dir='.', home_dir=None, env=None, \
        system_root=None, roots=(), rules=None, agent=None, enable=(), disable=(), \
        hide_unavailable=False, read_host_settings=True, nested=False, profile_file=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        profile: &str,
        project_dir: PathBuf,
        home_dir: Option<PathBuf>,
        env: Option<BTreeMap<String, String>>,
        system_root: Option<PathBuf>,
        roots: Vec<Bound<'_, PyAny>>,
        rules: Option<Bound<'_, PyAny>>,
        agent: Option<String>,
        enable: Vec<String>,
        disable: Vec<String>,
        hide_unavailable: bool,
        read_host_settings: bool,
        nested: bool,
        profile_file: Option<PathBuf>,
    ) -> PyResult<Self> {
        if !args.is_empty() {
            return Err(positional_options(args)).py();
        }
        let roots = roots
            .iter()
            .map(root_from_py)
            .collect::<PyResult<Vec<_>>>()?;
        let rules = match rules {
            Some(r) if !r.is_none() => Some(rules_from_py(&r)?),
            _ => None,
        };
        let options = json!({
            "profile": profile,
            "profile_file": path_json(profile_file.clone()),
            "project_dir": path_json(Some(project_dir.clone())),
            "home_dir": path_json(home_dir.clone()),
            "env": env,
            "system_root": path_json(system_root.clone()),
            "roots": roots,
            "agent": agent,
            "enable": enable,
            "disable": disable,
            "hide_unavailable": hide_unavailable,
            "read_host_settings": read_host_settings,
            "nested": nested,
        });
        let mut options: skilldeck::DeckOptions = from_json("Deck options", options).py()?;
        options.rules = rules;
        // The exact paths, not their JSON form: JSON is Unicode, a path need not be, and a
        // lossy copy would name a directory that does not exist.
        options.project_dir = project_dir;
        options.home_dir = home_dir;
        options.system_root = system_root;
        options.profile_file = profile_file;
        let inner = detached(py, move || skilldeck::Deck::new(options))?;
        Ok(PyDeck { inner })
    }

    /// Discover, parse, resolve and filter; returns the catalog snapshot.
    fn load(&self, py: Python<'_>) -> PyResult<PyCatalog> {
        let deck = self.inner.clone();
        let catalog = detached(py, move || deck.load())?;
        Ok(PyCatalog { inner: catalog })
    }

    /// `load()` for a script that loads once and exits: nothing a later load could reuse
    /// is kept (no directory stamps, fingerprints or parse cache), which saves memory and
    /// time on large trees; a later `load()` or `reload()` discovers from scratch.
    fn load_once(&self, py: Python<'_>) -> PyResult<PyCatalog> {
        let deck = self.inner.clone();
        let catalog = detached(py, move || deck.load_once())?;
        Ok(PyCatalog { inner: catalog })
    }

    /// A one-shot load for a listing: the same skills, order, statuses, shadowed entries
    /// and catalog diagnostics as `load_once()`, but each skill keeps no warnings and only
    /// the manifest fields a listing shows and the filter reads (name, description,
    /// `enabled`/`disabled`, `disable-model-invocation`, `user-invocable`, `os`,
    /// `requires`), which roughly halves the peak memory on large trees. It does not replace
    /// the deck's snapshot: `get()`, `render()` and later loads see whole skills.
    fn load_summary(&self, py: Python<'_>) -> PyResult<PyCatalog> {
        let deck = self.inner.clone();
        let catalog = detached(py, move || deck.load_summary())?;
        Ok(PyCatalog { inner: catalog })
    }

    /// Load again and report what changed since the previous snapshot.
    fn reload(&self, py: Python<'_>) -> PyResult<PyDiff> {
        let deck = self.inner.clone();
        let diff = detached(py, move || deck.reload())?;
        Ok(PyDiff { inner: diff })
    }

    /// The skill with this id or name (raises `NotFoundError`).
    fn get(&self, py: Python<'_>, id: String) -> PyResult<PySkill> {
        let deck = self.inner.clone();
        let skill = detached(py, move || deck.get(&id))?;
        Ok(PySkill { inner: skill })
    }

    /// Render the model-visible skills into prompt text. With `query` (the task text) only
    /// the relevant skills are kept, the most relevant first while they fit the budget, and
    /// `pinned` ids are always kept; `report.reasons` says why each other skill was left out.
    #[pyo3(signature = (
        format="xml", budget_chars=None, budget_tokens=None, agent=None, usage=None, query=None,
        pinned=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn render(
        &self,
        py: Python<'_>,
        format: &str,
        budget_chars: Option<i64>,
        budget_tokens: Option<i64>,
        agent: Option<String>,
        usage: Option<BTreeMap<String, i64>>,
        query: Option<String>,
        pinned: Option<Vec<String>>,
    ) -> PyResult<PyRendered> {
        let usage = usage
            .unwrap_or_default()
            .into_iter()
            .map(|(id, n)| Ok((id.clone(), count(&format!("usage[{id:?}]"), n)?)))
            .collect::<skilldeck::Result<BTreeMap<_, _>>>()
            .py()?;
        let options = skilldeck::RenderOptions {
            format: format.parse().py()?,
            budget_chars: size("budget_chars", budget_chars).py()?,
            budget_tokens: size("budget_tokens", budget_tokens).py()?,
            agent,
            usage,
            query,
            pinned: pinned.unwrap_or_default(),
        };
        let deck = self.inner.clone();
        let rendered = detached(py, move || deck.render(&options))?;
        Ok(PyRendered { inner: rendered })
    }

    /// Search the skills by what they do: BM25F over name, tags, category, description,
    /// parameter descriptions and (with `body=True`) the Markdown body. `all=True` searches
    /// every listed skill, not only the model-visible ones. With `query_embedding` and
    /// `embeddings` (id -> vector, from your own model) the text and vector rankings are
    /// fused. Runs with the GIL released; raises `InvalidOptionsError` on a blank query, a
    /// `limit` outside 1..=1000 or embeddings of different dimensions.
    #[pyo3(signature = (
        query, *, limit=10, all=false, body=false, embeddings=None, query_embedding=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        query: String,
        limit: i64,
        all: bool,
        body: bool,
        embeddings: Option<BTreeMap<String, Vec<f32>>>,
        query_embedding: Option<Vec<f32>>,
    ) -> PyResult<PySearchResults> {
        let limit = usize::try_from(limit)
            .map_err(|_| {
                skilldeck::Error::invalid_options(format!(
                    "limit must be between 1 and {} (got {limit})",
                    skilldeck::MAX_SEARCH_LIMIT
                ))
            })
            .py()?;
        let options = skilldeck::SearchOptions {
            query,
            limit,
            all,
            body,
            embeddings: embeddings.unwrap_or_default(),
            query_embedding,
        };
        let deck = self.inner.clone();
        let results = detached(py, move || deck.search(&options))?;
        Ok(PySearchResults { inner: results })
    }

    /// Activate a skill: permission check, body load, argument substitution, formatting.
    /// `read_files`: inline `@path` references (inside the skill or project directory only);
    /// `allow_commands`: programs whose `` !`cmd` `` blocks run (system shell, skill dir).
    #[pyo3(signature = (id, args="", vars=None, format="raw", agent=None, session_id=None, read_files=false, allow_commands=None))]
    #[allow(clippy::too_many_arguments)]
    fn activate(
        &self,
        py: Python<'_>,
        id: String,
        args: &str,
        vars: Option<BTreeMap<String, String>>,
        format: &str,
        agent: Option<String>,
        session_id: Option<String>,
        read_files: bool,
        allow_commands: Option<Vec<String>>,
    ) -> PyResult<PyActivation> {
        let options = skilldeck::ActivateOptions {
            args: args.to_string(),
            vars: vars.unwrap_or_default(),
            format: format.parse().py()?,
            agent,
            session_id,
            read_files,
            allow_commands: allow_commands.unwrap_or_default(),
        };
        let deck = self.inner.clone();
        let activation = detached(py, move || deck.activate(&id, &options))?;
        Ok(PyActivation { inner: activation })
    }

    /// Call `callback(event: dict)` for every engine event (`{"type": "activated", ...}`);
    /// returns an id for `unsubscribe`. The callback runs on the thread that caused the
    /// event; an exception it raises is reported through `sys.unraisablehook`.
    fn subscribe(&self, callback: Bound<'_, PyAny>) -> PyResult<u64> {
        if !callback.is_callable() {
            let kind = callback
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "object".to_string());
            return Err(skilldeck::Error::invalid_options(format!(
                "subscribe() needs a callable taking one event dict, got a {kind}; \
                 write deck.subscribe(lambda event: print(event))"
            )))
            .py();
        }
        let callback = callback.unbind();
        let id = self.inner.subscribe(move |event| {
            Python::attach(|py| {
                let delivered = to_py(py, event).and_then(|ev| callback.call1(py, (ev,)));
                if let Err(err) = delivered {
                    err.write_unraisable(py, Some(callback.bind(py)));
                }
            })
        });
        Ok(id.0)
    }

    /// Stop delivering events to a subscription; returns whether it existed.
    fn unsubscribe(&self, id: i64) -> bool {
        u64::try_from(id).is_ok_and(|id| self.inner.unsubscribe(skilldeck::SubscriptionId(id)))
    }

    /// Why a skill is (not) found, for this deck's profile: the roots searched and, for
    /// `target` (a skill's path or name; a path when it exists, holds a separator or ends in
    /// `.md`), each rule that decided and what to change. The `skilldeck doctor --json`
    /// report as a dict.
    #[pyo3(signature = (target=None))]
    fn doctor(&self, py: Python<'_>, target: Option<PathBuf>) -> PyResult<Py<PyAny>> {
        let deck = self.inner.clone();
        let report = detached(py, move || {
            let cwd = std::env::current_dir().unwrap_or_default();
            let target = target.map(|t| skilldeck::DoctorTarget::parse(&t.to_string_lossy(), &cwd));
            Ok(skilldeck::diagnose(&deck, target.as_ref()))
        })?;
        to_py(py, &report)
    }

    /// Which built-in profiles (all, or those named) see which skills of this deck's
    /// project: one row per skill file, one cell per profile (`skilldeck list --compare`).
    #[pyo3(signature = (profiles=None))]
    fn compare_profiles(
        &self,
        py: Python<'_>,
        profiles: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let options = self.inner.options().clone();
        let table = detached(py, move || {
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
            Ok(skilldeck::compare_profiles(&decks))
        })?;
        to_py(py, &table)
    }

    /// The options this deck was built with (canonical JSON shape).
    #[getter]
    fn options(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, self.inner.options())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let options = self.inner.options();
        format!(
            "Deck(profile={}, project_dir={})",
            repr_str(py, &options.profile),
            repr_str(py, &options.project_dir.to_string_lossy())
        )
    }
}
