//! The JSON views of a game that the API answers with: its state, its actions, the legal
//! actions and a hint. [`crate::game`] fills them from the core's answers.

use qasab_ai::agent::ValueKind;
use qasab_core::view::Drawing;
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

/// One legal move with a player's value for it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HintMove {
    /// The move in the game's notation, as `POST /api/games/{id}/actions` takes it.
    pub action: String,
    /// What it would do, in words.
    pub description: String,
    /// The player's value for it; what it means is the hint's `kind`.
    pub value: f64,
}

/// What the values of a hint mean. `exact-margin`: the captures still to come, the mover's
/// minus the opponent's, under perfect play; `approximate-margin`: the same where the exact
/// value could not be proven for this history; `estimate`: the mover's expected result in
/// [-1, 1]; `exact-result`: the mover's exact expected result in [-1, 1] from endgame tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HintKind {
    /// Future captures, the mover's minus the opponent's, under perfect play.
    ExactMargin,
    /// The same where the exact value could not be proven for this history.
    ApproximateMargin,
    /// The mover's expected result in [-1, 1].
    Estimate,
    /// The mover's exact expected result in [-1, 1] (0: play that never ends), from the
    /// server's endgame tables (docs/ENDGAMES.md), where one holds the position.
    ExactResult,
}

/// Every legal move of a decision, ranked by a player.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Hint)]
pub struct HintView {
    /// The index of the state the hint is for.
    pub index: usize,
    /// The spec of the player that ranked the moves.
    pub agent: String,
    /// What the values mean.
    pub kind: HintKind,
    /// The moves, best first.
    pub moves: Vec<HintMove>,
    /// The squares of each seat's sanctuaries, in seat order: units that no enemy piece can
    /// ever reach and that their owner never has to move (docs/ENDGAMES.md, "Fortresses"). A
    /// seat that holds one cannot lose; when both do, the game is a draw under perfect play.
    /// Absent for a game or an ending where they decide nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sanctuaries: Option<Vec<Vec<String>>>,
}

/// The API's kind of a player's move values.
pub(crate) fn hint_kind(kind: ValueKind) -> HintKind {
    match kind {
        ValueKind::ExactMargin => HintKind::ExactMargin,
        ValueKind::ApproximateMargin => HintKind::ApproximateMargin,
        ValueKind::Estimate => HintKind::Estimate,
        ValueKind::ExactResult => HintKind::ExactResult,
    }
}

/// One action as the views show it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ActionRecord)]
pub struct ActionView {
    /// The action's index: the number of actions before it.
    pub index: usize,
    /// Who acted: a seat name, or `chance`.
    pub actor: &'static str,
    /// The seat it belongs to: for a decision, the seat that made it; for a chance outcome,
    /// the seat whose throw it was (as the turn said before the throw); `null` if the game
    /// does not say.
    #[schema(required = true)]
    pub seat: Option<&'static str>,
    /// The action in the game's notation.
    pub action: String,
    /// What it did, in words.
    pub description: String,
    /// The action's structured form from the core (squares, pits, throw), as a legal
    /// action's `detail`.
    #[schema(value_type = Value)]
    pub detail: Box<RawValue>,
}

/// The most actions a view lists: the last ones, from [`StateView::actions_from`]. The rest
/// are read with `GET /api/games/{id}/actions`.
pub const VIEW_ACTIONS: usize = 100;

/// The most actions one answer of `GET /api/games/{id}/actions` lists (and its default).
pub const ACTIONS_PAGE: usize = 1000;

/// A stretch of a game's actions.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Actions)]
pub struct ActionsView {
    /// The index of the first action listed.
    pub from: usize,
    /// The number of actions in the game.
    pub total: usize,
    /// The actions from `from` on, at most the limit asked.
    pub actions: Vec<ActionView>,
}

/// One legal action at the current turn.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalAction {
    /// The action in the game's notation, as `POST /api/games/{id}/actions` takes it.
    pub action: String,
    /// What it would do, in words.
    pub description: String,
    /// At a chance turn, the outcome's weight out of the legal view's `denominator` (left out
    /// at a player's turn).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1)]
    pub weight: Option<u32>,
    /// The action's structured form from the core (squares, pits, throw), for drawing it.
    #[schema(value_type = Value)]
    pub detail: Box<RawValue>,
}

/// The legal actions of the current turn.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Legal)]
pub struct LegalView {
    /// The index of the state they belong to.
    pub index: usize,
    /// Who acts: a seat name, `chance`, or `null` when the game is over.
    #[schema(required = true)]
    pub actor: Option<&'static str>,
    /// At a chance turn, the sum of the outcomes' weights (left out at other turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1)]
    pub denominator: Option<u32>,
    /// The actions, in the core's order.
    pub actions: Vec<LegalAction>,
}

/// Whose turn it is, for the views: `kind` tells which of the three it is.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[schema(as = Turn)]
pub enum TurnView {
    /// The sticks are thrown next (by the server).
    Chance {
        /// The seat whose throw it is, or `null` if the game does not say.
        #[schema(required = true)]
        seat: Option<&'static str>,
    },
    /// A seat must decide.
    Player {
        /// The seat to move.
        seat: &'static str,
        /// True if a person plays that seat, false for a computer player.
        human: bool,
    },
    /// The game is over.
    Over {
        /// The winning seat, or `null` for a draw.
        #[schema(required = true)]
        winner: Option<&'static str>,
        /// The final scores in seat order.
        #[schema(min_items = 2, max_items = 2)]
        scores: [u32; 2],
        /// Why the game ended (an end reason's name).
        reason: &'static str,
        /// The reason in words.
        description: &'static str,
        /// True if a safety limit stopped the game rather than its rules.
        truncated: bool,
    },
}

/// A seat as the views show it: never its token.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Seat)]
pub struct SeatView {
    /// The seat's name (`south`, `white`, ...).
    pub seat: &'static str,
    /// `human`, or the computer player's spec.
    pub player: String,
}

/// Everything a page needs to draw a game and its history.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = GameState)]
pub struct StateView {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The ruleset's preset name, which tells which board to draw.
    pub name: &'static str,
    /// One line saying what the game is.
    pub title: &'static str,
    /// The two seats in seat order.
    #[schema(min_items = 2, max_items = 2)]
    pub seats: [SeatView; 2],
    /// The index of this state: the number of actions played. An action must name it.
    pub index: usize,
    /// Whose turn it is.
    pub turn: TurnView,
    /// The position id, which `qasab moves`/`qasab apply` read.
    pub position: String,
    /// Captures so far, in seat order.
    #[schema(min_items = 2, max_items = 2)]
    pub scores: [u32; 2],
    /// The core's own serialization of the state (board, pending throws, histories).
    #[schema(value_type = Object)]
    pub state: Box<RawValue>,
    /// The position as the terminal draws it.
    pub board: String,
    /// The index of the first action in `actions`. A view lists the last 100 actions; a
    /// WebSocket frame after the first only those its watcher has not had (after an undo,
    /// from below what the watcher had: it drops its actions from here on).
    pub actions_from: usize,
    /// The actions from `actions_from` to `index` (the whole history is at
    /// `GET /api/games/{id}/actions`).
    pub actions: Vec<ActionView>,
    /// The legal actions now (empty while the game is over).
    pub legal: Vec<LegalAction>,
    /// True if `POST .../undo` would take something back.
    pub can_undo: bool,
    /// The board described for drawing, read from the core's accessors.
    pub drawing: Drawing,
    /// Whether hints may be asked in this game (`POST .../hint`); both seats and spectators
    /// see the same setting.
    pub hints: bool,
}
