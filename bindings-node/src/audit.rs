//! `audit` / `auditSync`: the offline security report of `skilldeck::audit`, as a plain
//! object (the `AuditReport` of `index.d.ts`, Python's `AuditReport` dict).

use crate::deck::Json;
use crate::error::check;
use crate::options::{from_json, json_options};
use crate::task::CoreTask;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use skilldeck::{catch_panic, AuditOptions};
use std::path::PathBuf;

const AUDIT_KEYS: &[&str] = &["maxFileBytes", "maxFiles", "maxDepth"];

/// The core's `AuditOptions` (no serde there): its defaults with the limits JS gave.
fn audit_options(options: Option<Value>) -> skilldeck::Result<AuditOptions> {
    let mut audit = AuditOptions::default();
    for (key, value) in json_options("audit options", options, AUDIT_KEYS)? {
        match key.as_str() {
            "maxFileBytes" => audit.max_file_bytes = from_json(&key, value)?,
            "maxFiles" => audit.max_files = from_json(&key, value)?,
            "maxDepth" => audit.max_depth = from_json(&key, value)?,
            // `json_options` refused every other key.
            _ => {}
        }
    }
    Ok(audit)
}

fn run(path: PathBuf, options: skilldeck::Result<AuditOptions>) -> skilldeck::Result<Json> {
    Json::of(&skilldeck::audit(&path, &options?)?)
}

/// Audit a skill directory, a SKILL.md, a plugin or a directory of skills: scripts, network
/// and exfiltration commands, hidden Unicode, injection phrases, links leaving the package,
/// shell grants, hooks and MCP servers, on the libuv pool. Findings are sorted most severe
/// first. Rejects with `IO_ERROR` when `path` cannot be read and `INVALID_OPTIONS` when it
/// is neither a directory nor a SKILL.md (or an option is wrong).
#[napi(
    ts_args_type = "path: string, options?: AuditOptions | undefined | null",
    ts_return_type = "Promise<AuditReport>"
)]
pub fn audit(path: String, options: Option<Value>) -> AsyncTask<CoreTask<Json, Json>> {
    // Bad options reject the Promise, as in `validate()`.
    let options = audit_options(options);
    CoreTask::spawn(
        move || run(PathBuf::from(path), options),
        std::convert::identity,
    )
}

/// `audit()` on the calling thread.
#[napi(
    ts_args_type = "path: string, options?: AuditOptions | undefined | null",
    ts_return_type = "AuditReport"
)]
pub fn audit_sync(env: Env, path: String, options: Option<Value>) -> Result<Json> {
    let options = audit_options(options);
    check(&env, catch_panic(|| run(PathBuf::from(path), options)))
}
