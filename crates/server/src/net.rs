//! The accept loop: each TCP connection served over HTTP/1.1 by hyper, with a header read
//! timeout, at most [`crate::Config::max_connections`] at once, and a graceful stop.
//!
//! A connection holds its place among the open ones for as long as its stream lives, also
//! after a WebSocket upgrade has taken the stream over. A connection over the limit is
//! answered at once with a short 503 and closed (and simply closed while many such answers
//! are under way), so that a client learns why instead of waiting in the queue. The answers
//! hyper gives itself to requests it cannot read are rewritten as the API's JSON errors
//! ([`crate::early`]).
//!
//! A connection the server closes is drained first ([`LINGER`]): its end of writing is shut,
//! and what the client still sends is read and dropped until the client closes, for two
//! seconds at most. Closing a socket with unread data resets the connection, and the client
//! could lose the answer it was sent (a 413 to a client still sending its body).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::{Arc, LazyLock};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

use crate::config::LONGEST_TIMEOUT;
use crate::early::{Rewriting, json_answer};
use crate::router::app;
use crate::state::AppState;

/// Refusals (503 answers over the connection limit) under way at once; past that, a
/// connection over the limit is closed without an answer.
const REFUSALS_AT_ONCE: usize = 64;

/// The longest a refusal may take: writing the answer and reading what the client sent.
const REFUSAL_TIME: Duration = Duration::from_secs(2);

/// The longest a closed connection is drained of what its client still sends.
const LINGER: Duration = Duration::from_secs(2);

/// The answer to a connection over the limit.
static BUSY: LazyLock<Vec<u8>> = LazyLock::new(|| {
    json_answer(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server has as many connections open as it takes; try again later",
        "retry-after: 1\r\n",
    )
});

/// Serves the API of `state` on `listener` until `shutdown` completes, then stops accepting,
/// lets the requests under way finish, closes idle connections, and returns when every
/// connection is closed (upgraded WebSockets are no longer connections of the server, and
/// end with the runtime). What `qasab serve` runs, with Ctrl-C as `shutdown`.
///
/// The handlers see the peer's address as `ConnectInfo<SocketAddr>`; the limits of
/// [`crate::Config`] apply (`header_timeout`, `max_connections`, and in the router
/// `body_timeout`).
pub async fn serve_on(listener: TcpListener, state: AppState, shutdown: impl Future<Output = ()>) {
    let header_timeout = state.config().header_timeout.min(LONGEST_TIMEOUT);
    let open = Arc::new(Semaphore::new(
        state.config().max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let refusing = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let router = app(state);
    // Dropped to tell the connections to finish.
    let (stop, stopped) = watch::channel(());
    // Every connection holds a receiver: the sender is closed when all have ended.
    let (all_closed, closing) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        match open.clone().try_acquire_owned() {
            Ok(place) => {
                let connection = Connection {
                    stream: Counted {
                        stream: Some(stream),
                        place: Some(place),
                    },
                    peer,
                    router: router.clone(),
                    header_timeout,
                };
                tokio::spawn(connection.serve(stopped.clone(), closing.clone()));
            }
            Err(_) => {
                if let Ok(turn) = refusing.clone().try_acquire_owned() {
                    tokio::spawn(refuse(stream, turn));
                }
            }
        }
    }
    drop(listener);
    drop(stop);
    drop(closing);
    all_closed.closed().await;
}

/// Waits after a failed accept. A failure of one connection is no matter; any other (out of
/// file descriptors) is reported and waited out for a second rather than retried at once.
async fn accept_failed(e: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        eprintln!("qasab serve: cannot accept a connection: {e}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// An accepted connection, with its place among the open ones.
struct Connection {
    stream: Counted,
    peer: SocketAddr,
    router: Router,
    header_timeout: Duration,
}

impl Connection {
    /// Serves the connection's requests until it closes, or until `stop` says to finish: then
    /// the request under way is answered and the connection closed. Holds `_closing` to the
    /// end.
    async fn serve(self, mut stop: watch::Receiver<()>, _closing: watch::Receiver<()>) {
        let Connection {
            stream,
            peer,
            router,
            header_timeout,
        } = self;
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(req)
        });
        let mut conn = pin!(
            http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(Rewriting::new(stream)), service)
                .with_upgrades()
        );
        // A failed connection (a timeout, a malformed request, a client gone) only ends.
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = stop.changed() => {}
        }
        conn.as_mut().graceful_shutdown();
        let _ = conn.await;
    }
}

/// Answers a connection over the limit with 503 and closes it. Reads what the client sent
/// until it closes (within [`REFUSAL_TIME`]): closing with unread data would reset the
/// connection, and the client could lose the answer.
async fn refuse(mut stream: TcpStream, _turn: OwnedSemaphorePermit) {
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(&BUSY).await?;
        drain(&mut stream).await
    })
    .await;
}

/// Shuts the server's end of writing and reads what the client still sends until it closes.
async fn drain(stream: &mut TcpStream) -> io::Result<()> {
    // Shut already (hyper shuts a connection it closes gracefully) is no matter.
    let _ = stream.shutdown().await;
    let mut sink = [0; 4096];
    while stream.read(&mut sink).await? > 0 {}
    Ok(())
}

/// A connection's stream holding the connection's place among the open ones. When it is
/// dropped, the stream is drained ([`LINGER`]) and then the place freed.
struct Counted {
    /// `None` only once dropped.
    stream: Option<TcpStream>,
    place: Option<OwnedSemaphorePermit>,
}

impl Counted {
    fn stream(&mut self) -> io::Result<Pin<&mut TcpStream>> {
        self.stream
            .as_mut()
            .map(Pin::new)
            .ok_or_else(|| io::ErrorKind::NotConnected.into())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let (Some(mut stream), place) = (self.stream.take(), self.place.take()) else {
            return;
        };
        // Without a runtime (it is shutting down) the stream is simply closed.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = tokio::time::timeout(LINGER, drain(&mut stream)).await;
                drop(place);
            });
        }
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_mut().stream()?.poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().stream()?.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().stream()?.poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream
            .as_ref()
            .is_some_and(TcpStream::is_write_vectored)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().stream()?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().stream()?.poll_shutdown(cx)
    }
}
