//! The web page and the reads it needs beyond the game API: a past state of a game, and the
//! seat of a token.
//!
//! The page's files (`crates/server/web/`) are compiled into the binary and served with a
//! strict Content-Security-Policy: scripts, styles and images only from the server itself,
//! no inline script or style, connections only back to the server.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem};
use utoipa::openapi::{ContentBuilder, ObjectBuilder, ResponseBuilder, Type};
use utoipa::{IntoResponses, ToSchema};

use crate::answers::{BadGameId, Fault, NoGame, NoToken, NotASeat};
use crate::auth;
use crate::error::{AppError, ErrorBody};
use crate::extract::{COUNT, GameId, game_id, strict_count};
use crate::game::{self, StateView};
use crate::route::Route;
use crate::state::AppState;

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

/// A script of the page: an ES module, loaded by `index.html` (`app.js`) or imported by
/// another module.
macro_rules! script {
    ($name:literal) => {
        Asset {
            path: concat!("/assets/", $name),
            content_type: "text/javascript; charset=utf-8",
            body: include_str!(concat!("../web/", $name)),
        }
    };
}

const ASSETS: &[Asset] = &[
    script!("app.js"),
    script!("page.js"),
    script!("api.js"),
    script!("setup.js"),
    script!("variants.js"),
    script!("record.js"),
    script!("render.js"),
    script!("live.js"),
    script!("game.js"),
    script!("board.js"),
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

/// The routes of the page and of its extra reads, part of the server's list of routes.
pub(crate) fn routes() -> Vec<Route> {
    let mut routes = vec![
        Route::get("/", index),
        Route::get("/play/{id}", play),
        Route::get("/variants", variants_page),
        Route::get("/api/games/{id}/states/{index}", state_at),
        Route::get("/api/games/{id}/seat", seat),
    ];
    for asset in ASSETS {
        routes.push(Route::get(asset.path, move || async move { serve(asset) }));
    }
    routes
}

/// The OpenAPI description of the page's files, one operation for each entry of [`ASSETS`]
/// (the files have no handler of their own to describe them).
pub(crate) fn asset_paths() -> Vec<(&'static str, PathItem)> {
    ASSETS
        .iter()
        .map(|asset| {
            let name = asset.path.trim_start_matches("/assets/");
            // The media type without its parameters (`; charset=utf-8`).
            let media_type = asset.content_type.split(';').next().unwrap_or_default();
            let body = ObjectBuilder::new().schema_type(Type::String).build();
            let ok = ResponseBuilder::new()
                .description(format!("The file {name}"))
                .content(media_type, ContentBuilder::new().schema(Some(body)).build())
                .build();
            let operation = OperationBuilder::new()
                .operation_id(Some(format!("getAsset:{name}")))
                .summary(Some(format!("A file of the web page: {name}")))
                .tag("page")
                .response("200", ok)
                .build();
            (asset.path, PathItem::new(HttpMethod::Get, operation))
        })
        .collect()
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

/// The answer of the page's paths: the page.
#[derive(IntoResponses)]
#[response(status = 200, description = "The page", content_type = "text/html")]
#[allow(
    dead_code,
    reason = "describes the answer; the handlers build it with `secured`"
)]
pub(crate) struct Page(String);

/// The web page, at a new game
///
/// The page lets a person choose a ruleset and an opponent and start a game. It is the same
/// document as at /play/{id}; its script reads the path.
#[utoipa::path(
    get,
    path = "/",
    operation_id = "getPage",
    tag = "page",
    responses(Page)
)]
pub(crate) async fn index() -> Response {
    secured("text/html; charset=utf-8", INDEX)
}

/// The web page, at a game
///
/// The page draws the game and, with a seat's token after '#token=' in its link, plays that
/// seat. Any id is answered with the page, which reports an unknown game itself.
#[utoipa::path(
    get,
    path = "/play/{id}",
    operation_id = "getGamePage",
    tag = "page",
    params(GameId),
    responses(Page)
)]
pub(crate) async fn play() -> Response {
    index().await
}

/// The web page, at the studies of the rules' variants
///
/// The page lists the published studies (/api/variants): each with its charts and a table of
/// its variants, from which a game of any variant starts at one click.
#[utoipa::path(
    get,
    path = "/variants",
    operation_id = "getVariantsPage",
    tag = "page",
    responses(Page)
)]
pub(crate) async fn variants_page() -> Response {
    index().await
}

/// The game as it was at an earlier state, for stepping through its record
///
/// The view is rebuilt by replaying the game's first `index` actions. Its `legal` and
/// `can_undo` are those of that state, and nothing can be played in it.
#[utoipa::path(
    get,
    path = "/api/games/{id}/states/{index}",
    operation_id = "getStateAt",
    tag = "games",
    params(
        GameId,
        ("index" = usize, Path, description = "The state index: the number of actions played before it (0 = the start), in digits alone (no sign, space or leading zero)."),
    ),
    responses(
        (status = 200, description = "The view of the game after its first `index` actions", body = StateView),
        (status = 400, description = "The index is not a non-negative integer in digits alone (no sign, space or leading zero), or the id is not UTF-8 once percent-decoded", body = ErrorBody),
        (status = 404, description = "No game with this id, or an index past the game's current state", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn state_at(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<StateView>, AppError> {
    let Path((id, index)) =
        path.map_err(|e| AppError::BadRequest(format!("bad path: {}", e.body_text())))?;
    let index = strict_count(&index).ok_or_else(|| {
        AppError::BadRequest(format!("bad state index '{index}': expected {COUNT}"))
    })?;
    let slot = state.slot(&id).await?;
    let (actions, current) = {
        let game = slot.game.lock().await;
        if index == game.index() {
            return Ok(Json(game.view()));
        }
        (game.played(), game.index())
    };
    if index > current {
        return Err(AppError::NotFound(format!(
            "no state {index}: game '{id}' is at state {current}"
        )));
    }
    let row = slot.row.clone();
    let limits = state.limits().clone();
    let view = tokio::task::spawn_blocking(move || {
        let mut past = game::new_game(&row.ruleset, &row.seats, row.seed, &limits)?;
        past.set_hints(row.hints);
        // Each was legal at its point when the game played it, so it is replayed unchecked.
        for &a in &actions[..index] {
            past.play(a)?;
        }
        Ok::<_, game::GameError>(past.view())
    })
    .await??;
    Ok(Json(view))
}

/// The seat of a token.
#[derive(Serialize, ToSchema)]
pub(crate) struct TokenSeat {
    /// The seat's name.
    seat: &'static str,
    /// The seat's position in seat order.
    #[schema(maximum = 1)]
    index: usize,
}

/// The seat of the token sent in the Authorization header
///
/// A page opened from a seat link asks it to know which side it plays, and to learn early
/// that a token is not a seat of the game.
#[utoipa::path(
    get,
    path = "/api/games/{id}/seat",
    operation_id = "getSeat",
    tag = "games",
    params(GameId),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "The token's seat", body = TokenSeat),
        BadGameId,
        NoToken,
        NotASeat,
        NoGame,
        Fault,
    ),
)]
pub(crate) async fn seat(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
    let token = auth::bearer(&headers)?;
    let p = slot.seat_of(&token).ok_or_else(|| {
        AppError::Forbidden("the token is not the token of a seat of this game".into())
    })?;
    let names = slot.game.lock().await.seat_names();
    // Through a JSON value, as the answer has always been built (its keys sorted).
    Ok(Json(json!(TokenSeat {
        seat: names[p.index()],
        index: p.index(),
    })))
}
