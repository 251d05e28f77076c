//! The published studies of the rules' variants: what `qasab study` wrote for each study
//! under `docs/variants/` (its `results.json`, SVG charts and `report.html`), with the index
//! of the studies, `docs/variants/index.json`.
//!
//! The studies are read from the directory compiled into the binary (by the crate's build
//! script), or from the one [`Config::variants`](crate::Config) names (`qasab serve --variants
//! DIR`), read afresh at each request.
//!
//! A study is served only if the index lists it, and a file only if it is a chart (`.svg`) or
//! the report.

use std::borrow::Cow;
use std::collections::BTreeMap;

use anyhow::Context;
use axum::Json;
use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::answers::Fault;
use crate::error::{AppError, ErrorBody};
use crate::route::Route;
use crate::state::AppState;
use crate::studies::{Source, Study, safe};

pub use crate::studies::check_dir;

/// The Content-Security-Policy of a study's charts and report: no script at all, styles and
/// images only from the file itself or the server (a generated chart or report carries its
/// styles inline), no framing.
pub const STUDY_CSP: &str = "default-src 'none'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The routes of the studies, part of the server's list of routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        Route::get("/api/variants", index),
        Route::get("/api/variants/{id}", results),
        Route::get("/variants/{id}/{file}", file),
    ]
}

/// A study's results, as `qasab study` writes them (`results.json`). Served as written: the
/// fields described here are those a reader relies on, and others may appear.
#[derive(ToSchema)]
#[schema(as = StudyResults)]
#[allow(
    dead_code,
    reason = "describes the answer, which is served as the file holds it"
)]
pub(crate) struct ResultsDoc {
    /// The command that produced the study.
    command: Option<String>,
    /// The preset the variants are taken from.
    base: Option<String>,
    /// The options varied.
    varied: Option<Vec<String>>,
    /// The player spec of each seat.
    players: Option<Vec<String>>,
    /// Games played per variant (0 when the study only solves).
    games: Option<u64>,
    /// The seed of the games.
    seed: Option<u64>,
    /// Each variant's results.
    variants: Vec<VariantDoc>,
}

/// One variant's results in a study.
#[derive(ToSchema)]
#[schema(as = VariantResult)]
#[allow(
    dead_code,
    reason = "describes the answer, which is served as the file holds it"
)]
pub(crate) struct VariantDoc {
    /// The variant's ruleset string, as `POST /api/games` takes it.
    ruleset: String,
    /// The options that set the variant apart, in words (`reduction=off`).
    label: String,
    /// The value of each varied option.
    values: Option<BTreeMap<String, Value>>,
    /// The seats, in seat order.
    seats: Option<Vec<String>>,
    /// Games played.
    games: Option<u64>,
    /// Games won by each seat.
    wins: Option<Vec<u64>>,
    /// Games drawn.
    draws: Option<u64>,
    /// Games stopped by a cap.
    timeouts: Option<u64>,
    /// Each seat's rate of wins, with its 95% interval.
    win_rates: Option<Vec<Estimate>>,
    /// Measures of the games by name (`Balance`, `Completion`, `DurationTurns`,
    /// `DecisionMoves`, `SkillGap`, ...); a measure that does not apply is left out.
    metrics: Option<BTreeMap<String, Estimate>>,
    /// The lengths of the games in turns: quantiles, mean and standard deviation.
    lengths: Option<BTreeMap<String, Option<f64>>>,
    /// The strong player's score against the weak one, where the study measured it.
    skill: Option<Value>,
    /// The exact value of the start (`{"value": -2}`), or why it was not solved
    /// (`{"error": "..."}`), where the study solved it.
    solver: Option<Value>,
}

/// A measured value with its 95% interval.
#[derive(ToSchema)]
#[schema(as = StudyEstimate)]
#[allow(
    dead_code,
    reason = "describes the answer, which is served as the file holds it"
)]
pub(crate) struct Estimate {
    /// The value.
    value: Option<f64>,
    /// Its 95% interval, low and high.
    ci95: Option<[f64; 2]>,
}

/// The `{id}` of a study's path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(
    dead_code,
    reason = "describes the parameter; the handlers read it as a string"
)]
pub(crate) struct StudyId {
    /// The study's id, as the index lists it.
    id: String,
}

/// The `{id}` and `{file}` of a study's file.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(
    dead_code,
    reason = "describes the parameters; the handler reads them as strings"
)]
pub(crate) struct StudyFile {
    /// The study's id, as the index lists it.
    id: String,
    /// A chart's file (`win-rates.svg`) or `report.html`.
    file: String,
}

fn bad_path(e: &PathRejection) -> AppError {
    AppError::BadRequest(format!("bad path: {}", e.body_text()))
}

/// The published studies of the rules' variants
///
/// Each study played many games under each variant of a ruleset (`qasab study`); its results
/// are at /api/variants/{id}, its charts and report under /variants/{id}/.
#[utoipa::path(
    get,
    path = "/api/variants",
    operation_id = "getVariantStudies",
    tag = "variants",
    responses(
        (status = 200, description = "Every published study, in the order to show them", body = Vec<Study>),
        Fault,
    ),
)]
pub(crate) async fn index(State(state): State<AppState>) -> Result<Json<Vec<Study>>, AppError> {
    Ok(Json(Source::of(state.config()).index().await?))
}

/// A study's results
///
/// The study's `results.json` as `qasab study` wrote it: the command, and for each variant its
/// ruleset, games, seat win rates and measures, each with its 95% interval where it has one.
#[utoipa::path(
    get,
    path = "/api/variants/{id}",
    operation_id = "getVariantStudy",
    tag = "variants",
    params(StudyId),
    responses(
        (status = 200, description = "The study's results", body = ResultsDoc),
        (status = 400, description = "An id that is not UTF-8 once percent-decoded", body = ErrorBody),
        (status = 404, description = "No study with this id", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn results(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, AppError> {
    let Path(id) = path.map_err(|e| bad_path(&e))?;
    let source = Source::of(state.config());
    let study = source.study(&id).await?;
    let bytes = source
        .read(&format!("{}/results.json", study.id))
        .await
        .ok_or_else(|| {
            AppError::NotFound(format!(
                "study '{}' is in the index but has no results.json",
                study.id
            ))
        })?;
    let results: Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("the results of study '{}'", study.id))
        .map_err(AppError::Internal)?;
    Ok(Json(results))
}

/// A study's chart or report
///
/// A chart (an SVG file) or the study's report (`report.html`), as `qasab study` wrote them.
/// Any other file is 404.
#[utoipa::path(
    get,
    path = "/variants/{id}/{file}",
    operation_id = "getVariantStudyFile",
    tag = "variants",
    params(StudyFile),
    responses(
        (
            status = 200,
            description = "The chart (image/svg+xml) or the report (text/html)",
            content(
                (String = "image/svg+xml"),
                (String = "text/html"),
            ),
        ),
        (status = 400, description = "A path that is not valid", body = ErrorBody),
        (status = 404, description = "No such study, or no such chart or report in it", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn file(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, AppError> {
    let Path((id, name)) = path.map_err(|e| bad_path(&e))?;
    let source = Source::of(state.config());
    let study = source.study(&id).await?;
    let missing = || AppError::NotFound(format!("no file '{name}' in study '{id}'"));
    let content_type = if name == "report.html" {
        "text/html; charset=utf-8"
    } else if name.ends_with(".svg") && safe(&name) {
        "image/svg+xml"
    } else {
        return Err(missing());
    };
    let bytes = source
        .read(&format!("{}/{name}", study.id))
        .await
        .ok_or_else(missing)?;
    let mut res = match bytes {
        Cow::Borrowed(b) => Body::from(b),
        Cow::Owned(v) => Body::from(v),
    }
    .into_response();
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(STUDY_CSP));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(source.cache_control()),
    );
    Ok(res)
}
