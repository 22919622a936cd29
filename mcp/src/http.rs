//! `skilldeck mcp --http ADDR`: the same server over MCP's streamable HTTP transport
//! (cargo feature `http`). rmcp provides the transport as a tower service; hyper serves
//! it, one task per connection. Only loopback `Host` headers are accepted unless the
//! caller lists other hosts, which blocks DNS-rebinding attacks on a local server.

use crate::SkillServer;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// Serve `server` at `http://ADDR/mcp` until the process ends. `allowed_hosts` extends
/// the loopback names accepted in the `Host` header (for a server reached by name).
pub async fn serve_http(
    server: SkillServer,
    addr: SocketAddr,
    allowed_hosts: &[String],
    ready: impl FnOnce(SocketAddr),
) -> Result<(), std::io::Error> {
    tokio::spawn(server.clone().push_notifications());
    let mut config = StreamableHttpServerConfig::default();
    if !allowed_hosts.is_empty() {
        let mut hosts = config.allowed_hosts.clone();
        hosts.extend(allowed_hosts.iter().cloned());
        config = config.with_allowed_hosts(hosts);
    }
    let factory = move || Ok(server.clone());
    let service =
        StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            // A client that drops its connection ends only its own task.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

/// A server over streamable HTTP on a thread of its own, for hosts that embed it (the
/// bindings): started with [`HttpServerHandle::start`], stopped by [`close`] or on drop.
///
/// [`close`]: HttpServerHandle::close
pub struct HttpServerHandle {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HttpServerHandle {
    /// Bind `addr` (port 0: any free port) and serve `server` at `http://ADDR/mcp` until
    /// closed. Fails when the address cannot be bound.
    pub fn start(
        server: SkillServer,
        addr: SocketAddr,
        allowed_hosts: Vec<String>,
    ) -> Result<HttpServerHandle, std::io::Error> {
        let (bound_tx, bound_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("skilldeck-mcp-http".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(err) => {
                        let _ = bound_tx.send(Err(err));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let ready = bound_tx.clone();
                    let serving = serve_http(server, addr, &allowed_hosts, move |bound| {
                        let _ = ready.send(Ok(bound));
                    });
                    tokio::select! {
                        served = serving => {
                            if let Err(err) = served {
                                let _ = bound_tx.send(Err(err));
                            }
                        }
                        _ = stopped => {}
                    }
                });
            })?;
        match bound_rx.recv() {
            Ok(Ok(bound)) => Ok(HttpServerHandle {
                url: format!("http://{bound}/mcp"),
                stop: Some(stop),
                thread: Some(thread),
            }),
            Ok(Err(err)) => {
                let _ = thread.join();
                Err(err)
            }
            Err(_) => {
                let _ = thread.join();
                Err(std::io::Error::other(
                    "the HTTP server thread ended before binding",
                ))
            }
        }
    }

    /// `http://HOST:PORT/mcp`, with the port actually bound.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stop serving and wait for the server's thread; open sessions end. Idempotent.
    pub fn close(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for HttpServerHandle {
    fn drop(&mut self) {
        self.close();
    }
}
