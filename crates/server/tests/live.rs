//! Live updates over real sockets: the server listens on a loopback port, watchers connect
//! with a WebSocket client and actions are played over plain HTTP.

mod common;

use std::net::SocketAddr;

use futures_util::{SinkExt, StreamExt};
use qasab_server::Config;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A server on a fresh database, listening on a free loopback port.
struct Live {
    _dir: TempDir,
    addr: SocketAddr,
    /// Serving until this is dropped with the server.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Live {
    async fn start(config: Config) -> Live {
        let (dir, addr, stop, _) = common::serve_locally(config).await;
        Live {
            _dir: dir,
            addr,
            _stop: stop,
        }
    }

    /// One HTTP/1.1 request on a connection of its own; the status and the JSON answer.
    async fn http(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let status = answer[9..12].parse().unwrap();
        let (_, text) = answer.split_once("\r\n\r\n").unwrap();
        (status, serde_json::from_str(text).unwrap_or(Value::Null))
    }

    /// Creates a game between two people; its id and the two tokens.
    async fn create(&self, ruleset: &str) -> (String, [String; 2]) {
        let (status, body) = self
            .http(
                "POST",
                "/api/games",
                None,
                Some(json!({"ruleset": ruleset, "seats": ["human", "human"]})),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let token = |i: usize| body["seats"][i]["token"].as_str().unwrap().to_string();
        (
            body["id"].as_str().unwrap().to_string(),
            [token(0), token(1)],
        )
    }

    fn ws_url(&self, id: &str) -> String {
        format!("ws://{}/api/games/{id}/ws", self.addr)
    }

    async fn watch(&self, id: &str) -> Socket {
        connect_async(self.ws_url(id)).await.unwrap().0
    }

    /// The status and JSON body of a refused WebSocket connection.
    async fn refused(&self, id: &str) -> (u16, Value) {
        match connect_async(self.ws_url(id)).await {
            Err(WsError::Http(res)) => {
                let body = res.body().clone().unwrap_or_default();
                (
                    res.status().as_u16(),
                    serde_json::from_slice(&body).unwrap(),
                )
            }
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("the socket was accepted"),
        }
    }
}

/// A view without its list of actions (which a frame after the first sends only in part).
fn without_actions(view: &Value) -> Value {
    let mut view = view.clone();
    let map = view.as_object_mut().unwrap();
    map.remove("actions");
    map.remove("actions_from");
    view
}

/// The next state a socket receives.
async fn next_state(socket: &mut Socket) -> Value {
    loop {
        match socket.next().await.unwrap().unwrap() {
            Message::Text(text) => {
                let message: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(message["type"], "state", "{message}");
                return message["state"].clone();
            }
            Message::Pong(_) => {}
            other => panic!("unexpected message {other:?}"),
        }
    }
}

#[tokio::test]
async fn watchers_get_the_state_now_and_after_every_action() {
    let live = Live::start(Config::default()).await;
    let (id, tokens) = live.create("tihbat").await;
    let (status, now) = live
        .http("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(status, 200);
    let mut first = live.watch(&id).await;
    let mut second = live.watch(&id).await;
    assert_eq!(next_state(&mut first).await, now);
    assert_eq!(next_state(&mut second).await, now);

    // Messages from a watcher are ignored, and pings answered.
    first.send(Message::text("hello")).await.unwrap();
    first
        .send(Message::Ping(b"are you there".to_vec().into()))
        .await
        .unwrap();
    match first.next().await.unwrap().unwrap() {
        Message::Pong(payload) => assert_eq!(&payload[..], b"are you there"),
        other => panic!("expected a pong, got {other:?}"),
    }

    let action = now["legal"][0]["action"].clone();
    let (status, after) = live
        .http(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&tokens[0]),
            Some(json!({"action": action, "index": 0})),
        )
        .await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["index"], 1);
    // Later frames are the view with only the actions the watcher has not had.
    for socket in [&mut first, &mut second] {
        let frame = next_state(socket).await;
        assert_eq!(without_actions(&frame), without_actions(&after));
        assert_eq!(frame["actions_from"], 0);
        assert_eq!(frame["actions"], after["actions"]);
    }

    // North answers; both hear of it.
    let action = after["legal"][0]["action"].clone();
    let (status, after) = live
        .http(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&tokens[1]),
            Some(json!({"action": action, "index": 1})),
        )
        .await;
    assert_eq!(status, 200, "{after}");
    for socket in [&mut first, &mut second] {
        let frame = next_state(socket).await;
        assert_eq!(without_actions(&frame), without_actions(&after));
        // The frame and the answer both carry the actions from the one played on.
        assert_eq!(frame["actions_from"], 1);
        assert_eq!(after["actions_from"], 1);
        assert_eq!(frame["actions"], after["actions"]);
    }

    // A clean close: the server answers the close frame and the stream ends.
    first.close(None).await.unwrap();
    while let Some(message) = first.next().await {
        match message {
            Ok(Message::Close(_)) | Ok(Message::Pong(_)) => {}
            Ok(other) => panic!("unexpected message after close {other:?}"),
            Err(WsError::ConnectionClosed) => break,
            Err(e) => panic!("unclean close: {e}"),
        }
    }
}

#[tokio::test]
async fn the_socket_limit_refuses_extra_watchers_until_one_leaves() {
    let live = Live::start(Config {
        sockets_per_game: 2,
        ..Config::default()
    })
    .await;
    let (id, _) = live.create("tab").await;
    let mut first = live.watch(&id).await;
    let mut second = live.watch(&id).await;
    next_state(&mut first).await;
    next_state(&mut second).await;
    let (status, body) = live.refused(&id).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("2 live watchers"),
        "{body}"
    );

    // Another game has places of its own.
    let (other, _) = live.create("tab").await;
    next_state(&mut live.watch(&other).await).await;

    first.close(None).await.unwrap();
    while first.next().await.is_some() {}
    // The place is freed once the server has seen the close; poll until it has.
    let mut third = None;
    for _ in 0..200 {
        match connect_async(live.ws_url(&id)).await {
            Ok((socket, _)) => {
                third = Some(socket);
                break;
            }
            Err(WsError::Http(res)) if res.status() == 429 => {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    let mut third = third.expect("the closed socket's place was never freed");
    next_state(&mut third).await;
    // The place of a socket that just disappears (no close frame) is freed too.
    drop(second);
    drop(third);
    let mut again = 0;
    for _ in 0..200 {
        if let Ok((mut a, _)) = connect_async(live.ws_url(&id)).await {
            next_state(&mut a).await;
            if let Ok((mut b, _)) = connect_async(live.ws_url(&id)).await {
                next_state(&mut b).await;
                again = 2;
                break;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(again, 2, "dropped sockets kept their places");
}

#[tokio::test]
async fn unknown_games_and_plain_requests_are_refused_before_upgrading() {
    let live = Live::start(Config::default()).await;
    let (status, body) = live.refused("no-such-game").await;
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no-such-game"),
        "{body}"
    );

    // A plain GET (no upgrade) gets a JSON 400 that says what the path takes.
    let (id, _) = live.create("tihbat").await;
    let (status, body) = live
        .http("GET", &format!("/api/games/{id}/ws"), None, None)
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("WebSocket"),
        "{body}"
    );
}

/// A watcher's copy of a game's actions, kept from the frames of its socket.
struct Watcher {
    socket: Socket,
    actions: Vec<Value>,
    frames: usize,
}

impl Watcher {
    /// Connects and applies the first frame, reading the actions before it over HTTP.
    async fn connect(live: &Live, id: &str) -> (Watcher, Value) {
        let mut socket = live.watch(id).await;
        let first = next_state(&mut socket).await;
        let from = first["actions_from"].as_u64().unwrap() as usize;
        let mut actions = Vec::new();
        while actions.len() < from {
            let (status, page) = live
                .http(
                    "GET",
                    &format!(
                        "/api/games/{id}/actions?from={}&limit={}",
                        actions.len(),
                        from - actions.len()
                    ),
                    None,
                    None,
                )
                .await;
            assert_eq!(status, 200, "{page}");
            actions.extend(page["actions"].as_array().unwrap().iter().cloned());
        }
        actions.extend(first["actions"].as_array().unwrap().iter().cloned());
        assert_eq!(actions.len(), first["index"].as_u64().unwrap() as usize);
        let watcher = Watcher {
            socket,
            actions,
            frames: 1,
        };
        (watcher, first)
    }

    /// Applies frames until one shows `view` (its index and position); returns the
    /// `actions_from` of each frame read.
    async fn catch_up(&mut self, view: &Value) -> Vec<usize> {
        let mut froms = Vec::new();
        loop {
            let frame = next_state(&mut self.socket).await;
            self.frames += 1;
            let from = frame["actions_from"].as_u64().unwrap() as usize;
            assert!(
                from <= self.actions.len(),
                "a frame from {from} for a watcher with {} actions",
                self.actions.len()
            );
            self.actions.truncate(from);
            self.actions
                .extend(frame["actions"].as_array().unwrap().iter().cloned());
            assert_eq!(
                self.actions.len(),
                frame["index"].as_u64().unwrap() as usize
            );
            froms.push(from);
            if frame["index"] == view["index"] && frame["position"] == view["position"] {
                assert_eq!(without_actions(&frame), without_actions(view));
                return froms;
            }
        }
    }
}

#[tokio::test]
async fn frames_after_the_first_carry_only_new_actions_and_rebuild_the_history() {
    let live = Live::start(Config::default()).await;
    let (status, created) = live
        .http(
            "POST",
            "/api/games",
            None,
            Some(json!({"ruleset": "tab", "seats": ["human", "greedy"]})),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let mut state = created["state"].clone();
    let play = |state: Value, pick: usize| {
        let live = &live;
        let (id, token) = (&id, &token);
        async move {
            let legal = state["legal"].as_array().unwrap();
            let action = &legal[pick % legal.len()]["action"];
            let (status, after) = live
                .http(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(token),
                    Some(json!({"action": action, "index": state["index"]})),
                )
                .await;
            assert_eq!(status, 200, "{after}");
            after
        }
    };
    let undo = || async {
        let (status, after) = live
            .http("POST", &format!("/api/games/{id}/undo"), Some(&token), None)
            .await;
        assert_eq!(status, 200, "{after}");
        after
    };
    let all = || async {
        let (status, page) = live
            .http("GET", &format!("/api/games/{id}/actions"), None, None)
            .await;
        assert_eq!(status, 200, "{page}");
        page["actions"].as_array().unwrap().clone()
    };

    // A watcher from the start, and one that comes after more than 100 actions.
    let (mut early, _) = Watcher::connect(&live, &id).await;
    let mut n = 0;
    while state["index"].as_u64().unwrap() < 110 {
        let before = early.actions.len();
        n += 1;
        if state["turn"]["kind"] != "player" {
            // Lost early: take the last move back and try another.
            state = undo().await;
            early.catch_up(&state).await;
            continue;
        }
        state = play(state, n).await;
        // Only what is new: the person's move and the computer's turn.
        for from in early.catch_up(&state).await {
            assert!(from >= before, "a frame from {from} after {before}");
        }
        assert_eq!(early.actions, all().await);
    }
    let (mut late, first) = Watcher::connect(&live, &id).await;
    assert_eq!(
        first["actions_from"],
        first["index"].as_u64().unwrap() - 100
    );
    assert_eq!(late.actions, all().await);

    // Play, undo, play, undo twice, play: both watchers keep the game's actions. (At the end
    // of the game, an undo instead of a move.)
    let mut undos = 0;
    for step in [
        "play", "play", "undo", "play", "undo", "undo", "play", "play",
    ] {
        let step = if state["turn"]["kind"] == "player" {
            step
        } else {
            "undo"
        };
        undos += usize::from(step == "undo");
        let had = early.actions.len();
        state = if step == "play" {
            n += 3;
            play(state, n).await
        } else {
            undo().await
        };
        for watcher in [&mut early, &mut late] {
            let froms = watcher.catch_up(&state).await;
            if step == "undo" {
                // The undo frame starts at the length the game was taken back to.
                assert_eq!(
                    *froms.last().unwrap(),
                    state["index"].as_u64().unwrap() as usize
                );
                assert!(*froms.last().unwrap() < had);
                assert_eq!(
                    watcher.actions.len(),
                    state["index"].as_u64().unwrap() as usize
                );
            }
        }
        let actions = all().await;
        assert_eq!(early.actions, actions, "after {step}");
        assert_eq!(late.actions, actions, "after {step}");
    }
    assert!(undos >= 3);
}
