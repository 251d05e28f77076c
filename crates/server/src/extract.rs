//! What the handlers read from a request beyond axum's own extractors: a game's id in a path,
//! a JSON body whose rejections are the API's errors, the client's address, a state index in
//! a body, and the counts written in paths and query strings, read strictly.

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

/// Reads a count or an index written in a path or a query string (`/states/12`,
/// `?from=100`): ASCII digits only, with no sign, space or leading zero (`0` is the one number
/// written with one), within `usize`. `None` for anything else: `+1`, `-0`, ` 1`, `01`, `1e3`.
pub(crate) fn strict_count(text: &str) -> Option<usize> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    text.parse().ok()
}

/// What a count must be, for the messages of those written otherwise.
pub(crate) const COUNT: &str =
    "a non-negative integer in digits alone (no sign, space or leading zero)";

/// Reads a query value with [`strict_count`].
pub(crate) fn query_count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let text = String::deserialize(d)?;
    strict_count(&text).ok_or_else(|| D::Error::custom(format!("'{text}' is not {COUNT}")))
}

/// Reads an optional query value with [`strict_count`] (missing: `None`, with
/// `#[serde(default)]`).
pub(crate) fn query_count_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    query_count(d).map(Some)
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

#[cfg(test)]
mod tests {
    use super::strict_count;

    #[test]
    fn counts_are_digits_alone_without_sign_space_or_leading_zero() {
        for (text, read) in [
            ("0", Some(0)),
            ("7", Some(7)),
            ("120", Some(120)),
            ("+1", None),
            ("-0", None),
            ("-1", None),
            (" 1", None),
            ("1 ", None),
            ("01", None),
            ("00", None),
            ("", None),
            ("1e3", None),
            ("1_000", None),
            ("\u{0661}", None),
            ("99999999999999999999999", None),
        ] {
            assert_eq!(strict_count(text), read, "{text:?}");
        }
    }
}
