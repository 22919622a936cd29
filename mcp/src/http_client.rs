//! The HTTP backend of the client over MCP's streamable HTTP transport (cargo feature
//! `http-client`): rmcp runs the transport (sessions, SSE resumption, the lifecycle) and
//! calls this [`StreamableHttpClient`] for each HTTP exchange. One connection per request
//! over hyper's HTTP/1 client, TLS by rustls with the ring provider and Mozilla's roots
//! (webpki-roots), so no system certificate store and no aws-lc build. Response handling
//! follows rmcp's own backends (`common/unix_socket.rs`, `common/reqwest/`): the same
//! status mapping, body limits and `server/discover` fallback, since those are private to
//! rmcp and the transport relies on them.

use bytes::Bytes;
use futures::stream::{BoxStream, StreamExt as _, TryStreamExt as _};
use http::header::{HeaderName, HeaderValue, WWW_AUTHENTICATE};
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::common::http_header::{
    EVENT_STREAM_MIME_TYPE, HEADER_LAST_EVENT_ID, HEADER_MCP_PROTOCOL_VERSION, HEADER_SESSION_ID,
    JSON_MIME_TYPE,
};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Sse, SseStream};
use std::borrow::Cow;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// rmcp's default bound on one SSE event (its `DEFAULT_MAX_SSE_EVENT_SIZE`).
const DEFAULT_MAX_SSE_EVENT_SIZE: usize = 16 * 1024 * 1024;

/// Why one HTTP exchange failed.
#[derive(Debug, thiserror::Error)]
pub enum HttpClientError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("HTTP: {0}")]
    Hyper(#[from] hyper::Error),
    #[error("HTTP request: {0}")]
    Http(#[from] http::Error),
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("{url}: {reason}")]
    Url { url: String, reason: String },
    #[error("TLS: {0}")]
    Tls(rustls::Error),
    #[error("an SSE event grew past {max} bytes")]
    EventTooLarge { max: usize },
}

type Result<T> = std::result::Result<T, StreamableHttpError<HttpClientError>>;

/// A streamable-HTTP backend for rmcp: plain HTTP, or HTTPS verified against Mozilla's roots.
#[derive(Clone)]
pub struct HyperHttpClient {
    tls: Arc<rustls::ClientConfig>,
}

impl HyperHttpClient {
    /// A client trusting Mozilla's root certificates (no system store is read). For
    /// rmcp's `StreamableHttpClientTransport::with_client`; [`crate::McpSkillSource::connect_url`]
    /// uses it.
    pub fn new() -> std::result::Result<HyperHttpClient, HttpClientError> {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        // The provider is named explicitly rather than taken from a process-wide default,
        // which another crate in the same process may have installed differently.
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(HttpClientError::Tls)?
        .with_root_certificates(roots)
        .with_no_client_auth();
        Ok(HyperHttpClient { tls: Arc::new(tls) })
    }

    /// Open a connection to `uri`'s origin and send `request` (origin-form target) on it.
    async fn send(
        &self,
        uri: &str,
        builder: http::request::Builder,
        body: Bytes,
    ) -> std::result::Result<http::Response<Incoming>, HttpClientError> {
        let target = Target::parse(uri)?;
        let request = builder
            .uri(target.path.as_str())
            .header(http::header::HOST, target.host_header.as_str())
            .body(Full::new(body))?;
        let tcp = tokio::net::TcpStream::connect((target.host.as_str(), target.port)).await?;
        if target.tls {
            let name =
                rustls::pki_types::ServerName::try_from(target.host.clone()).map_err(|e| {
                    HttpClientError::Url {
                        url: uri.to_string(),
                        reason: format!("not a valid TLS server name: {e}"),
                    }
                })?;
            let stream = tokio_rustls::TlsConnector::from(self.tls.clone())
                .connect(name, tcp)
                .await?;
            exchange(TokioIo::new(stream), request).await
        } else {
            exchange(TokioIo::new(tcp), request).await
        }
    }
}

async fn exchange<T>(
    io: TokioIo<T>,
    request: Request<Full<Bytes>>,
) -> std::result::Result<http::Response<Incoming>, HttpClientError>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await?;
    // The connection task ends with the response body (or the server closing it).
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender.send_request(request).await?)
}

/// Where a request goes: scheme, host, port, the `Host` header and the origin-form target.
struct Target {
    tls: bool,
    host: String,
    port: u16,
    host_header: String,
    path: String,
}

impl Target {
    fn parse(url: &str) -> std::result::Result<Target, HttpClientError> {
        let bad = |reason: &str| HttpClientError::Url {
            url: url.to_string(),
            reason: reason.to_string(),
        };
        let uri: http::Uri = url
            .parse()
            .map_err(|e: http::uri::InvalidUri| bad(&e.to_string()))?;
        let tls = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(bad("only http:// and https:// URLs are supported")),
        };
        let authority = uri.authority().ok_or_else(|| bad("the URL has no host"))?;
        if authority.as_str().contains('@') {
            return Err(bad(
                "credentials in the URL are not sent; pass an Authorization header instead",
            ));
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = authority.port_u16().unwrap_or(if tls { 443 } else { 80 });
        let path = uri
            .path_and_query()
            .map_or_else(|| "/".to_string(), |p| p.as_str().to_string());
        Ok(Target {
            tls,
            host,
            port,
            host_header: authority.as_str().to_string(),
            path,
        })
    }
}

/// Headers the transport sets itself; a caller's copy would contradict it (rmcp's
/// `RESERVED_HEADERS`, `MCP-Protocol-Version` let through because the worker injects it).
fn apply_headers(
    mut builder: http::request::Builder,
    auth_token: Option<String>,
    custom: HashMap<HeaderName, HeaderValue>,
) -> Result<http::request::Builder> {
    if let Some(token) = auth_token {
        builder = builder.header(http::header::AUTHORIZATION, format!("Bearer {token}"));
    }
    for (name, value) in custom {
        let reserved = ["accept", HEADER_SESSION_ID, HEADER_LAST_EVENT_ID]
            .iter()
            .any(|r| name.as_str().eq_ignore_ascii_case(r));
        if reserved
            && !name
                .as_str()
                .eq_ignore_ascii_case(HEADER_MCP_PROTOCOL_VERSION)
        {
            return Err(StreamableHttpError::ReservedHeaderConflict(
                name.to_string(),
            ));
        }
        builder = builder.header(name, value);
    }
    Ok(builder)
}

/// The media type of a `Content-Type` value, parameters and case ignored (RFC 9110).
fn media_type_is(value: &HeaderValue, expected: &str) -> bool {
    value
        .as_bytes()
        .split(|b| *b == b';')
        .next()
        .and_then(|essence| std::str::from_utf8(essence).ok())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(expected))
}

/// A `WWW-Authenticate` challenge on 401/403 becomes rmcp's auth errors.
fn auth_error(response: &http::Response<Incoming>) -> Option<StreamableHttpError<HttpClientError>> {
    let status = response.status();
    if !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        return None;
    }
    let header = response.headers().get(WWW_AUTHENTICATE)?;
    let Ok(value) = header.to_str() else {
        return Some(StreamableHttpError::UnexpectedServerResponse(Cow::from(
            "invalid www-authenticate header value",
        )));
    };
    if status == StatusCode::UNAUTHORIZED {
        return Some(StreamableHttpError::AuthRequired(AuthRequiredError::new(
            value.to_string(),
        )));
    }
    Some(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
        format!("HTTP 403, insufficient scope: {value}"),
    )))
}

/// The whole body, refused past `max` bytes (counted as it arrives, not trusted from
/// `Content-Length`).
async fn read_bounded(response: http::Response<Incoming>, max: usize) -> Result<Vec<u8>> {
    let declared = response
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
    }
    let mut stream = response.into_body().into_data_stream();
    let mut body = Vec::new();
    while let Some(chunk) = stream
        .try_next()
        .await
        .map_err(|e| StreamableHttpError::Client(e.into()))?
    {
        if chunk.len() > max - body.len() {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// At most `max` bytes of a body, for a diagnostic.
async fn read_prefix(response: http::Response<Incoming>, max: usize) -> Vec<u8> {
    let mut stream = response.into_body().into_data_stream();
    let mut body = Vec::new();
    while body.len() < max {
        match stream.try_next().await {
            Ok(Some(chunk)) => {
                let n = chunk.len().min(max - body.len());
                body.extend_from_slice(&chunk[..n]);
            }
            _ => break,
        }
    }
    body
}

/// A sessionless `server/discover` rejected with a 4xx becomes a JSON-RPC error correlated
/// to the request, so the lifecycle falls back to `initialize` (rmcp's
/// `legacy_discover_response`).
fn discover_fallback(
    message: &ClientJsonRpcMessage,
    session_attached: bool,
    status: StatusCode,
    body: &str,
) -> Option<StreamableHttpPostResponse> {
    if session_attached
        || !status.is_client_error()
        || matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
    {
        return None;
    }
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    if !matches!(request.request, ClientRequest::DiscoverRequest(_)) {
        return None;
    }
    let error = match serde_json::from_str::<ServerJsonRpcMessage>(body) {
        Ok(ServerJsonRpcMessage::Error(error)) => error.error,
        _ => ErrorData::invalid_request(
            format!("server/discover rejected with HTTP {status}: {body}"),
            None,
        ),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

/// Refuses an SSE stream once one event (bytes between blank lines) passes `max` bytes, so
/// a server cannot make the client buffer without bound.
struct BoundedEvents<S> {
    inner: S,
    max: usize,
    since_boundary: usize,
    after_newline: bool,
    failed: bool,
}

impl<S> futures::Stream for BoundedEvents<S>
where
    S: futures::Stream<Item = std::result::Result<Bytes, hyper::Error>> + Unpin,
{
    type Item = std::result::Result<Bytes, HttpClientError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                for byte in chunk.iter() {
                    match byte {
                        b'\r' => continue,
                        b'\n' if self.after_newline => self.since_boundary = 0,
                        b'\n' => self.after_newline = true,
                        _ => self.after_newline = false,
                    }
                    self.since_boundary += 1;
                    if self.since_boundary > self.max {
                        self.failed = true;
                        let max = self.max;
                        return Poll::Ready(Some(Err(HttpClientError::EventTooLarge { max })));
                    }
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

fn sse_stream(
    response: http::Response<Incoming>,
    max: usize,
) -> BoxStream<'static, std::result::Result<Sse, sse_stream::Error>> {
    let bounded = BoundedEvents {
        inner: response.into_body().into_data_stream(),
        max,
        since_boundary: 0,
        after_newline: false,
        failed: false,
    };
    SseStream::from_bytes_stream(bounded).boxed()
}

fn header_str(response: &http::Response<Incoming>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

impl StreamableHttpClient for HyperHttpClient {
    type Error = HttpClientError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_token,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_token,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse> {
        let body =
            serde_json::to_vec(&message).map_err(|e| StreamableHttpError::Client(e.into()))?;
        let mut builder = Request::builder()
            .method(Method::POST)
            .header(http::header::CONTENT_TYPE, JSON_MIME_TYPE)
            .header(
                http::header::ACCEPT,
                format!("{EVENT_STREAM_MIME_TYPE}, {JSON_MIME_TYPE}"),
            );
        builder = apply_headers(builder, auth_token, custom_headers)?;
        let session_attached = session_id.is_some();
        if let Some(sid) = session_id {
            builder = builder.header(HEADER_SESSION_ID, sid.as_ref());
        }
        let response = self
            .send(&uri, builder, Bytes::from(body))
            .await
            .map_err(StreamableHttpError::Client)?;
        if let Some(err) = auth_error(&response) {
            return Err(err);
        }
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_attached {
            return Err(StreamableHttpError::SessionExpired);
        }
        let content_type = response.headers().get(http::header::CONTENT_TYPE).cloned();
        let new_session = header_str(&response, HEADER_SESSION_ID);
        let is_json = content_type
            .as_ref()
            .is_some_and(|ct| media_type_is(ct, JSON_MIME_TYPE));
        if !status.is_success() {
            let is_auth = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
            let body = if is_json && !is_auth {
                read_bounded(response, limits.max_json_response_size).await?
            } else {
                read_prefix(response, limits.max_error_response_size).await
            };
            let text = String::from_utf8_lossy(&body);
            if is_json && !is_auth {
                if let Ok(error @ ServerJsonRpcMessage::Error(_)) =
                    serde_json::from_str::<ServerJsonRpcMessage>(&text)
                {
                    if let Some(response) =
                        discover_fallback(&message, session_attached, status, &text)
                    {
                        return Ok(response);
                    }
                    return Ok(StreamableHttpPostResponse::Json(error, new_session));
                }
            }
            let end = text.len().min(limits.max_error_response_size);
            let text = text.get(..end).unwrap_or(&text);
            if let Some(response) = discover_fallback(&message, session_attached, status, text) {
                return Ok(response);
            }
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("HTTP {status}: {text}"),
            )));
        }
        let awaits_no_response = matches!(
            message,
            ClientJsonRpcMessage::Notification(_)
                | ClientJsonRpcMessage::Response(_)
                | ClientJsonRpcMessage::Error(_)
        );
        let empty =
            header_str(&response, http::header::CONTENT_LENGTH.as_str()).as_deref() == Some("0");
        if empty && awaits_no_response {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        match content_type {
            Some(ref ct) if media_type_is(ct, EVENT_STREAM_MIME_TYPE) => {
                Ok(StreamableHttpPostResponse::Sse(
                    sse_stream(response, limits.max_sse_event_size),
                    new_session,
                ))
            }
            Some(_) if is_json => {
                let body = read_bounded(response, limits.max_json_response_size).await?;
                match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                    Ok(parsed) => Ok(StreamableHttpPostResponse::Json(parsed, new_session)),
                    Err(_) if awaits_no_response => Ok(StreamableHttpPostResponse::Accepted),
                    Err(e) => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                        format!(
                            "not a JSON-RPC message ({e}): {}",
                            String::from_utf8_lossy(&body[..body.len().min(512)])
                        ),
                    ))),
                }
            }
            _ if awaits_no_response => Ok(StreamableHttpPostResponse::Accepted),
            _ => Err(StreamableHttpError::UnexpectedContentType(
                content_type.map(|ct| String::from_utf8_lossy(ct.as_bytes()).into_owned()),
            )),
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<()> {
        let builder = Request::builder()
            .method(Method::DELETE)
            .header(HEADER_SESSION_ID, session_id.as_ref());
        let builder = apply_headers(builder, auth_token, custom_headers)?;
        let response = self
            .send(&uri, builder, Bytes::new())
            .await
            .map_err(StreamableHttpError::Client)?;
        let status = response.status();
        if status == StatusCode::METHOD_NOT_ALLOWED || status.is_success() {
            return Ok(());
        }
        Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
            format!("delete_session returned {status}"),
        )))
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, std::result::Result<Sse, sse_stream::Error>>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_token,
            custom_headers,
            DEFAULT_MAX_SSE_EVENT_SIZE,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, std::result::Result<Sse, sse_stream::Error>>> {
        let mut builder = Request::builder().method(Method::GET).header(
            http::header::ACCEPT,
            format!("{EVENT_STREAM_MIME_TYPE}, {JSON_MIME_TYPE}"),
        );
        if let Some(sid) = session_id {
            builder = builder.header(HEADER_SESSION_ID, sid.as_ref());
        }
        if let Some(id) = last_event_id {
            builder = builder.header(HEADER_LAST_EVENT_ID, id);
        }
        let builder = apply_headers(builder, auth_token, custom_headers)?;
        let response = self
            .send(&uri, builder, Bytes::new())
            .await
            .map_err(StreamableHttpError::Client)?;
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        if let Some(err) = auth_error(&response) {
            return Err(err);
        }
        if !response.status().is_success() {
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("get_stream returned {}", response.status()),
            )));
        }
        match response.headers().get(http::header::CONTENT_TYPE) {
            Some(ct)
                if media_type_is(ct, EVENT_STREAM_MIME_TYPE)
                    || media_type_is(ct, JSON_MIME_TYPE) => {}
            other => {
                return Err(StreamableHttpError::UnexpectedContentType(
                    other.map(|ct| String::from_utf8_lossy(ct.as_bytes()).into_owned()),
                ))
            }
        }
        Ok(sse_stream(response, max_sse_event_size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_origin_form_with_the_authority_as_host() {
        let t = Target::parse("http://127.0.0.1:8123/mcp?x=1").unwrap();
        assert!(!t.tls);
        assert_eq!((t.host.as_str(), t.port), ("127.0.0.1", 8123));
        assert_eq!(t.host_header, "127.0.0.1:8123");
        assert_eq!(t.path, "/mcp?x=1");
        let t = Target::parse("https://[::1]/").unwrap();
        assert!(t.tls);
        assert_eq!((t.host.as_str(), t.port), ("::1", 443));
    }

    #[test]
    fn refuses_other_schemes_and_userinfo() {
        for url in ["ftp://h/mcp", "h:80/mcp", "http://user:pw@h/mcp"] {
            assert!(
                matches!(Target::parse(url), Err(HttpClientError::Url { .. })),
                "{url}"
            );
        }
    }

    #[test]
    fn reserved_headers_are_refused_but_protocol_version_passes() {
        let mut headers = HashMap::new();
        headers.insert(
            HeaderName::from_static("mcp-session-id"),
            HeaderValue::from_static("x"),
        );
        assert!(matches!(
            apply_headers(Request::builder(), None, headers),
            Err(StreamableHttpError::ReservedHeaderConflict(_))
        ));
        let mut headers = HashMap::new();
        headers.insert(
            HeaderName::from_static("mcp-protocol-version"),
            HeaderValue::from_static("2025-11-25"),
        );
        assert!(apply_headers(Request::builder(), None, headers).is_ok());
    }

    #[test]
    fn media_types_ignore_case_and_parameters() {
        let v = HeaderValue::from_static("Application/JSON; charset=utf-8");
        assert!(media_type_is(&v, JSON_MIME_TYPE));
        assert!(!media_type_is(&v, EVENT_STREAM_MIME_TYPE));
    }

    #[tokio::test]
    async fn an_oversized_sse_event_ends_the_stream() {
        let chunks: Vec<std::result::Result<Bytes, hyper::Error>> = vec![
            Ok(Bytes::from_static(b"data: a\n\n")),
            Ok(Bytes::from_static(b"data: 0123456789\n\n")),
        ];
        let mut bounded = BoundedEvents {
            inner: futures::stream::iter(chunks),
            max: 12,
            since_boundary: 0,
            after_newline: false,
            failed: false,
        };
        assert!(matches!(bounded.next().await, Some(Ok(_))));
        assert!(matches!(
            bounded.next().await,
            Some(Err(HttpClientError::EventTooLarge { max: 12 }))
        ));
        assert!(bounded.next().await.is_none());
    }
}
