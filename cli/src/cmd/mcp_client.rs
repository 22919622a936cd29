//! `skilldeck mcp-client list|get …  -- COMMAND [ARGS…]`: an MCP server as a skill source.
//! `list` checks every entry and reports name collisions with the local skills; `get`
//! loads one skill (SKILL.md; every file with `--all`), verifies it and prints where the
//! verified copy is cached.

use super::deck_args::DeckArgs;
use skilldeck_mcp::default_cache;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(clap::Args, Debug)]
pub struct Server {
    /// This host's label for the server: it namespaces the skill ids (`LABEL:path`) and
    /// the cache, whatever name the server reports.
    #[arg(long, default_value = "mcp")]
    pub label: String,
    /// Cache for verified skill content (default: $XDG_CACHE_HOME/skilldeck/mcp or
    /// ~/.cache/skilldeck/mcp); refused inside a skill discovery path.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The server's streamable-HTTP endpoint (http:// or https://), instead of a command.
    #[cfg(feature = "http")]
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// With --url: a header sent with every request, as `Name: value` (repeatable), e.g.
    /// `Authorization: Bearer …`.
    #[cfg(feature = "http")]
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    pub headers: Vec<String>,
    /// The server command and its arguments (after `--`).
    #[arg(
        required_unless_present = "url",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// List the server's skills (checked entries, refused entries, name collisions).
    List {
        #[command(flatten)]
        deck: DeckArgs,
        #[command(flatten)]
        server: Server,
    },
    /// Fetch one skill by the URI of its SKILL.md, verify it and cache it.
    Get {
        /// skill://…/SKILL.md
        uri: String,
        /// Also read and verify every supporting file (by default only SKILL.md is
        /// fetched, as on activation).
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        deck: DeckArgs,
        #[command(flatten)]
        server: Server,
    },
}

pub fn run(args: Args) -> i32 {
    let (deck_args, server, uri) = match args.action {
        Action::List { deck, server } => (deck, server, None),
        Action::Get {
            uri,
            all,
            deck,
            server,
        } => (deck, server, Some((uri, all))),
    };
    let deck = match deck_args.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    let catalog = match deck.catalog() {
        Ok(catalog) => catalog,
        Err(err) => return super::deck_args::report(&err),
    };
    let Some(cache) = server.cache.clone().or_else(default_cache) else {
        crate::style::eprint_error(
            None,
            "no cache directory: pass --cache DIR (HOME is not set)",
        );
        return crate::EXIT_USAGE;
    };
    let cache = std::path::absolute(&cache).unwrap_or(cache);
    // Cached content must never be discovered as a local skill.
    if let Some(root) = deck
        .watched_roots()
        .iter()
        .find(|r| cache.starts_with(r) || r.starts_with(&cache))
    {
        crate::style::eprint_error(
            None,
            &format!(
                "the cache {} overlaps the skill discovery path {}; pass --cache with a directory outside every skill root",
                cache.display(),
                root.display()
            ),
        );
        return crate::EXIT_USAGE;
    }
    let local: Vec<(String, String)> = catalog
        .listed()
        .map(|s| (s.id.to_string(), s.name.to_string()))
        .collect();
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
    runtime.block_on(async move {
        let source = match connect(&server, &cache).await {
            Ok(source) => source,
            Err(err) => {
                crate::style::eprint_error(Some(err.code()), &err.to_string());
                return crate::EXIT_FAILURE;
            }
        };
        let code = match uri {
            None => list(&source, &local, server.json).await,
            Some((uri, all)) => get(&source, &uri, all, server.json).await,
        };
        source.close().await;
        code
    })
}

/// Parse `Name: value`.
#[cfg(feature = "http")]
pub fn parse_header(header: &str) -> Option<(String, String)> {
    let (name, value) = header.split_once(':')?;
    let name = name.trim();
    (!name.is_empty()).then(|| (name.to_string(), value.trim().to_string()))
}

async fn connect(
    server: &Server,
    cache: &std::path::Path,
) -> Result<skilldeck_mcp::McpSkillSource, skilldeck_mcp::ClientError> {
    #[cfg(feature = "http")]
    if let Some(url) = &server.url {
        let mut headers = Vec::new();
        for header in &server.headers {
            let Some(parsed) = parse_header(header) else {
                return Err(skilldeck_mcp::ClientError::Connect {
                    label: server.label.clone(),
                    message: format!("--header `{header}`: expected `Name: value`"),
                });
            };
            headers.push(parsed);
        }
        return skilldeck_mcp::McpSkillSource::connect_url(&server.label, url, &headers, cache)
            .await;
    }
    let Some((program, rest)) = server.command.split_first() else {
        return Err(skilldeck_mcp::ClientError::Connect {
            label: server.label.clone(),
            message: "no server: pass a command after `--` or --url URL".into(),
        });
    };
    skilldeck_mcp::McpSkillSource::connect_command(&server.label, program, rest, cache).await
}

async fn list(
    source: &skilldeck_mcp::McpSkillSource,
    local: &[(String, String)],
    json: bool,
) -> i32 {
    let (skills, refused) = match source.list().await {
        Ok(listed) => listed,
        Err(err) => {
            crate::style::eprint_error(Some(err.code()), &err.to_string());
            return crate::EXIT_FAILURE;
        }
    };
    let collisions = skilldeck_mcp::collisions(&skills, local);
    if json {
        let value = serde_json::json!({
            "server": source.label(),
            "skills": skills,
            "refused": refused.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "collisions": collisions,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    } else {
        for skill in &skills {
            println!(
                "{}  {}  ({} files)  {}",
                skill.id,
                skill.uri,
                skill.files.len(),
                skill.description
            );
        }
        for err in &refused {
            eprintln!("refused: {err}");
        }
        for c in &collisions {
            eprintln!(
                "name collision: `{}` is used by {}; each keeps its own id, none shadows another",
                c.name,
                c.ids.join(", ")
            );
        }
    }
    if refused.is_empty() {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}

async fn get(source: &skilldeck_mcp::McpSkillSource, uri: &str, all: bool, json: bool) -> i32 {
    let fetched = match source.get(uri).await {
        Ok(skill) if all => source.fetch_all(&skill).await,
        Ok(skill) => source.load(&skill).await,
        Err(err) => Err(err),
    };
    match fetched {
        Ok(verified) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&verified).unwrap_or_default()
                );
            } else {
                let total = verified.skill.files.len();
                let read = if all { total } else { 1 };
                println!(
                    "{}  verified {read} of {total} files  {}",
                    verified.skill.id,
                    verified.dir.display()
                );
            }
            crate::EXIT_OK
        }
        Err(err) => {
            crate::style::eprint_error(Some(err.code()), &err.to_string());
            crate::EXIT_FAILURE
        }
    }
}
