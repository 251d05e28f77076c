//! The web page and the reads it needs beyond the game API: a past state of a game, and the
//! seat of a token.
//!
//! The page's files (`crates/server/web/`) are compiled into the binary and served with a
//! strict Content-Security-Policy: scripts, styles and images only from the server itself,
//! no inline script or style, connections only back to the server.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::api::game_id;
use crate::error::AppError;
use crate::game::{self, StateView};
use crate::{AppState, auth};

/// The page's Content-Security-Policy.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// One file of the page: its path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const INDEX: &str = include_str!("../web/index.html");

const ASSETS: &[Asset] = &[
    Asset {
        path: "/assets/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/app.js"),
    },
    Asset {
        path: "/assets/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/board.js"),
    },
    Asset {
        path: "/assets/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../web/style.css"),
    },
    Asset {
        path: "/assets/icon.svg",
        content_type: "image/svg+xml",
        body: include_str!("../web/icon.svg"),
    },
];

/// The routes of the page and of its extra reads, merged into the API's router.
pub(crate) fn routes() -> Router<AppState> {
    let mut router = Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/api/games/{id}/states/{index}", get(state_at))
        .route("/api/games/{id}/seat", get(seat));
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { serve(asset) }));
    }
    router
}

/// The headers every page file carries.
fn secured(content_type: &'static str, body: &'static str) -> Response {
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

fn serve(asset: &'static Asset) -> Response {
    secured(asset.content_type, asset.body)
}

/// The page: the same document for a new game and for a game; its script reads the path.
async fn index() -> Response {
    secured("text/html; charset=utf-8", INDEX)
}

/// `GET /api/games/{id}/states/{index}`: the view of the game as it was after its first
/// `index` actions, rebuilt by replaying them.
async fn state_at(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<StateView>, AppError> {
    let Path((id, index)) =
        path.map_err(|e| AppError::BadRequest(format!("bad path: {}", e.body_text())))?;
    let index: usize = index.parse().map_err(|_| {
        AppError::BadRequest(format!(
            "bad state index '{index}': expected a non-negative integer"
        ))
    })?;
    let slot = state.slot(&id)?;
    let (actions, current) = {
        let game = slot.game.lock().await;
        let view = game.view();
        if index == view.index {
            return Ok(Json(view));
        }
        (view.actions, view.index)
    };
    if index > current {
        return Err(AppError::NotFound(format!(
            "no state {index}: game '{id}' is at state {current}"
        )));
    }
    let row = slot.row.clone();
    let view = tokio::task::spawn_blocking(move || {
        let mut past = game::new_game(&row.ruleset, &row.seats, row.seed)?;
        for a in &actions[..index] {
            past.apply(&a.action)?;
        }
        Ok::<_, game::GameError>(past.view())
    })
    .await??;
    Ok(Json(view))
}

/// `GET /api/games/{id}/seat`: the seat of the token in `Authorization: Bearer`, so that a
/// page opened from a seat link knows which side it plays (and learns early that a token is
/// not a seat of the game).
async fn seat(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    let token = auth::bearer(&headers)?;
    let p = slot.seat_of(&token).ok_or_else(|| {
        AppError::Forbidden("the token is not the token of a seat of this game".into())
    })?;
    let names = slot.game.lock().await.seat_names();
    Ok(Json(
        json!({ "seat": names[p.index()], "index": p.index() }),
    ))
}
