//! The HTTP routes and their handlers.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::OnceLock;

use axum::extract::rejection::PathRejection;
use axum::extract::{
    ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request, State,
};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use qasab_ai::agent::{AGENT_NAMES, Playable, PreparedAgent};
use qasab_core::{AnyRuleset, Player, Ruleset, with_ruleset};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

use crate::error::AppError;
use crate::game::{LegalView, Next, StateView};
use crate::{AppState, CreatedGame, auth};

/// The router of the whole API, with its body limit.
pub fn app(state: AppState) -> Router {
    let limit = state.config().body_limit;
    Router::new()
        .route("/api/rulesets", get(rulesets))
        .route("/api/openapi.json", get(openapi))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/ws", get(crate::ws::watch))
        .route("/api/games/{id}/hint", post(crate::hint::hint))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/record", get(record))
        .merge(crate::web::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state)
}

/// A JSON body whose rejections are [`AppError`]s with JSON bodies.
pub(crate) struct ApiJson<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}

/// The client's IP address: the peer of the connection, or `0.0.0.0` when there is none
/// (requests made in tests without a socket). Forwarding headers are not trusted: the server
/// binds the loopback by default and is not meant to sit behind a proxy.
pub(crate) struct ClientIp(pub(crate) IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

pub(crate) fn game_id(path: Result<Path<String>, PathRejection>) -> Result<String, AppError> {
    path.map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("bad game id: {}", e.body_text())))
}

/// Runs a change of a game in a task of its own, so that it completes even if the client
/// hangs up before the answer.
async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, AppError>> + Send + 'static,
) -> Result<T, AppError> {
    tokio::spawn(work).await?
}

async fn not_found() -> AppError {
    AppError::NotFound("no such path; the API is described at /api/openapi.json".into())
}

async fn method_not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        Json(json!({"error": "this method is not allowed on this path; see /api/openapi.json"})),
    )
        .into_response()
}

async fn openapi() -> Json<Value> {
    Json(crate::openapi::document())
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    ruleset: String,
    #[serde(default)]
    seats: Option<[String; 2]>,
}

async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    state.check_rate(ip)?;
    let created =
        detached(async move { state.create(req.ruleset, req.seats, Vec::new()).await }).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `POST /api/games/import`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    record: String,
    #[serde(default)]
    seats: Option<[String; 2]>,
}

async fn import(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    state.check_rate(ip)?;
    let text = req.record;
    let (ruleset, actions) =
        tokio::task::spawn_blocking(move || crate::game::read_record(&text)).await??;
    let seats = req
        .seats
        .unwrap_or_else(|| ["human".to_string(), "human".to_string()]);
    let created =
        detached(async move { state.create(ruleset, Some(seats), actions).await }).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn get_game(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<StateView>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    let view = slot.game.lock().await.view();
    Ok(Json(view))
}

async fn legal(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<LegalView>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    let view = slot.game.lock().await.legal();
    Ok(Json(view))
}

async fn record(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, AppError> {
    let id = game_id(path)?;
    let slot = state.slot(&id)?;
    let text = slot.game.lock().await.record();
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"qasab-{id}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `POST /api/games/{id}/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest {
    action: String,
    #[serde(deserialize_with = "state_index")]
    index: usize,
}

/// Reads a state index: a non-negative JSON integer, also when written `3.0` (JSON Schema
/// counts that as an integer, and the API follows its own schema).
pub(crate) fn state_index<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    n.as_u64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && (0.0..1e18).contains(f))
                .map(|f| f as u64)
        })
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer, got {n}")))
}

async fn act(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ActionRequest>,
) -> Result<Json<StateView>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    let token = auth::bearer(&headers)?;
    let seat = slot.seat_of(&token).ok_or_else(|| {
        AppError::Forbidden("the token is not the token of a seat of this game".into())
    })?;
    let view = detached(async move {
        {
            let mut game = slot.game.lock().await;
            let names = game.seat_names();
            if req.index != game.index() {
                return Err(AppError::stale("action", req.index, game.index()));
            }
            match game.next() {
                Next::Human(p) if p == seat => {}
                Next::Human(p) => {
                    return Err(AppError::Forbidden(format!(
                        "{} is to move, and this token is {}'s",
                        names[p.index()],
                        names[seat.index()]
                    )));
                }
                Next::Computer(p) => {
                    return Err(AppError::Conflict(format!(
                        "{} (the computer) is to move; wait for its move",
                        names[p.index()]
                    )));
                }
                Next::Chance => {
                    return Err(AppError::Conflict(
                        "the sticks are being thrown; wait for the throw".into(),
                    ));
                }
                // The core explains that the game is over.
                Next::Over => {}
            }
            state.commit(&slot, &mut game, &req.action).await?;
        }
        state.advance(&slot).await?;
        let view = slot.game.lock().await.view();
        Ok(view)
    })
    .await?;
    Ok(Json(view))
}

async fn undo(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<StateView>, AppError> {
    let slot = state.slot(&game_id(path)?)?;
    let token = auth::bearer(&headers)?;
    slot.seat_of(&token).ok_or_else(|| {
        AppError::Forbidden("the token is not the token of a seat of this game".into())
    })?;
    let view = detached(async move {
        let mut game = slot.game.lock().await;
        if !game.against_computer() {
            return Err(AppError::Unprocessable(
                "undo is only available in a game of a person against the computer".into(),
            ));
        }
        let Some(len) = game.undo_point() else {
            return Err(AppError::Conflict(
                "nothing to undo: no move of yours has been played".into(),
            ));
        };
        let id = slot.row.id.clone();
        state.db(move |s| s.truncate_actions(&id, len)).await?;
        game.truncate(len);
        slot.changed(len);
        Ok(game.view())
    })
    .await?;
    Ok(Json(view))
}

async fn rulesets() -> Json<Value> {
    static RULESETS: OnceLock<Value> = OnceLock::new();
    Json(
        RULESETS
            .get_or_init(|| {
                Value::Array(
                    AnyRuleset::presets()
                        .iter()
                        .map(|any| with_ruleset!(any, r => ruleset_info(r)))
                        .collect(),
                )
            })
            .clone(),
    )
}

/// A preset with its options, seats and the players it offers.
fn ruleset_info<R: Ruleset>(rules: &R) -> Value
where
    R::State: Playable,
{
    let players: Vec<&str> = std::iter::once("human")
        .chain(
            AGENT_NAMES
                .iter()
                .copied()
                .filter(|name| PreparedAgent::<R::State>::new(name, rules).is_ok()),
        )
        .collect();
    json!({
        "name": rules.name(),
        "title": rules.title(),
        "seats": Player::ALL.map(|p| rules.seat_name(p)),
        "players": players,
        "default_seats": ["human", <R::State as Playable>::strongest_agent()],
        "options": R::options().iter().map(|o| json!({
            "key": o.key,
            "values": o.values,
            "default": rules.default_value(o.key),
            "help": o.help,
            "rules": o.rules,
        })).collect::<Vec<_>>(),
        "rules": rules.rules_text(),
    })
}
