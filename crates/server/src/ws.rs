//! `GET /api/games/{id}/ws`: a game's state pushed over a WebSocket after every change.
//!
//! The socket first gets `{"type":"state","state":...}` with the game's current view (the
//! answer of `GET /api/games/{id}`, with the last 100 actions), then the same after every
//! action, throw, computer move and undo, but with only the actions the socket has not sent
//! yet (`actions_from` says where they start; after an undo, below what the watcher had). A
//! socket that falls behind the game's broadcast channel just gets the current state, so it
//! never misses the last one. Messages from the client are ignored (actions go
//! through `POST .../actions`); pings are answered by the WebSocket layer.
//!
//! Each game takes at most [`crate::Config::sockets_per_game`] sockets at once; a place is
//! held by a [`Place`] guard, so every way a socket ends frees it.
//!
//! The server pings every socket ([`crate::Config::ws_ping_interval`]) and closes one from
//! which nothing, not even a pong, arrived within [`crate::Config::ws_idle_timeout`], so that
//! dead clients do not keep their places; a frame that the client does not take within that
//! time ends the socket too.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::rejection::PathRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Serialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::{Instant, MissedTickBehavior};
use utoipa::ToSchema;

use crate::answers::{Fault, NoGame};
use crate::config::LONGEST_TIMEOUT;
use crate::error::{AppError, ErrorBody};
use crate::extract::{GameId, game_id};
use crate::game::StateView;
use crate::state::{AppState, GameSlot};

/// A frame of the WebSocket at `/api/games/{id}/ws`: the game's state.
#[derive(Serialize, ToSchema)]
pub(crate) struct StateMessage {
    /// The kind of frame: always `state`.
    #[serde(rename = "type")]
    kind: MessageKind,
    /// The game's view, as `GET /api/games/{id}` answers it, but for its actions: the first
    /// frame has the last 100, each later one those the watcher has not had, from
    /// `actions_from` (the watcher keeps its actions below `actions_from` and replaces the
    /// rest).
    state: StateView,
}

/// The kinds of frame the WebSocket sends.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MessageKind {
    /// The game's state.
    State,
}

/// One open socket's place among a game's watchers, given back when dropped.
struct Place(Arc<GameSlot>);

impl Place {
    /// Takes a place if fewer than `limit` are taken.
    fn take(slot: Arc<GameSlot>, limit: usize) -> Option<Place> {
        slot.sockets
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()
            .map(|_| Place(slot))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Watch a game live over a WebSocket
///
/// A WebSocket upgrade (GET with 'Connection: Upgrade' and 'Upgrade: websocket'). Once
/// connected, the server sends a text frame {"type": "state", "state": GameState} with the
/// current state (the answer of GET /api/games/{id}, with the last 100 actions), then the same
/// after every change of the game (an action, a throw, a computer move, an undo) with only the
/// actions the watcher has not had yet: the watcher keeps its actions below the frame's
/// actions_from (lower than what it had after an undo) and appends the frame's. A watcher
/// that falls behind gets the current state. Messages from the client are ignored (actions go through POST
/// .../actions); pings are answered. The schema StateMessage describes the frames. No token is
/// needed.
#[utoipa::path(
    get,
    path = "/api/games/{id}/ws",
    operation_id = "watchGame",
    tag = "games",
    params(GameId),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol; the frames are StateMessage"),
        (status = 400, description = "Not a WebSocket upgrade request, or a game id that is not UTF-8 once percent-decoded", body = ErrorBody),
        NoGame,
        (status = 429, description = "The game already has as many live watchers as the server takes", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn watch(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
    let upgrade = upgrade.map_err(|e| {
        AppError::BadRequest(format!(
            "this path takes a WebSocket connection (a GET with Upgrade: websocket): {}",
            e.body_text()
        ))
    })?;
    let limit = state.config().sockets_per_game;
    let place = Place::take(slot, limit).ok_or_else(|| {
        AppError::TooManyRequests(format!(
            "this game already has {limit} live watchers, the most it takes; \
             try again later or poll GET /api/games/{{id}}"
        ))
    })?;
    let idle = Idle {
        timeout: state.config().ws_idle_timeout.min(LONGEST_TIMEOUT),
        // An interval cannot be zero.
        ping_every: (state.config().ws_ping_interval)
            .clamp(Duration::from_millis(1), LONGEST_TIMEOUT),
    };
    Ok(upgrade.on_upgrade(move |socket| send_updates(socket, place, idle)))
}

/// What a socket has sent of a game's log: its length then, and the game's version.
#[derive(Copy, Clone, PartialEq, Eq)]
struct Sent {
    /// The length of the log the watcher has.
    len: usize,
    /// The game's version ([`crate::game::Game::version`]) when it was sent.
    version: (usize, u64),
}

/// The text frame carrying the game's current state, with the actions the watcher has not
/// had (the last [`crate::game::VIEW_ACTIONS`] in the first frame), and what the watcher
/// then has; `None` if nothing changed since `sent`.
async fn state_message(slot: &GameSlot, sent: Option<Sent>) -> Option<(String, Sent)> {
    let game = slot.game.lock().await;
    let version = game.version();
    let view = match sent {
        None => game.view(),
        // Several changes may have been announced for one state already sent.
        Some(sent) if sent.version == version => return None,
        // The watcher's actions below the shortest length the log has had since are
        // still the game's.
        Some(sent) => game.view_from(sent.len.min(game.kept_since(sent.version.1))),
    };
    drop(game);
    let now = Sent {
        len: view.index,
        version,
    };
    // Through a JSON value, as the frame has always been built (its objects' keys sorted).
    let text = json!(StateMessage {
        kind: MessageKind::State,
        state: view,
    })
    .to_string();
    Some((text, now))
}

/// When a socket counts as dead: nothing from the client for `timeout`, although pinged
/// every `ping_every`.
#[derive(Clone, Copy)]
struct Idle {
    timeout: Duration,
    ping_every: Duration,
}

/// What woke the socket's loop.
enum Event {
    Changed,
    Closed,
    Ignored,
    Ping,
    Idle,
}

/// Sends a frame; false if it failed or the client took nothing for `limit`.
async fn send(socket: &mut WebSocket, message: Message, limit: Duration) -> bool {
    matches!(
        tokio::time::timeout(limit, socket.send(message)).await,
        Ok(Ok(()))
    )
}

/// Sends the state now and after every change, until the client leaves or falls silent.
async fn send_updates(mut socket: WebSocket, place: Place, idle: Idle) {
    let slot = &place.0;
    // Subscribed before the first state is read, so that no change falls between.
    let mut updates = slot.updates.subscribe();
    let mut sent = None;
    let mut event = Event::Changed;
    let mut pings = tokio::time::interval_at(Instant::now() + idle.ping_every, idle.ping_every);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let silence = tokio::time::sleep(idle.timeout);
    tokio::pin!(silence);
    loop {
        match event {
            Event::Changed => {
                if let Some((text, now)) = state_message(slot, sent).await {
                    if !send(&mut socket, Message::text(text), idle.timeout).await {
                        return;
                    }
                    sent = Some(now);
                }
            }
            Event::Ping => {
                if !send(&mut socket, Message::Ping(Default::default()), idle.timeout).await {
                    return;
                }
            }
            Event::Idle => {
                let close = CloseFrame {
                    code: close_code::AWAY,
                    reason: "nothing received within the idle timeout".into(),
                };
                send(&mut socket, Message::Close(Some(close)), idle.timeout).await;
                return;
            }
            Event::Closed => return,
            Event::Ignored => {}
        }
        event = tokio::select! {
            update = updates.recv() => match update {
                Ok(_) | Err(RecvError::Lagged(_)) => Event::Changed,
                Err(RecvError::Closed) => Event::Closed,
            },
            message = socket.recv() => match message {
                // Anything, a pong included, shows that the client is alive. After a close
                // frame, reading on sends the reply and then ends the stream.
                Some(Ok(_)) => {
                    silence.as_mut().reset(Instant::now() + idle.timeout);
                    Event::Ignored
                }
                Some(Err(_)) | None => Event::Closed,
            },
            _ = pings.tick() => Event::Ping,
            () = &mut silence => Event::Idle,
        };
    }
}
