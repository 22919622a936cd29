//! Tool definitions for a model and tool results (core `skilldeck::exec`), as JSON text in
//! the provider's shape, ready to send as they are. `format` is one of `toolFormats()`
//! (`openai`, `anthropic`, `vercel`); an unknown one is `InvalidOptionsError`.

use crate::catalog::Catalog;
use crate::error::SkillError;
use skilldeck::{ToolFormat, ToolSpec};
use std::sync::Arc;

fn format(name: &str) -> Result<ToolFormat, SkillError> {
    Ok(name.parse::<ToolFormat>()?)
}

fn specs_json(specs: &[ToolSpec], format: ToolFormat) -> String {
    serde_json::Value::Array(specs.iter().map(|t| t.to_json(format)).collect()).to_string()
}

/// The tool formats, in the engine's order: `openai`, `anthropic`, `vercel`.
#[uniffi::export]
pub fn tool_formats() -> Vec<String> {
    ToolFormat::ALL
        .iter()
        .map(|f| f.as_str().to_string())
        .collect()
}

/// The tools that run `catalog`'s model-visible skills, as a JSON array in `format`'s
/// shape: `run_skill_script` (when a skill has a `scripts/` directory), then one per
/// command skill.
#[uniffi::export(default(format = "openai"))]
pub fn tool_definitions(catalog: Arc<Catalog>, format: String) -> Result<String, SkillError> {
    let format = self::format(&format)?;
    Ok(specs_json(
        &skilldeck::tool_definitions(&catalog.inner),
        format,
    ))
}

/// Every tool an agent needs for `catalog`'s skills, as a JSON array in `format`'s shape:
/// `skill` and `search_skills`, then `toolDefinitions`, names unique.
#[uniffi::export(default(format = "openai"))]
pub fn agent_tools(catalog: Arc<Catalog>, format: String) -> Result<String, SkillError> {
    let format = self::format(&format)?;
    Ok(specs_json(&skilldeck::agent_tools(&catalog.inner), format))
}

/// The `skill` tool (load a skill's instructions by name), as a JSON object.
#[uniffi::export(default(format = "openai"))]
pub fn skill_tool(format: String) -> Result<String, SkillError> {
    Ok(skilldeck::skill_tool()
        .to_json(self::format(&format)?)
        .to_string())
}

/// The `search_skills` tool, as a JSON object.
#[uniffi::export(default(format = "openai"))]
pub fn search_skills_tool(format: String) -> Result<String, SkillError> {
    Ok(skilldeck::search_skills_tool()
        .to_json(self::format(&format)?)
        .to_string())
}

/// The `run_skill_script` tool, as a JSON object.
#[uniffi::export(default(format = "openai"))]
pub fn run_skill_script_tool(format: String) -> Result<String, SkillError> {
    Ok(skilldeck::run_skill_script_tool()
        .to_json(self::format(&format)?)
        .to_string())
}

/// A tool's result as the message (part) `format` expects back, as a JSON object: OpenAI's
/// `role: tool` message, Anthropic's `tool_result` block, the Vercel AI SDK's `tool-result`
/// part. `callId` is the id the model gave the call; `toolName` is used by the Vercel shape.
#[uniffi::export(default(is_error = false))]
pub fn tool_result(
    format: String,
    call_id: String,
    tool_name: String,
    content: String,
    is_error: bool,
) -> Result<String, SkillError> {
    let format = self::format(&format)?;
    Ok(skilldeck::tool_result(format, &call_id, &tool_name, &content, is_error).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_the_engines_and_unknown_ones_are_refused() {
        assert_eq!(tool_formats(), ["openai", "anthropic", "vercel"]);
        assert_eq!(
            skill_tool("html".into())
                .err()
                .map(|e| e.code().to_string()),
            Some("INVALID_OPTIONS".to_string())
        );
    }
}
