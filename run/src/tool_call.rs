//! A model's tool call (from the definitions of [`skilldeck::tool_definitions`]) turned into
//! a run: `run_skill_script` with seed 003's arguments, or a command skill's tool with its
//! parameters.

use crate::error::RunError;
use crate::options::{CommandRequest, RunControl, RunOptions, RunOutcome, ScriptRequest};
use serde::Deserialize;
use serde_json::Value;
use skilldeck::Deck;
use std::path::PathBuf;

/// `run_skill_script`'s arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptArguments {
    skill_name: String,
    script_name: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    destination_path: Option<PathBuf>,
}

/// Run the tool `name` called with `arguments` (the JSON object the model produced).
/// An unknown tool name is `NOT_FOUND`; arguments of the wrong shape are `INVALID_INPUT`.
pub fn call_tool(
    deck: &Deck,
    name: &str,
    arguments: &Value,
    options: &RunOptions,
    control: &RunControl,
) -> Result<RunOutcome, RunError> {
    if name == skilldeck::RUN_SKILL_SCRIPT {
        let parsed: ScriptArguments =
            serde_json::from_value(arguments.clone()).map_err(|e| RunError::InvalidInput {
                skill: name.to_string(),
                problems: vec![e.to_string()],
            })?;
        let request = ScriptRequest {
            skill: parsed.skill_name,
            script: parsed.script_name,
            args: parsed.args,
            stdin: None,
            destination: parsed.destination_path,
        };
        return crate::run_script(deck, &request, options, control);
    }
    let catalog = deck.catalog()?;
    let skill = skilldeck::tool_definitions(&catalog)
        .into_iter()
        .find(|tool| tool.name == name)
        .and_then(|tool| tool.skill)
        .ok_or_else(|| skilldeck::Error::NotFound {
            id: name.to_string(),
        })?;
    let Value::Object(input) = arguments else {
        return Err(RunError::InvalidInput {
            skill,
            problems: vec!["the arguments must be a JSON object".into()],
        });
    };
    let request = CommandRequest {
        skill,
        input: input.clone(),
    };
    crate::run_command(deck, &request, options, control)
}
