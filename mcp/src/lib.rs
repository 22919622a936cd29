//! # skilldeck-mcp
//!
//! Agent Skills over the Model Context Protocol with the Skills extension
//! (`io.modelcontextprotocol/skills`, SEP-2640), on the `rmcp` SDK:
//!
//! - [`SkillServer`]: serves a [`skilldeck::Deck`]'s skills (`skills/list`, `skills/get`,
//!   `resources/read`, `resources/directory/read`), plus tools and prompts for clients
//!   without the extension; [`serve_stdio`] runs it.
//! - [`McpSkillSource`]: an MCP server as a skill source, verifying every file it reads
//!   against the server's manifest and caching verified content outside every discovery path.
//! - [`McpDeckSource`]: that source as a deck root ([`skilldeck::Deck::add_remote_source`]).

mod attach;
mod catalog;
mod child;
mod client;
mod command_line;
mod deck_source;
mod directory;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http-client")]
mod http_client;
mod list_changed;
mod server;
pub mod uri;

pub use attach::{default_cache, McpSources};
pub use child::MAX_MESSAGE_BYTES;
pub use client::{
    collisions, ClientError, Collision, McpSkillSource, RemoteFile, RemoteSkill, VerifiedSkill,
    REQUEST_TIMEOUT,
};
pub use command_line::CommandLineError;
pub use deck_source::{McpDeckSource, ServerSpec};
pub use directory::SkillFileRef;
#[cfg(feature = "http")]
pub use http::{serve_http, HttpServerHandle};
#[cfg(feature = "http-client")]
pub use http_client::{HttpClientError, HyperHttpClient};
pub use list_changed::ListChanged;
pub use server::{mime_type, ScriptRunner, ServerOptions, SkillServer};

/// [`serve_stdio`] on a runtime of its own, blocking the calling thread until the client
/// disconnects (for hosts without an async runtime: the bindings).
pub fn serve_stdio_blocking(server: SkillServer) -> Result<(), std::io::Error> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(serve_stdio(server))
}

/// Serve `server` over stdin/stdout until the client disconnects.
pub async fn serve_stdio(server: SkillServer) -> Result<(), std::io::Error> {
    use rmcp::ServiceExt as _;
    tokio::spawn(server.clone().push_notifications());
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
