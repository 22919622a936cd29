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
