//! `skilldeck activate ID [--args STRING] [--format F] [--var NAME=VALUE]... [--session-id S]
//! [--read-files] [--allow-command PROGRAM]... [--json]`: load one skill's instructions the
//! way a host would hand them to the model.

use super::deck_args::{report, DeckArgs};
use std::collections::BTreeMap;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Skill id or name.
    pub id: String,
    #[command(flatten)]
    pub deck: DeckArgs,
    #[command(flatten)]
    pub remote: super::remote_args::RemoteArgs,
    /// The argument string (`$ARGUMENTS`, `$0`, named arguments).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub args: String,
    /// raw, opencode, codex, kode, cline, gemini, qwen-code, mistral-vibe, copilot-cli,
    /// openhands or goose.
    #[arg(long, default_value = "raw")]
    pub format: String,
    /// A variable for `${NAME}` placeholders (repeatable).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// Session id for `${CLAUDE_SESSION_ID}`.
    #[arg(long)]
    pub session_id: Option<String>,
    /// Inline `@path` references (only files inside the skill or project directory).
    #[arg(long)]
    pub read_files: bool,
    /// Run `!`cmd`` blocks whose program is PROGRAM (repeatable; `sh -c` in the skill dir).
    #[arg(long = "allow-command", value_name = "PROGRAM")]
    pub allow_commands: Vec<String>,
    /// Print the structured activation as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    let format = match args.format.parse::<skilldeck::ActivationFormat>() {
        Ok(f) => f,
        Err(e) => {
            crate::style::eprint_error(None, &e.to_string());
            return crate::EXIT_USAGE;
        }
    };
    let mut vars = BTreeMap::new();
    for var in &args.vars {
        match var.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                vars.insert(name.to_string(), value.to_string());
            }
            _ => {
                crate::style::eprint_error(None, &format!("`--var {var}`: expected NAME=VALUE"));
                return crate::EXIT_USAGE;
            }
        }
    }
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    if let Err(code) = args.remote.attach(&deck) {
        return code;
    }
    let options = skilldeck::ActivateOptions {
        args: args.args.clone(),
        vars,
        format,
        agent: None,
        session_id: args.session_id.clone(),
        read_files: args.read_files,
        allow_commands: args.allow_commands.clone(),
    };
    // One load that keeps nothing for a later one: this process exits after activating.
    if let Err(err) = deck.load_once() {
        return report(&err);
    }
    let activation = match deck.activate(&args.id, &options) {
        Ok(a) => a,
        Err(err) => return report(&err),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&activation).unwrap_or_default()
        );
    } else {
        print!("{}", activation.text);
        if !activation.text.ends_with('\n') {
            println!();
        }
    }
    crate::EXIT_OK
}
