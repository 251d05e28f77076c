//! The answers that hyper gives itself, before the router sees a request, rewritten as the
//! API's errors.
//!
//! hyper refuses a request it cannot read (a request line with a space, tab or control byte
//! in its path, a malformed header such as `Content-Length: -5`, too many headers, a target
//! too long) with a bare answer of its own: a status, `connection: close`, `content-length: 0`
//! and `date`, and no way to change it. [`Rewriting`] sits under hyper on each connection and
//! writes the API's answer in place of such an answer: the same status, a JSON error body and
//! the security headers of every answer. It tells hyper's own answers by their form: an error
//! status with an empty body and without `x-content-type-options`, which every answer of the
//! router carries ([`crate::router::SECURITY_HEADERS`]); everything else passes unchanged.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::ErrorBody;
use crate::router::SECURITY_HEADERS;

/// An answer of the server written by hand, outside the router: `status` with the JSON error
/// `message`, the security headers, `connection: close`, and the extra header lines `extra`
/// (each ending in `\r\n`).
pub(crate) fn json_answer(status: StatusCode, message: &str, extra: &str) -> Vec<u8> {
    let body = serde_json::to_string(&ErrorBody {
        error: message.to_string(),
    })
    .unwrap_or_else(|_| r#"{"error":"malformed request"}"#.to_string());
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n{extra}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    format!("{head}\r\n{body}").into_bytes()
}

/// What a request that hyper refused with `status` is told.
fn message(status: StatusCode) -> &'static str {
    match status {
        StatusCode::URI_TOO_LONG => "the request's target (its path and query) is too long",
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            "the request's headers are too many or too large"
        }
        _ => {
            "malformed request: not valid HTTP/1.1 (the path must be percent-encoded, with no \
             space, tab or control byte; each header must be well formed, and Content-Length a \
             non-negative integer)"
        }
    }
}

/// If `buf` starts with an answer that hyper wrote itself, its status and length: an HTTP/1
/// head of a 4xx status with `content-length: 0` and without `x-content-type-options`.
fn hypers_own(buf: &[u8]) -> Option<(StatusCode, usize)> {
    let rest = buf
        .strip_prefix(b"HTTP/1.1 ")
        .or_else(|| buf.strip_prefix(b"HTTP/1.0 "))?;
    let code = std::str::from_utf8(rest.get(..3)?).ok()?;
    let status = StatusCode::from_bytes(code.as_bytes()).ok()?;
    if !status.is_client_error() {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = buf[..end + 2].to_ascii_lowercase();
    let has = |line: &[u8]| head.windows(line.len()).any(|w| w == line);
    (has(b"\r\ncontent-length: 0\r\n") && !has(b"\r\nx-content-type-options:"))
        .then_some((status, end + 4))
}

/// The `date` line of hyper's answer `head`, if any, to keep in the answer that replaces it.
fn date_line(head: &[u8]) -> String {
    String::from_utf8_lossy(head)
        .split("\r\n")
        .find(|line| line.len() > 5 && line[..5].eq_ignore_ascii_case("date:"))
        .map_or(String::new(), |line| format!("{line}\r\n"))
}

/// The answer being written in place of one of hyper's.
struct Replacement {
    bytes: Vec<u8>,
    written: usize,
    /// The length of hyper's answer, reported to hyper as written once `bytes` are.
    replaces: usize,
}

/// A connection's stream under hyper that writes the API's answers in place of hyper's own
/// (see the module).
pub(crate) struct Rewriting<S> {
    inner: S,
    replacing: Option<Replacement>,
}

impl<S> Rewriting<S> {
    pub(crate) fn new(inner: S) -> Self {
        Rewriting {
            inner,
            replacing: None,
        }
    }
}

impl<S: AsyncWrite + Unpin> Rewriting<S> {
    /// Writes `buf`, or the API's answer in place of the one of hyper's that it starts with.
    fn write(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.replacing.is_none() {
            let Some((status, len)) = hypers_own(buf) else {
                return Pin::new(&mut self.inner).poll_write(cx, buf);
            };
            self.replacing = Some(Replacement {
                bytes: json_answer(status, message(status), &date_line(&buf[..len])),
                written: 0,
                replaces: len,
            });
        }
        let Some(r) = self.replacing.as_mut() else {
            return Poll::Ready(Ok(0));
        };
        while r.written < r.bytes.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &r.bytes[r.written..]))?;
            if n == 0 {
                self.replacing = None;
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            r.written += n;
        }
        let replaces = r.replaces.min(buf.len());
        self.replacing = None;
        Poll::Ready(Ok(replaces))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Rewriting<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Rewriting<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        // hyper writes a head of its own as the first of its buffers.
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &**b);
        if this.replacing.is_some() || hypers_own(first).is_some() {
            return this.write(cx, first);
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPERS: &[u8] = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\n\
        content-length: 0\r\ndate: Tue, 01 Sep 2026 10:00:00 GMT\r\n\r\n";

    #[test]
    fn only_hypers_own_bare_error_answers_are_replaced() {
        assert_eq!(
            hypers_own(HYPERS),
            Some((StatusCode::URI_TOO_LONG, HYPERS.len()))
        );
        // The router's answers carry the security headers; a success or a 100 Continue is
        // never replaced, nor a body or a WebSocket frame.
        let routed = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\
            x-content-type-options: nosniff\r\n\r\n";
        for other in [
            &routed[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 100 Continue\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n",
            b"{\"error\":\"HTTP/1.1 400\"}",
            b"\x81\x05HTTP/",
            b"HTTP/1.1 4",
        ] {
            assert_eq!(
                hypers_own(other),
                None,
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    #[tokio::test]
    async fn a_bare_answer_becomes_a_json_error_with_the_security_headers() {
        use tokio::io::AsyncWriteExt;
        let mut out = Rewriting::new(Vec::new());
        out.write_all(HYPERS).await.unwrap();
        let written = String::from_utf8(out.inner).unwrap();
        let (head, body) = written.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        for line in [
            "content-type: application/json",
            "connection: close",
            "x-content-type-options: nosniff",
            "x-frame-options: DENY",
            "date: Tue, 01 Sep 2026 10:00:00 GMT",
        ] {
            assert!(head.contains(line), "{head} lacks {line}");
        }
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(
            body["error"].as_str().unwrap().contains("too long"),
            "{body}"
        );
    }
}
