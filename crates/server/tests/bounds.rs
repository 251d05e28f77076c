//! The work and memory a client can cause are bounded: computer work goes through a queue of
//! fixed size, games between computers advance only while watched, hints are a per-game
//! setting, and only active games stay in memory.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{Request, StatusCode, header};
use common::*;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use qasab_core::AnyGame;
use qasab_server::Config;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tower::ServiceExt;

async fn hint(s: &Server, id: &str, body: Value) -> (StatusCode, Value) {
    s.post(&format!("/api/games/{id}/hint"), None, body).await
}

/// The number of actions stored for a game, read from the database file directly (reading
/// through the API would count as watching the game).
fn stored_actions(s: &Server, id: &str) -> i64 {
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    conn.query_row("SELECT COUNT(*) FROM actions WHERE game = ?1", [id], |r| {
        r.get(0)
    })
    .unwrap()
}

#[tokio::test]
async fn hints_are_off_between_two_people_unless_the_game_allows_them() {
    let s = Server::new();
    let (id, _, created) = s.create("tihbat", ["human", "human"]).await;
    assert_eq!(created["state"]["hints"], false);
    let (status, body) = hint(&s, &id, json!({"index": 0})).await;
    assert_error(status, &body, StatusCode::FORBIDDEN, "hints are off");

    let (id, _, created) = s
        .create_with(json!({"ruleset": "tihbat", "seats": ["human", "human"], "hints": true}))
        .await;
    assert_eq!(created["state"]["hints"], true);
    let (status, body) = hint(&s, &id, json!({"index": 0})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Against the computer they are on unless switched off; both seats see the setting.
    let (_, _, created) = s.create("tihbat", ["human", "solver"]).await;
    assert_eq!(created["state"]["hints"], true);
    let (id, _, created) = s
        .create_with(json!({"ruleset": "tihbat", "seats": ["human", "solver"], "hints": false}))
        .await;
    assert_eq!(created["state"]["hints"], false);
    let (status, body) = hint(&s, &id, json!({"index": 0})).await;
    assert_error(status, &body, StatusCode::FORBIDDEN, "hints are off");

    // The setting is stored with the game.
    let s = s.restart();
    let (_, view) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["hints"], false);
}

#[tokio::test]
async fn players_above_the_per_move_limits_or_reading_a_file_get_422_naming_the_limit() {
    let s = Server::with(Config {
        max_think_ms: 500,
        max_threads: 1,
        ..Config::default()
    });
    for (spec, needle) in [
        (
            "mcts(time=501)",
            "time=501 is above the server's limit of 500 milliseconds",
        ),
        (
            "mcts(threads=2)",
            "threads=2 is above the server's limit of 1 threads",
        ),
        // A client may not name the server's files: neither one that exists nor one that does
        // not is opened, so the answer tells nothing of them.
        (
            "net(weights=Cargo.toml)",
            "net(weights=Cargo.toml): weights=Cargo.toml would read a file of the host; the \
             server plays only the networks it ships",
        ),
        (
            "net(weights=/dev/zero)",
            "weights=/dev/zero would read a file of the host",
        ),
    ] {
        let (status, body) = s
            .post(
                "/api/games",
                None,
                json!({"ruleset": "tab", "seats": ["human", spec]}),
            )
            .await;
        assert_error(status, &body, StatusCode::UNPROCESSABLE_ENTITY, needle);
    }
    let (id, _, created) = s.create("tab", ["human", "mcts(time=500)"]).await;
    let index = created["state"]["index"].clone();
    let (status, body) = hint(&s, &id, json!({"index": index, "agent": "mcts(time=900)"})).await;
    assert_error(
        status,
        &body,
        StatusCode::UNPROCESSABLE_ENTITY,
        "time=900 is above the server's limit of 500",
    );
    let (status, body) = hint(
        &s,
        &id,
        json!({"index": index, "agent": "net(weights=/no/such/file)"}),
    )
    .await;
    assert_error(
        status,
        &body,
        StatusCode::UNPROCESSABLE_ENTITY,
        "weights=/no/such/file would read a file of the host",
    );
}

#[tokio::test]
async fn a_game_between_computers_advances_only_while_watched() {
    let s = Server::with(Config {
        watch_window: Duration::from_millis(300),
        computer_pace: Duration::from_millis(20),
        ..Config::default()
    });
    let (id, _, created) = s.create("tab", ["random", "random"]).await;
    // The creation answers at once, with the game as it starts.
    assert_ne!(created["state"]["turn"]["kind"], "over");
    // Watched by its creation for 300 ms, it plays at most one decision per 20 ms, then
    // pauses; nothing is computed for a game nobody looks at.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let paused = stored_actions(&s, &id);
    assert!(paused > 0, "the game never started");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        stored_actions(&s, &id),
        paused,
        "the game went on unwatched"
    );
    assert_eq!(s.state.queued_tasks() + s.state.running_tasks(), 0);
    // A read wakes it.
    let (status, _) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    let woken = Instant::now();
    while stored_actions(&s, &id) == paused {
        assert!(
            woken.elapsed() < Duration::from_secs(10),
            "a read did not wake the game"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A restarted server does not set it going by itself either.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let before = stored_actions(&s, &id);
    let s = s.restart();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(stored_actions(&s, &id), before);
    assert_eq!(s.state.game_count(), 0);
}

/// Sends a hint request on its own task; the answer's status and `Retry-After`.
fn spawn_hint(
    s: &Arc<Server>,
    id: &str,
    body: Value,
) -> tokio::task::JoinHandle<(StatusCode, Option<String>)> {
    let app = s.app.clone();
    let req = Request::post(format!("/api/games/{id}/hint"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    tokio::spawn(async move {
        let res = app.oneshot(req).await.unwrap();
        let retry = res
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        (res.status(), retry)
    })
}

/// The answer of `request`, which must come: a liveness limit, far above any wait the bounds
/// allow, so that a person left waiting behind the queue fails the test instead of hanging it.
async fn answer<T>(request: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(120), request)
        .await
        .expect("a person's move was never answered")
}

async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(20), "{what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_full_queue_refuses_hints_with_retry_after_and_dropped_hints_are_cancelled() {
    let s = Arc::new(Server::with(Config {
        compute_workers: 1,
        compute_queue: 1,
        ..Config::default()
    }));
    let (id, _, created) = s
        .create_with(json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true}))
        .await;
    let slow = json!({"index": created["state"]["index"], "agent": "mcts(time=1500)"});
    let running = spawn_hint(&s, &id, slow.clone());
    until("the first hint never started", || {
        s.state.running_tasks() == 1
    })
    .await;
    let queued = spawn_hint(&s, &id, slow.clone());
    until("the second hint never queued", || {
        s.state.queued_tasks() == 1
    })
    .await;
    let (status, retry) = spawn_hint(&s, &id, slow.clone()).await.unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let secs: u64 = retry.expect("no Retry-After").parse().unwrap();
    assert!(secs >= 1);
    // The client of the queued hint goes away: its hint is never computed, and the one
    // running finishes.
    queued.abort();
    let _ = queued.await;
    assert_eq!(running.await.unwrap().0, StatusCode::OK);
    until("the cancelled hint was computed", || {
        s.state.queued_tasks() == 0 && s.state.running_tasks() == 0
    })
    .await;
    let (status, _) = spawn_hint(&s, &id, json!({"index": slow["index"], "agent": "greedy"}))
        .await
        .unwrap();
    assert_eq!(status, StatusCode::OK);
}

/// One keep-alive HTTP/1.1 connection to a server on a loopback port.
struct Client {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        let (sender, conn) = http1::handshake(TokioIo::new(stream)).await.unwrap();
        tokio::spawn(conn);
        Client { addr, sender }
    }

    /// A request with an optional seat token and JSON body; the status and the JSON answer.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, self.addr.to_string());
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let body = match body {
            Some(b) => {
                req = req.header(header::CONTENT_TYPE, "application/json");
                Full::new(Bytes::from(b.to_string()))
            }
            None => Full::new(Bytes::new()),
        };
        self.sender.ready().await.unwrap();
        let res = self.sender.send_request(req.body(body).unwrap()).await;
        let res = res.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Creates a game; its id, the token of each human seat and its state.
    async fn create(&mut self, body: Value) -> (String, [Option<String>; 2], Value) {
        let (status, created) = self.call("POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let token = |i: usize| created["seats"][i]["token"].as_str().map(str::to_string);
        let id = created["id"].as_str().unwrap().to_string();
        (id, [token(0), token(1)], created["state"].clone())
    }

    /// Plays the first legal action of `state` for the seat to move; the new state.
    async fn play_first(&mut self, id: &str, tokens: &[Option<String>; 2], state: &Value) -> Value {
        let seat = usize::from(state["turn"]["seat"] == state["seats"][1]["seat"]);
        let body = json!({"action": state["legal"][0]["action"], "index": state["index"]});
        let (status, next) = answer(self.call(
            "POST",
            &format!("/api/games/{id}/actions"),
            tokens[seat].as_deref(),
            Some(body),
        ))
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        next
    }
}

/// The number of times the answer to an action played at `state` asked the computer for a
/// decision: the runs of a computer seat's actions after the person's, each of which the server
/// queues as one task (a computer's turn is one task until the sticks are thrown again).
fn computer_turns(state: &Value, answer: &Value) -> usize {
    let computers: Vec<&Value> = answer["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["player"] != "human")
        .map(|s| &s["seat"])
        .collect();
    let played = state["index"].as_u64().unwrap();
    let mut runs = 0;
    let mut in_run = false;
    for a in answer["actions"].as_array().unwrap() {
        if a["index"].as_u64().unwrap() <= played {
            continue;
        }
        let computer = computers.contains(&&a["actor"]);
        if computer && !in_run {
            runs += 1;
        }
        in_run = computer;
    }
    runs
}

/// The number of `games` that, among their actions stored after the first `before`, made a
/// decision with a choice. A player plays a forced decision (one legal move) without
/// thinking, so only these took a worker's time.
fn chose(s: &Server, games: &[String], before: &[i64]) -> usize {
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    let chose_in = |id: &String, before: i64| {
        let ruleset: String = conn
            .query_row("SELECT ruleset FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap();
        let mut game = AnyGame::new(&ruleset.parse().unwrap());
        let mut rows = conn
            .prepare("SELECT action FROM actions WHERE game = ?1 ORDER BY idx")
            .unwrap();
        let texts: Vec<String> = rows
            .query_map([id], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut chose = false;
        for (i, text) in texts.iter().enumerate() {
            let state = game.state();
            let choice = state.turn().player().is_some() && state.legal_actions().1.len() > 1;
            chose |= choice && i as i64 >= before;
            let action = state.parse_action(text).unwrap();
            game.try_apply(action).unwrap();
        }
        chose
    };
    games
        .iter()
        .zip(before)
        .filter(|&(g, &b)| chose_in(g, b))
        .count()
}

/// The number of `games` with more actions stored than `before` says.
fn moved(s: &Server, games: &[String], before: &[i64]) -> usize {
    games
        .iter()
        .zip(before)
        .filter(|&(g, &b)| stored_actions(s, g) > b)
        .count()
}

#[tokio::test]
async fn a_flood_of_hints_does_not_hold_up_a_persons_moves() {
    // Hints of a second each, asked without pause by 24 clients over connections of their
    // own: the one worker is always busy with one, and 16 more wait in the queue.
    const HINT_MS: u64 = 1000;
    const FLOODERS: usize = 24;
    const QUEUED: usize = 16;
    let (_dir, addr, stop, _task) = serve_locally(Config {
        compute_workers: 1,
        compute_queue: QUEUED,
        hints_per_minute: 1_000_000,
        games_per_minute: 1_000_000,
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(addr).await;
    let (flooded, tokens, mut state) = client
        .create(json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true}))
        .await;
    // The flood asks at a decision with a choice, so that each hint has moves to weigh.
    while state["legal"].as_array().unwrap().len() < 2 {
        assert_eq!(state["turn"]["kind"], "player", "the game ended first");
        state = client.play_first(&flooded, &tokens, &state).await;
    }
    let body = json!({"index": state["index"], "agent": format!("mcts(time={HINT_MS})")});
    let answered = Arc::new(AtomicUsize::new(0));
    let flood: Vec<_> = (0..FLOODERS)
        .map(|_| {
            let (answered, body) = (answered.clone(), body.clone());
            let path = format!("/api/games/{flooded}/hint");
            tokio::spawn(async move {
                let mut c = Client::connect(addr).await;
                loop {
                    let (status, _) = c.call("POST", &path, None, Some(body.clone())).await;
                    match status {
                        StatusCode::OK => {
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        StatusCode::SERVICE_UNAVAILABLE => {
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                        other => panic!("a hint got {other}"),
                    }
                }
            })
        })
        .collect();
    // Once the first hint is answered, every flooder has asked: the queue is full.
    until("the flood never got going", || {
        answered.load(Ordering::Relaxed) > 0
    })
    .await;

    // The bounds count the hints answered while a person waits, not time. A move between
    // two people never goes through the queue: over six moves, the hint under way may end by
    // chance once, or twice on a machine slow enough to take a second over them; had each
    // move waited its turn in the queue, 16 hints would have been answered for each.
    let (people, tokens, mut state) = client
        .create(json!({"ruleset": "tab", "seats": ["human", "human"]}))
        .await;
    let before = answered.load(Ordering::Relaxed);
    for _ in 0..6 {
        assert_eq!(state["turn"]["kind"], "player", "the game ended first");
        state = client.play_first(&people, &tokens, &state).await;
    }
    let during = answered.load(Ordering::Relaxed) - before;
    assert!(
        during <= 2,
        "{during} hints were answered during six moves between people"
    );

    // Against the computer (a search of a fixed number of nodes), each decision the computer
    // is asked for goes before every waiting hint: it waits at most for the one under way.
    // One more may be counted late, from the answer before. In the queue's plain order each
    // would wait for all 16.
    let (against, tokens, mut state) = client
        .create(json!({"ruleset": "tab", "seats": ["human", "expectimax(level=2)"]}))
        .await;
    let mut replies = 0;
    while replies < 3 {
        assert_eq!(state["turn"]["kind"], "player", "the game ended first");
        let before = answered.load(Ordering::Relaxed);
        let next = client.play_first(&against, &tokens, &state).await;
        let during = answered.load(Ordering::Relaxed) - before;
        let asked = computer_turns(&state, &next);
        assert!(
            during <= asked + 1,
            "{during} hints were answered while the computer was asked {asked} times"
        );
        replies += usize::from(asked > 0);
        state = next;
    }
    // Hanging up cancels the hints queued and under way.
    for f in flood {
        f.abort();
        let ended = f.await.unwrap_err();
        assert!(ended.is_cancelled(), "a flooder failed: {ended}");
    }
    let _ = stop.send(());
}

#[tokio::test]
async fn a_persons_game_against_the_computer_goes_before_watched_games_between_computers() {
    // Each decision with a choice in the games between computers takes a second of thinking
    // (a forced one, none).
    const THINK_MS: u64 = 1000;
    const WATCHED: usize = 12;
    let s = Server::with(Config {
        compute_workers: 1,
        games_per_minute: 1_000_000,
        watch_window: Duration::from_secs(600),
        computer_pace: Duration::ZERO,
        ..Config::default()
    });
    let thinker = format!("mcts(time={THINK_MS})");
    let mut watched = Vec::new();
    for _ in 0..WATCHED {
        let (id, _, _) = s.create("tab", [&thinker, &thinker]).await;
        watched.push(id);
    }
    until("the games between computers never started", || {
        s.state.running_tasks() == 1
    })
    .await;
    let stored_before: Vec<i64> = watched.iter().map(|g| stored_actions(&s, g)).collect();
    let (id, tokens, created) = s.create("tab", ["human", "greedy"]).await;
    let token = tokens[0].as_deref().unwrap();
    let mut state = created["state"].clone();
    // A person against the computer: the answer lists the computer's decisions.
    let mut replies = 0;
    let mut most_queued = 0;
    while replies < 5 {
        assert!(state["turn"]["human"] == true, "the game ended first");
        let body = json!({"action": state["legal"][0]["action"], "index": state["index"]});
        let before: Vec<i64> = watched.iter().map(|g| stored_actions(&s, g)).collect();
        let (status, next) =
            answer(s.post(&format!("/api/games/{id}/actions"), Some(token), body)).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        // The bound counts decisions, not time. Each time the person's game asks the computer
        // for a decision, it goes before the moves of the games between computers: it waits
        // at most for the one under way. One more may be stored late, from the answer before.
        // Without the tiers it would wait for a move of each game watched. Forced decisions
        // of those games take no thinking and may slip in between, so they are not counted.
        let during = chose(&s, &watched, &before);
        let asked = computer_turns(&state, &next);
        assert!(
            during <= asked + 1,
            "{during} games between computers chose a move while the computer was asked {asked} times"
        );
        replies += usize::from(asked > 0);
        most_queued = most_queued.max(s.state.queued_tasks());
        state = next;
    }
    // The games between computers went on meanwhile, one at a time: at most one of their
    // moves waits in the queue (one worker), whatever the number of games watched.
    assert!(most_queued <= 1, "{most_queued} tasks queued");
    assert!(
        moved(&s, &watched, &stored_before) >= 1,
        "the games between computers stood still"
    );
}

#[tokio::test]
async fn only_active_games_stay_in_memory_and_others_come_back_from_the_database() {
    let s = Server::with(Config {
        games_in_memory: 5,
        ..Config::default()
    });
    let mut games = Vec::new();
    for _ in 0..20 {
        let (id, tokens, _) = s.create("tihbat", ["human", "human"]).await;
        games.push((id, tokens));
    }
    assert!(
        s.state.game_count() <= 5,
        "{} games in memory",
        s.state.game_count()
    );
    // The first game, long dropped from memory, is read back, and its seats still act.
    let (id, tokens) = &games[0];
    let played = s.play_first(id, tokens[0].as_deref().unwrap()).await;
    assert_eq!(played["index"], 1);
    let (_, view) = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["index"], 1);
    assert!(s.state.game_count() <= 5);
    let (status, body) = s.get("/api/games/0123456789abcdef").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "no game with id");
}

#[tokio::test]
async fn a_hint_thinking_for_a_client_that_hung_up_is_stopped() {
    // A hint given ten minutes: only its cancellation can end it within the patience of
    // `until`.
    let s = Arc::new(Server::with(Config {
        compute_workers: 1,
        max_think_ms: 600_000,
        ..Config::default()
    }));
    let (id, _, created) = s
        .create_with(json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true}))
        .await;
    let slow = json!({"index": created["state"]["index"], "agent": "mcts(time=600000)"});
    let request = spawn_hint(&s, &id, slow);
    until("the hint never started", || s.state.running_tasks() == 1).await;
    request.abort();
    let _ = request.await;
    until("the hint went on thinking", || s.state.running_tasks() == 0).await;
}

/// A server on a loopback port, stopped when dropped.
struct Served {
    _dir: tempfile::TempDir,
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn serve(config: Config) -> Served {
    let (dir, addr, stop, _task) = serve_locally(config).await;
    Served {
        _dir: dir,
        addr,
        _stop: stop,
    }
}

#[tokio::test]
async fn a_null_seat_is_the_strongest_player_the_server_allows() {
    let served = serve(Config::default()).await;
    let mut client = Client::connect(served.addr).await;
    // The solver is the strongest player of Tihbat, and the server solves it up to 20
    // counters a pit: above, a null seat is mcts, and the answer says so.
    for (ruleset, strongest) in [
        ("tihbat(seeds=3)", "solver"),
        ("tihbat(seeds=60)", "mcts"),
        // The solver cannot prove the values of this game: mcts plays it instead.
        ("tihbat(seeds=12,cycle=own-side)", "mcts"),
    ] {
        let encoded: String = ruleset
            .chars()
            .map(|c| match c {
                '(' | ')' | '=' | ',' => format!("%{:02X}", c as u32),
                c => c.to_string(),
            })
            .collect();
        let (status, info) = client
            .call("GET", &format!("/api/rulesets/{encoded}"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{ruleset}: {info}");
        if !ruleset.contains("own-side") {
            // The list tells by what a player costs; preparing shows the rest.
            assert_eq!(
                info["default_seats"],
                json!(["human", strongest]),
                "{ruleset}"
            );
        }
        let (id, _, state) = client
            .create(json!({"ruleset": ruleset, "seats": ["human", null]}))
            .await;
        assert_eq!(state["seats"][1]["player"], strongest, "{ruleset}: {state}");
        // A hint that names no player is asked of the same one.
        let (status, hint) = client
            .call(
                "POST",
                &format!("/api/games/{id}/hint"),
                None,
                Some(json!({"index": state["index"]})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{ruleset}: {hint}");
        assert_eq!(hint["agent"], strongest, "{ruleset}");
    }
    // The answer that creates a game names the player picked.
    let (status, created) = client
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"ruleset": "tihbat(seeds=60)", "seats": [null, "human"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["seats"][0]["player"], "mcts", "{created}");
}

#[tokio::test]
async fn a_hint_thinks_no_longer_than_the_time_per_move_whatever_its_budget() {
    // A million iterations on the largest board take many seconds (13 s on a test build);
    // the hint is stopped at the server's time per move and answers with what it found.
    let cap = Duration::from_millis(500);
    let served = serve(Config {
        compute_workers: 1,
        max_think_ms: 500,
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(served.addr).await;
    let (id, _, state) = client
        .create(json!({"ruleset": "tab(columns=29)", "seats": ["human", "human"], "hints": true}))
        .await;
    let started = Instant::now();
    let (status, hint) = client
        .call(
            "POST",
            &format!("/api/games/{id}/hint"),
            None,
            Some(json!({"index": state["index"], "agent": "mcts(iterations=1000000)"})),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert!(!hint["moves"].as_array().unwrap().is_empty(), "{hint}");
    // Generous for a loaded machine, and far below the search's own time.
    assert!(
        took < cap + Duration::from_secs(5),
        "the hint took {took:?}"
    );
}
