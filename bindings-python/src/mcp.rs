//! MCP (skilldeck-mcp): MCP servers as a deck's skill sources, and a deck served over MCP
//! (stdio, or streamable HTTP with a handle). Every call that waits on a server releases
//! the GIL; the HTTP server runs on a thread of its own.

use crate::deck::PyDeck;
use crate::errors::{detached, to_pyerr};
use pyo3::prelude::*;
use std::path::PathBuf;

/// Connect `deck` to MCP servers whose skills then join it, like the CLI's `--mcp-server`,
/// `--mcp-url`, `--mcp-header` and `--mcp-cache`. Call before the deck's first load.
/// Returns the labels used (ids of their skills are `label:path`).
#[pyfunction]
#[pyo3(signature = (deck, servers=Vec::new(), urls=Vec::new(), headers=Vec::new(), cache=None))]
fn attach_mcp(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    servers: Vec<String>,
    urls: Vec<String>,
    headers: Vec<(String, String)>,
    cache: Option<PathBuf>,
) -> PyResult<Vec<String>> {
    let deck = deck.inner.clone();
    let sources = skilldeck_mcp::McpSources {
        servers,
        urls,
        headers,
        cache,
    };
    detached(py, move || sources.attach(&deck))
}

fn server(
    deck: skilldeck::Deck,
    page_size: usize,
    ttl_ms: u64,
) -> skilldeck::Result<skilldeck_mcp::SkillServer> {
    let server = skilldeck_mcp::SkillServer::new(
        deck,
        skilldeck_mcp::ServerOptions {
            page_size,
            ttl_ms,
            script_runner: None,
        },
    )?;
    server.follow_deck_changes();
    Ok(server)
}

/// Serve `deck` over MCP on this process's stdin/stdout until the client disconnects
/// (blocks; the GIL is released).
#[pyfunction]
#[pyo3(signature = (deck, page_size=50, ttl_ms=60_000))]
fn serve_mcp(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    page_size: usize,
    ttl_ms: u64,
) -> PyResult<()> {
    let deck = deck.inner.clone();
    detached(py, move || {
        let server = server(deck, page_size, ttl_ms)?;
        skilldeck_mcp::serve_stdio_blocking(server).map_err(|e| skilldeck::Error::io("<stdio>", e))
    })
}

/// A deck served over MCP's streamable HTTP transport; `url` is where (`http://…/mcp`).
#[pyclass(name = "McpHttpServer", module = "skilldeck")]
pub struct PyMcpHttpServer {
    handle: Option<skilldeck_mcp::HttpServerHandle>,
    url: String,
}

#[pymethods]
impl PyMcpHttpServer {
    /// `http://HOST:PORT/mcp`, with the port actually bound.
    #[getter]
    fn url(&self) -> &str {
        &self.url
    }

    /// Stop serving (open sessions end). Idempotent.
    fn close(&mut self, py: Python<'_>) {
        if let Some(mut handle) = self.handle.take() {
            py.detach(move || handle.close());
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        py: Python<'_>,
        kind: Option<Bound<'_, PyAny>>,
        value: Option<Bound<'_, PyAny>>,
        traceback: Option<Bound<'_, PyAny>>,
    ) {
        // An exception inside the `with` block still closes the server and propagates.
        let _ = (kind, value, traceback);
        self.close(py);
    }

    fn __repr__(&self) -> String {
        format!(
            "McpHttpServer(url={:?}, open={})",
            self.url,
            self.handle.is_some()
        )
    }
}

/// Serve `deck` over MCP's streamable HTTP transport at `addr` (`HOST:PORT`, port 0 for
/// any free one) on a thread of its own; returns the running server (`url`, `close()`,
/// usable as a context manager). `allowed_hosts` extends the loopback names accepted in
/// the `Host` header.
#[pyfunction]
#[pyo3(signature = (deck, addr="127.0.0.1:0", page_size=50, ttl_ms=60_000, allowed_hosts=Vec::new()))]
fn serve_mcp_http(
    py: Python<'_>,
    deck: PyRef<'_, PyDeck>,
    addr: &str,
    page_size: usize,
    ttl_ms: u64,
    allowed_hosts: Vec<String>,
) -> PyResult<PyMcpHttpServer> {
    let deck = deck.inner.clone();
    let parsed: std::net::SocketAddr = addr.parse().map_err(|e| {
        to_pyerr(skilldeck::Error::invalid_options(format!(
            "addr `{addr}`: {e}; expected HOST:PORT such as 127.0.0.1:0"
        )))
    })?;
    let handle = detached(py, move || {
        let server = server(deck, page_size, ttl_ms)?;
        skilldeck_mcp::HttpServerHandle::start(server, parsed, allowed_hosts)
            .map_err(|e| skilldeck::Error::io(parsed.to_string(), e))
    })?;
    Ok(PyMcpHttpServer {
        url: handle.url().to_string(),
        handle: Some(handle),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMcpHttpServer>()?;
    m.add_function(wrap_pyfunction!(attach_mcp, m)?)?;
    m.add_function(wrap_pyfunction!(serve_mcp, m)?)?;
    m.add_function(wrap_pyfunction!(serve_mcp_http, m)?)?;
    Ok(())
}
