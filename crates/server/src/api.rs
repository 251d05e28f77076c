//! The handlers of the game API: the rulesets and players, creating or importing a game,
//! reading it, playing, taking back. The router ([`crate::router`]) lists them with the other
//! routes; each handler carries its own description (`#[utoipa::path]`).

use std::sync::OnceLock;

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use qasab_ai::players::{AGENT_NAMES, AnyPlayer, FILE_OPTIONS, Limits, option_docs};
use qasab_core::{AnyRuleset, Beginning, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::openapi::schema::{Array, ArrayBuilder, ObjectBuilder, SchemaType, Type};
use utoipa::{IntoParams, IntoResponses, ToSchema};

use crate::answers::{BadBodyOrGameId, BadGameId, BodyErrors, Fault, NoGame, NoToken, NotASeat};
use crate::auth;
use crate::error::{AppError, ErrorBody};
use crate::extract::{
    ApiJson, ClientIp, GameId, game_id, query_count, query_count_opt, state_index,
};
use crate::game::{ACTIONS_PAGE, ActionsView, Game, LegalView, Next, StateView};
use crate::state::{AppState, CreatedGame};

/// Runs a change of a game in a task of its own, so that it completes even if the client
/// hangs up before the answer.
async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, AppError>> + Send + 'static,
) -> Result<T, AppError> {
    tokio::spawn(work).await?
}

/// The body of `POST /api/games`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CreateGame)]
pub(crate) struct CreateRequest {
    /// A ruleset string, e.g. `tihbat` or `tab(columns=11)`.
    #[schema(min_length = 1, examples("tihbat", "tab", "tihbat(seeds=3)"))]
    ruleset: String,
    /// The two seats; missing or null: a person against the game's strongest player. A seat
    /// that is null is the game's strongest player that the server can play.
    #[serde(default)]
    #[schema(schema_with = seats_of_new_game)]
    seats: Option<[Option<String>; 2]>,
    /// Whether anyone may ask for hints in this game; missing or null: on if a computer player
    /// takes part, off in a game between two people.
    #[serde(default)]
    hints: Option<bool>,
}

/// The schema of the `seats` of a request that creates a game, `missing` saying what a
/// missing or null value means. Written out because the derived one cannot give examples of
/// a whole array.
fn seats_schema(missing: &str) -> Array {
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(ObjectBuilder::new().schema_type(SchemaType::from_iter([Type::String, Type::Null])))
        .min_items(Some(2))
        .max_items(Some(2))
        .description(Some(format!(
            "The two seats in seat order (south, north; white, black): `human`, a computer \
             player's spec such as `solver`, `random(seed=3)`, `mcts(level=2)` or `strongest` \
             (the same as null, with options), or null for the strongest player of the game's exact ruleset that the server can play (on a \
             preset's variant, the plain player the server picks there; `mcts` where the \
             solver is above the server's limits); the answer names the player picked. \
             Missing or null: {missing}."
        )))
        .examples([
            json!(["human", "random"]),
            json!(["human", "human"]),
            json!([null, "human"]),
        ])
        .build()
}

/// The `seats` of `POST /api/games`.
fn seats_of_new_game() -> Array {
    seats_schema("a person against the game's strongest player")
}

/// The `seats` of `POST /api/games/import`.
fn seats_of_import() -> Array {
    seats_schema("two people")
}

/// The error answers that creating and importing a game share, besides [`BodyErrors`] and
/// [`Fault`].
#[derive(IntoResponses)]
#[allow(dead_code, reason = "describes answers; the handlers answer AppError")]
pub(crate) enum NewGameErrors {
    #[response(
        status = 400,
        description = "Malformed JSON, or missing or unknown fields"
    )]
    BadBody(ErrorBody),
    #[response(
        status = 429,
        description = "Too many games from this address this minute"
    )]
    TooMany(ErrorBody),
}

/// Create a game from a ruleset string and two seats
///
/// Returns a token and a link for each human seat, shown only in this answer, and a spectator
/// link. The server then plays the throws and the computer's moves until a person is to move.
#[utoipa::path(
    post,
    path = "/api/games",
    operation_id = "createGame",
    tag = "games",
    request_body = CreateRequest,
    responses(
        (status = 201, description = "The game was created", body = CreatedGame),
        NewGameErrors,
        BodyErrors,
        (status = 422, description = "A bad ruleset string or player spec", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    state.check_rate(ip)?;
    let created = detached(async move {
        state
            .create(req.ruleset, req.seats, Vec::new(), req.hints)
            .await
    })
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// The body of `POST /api/games/import`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ImportGame)]
pub(crate) struct ImportRequest {
    /// The text of a game record, as `qasab play --record` writes it.
    #[schema(
        min_length = 1,
        examples("qasab-record 1\nruleset tihbat\nactions\n1 south A7\nend unfinished\n")
    )]
    record: String,
    /// The two seats; missing or null: two people. A seat that is null is the game's strongest
    /// player.
    #[serde(default)]
    #[schema(schema_with = seats_of_import)]
    seats: Option<[Option<String>; 2]>,
    /// Whether anyone may ask for hints in this game; missing or null: on if a computer player
    /// takes part, off in a game between two people.
    #[serde(default)]
    hints: Option<bool>,
}

/// Create a game from a game record
///
/// The record is replayed and checked by the core; an unfinished game goes on from where the
/// record stops.
#[utoipa::path(
    post,
    path = "/api/games/import",
    operation_id = "importGame",
    tag = "games",
    request_body = ImportRequest,
    responses(
        (status = 201, description = "The game was created", body = CreatedGame),
        NewGameErrors,
        BodyErrors,
        (status = 422, description = "A record that cannot be read or replayed (with the line at fault), or a bad player spec", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn import(
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
        .unwrap_or_else(|| [Some("human".to_string()), Some("human".to_string())]);
    let created =
        detached(async move { state.create(ruleset, Some(seats), actions, req.hints).await })
            .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Reads the game of the path with `read`, under the game's lock.
async fn read_game<T>(
    state: &AppState,
    path: Result<Path<String>, PathRejection>,
    read: impl FnOnce(&Game) -> T,
) -> Result<T, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
    let game = slot.game.lock().await;
    Ok(read(&game))
}

/// A game's state, history and legal actions
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    operation_id = "getGame",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The game", body = StateView),
        BadGameId,
        NoGame,
        Fault,
    ),
)]
pub(crate) async fn get_game(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<StateView>, AppError> {
    read_game(&state, path, Game::view).await.map(Json)
}

/// The legal actions of the current turn
#[utoipa::path(
    get,
    path = "/api/games/{id}/legal",
    operation_id = "getLegalActions",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The legal actions", body = LegalView),
        BadGameId,
        NoGame,
        Fault,
    ),
)]
pub(crate) async fn legal(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<LegalView>, AppError> {
    read_game(&state, path, Game::legal).await.map(Json)
}

/// The game record, for download
#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    operation_id = "getRecord",
    tag = "games",
    params(GameId),
    responses(
        (
            status = 200,
            description = "The record in the qasab-record text format",
            body = String,
            content_type = "text/plain",
            headers(("Content-Disposition" = String, description = "attachment, named qasab-{id}.txt")),
        ),
        BadGameId,
        NoGame,
        Fault,
    ),
)]
pub(crate) async fn record(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, AppError> {
    let id = game_id(path)?;
    let slot = state.slot(&id).await?;
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

/// The query of `GET /api/games/{id}/actions`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub(crate) struct ActionsQuery {
    /// The index of the first action to list (default 0), in digits alone.
    #[serde(default, deserialize_with = "query_count")]
    from: usize,
    /// The most actions to list, 1 to 1000 (default 1000), in digits alone.
    #[serde(default, deserialize_with = "query_count_opt")]
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<usize>,
}

/// A stretch of the game's actions
///
/// The actions from `from` on, at most `limit` of them, each as in a view (`seat`, `detail`,
/// the description). A view of the game lists only its last 100 actions; this is how a page
/// reads the rest. `from` at or past the end gives an empty list; `total` is the number of
/// actions in the game.
#[utoipa::path(
    get,
    path = "/api/games/{id}/actions",
    operation_id = "getActions",
    tag = "games",
    params(GameId, ActionsQuery),
    responses(
        (status = 200, description = "The actions", body = ActionsView),
        (status = 400, description = "A query value that is not a non-negative integer in digits alone (no sign, space or leading zero), a limit out of 1..=1000, an unknown query parameter, or a game id that is not UTF-8 once percent-decoded", body = ErrorBody),
        NoGame,
        Fault,
    ),
)]
pub(crate) async fn actions(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<ActionsQuery>, QueryRejection>,
) -> Result<Json<ActionsView>, AppError> {
    let id = game_id(path)?;
    let Query(query) =
        query.map_err(|e| AppError::BadRequest(format!("bad query: {}", e.body_text())))?;
    let limit = query.limit.unwrap_or(ACTIONS_PAGE);
    if !(1..=ACTIONS_PAGE).contains(&limit) {
        return Err(AppError::BadRequest(format!(
            "bad limit {limit}: expected 1 to {ACTIONS_PAGE}"
        )));
    }
    let slot = state.slot(&id).await?;
    let view = slot.game.lock().await.actions(query.from, limit);
    Ok(Json(view))
}

/// The body of `POST /api/games/{id}/actions`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PlayAction)]
pub(crate) struct ActionRequest {
    /// The action in the game's notation.
    action: String,
    /// The index of the state the action was chosen in (the game's `index`).
    #[serde(deserialize_with = "state_index")]
    index: usize,
}

/// Play an action for the seat of the token
///
/// The action is stored before the answer. The answer is the state after the server's throws
/// and the computer's replies, up to the next decision of a person or the end; its actions
/// are those from the one played on (actions_from is the request's index).
#[utoipa::path(
    post,
    path = "/api/games/{id}/actions",
    operation_id = "playAction",
    tag = "games",
    params(GameId),
    security(("seatToken" = [])),
    request_body = ActionRequest,
    responses(
        (status = 200, description = "The action was played", body = StateView),
        BadBodyOrGameId,
        NoToken,
        (status = 403, description = "The token is not a seat of this game, or not the seat to move", body = ErrorBody),
        NoGame,
        BodyErrors,
        (status = 409, description = "A stale action (made against an older state), or the computer or the sticks act next", body = ErrorBody),
        (status = 422, description = "The action is not in the game's notation or not legal now (the core says why)", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn act(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ActionRequest>,
) -> Result<Json<StateView>, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
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
        // The player has every action before its own: the answer lists those from it on.
        let view = slot.game.lock().await.view_from(req.index);
        Ok(view)
    })
    .await?;
    Ok(Json(view))
}

/// Take back to the person's last decision, in a game against the computer
#[utoipa::path(
    post,
    path = "/api/games/{id}/undo",
    operation_id = "undo",
    tag = "games",
    params(GameId),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "The state after the take-back", body = StateView),
        BadGameId,
        NoToken,
        NotASeat,
        NoGame,
        (status = 409, description = "Nothing to undo", body = ErrorBody),
        (status = 422, description = "The game is not between a person and the computer", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn undo(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<StateView>, AppError> {
    let slot = state.slot(&game_id(path)?).await?;
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
        state.take_back(&slot, &mut game, len).await?;
        Ok(game.view())
    })
    .await?;
    Ok(Json(view))
}

/// A ruleset preset with its options, seats and the players it offers.
#[derive(Serialize, ToSchema)]
#[schema(as = Ruleset)]
pub(crate) struct RulesetInfo {
    /// The preset's name, which a ruleset string starts with.
    name: &'static str,
    /// One line saying what the game is.
    title: &'static str,
    /// The seat names in seat order.
    #[schema(min_items = 2, max_items = 2)]
    seats: [&'static str; 2],
    /// `human` and the computer players the preset offers.
    players: Vec<&'static str>,
    /// The seats of a new game that names none: a person against the strongest player of
    /// this exact ruleset that the server allows (the solver of a Tihbat above the server's
    /// counters gives way to `mcts`).
    #[schema(min_items = 2, max_items = 2)]
    default_seats: [&'static str; 2],
    /// The options a ruleset string may set.
    options: Vec<RulesetOption>,
    /// Who makes the first move under these rules (at the preset's defaults in the list of
    /// presets; under the options given in `GET /api/rulesets/{ruleset}`).
    begins: Begins,
    /// The rules in plain language.
    rules: String,
}

/// Who makes the first move of a game.
#[derive(Serialize, ToSchema)]
pub(crate) struct Begins {
    /// The seat that moves first, or `null` when an opening of throws decides it.
    #[schema(required = true)]
    seat: Option<&'static str>,
    /// The same in plain words: `white moves first`, or which throw makes its thrower begin
    /// and who throws first until then.
    text: String,
}

impl Begins {
    fn of(rules: &AnyRuleset) -> Begins {
        match rules.beginning() {
            Beginning::Seat(p) => {
                let seat = rules.seat_name(p);
                Begins {
                    seat: Some(seat),
                    text: format!("{seat} moves first"),
                }
            }
            Beginning::FirstToThrow { first, throw } => Begins {
                seat: None,
                text: format!(
                    "whoever first throws {throw} moves first; until then the players throw in turn, {} first",
                    rules.seat_name(first)
                ),
            },
        }
    }
}

/// An option of a ruleset preset.
#[derive(Serialize, ToSchema)]
pub(crate) struct RulesetOption {
    /// The key in the ruleset string.
    key: &'static str,
    /// The accepted values, as shown to people (`none | own-side`, `1..=60`).
    values: String,
    /// The preset's value, or `null` if it has none.
    #[schema(required = true)]
    default: Option<String>,
    /// What the option changes.
    help: &'static str,
    /// The rule ids the option belongs to.
    rules: &'static str,
}

/// Every ruleset preset, with its options, seats and players
#[utoipa::path(
    get,
    path = "/api/rulesets",
    operation_id = "listRulesets",
    tag = "meta",
    responses((status = 200, description = "The presets in a fixed order", body = [RulesetInfo])),
)]
pub(crate) async fn rulesets(State(state): State<AppState>) -> Json<Value> {
    Json(
        state
            .0
            .presets
            .get_or_init(|| {
                let presets: Vec<RulesetInfo> = AnyRuleset::presets()
                    .iter()
                    .map(|r| ruleset_info(r, state.limits()))
                    .collect();
                // A JSON value keeps an object's keys sorted, so the answer's bytes do not
                // depend on the order of the fields above.
                json!(presets)
            })
            .clone(),
    )
}

/// The `{ruleset}` of `GET /api/rulesets/{ruleset}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(
    dead_code,
    reason = "describes the parameter; the handler reads it as a string"
)]
pub(crate) struct RulesetString {
    /// A ruleset string, as `POST /api/games` takes it: `tab(opening=normal)`, `tihbat(first=north)`.
    ruleset: String,
}

/// One ruleset string: its preset's entry of `GET /api/rulesets` with the options in force
#[utoipa::path(
    get,
    path = "/api/rulesets/{ruleset}",
    operation_id = "getRuleset",
    tag = "meta",
    params(RulesetString),
    responses(
        (status = 200, description = "The preset's entry as `GET /api/rulesets` lists it, but with `begins`, `default_seats` (the strongest player of this exact ruleset that the server allows) and `rules` for the options the string sets", body = RulesetInfo),
        (status = 400, description = "A path segment that is not UTF-8 once percent-decoded", body = ErrorBody),
        (status = 422, description = "Not a valid ruleset string (the core's message)", body = ErrorBody),
        Fault,
    ),
)]
pub(crate) async fn ruleset(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, AppError> {
    let Path(text) =
        path.map_err(|e| AppError::BadRequest(format!("bad ruleset: {}", e.body_text())))?;
    let rules: AnyRuleset = text
        .parse()
        .map_err(|e: qasab_core::RulesetError| AppError::Unprocessable(e.to_string()))?;
    // Keys sorted, as in the list of presets.
    Ok(Json(json!(ruleset_info(&rules, state.limits()))))
}

/// A computer player with the options its spec may set.
#[derive(Serialize, ToSchema)]
pub(crate) struct PlayerInfo {
    /// The player's name, which its spec starts with (`mcts`).
    name: &'static str,
    /// The options its spec may set (`mcts(level=3)`), in documented order.
    options: Vec<PlayerOption>,
}

/// An option of a computer player.
#[derive(Serialize, ToSchema)]
pub(crate) struct PlayerOption {
    /// The key in the player's spec.
    key: &'static str,
    /// The accepted values, as shown to people (`1..=5`, `hand | fitted`).
    values: String,
    /// What the option changes.
    help: &'static str,
}

/// Every computer player, with its options
#[utoipa::path(
    get,
    path = "/api/players",
    operation_id = "listPlayers",
    tag = "meta",
    responses((status = 200, description = "The players in a fixed order; which of them a ruleset offers is in its `players`", body = [PlayerInfo])),
)]
pub(crate) async fn players() -> Json<Value> {
    static PLAYERS: OnceLock<Value> = OnceLock::new();
    Json(
        PLAYERS
            .get_or_init(|| {
                let players: Vec<PlayerInfo> = AGENT_NAMES
                    .iter()
                    .map(|&name| PlayerInfo {
                        name,
                        // The server reads no file a client names (`Limits::files`).
                        options: option_docs(name)
                            .unwrap_or_default()
                            .into_iter()
                            .filter(|o| !FILE_OPTIONS.contains(&o.key))
                            .map(|o| PlayerOption {
                                key: o.key,
                                values: o.values,
                                help: o.help,
                            })
                            .collect(),
                    })
                    .collect();
                json!(players)
            })
            .clone(),
    )
}

/// A preset with its options, seats and the players it offers; its default opponent is the
/// strongest player that `limits` allow, by what it costs.
fn ruleset_info(rules: &AnyRuleset, limits: &Limits) -> RulesetInfo {
    let players: Vec<&str> = std::iter::once("human")
        .chain(AnyPlayer::names(rules))
        .collect();
    RulesetInfo {
        name: rules.name(),
        title: rules.title(),
        seats: Player::ALL.map(|p| rules.seat_name(p)),
        players,
        default_seats: [
            "human",
            AnyPlayer::strongest_allowed(rules, limits).unwrap_or(AnyPlayer::strongest(rules)),
        ],
        options: rules
            .options()
            .into_iter()
            .map(|o| RulesetOption {
                key: o.key,
                default: rules.default_value(o.key),
                values: o.values,
                help: o.help,
                rules: o.rules,
            })
            .collect(),
        begins: Begins::of(rules),
        rules: rules.rules_text(),
    }
}
