//! The `skilldeck` command as a library, so the Python wheel and the Node package run the
//! very same command (`skilldeck_cli::run`) instead of re-implementing it.

mod cmd;
mod report;
pub mod style;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;

/// Exit codes: 0 success, 1 a skill is invalid / an operation failed, 2 usage error.
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILURE: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "skilldeck",
    version,
    about = "Discover, validate, render and activate Agent Skills (SKILL.md)"
)]
struct Cli {
    /// Colour diagnostics and tables: auto (on a terminal; honours NO_COLOR, CLICOLOR_FORCE
    /// and TERM=dumb), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: style::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check skills against the Agent Skills specification (or host leniency).
    Validate(cmd::validate::Args),
    /// List the skills a host profile discovers.
    List(cmd::list::Args),
    /// Show one skill: manifest, origin, shadowed skills, diagnostics, resources.
    Show(cmd::show::Args),
    /// Render the model-visible skills into system-prompt text.
    Render(cmd::render::Args),
    /// Activate one skill: load its body and substitute arguments.
    Activate(cmd::activate::Args),
    /// Explain why a skill is found or not (roots, walk rules, refusals, shadowing).
    Doctor(cmd::doctor::Args),
    /// Security report before or after install: scripts, network commands, hidden Unicode,
    /// injection phrases, links out of the package, shell grants, hooks (exit 1 above
    /// --max-severity).
    Audit(cmd::audit::Args),
    /// Search the skills by what they do (ranked; hybrid with your own embeddings).
    Search(cmd::search::Args),
    /// Run a command skill: its parameters as JSON on standard input, in a sandbox.
    #[cfg(feature = "run")]
    Run(cmd::run::Args),
    /// Run a script from a skill's scripts/ in a sandbox, delivering the files it writes.
    #[cfg(feature = "run")]
    RunScript(cmd::run::ScriptArgs),
    /// Print the tool definitions for a model: run_skill_script and one per command skill.
    #[cfg(feature = "run")]
    Tools(cmd::run::ToolsArgs),
    /// Serve the skills over MCP (stdio) with the Skills extension (SEP-2640).
    #[cfg(feature = "mcp")]
    Mcp(cmd::mcp::Args),
    /// Use an MCP server as a skill source: list its skills, or fetch and verify one.
    #[cfg(feature = "mcp")]
    McpClient(cmd::mcp_client::Args),
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish.
    ///
    /// e.g. `skilldeck completions bash > ~/.local/share/bash-completion/completions/skilldeck`
    /// or `skilldeck completions zsh > ~/.zfunc/_skilldeck`.
    Completions(cmd::completions::Args),
    /// Install skills from a directory, git, an archive or a well-known index; lock them.
    #[cfg(feature = "install")]
    Add(cmd::install::AddArgs),
    /// Remove installed skills and their lock entries.
    #[cfg(feature = "install")]
    Remove(cmd::install::RemoveArgs),
    /// Re-fetch installed skills; apply what changed by commit or digest (--dry-run shows it).
    #[cfg(feature = "install")]
    Update(cmd::install::UpdateArgs),
    /// List the skills skills-lock.json records.
    #[cfg(feature = "install")]
    Installed(cmd::install::ListArgs),
    /// Re-hash installed skills against the lock; exit 1 naming every changed, added or missing file.
    #[cfg(feature = "install")]
    Verify(cmd::install::ListArgs),
    /// `install --frozen`: restore exactly what skills-lock.json records, failing on any difference.
    #[cfg(feature = "install")]
    Install(cmd::install::FrozenArgs),
    /// Plugin marketplaces (Claude Code's layout): add, list, update, remove.
    #[cfg(feature = "install")]
    Marketplace(cmd::plugin::MarketplaceArgs),
    /// Plugins from marketplaces or a SOURCE: install, list, enable, disable, update, uninstall.
    #[cfg(feature = "install")]
    Plugin(cmd::plugin::PluginArgs),
}

/// The clap description of the whole command (for completions).
pub(crate) fn command() -> clap::Command {
    Cli::command()
}

/// Run the command line `args` (including the program name) and return the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let choice = style::scan(&args);
    style::set(choice);
    let parsed = Cli::command()
        .color(style::clap_choice(choice))
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_OK
            };
            let _ = err.print();
            return code;
        }
    };
    // A bug must not end the process with a panic: the Python and Node packages run this
    // inside their host process, and a script reading the exit code expects 0, 1 or 2.
    style::set(cli.color);
    let command = cli.command;
    match skilldeck::catch_panic(move || Ok(dispatch(command))) {
        Ok(code) => code,
        Err(err) => cmd::deck_args::report(&err),
    }
}

fn dispatch(command: Command) -> i32 {
    match command {
        Command::Validate(args) => cmd::validate::run(args),
        Command::List(args) => cmd::list::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Render(args) => cmd::render::run(args),
        Command::Activate(args) => cmd::activate::run(args),
        Command::Search(args) => cmd::search::run(args),
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => cmd::mcp::run(args),
        #[cfg(feature = "mcp")]
        Command::McpClient(args) => cmd::mcp_client::run(args),
        Command::Doctor(args) => cmd::doctor::run(args),
        Command::Audit(args) => cmd::audit::run(args),
        #[cfg(feature = "run")]
        Command::Run(args) => cmd::run::run(args),
        #[cfg(feature = "run")]
        Command::RunScript(args) => cmd::run::run_script(args),
        #[cfg(feature = "run")]
        Command::Tools(args) => cmd::run::tools(args),
        Command::Completions(args) => cmd::completions::run(args),
        #[cfg(feature = "install")]
        Command::Add(args) => cmd::install::add(args),
        #[cfg(feature = "install")]
        Command::Remove(args) => cmd::install::remove(args),
        #[cfg(feature = "install")]
        Command::Update(args) => cmd::install::update(args),
        #[cfg(feature = "install")]
        Command::Installed(args) => cmd::install::installed(args),
        #[cfg(feature = "install")]
        Command::Verify(args) => cmd::install::verify(args),
        #[cfg(feature = "install")]
        Command::Install(args) => cmd::install::frozen(args),
        #[cfg(feature = "install")]
        Command::Marketplace(args) => cmd::plugin::marketplace(args),
        #[cfg(feature = "install")]
        Command::Plugin(args) => cmd::plugin::plugin(args),
    }
}
