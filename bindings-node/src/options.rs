//! Option objects as JS callers write them (camelCase, everything optional) and their
//! conversion into the core option types. Defaults are the core's own `Default`s.

use crate::permissions::PermissionRules;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// An extra root: a directory, its scope and the glob that finds SKILL.md files below it.
#[napi(object)]
pub struct RootSpec {
    pub path: String,
    /// `managed`, `admin`, `system`, `project`, `user`, `plugin` or `extra` (default).
    #[napi(ts_type = "'managed' | 'admin' | 'system' | 'project' | 'user' | 'plugin' | 'extra'")]
    pub scope: Option<String>,
    /// Glob relative to `path`; default `**/SKILL.md`.
    pub pattern: Option<String>,
}

/// Options of `new Deck(...)`, mirroring the core `DeckOptions`.
// napi-derive names the lifetime of borrowed fields `'_javascript_function_scope` in the
// impls it generates, so the struct must use that exact name.
#[napi(object, object_to_js = false)]
pub struct DeckOptions<'_javascript_function_scope> {
    /// Built-in profile: `universal` (default), `agentskills`, `claude-code`, `codex`, `opencode`, `kode`, `gemini`, `qwen-code`, `copilot-cli`, `mistral-vibe`, `goose`, `cursor`, `openhands`, `cline`, `copilot`.
    /// A custom profile is a file (`profileFile`).
    #[napi(ts_type = "Profile")]
    pub profile: Option<String>,
    /// A custom profile file (TOML or JSON); overrides `profile`.
    pub profile_file: Option<String>,
    /// The agent's working directory (default `.`).
    pub project_dir: Option<String>,
    /// Home directory (default: `HOME` from `env`).
    pub home_dir: Option<String>,
    /// Environment seen by the profile (default: the process environment).
    pub env: Option<HashMap<String, String>>,
    /// Prefix for absolute system directories such as `/etc/codex` (default `/`).
    pub system_root: Option<String>,
    /// Extra roots (paths, or `{ path, scope, pattern }`), lowest precedence.
    pub roots: Option<Vec<Either<String, RootSpec>>>,
    /// Permission rules: a `PermissionRules` object or its JSON shape
    /// `{ semantics, rules: [{ pattern, decision }], agents }`.
    #[napi(ts_type = "PermissionRules | PermissionRulesJson")]
    pub rules: Option<
        Either<&'_javascript_function_scope PermissionRules, Object<'_javascript_function_scope>>,
    >,
    /// Agent whose per-agent permission rules apply.
    pub agent: Option<String>,
    /// Ids, paths or globs to force on.
    pub enable: Option<Vec<String>>,
    /// Ids, paths or globs to switch off.
    pub disable: Option<Vec<String>>,
    /// Hide skills whose `os`/`requires` are unmet instead of listing them as unavailable.
    pub hide_unavailable: Option<bool>,
    /// Read host settings files (default true).
    pub read_host_settings: Option<bool>,
    /// Include Claude Code-style nested `.claude/skills` below the project directory.
    pub nested: Option<bool>,
}

impl DeckOptions<'_> {
    pub fn into_core(self, env: &Env) -> skilldeck::Result<skilldeck::DeckOptions> {
        let defaults = skilldeck::DeckOptions::default();
        let roots = self
            .roots
            .unwrap_or_default()
            .into_iter()
            .map(root_spec)
            .collect::<skilldeck::Result<Vec<_>>>()?;
        let rules = match self.rules {
            None => None,
            Some(Either::A(rules)) => Some(rules.inner.clone()),
            // Through JS's own `JSON.stringify`: a plain object and a `PermissionRules`
            // instance (which napi does not always hand over as `Either::A` once the options
            // object went through `strict`) both become their JSON text via `toJSON`.
            Some(Either::B(object)) => {
                let text = js_json(env, object).map_err(|e| {
                    skilldeck::Error::invalid_options(format!("rules: {}; {RULES_SHAPE}", e.reason))
                })?;
                Some(skilldeck::PermissionRules::from_json_str(&text, None)?)
            }
        };
        Ok(skilldeck::DeckOptions {
            profile: self.profile.unwrap_or(defaults.profile),
            profile_file: self.profile_file.map(PathBuf::from),
            project_dir: self
                .project_dir
                .map(PathBuf::from)
                .unwrap_or(defaults.project_dir),
            home_dir: self.home_dir.map(PathBuf::from),
            env: self
                .env
                .map(|env| env.into_iter().map(|(k, v)| (k.into(), v.into())).collect()),
            system_root: self.system_root.map(PathBuf::from),
            roots,
            rules,
            agent: self.agent,
            enable: self.enable.unwrap_or_default(),
            disable: self.disable.unwrap_or_default(),
            hide_unavailable: self.hide_unavailable.unwrap_or(defaults.hide_unavailable),
            read_host_settings: self
                .read_host_settings
                .unwrap_or(defaults.read_host_settings),
            nested: self.nested.unwrap_or(defaults.nested),
        })
    }
}

fn root_spec(root: Either<String, RootSpec>) -> skilldeck::Result<skilldeck::RootSpec> {
    Ok(match root {
        Either::A(path) => skilldeck::RootSpec::new(path),
        Either::B(spec) => skilldeck::RootSpec {
            path: PathBuf::from(spec.path),
            scope: match spec.scope {
                Some(scope) => scope.parse()?,
                None => skilldeck::Scope::Extra,
            },
            pattern: spec.pattern,
        },
    })
}

/// `JSON.stringify(value)`.
fn js_json(env: &Env, value: Object) -> napi::Result<String> {
    let json: Object = env.get_global()?.get_named_property("JSON")?;
    let stringify: Function<Object, String> = json.get_named_property("stringify")?;
    stringify.call(value)
}

const RULES_SHAPE: &str = skilldeck::PERMISSION_RULES_SHAPES;

/// Options of `deck.render(...)`.
#[napi(object)]
pub struct RenderOptions {
    /// `xml` (default), `skills-ref`, `opencode`, `opencode-tool`, `codex`, `claude-code`, `kode`, `markdown`, `cline`, `openhands`.
    #[napi(
        ts_type = "'xml' | 'skills-ref' | 'opencode' | 'opencode-tool' | 'codex' | 'claude-code' | 'kode' | 'markdown' | 'cline' | 'openhands'"
    )]
    pub format: Option<String>,
    /// Character budget for the whole text.
    pub budget_chars: Option<f64>,
    /// Token budget (about 4 characters per token).
    pub budget_tokens: Option<f64>,
    /// Agent whose permission rules apply (default: the deck's).
    pub agent: Option<String>,
    /// Usage counts by skill id (least used lose their descriptions first).
    pub usage: Option<HashMap<String, f64>>,
    /// The task text: keep only the relevant skills, the most relevant first while they
    /// fit the budget (`report.reasons` says why each other one was left out).
    pub query: Option<String>,
    /// Skill ids always kept with a `query`, whatever their relevance and the budget.
    pub pinned: Option<Vec<String>>,
}

impl RenderOptions {
    pub fn into_core(self) -> skilldeck::Result<skilldeck::RenderOptions> {
        Ok(skilldeck::RenderOptions {
            format: match self.format {
                Some(format) => format.parse()?,
                None => skilldeck::RenderFormat::default(),
            },
            budget_chars: self
                .budget_chars
                .map(|n| count("budgetChars", n).map(|n| n as usize))
                .transpose()?,
            budget_tokens: self
                .budget_tokens
                .map(|n| count("budgetTokens", n).map(|n| n as usize))
                .transpose()?,
            agent: self.agent,
            usage: self
                .usage
                .unwrap_or_default()
                .into_iter()
                .map(|(id, n)| count(&format!("usage.{id}"), n).map(|n| (id, n)))
                .collect::<skilldeck::Result<BTreeMap<_, _>>>()?,
            query: self.query,
            pinned: self.pinned.unwrap_or_default(),
        })
    }
}

/// Options of `deck.search(...)`.
#[napi(object, object_to_js = false)]
pub struct SearchOptions {
    /// What the task is about, in a few words.
    pub query: String,
    /// Hits to return: 1 to 1000 (default 10).
    pub limit: Option<f64>,
    /// Search every listed skill, not only those the model may see.
    pub all: Option<bool>,
    /// Also search each skill's Markdown body (read on first use, cached by file stamp).
    pub body: Option<bool>,
    /// A vector per skill id from your own embedding model (hybrid search).
    pub embeddings: Option<HashMap<String, Vec<f64>>>,
    /// The query's vector from the same model.
    pub query_embedding: Option<Vec<f64>>,
}

impl SearchOptions {
    pub fn into_core(self) -> skilldeck::Result<skilldeck::SearchOptions> {
        let defaults = skilldeck::SearchOptions::default();
        let vector = |v: Vec<f64>| v.into_iter().map(|x| x as f32).collect::<Vec<f32>>();
        Ok(skilldeck::SearchOptions {
            query: self.query,
            limit: match self.limit {
                Some(n) => usize::try_from(count("limit", n)?).unwrap_or(usize::MAX),
                None => defaults.limit,
            },
            all: self.all.unwrap_or(defaults.all),
            body: self.body.unwrap_or(defaults.body),
            embeddings: self
                .embeddings
                .unwrap_or_default()
                .into_iter()
                .map(|(id, v)| (id, vector(v)))
                .collect(),
            query_embedding: self.query_embedding.map(vector),
        })
    }
}

/// A JS number that must be a count: a silent wrap of `-1` to a huge budget would hide the
/// caller's mistake.
fn count(name: &str, n: f64) -> skilldeck::Result<u64> {
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 {
        // Exact for every integer a JS number holds without rounding (< 2^53).
        Ok(n as u64)
    } else {
        Err(skilldeck::Error::invalid_options(format!(
            "{name} must be a non-negative integer, got {n}"
        )))
    }
}

/// Options of `deck.activate(id, ...)`.
#[napi(object)]
pub struct ActivateOptions {
    /// The raw argument string (`$ARGUMENTS`).
    pub args: Option<String>,
    /// Variables for `${NAME}` placeholders.
    pub vars: Option<HashMap<String, String>>,
    /// `raw` (default), `opencode`, `codex`, `kode`, `cline`, `gemini`, `qwen-code`, `mistral-vibe`,
    /// `copilot-cli`, `openhands`, `goose`.
    #[napi(
        ts_type = "'raw' | 'opencode' | 'codex' | 'kode' | 'cline' | 'gemini' | 'qwen-code' | 'mistral-vibe' | 'copilot-cli' | 'openhands' | 'goose'"
    )]
    pub format: Option<String>,
    /// Agent activating the skill.
    pub agent: Option<String>,
    /// Session id for `${CLAUDE_SESSION_ID}`.
    pub session_id: Option<String>,
    /// Inline `@path` references (inside the skill or project directory only).
    pub read_files: Option<bool>,
    /// Programs whose `` !`cmd` `` blocks run (system shell, in the skill directory).
    pub allow_commands: Option<Vec<String>>,
}

impl ActivateOptions {
    pub fn into_core(self) -> skilldeck::Result<skilldeck::ActivateOptions> {
        let format = match self.format {
            Some(name) => name.parse()?,
            None => skilldeck::ActivationFormat::default(),
        };
        Ok(skilldeck::ActivateOptions {
            args: self.args.unwrap_or_default(),
            vars: self.vars.unwrap_or_default().into_iter().collect(),
            format,
            agent: self.agent,
            session_id: self.session_id,
            read_files: self.read_files.unwrap_or(false),
            allow_commands: self.allow_commands.unwrap_or_default(),
        })
    }
}

/// Options of `validate(path, ...)`.
#[napi(object)]
pub struct ValidateOptions {
    /// Spec conformance (skills-ref 0.1.1) instead of host leniency.
    pub strict: Option<bool>,
}

impl ValidateOptions {
    pub fn into_core(self) -> skilldeck::ValidateOptions {
        skilldeck::ValidateOptions {
            strict: self.strict.unwrap_or(false),
        }
    }
}

/// The keys each options object may carry (camelCase, as JS callers write them).
pub const DECK_KEYS: &[&str] = &[
    "profile",
    "profileFile",
    "projectDir",
    "homeDir",
    "env",
    "systemRoot",
    "roots",
    "rules",
    "agent",
    "enable",
    "disable",
    "hideUnavailable",
    "readHostSettings",
    "nested",
];
pub const ROOT_KEYS: &[&str] = &["path", "scope", "pattern"];
pub const RENDER_KEYS: &[&str] = &[
    "format",
    "budgetChars",
    "budgetTokens",
    "agent",
    "usage",
    "query",
    "pinned",
];
pub const SEARCH_KEYS: &[&str] = &[
    "query",
    "limit",
    "all",
    "body",
    "embeddings",
    "queryEmbedding",
];
pub const ACTIVATE_KEYS: &[&str] = &[
    "args",
    "vars",
    "format",
    "agent",
    "sessionId",
    "readFiles",
    "allowCommands",
];
pub const VALIDATE_KEYS: &[&str] = &["strict"];

/// An options object as `T`, refusing keys `T` does not have and values of the wrong type
/// with `INVALID_OPTIONS`. napi's object conversion skips unknown keys silently, so a
/// misspelt `projectdir` would leave the option at its default without a word.
pub fn strict<T: FromNapiValue>(
    what: &str,
    known: &[&str],
    object: Object,
) -> skilldeck::Result<T> {
    let napi_err =
        |e: napi::Error| skilldeck::Error::invalid_options(format!("{what}: {}", e.reason));
    check_keys(what, &Object::keys(&object).map_err(napi_err)?, known)?;
    if known.contains(&"roots") {
        let roots: Option<Vec<Either<String, Object>>> = object.get("roots").map_err(napi_err)?;
        for (i, root) in roots.into_iter().flatten().enumerate() {
            if let Either::B(root) = root {
                let keys = Object::keys(&root).map_err(napi_err)?;
                check_keys(&format!("{what}: roots[{i}]"), &keys, ROOT_KEYS)?;
            }
        }
    }
    // napi's own (derived, type-checking) conversion, exactly as it converts an argument.
    // A detour through a holder object's property loses the class identity of a
    // `PermissionRules` instance inside it, so the raw handles are used instead.
    let raw = object.value();
    // SAFETY: `raw.env` and `raw.value` are the live handles of `object`, an argument of
    // the current call, valid for the whole call; this is the call napi makes for a
    // `T` parameter.
    unsafe { T::from_napi_value(raw.env, raw.value) }.map_err(napi_err)
}

fn check_keys(what: &str, keys: &[String], known: &[&str]) -> skilldeck::Result<()> {
    let Some(key) = keys.iter().find(|k| !known.contains(&k.as_str())) else {
        return Ok(());
    };
    let fold = |s: &str| s.replace('_', "").to_ascii_lowercase();
    let hint = known
        .iter()
        .find(|k| fold(k) == fold(key))
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default();
    Err(skilldeck::Error::invalid_options(format!(
        "{what}: unknown key `{key}`{hint}; expected one of: {}",
        known.join(", ")
    )))
}

/// An options object of the install and run functions, as JSON: `main.cjs` has taken out
/// what is not data (`onProgress`, `onEvent`, `signal`, `cancel`). Keys are camelCase;
/// `undefined`/`null` values mean "the default" and are dropped.
pub type JsonOptions = serde_json::Map<String, serde_json::Value>;

/// `value` as [`JsonOptions`], refusing keys outside `known` (a typo must not leave an
/// option silently at its default).
pub fn json_options(
    what: &str,
    value: Option<serde_json::Value>,
    known: &[&str],
) -> skilldeck::Result<JsonOptions> {
    let mut map = match value {
        None | Some(serde_json::Value::Null) => return Ok(JsonOptions::new()),
        Some(serde_json::Value::Object(map)) => map,
        Some(other) => {
            return Err(skilldeck::Error::invalid_options(format!(
                "{what} must be an object, got {other}"
            )))
        }
    };
    map.retain(|_, v| !v.is_null());
    let keys: Vec<String> = map.keys().cloned().collect();
    check_keys(what, &keys, known)?;
    Ok(map)
}

/// Deserialise a core record from JSON; the error names what was being read.
pub fn from_json<T: serde::de::DeserializeOwned>(
    what: &str,
    value: serde_json::Value,
) -> skilldeck::Result<T> {
    serde_json::from_value(value)
        .map_err(|e| skilldeck::Error::invalid_options(format!("{what}: {e}")))
}

/// `camelCase` → `snake_case` (`outputLimit` → `output_limit`).
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `snake_case` → `camelCase`, to name a core field the way a JS caller writes it.
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `base` with the fields of `given` replaced, through serde: the field names and types
/// are the core record's own (written camelCase by JS, whether the record serialises in
/// snake or camel case), so no list of them is repeated here. An unknown field is refused
/// (the core records ignore unknown fields, which would hide a misspelt limit).
pub fn overridden<T: serde::Serialize + serde::de::DeserializeOwned>(
    what: &str,
    base: &T,
    given: serde_json::Value,
) -> skilldeck::Result<T> {
    let invalid = |e: serde_json::Error| skilldeck::Error::invalid_options(format!("{what}: {e}"));
    let serde_json::Value::Object(mut fields) = serde_json::to_value(base).map_err(invalid)? else {
        return Err(skilldeck::Error::invalid_options(format!(
            "{what} is not a record"
        )));
    };
    let serde_json::Value::Object(given) = given else {
        return Err(skilldeck::Error::invalid_options(format!(
            "{what} must be an object of fields, got {given}"
        )));
    };
    for (key, value) in given {
        let name = if fields.contains_key(&key) {
            key
        } else if fields.contains_key(&snake(&key)) {
            snake(&key)
        } else {
            let known: Vec<String> = fields.keys().map(|k| camel(k)).collect();
            return Err(skilldeck::Error::invalid_options(format!(
                "{what}: unknown field `{key}`; expected one of: {}",
                known.join(", ")
            )));
        };
        fields.insert(name, value);
    }
    serde_json::from_value(serde_json::Value::Object(fields)).map_err(invalid)
}

/// A path option (a string), removed from `options`.
pub fn take_path(options: &mut JsonOptions, key: &str) -> skilldeck::Result<Option<PathBuf>> {
    match options.remove(key) {
        None => Ok(None),
        Some(serde_json::Value::String(path)) => Ok(Some(PathBuf::from(path))),
        Some(other) => Err(skilldeck::Error::invalid_options(format!(
            "{key} must be a path (a string), got {other}"
        ))),
    }
}
