//! One game of any ruleset behind one object type, spoken to in the game's own notation.
//!
//! The server never decides a rule: every question (whose turn, which actions are legal, what
//! an action does) goes to the core through [`GameState`]. This module only erases the state's
//! type, so that the server can hold games of every ruleset in one map, and turns the answers
//! into the JSON views of the API.
//!
//! # Randomness
//! The server draws each chance outcome itself, from the game's secret seed and the index of
//! the action, with the pinned generator ([`qasab_ai::rng`]): the throw at index `i` of a game
//! is a function of the seed and `i` alone. Replaying the stored actions therefore needs no
//! generator state, a restarted server throws exactly what the old one would have, and undoing
//! a move and playing another meets the same throws again (undo cannot re-roll the sticks).
//! Computer players are built afresh for each decision with a seed derived the same way, so
//! their choices too do not depend on whether the server restarted in between.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use qasab_ai::agent::ValueKind;
use qasab_ai::driver::{ChanceSource, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::rng::derive_seed;
use qasab_ai::spec::AgentSpec;
use qasab_core::record::{Record, replay, write_record};
use qasab_core::{Action, ActionOf, AnyRuleset, GameState, Player, Ruleset, Turn, with_ruleset};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// A computer decision to be computed off the async threads; it returns the move's notation.
pub type ComputerJob = Box<dyn FnOnce() -> String + Send>;

/// A hint to be computed off the async threads: the moves ranked by a player, or why that
/// player cannot rank them.
pub type HintJob = Box<dyn FnOnce() -> Result<HintView, GameError> + Send>;

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
/// [-1, 1].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HintKind {
    /// Future captures, the mover's minus the opponent's, under perfect play.
    ExactMargin,
    /// The same where the exact value could not be proven for this history.
    ApproximateMargin,
    /// The mover's expected result in [-1, 1].
    Estimate,
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
}

/// The API's kind of a player's move values.
fn hint_kind(kind: ValueKind) -> HintKind {
    match kind {
        ValueKind::ExactMargin => HintKind::ExactMargin,
        ValueKind::ApproximateMargin => HintKind::ApproximateMargin,
        ValueKind::Estimate => HintKind::Estimate,
    }
}

/// Who acts next, as the server needs to know it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A chance event: the server throws.
    Chance,
    /// A person's decision, in this seat.
    Human(Player),
    /// A computer player's decision, in this seat.
    Computer(Player),
    /// The game is over.
    Over,
}

/// An error in a request about a game, with the core's own message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The ruleset string, a player spec or the seats are not valid.
    #[error("{0}")]
    Setup(String),
    /// The action is not in the game's notation, or not legal now.
    #[error("{0}")]
    Action(String),
    /// A record that cannot be read or replayed.
    #[error("{0}")]
    Record(String),
}

/// Who sits in a seat.
#[derive(Clone)]
enum Seat<S: GameState> {
    Human,
    Computer(PreparedAgent<S>),
}

/// One action as the views show it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ActionRecord)]
pub struct ActionView {
    /// The action's index: the number of actions before it.
    pub index: usize,
    /// Who acted: a seat name, or `chance`.
    pub actor: &'static str,
    /// The action in the game's notation.
    pub action: String,
    /// What it did, in words.
    pub description: String,
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
    pub detail: Value,
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
    pub state: Value,
    /// The position as the terminal draws it.
    pub board: String,
    /// Every action so far.
    pub actions: Vec<ActionView>,
    /// The legal actions now (empty while the game is over).
    pub legal: Vec<LegalAction>,
    /// True if `POST .../undo` would take something back.
    pub can_undo: bool,
    /// The board described for drawing, read from the core's accessors.
    pub drawing: crate::drawing::Drawing,
}

/// A game of any ruleset: the type-erased face of [`TypedGame`].
pub trait DynGame: Send {
    /// The canonical ruleset string.
    fn ruleset(&self) -> String;
    /// The seat names in seat order.
    fn seat_names(&self) -> [&'static str; 2];
    /// The index of the current state: the number of actions played.
    fn index(&self) -> usize;
    /// Who acts next.
    fn next(&self) -> Next;
    /// The full view of the game.
    fn view(&self) -> StateView;
    /// The legal actions now.
    fn legal(&self) -> LegalView;
    /// Reads `text` in the game's notation at the current turn and applies it; returns the
    /// canonical notation (as stored). The state is unchanged on error.
    ///
    /// # Errors
    /// [`GameError::Action`] with the core's explanation.
    fn apply(&mut self, text: &str) -> Result<String, GameError>;
    /// At a chance turn, the outcome the server throws, in notation (not yet applied).
    fn throw(&self) -> Option<String>;
    /// At a computer seat's turn, the job that chooses its move.
    fn computer_job(&self) -> Option<ComputerJob>;
    /// Takes the game back to its first `len` actions.
    fn truncate(&mut self, len: usize);
    /// Changes whenever the game changes: the number of actions and of take-backs. A
    /// computer's move is applied only if the version is still the one it was computed for.
    fn version(&self) -> (usize, u64);
    /// The length to truncate to for an undo: back to the last decision of a human seat, in a
    /// game between a person and the computer; `None` if there is nothing to undo or the game
    /// is not against the computer.
    fn undo_point(&self) -> Option<usize>;
    /// True if one seat is a person and the other the computer.
    fn against_computer(&self) -> bool;
    /// The game record ([`write_record`]).
    fn record(&self) -> String;
    /// The spec of the game's strongest player, the default for hints.
    fn strongest(&self) -> &'static str;
    /// At a player's turn, the job that ranks every legal move with the player `spec` (under
    /// the same limits as a computer seat), seeded with `seed` unless the spec has its own.
    ///
    /// # Errors
    /// [`GameError::Setup`] for a bad spec or one above the server's limits (checked now);
    /// the job itself fails for a player that does not rank moves.
    fn hint_job(&self, spec: &str, seed: u64) -> Result<HintJob, GameError>;
}

/// A game of one concrete ruleset.
pub struct TypedGame<S: Playable> {
    rules: S::Ruleset,
    seats: [Seat<S>; 2],
    specs: [String; 2],
    seed: u64,
    state: S,
    actions: Vec<ActionOf<S>>,
    log: Vec<ActionView>,
    takebacks: u64,
}

/// The seed of the chance outcome at action `index` of the game with seed `seed`.
fn chance_seed(seed: u64, index: usize) -> u64 {
    derive_seed(seed, index as u64)
}

/// Builds a new game from a ruleset string and the two seats (`human` or an agent spec).
///
/// # Errors
/// [`GameError::Setup`] for a bad ruleset string or a bad player spec.
pub fn new_game(
    ruleset: &str,
    seats: &[String; 2],
    seed: u64,
) -> Result<Box<dyn DynGame>, GameError> {
    let any: AnyRuleset = ruleset
        .parse()
        .map_err(|e: qasab_core::RulesetError| GameError::Setup(e.to_string()))?;
    with_ruleset!(&any, r => build(r, seats, seed))
}

/// The default seats of a ruleset: a person, then the game's strongest computer player.
///
/// # Errors
/// [`GameError::Setup`] for a bad ruleset string.
pub fn default_seats(ruleset: &str) -> Result<[String; 2], GameError> {
    let any: AnyRuleset = ruleset
        .parse()
        .map_err(|e: qasab_core::RulesetError| GameError::Setup(e.to_string()))?;
    Ok(with_ruleset!(&any, r => strongest(r)))
}

fn strongest<R: Ruleset>(_: &R) -> [String; 2]
where
    R::State: Playable,
{
    [
        "human".to_string(),
        <R::State as Playable>::strongest_agent().to_string(),
    ]
}

/// The largest budgets a computer player may be given on the server: a decision must not hold
/// a thread of the blocking pool for long, nor take every core. (The level presets are well
/// inside them: `mcts(level=5)` is 100,000 iterations, `expectimax(level=5)` 8,000,000 nodes.)
const SERVER_LIMITS: &[(&str, u64, &str)] = &[
    ("time", 10_000, "milliseconds"),
    ("iterations", 1_000_000, "iterations"),
    ("threads", 2, "threads"),
    ("nodes", 8_000_000, "nodes"),
];

/// Refuses a player spec whose budget is above [`SERVER_LIMITS`]; the player checks the rest.
fn check_limits(spec: &str) -> Result<(), String> {
    let Ok(parsed) = AgentSpec::parse(spec) else {
        return Ok(());
    };
    for &(key, max, unit) in SERVER_LIMITS {
        if let Some(v) = parsed.get(key).and_then(|v| v.parse::<u64>().ok())
            && v > max
        {
            return Err(format!(
                "{spec}: {key}={v} is above the server's limit of {max} {unit}"
            ));
        }
    }
    Ok(())
}

/// The most counters per pit for which the server offers the exact Tihbat `solver`: its table
/// grows with the fourth power of the counters (seeds=7 solves in milliseconds, seeds=20 in
/// a fraction of a second, seeds=60 would take many seconds and hundreds of megabytes).
const SOLVER_MAX_SEEDS: u32 = 20;

/// Prepared players by ruleset and spec, shared by every game: the Tihbat solver is solved
/// once per ruleset, not once per game. Bounded: cleared when it grows past [`CACHE_SIZE`].
type AgentCache = Mutex<HashMap<(String, String), Arc<dyn Any + Send + Sync>>>;

/// The most prepared players kept.
const CACHE_SIZE: usize = 64;

fn prepared<R: Ruleset>(spec: &str, rules: &R) -> Result<PreparedAgent<R::State>, String>
where
    R::State: Playable,
{
    static CACHE: OnceLock<AgentCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (rules.to_string(), spec.to_string());
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned())
        && let Some(agent) = found.downcast_ref::<PreparedAgent<R::State>>()
    {
        return Ok(agent.clone());
    }
    let parsed = AgentSpec::parse(spec).map_err(|e| e.to_string())?;
    if parsed.name == "solver"
        && let Some(seeds) = rules
            .option_value("seeds")
            .and_then(|v| v.parse::<u32>().ok())
        && seeds > SOLVER_MAX_SEEDS
    {
        return Err(format!(
            "solver: the server solves tihbat up to seeds={SOLVER_MAX_SEEDS}, not seeds={seeds}"
        ));
    }
    let agent = PreparedAgent::<R::State>::new(spec, rules).map_err(|e| e.to_string())?;
    if let Ok(mut c) = cache.lock() {
        if c.len() >= CACHE_SIZE {
            c.clear();
        }
        c.insert(key, Arc::new(agent.clone()));
    }
    Ok(agent)
}

fn build<R: Ruleset>(
    rules: &R,
    specs: &[String; 2],
    seed: u64,
) -> Result<Box<dyn DynGame>, GameError>
where
    R::State: Playable,
{
    let seat = |p: Player| -> Result<Seat<R::State>, GameError> {
        let spec = specs[p.index()].trim();
        if spec == "human" {
            return Ok(Seat::Human);
        }
        check_limits(spec)
            .and_then(|()| prepared(spec, rules))
            .map(Seat::Computer)
            .map_err(|e| GameError::Setup(format!("{}: {e}", rules.seat_name(p))))
    };
    Ok(Box::new(TypedGame::<R::State> {
        rules: rules.clone(),
        seats: [seat(Player::One)?, seat(Player::Two)?],
        specs: specs.clone().map(|s| s.trim().to_string()),
        seed,
        state: rules.initial_state(),
        actions: Vec::new(),
        log: Vec::new(),
        takebacks: 0,
    }))
}

/// Reads and replays a record's text; returns its canonical ruleset string and its actions in
/// canonical notation, ready to be applied to a new game.
///
/// # Errors
/// [`GameError::Record`] with the core's message and line number.
pub fn read_record(text: &str) -> Result<(String, Vec<String>), GameError> {
    let record = Record::parse(text).map_err(|e| GameError::Record(e.to_string()))?;
    let any: AnyRuleset = record
        .ruleset
        .parse()
        .map_err(|e: qasab_core::RulesetError| {
            GameError::Record(format!("line {}: {e}", record.ruleset_line))
        })?;
    with_ruleset!(&any, r => replay_record(r, &record))
}

fn replay_record<R: Ruleset>(
    rules: &R,
    record: &Record,
) -> Result<(String, Vec<String>), GameError> {
    let replayed = replay::<R::State>(record).map_err(|e| GameError::Record(e.to_string()))?;
    Ok((
        rules.to_string(),
        replayed.actions.iter().map(|a| a.to_string()).collect(),
    ))
}

fn actor<S: GameState>(state: &S) -> Option<&'static str> {
    qasab_core::record::actor_name(state)
}

impl<S: Playable> TypedGame<S> {
    fn turn_view(&self) -> TurnView {
        let rules = &self.rules;
        match self.state.turn() {
            Turn::Chance => TurnView::Chance {
                seat: self.state.chance_player().map(|p| rules.seat_name(p)),
            },
            Turn::Player(p) => TurnView::Player {
                seat: rules.seat_name(p),
                human: matches!(self.seats[p.index()], Seat::Human),
            },
            Turn::Over(o) => TurnView::Over {
                winner: o.winner.map(|p| rules.seat_name(p)),
                scores: o.scores.into_array(),
                reason: o.reason.name(),
                description: o.reason.describe(),
                truncated: o.is_truncated(),
            },
        }
    }

    fn legal_actions(&self) -> (Option<u32>, Vec<LegalAction>) {
        let state = &self.state;
        match state.turn() {
            Turn::Chance => {
                let mut outs = Vec::new();
                let total = state.chance_outcomes(&mut outs);
                let list = outs
                    .iter()
                    .map(|w| LegalAction {
                        action: w.outcome.to_string(),
                        description: state.describe_chance(w.outcome),
                        weight: Some(w.weight),
                        detail: serde_json::to_value(w.outcome).unwrap_or(Value::Null),
                    })
                    .collect();
                (Some(total), list)
            }
            Turn::Player(_) => {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let list = moves
                    .iter()
                    .map(|&m| LegalAction {
                        action: m.to_string(),
                        description: state.describe_move(m),
                        weight: None,
                        detail: serde_json::to_value(m).unwrap_or(Value::Null),
                    })
                    .collect();
                (None, list)
            }
            Turn::Over(_) => (None, Vec::new()),
        }
    }

    /// Applies an action already read, logging it with its description.
    fn push(&mut self, action: ActionOf<S>) -> Result<String, GameError> {
        let who = actor(&self.state).unwrap_or("nobody");
        let description = match action {
            Action::Move(m) => format!("{who} plays {m}: {}", self.state.describe_move(m)),
            Action::Chance(c) => self.state.describe_chance(c),
        };
        self.state
            .try_apply(action)
            .map_err(|e| GameError::Action(e.to_string()))?;
        let text = action.to_string();
        self.log.push(ActionView {
            index: self.actions.len(),
            actor: who,
            action: text.clone(),
            description,
        });
        self.actions.push(action);
        Ok(text)
    }

    /// The index of every action a person chose.
    fn human_decisions(&self) -> impl Iterator<Item = usize> + '_ {
        self.log.iter().filter_map(|a| {
            let p = self.rules.seat_by_name(a.actor)?;
            matches!(self.seats[p.index()], Seat::Human).then_some(a.index)
        })
    }
}

impl<S: Playable> DynGame for TypedGame<S> {
    fn ruleset(&self) -> String {
        self.rules.to_string()
    }

    fn seat_names(&self) -> [&'static str; 2] {
        Player::ALL.map(|p| self.rules.seat_name(p))
    }

    fn index(&self) -> usize {
        self.actions.len()
    }

    fn next(&self) -> Next {
        match self.state.turn() {
            Turn::Chance => Next::Chance,
            Turn::Player(p) => match self.seats[p.index()] {
                Seat::Human => Next::Human(p),
                Seat::Computer(_) => Next::Computer(p),
            },
            Turn::Over(_) => Next::Over,
        }
    }

    fn view(&self) -> StateView {
        let seat = |p: Player| SeatView {
            seat: self.rules.seat_name(p),
            player: self.specs[p.index()].clone(),
        };
        StateView {
            ruleset: self.rules.to_string(),
            name: self.rules.name(),
            title: self.rules.title(),
            seats: [seat(Player::One), seat(Player::Two)],
            index: self.actions.len(),
            turn: self.turn_view(),
            position: self.state.position_id(),
            scores: self.state.scores().into_array(),
            state: serde_json::to_value(&self.state).unwrap_or(Value::Null),
            board: self.state.render(),
            actions: self.log.clone(),
            legal: self.legal_actions().1,
            can_undo: self.undo_point().is_some(),
            drawing: crate::drawing::of(&self.state, &self.log),
        }
    }

    fn legal(&self) -> LegalView {
        let (denominator, actions) = self.legal_actions();
        LegalView {
            index: self.actions.len(),
            actor: actor(&self.state),
            denominator,
            actions,
        }
    }

    fn apply(&mut self, text: &str) -> Result<String, GameError> {
        let text = text.trim();
        let action = match self.state.turn() {
            Turn::Chance => Action::Chance(
                self.state
                    .parse_chance(text)
                    .map_err(|e| GameError::Action(e.to_string()))?,
            ),
            Turn::Player(_) => Action::Move(
                self.state
                    .parse_move(text)
                    .map_err(|e| GameError::Action(e.to_string()))?,
            ),
            Turn::Over(o) => {
                return Err(GameError::Action(format!(
                    "no action can be made: the game is over ({})",
                    o.reason.describe()
                )));
            }
        };
        self.push(action)
    }

    fn throw(&self) -> Option<String> {
        if self.state.turn() != Turn::Chance {
            return None;
        }
        let mut source = ChanceSource::new(chance_seed(self.seed, self.actions.len()));
        Some(source.draw(&self.state, &mut Vec::new()).to_string())
    }

    fn computer_job(&self) -> Option<ComputerJob> {
        let p = self.state.turn().player()?;
        let Seat::Computer(prepared) = &self.seats[p.index()] else {
            return None;
        };
        let prepared = prepared.clone();
        let state = self.state.clone();
        let seed = derive_seed(seat_seed(self.seed, p), self.actions.len() as u64);
        Some(Box::new(move || {
            let mut agent = prepared.make(seed);
            agent.choose(&state).to_string()
        }))
    }

    fn truncate(&mut self, len: usize) {
        if len >= self.actions.len() {
            return;
        }
        self.takebacks += 1;
        let kept: Vec<_> = self.actions[..len].to_vec();
        self.state = self.rules.initial_state();
        self.actions.clear();
        self.log.clear();
        for a in kept {
            // Each was legal at its point when first applied, so it is again.
            let _ = self.push(a);
        }
    }

    fn version(&self) -> (usize, u64) {
        (self.actions.len(), self.takebacks)
    }

    fn undo_point(&self) -> Option<usize> {
        if !self.against_computer() {
            return None;
        }
        self.human_decisions().last()
    }

    fn against_computer(&self) -> bool {
        matches!(
            (&self.seats[0], &self.seats[1]),
            (Seat::Human, Seat::Computer(_)) | (Seat::Computer(_), Seat::Human)
        )
    }

    fn record(&self) -> String {
        // The seed is left out: it decides the throws still to come.
        let info: Vec<(String, String)> = Player::ALL
            .iter()
            .map(|&p| {
                (
                    self.rules.seat_name(p).to_string(),
                    self.specs[p.index()].clone(),
                )
            })
            .collect();
        write_record::<S>(&self.rules, &self.actions, &info)
    }

    fn strongest(&self) -> &'static str {
        S::strongest_agent()
    }

    fn hint_job(&self, spec: &str, seed: u64) -> Result<HintJob, GameError> {
        let spec = spec.trim().to_string();
        if spec == "human" {
            return Err(GameError::Setup(
                "human is not a player that ranks moves; name a computer player".into(),
            ));
        }
        let prepared = check_limits(&spec)
            .and_then(|()| prepared(&spec, &self.rules))
            .map_err(GameError::Setup)?;
        let state = self.state.clone();
        let index = self.actions.len();
        Ok(Box::new(move || {
            let mut agent = prepared.make(seed);
            let Some(eval) = agent.evaluate(&state) else {
                return Err(GameError::Setup(format!(
                    "{spec} chooses moves without ranking them, so it gives no hints; \
                     ask another player (e.g. {})",
                    S::strongest_agent()
                )));
            };
            let moves = eval
                .moves
                .into_iter()
                .map(|(m, value)| HintMove {
                    action: m.to_string(),
                    description: state.describe_move(m),
                    // JSON has no infinities; a value is finite in practice.
                    value: if value.is_nan() {
                        0.0
                    } else {
                        value.clamp(f64::MIN, f64::MAX)
                    },
                })
                .collect();
            Ok(HintView {
                index,
                agent: spec,
                kind: hint_kind(eval.kind),
                moves,
            })
        }))
    }
}
