//! The OpenAPI 3.1 document of the API, served at `GET /api/openapi.json`.
//!
//! Generated with `utoipa` from the code it describes: each handler's `#[utoipa::path]` gives
//! its path, parameters, body and every status it answers, and the request and response types
//! derive their schemas (`ToSchema`), field docs included, so a changed view changes its
//! schema. This module only gathers them, and adds what no single handler owns: the seat token
//! scheme, the links from a created game to the operations on it, and the page's files. The
//! tests check the document against the router's list of routes ([`crate::routes`]).

use std::sync::OnceLock;

use axum::Json;
use serde_json::{Value, json};
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr};
use utoipa::{Modify, OpenApi};

use crate::error::ErrorBody;
use crate::{api, hint, variants, web, ws};

/// The document's base, from the handlers and types of the crate.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Qasab",
        description = "Play Tâb and Tihbat against the computer or another person. Rules are \
            decided by the Qasab core; the server stores every accepted action in SQLite before \
            it answers. Actions are written in the game's notation (docs/notation.md). A seat \
            acts with its token in the header 'Authorization: Bearer TOKEN'; reading a game \
            needs no token."
    ),
    paths(
        api::rulesets,
        api::ruleset,
        api::players,
        openapi,
        api::create,
        api::import,
        api::get_game,
        api::legal,
        api::act,
        api::actions,
        api::undo,
        api::record,
        ws::watch,
        hint::hint,
        web::state_at,
        web::seat,
        web::index,
        web::play,
        web::variants_page,
        variants::index,
        variants::results,
        variants::file,
    ),
    // The error body is named by the shared error answers (`crate::answers`), which do not
    // register the schemas they name.
    components(schemas(ws::StateMessage, ErrorBody)),
    modifiers(&SeatToken, &GameLinks, &PageFiles),
    tags(
        (name = "games", description = "Games: create, read, play, watch"),
        (name = "meta", description = "The rulesets, the players and this document"),
        (name = "variants", description = "The published studies of the rules' variants"),
        (name = "page", description = "The web page for people and its files"),
    ),
)]
struct ApiDoc;

/// The security scheme of the routes that act for a seat.
struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, doc: &mut Document) {
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "The token of a human seat, returned when the game was created.",
            ))
            .build();
        doc.components
            .get_or_insert_with(Default::default)
            .add_security_scheme("seatToken", SecurityScheme::Http(scheme));
    }
}

/// Links from a created game (the 201 answers) to the operations on it by its id, for tools
/// that follow them from one request to the next.
struct GameLinks;

impl Modify for GameLinks {
    fn modify(&self, doc: &mut Document) {
        for path in ["/api/games", "/api/games/import"] {
            let created = doc
                .paths
                .paths
                .get_mut(path)
                .and_then(|item| item.post.as_mut())
                .and_then(|operation| operation.responses.responses.get_mut("201"));
            let Some(RefOr::T(created)) = created else {
                continue;
            };
            for operation in [
                "getGame",
                "getLegalActions",
                "getRecord",
                "getActions",
                "playAction",
                "undo",
                "getHint",
                "watchGame",
            ] {
                let mut link = LinkBuilder::new()
                    .operation_id(operation)
                    .parameter("id", "$response.body#/id");
                if operation == "getHint" {
                    link =
                        link.request_body(Some(json!({ "index": "$response.body#/state/index" })));
                }
                created.links.insert(operation.into(), link.build().into());
            }
        }
    }
}

/// The page's files, which are served from a table rather than by handlers of their own.
struct PageFiles;

impl Modify for PageFiles {
    fn modify(&self, doc: &mut Document) {
        for (path, item) in web::asset_paths() {
            doc.paths.paths.insert(path.into(), item);
        }
    }
}

/// The OpenAPI document, as JSON (built once).
pub fn document() -> Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| json!(ApiDoc::openapi())).clone()
}

/// This document
///
/// The OpenAPI document of the server, generated from its handlers and types.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", body = Object)),
)]
pub(crate) async fn openapi() -> Json<Value> {
    Json(document())
}
