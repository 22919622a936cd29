//! `skilldeck activate ID [--args STRING] [--format F] [--var NAME=VALUE]... [--session-id S]
//! [--read-files] [--allow-command PROGRAM]... [--json]`: load one skill's instructions the
//! way a host would hand them to the model.

use super::deck_args::{report, DeckArgs};
use skilldeck::activate::expand::{CommandPolicy, CommandRunner, Expansions, FsReader};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Skill id or name.
    pub id: String,
    #[command(flatten)]
    pub deck: DeckArgs,
    /// The argument string (`$ARGUMENTS`, `$0`, named arguments).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub args: String,
    /// raw, opencode, codex or kode.
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

/// Runs allowed commands with `sh -c` in the skill directory.
struct Shell;

impl CommandRunner for Shell {
    fn run(&self, command: &str, cwd: &Path) -> Result<String, String> {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(cwd)
            .output()
            .map_err(|e| e.to_string())?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "{}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }
}

pub fn run(args: Args) -> i32 {
    let format = match serde_json::from_value(serde_json::Value::String(args.format.clone())) {
        Ok(f) => f,
        Err(_) => {
            crate::style::eprint_error(
                None,
                &format!(
                    "unknown activation format `{}` (expected raw, opencode, codex or kode)",
                    args.format
                ),
            );
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
    let options = skilldeck::ActivateOptions {
        args: args.args.clone(),
        vars,
        format,
        agent: None,
        session_id: args.session_id.clone(),
    };
    let policy = CommandPolicy::AllowPrograms(args.allow_commands.clone());
    let expansions = Expansions {
        runner: (!args.allow_commands.is_empty()).then_some(&Shell as &dyn CommandRunner),
        commands: Some(&policy),
        reader: args
            .read_files
            .then_some(&FsReader as &dyn skilldeck::activate::expand::FileReader),
    };
    // One load that keeps nothing for a later one: this process exits after activating.
    if let Err(err) = deck.load_once() {
        return report(&err);
    }
    let activation = match deck.activate_with(&args.id, &options, &expansions) {
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
