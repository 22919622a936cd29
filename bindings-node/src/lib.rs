//! Node.js binding of skilldeck (the `skilldeck` npm package), built with napi-rs.
//!
//! Thin by design: every behaviour comes from the `skilldeck` core crate. This crate converts
//! options and results, maps core errors to JS errors carrying `code`/`path`, and runs long
//! calls as `AsyncTask`s on the libuv pool.

mod deck;
mod error;
mod heap;
// Public so the `--all-targets` (test) build, where napi registers nothing, still sees
// these `#[napi]` functions as used.
pub mod audit;
pub mod install;
mod manifest;
pub mod mcp;
mod model;
mod options;
mod permissions;
pub mod plugin;
pub mod run;
mod task;
pub mod tools;
mod worker;

use crate::error::check;
use crate::model::{Parsed, ValidationReport};
use crate::options::{strict, ValidateOptions, VALIDATE_KEYS};
use crate::task::CoreTask;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use skilldeck::catch_panic;
use std::io::Write;
use std::path::PathBuf;

/// The engine version (the same in every binding).
#[napi]
pub const VERSION: &str = skilldeck::VERSION;

/// The engine version (the same in every binding).
#[napi]
pub fn version() -> String {
    skilldeck::VERSION.to_string()
}

/// The `search_skills` tool a host offers its model: `name`, `description` and JSON Schema
/// `parameters` (pass them as a tool's `parameters` / `input_schema`).
#[napi(ts_return_type = "SearchToolDefinition")]
pub fn search_tool_definition() -> serde_json::Value {
    skilldeck::search_tool_definition()
}

/// Parse the text of a SKILL.md. Never throws: problems are diagnostics.
#[napi]
pub fn parse(env: Env, text: String) -> Result<Parsed> {
    let inner = check(&env, catch_panic(|| Ok(skilldeck::parse(&text))))?;
    Ok(Parsed { inner })
}

fn validate_options(options: Option<Object>) -> skilldeck::Result<skilldeck::ValidateOptions> {
    match options {
        Some(object) => {
            Ok(strict::<ValidateOptions>("validate options", VALIDATE_KEYS, object)?.into_core())
        }
        None => Ok(Default::default()),
    }
}

fn reports(list: Vec<skilldeck::ValidationReport>) -> Vec<ValidationReport> {
    list.into_iter()
        .map(|inner| ValidationReport { inner })
        .collect()
}

/// Validate a skill directory, a SKILL.md, or every skill below a directory, on the libuv pool.
#[napi(ts_return_type = "Promise<ValidationReport[]>")]
pub fn validate(
    path: String,
    #[napi(ts_arg_type = "ValidateOptions | undefined | null")] options: Option<Object>,
) -> AsyncTask<CoreTask<Vec<skilldeck::ValidationReport>, Vec<ValidationReport>>> {
    // Bad options reject the Promise, as in `render()`.
    let options = validate_options(options);
    CoreTask::spawn(
        move || heap::trimmed(Ok(skilldeck::validate(&PathBuf::from(path), &options?))),
        reports,
    )
}

/// `validate()` on the calling thread.
#[napi]
pub fn validate_sync(
    env: Env,
    path: String,
    #[napi(ts_arg_type = "ValidateOptions | undefined | null")] options: Option<Object>,
) -> Result<Vec<ValidationReport>> {
    let options = check(&env, validate_options(options))?;
    let found = heap::trimmed(catch_panic(|| {
        Ok(skilldeck::validate(&PathBuf::from(path), &options))
    }));
    check(&env, found).map(reports)
}

/// Run the `skilldeck` command with `argv` (without the program name); returns the exit
/// code. Output goes to the process's stdout/stderr, exactly as the Rust binary's.
#[napi]
pub fn run_cli(env: Env, argv: Vec<String>) -> Result<i32> {
    let args = std::iter::once("skilldeck".to_string()).chain(argv);
    let code = catch_panic(|| Ok(skilldeck_cli::run(args)));
    // Inside Node no Rust runtime teardown flushes a last partial line; do it here.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    check(&env, code)
}
