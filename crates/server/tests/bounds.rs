//! The work and memory a client can cause are bounded: computer work goes through a queue of
//! fixed size, games between computers advance only while watched, hints are a per-game
//! setting, and only active games stay in memory.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::*;
use qasab_server::Config;
use serde_json::{Value, json};
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
async fn players_above_the_per_move_limits_get_422_naming_the_limit() {
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

#[tokio::test]
async fn a_flood_of_hints_does_not_hold_up_a_persons_moves() {
    let s = Arc::new(Server::with(Config {
        compute_workers: 1,
        compute_queue: 64,
        ..Config::default()
    }));
    let (flooded, _, created) = s
        .create_with(json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true}))
        .await;
    let index = created["state"]["index"].clone();
    let flood: Vec<_> = (0..40)
        .map(|_| {
            spawn_hint(
                &s,
                &flooded,
                json!({"index": index, "agent": "mcts(time=400)"}),
            )
        })
        .collect();
    until("the flood never started", || s.state.running_tasks() == 1).await;
    let (id, tokens, _) = s.create("tihbat", ["human", "human"]).await;
    let mut slowest = Duration::ZERO;
    for _ in 0..30 {
        let (_, view) = s.get(&format!("/api/games/{id}")).await;
        if view["turn"]["kind"] == "over" {
            break;
        }
        let seat = usize::from(view["turn"]["seat"] == "north");
        let start = Instant::now();
        s.play_first(&id, tokens[seat].as_deref().unwrap()).await;
        slowest = slowest.max(start.elapsed());
    }
    assert!(
        s.state.queued_tasks() > 0,
        "the flood was over before the moves"
    );
    // Each move is one commit; with the thinking on its own worker, a move does not wait for
    // hints. (A bound loose enough for a loaded machine.)
    assert!(
        slowest < Duration::from_millis(1000),
        "a move took {slowest:?}"
    );
    for f in flood {
        f.abort();
    }
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
    let s = Arc::new(Server::with(Config {
        compute_workers: 1,
        ..Config::default()
    }));
    let (id, _, created) = s
        .create_with(json!({"ruleset": "tab", "seats": ["human", "human"], "hints": true}))
        .await;
    let slow = json!({"index": created["state"]["index"], "agent": "mcts(time=2000)"});
    let request = spawn_hint(&s, &id, slow);
    until("the hint never started", || s.state.running_tasks() == 1).await;
    request.abort();
    let _ = request.await;
    let hung_up = Instant::now();
    until("the hint went on thinking", || s.state.running_tasks() == 0).await;
    // Far less than the 2 s the search was given.
    assert!(
        hung_up.elapsed() < Duration::from_millis(1000),
        "{:?}",
        hung_up.elapsed()
    );
}
