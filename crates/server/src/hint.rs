//! `POST /api/games/{id}/hint`: every legal move of the current decision, ranked by a player.
//!
//! Anyone who can watch a game can ask, so no token is needed, where the game's setting allows
//! hints (off by default between two people). Hints are limited per client address, and the
//! player runs under the same limits as a computer seat, in the server's bounded queue of
//! computer work ([`crate::compute`]), with the game unlocked: a full queue answers 503 with
//! `Retry-After`, and a hint whose client has gone is never computed, or stopped if it has
//! started. Whatever its budget, a hint's search is stopped after the server's time per move
//! (`--max-think-ms`) and ranks the moves by what it found by then.

use std::time::Duration;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::answers::{BadBodyOrGameId, BodyErrors, Fault, NoGame};
use crate::auth;
use crate::compute::Priority;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, ClientIp, GameId, game_id, state_index};
use crate::game::{HintView, Next};
use crate::state::{AppState, poisoned};

/// The body of a hint request.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HintRequest {
    /// The index of the state to rank the moves of (the game's `index`).
    #[serde(deserialize_with = "state_index")]
    index: usize,
    /// A computer player's spec; missing or null: the game's strongest player that the server
    /// can play (the answer's `agent` names it).
    #[serde(default)]
    #[schema(examples("solver", "mcts(level=2)", "greedy"))]
    agent: Option<String>,
}

impl AppState {
    /// Takes one hint from the budget of `client`.
    fn check_hint_rate(&self, client: std::net::IpAddr) -> Result<(), AppError> {
        let mut limiter = self.0.hint_limiter.lock().map_err(poisoned)?;
        if limiter.allow(client, std::time::Instant::now()) {
            Ok(())
        } else {
            Err(AppError::TooManyRequests(format!(
                "too many hints from this address: at most {} a minute",
                self.config().hints_per_minute
            )))
        }
    }
}

/// Every legal move of the current decision, ranked by a computer player
///
/// No token is needed: anyone who can watch the game can ask, if the game's `hints` setting is
/// on. The player runs under the same limits as a computer seat, in the server's queue of
/// computer work; when that queue is full the answer is 503 with Retry-After. Whatever its
/// budget, its search stops after the server's time per move, and the moves are ranked by
/// what it found by then.
#[utoipa::path(
    post,
    path = "/api/games/{id}/hint",
    operation_id = "getHint",
    tag = "games",
    params(GameId),
    request_body = HintRequest,
    responses(
        (status = 200, description = "The moves, best first", body = HintView),
        BadBodyOrGameId,
        (status = 403, description = "Hints are off in this game", body = ErrorBody),
        NoGame,
        BodyErrors,
        (status = 409, description = "A stale index, or no decision to rank (the sticks are thrown next, or the game is over)", body = ErrorBody),
        (status = 422, description = "A bad player spec, one above the server's limits, or a player that does not rank moves (random)", body = ErrorBody),
        (status = 429, description = "Too many hints from this address this minute", body = ErrorBody),
        (
            status = 503,
            description = "The server's computer players are busy",
            body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before asking again")),
        ),
        Fault,
    ),
)]
pub(crate) async fn hint(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    path: Result<Path<String>, PathRejection>,
    ApiJson(req): ApiJson<HintRequest>,
) -> Result<Json<HintView>, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
    state.check_hint_rate(ip)?;
    let job = {
        let game = slot.game.lock().await;
        if !game.hints() {
            return Err(AppError::Forbidden(
                "hints are off in this game (the default between two people; a game created \
                 with \"hints\": true allows them)"
                    .into(),
            ));
        }
        if req.index != game.index() {
            return Err(AppError::stale("hint", req.index, game.index()));
        }
        match game.next() {
            Next::Human(_) | Next::Computer(_) => {}
            Next::Chance => {
                return Err(AppError::Conflict(
                    "no decision to hint: the sticks are thrown next".into(),
                ));
            }
            Next::Over => {
                return Err(AppError::Conflict(
                    "no decision to hint: the game is over".into(),
                ));
            }
        }
        // A seed of its own: the game's secret seed seeds its computer seats' decisions (the
        // throws come from the operating system's random source) and is never shown.
        let seed = auth::new_seed().map_err(AppError::Internal)?;
        game.hint_job(req.agent.as_deref(), seed, state.limits())?
    };
    // Whatever its budget, a hint thinks no longer than a move may (`--max-think-ms`): its
    // search stops then and ranks the moves by what it found.
    let cap = Duration::from_millis(state.config().max_think_ms);
    // Dropped with this request, the pending hint is cancelled if it has not started.
    let pending = state
        .0
        .compute
        .submit_within(Priority::Optional, cap, job)
        .map_err(|full| {
            AppError::Busy(
                format!(
                    "the server's computer players are busy ({} tasks waiting); try again in \
                     {} s",
                    state.0.compute.max_queued(),
                    full.retry_after.as_secs().max(1)
                ),
                full.retry_after,
            )
        })?;
    let view = pending.await.map_err(AppError::internal)??;
    Ok(Json(view))
}
