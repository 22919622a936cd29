//! A server started as a child process, spoken to over its stdin/stdout, with every message
//! it sends bounded by [`MAX_MESSAGE_BYTES`].
//!
//! rmcp's `TokioChildProcess` reads lines of at most 16 MiB and silently drops a longer one,
//! which breaks skills twice: a file the Skills extension allows (up to 16 MiB) travels as
//! base64 or JSON-escaped text, so a 12 MiB binary file is a 16.7 MiB line that never
//! arrives; and a dropped answer leaves its request waiting for the whole request timeout
//! before failing with "no answer". Here the bound fits any allowed file, and a server that
//! passes it has the connection closed at once, with the reason kept for the error.

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::RoleClient;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// The largest message accepted from a server: one file at the extension's 16 MiB limit
/// as JSON-escaped text or base64 (4/3 of its size), up to twice its size, plus 1 MiB for
/// the JSON-RPC envelope. Also the streamable-HTTP client's bound on a response or an SSE
/// event.
pub const MAX_MESSAGE_BYTES: usize = 2 * skilldeck::MAX_SKILL_BYTES as usize + (1 << 20);

/// How long a server may take to exit once its stdin is closed before it is killed (rmcp's
/// own grace period).
const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Set when the server sent a message over the bound (the connection then ends).
#[derive(Clone, Default, Debug)]
pub(crate) struct Oversized(Arc<AtomicBool>);

impl Oversized {
    pub(crate) fn happened(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The child's stdout, failing with an I/O error once a line passes `max` bytes, so the
/// transport ends instead of buffering or skipping it.
struct BoundedLines<R> {
    inner: R,
    max: usize,
    /// Bytes since the last newline.
    line: usize,
    oversized: Oversized,
}

impl<R: AsyncRead + Unpin> AsyncRead for BoundedLines<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.oversized.happened() {
            return Poll::Ready(Err(too_large(self.max)));
        }
        let before = buf.filled().len();
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                for &byte in &buf.filled()[before..] {
                    if byte == b'\n' {
                        this.line = 0;
                    } else {
                        this.line += 1;
                        if this.line > this.max {
                            this.oversized.0.store(true, Ordering::Release);
                            // A read that fails hands out nothing (tokio's contract).
                            buf.set_filled(before);
                            return Poll::Ready(Err(too_large(this.max)));
                        }
                    }
                }
                Poll::Ready(Ok(()))
            }
            other => other,
        }
    }
}

fn too_large(max: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("the server sent a message of more than {max} bytes"),
    )
}

/// The transport to a spawned server; the child is killed when this is dropped.
pub(crate) struct ChildTransport {
    child: Child,
    inner: AsyncRwTransport<RoleClient, BoundedLines<ChildStdout>, ChildStdin>,
}

impl ChildTransport {
    /// Start `command` with piped stdin/stdout (stderr inherited, as rmcp does) and bound
    /// what it sends to `max` bytes a message.
    pub(crate) fn spawn(
        mut command: tokio::process::Command,
        max: usize,
    ) -> std::io::Result<(ChildTransport, Oversized)> {
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(std::io::Error::other("the child's stdio was not piped"));
        };
        let oversized = Oversized::default();
        let read = BoundedLines {
            inner: stdout,
            max,
            line: 0,
            oversized: oversized.clone(),
        };
        // Ours is the bound: rmcp's own (which drops a long line and goes on) stays above it.
        let inner = AsyncRwTransport::new_client(read, stdin).with_max_line_length(max + 2);
        Ok((ChildTransport { child, inner }, oversized))
    }
}

impl Transport<RoleClient> for ChildTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    /// MCP's stdio shutdown: close the server's stdin, give it time to exit, then kill it.
    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await?;
        if tokio::time::timeout(EXIT_GRACE, self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt as _;

    #[tokio::test]
    async fn a_line_over_the_bound_fails_the_read_and_is_remembered() {
        let data: &[u8] = b"12345\n123456789\n";
        let oversized = Oversized::default();
        let mut reader = BoundedLines {
            inner: data,
            max: 6,
            line: 0,
            oversized: oversized.clone(),
        };
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).await.expect_err("too long");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(oversized.happened());
        let mut fine = BoundedLines {
            inner: b"123456\n123456\n" as &[u8],
            max: 6,
            line: 0,
            oversized: Oversized::default(),
        };
        let mut out = Vec::new();
        fine.read_to_end(&mut out)
            .await
            .expect("lines at the bound");
        assert_eq!(out.len(), 14);
    }
}
