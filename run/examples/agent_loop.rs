//! An agent loop on skilldeck's tools with a scripted model (see examples/agent-loop/README.md).
//! `cargo run -p skilldeck-run --example agent_loop -- examples/agent-loop/project`

use serde_json::{json, Value};
use skilldeck::{
    agent_tools, tool_result, ActivateOptions, Deck, DeckOptions, SearchOptions, ToolFormat,
};
use skilldeck_run::{call_tool, RunControl, RunOptions};

/// Stands in for a model: the reply to the conversation so far, in OpenAI's message shape.
/// It searches, loads the skill, then calls its tool, then answers with what the tool returned.
fn scripted_model(messages: &[Value], tools: &[Value]) -> Value {
    let offered = |name: &str| tools.iter().any(|t| t["function"]["name"] == name);
    let calls = messages.iter().filter(|m| m["role"] == "tool").count();
    let call = |id: &str, name: &str, arguments: Value| {
        json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": id, "type": "function",
            "function": {"name": name, "arguments": arguments.to_string()}
        }]})
    };
    match calls {
        0 if offered("search_skills") => call(
            "call-0",
            "search_skills",
            json!({"query": "count words in a text"}),
        ),
        1 if offered("skill") => call("call-1", "skill", json!({"name": "word-count"})),
        2 if offered("word-count") => call(
            "call-2",
            "word-count",
            json!({"text": "the quick brown fox\njumps over the lazy dog"}),
        ),
        _ => {
            let last = messages
                .last()
                .map(|m| m["content"].clone())
                .unwrap_or_default();
            json!({"role": "assistant", "content": format!("The tool says: {}", last.as_str().unwrap_or_default())})
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let project = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/agent-loop/project".into());
    println!("{}", agent_loop(&project)?);
    Ok(())
}

/// Run the loop on `project`'s skills; the model's final answer.
pub fn agent_loop(project: &str) -> Result<String, Box<dyn std::error::Error>> {
    let deck = Deck::new(DeckOptions {
        project_dir: project.into(),
        ..Default::default()
    })?;
    let catalog = deck.load()?;
    let format = ToolFormat::Openai;
    let tools: Vec<Value> = agent_tools(&catalog)
        .iter()
        .map(|t| t.to_json(format))
        .collect();
    let mut messages = vec![json!({"role": "user", "content": "How many words are in my text?"})];
    for _ in 0..8 {
        let reply = scripted_model(&messages, &tools);
        messages.push(reply.clone());
        let Some(calls) = reply["tool_calls"].as_array() else {
            return Ok(reply["content"].as_str().unwrap_or_default().to_string());
        };
        for c in calls {
            let (id, name) = (
                c["id"].as_str().unwrap_or_default(),
                c["function"]["name"].as_str().unwrap_or_default(),
            );
            let arguments: Value =
                serde_json::from_str(c["function"]["arguments"].as_str().unwrap_or("{}"))?;
            let (content, is_error) = match name {
                "skill" => {
                    let skill = arguments["name"].as_str().unwrap_or_default();
                    match deck.activate(skill, &ActivateOptions::default()) {
                        Ok(a) => (a.text, false),
                        Err(e) => (e.to_string(), true),
                    }
                }
                "search_skills" => {
                    let options = SearchOptions {
                        query: arguments["query"].as_str().unwrap_or_default().to_string(),
                        limit: arguments["limit"].as_u64().map_or(10, |n| n as usize),
                        ..Default::default()
                    };
                    match deck.search(&options) {
                        Ok(hits) => (serde_json::to_string(&hits)?, false),
                        Err(e) => (e.to_string(), true),
                    }
                }
                // `run_skill_script` and every command skill's tool: sandboxed, arguments
                // checked against the skill's parameters before anything runs.
                _ => match call_tool(
                    &deck,
                    name,
                    &arguments,
                    &RunOptions::default(),
                    &RunControl::default(),
                ) {
                    Ok(outcome) => {
                        let failed = !outcome.success();
                        (outcome.stdout, failed)
                    }
                    Err(e) => (e.to_string(), true),
                },
            };
            println!(
                "tool {name} -> {}",
                content.lines().next().unwrap_or_default()
            );
            messages.push(tool_result(format, id, name, &content, is_error));
        }
    }
    Err("the model did not finish within 8 turns".into())
}
