//! The test harness shared by the API tests: a server on a temporary database, called
//! through the router without a socket (`tower::ServiceExt::oneshot`).

#![allow(dead_code, reason = "each test file uses a part of the harness")]

use std::path::PathBuf;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use qasab_server::{AppState, Config, app};
use serde_json::{Value, json};
use tempfile::TempDir;
use tower::ServiceExt;

/// A server on a fresh database in a temporary directory.
pub struct Server {
    pub dir: TempDir,
    pub state: AppState,
    pub app: Router,
}

impl Server {
    pub fn new() -> Server {
        Server::with(Config::default())
    }

    pub fn with(config: Config) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(&dir.path().join("games.db"), config).unwrap();
        Server {
            dir,
            app: app(state.clone()),
            state,
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("games.db")
    }

    /// A new server on the same database file, after this one is dropped.
    pub fn restart(self) -> Server {
        let Server { dir, state, app } = self;
        drop((state, app));
        let state = AppState::open(&dir.path().join("games.db"), Config::default()).unwrap();
        Server {
            dir,
            app: app_of(state.clone()),
            state,
        }
    }

    pub async fn raw(&self, req: Request<Body>) -> (StatusCode, String, Option<String>) {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let ctype = res
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(bytes.to_vec()).unwrap(), ctype)
    }

    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let (status, text, ctype) = self
            .raw(request(method, uri, token, body.map(|b| b.to_string())))
            .await;
        assert_eq!(
            ctype.as_deref(),
            Some("application/json"),
            "{uri}: {status} {text}"
        );
        (status, serde_json::from_str(&text).unwrap())
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.call(Method::GET, uri, None, None).await
    }

    pub async fn post(&self, uri: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, uri, token, Some(body)).await
    }

    /// Creates a game and returns its id and the token of each human seat.
    pub async fn create(
        &self,
        ruleset: &str,
        seats: [&str; 2],
    ) -> (String, [Option<String>; 2], Value) {
        self.create_with(json!({"ruleset": ruleset, "seats": seats}))
            .await
    }

    /// Creates a game from a request body and returns its id and the token of each human seat.
    pub async fn create_with(&self, request: Value) -> (String, [Option<String>; 2], Value) {
        let (status, body) = self.post("/api/games", None, request).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let token = |i: usize| body["seats"][i]["token"].as_str().map(str::to_string);
        (
            body["id"].as_str().unwrap().to_string(),
            [token(0), token(1)],
            body,
        )
    }

    /// Plays the first legal action as the seat of `token`; returns the new state.
    pub async fn play_first(&self, id: &str, token: &str) -> Value {
        let (status, legal) = self.get(&format!("/api/games/{id}/legal")).await;
        assert_eq!(status, StatusCode::OK);
        let action = legal["actions"][0]["action"].as_str().unwrap().to_string();
        let (status, state) = self
            .post(
                &format!("/api/games/{id}/actions"),
                Some(token),
                json!({"action": action, "index": legal["index"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        state
    }
}

pub fn app_of(state: AppState) -> Router {
    app(state)
}

pub fn is_over(state: &Value) -> bool {
    state["turn"]["kind"] == "over"
}

/// Plays a game to its end with the human taking the first legal action each time.
pub async fn play_to_end(server: &Server, id: &str, token: &str) -> Value {
    let (_, mut state) = server.get(&format!("/api/games/{id}")).await;
    for _ in 0..5000 {
        if is_over(&state) {
            return state;
        }
        assert_eq!(state["turn"]["kind"], "player", "{}", state["turn"]);
        assert_eq!(state["turn"]["human"], true);
        state = server.play_first(id, token).await;
    }
    panic!("the game did not end");
}

pub fn assert_error(status: StatusCode, body: &Value, expected: StatusCode, needle: &str) {
    assert_eq!(status, expected, "{body}");
    let message = body["error"].as_str().unwrap_or_else(|| panic!("{body}"));
    assert!(message.contains(needle), "'{message}' lacks '{needle}'");
}

/// A request, with the seat token and a JSON body if given.
pub fn request(
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    match body {
        Some(b) => req
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b)),
        None => req.body(Body::empty()),
    }
    .unwrap()
}

/// A server on a fresh database in a temporary directory, serving on a free loopback port
/// until `stop` is sent (or dropped): the directory, the address, the stop and the task.
pub async fn serve_locally(
    config: Config,
) -> (
    TempDir,
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(&dir.path().join("games.db"), config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(qasab_server::serve_on(listener, state, async {
        let _ = stopped.await;
    }));
    (dir, addr, stop, task)
}
