//! `--mcp-server` / `--mcp-url` on list, render, activate and show: MCP servers whose
//! skills join the deck beside the local ones (a [`skilldeck::RemoteSkillSource`] each,
//! from skilldeck-mcp). Without the `mcp` feature the flags do not exist.

#[cfg(feature = "mcp")]
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct RemoteArgs {
    /// An MCP server whose skills join the deck, as `[LABEL=]COMMAND ARGS…` split into
    /// words as a POSIX shell would (quotes and `\` group; nothing is expanded, no shell
    /// runs); repeatable. LABEL (letters, digits, `.`, `_`, `-`; default: the
    /// command's file name) namespaces its skills' ids, `LABEL:path`.
    #[cfg(feature = "mcp")]
    #[arg(long = "mcp-server", value_name = "[LABEL=]COMMAND")]
    pub servers: Vec<String>,
    /// An MCP server over streamable HTTP, as `[LABEL=]URL` (default label: the URL's
    /// host); repeatable.
    #[cfg(feature = "http")]
    #[arg(long = "mcp-url", value_name = "[LABEL=]URL")]
    pub urls: Vec<String>,
    /// A header sent to every --mcp-url server, as `Name: value`; repeatable.
    #[cfg(feature = "http")]
    #[arg(long = "mcp-header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Cache for verified skill content from MCP servers (default:
    /// $XDG_CACHE_HOME/skilldeck/mcp or ~/.cache/skilldeck/mcp); refused inside a skill
    /// discovery path.
    #[cfg(feature = "mcp")]
    #[arg(long = "mcp-cache", value_name = "DIR")]
    pub cache: Option<PathBuf>,
}

impl RemoteArgs {
    /// Connect to every server named and add it to `deck` (before the deck loads). An
    /// unreachable server, or one that does not serve the Skills extension, fails the
    /// command; entries it refuses become diagnostics of the catalog.
    #[cfg(feature = "mcp")]
    pub fn attach(&self, deck: &skilldeck::Deck) -> Result<(), i32> {
        #[allow(unused_mut)]
        let mut sources = skilldeck_mcp::McpSources {
            servers: self.servers.clone(),
            cache: self.cache.clone(),
            ..Default::default()
        };
        #[cfg(feature = "http")]
        {
            for header in &self.headers {
                let Some(parsed) = super::mcp_client::parse_header(header) else {
                    crate::style::eprint_error(
                        None,
                        &format!("--mcp-header `{header}`: expected `Name: value`"),
                    );
                    return Err(crate::EXIT_USAGE);
                };
                sources.headers.push(parsed);
            }
            sources.urls = self.urls.clone();
        }
        match sources.attach(deck) {
            Ok(_) => Ok(()),
            Err(err) => {
                crate::style::eprint_error(Some(err.code()), &err.to_string());
                Err(match err {
                    skilldeck::Error::InvalidOptions { .. } => crate::EXIT_USAGE,
                    _ => crate::EXIT_FAILURE,
                })
            }
        }
    }

    #[cfg(not(feature = "mcp"))]
    pub fn attach(&self, _deck: &skilldeck::Deck) -> Result<(), i32> {
        Ok(())
    }
}
