//! The server's defences on the network: timeouts on slow requests and silent WebSockets, the
//! limit on connections, client addresses (IPv6 prefixes, trusted proxies) and the security
//! headers of every answer. Some tests serve on a loopback port (`serve_on`), the others
//! call the router without a socket (`tower::ServiceExt::oneshot`).

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use qasab_server::{AppState, Config, app, proxy};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::timeout;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tower::ServiceExt;

/// The bound on anything that a timeout of a second or two configured below should end.
const PATIENCE: Duration = Duration::from_secs(10);

/// A server on a fresh database, serving on a free loopback port until stopped.
struct Live {
    _dir: TempDir,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Live {
    async fn start(config: Config) -> Live {
        let (dir, addr, stop, task) = common::serve_locally(config).await;
        Live {
            _dir: dir,
            addr,
            stop: Some(stop),
            task,
        }
    }

    async fn connect(&self) -> TcpStream {
        TcpStream::connect(self.addr).await.unwrap()
    }

    /// Creates a two-person game; its id. `forwarded` is sent as `X-Forwarded-For`.
    async fn create(&self, forwarded: Option<&str>) -> (u16, Value) {
        let body = json!({"ruleset": "tihbat", "seats": ["human", "human"]}).to_string();
        let forwarded = forwarded.map_or(String::new(), |f| format!("X-Forwarded-For: {f}\r\n"));
        let mut stream = self.connect().await;
        let request = format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{forwarded}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let answer = read_answer(&mut stream).await;
        (answer.status, answer.json())
    }
}

impl Live {
    /// Sends `request` (whole, as written) on a new connection: the answer and the stream.
    async fn send(&self, request: &[u8]) -> (Answer, TcpStream) {
        let mut stream = self.connect().await;
        stream.write_all(request).await.unwrap();
        (read_answer(&mut stream).await, stream)
    }

    /// `GET path` on a connection of its own.
    async fn get(&self, path: &str) -> Answer {
        let request = format!("GET {path} HTTP/1.1\r\nHost: qasab\r\nConnection: close\r\n\r\n");
        self.send(request.as_bytes()).await.0
    }
}

/// Checks that `answer` is an error of the API: `status`, a JSON body `{"error": "..."}`
/// containing `needle`, and the security headers of every answer.
fn assert_api_error(answer: &Answer, status: u16, needle: &str) {
    let what = format!("{}\n\n{}", answer.head, answer.body);
    assert_eq!(answer.status, status, "{what}");
    assert_eq!(
        answer.header("content-type"),
        Some("application/json"),
        "{what}"
    );
    let error = answer.json()["error"].as_str().map(str::to_string);
    assert!(
        error.as_deref().is_some_and(|e| e.contains(needle)),
        "{what} lacks {needle}"
    );
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        (
            "content-security-policy",
            "default-src 'none'; frame-ancestors 'none'",
        ),
    ] {
        assert_eq!(answer.header(name), Some(value), "{what}");
    }
}

/// An HTTP answer read off a socket.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Reads one answer with a `Content-Length`, within [`PATIENCE`].
async fn read_answer(stream: &mut TcpStream) -> Answer {
    timeout(PATIENCE, async {
        let mut bytes = Vec::new();
        let mut chunk = [0; 4096];
        let end = loop {
            if let Some(i) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "closed before the answer's head");
            bytes.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8(bytes[..end].to_vec()).unwrap();
        let mut answer = Answer {
            status: head[9..12].parse().unwrap(),
            head,
            body: String::new(),
        };
        let length: usize = answer.header("content-length").unwrap().parse().unwrap();
        let mut body = bytes[end + 4..].to_vec();
        while body.len() < length {
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "closed in the answer's body");
            body.extend_from_slice(&chunk[..n]);
        }
        answer.body = String::from_utf8(body).unwrap();
        answer
    })
    .await
    .expect("no answer")
}

/// Whether the server closes the connection within [`PATIENCE`] (reading whatever it still
/// sends).
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    timeout(PATIENCE, async {
        let mut chunk = [0; 4096];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

#[tokio::test]
async fn half_sent_headers_and_idle_connections_are_closed_after_the_header_timeout() {
    let live = Live::start(Config {
        header_timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    let mut idle = live.connect().await;
    let mut half = live.connect().await;
    half.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\nAccept: ")
        .await
        .unwrap();
    assert!(closed_by_server(&mut half).await, "half-sent headers kept");
    assert!(closed_by_server(&mut idle).await, "silent connection kept");

    // A keep-alive connection is closed when it stays idle after its answer.
    let mut kept = live.connect().await;
    kept.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(&mut kept).await.status, 200);
    assert!(closed_by_server(&mut kept).await, "idle keep-alive kept");
}

#[tokio::test]
async fn a_trickled_body_gets_408_with_a_json_error() {
    let live = Live::start(Config {
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    let stream = live.connect().await;
    let (mut reader, mut writer) = stream.into_split();
    // A byte every 100 ms never lets a timeout between two reads expire; the body's deadline
    // does.
    let trickle = tokio::spawn(async move {
        let head = "POST /api/games HTTP/1.1\r\nHost: qasab\r\n\
                    Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{";
        writer.write_all(head.as_bytes()).await?;
        for _ in 0..200 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            writer.write_all(b" ").await?;
        }
        Ok::<_, std::io::Error>(())
    });
    let answer = timeout(PATIENCE, async {
        let mut bytes = Vec::new();
        let mut chunk = [0; 4096];
        while !String::from_utf8_lossy(&bytes).contains("}") {
            match reader.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            }
        }
        String::from_utf8(bytes).unwrap()
    })
    .await
    .expect("the trickled request was never answered");
    trickle.abort();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{answer}"
    );
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    let body: Value = serde_json::from_str(body).unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("timeout"),
        "{body}"
    );
}

/// Well under the server's timeouts in the tests below (a minute), and generous for a loaded
/// machine: an answer that comes within it did not wait for a timeout.
const PROMPT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn a_body_declared_over_the_limit_gets_413_at_once_and_the_connection_closes() {
    let live = Live::start(Config {
        header_timeout: Duration::from_secs(60),
        body_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .await;
    for length in ["2000000", "1048577", "1000000000000000"] {
        let started = std::time::Instant::now();
        let request = format!(
            "POST /api/games HTTP/1.1\r\nHost: qasab\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n\r\n{{\"ruleset\":\"tab\"}}"
        );
        let (answer, mut stream) = live.send(request.as_bytes()).await;
        assert!(
            started.elapsed() < PROMPT,
            "{length}: {:?}",
            started.elapsed()
        );
        assert_api_error(&answer, 413, &format!("{length} bytes declared"));
        assert_eq!(answer.header("connection"), Some("close"));
        assert!(closed_by_server(&mut stream).await, "{length}: kept open");
        assert!(
            started.elapsed() < PROMPT,
            "{length}: {:?}",
            started.elapsed()
        );
    }

    // A client that goes on sending the body it declared gets the answer too: the server
    // reads what it sends before closing, so that the connection is not reset under it.
    let stream = live.connect().await;
    let (mut reader, mut writer) = stream.into_split();
    let sender = tokio::spawn(async move {
        writer
            .write_all(
                b"POST /api/games HTTP/1.1\r\nHost: qasab\r\n\
                  Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n",
            )
            .await?;
        let chunk = [b' '; 1000];
        for _ in 0..2000 {
            writer.write_all(&chunk).await?;
        }
        Ok::<_, std::io::Error>(())
    });
    let answer = timeout(PATIENCE, async {
        let mut bytes = Vec::new();
        let mut chunk = [0; 4096];
        loop {
            match reader.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
    .await
    .expect("the connection was never closed");
    sender.abort();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("2000000 bytes declared"), "{answer}");
}

#[tokio::test]
async fn a_body_within_the_limit_that_stalls_gets_408_after_the_read_timeout() {
    // The whole body is given a minute, but nothing of it may be awaited for longer than a
    // request's headers (a second here).
    let live = Live::start(Config {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .await;
    let started = std::time::Instant::now();
    let (answer, mut stream) = live
        .send(
            b"POST /api/games HTTP/1.1\r\nHost: qasab\r\nContent-Type: application/json\r\n\
              Content-Length: 1000\r\n\r\n{\"ruleset\":\"tab\"}",
        )
        .await;
    assert!(started.elapsed() < PATIENCE, "{:?}", started.elapsed());
    assert_api_error(&answer, 408, "did not arrive in time");
    assert!(closed_by_server(&mut stream).await);
}

#[tokio::test]
async fn requests_that_hyper_cannot_read_get_json_errors_with_the_security_headers() {
    let live = Live::start(Config::default()).await;
    let many: String = (0..500).map(|i| format!("X-Filler-{i}: {i}\r\n")).collect();
    let cases: [(&str, Vec<u8>, u16, &str); 6] = [
        (
            "a target of 70,000 bytes",
            format!(
                "GET /api/games/{} HTTP/1.1\r\nHost: qasab\r\n\r\n",
                "a".repeat(70_000)
            )
            .into_bytes(),
            414,
            "too long",
        ),
        (
            "a NUL byte in the path",
            b"GET /api/ga\0mes HTTP/1.1\r\nHost: qasab\r\n\r\n".to_vec(),
            400,
            "malformed request",
        ),
        (
            "a tab in the path",
            b"GET /api/ga\tmes HTTP/1.1\r\nHost: qasab\r\n\r\n".to_vec(),
            400,
            "malformed request",
        ),
        (
            "a negative Content-Length",
            b"POST /api/games HTTP/1.1\r\nHost: qasab\r\nContent-Length: -5\r\n\r\n".to_vec(),
            400,
            "malformed request",
        ),
        (
            "a Content-Length that is not a number",
            b"POST /api/games HTTP/1.1\r\nHost: qasab\r\nContent-Length: abc\r\n\r\n".to_vec(),
            400,
            "malformed request",
        ),
        (
            "500 headers",
            format!("GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n{many}\r\n").into_bytes(),
            431,
            "headers",
        ),
    ];
    for (what, request, status, needle) in cases {
        let (answer, mut stream) = live.send(&request).await;
        assert_api_error(&answer, status, needle);
        assert_eq!(answer.header("connection"), Some("close"), "{what}");
        assert!(answer.header("date").is_some(), "{what}");
        assert!(closed_by_server(&mut stream).await, "{what}: kept open");
    }

    // A long path that hyper reads is the router's to answer, as JSON too.
    let answer = live
        .get(&format!("/api/games/{}", "a".repeat(10_000)))
        .await;
    assert_api_error(&answer, 404, "no game");

    // After a good answer on a connection, a bad request on it gets the JSON error too.
    let mut stream = live.connect().await;
    stream
        .write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(&mut stream).await.status, 200);
    stream
        .write_all(b"GET /api/ga\0mes HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_api_error(&read_answer(&mut stream).await, 400, "malformed request");
}

#[tokio::test]
async fn counts_in_paths_and_queries_are_digits_alone() {
    let live = Live::start(Config::default()).await;
    let (status, game) = live.create(None).await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    for refused in [
        "states/+1",
        "states/01",
        "states/00",
        "states/-0",
        "states/%201",
        "states/0%20",
        "states/%2B0",
        "actions?from=%2B1",
        "actions?from=+1",
        "actions?from=01",
        "actions?from=-0",
        "actions?limit=%201",
        "actions?limit=010",
    ] {
        let answer = live.get(&format!("/api/games/{id}/{refused}")).await;
        assert_api_error(&answer, 400, "digits alone");
    }
    for accepted in ["states/0", "actions?from=0", "actions?from=0&limit=10"] {
        let answer = live.get(&format!("/api/games/{id}/{accepted}")).await;
        assert_eq!(answer.status, 200, "{accepted}: {}", answer.body);
    }
}

#[tokio::test]
async fn a_stalled_body_gets_408_through_the_router() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let state = AppState::open(&dir.path().join("games.db"), config).unwrap();
    // The first bytes of a body, then nothing.
    let stalled = futures_util::stream::once(async { Ok::<_, std::io::Error>(Bytes::from("{")) })
        .chain(futures_util::stream::pending());
    let req = Request::post("/api/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from_stream(stalled))
        .unwrap();
    let res = timeout(PATIENCE, app(state).oneshot(req))
        .await
        .expect("the stalled body was never cut off")
        .unwrap();
    assert_eq!(res.status(), StatusCode::REQUEST_TIMEOUT);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "application/json");
    let body: Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("timeout"),
        "{body}"
    );
}

#[tokio::test]
async fn connections_over_the_limit_get_503_until_one_closes() {
    let live = Live::start(Config {
        max_connections: 2,
        ..Config::default()
    })
    .await;
    // Two connections take the places (the server accepts in the order of connecting).
    let first = live.connect().await;
    let mut second = live.connect().await;
    let mut third = live.connect().await;
    third
        .write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    let refused = read_answer(&mut third).await;
    assert_eq!(refused.status, 503, "{}", refused.head);
    assert_eq!(refused.header("content-type"), Some("application/json"));
    assert_eq!(refused.header("x-content-type-options"), Some("nosniff"));
    assert!(
        refused.json()["error"]
            .as_str()
            .unwrap()
            .contains("connections"),
        "{}",
        refused.body
    );
    assert!(closed_by_server(&mut third).await);

    // The connections that hold the places are served.
    second
        .write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(&mut second).await.status, 200);

    // Once one closes, its place is free again (as soon as the server has seen the close).
    drop(first);
    let served = timeout(PATIENCE, async {
        loop {
            let mut next = live.connect().await;
            next.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
                .await
                .unwrap();
            match read_answer(&mut next).await.status {
                200 => return,
                503 => tokio::time::sleep(Duration::from_millis(20)).await,
                other => panic!("unexpected status {other}"),
            }
        }
    })
    .await;
    assert!(
        served.is_ok(),
        "the closed connection's place was never freed"
    );
}

#[tokio::test]
async fn a_websocket_holds_a_connection_place() {
    let live = Live::start(Config {
        max_connections: 1,
        ..Config::default()
    })
    .await;
    let (status, game) = live.create(None).await;
    assert_eq!(status, 201, "{game}");
    let url = format!(
        "ws://{}/api/games/{}/ws",
        live.addr,
        game["id"].as_str().unwrap()
    );
    // The place of the connection that created the game is free once the server has closed
    // it; until then the socket is refused.
    let mut socket = timeout(PATIENCE, async {
        loop {
            match connect_async(&url).await {
                Ok((socket, _)) => return socket,
                Err(WsError::Http(res)) if res.status() == 503 => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    })
    .await
    .expect("the socket was never accepted");
    assert!(matches!(socket.next().await, Some(Ok(Message::Text(_)))));
    let mut other = live.connect().await;
    other
        .write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(&mut other).await.status, 503);
}

/// Watches a new game over a WebSocket; the socket after its first state.
async fn watcher(
    live: &Live,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>> {
    let (status, game) = live.create(None).await;
    assert_eq!(status, 201, "{game}");
    let url = format!(
        "ws://{}/api/games/{}/ws",
        live.addr,
        game["id"].as_str().unwrap()
    );
    let (mut socket, _) = connect_async(&url).await.unwrap();
    match socket.next().await {
        Some(Ok(Message::Text(_))) => socket,
        other => panic!("expected the state, got {other:?}"),
    }
}

#[tokio::test]
async fn a_silent_websocket_is_closed_after_the_idle_timeout() {
    let live = Live::start(Config {
        ws_idle_timeout: Duration::from_secs(1),
        ws_ping_interval: Duration::from_millis(200),
        ..Config::default()
    })
    .await;
    let mut socket = watcher(&live).await;
    // The client reads nothing, so it answers no ping; then it sees what the server did.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut pings = 0;
    let ended = timeout(PATIENCE, async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Ping(_))) => pings += 1,
                Some(Ok(Message::Close(frame))) => {
                    let frame = frame.expect("a close frame with a reason");
                    assert!(frame.reason.contains("idle"), "{frame:?}");
                }
                Some(Ok(other)) => panic!("unexpected message {other:?}"),
                Some(Err(_)) | None => return,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the silent socket was kept open");
    assert!(pings > 0, "the server never pinged");
}

#[tokio::test]
async fn a_websocket_that_answers_pings_stays_open() {
    let live = Live::start(Config {
        ws_idle_timeout: Duration::from_secs(2),
        ws_ping_interval: Duration::from_millis(250),
        ..Config::default()
    })
    .await;
    let mut socket = watcher(&live).await;
    // Reading answers the pings (the client's WebSocket layer sends the pongs); for twice the
    // idle timeout, nothing else comes.
    let mut pings = 0;
    let quiet = timeout(Duration::from_secs(4), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Ping(_))) => pings += 1,
                other => panic!("unexpected {other:?}"),
            }
        }
    })
    .await;
    assert!(quiet.is_err());
    assert!(pings > 0, "the server never pinged");
    // Still open: a ping of the client's is answered.
    socket
        .send(Message::Ping(b"still there".to_vec().into()))
        .await
        .unwrap();
    let answered = timeout(PATIENCE, async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Pong(payload))) => return payload,
                Some(Ok(Message::Ping(_))) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(&answered[..], b"still there");
}

#[tokio::test]
async fn shutdown_closes_idle_connections_and_stops_serving() {
    let mut live = Live::start(Config::default()).await;
    let mut kept = live.connect().await;
    kept.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: qasab\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_answer(&mut kept).await.status, 200);
    live.stop.take().unwrap().send(()).unwrap();
    assert!(closed_by_server(&mut kept).await);
    timeout(PATIENCE, &mut live.task)
        .await
        .expect("the server did not stop")
        .unwrap();
    assert!(TcpStream::connect(live.addr).await.is_err());
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client_over_a_real_connection() {
    let live = Live::start(Config {
        games_per_minute: 1,
        trusted_proxies: vec![proxy::parse_network("127.0.0.0/8").unwrap()],
        ..Config::default()
    })
    .await;
    // Each client behind the proxy has its own allowance, as the header says.
    assert_eq!(live.create(Some("198.51.100.1")).await.0, 201);
    assert_eq!(live.create(Some("203.0.113.5, 127.0.0.1")).await.0, 201);
    let (status, body) = live.create(Some("198.51.100.1")).await;
    assert_eq!(status, 429, "{body}");
    // Without the header, the client is the proxy itself.
    assert_eq!(live.create(None).await.0, 201);
    assert_eq!(live.create(Some("garbage")).await.0, 429);
}

#[tokio::test]
async fn without_trusted_proxies_a_forged_header_changes_nothing() {
    let live = Live::start(Config {
        games_per_minute: 1,
        ..Config::default()
    })
    .await;
    assert_eq!(live.create(Some("198.51.100.1")).await.0, 201);
    let (status, body) = live.create(Some("198.51.100.2")).await;
    assert_eq!(status, 429, "{body}");
}

/// A router on a fresh database, and the directory that keeps it.
fn router(config: Config) -> (TempDir, Router) {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(&dir.path().join("games.db"), config).unwrap();
    (dir, app(state))
}

/// Creates a game as a request from `peer` with `forwarded` as `X-Forwarded-For`; the status.
async fn create_from(app: &Router, peer: &str, forwarded: Option<&str>) -> StatusCode {
    let mut req = Request::post("/api/games").header(header::CONTENT_TYPE, "application/json");
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    let mut req = req
        .body(Body::from(
            json!({"ruleset": "tihbat", "seats": ["human", "human"]}).to_string(),
        ))
        .unwrap();
    let peer: SocketAddr = peer.parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(peer));
    app.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test]
async fn ipv6_clients_are_counted_by_their_64_prefix() {
    let (_dir, app) = router(Config {
        games_per_minute: 1,
        ..Config::default()
    });
    assert_eq!(
        create_from(&app, "[2001:db8:1:2::1]:4000", None).await,
        StatusCode::CREATED
    );
    assert_eq!(
        create_from(&app, "[2001:db8:1:2:9:8:7:6]:4001", None).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        create_from(&app, "[2001:db8:1:3::1]:4000", None).await,
        StatusCode::CREATED
    );
    // An IPv4-mapped address is its IPv4 client.
    assert_eq!(
        create_from(&app, "192.0.2.7:4000", None).await,
        StatusCode::CREATED
    );
    assert_eq!(
        create_from(&app, "[::ffff:192.0.2.7]:4000", None).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn forwarded_for_is_read_only_from_trusted_proxies() {
    // Untrusted peer: a forged header does not buy a fresh allowance.
    let (_dir, plain) = router(Config {
        games_per_minute: 1,
        ..Config::default()
    });
    let peer = "192.0.2.1:4000";
    assert_eq!(
        create_from(&plain, peer, Some("198.51.100.1")).await,
        StatusCode::CREATED
    );
    assert_eq!(
        create_from(&plain, peer, Some("198.51.100.2")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        create_from(&plain, peer, None).await,
        StatusCode::TOO_MANY_REQUESTS
    );

    // Trusted proxy: each forwarded client has its own allowance; another peer that is not
    // trusted is still itself.
    let (_dir, proxied) = router(Config {
        games_per_minute: 1,
        trusted_proxies: vec![proxy::parse_network("192.0.2.0/28").unwrap()],
        ..Config::default()
    });
    // Each forwarded client has its own allowance; a malformed header counts the proxy.
    for (from, forwarded, expected) in [
        (peer, Some("198.51.100.1"), StatusCode::CREATED),
        (
            "192.0.2.2:5000",
            Some("198.51.100.2, 192.0.2.9"),
            StatusCode::CREATED,
        ),
        (peer, Some("198.51.100.1"), StatusCode::TOO_MANY_REQUESTS),
        ("192.0.2.99:4000", Some("198.51.100.3"), StatusCode::CREATED),
        (
            "192.0.2.99:4000",
            Some("198.51.100.4"),
            StatusCode::TOO_MANY_REQUESTS,
        ),
        (peer, Some("not-an-address"), StatusCode::CREATED),
        (peer, None, StatusCode::TOO_MANY_REQUESTS),
    ] {
        assert_eq!(
            create_from(&proxied, from, forwarded).await,
            expected,
            "from {from}, forwarded for {forwarded:?}"
        );
    }
}

/// The answer's status and the security headers it carries.
async fn headers_of(
    app: &Router,
    method: Method,
    uri: &str,
    body: Option<&str>,
) -> (u16, [String; 5]) {
    let req = common::request(method, uri, None, body.map(str::to_string));
    let res = app.clone().oneshot(req).await.unwrap();
    let get = |name: header::HeaderName| {
        res.headers()
            .get(name)
            .map_or(String::new(), |v| v.to_str().unwrap().to_string())
    };
    (
        res.status().as_u16(),
        [
            get(header::X_CONTENT_TYPE_OPTIONS),
            get(header::REFERRER_POLICY),
            get(header::X_FRAME_OPTIONS),
            get(header::CONTENT_SECURITY_POLICY),
            get(header::CONTENT_TYPE),
        ],
    )
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let (_dir, app) = router(Config::default());
    let api_csp = "default-src 'none'; frame-ancestors 'none'";
    let cases: &[(Method, &str, Option<&str>, u16)] = &[
        (Method::GET, "/api/rulesets", None, 200),
        (Method::GET, "/api/openapi.json", None, 200),
        (Method::GET, "/api/games/nope", None, 404),
        (Method::GET, "/no/such/path", None, 404),
        (Method::DELETE, "/api/rulesets", None, 405),
        (Method::POST, "/api/games", Some("{"), 400),
        (
            Method::POST,
            "/api/games",
            Some(r#"{"ruleset": "chess"}"#),
            422,
        ),
        (Method::GET, "/api/games/nope/ws", None, 404),
    ];
    for (method, uri, body, status) in cases {
        let (got, [nosniff, referrer, frame, csp, _]) =
            headers_of(&app, method.clone(), uri, *body).await;
        assert_eq!(got, *status, "{method} {uri}");
        assert_eq!(nosniff, "nosniff", "{method} {uri}");
        assert_eq!(referrer, "no-referrer", "{method} {uri}");
        assert_eq!(frame, "DENY", "{method} {uri}");
        assert_eq!(csp, api_csp, "{method} {uri}");
    }

    // A game's record (text) too.
    let (status, game) = {
        let req = Request::post("/api/games")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(
                json!({"ruleset": "tihbat", "seats": ["human", "human"]}).to_string(),
            ))
            .unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice::<Value>(&bytes).unwrap())
    };
    assert_eq!(status, StatusCode::CREATED);
    let uri = format!("/api/games/{}/record", game["id"].as_str().unwrap());
    let (status, [nosniff, _, frame, csp, ctype]) = headers_of(&app, Method::GET, &uri, None).await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/plain"), "{ctype}");
    assert_eq!((nosniff.as_str(), frame.as_str()), ("nosniff", "DENY"));
    assert_eq!(csp, api_csp);

    // The page keeps its own policy.
    let (status, [nosniff, referrer, frame, csp, _]) =
        headers_of(&app, Method::GET, "/", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        (nosniff.as_str(), referrer.as_str(), frame.as_str()),
        ("nosniff", "no-referrer", "DENY")
    );
    assert!(csp.contains("script-src 'self'"), "{csp}");
}
