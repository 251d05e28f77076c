//! What the handlers read from a request beyond axum's own extractors: a game's id in a path,
//! a JSON body whose rejections are the API's errors, the client's address, a state index.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use utoipa::IntoParams;

use crate::error::AppError;
use crate::state::AppState;

/// The `{id}` of a game's path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(
    dead_code,
    reason = "describes the parameter; the handlers read it as a string"
)]
pub(crate) struct GameId {
    /// The game id, as returned when the game was created.
    id: String,
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
/// (requests made in tests without a socket). `X-Forwarded-For` is read only from a peer
/// that is a trusted proxy ([`crate::proxy`]); from any other peer it is ignored.
pub(crate) struct ClientIp(pub(crate) IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(ClientIp(crate::proxy::client_addr(
            peer,
            &parts.headers,
            &state.config().trusted_proxies,
        )))
    }
}

pub(crate) fn game_id(path: Result<Path<String>, PathRejection>) -> Result<String, AppError> {
    path.map(|Path(id)| id)
        .map_err(|e| AppError::BadRequest(format!("bad game id: {}", e.body_text())))
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
