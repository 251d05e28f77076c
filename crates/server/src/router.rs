//! The router: every route of the server is an entry of one list ([`routes`]), and the router
//! is built from it alone, so that the tests can check the OpenAPI document
//! ([`crate::openapi`]) against it. Each handler carries its own description
//! (`#[utoipa::path]`): its path, parameters, body and every status it answers.

use axum::body::HttpBody;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{
    CONNECTION, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{RequestBodyDeadlineLayer, RequestBodyTimeoutLayer};

use crate::config::LONGEST_TIMEOUT;
use crate::error::{AppError, ErrorBody};
use crate::route::Route;
use crate::state::AppState;
use crate::{api, hint, openapi, variants, web, ws};

/// Every route of the server. The router serves these and nothing else (any other path gets
/// 404, any other method 405), so that the tests can check the OpenAPI document against it.
fn table() -> Vec<Route> {
    let mut routes = vec![
        Route::get("/api/rulesets", api::rulesets),
        Route::get("/api/rulesets/{ruleset}", api::ruleset),
        Route::get("/api/players", api::players),
        Route::get("/api/openapi.json", openapi::openapi),
        Route::post("/api/games", api::create),
        Route::post("/api/games/import", api::import),
        Route::get("/api/games/{id}", api::get_game),
        Route::get("/api/games/{id}/legal", api::legal),
        Route::get("/api/games/{id}/ws", ws::watch),
        Route::post("/api/games/{id}/hint", hint::hint),
        Route::post("/api/games/{id}/actions", api::act),
        Route::get("/api/games/{id}/actions", api::actions),
        Route::post("/api/games/{id}/undo", api::undo),
        Route::get("/api/games/{id}/record", api::record),
    ];
    routes.extend(variants::routes());
    routes.extend(web::routes());
    routes
}

/// The method and path of every route the server serves, as the router matches them
/// (`/api/games/{id}`). A `GET` route also answers `HEAD`.
pub fn routes() -> Vec<(Method, &'static str)> {
    table().into_iter().map(|r| (r.method, r.path)).collect()
}

/// The Content-Security-Policy of every answer that sets none of its own (all but the web
/// page's): nothing may be loaded from it, and no page may frame it.
pub(crate) const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// The headers that every answer carries unless its handler set them: no content sniffing,
/// no referrer, no framing, and [`API_CSP`].
pub(crate) const SECURITY_HEADERS: [(HeaderName, &str); 4] = [
    (X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (REFERRER_POLICY, "no-referrer"),
    (X_FRAME_OPTIONS, "DENY"),
    (CONTENT_SECURITY_POLICY, API_CSP),
];

/// The router of the whole API, with its body limit, its body timeouts and the security
/// headers of every answer.
pub fn app(state: AppState) -> Router {
    let limit = state.config().body_limit;
    let body_timeout = state.config().body_timeout.min(LONGEST_TIMEOUT);
    let read_timeout = state.config().header_timeout.min(LONGEST_TIMEOUT);
    let router = table()
        .into_iter()
        .fold(Router::new(), |router, r| router.route(r.path, r.handler))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        // A body that has not arrived in time fails to read (408, see `AppError`): all of it
        // within the body timeout, and never nothing for as long as a request's headers may
        // take.
        .layer(RequestBodyDeadlineLayer::new(body_timeout))
        .layer(RequestBodyTimeoutLayer::new(read_timeout))
        // Before anything waits for a body, one declared over the limit is refused.
        .layer(middleware::from_fn_with_state(
            limit,
            refuse_declared_over_limit,
        ));
    SECURITY_HEADERS
        .into_iter()
        .fold(router, |router, (name, value)| {
            router.layer(SetResponseHeaderLayer::if_not_present(
                name,
                HeaderValue::from_static(value),
            ))
        })
        .with_state(state)
}

/// Answers 413 at once to a request whose declared body (`Content-Length`) is over `limit`,
/// and closes the connection, rather than wait for a body that would be refused. A body of
/// undeclared length (chunked) is cut off at the limit as it is read.
async fn refuse_declared_over_limit(
    State(limit): State<usize>,
    req: Request,
    next: Next,
) -> Response {
    let declared = req.body().size_hint().lower();
    if declared <= limit as u64 {
        return next.run(req).await;
    }
    let mut res = AppError::TooLarge(format!(
        "the request body is too large: {declared} bytes declared, and the limit is {limit} \
         bytes"
    ))
    .into_response();
    res.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    res
}

async fn not_found() -> AppError {
    AppError::NotFound("no such path; the API is described at /api/openapi.json".into())
}

async fn method_not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        Json(ErrorBody {
            error: "this method is not allowed on this path; see /api/openapi.json".into(),
        }),
    )
        .into_response()
}
