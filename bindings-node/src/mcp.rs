//! MCP (skilldeck-mcp): MCP servers as a deck's skill sources (`attachMcp`), and a deck
//! served over MCP, on stdio (`serveMcp`) or streamable HTTP (`serveMcpHttp`, an
//! `McpHttpServer` handle). The same operations as Python's `attach_mcp`, `serve_mcp` and
//! `serve_mcp_http`; every behaviour is the crate's (`McpSources::attach`,
//! `serve_stdio_blocking`, `HttpServerHandle`).
//!
//! Threads: connecting and the HTTP server's start (which loads the deck) are `AsyncTask`s on
//! the libuv pool; serving stdio lasts as long as the client stays, so it gets a thread of
//! its own (it must not hold one of the four pool threads `fs` and `dns` share) and settles
//! its Promise from there. The HTTP server runs on the crate's own thread.

use crate::deck::Deck;
use crate::error::check;
use crate::options::strict;
use crate::task::CoreTask;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use skilldeck::catch_panic;
use std::collections::HashMap;
use std::path::PathBuf;

/// The MCP servers whose skills join a deck: the CLI's `--mcp-server`, `--mcp-url`,
/// `--mcp-header` and `--mcp-cache`.
#[napi(object)]
#[derive(Default)]
pub struct McpSourcesOptions {
    /// `[LABEL=]COMMAND ARGS…` of servers started as child processes (stdio), split like a
    /// POSIX shell line (quotes, escapes; nothing expanded).
    pub servers: Option<Vec<String>>,
    /// `[LABEL=]URL` of servers over streamable HTTP (`http://` or `https://`).
    pub urls: Option<Vec<String>>,
    /// Headers sent to every `urls` server (e.g. `{ Authorization: 'Bearer …' }`).
    pub headers: Option<HashMap<String, String>>,
    /// Cache for verified content; default `$XDG_CACHE_HOME/skilldeck/mcp` or
    /// `~/.cache/skilldeck/mcp`. Refused (`INVALID_OPTIONS`) inside a skill discovery path.
    pub cache: Option<String>,
}

const SOURCES_KEYS: &[&str] = &["servers", "urls", "headers", "cache"];

impl McpSourcesOptions {
    fn into_core(self) -> skilldeck_mcp::McpSources {
        let mut headers: Vec<(String, String)> =
            self.headers.unwrap_or_default().into_iter().collect();
        // A JS object's keys come out of a HashMap here: sort them so requests are the same
        // from run to run.
        headers.sort();
        skilldeck_mcp::McpSources {
            servers: self.servers.unwrap_or_default(),
            urls: self.urls.unwrap_or_default(),
            headers,
            cache: self.cache.map(PathBuf::from),
        }
    }
}

/// How a deck is served over MCP.
#[napi(object)]
#[derive(Default)]
pub struct McpServeOptions {
    /// Skills per `skills/list` page (default 50, at least 1).
    pub page_size: Option<u32>,
    /// `ttlMs` on cacheable results: how long a client may treat a listing as fresh
    /// (default 60000).
    pub ttl_ms: Option<u32>,
}

const SERVE_KEYS: &[&str] = &["pageSize", "ttlMs"];

/// How a deck is served over MCP's streamable HTTP transport.
#[napi(object)]
#[derive(Default)]
pub struct McpHttpOptions {
    /// `HOST:PORT` to bind (default `127.0.0.1:0`: loopback, any free port).
    pub addr: Option<String>,
    /// Skills per `skills/list` page (default 50, at least 1).
    pub page_size: Option<u32>,
    /// `ttlMs` on cacheable results (default 60000).
    pub ttl_ms: Option<u32>,
    /// Names accepted in the `Host` header besides the loopback ones (for a server reached
    /// by name; the default refuses them, which blocks DNS rebinding).
    pub allowed_hosts: Option<Vec<String>>,
}

const HTTP_KEYS: &[&str] = &["addr", "pageSize", "ttlMs", "allowedHosts"];

/// `options` read strictly (unknown keys and wrong types are `INVALID_OPTIONS`), or the
/// defaults.
fn read<T: FromNapiValue + Default>(
    what: &str,
    known: &[&str],
    options: Option<Object>,
) -> skilldeck::Result<T> {
    options.map_or_else(|| Ok(T::default()), |o| strict(what, known, o))
}

/// The server over `deck`, pushing `list_changed` when the deck reloads to a different
/// catalog (as the CLI's and Python's).
fn server(
    deck: skilldeck::Deck,
    page_size: Option<u32>,
    ttl_ms: Option<u32>,
) -> skilldeck::Result<skilldeck_mcp::SkillServer> {
    let server = skilldeck_mcp::SkillServer::new(
        deck,
        skilldeck_mcp::ServerOptions {
            page_size: page_size.map_or(50, |n| n as usize),
            ttl_ms: ttl_ms.map_or(60_000, u64::from),
            script_runner: None,
        },
    )?;
    server.follow_deck_changes();
    Ok(server)
}

fn attach(
    deck: &skilldeck::Deck,
    options: skilldeck::Result<McpSourcesOptions>,
) -> skilldeck::Result<Vec<String>> {
    options?.into_core().attach(deck)
}

/// Connect `deck` to MCP servers whose skills then join it (ids `label:path`, fetched and
/// verified on activation), on the libuv pool; resolves to the labels used. Call before the
/// deck's first load. Rejects with `INVALID_OPTIONS` on a bad option or a command line that
/// does not split, and with a `REMOTE_*` code (`REMOTE_UNAVAILABLE`, ...) when a server
/// cannot be reached or serves no skills; no later server is connected then.
#[napi(
    ts_args_type = "deck: Deck, options: McpSourcesOptions",
    ts_return_type = "Promise<string[]>"
)]
pub fn attach_mcp(
    deck: &Deck,
    options: Option<Object>,
) -> AsyncTask<CoreTask<Vec<String>, Vec<String>>> {
    let options = read("attachMcp options", SOURCES_KEYS, options);
    let deck = deck.inner.clone();
    CoreTask::spawn(move || attach(&deck, options), std::convert::identity)
}

/// `attachMcp()` on the calling thread.
#[napi(ts_args_type = "deck: Deck, options: McpSourcesOptions")]
pub fn attach_mcp_sync(env: Env, deck: &Deck, options: Option<Object>) -> Result<Vec<String>> {
    let options = read("attachMcpSync options", SOURCES_KEYS, options);
    check(&env, catch_panic(|| attach(&deck.inner, options)))
}

/// Serve `deck` over MCP on this process's stdin/stdout until the client disconnects, on a
/// thread of its own; the Promise resolves then. Nothing else may write to stdout meanwhile
/// (it carries the protocol): log to stderr.
#[napi(
    ts_args_type = "deck: Deck, options?: McpServeOptions | undefined | null",
    ts_return_type = "Promise<void>"
)]
pub fn serve_mcp<'env>(
    env: &'env Env,
    deck: &Deck,
    options: Option<Object>,
) -> Result<Object<'env>> {
    let options: skilldeck::Result<McpServeOptions> = read("serveMcp options", SERVE_KEYS, options);
    let deck = deck.inner.clone();
    let (deferred, promise) = env.create_deferred()?;
    let work = move || {
        let options = options?;
        let server = server(deck, options.page_size, options.ttl_ms)?;
        skilldeck_mcp::serve_stdio_blocking(server).map_err(|e| skilldeck::Error::io("<stdio>", e))
    };
    let spawned = std::thread::Builder::new()
        .name("skilldeck-mcp-stdio".into())
        .spawn(move || {
            let served = catch_panic(work);
            // The JS error (code, path) can only be built on the JS thread.
            deferred.resolve(move |env| check(&env, served));
        });
    match spawned {
        Ok(_) => Ok(promise),
        Err(e) => Err(crate::error::to_js(
            env,
            &skilldeck::Error::Internal {
                message: format!("cannot start the MCP stdio thread: {e}"),
            },
        )),
    }
}

/// A deck served over MCP's streamable HTTP transport (`serveMcpHttp()`), on a thread of its
/// own until `close()`.
#[napi]
pub struct McpHttpServer {
    handle: Option<skilldeck_mcp::HttpServerHandle>,
    url: String,
}

#[napi]
impl McpHttpServer {
    /// `http://HOST:PORT/mcp`, with the port actually bound.
    #[napi(getter)]
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Whether the server still serves (`close()` not called yet).
    #[napi(getter)]
    pub fn open(&self) -> bool {
        self.handle.is_some()
    }

    /// Stop serving and wait for the server's thread (open sessions end). Idempotent.
    #[napi]
    pub fn close(&mut self) {
        if let Some(mut handle) = self.handle.take() {
            handle.close();
        }
    }
}

fn http_server(handle: skilldeck_mcp::HttpServerHandle) -> McpHttpServer {
    McpHttpServer {
        url: handle.url().to_string(),
        handle: Some(handle),
    }
}

fn start_http(
    deck: skilldeck::Deck,
    options: skilldeck::Result<McpHttpOptions>,
) -> skilldeck::Result<skilldeck_mcp::HttpServerHandle> {
    let options = options?;
    let addr = options.addr.as_deref().unwrap_or("127.0.0.1:0");
    let parsed: std::net::SocketAddr = addr.parse().map_err(|e| {
        skilldeck::Error::invalid_options(format!(
            "addr `{addr}`: {e}; expected HOST:PORT such as 127.0.0.1:0"
        ))
    })?;
    let server = server(deck, options.page_size, options.ttl_ms)?;
    skilldeck_mcp::HttpServerHandle::start(
        server,
        parsed,
        options.allowed_hosts.unwrap_or_default(),
    )
    .map_err(|e| skilldeck::Error::io(parsed.to_string(), e))
}

/// Serve `deck` over MCP's streamable HTTP transport at `options.addr` (default
/// `127.0.0.1:0`, any free port) on a thread of its own; resolves to the running server
/// (`url`, `close()`) once the address is bound and the deck loaded. Rejects with
/// `INVALID_OPTIONS` on a bad address or option and `IO_ERROR` when it cannot be bound.
#[napi(
    ts_args_type = "deck: Deck, options?: McpHttpOptions | undefined | null",
    ts_return_type = "Promise<McpHttpServer>"
)]
pub fn serve_mcp_http(
    deck: &Deck,
    options: Option<Object>,
) -> AsyncTask<CoreTask<skilldeck_mcp::HttpServerHandle, McpHttpServer>> {
    let options = read("serveMcpHttp options", HTTP_KEYS, options);
    let deck = deck.inner.clone();
    CoreTask::spawn(move || start_http(deck, options), http_server)
}

/// `serveMcpHttp()` on the calling thread.
#[napi(ts_args_type = "deck: Deck, options?: McpHttpOptions | undefined | null")]
pub fn serve_mcp_http_sync(
    env: Env,
    deck: &Deck,
    options: Option<Object>,
) -> Result<McpHttpServer> {
    let options = read("serveMcpHttpSync options", HTTP_KEYS, options);
    let deck = deck.inner.clone();
    check(&env, catch_panic(|| start_http(deck, options))).map(http_server)
}
