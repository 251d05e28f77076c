//! The error answers that many routes share, each described once for the handlers'
//! `responses(...)` in the OpenAPI document (`#[utoipa::path]`). They only describe: the
//! handlers answer [`AppError`](crate::error::AppError)s, and each route's own error answers
//! are written out at its handler.
#![allow(
    dead_code,
    reason = "the types describe answers; nothing constructs them"
)]

use utoipa::IntoResponses;

use crate::error::ErrorBody;

/// 500, which every route that can fail may answer.
#[derive(IntoResponses)]
#[response(
    status = 500,
    description = "A fault of the server (logged; the body says no more)"
)]
pub(crate) struct Fault(ErrorBody);

/// 400 for a route whose only input is the game id of its path.
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "A game id that is not UTF-8 once percent-decoded (an id that names no game is 404)"
)]
pub(crate) struct BadGameId(ErrorBody);

/// 400 for a route that reads a JSON body and the game id of its path.
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "Malformed JSON, missing or unknown fields, or a game id that is not UTF-8 once percent-decoded"
)]
pub(crate) struct BadBodyOrGameId(ErrorBody);

/// 401 for a route that acts for a seat.
#[derive(IntoResponses)]
#[response(status = 401, description = "No seat token")]
pub(crate) struct NoToken(ErrorBody);

/// 403 for a route that acts for a seat.
#[derive(IntoResponses)]
#[response(status = 403, description = "The token is not a seat of this game")]
pub(crate) struct NotASeat(ErrorBody);

/// 404 for a route about a game.
#[derive(IntoResponses)]
#[response(status = 404, description = "No game with this id")]
pub(crate) struct NoGame(ErrorBody);

/// The answers of a route that reads a JSON body when the body is at fault.
#[derive(IntoResponses)]
pub(crate) enum BodyErrors {
    #[response(
        status = 408,
        description = "The body did not arrive within the body timeout"
    )]
    Timeout(ErrorBody),
    #[response(status = 413, description = "The body is larger than the limit")]
    TooLarge(ErrorBody),
    #[response(status = 415, description = "The body is not declared as JSON")]
    NotJson(ErrorBody),
}
