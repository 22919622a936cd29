//! Tool definitions for a model and tool results (core `skilldeck::exec`), as plain objects
//! in the provider's JSON shape. Format names are parsed by the core's `ToolFormat`
//! (`openai`, `anthropic`, `vercel`); an unknown one is `INVALID_OPTIONS`.

use crate::error::check;
use crate::model::Catalog;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use skilldeck::{ToolFormat, ToolSpec};

fn format(name: Option<String>) -> skilldeck::Result<ToolFormat> {
    match name {
        Some(name) => name.parse(),
        None => Ok(ToolFormat::default()),
    }
}

fn specs(env: &Env, specs: &[ToolSpec], format: Option<String>) -> Result<Value> {
    let format = check(env, self::format(format))?;
    Ok(Value::Array(
        specs.iter().map(|t| t.to_json(format)).collect(),
    ))
}

/// The tool formats (`TOOL_FORMATS` of the package).
#[napi(js_name = "_toolFormats", skip_typescript)]
pub fn tool_formats() -> Vec<&'static str> {
    ToolFormat::ALL.iter().map(|f| f.as_str()).collect()
}

/// The tools that run `catalog`'s model-visible skills: `run_skill_script` (when a skill
/// has a `scripts/` directory), then one per command skill, in `format`'s JSON (default
/// `openai`).
#[napi(
    ts_args_type = "catalog: Catalog, format?: ToolFormat | undefined | null",
    ts_return_type = "ToolDefinition[]"
)]
pub fn tool_definitions(env: Env, catalog: &Catalog, format: Option<String>) -> Result<Value> {
    specs(&env, &skilldeck::tool_definitions(&catalog.inner), format)
}

/// Every tool an agent needs for `catalog`'s skills: `skill` and `search_skills`, then
/// `toolDefinitions`, names unique, in `format`'s JSON (default `openai`).
#[napi(
    ts_args_type = "catalog: Catalog, format?: ToolFormat | undefined | null",
    ts_return_type = "ToolDefinition[]"
)]
pub fn agent_tools(env: Env, catalog: &Catalog, format: Option<String>) -> Result<Value> {
    specs(&env, &skilldeck::agent_tools(&catalog.inner), format)
}

/// The `skill` tool (load a skill's instructions by name) in `format`'s JSON.
#[napi(
    ts_args_type = "format?: ToolFormat | undefined | null",
    ts_return_type = "ToolDefinition"
)]
pub fn skill_tool(env: Env, format: Option<String>) -> Result<Value> {
    let format = check(&env, self::format(format))?;
    Ok(skilldeck::skill_tool().to_json(format))
}

/// The `search_skills` tool in `format`'s JSON.
#[napi(
    ts_args_type = "format?: ToolFormat | undefined | null",
    ts_return_type = "ToolDefinition"
)]
pub fn search_skills_tool(env: Env, format: Option<String>) -> Result<Value> {
    let format = check(&env, self::format(format))?;
    Ok(skilldeck::search_skills_tool().to_json(format))
}

/// The `run_skill_script` tool in `format`'s JSON.
#[napi(
    ts_args_type = "format?: ToolFormat | undefined | null",
    ts_return_type = "ToolDefinition"
)]
pub fn run_skill_script_tool(env: Env, format: Option<String>) -> Result<Value> {
    let format = check(&env, self::format(format))?;
    Ok(skilldeck::run_skill_script_tool().to_json(format))
}

/// A tool's result as the message (part) `format` expects back: OpenAI's `role: 'tool'`
/// message, Anthropic's `tool_result` block, the Vercel AI SDK's `tool-result` part.
/// `callId` is the id the model gave the call; `toolName` is used by the Vercel shape.
#[napi(
    ts_args_type = "format: ToolFormat, callId: string, toolName: string, content: string, isError?: boolean | undefined | null",
    ts_return_type = "ToolResultMessage"
)]
pub fn tool_result(
    env: Env,
    format: String,
    call_id: String,
    tool_name: String,
    content: String,
    is_error: Option<bool>,
) -> Result<Value> {
    let format = check(&env, self::format(Some(format)))?;
    Ok(skilldeck::tool_result(
        format,
        &call_id,
        &tool_name,
        &content,
        is_error.unwrap_or(false),
    ))
}
