//! The API's errors: each becomes a status and a JSON body `{"error": "..."}`.
//!
//! Errors a client caused carry a message that names the problem, reusing the core's text
//! (an illegal move says why it is illegal). Internal errors are logged to stderr and answered
//! with a generic 500, so that no detail of the server leaks to a client.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::game::GameError;

/// The body of every error answer: what is wrong, in words.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What is wrong: the core's own message for a rule, or a generic one for a fault of the
    /// server.
    pub error: String,
}

/// An error answer of the API.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed (not JSON, wrong fields).
    #[error("{0}")]
    BadRequest(String),
    /// 401: the request needs a seat token and has none.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: the token is not one of this game's seats, or not the seat to move.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such game or path.
    #[error("{0}")]
    NotFound(String),
    /// 408: the request body did not arrive within the body timeout.
    #[error("{0}")]
    RequestTimeout(String),
    /// 409: the action was made against an older state, or nothing can be undone.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is larger than the limit.
    #[error("{0}")]
    TooLarge(String),
    /// 415: the body is not declared as JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: well-formed, but the ruleset, player, action or record is not valid.
    #[error("{0}")]
    Unprocessable(String),
    /// 429: too many games created from this address.
    #[error("{0}")]
    TooManyRequests(String),
    /// 503: the server's computer players are busy; try again after the duration (sent as
    /// `Retry-After`, in whole seconds).
    #[error("{0}")]
    Busy(String, std::time::Duration),
    /// 500: a fault of the server; the detail is logged, not sent.
    #[error("internal error: {0:#}")]
    Internal(anyhow::Error),
}

impl AppError {
    /// 409 for a request (`what`: an action, a hint) made against state `asked` of a game that
    /// is now at state `now`.
    pub fn stale(what: &str, asked: usize, now: usize) -> AppError {
        AppError::Conflict(format!(
            "stale {what}: it was made against state {asked}, but the game is at state {now}; \
             reload the game"
        ))
    }

    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Busy(..) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// An internal error from anything that can be one.
    pub fn internal(e: impl Into<anyhow::Error>) -> AppError {
        AppError::Internal(e.into())
    }
}

impl From<GameError> for AppError {
    fn from(e: GameError) -> AppError {
        AppError::Unprocessable(e.to_string())
    }
}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> AppError {
        AppError::Internal(e.into())
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(e: tokio::task::JoinError) -> AppError {
        AppError::Internal(e.into())
    }
}

/// Whether reading the body failed because it did not arrive in time (the body deadline of
/// [`crate::app`]).
fn timed_out(rejection: &JsonRejection) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(e) = cause {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

impl From<JsonRejection> for AppError {
    fn from(r: JsonRejection) -> AppError {
        if timed_out(&r) {
            return AppError::RequestTimeout(
                "the request body did not arrive in time: nothing of it came within the \
                 server's read timeout, or not all of it within its body timeout"
                    .into(),
            );
        }
        let text = r.body_text();
        match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge(format!(
                "the request body is too large: {}",
                text.trim_start_matches("Failed to buffer the request body: ")
            )),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::UnsupportedMediaType(
                "the request body must be JSON, with the header Content-Type: application/json"
                    .into(),
            ),
            _ => AppError::BadRequest(format!("malformed JSON body: {text}")),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            AppError::Internal(e) => {
                eprintln!("qasab serve: internal error: {e:#}");
                "internal server error".to_string()
            }
            other => other.to_string(),
        };
        let mut response = (status, Json(ErrorBody { error: message })).into_response();
        if let AppError::Busy(_, after) = &self {
            let secs = after.as_secs().max(1).to_string();
            if let Ok(value) = axum::http::HeaderValue::from_str(&secs) {
                response
                    .headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, value);
            }
        }
        response
    }
}
