//! Tool definitions for a model: `skill` (load a skill's instructions), `search_skills`,
//! `run_skill_script` (seed 003's arguments) and one tool per model-visible command skill, in
//! OpenAI's function-calling, Anthropic's tool-use and the Vercel AI SDK's JSON; and a tool's
//! result in the message shape each of them expects back.

use crate::catalog::{Catalog, Skill};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The name of the script tool.
pub const RUN_SKILL_SCRIPT: &str = "run_skill_script";
/// The name of the tool that loads a skill's instructions (as OpenCode and Claude Code name it).
pub const SKILL_TOOL: &str = "skill";
/// The name of the search tool.
pub const SEARCH_SKILLS: &str = "search_skills";

/// Which provider's JSON shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolFormat {
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    #[default]
    Openai,
    /// `{"name", "description", "input_schema"}`.
    Anthropic,
    /// The Vercel AI SDK's `tool({description, inputSchema})` fields plus the name the
    /// `tools` record is keyed by: `{"name", "description", "inputSchema"}` (wrap the schema
    /// in the SDK's `jsonSchema()`).
    Vercel,
}

impl ToolFormat {
    /// Every format, in the order the names are listed to users.
    pub const ALL: [ToolFormat; 3] = [
        ToolFormat::Openai,
        ToolFormat::Anthropic,
        ToolFormat::Vercel,
    ];

    /// The name used on the command line and in every binding.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolFormat::Openai => "openai",
            ToolFormat::Anthropic => "anthropic",
            ToolFormat::Vercel => "vercel",
        }
    }
}

impl std::fmt::Display for ToolFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ToolFormat {
    type Err = crate::error::Error;

    fn from_str(value: &str) -> Result<ToolFormat, Self::Err> {
        ToolFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == value)
            .ok_or_else(|| {
                let names: Vec<_> = ToolFormat::ALL.iter().map(|f| f.as_str()).collect();
                crate::error::Error::invalid_options(format!(
                    "unknown tool format `{value}` (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// One tool, provider-neutral.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// `^[a-zA-Z0-9_-]{1,64}$`, as both providers require.
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub input_schema: Value,
    /// The skill a command tool runs (`None` for `run_skill_script`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
}

impl ToolSpec {
    /// This tool in `format`'s JSON.
    pub fn to_json(&self, format: ToolFormat) -> Value {
        match format {
            ToolFormat::Openai => json!({
                "type": "function",
                "function": {
                    "name": self.name,
                    "description": self.description,
                    "parameters": self.input_schema,
                }
            }),
            ToolFormat::Anthropic => json!({
                "name": self.name,
                "description": self.description,
                "input_schema": self.input_schema,
            }),
            ToolFormat::Vercel => json!({
                "name": self.name,
                "description": self.description,
                "inputSchema": self.input_schema,
            }),
        }
    }
}

/// A tool's result as the message (part) `format` expects back: OpenAI's `role: tool`
/// message, Anthropic's `tool_result` content block, the Vercel AI SDK's `tool-result` part
/// (its `output` is `error-text` when `is_error`). `call_id` is the id the model gave the
/// call; `tool_name` is only used by the Vercel shape.
pub fn tool_result(
    format: ToolFormat,
    call_id: &str,
    tool_name: &str,
    content: &str,
    is_error: bool,
) -> Value {
    match format {
        // OpenAI has no error flag: the text itself must say so.
        ToolFormat::Openai => json!({
            "role": "tool",
            "tool_call_id": call_id,
            "content": content,
        }),
        ToolFormat::Anthropic => json!({
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": content,
            "is_error": is_error,
        }),
        ToolFormat::Vercel => json!({
            "type": "tool-result",
            "toolCallId": call_id,
            "toolName": tool_name,
            "output": {"type": if is_error { "error-text" } else { "text" }, "value": content},
        }),
    }
}

/// The `skill` tool: load one skill's full instructions by name (what an agent calls after
/// reading the skill list in its prompt).
pub fn skill_tool() -> ToolSpec {
    ToolSpec {
        name: SKILL_TOOL.into(),
        description: "Load a skill's full instructions by its name (from the list of available \
                      skills), then follow them. Pass `arguments` when the skill takes any."
            .into(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The skill's name, exactly as listed."},
                "arguments": {"type": "string", "description": "Arguments for the skill, as the user wrote them."}
            },
            "required": ["name"],
            "additionalProperties": false
        }),
        skill: None,
    }
}

/// The `search_skills` tool ([`crate::search::tool_definition`]) as a [`ToolSpec`].
pub fn search_skills_tool() -> ToolSpec {
    let definition = crate::search::tool_definition();
    ToolSpec {
        name: SEARCH_SKILLS.into(),
        description: definition["description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        input_schema: definition["parameters"].clone(),
        skill: None,
    }
}

/// Every tool an agent needs to use `catalog`'s skills: `skill` and `search_skills`, then
/// [`tool_definitions`] (`run_skill_script` and the command skills), names unique.
pub fn agent_tools(catalog: &Catalog) -> Vec<ToolSpec> {
    let mut tools = vec![skill_tool(), search_skills_tool()];
    for mut tool in tool_definitions(catalog) {
        let base = tool.name.clone();
        let mut n = 2;
        while tools.iter().any(|t| t.name == tool.name) {
            let suffix = format!("_{n}");
            let keep = 64usize.saturating_sub(suffix.len());
            tool.name = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
            n += 1;
        }
        tools.push(tool);
    }
    tools
}

/// The `run_skill_script` tool: run a script from a skill's `scripts/` directory in a
/// sandbox, optionally delivering the files it wrote to a path inside the workspace.
pub fn run_skill_script_tool() -> ToolSpec {
    ToolSpec {
        name: RUN_SKILL_SCRIPT.into(),
        description: "Run a script from a skill's scripts/ directory in a sandbox (no network, \
                      writes only to a fresh work directory). Returns its exit code and output; \
                      files it writes can be delivered to a path inside the workspace."
            .into(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "skill_name": {"type": "string", "description": "The skill that holds the script."},
                "script_name": {"type": "string", "description": "The script's path inside the skill's scripts/ directory, e.g. `extract.py`."},
                "args": {"type": "array", "items": {"type": "string"}, "description": "Command-line arguments for the script."},
                "destination_path": {"type": "string", "description": "Where to copy the files the script wrote, relative to the workspace; must stay inside it."}
            },
            "required": ["skill_name", "script_name"],
            "additionalProperties": false
        }),
        skill: None,
    }
}

/// A tool name for a skill id: characters outside `[a-zA-Z0-9_-]` (`:` of plugin ids, `.`)
/// become `_`, cut to 64 characters.
pub fn tool_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect()
}

/// The tool of a command skill (one with `command`), its input schema built from
/// `parameters`; `None` for other skills.
pub fn command_tool(skill: &Skill) -> Option<ToolSpec> {
    skill.manifest.tool.command.as_ref()?;
    Some(ToolSpec {
        name: tool_name(&skill.id),
        description: skill.description().to_string(),
        input_schema: super::skill_input_schema(skill),
        skill: Some(skill.id.to_string()),
    })
}

/// Every tool for `catalog`'s model-visible skills: `run_skill_script` first (when a visible
/// skill has a `scripts/` directory), then one per command skill, in catalog order.
pub fn tool_definitions(catalog: &Catalog) -> Vec<ToolSpec> {
    let mut tools = Vec::new();
    if catalog
        .model_visible()
        .any(|s| s.base_dir.join("scripts").is_dir())
    {
        tools.push(run_skill_script_tool());
    }
    for mut tool in catalog.model_visible().filter_map(command_tool) {
        // Two ids can map to one name (`a:b` and `a_b`), and a skill may be called
        // `run_skill_script`: a model cannot tell same-named tools apart.
        let base = tool.name.clone();
        let mut n = 2;
        while tools.iter().any(|t| t.name == tool.name) {
            let suffix = format!("_{n}");
            let keep = 64usize.saturating_sub(suffix.len());
            tool.name = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
            n += 1;
        }
        tools.push(tool);
    }
    tools
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_from_their_names_only() {
        for format in ToolFormat::ALL {
            assert_eq!(format.as_str().parse::<ToolFormat>().ok(), Some(format));
            let serde_name = serde_json::to_value(format).ok();
            assert_eq!(serde_name, Some(json!(format.as_str())));
        }
        let err = "gemini".parse::<ToolFormat>().err().map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("openai, anthropic, vercel")));
    }

    #[test]
    fn each_format_has_its_provider_shape() {
        let tool = skill_tool();
        let openai = tool.to_json(ToolFormat::Openai);
        assert_eq!(openai["type"], "function");
        assert_eq!(
            openai["function"]["parameters"]["required"],
            json!(["name"])
        );
        let anthropic = tool.to_json(ToolFormat::Anthropic);
        assert_eq!(anthropic["input_schema"]["type"], "object");
        let vercel = tool.to_json(ToolFormat::Vercel);
        assert_eq!(vercel["inputSchema"], tool.input_schema);
        assert_eq!(vercel["name"], SKILL_TOOL);
        let search = search_skills_tool();
        assert_eq!(search.input_schema["required"], json!(["query"]));
    }

    #[test]
    fn results_come_back_in_each_providers_message_shape() {
        let openai = tool_result(ToolFormat::Openai, "call_1", "skill", "text", false);
        assert_eq!(
            openai,
            json!({"role": "tool", "tool_call_id": "call_1", "content": "text"})
        );
        let anthropic = tool_result(ToolFormat::Anthropic, "toolu_1", "skill", "boom", true);
        assert_eq!(anthropic["type"], "tool_result");
        assert_eq!(anthropic["tool_use_id"], "toolu_1");
        assert_eq!(anthropic["is_error"], true);
        let vercel = tool_result(ToolFormat::Vercel, "c", "search_skills", "boom", true);
        assert_eq!(vercel["toolName"], "search_skills");
        assert_eq!(
            vercel["output"],
            json!({"type": "error-text", "value": "boom"})
        );
    }

    #[test]
    fn names_are_valid_for_both_providers() {
        assert_eq!(tool_name("plugin:pdf.tools"), "plugin_pdf_tools");
        assert_eq!(tool_name(&"x".repeat(100)).len(), 64);
    }

    #[test]
    fn a_catalog_gives_the_script_tool_and_one_tool_per_command_skill() {
        let dir = tempfile::tempdir().expect("tempdir");
        let skills = dir.path().join("p/.agents/skills");
        for (name, extra) in [
            (
                "calc",
                "command: calc.sh\nparameters:\n  n: {type: integer, required: true, minimum: 1}\n",
            ),
            ("docs", ""),
            ("hidden", "command: x.sh\ndisable-model-invocation: true\n"),
        ] {
            std::fs::create_dir_all(skills.join(name).join("scripts")).expect("mkdir");
            std::fs::write(
                skills.join(name).join("SKILL.md"),
                format!("---\nname: {name}\ndescription: The {name} skill.\n{extra}---\nBody.\n"),
            )
            .expect("write");
        }
        let deck = crate::Deck::new(crate::DeckOptions {
            project_dir: dir.path().join("p"),
            home_dir: Some(dir.path().join("home")),
            read_host_settings: false,
            ..Default::default()
        })
        .expect("deck");
        let catalog = deck.load().expect("load");
        let tools = tool_definitions(&catalog);
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, [RUN_SKILL_SCRIPT, "calc"]);
        assert_eq!(tools[1].input_schema["properties"]["n"]["minimum"], 1);
        assert_eq!(tools[1].input_schema["required"], json!(["n"]));
        assert_eq!(tools[1].description, "The calc skill.");
    }

    #[test]
    fn both_shapes_carry_the_schema() {
        let tool = run_skill_script_tool();
        let openai = tool.to_json(ToolFormat::Openai);
        assert_eq!(openai["function"]["name"], RUN_SKILL_SCRIPT);
        assert_eq!(
            openai["function"]["parameters"]["required"],
            json!(["skill_name", "script_name"])
        );
        let anthropic = tool.to_json(ToolFormat::Anthropic);
        assert_eq!(
            anthropic["input_schema"]["properties"]["args"]["type"],
            "array"
        );
    }
}
