//! `POST /api/games/{id}/hint`: every legal move of the current decision, ranked by a player.
//!
//! Anyone who can watch a game can ask, so no token is needed; hints are limited per client
//! address, and the player runs under the same limits as a computer seat, on the blocking
//! pool, with the game unlocked.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use serde::Deserialize;

use crate::api::{ApiJson, ClientIp, game_id, state_index};
use crate::error::AppError;
use crate::game::{HintView, Next};
use crate::{AppState, auth, poisoned};

/// The body of a hint request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HintRequest {
    #[serde(deserialize_with = "state_index")]
    index: usize,
    #[serde(default)]
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

pub(crate) async fn hint(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    path: Result<Path<String>, PathRejection>,
    ApiJson(req): ApiJson<HintRequest>,
) -> Result<Json<HintView>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    state.check_hint_rate(ip)?;
    let job = {
        let game = slot.game.lock().await;
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
        let spec = req.agent.unwrap_or_else(|| game.strongest().to_string());
        // A seed of its own: the game's seed decides the throws and is never shown.
        let seed = auth::new_seed().map_err(AppError::Internal)?;
        game.hint_job(&spec, seed)?
    };
    let view = tokio::task::spawn_blocking(job).await??;
    Ok(Json(view))
}
