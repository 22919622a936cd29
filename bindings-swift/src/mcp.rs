//! MCP (skilldeck-mcp): MCP servers as a deck's skill sources (`attachMcp`), and a deck
//! served over MCP: streamable HTTP on a thread of its own (`serveMcpHttp`, an
//! `McpHttpServer`) or stdio (`serveMcp`, blocking). The same operations as Python's and
//! Node's; every behaviour is the crate's (`McpSources::attach`, `HttpServerHandle`,
//! `serve_stdio_blocking`).
//!
//! Calls block the calling thread like the rest of this binding (run them off the UI
//! thread). `serveMcp` is for a JVM or macOS command-line process that another program
//! starts as its MCP server; an app has no stdio to serve on and uses `serveMcpHttp`.
//!
//! Stopping the HTTP server is `stop()`, not `close()`: uniffi's Kotlin objects are
//! `AutoCloseable` and already have a `close()` (it frees the object, which also stops the
//! server, so `use { }` works); a second `close` would not compile.

use crate::deck::Deck;
use crate::error::SkillError;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Connect `deck` to MCP servers whose skills then join it (ids `label:path`, fetched and
/// verified on activation), like the CLI's `--mcp-server` (`servers`: `[LABEL=]COMMAND
/// ARGS…`, split like a POSIX shell line), `--mcp-url` (`urls`: `[LABEL=]URL`),
/// `--mcp-header` (`headers`, sent to every `urls` server) and `--mcp-cache` (`cache`,
/// default `$XDG_CACHE_HOME/skilldeck/mcp`, refused inside a skill discovery path). Call
/// before the deck's first load. Returns the labels used. Throws `InvalidOptionsError` on a
/// bad value and `RemoteError` (`REMOTE_UNAVAILABLE`, ...) when a server cannot be reached
/// or serves no skills; no later server is connected then.
#[uniffi::export(default(servers = [], urls = [], cache = None), default(headers))]
pub fn attach_mcp(
    deck: Arc<Deck>,
    servers: Vec<String>,
    urls: Vec<String>,
    headers: HashMap<String, String>,
    cache: Option<String>,
) -> Result<Vec<String>, SkillError> {
    let mut headers: Vec<(String, String)> = headers.into_iter().collect();
    // The map's order is random: sorted, requests are the same from run to run.
    headers.sort();
    let sources = skilldeck_mcp::McpSources {
        servers,
        urls,
        headers,
        cache: cache.map(PathBuf::from),
    };
    Ok(sources.attach(&deck.inner)?)
}

/// The server over `deck`, pushing `list_changed` when the deck reloads to a different
/// catalog (as the CLI's and the other bindings').
fn server(
    deck: &Deck,
    page_size: u32,
    ttl_ms: u64,
) -> Result<skilldeck_mcp::SkillServer, SkillError> {
    let server = skilldeck_mcp::SkillServer::new(
        deck.inner.clone(),
        skilldeck_mcp::ServerOptions {
            page_size: page_size as usize,
            ttl_ms,
            script_runner: None,
        },
    )?;
    server.follow_deck_changes();
    Ok(server)
}

/// Serve `deck` over MCP on this process's stdin/stdout until the client disconnects,
/// blocking the calling thread. Nothing else may write to stdout meanwhile (it carries the
/// protocol).
#[uniffi::export(default(page_size = 50, ttl_ms = 60000))]
pub fn serve_mcp(deck: Arc<Deck>, page_size: u32, ttl_ms: u64) -> Result<(), SkillError> {
    let server = server(&deck, page_size, ttl_ms)?;
    skilldeck_mcp::serve_stdio_blocking(server)
        .map_err(|e| skilldeck::Error::io("<stdio>", e).into())
}

/// A deck served over MCP's streamable HTTP transport (`serveMcpHttp`), on a thread of its
/// own until `stop()` or until the object is released (Kotlin `close()` / `use { }`).
#[derive(uniffi::Object)]
pub struct McpHttpServer {
    url: String,
    handle: Mutex<Option<skilldeck_mcp::HttpServerHandle>>,
}

#[uniffi::export]
impl McpHttpServer {
    /// `http://HOST:PORT/mcp`, with the port actually bound.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Whether the server still serves (`stop()` not called yet).
    pub fn is_open(&self) -> bool {
        self.lock().is_some()
    }

    /// Stop serving and wait for the server's thread (open sessions end). Idempotent.
    pub fn stop(&self) {
        // Taken out first: closing waits for the thread, which must not hold the lock.
        let handle = self.lock().take();
        if let Some(mut handle) = handle {
            handle.close();
        }
    }
}

impl McpHttpServer {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<skilldeck_mcp::HttpServerHandle>> {
        // A panic while the lock was held cannot leave the handle half-changed.
        self.handle.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Serve `deck` over MCP's streamable HTTP transport at `addr` (`HOST:PORT`; the default
/// `127.0.0.1:0` is loopback, any free port) on a thread of its own; returns once the
/// address is bound and the deck loaded. `allowedHosts` extends the loopback names accepted
/// in the `Host` header. Throws `InvalidOptionsError` on a bad address and `IoError` when it
/// cannot be bound.
#[uniffi::export(default(
    addr = "127.0.0.1:0",
    page_size = 50,
    ttl_ms = 60000,
    allowed_hosts = []
))]
pub fn serve_mcp_http(
    deck: Arc<Deck>,
    addr: String,
    page_size: u32,
    ttl_ms: u64,
    allowed_hosts: Vec<String>,
) -> Result<Arc<McpHttpServer>, SkillError> {
    let parsed: std::net::SocketAddr = addr.parse().map_err(|e| {
        SkillError::invalid_options(format!(
            "addr `{addr}`: {e}; expected HOST:PORT such as 127.0.0.1:0"
        ))
    })?;
    let server = server(&deck, page_size, ttl_ms)?;
    let handle = skilldeck_mcp::HttpServerHandle::start(server, parsed, allowed_hosts)
        .map_err(|e| skilldeck::Error::io(parsed.to_string(), e))?;
    Ok(Arc::new(McpHttpServer {
        url: handle.url().to_string(),
        handle: Mutex::new(Some(handle)),
    }))
}
