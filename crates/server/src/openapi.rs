//! The OpenAPI 3.1 document of the API, served at `GET /api/openapi.json`.
//!
//! Written by hand, next to the handlers it describes (`api.rs`); the tests check that every
//! route is in it and that every schema it refers to exists. When a handler or a view changes,
//! change its schema here too.

use serde_json::{Value, json};

fn schema(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn json_content(name: &str) -> Value {
    json!({ "application/json": { "schema": schema(name) } })
}

/// An error answer with its status's meaning.
fn error(description: &str) -> Value {
    json!({ "description": description, "content": json_content("Error") })
}

fn id_param() -> Value {
    json!({
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The game id, as returned when the game was created.",
        "schema": { "type": "string" }
    })
}

/// A read of one game by its id: the answer `ok` (a description and content), or 404.
fn game_get(operation: &str, summary: &str, ok: Value) -> Value {
    json!({
        "get": {
            "operationId": operation,
            "summary": summary,
            "parameters": [id_param()],
            "responses": {
                "200": ok,
                "404": error("No game with this id")
            }
        }
    })
}

/// The answers to a request that creates a game; `unprocessable` says what gets 422.
fn created_responses(unprocessable: &str) -> Value {
    json!({
        "201": {
            "description": "The game was created",
            "content": json_content("CreatedGame"),
            "links": game_links()
        },
        "400": error("Malformed JSON or missing fields"),
        "413": error("The body is larger than the limit"),
        "415": error("The body is not declared as JSON"),
        "422": error(unprocessable),
        "429": error("Too many games from this address this minute")
    })
}

/// The links from a created game to the operations on it, by its id.
fn game_links() -> Value {
    let link =
        |op: &str| json!({ "operationId": op, "parameters": { "id": "$response.body#/id" } });
    json!({
        "getGame": link("getGame"),
        "getLegalActions": link("getLegalActions"),
        "getRecord": link("getRecord"),
        "playAction": link("playAction"),
        "undo": link("undo")
    })
}

/// The OpenAPI document.
pub fn document() -> Value {
    let mut doc = base_document();
    add_live_and_hint(&mut doc);
    doc
}

/// The document without the routes that [`add_live_and_hint`] adds.
fn base_document() -> Value {
    let bearer = json!([{ "seatToken": [] }]);
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Qasab",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Play Tâb and Tihbat against the computer or another person. \
                Rules are decided by the Qasab core; the server stores every accepted action \
                in SQLite before it answers. Actions are written in the game's notation \
                (docs/notation.md). A seat acts with its token in the header \
                'Authorization: Bearer TOKEN'; reading a game needs no token."
        },
        "paths": {
            "/api/rulesets": {
                "get": {
                    "operationId": "listRulesets",
                    "summary": "Every ruleset preset, with its options, seats and players",
                    "responses": {
                        "200": {
                            "description": "The presets in a fixed order",
                            "content": { "application/json": { "schema": {
                                "type": "array", "items": schema("Ruleset")
                            } } }
                        }
                    }
                }
            },
            "/api/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document",
                    "responses": {
                        "200": {
                            "description": "The OpenAPI document",
                            "content": { "application/json": { "schema": { "type": "object" } } }
                        }
                    }
                }
            },
            "/api/games": {
                "post": {
                    "operationId": "createGame",
                    "summary": "Create a game from a ruleset string and two seats",
                    "description": "Returns a token and a link for each human seat, shown only \
                        in this answer, and a spectator link. The server then plays the throws \
                        and the computer's moves until a person is to move.",
                    "requestBody": {
                        "required": true,
                        "content": json_content("CreateGame")
                    },
                    "responses": created_responses("A bad ruleset string or player spec")
                }
            },
            "/api/games/import": {
                "post": {
                    "operationId": "importGame",
                    "summary": "Create a game from a game record",
                    "description": "The record is replayed and checked by the core; an \
                        unfinished game goes on from where the record stops.",
                    "requestBody": {
                        "required": true,
                        "content": json_content("ImportGame")
                    },
                    "responses": created_responses("A record that cannot be read or replayed (with the line at fault), or a bad player spec")
                }
            },
            "/api/games/{id}": game_get(
                "getGame",
                "A game's state, history and legal actions",
                json!({ "description": "The game", "content": json_content("GameState") }),
            ),
            "/api/games/{id}/legal": game_get(
                "getLegalActions",
                "The legal actions of the current turn",
                json!({ "description": "The legal actions", "content": json_content("Legal") }),
            ),
            "/api/games/{id}/actions": {
                "post": {
                    "operationId": "playAction",
                    "summary": "Play an action for the seat of the token",
                    "description": "The action is stored before the answer. The answer is the \
                        state after the server's throws and the computer's replies, up to the \
                        next decision of a person or the end.",
                    "parameters": [id_param()],
                    "security": bearer,
                    "requestBody": {
                        "required": true,
                        "content": json_content("PlayAction")
                    },
                    "responses": {
                        "200": { "description": "The action was played", "content": json_content("GameState") },
                        "400": error("Malformed JSON or missing fields"),
                        "401": error("No seat token"),
                        "403": error("The token is not a seat of this game, or not the seat to move"),
                        "404": error("No game with this id"),
                        "409": error("A stale action (made against an older state), or the computer or the sticks act next"),
                        "413": error("The body is larger than the limit"),
                        "415": error("The body is not declared as JSON"),
                        "422": error("The action is not in the game's notation or not legal now (the core says why)")
                    }
                }
            },
            "/api/games/{id}/undo": {
                "post": {
                    "operationId": "undo",
                    "summary": "Take back to the person's last decision, in a game against the computer",
                    "parameters": [id_param()],
                    "security": bearer,
                    "responses": {
                        "200": { "description": "The state after the take-back", "content": json_content("GameState") },
                        "401": error("No seat token"),
                        "403": error("The token is not a seat of this game"),
                        "404": error("No game with this id"),
                        "409": error("Nothing to undo"),
                        "422": error("The game is not between a person and the computer")
                    }
                }
            },
            "/api/games/{id}/record": game_get(
                "getRecord",
                "The game record, for download",
                json!({
                    "description": "The record in the qasab-record text format",
                    "content": { "text/plain": { "schema": { "type": "string" } } }
                }),
            )
        },
        "components": {
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The token of a human seat, returned when the game was created."
                }
            },
            "schemas": schemas()
        }
    });
    add_page_reads(&mut doc);
    doc
}

/// Adds the live-update WebSocket and the hint routes, with their schemas.
fn add_live_and_hint(doc: &mut Value) {
    doc["paths"]["/api/games/{id}/ws"] = json!({
        "get": {
            "operationId": "watchGame",
            "summary": "Watch a game live over a WebSocket",
            "description": "A WebSocket upgrade (GET with 'Connection: Upgrade' and 'Upgrade: \
                websocket'). Once connected, the server sends a text frame \
                {\"type\": \"state\", \"state\": GameState} with the current state (the \
                answer of GET /api/games/{id}), then the same after every change of the game: \
                an action, a throw, a computer move, an undo. A watcher that falls behind gets \
                the current state. Messages from the client are ignored (actions go through \
                POST .../actions); pings are answered. The schema StateMessage describes the \
                frames. No token is needed.",
            "parameters": [id_param()],
            "responses": {
                "101": { "description": "Switching to the WebSocket protocol; the frames are StateMessage" },
                "400": error("Not a WebSocket upgrade request"),
                "404": error("No game with this id"),
                "429": error("The game already has as many live watchers as the server takes")
            }
        }
    });
    doc["paths"]["/api/games/{id}/hint"] = json!({
        "post": {
            "operationId": "getHint",
            "summary": "Every legal move of the current decision, ranked by a computer player",
            "description": "No token is needed: anyone who can watch the game can ask. The \
                player runs under the same limits as a computer seat.",
            "parameters": [id_param()],
            "requestBody": {
                "required": true,
                "content": json_content("HintRequest")
            },
            "responses": {
                "200": { "description": "The moves, best first", "content": json_content("Hint") },
                "400": error("Malformed JSON or missing fields"),
                "404": error("No game with this id"),
                "409": error("A stale index, or no decision to rank (the sticks are thrown next, or the game is over)"),
                "413": error("The body is larger than the limit"),
                "415": error("The body is not declared as JSON"),
                "422": error("A bad player spec, one above the server's limits, or a player that does not rank moves (random)"),
                "429": error("Too many hints from this address this minute")
            }
        }
    });
    // Links from a created game to the new operations, for tools that follow them.
    for path in ["/api/games", "/api/games/import"] {
        let links = &mut doc["paths"][path]["post"]["responses"]["201"]["links"];
        links["getHint"] = json!({
            "operationId": "getHint",
            "parameters": { "id": "$response.body#/id" },
            "requestBody": { "index": "$response.body#/state/index" }
        });
        links["watchGame"] = json!({
            "operationId": "watchGame",
            "parameters": { "id": "$response.body#/id" }
        });
    }
    let schemas = &mut doc["components"]["schemas"];
    schemas["HintRequest"] = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["index"],
        "properties": {
            "index": {
                "type": "integer", "minimum": 0,
                "description": "The index of the state to rank the moves of (GameState.index)"
            },
            "agent": {
                "type": ["string", "null"],
                "description": "A computer player's spec; missing or null: the game's strongest",
                "examples": ["solver", "mcts(level=2)", "greedy"]
            }
        }
    });
    schemas["HintMove"] = json!({
        "type": "object",
        "required": ["action", "description", "value"],
        "properties": {
            "action": { "type": "string", "description": "The move in the game's notation, as POST .../actions takes it" },
            "description": { "type": "string" },
            "value": { "type": "number", "description": "The player's value for the move (see Hint.kind)" }
        }
    });
    schemas["Hint"] = json!({
        "type": "object",
        "required": ["index", "agent", "kind", "moves"],
        "properties": {
            "index": { "type": "integer", "minimum": 0 },
            "agent": { "type": "string", "description": "The spec of the player that ranked the moves" },
            "kind": {
                "type": "string",
                "enum": ["exact-margin", "approximate-margin", "estimate"],
                "description": "exact-margin: future captures, mover's minus opponent's, under \
                    perfect play; approximate-margin: the same where the exact value could not \
                    be proven; estimate: the mover's expected result in [-1, 1]"
            },
            "moves": { "type": "array", "items": schema("HintMove"), "description": "Best first" }
        }
    });
    schemas["StateMessage"] = json!({
        "type": "object",
        "description": "A frame of the WebSocket at /api/games/{id}/ws",
        "required": ["type", "state"],
        "properties": {
            "type": { "const": "state" },
            "state": schema("GameState")
        }
    });
}

fn seats_schema() -> Value {
    json!({
        "type": ["array", "null"],
        "description": "The two seats in seat order (south, north; white, black): 'human' or a \
            computer player's spec such as 'solver', 'random(seed=3)' or 'mcts(level=2)'. \
            Missing or null: the default seats.",
        "items": { "type": "string" },
        "minItems": 2,
        "maxItems": 2,
        "examples": [["human", "random"], ["human", "human"]]
    })
}

fn schemas() -> Value {
    let nullable_string = json!({ "type": ["string", "null"] });
    json!({
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": { "error": { "type": "string", "description": "What is wrong" } }
        },
        "CreateGame": {
            "type": "object",
            "additionalProperties": false,
            "required": ["ruleset"],
            "properties": {
                "ruleset": {
                    "type": "string", "minLength": 1,
                    "description": "A ruleset string, e.g. tihbat or tab(columns=11)",
                    "examples": ["tihbat", "tab", "tihbat(seeds=3)"]
                },
                "seats": seats_schema()
            }
        },
        "ImportGame": {
            "type": "object",
            "additionalProperties": false,
            "required": ["record"],
            "properties": {
                "record": {
                    "type": "string", "minLength": 1,
                    "description": "The text of a game record",
                    "examples": ["qasab-record 1\nruleset tihbat\nactions\n1 south A7\nend unfinished\n"]
                },
                "seats": seats_schema()
            }
        },
        "PlayAction": {
            "type": "object",
            "additionalProperties": false,
            "required": ["action", "index"],
            "properties": {
                "action": { "type": "string", "description": "The action in the game's notation" },
                "index": {
                    "type": "integer", "minimum": 0,
                    "description": "The index of the state the action was chosen in (GameState.index)"
                }
            }
        },
        "CreatedSeat": {
            "type": "object",
            "required": ["seat", "player"],
            "properties": {
                "seat": { "type": "string" },
                "player": { "type": "string" },
                "token": { "type": "string", "description": "The seat's secret token (human seats only)" },
                "link": { "type": "string", "description": "The seat's page link, with the token after '#'" }
            }
        },
        "CreatedGame": {
            "type": "object",
            "required": ["id", "seats", "spectator", "state"],
            "properties": {
                "id": { "type": "string" },
                "seats": { "type": "array", "items": schema("CreatedSeat"), "minItems": 2, "maxItems": 2 },
                "spectator": { "type": "string", "description": "The link for spectators" },
                "state": schema("GameState")
            }
        },
        "Seat": {
            "type": "object",
            "required": ["seat", "player"],
            "properties": {
                "seat": { "type": "string" },
                "player": { "type": "string", "description": "'human' or the computer player's spec" }
            }
        },
        "Turn": {
            "type": "object",
            "required": ["kind"],
            "description": "kind 'chance': the server throws next (seat: whose throw); 'player': \
                seat must decide (human: whether a person plays it); 'over': the result.",
            "properties": {
                "kind": { "type": "string", "enum": ["chance", "player", "over"] },
                "seat": nullable_string,
                "human": { "type": "boolean" },
                "winner": nullable_string,
                "scores": { "type": "array", "items": { "type": "integer", "minimum": 0 } },
                "reason": { "type": "string" },
                "description": { "type": "string" },
                "truncated": { "type": "boolean" }
            }
        },
        "ActionRecord": {
            "type": "object",
            "required": ["index", "actor", "action", "description"],
            "properties": {
                "index": { "type": "integer", "minimum": 0 },
                "actor": { "type": "string", "description": "A seat name, or 'chance'" },
                "action": { "type": "string" },
                "description": { "type": "string" }
            }
        },
        "LegalAction": {
            "type": "object",
            "required": ["action", "description", "detail"],
            "properties": {
                "action": { "type": "string", "description": "The action in the game's notation" },
                "description": { "type": "string" },
                "weight": { "type": "integer", "minimum": 1, "description": "At a chance turn, the outcome's weight" },
                "detail": { "description": "The action's structured form from the core" }
            }
        },
        "Legal": {
            "type": "object",
            "required": ["index", "actor", "actions"],
            "properties": {
                "index": { "type": "integer", "minimum": 0 },
                "actor": nullable_string,
                "denominator": { "type": "integer", "minimum": 1 },
                "actions": { "type": "array", "items": schema("LegalAction") }
            }
        },
        "GameState": {
            "type": "object",
            "required": [
                "ruleset", "name", "title", "seats", "index", "turn", "position", "scores",
                "state", "board", "actions", "legal", "can_undo"
            ],
            "properties": {
                "ruleset": { "type": "string", "description": "The canonical ruleset string" },
                "name": { "type": "string", "description": "The preset name: which board to draw" },
                "title": { "type": "string" },
                "seats": { "type": "array", "items": schema("Seat"), "minItems": 2, "maxItems": 2 },
                "index": { "type": "integer", "minimum": 0, "description": "The number of actions played" },
                "turn": schema("Turn"),
                "position": { "type": "string", "description": "The position id" },
                "scores": { "type": "array", "items": { "type": "integer", "minimum": 0 } },
                "state": { "type": "object", "description": "The core's serialization of the state" },
                "board": { "type": "string", "description": "The position drawn as text" },
                "actions": { "type": "array", "items": schema("ActionRecord") },
                "legal": { "type": "array", "items": schema("LegalAction") },
                "can_undo": { "type": "boolean" }
            }
        },
        "RulesetOption": {
            "type": "object",
            "required": ["key", "values", "default", "help", "rules"],
            "properties": {
                "key": { "type": "string" },
                "values": { "type": "string", "description": "The accepted values" },
                "default": nullable_string,
                "help": { "type": "string" },
                "rules": { "type": "string", "description": "The rule ids the option belongs to" }
            }
        },
        "Ruleset": {
            "type": "object",
            "required": ["name", "title", "seats", "players", "default_seats", "options", "rules"],
            "properties": {
                "name": { "type": "string" },
                "title": { "type": "string" },
                "seats": { "type": "array", "items": { "type": "string" } },
                "players": { "type": "array", "items": { "type": "string" }, "description": "'human' and the computer players available" },
                "default_seats": { "type": "array", "items": { "type": "string" } },
                "options": { "type": "array", "items": schema("RulesetOption") },
                "rules": { "type": "string", "description": "The rules in plain language" }
            }
        }
    })
}

/// Adds the reads the web page needs (a past state, the seat of a token) and the drawing
/// model of the game view.
fn add_page_reads(doc: &mut Value) {
    let index_param = json!({
        "name": "index",
        "in": "path",
        "required": true,
        "description": "The state index: the number of actions played before it (0 = the start).",
        "schema": { "type": "integer", "minimum": 0 }
    });
    doc["paths"]["/api/games/{id}/states/{index}"] = json!({
        "get": {
            "operationId": "getStateAt",
            "summary": "The game as it was at an earlier state, for stepping through its record",
            "parameters": [id_param(), index_param],
            "responses": {
                "200": {
                    "description": "The view of the game after its first `index` actions; its `legal` \
                        and `can_undo` are those of that state, and nothing can be played in it",
                    "content": json_content("GameState")
                },
                "400": error("The index is not a non-negative integer, or the id is not valid in a path"),
                "404": error("No game with this id, or an index past the game's current state")
            }
        }
    });
    doc["paths"]["/api/games/{id}/seat"] = json!({
        "get": {
            "operationId": "getSeat",
            "summary": "The seat of the token sent in the Authorization header",
            "parameters": [id_param()],
            "security": [{ "seatToken": [] }],
            "responses": {
                "200": {
                    "description": "The token's seat",
                    "content": { "application/json": { "schema": {
                        "type": "object",
                        "required": ["seat", "index"],
                        "properties": {
                            "seat": { "type": "string", "description": "The seat's name" },
                            "index": { "type": "integer", "minimum": 0, "maximum": 1, "description": "The seat's position in seat order" }
                        }
                    } } }
                },
                "400": error("A game id that is not valid in a path"),
                "401": error("No seat token"),
                "403": error("The token is not a seat of this game"),
                "404": error("No game with this id")
            }
        }
    });
    let schemas = &mut doc["components"]["schemas"];
    schemas["GameState"]["properties"]["drawing"] = schema("Drawing");
    if let Some(required) = schemas["GameState"]["required"].as_array_mut() {
        required.push(json!("drawing"));
    }
    for (name, value) in drawing_schemas() {
        schemas[name] = value;
    }
}

/// The schemas of the drawing model (`crate::drawing`).
fn drawing_schemas() -> Vec<(&'static str, Value)> {
    let per_seat = |what: &str| json!({ "type": "array", "items": { "type": "integer", "minimum": 0 }, "minItems": 2, "maxItems": 2, "description": what });
    vec![
        (
            "Drawing",
            json!({
                "type": "object",
                "required": ["kind"],
                "description": "The board described for drawing, read from the core. kind 'tab': a \
                    Tâb board (columns, rows, pending, banked, on_board, unconverted, removed, \
                    last_throw); kind 'tihbat': the four pits (rows, captured); kind 'none': no \
                    drawing.",
                "properties": {
                    "kind": { "type": "string", "enum": ["tab", "tihbat", "none"] },
                    "columns": { "type": "integer", "minimum": 3 },
                    "rows": {
                        "type": "array",
                        "description": "Tâb: the four rows as the terminal draws them, the second seat's home row first, each from the first seat's left (Square). Tihbat: North's pits D C, then South's A B (Pit).",
                        "items": { "type": "array", "items": { "oneOf": [schema("Square"), schema("Pit")] } }
                    },
                    "pending": { "type": "array", "items": schema("Throw"), "description": "Throws waiting to be played" },
                    "banked": per_seat("Banked tâbs in seat order"),
                    "on_board": per_seat("Pieces on the board in seat order"),
                    "unconverted": per_seat("Pieces not yet converted (locked) in seat order"),
                    "removed": per_seat("Pieces removed by stack reductions in seat order"),
                    "last_throw": { "oneOf": [schema("Throw"), { "type": "null" }] },
                    "captured": per_seat("Tihbat: counters captured in seat order")
                }
            }),
        ),
        (
            "Square",
            json!({
                "type": "object",
                "required": ["name", "row", "column", "home", "unit"],
                "properties": {
                    "name": { "type": "string", "description": "The square's name in notation" },
                    "row": { "type": "integer", "minimum": 1, "maximum": 4, "description": "1 to 4 from the first seat's home row" },
                    "column": { "type": "integer", "minimum": 1, "description": "1 to N from the first seat's left" },
                    "home": { "type": ["string", "null"], "description": "The seat whose home row it is" },
                    "unit": { "oneOf": [schema("Unit"), { "type": "null" }] }
                }
            }),
        ),
        (
            "Unit",
            json!({
                "type": "object",
                "required": ["owner", "pieces", "unconverted", "entered_enemy_row", "dissolved", "frozen", "held"],
                "properties": {
                    "owner": { "type": "string" },
                    "pieces": { "type": "integer", "minimum": 1 },
                    "unconverted": { "type": "integer", "minimum": 0, "description": "Pieces not yet converted (locked): they move only with a tâb" },
                    "entered_enemy_row": { "type": "integer", "minimum": 0, "description": "Pieces that have been in the enemy home row" },
                    "dissolved": { "type": "boolean", "description": "A dissolved stack (split=dissolve)" },
                    "frozen": { "type": "boolean", "description": "The enemy-row rule forbids it to move now" },
                    "held": { "type": "boolean", "description": "The enemy-row rule lets it move along the enemy row but not leave it" }
                }
            }),
        ),
        (
            "Throw",
            json!({
                "type": "object",
                "required": ["value", "name", "whites"],
                "properties": {
                    "value": { "type": "integer", "enum": [1, 2, 3, 4, 6] },
                    "name": { "type": "string" },
                    "whites": { "type": "integer", "minimum": 0, "maximum": 4, "description": "Sticks showing their white side" },
                    "description": { "type": "string", "description": "The last throw only: the game's words for it" }
                }
            }),
        ),
        (
            "Pit",
            json!({
                "type": "object",
                "required": ["name", "owner", "counters"],
                "properties": {
                    "name": { "type": "string", "description": "The pit's letter" },
                    "owner": { "type": "string" },
                    "counters": { "type": "integer", "minimum": 0 }
                }
            }),
        ),
    ]
}
