//! `skilldeck mcp [discovery flags] [--page-size N] [--ttl-ms MS] [--no-watch] [--http ADDR]`:
//! serve the deck's skills over MCP (stdio, or streamable HTTP) with the Skills extension
//! (SEP-2640).

use super::deck_args::{report, DeckArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Skills per `skills/list` page (entries are never split across pages).
    #[arg(long, default_value_t = 100, value_name = "N",
          value_parser = super::count_parser("skills per page"))]
    pub page_size: usize,
    /// `ttlMs` on listings and reads: how long clients may treat them as fresh.
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    pub ttl_ms: u64,
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8765, port 0 for any)
    /// instead of stdio; the endpoint URL is printed on stderr.
    #[cfg(feature = "http")]
    #[arg(long, value_name = "ADDR")]
    pub http: Option<std::net::SocketAddr>,
    /// With --http: a host name clients may use besides the loopback ones (the `Host`
    /// header is checked against DNS rebinding); repeatable.
    #[cfg(feature = "http")]
    #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
    pub allow_hosts: Vec<String>,
    /// Offer the `run_skill_script` tool: a client may run files from a published skill's
    /// `scripts/`, through skilldeck-run with the deck's permission rules (`ask` is refused:
    /// nobody can approve over MCP) in the sandbox chosen by --run-sandbox.
    #[cfg(feature = "run")]
    #[arg(long)]
    pub allow_run: bool,
    /// With --allow-run: `enforce` (default: Landlock, seccomp, rlimits; refused where
    /// unavailable) or `none` (no confinement: only for skills you trust).
    #[cfg(feature = "run")]
    #[arg(long, value_name = "MODE", default_value = "enforce", requires = "allow_run",
          value_parser = super::run::sandbox_mode)]
    pub run_sandbox: skilldeck_run::SandboxMode,
    /// Do not watch the skill directories (no reload, no `list_changed` notifications).
    #[arg(long)]
    pub no_watch: bool,
}

pub fn run(args: Args) -> i32 {
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    if args.page_size == 0 {
        crate::style::eprint_error(None, "--page-size must be at least 1");
        return crate::EXIT_USAGE;
    }
    #[allow(unused_mut)]
    let mut options = skilldeck_mcp::ServerOptions {
        page_size: args.page_size,
        ttl_ms: args.ttl_ms,
        script_runner: None,
    };
    #[cfg(feature = "run")]
    if args.allow_run {
        options.script_runner = Some(std::sync::Arc::new(Runner {
            options: skilldeck_run::RunOptions {
                sandbox: args.run_sandbox,
                agent: args.deck.agent.clone(),
                ..Default::default()
            },
        }));
    }
    let server = match skilldeck_mcp::SkillServer::new(deck.clone(), options) {
        Ok(server) => server,
        Err(err) => return report(&err),
    };
    server.follow_deck_changes();
    #[cfg(feature = "watch")]
    let _watcher = if args.no_watch {
        None
    } else {
        match deck.watch(std::time::Duration::from_millis(300)) {
            Ok(watcher) => Some(watcher),
            Err(err) => return report(&err),
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            crate::style::eprint_error(None, &format!("cannot start the async runtime: {err}"));
            return crate::EXIT_FAILURE;
        }
    };
    #[cfg(feature = "http")]
    if let Some(addr) = args.http {
        let served = runtime.block_on(skilldeck_mcp::serve_http(
            server,
            addr,
            &args.allow_hosts,
            |bound| {
                eprintln!("skilldeck mcp: serving streamable HTTP at http://{bound}/mcp");
            },
        ));
        return match served {
            Ok(()) => crate::EXIT_OK,
            Err(err) => {
                crate::style::eprint_error(None, &format!("cannot serve HTTP on {addr}: {err}"));
                crate::EXIT_FAILURE
            }
        };
    }
    match runtime.block_on(skilldeck_mcp::serve_stdio(server)) {
        Ok(()) => crate::EXIT_OK,
        Err(err) => {
            crate::style::eprint_error(None, &format!("MCP session failed: {err}"));
            crate::EXIT_FAILURE
        }
    }
}

/// `run_skill_script` over MCP: skilldeck-run's `call_tool`, which authorizes the skill
/// against the deck's permission rules before anything runs.
#[cfg(feature = "run")]
struct Runner {
    options: skilldeck_run::RunOptions,
}

#[cfg(feature = "run")]
impl skilldeck_mcp::ScriptRunner for Runner {
    fn run_script(
        &self,
        deck: &skilldeck::Deck,
        arguments: &serde_json::Value,
    ) -> Result<String, String> {
        let control = skilldeck_run::RunControl::default();
        match skilldeck_run::call_tool(
            deck,
            skilldeck::RUN_SKILL_SCRIPT,
            arguments,
            &self.options,
            &control,
        ) {
            Ok(outcome) => serde_json::to_string(&outcome).map_err(|e| e.to_string()),
            Err(err) => Err(format!("{}: {err}", err.code())),
        }
    }
}
