//! One game of any ruleset, spoken to in the game's own notation.
//!
//! The server never decides a rule: every question (whose turn, which actions are legal, what
//! an action does) goes to the core's dynamic game ([`AnyGame`], [`qasab_core::AnyState`]),
//! and every computer decision to the ai's dynamic players ([`AnyPlayer`]). This module adds
//! the seats, the server's throws and the log of actions, and turns the answers into the JSON
//! views of the API.
//!
//! # Randomness
//! The server draws each throw when it is needed, from 64 fresh bits of the operating system's
//! random source (through the pinned generator, [`qasab_ai::rng`], which turns them into an
//! outcome with the exact stick weights), and stores it in the record like any other action.
//! Replaying the stored actions therefore needs no generator, and nothing about the throws
//! to come can be learnt from the game, not even by undoing a move and playing another: the
//! throws after an undo are new draws.
//!
//! Computer players are built afresh for each decision with a seed derived from the game's
//! secret seed and the action's index, so their choices do not depend on whether the server
//! restarted in between. A game of a ruleset that has endgame tables on the server gives them
//! to its computer seats and its hints ([`Game::set_tables`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use qasab_ai::play::driver::{ChanceSource, seat_seed};
use qasab_ai::players::{AnyPlayer, Limits, STRONGEST};
use qasab_ai::rng::derive_seed;
use qasab_ai::search::endgame::TableSet;
use qasab_core::{AnyAction, AnyGame, AnyRuleset, ParseActionError, Player, Turn};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::views::hint_kind;
pub use crate::views::{
    ACTIONS_PAGE, ActionView, ActionsView, HintKind, HintMove, HintView, LegalAction, LegalView,
    SeatView, StateView, TurnView, VIEW_ACTIONS,
};

/// A computer player's decisions to be computed off the async threads: the moves chosen in
/// order, from the state the job was made for, each legal where it is played (empty if the
/// player found none).
pub type ComputerJob = Box<dyn FnOnce() -> Vec<AnyAction> + Send>;

/// A hint to be computed off the async threads: the moves ranked by a player, or why that
/// player cannot rank them.
pub type HintJob = Box<dyn FnOnce() -> Result<HintView, GameError> + Send>;

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
enum Seat {
    Human,
    Computer(AnyPlayer),
}

/// How many take-backs a game remembers the lengths of (for [`Game::kept_since`]).
const TRUNCATIONS_KEPT: usize = 64;

/// One action of the log, as played (the views add its structured form).
#[derive(Clone, Debug)]
struct Logged {
    actor: &'static str,
    seat: Option<&'static str>,
    action: String,
    description: String,
}

/// A game of any ruleset: the core's game with its history ([`AnyGame`]), who sits in each
/// seat, the secret seed of its computer players, and the log of its actions as the views show
/// them.
pub struct Game {
    game: AnyGame,
    seats: [Seat; 2],
    specs: [String; 2],
    seed: u64,
    log: Vec<Logged>,
    /// Who made each action of the log: a seat, or `None` for chance.
    movers: Vec<Option<Player>>,
    takebacks: u64,
    /// Whether hints may be asked.
    hints: bool,
    /// The last take-backs: the number of each (the value of `takebacks` after it) and the
    /// length the log was cut to.
    truncations: VecDeque<(u64, usize)>,
    /// The endgame tables of the game's ruleset, which its computer seats and hints consult
    /// first.
    tables: Option<Arc<TableSet>>,
}

/// The JSON of a value of the core, written once into the answer's text (not built as a tree
/// of [`serde_json::Value`]s first, which costs an allocation for every key and value); `null` if it
/// cannot be written.
fn raw_json<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

fn parse_ruleset(ruleset: &str) -> Result<AnyRuleset, GameError> {
    ruleset
        .parse()
        .map_err(|e: qasab_core::RulesetError| GameError::Setup(e.to_string()))
}

/// Builds a new game from a ruleset string and the two seats (`human` or an agent spec), the
/// computer players within `limits`. Hints are on until [`Game::set_hints`] says otherwise.
///
/// # Errors
/// [`GameError::Setup`] for a bad ruleset string, a bad player spec or one above the limits.
pub fn new_game(
    ruleset: &str,
    seats: &[String; 2],
    seed: u64,
    limits: &Limits,
) -> Result<Game, GameError> {
    let rules = parse_ruleset(ruleset)?;
    let seat = |p: Player| -> Result<(Seat, String), GameError> {
        let spec = seats[p.index()].trim();
        if spec == "human" {
            return Ok((Seat::Human, spec.to_string()));
        }
        playable(spec, &rules, limits)
            .map(|(spec, player)| (Seat::Computer(player), spec))
            .map_err(|e| GameError::Setup(format!("{}: {e}", rules.seat_name(p))))
    };
    let [(one, one_spec), (two, two_spec)] = [seat(Player::One)?, seat(Player::Two)?];
    Ok(Game {
        seats: [one, two],
        specs: [one_spec, two_spec],
        seed,
        game: AnyGame::new(&rules),
        log: Vec::new(),
        movers: Vec::new(),
        takebacks: 0,
        hints: true,
        truncations: VecDeque::new(),
        tables: None,
    })
}

/// The seats of a new game of `ruleset`, a seat left empty given to the strongest computer
/// player of that exact ruleset that the server can play within `limits`
/// ([`strongest_playable`]), so that no client has to know that rule. Prepares that player
/// (which for the `solver` solves the game): call it off the async threads.
///
/// # Errors
/// [`GameError::Setup`] for a bad ruleset string, or no player the server can play, when a
/// seat is left empty.
pub fn fill_seats(
    ruleset: &str,
    seats: [Option<String>; 2],
    limits: &Limits,
) -> Result<[String; 2], GameError> {
    let strongest = if seats.iter().any(Option::is_none) {
        strongest_playable(&parse_ruleset(ruleset)?, limits)?
    } else {
        String::new()
    };
    Ok(seats.map(|s| s.unwrap_or_else(|| strongest.clone())))
}

/// The strongest player of `rules` that the server can play within `limits`: the first of
/// [`AnyPlayer::strongest_first`] (the game's strongest, then plain `mcts`) that the limits
/// allow and that prepares, as a seat of `strongest` reads. The exact `solver`
/// of a Tihbat above the server's counters, or one whose values it cannot prove
/// (`cycle=own-side`), gives way to `mcts`.
///
/// # Errors
/// [`GameError::Setup`] if none can be played, with why for each.
pub fn strongest_playable(rules: &AnyRuleset, limits: &Limits) -> Result<String, GameError> {
    playable(STRONGEST, rules, limits)
        .map(|(spec, _)| spec)
        .map_err(|why| {
            GameError::Setup(format!(
                "no computer player of {rules} can play on this server: {why}"
            ))
        })
}

/// The player of `spec` for `rules` within `limits` ([`prepared`]), and the spec of what
/// plays: `spec` itself, or for `strongest` the first of the game's default players that the
/// server can play ([`AnyPlayer::stands_for`]).
///
/// # Errors
/// A message: the player's own error, or the limit passed (for `strongest`, one for each
/// default player).
fn playable(
    spec: &str,
    rules: &AnyRuleset,
    limits: &Limits,
) -> Result<(String, AnyPlayer), String> {
    let mut passed = Vec::new();
    for spec in AnyPlayer::stands_for(spec, rules).map_err(|e| e.to_string())? {
        match prepared(&spec, rules, limits) {
            Ok(player) => return Ok((spec, player)),
            Err(why) => passed.push(why),
        }
    }
    Err(passed.join("; "))
}

/// Prepared players by ruleset and spec, shared by every game: the Tihbat solver is solved
/// once per ruleset, not once per game; a player that failed to prepare (a solver that cannot
/// prove the values of its game) is kept as that failure, so that it is not prepared again.
/// Bounded: cleared when it grows past [`CACHE_SIZE`].
type PlayerCache = Mutex<HashMap<(String, String), Result<AnyPlayer, String>>>;

/// The most prepared players kept.
const CACHE_SIZE: usize = 64;

/// The player of `spec` for `rules`, within `limits`, from the cache if it was prepared
/// before (under limits that may have been others: the cache is the process's). The limits
/// are checked first, before anything is prepared.
fn prepared(spec: &str, rules: &AnyRuleset, limits: &Limits) -> Result<AnyPlayer, String> {
    static CACHE: OnceLock<PlayerCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (rules.to_string(), spec.to_string());
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return match found {
            Ok(player) => limits.check(spec, player.cost()).map(|()| player),
            Err(why) => AnyPlayer::allowed(spec, rules, limits).and(Err(why)),
        };
    }
    AnyPlayer::allowed(spec, rules, limits)?;
    let player = AnyPlayer::new(spec, rules).map_err(|e| e.to_string());
    if let Ok(mut c) = cache.lock() {
        if c.len() >= CACHE_SIZE {
            c.clear();
        }
        c.insert(key, player.clone());
    }
    player
}

/// Reads and replays a record's text; returns its canonical ruleset string and its actions in
/// canonical notation, ready to be applied to a new game.
///
/// # Errors
/// [`GameError::Record`] with the core's message and line number.
pub fn read_record(text: &str) -> Result<(String, Vec<String>), GameError> {
    let game = AnyGame::from_record(text).map_err(|e| GameError::Record(e.to_string()))?;
    Ok((
        game.ruleset().to_string(),
        game.actions().iter().map(|a| a.to_string()).collect(),
    ))
}

impl Game {
    pub(crate) fn rules(&self) -> &AnyRuleset {
        self.game.ruleset()
    }

    fn turn_view(&self) -> TurnView {
        let rules = self.rules();
        let state = self.game.state();
        match state.turn() {
            Turn::Chance => TurnView::Chance {
                seat: state.chance_player().map(|p| rules.seat_name(p)),
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
        let state = self.game.state();
        let (denominator, legal) = state.legal_actions();
        let list = legal
            .into_iter()
            .map(|(a, weight)| LegalAction {
                action: a.to_string(),
                description: state.describe(a),
                weight,
                detail: raw_json(&a),
            })
            .collect();
        (denominator, list)
    }

    /// Applies a legal action (read by `AnyState::parse_action`, drawn by [`Game::throw`] or
    /// chosen by a [`Game::computer_job`] for this state), logging it with its description. It
    /// is not checked again: the legal list is built once per action.
    fn push(&mut self, action: AnyAction) -> Result<(), GameError> {
        let state = self.game.state();
        let who = state.actor().unwrap_or("nobody");
        let mover = state.turn().player();
        let seat = if action.is_chance() {
            state.chance_player()
        } else {
            mover
        }
        .map(|p| self.rules().seat_name(p));
        let description = if action.is_chance() {
            state.describe(action)
        } else {
            format!("{who} plays {action}: {}", state.describe(action))
        };
        self.game
            .apply_unchecked(action)
            .map_err(|e| GameError::Action(e.to_string()))?;
        self.log.push(Logged {
            actor: who,
            seat,
            action: action.to_string(),
            description,
        });
        self.movers.push(mover);
        Ok(())
    }

    /// The index of every action a person chose.
    fn human_decisions(&self) -> impl Iterator<Item = usize> + '_ {
        self.movers.iter().enumerate().filter_map(|(i, &mover)| {
            matches!(self.seats[mover?.index()], Seat::Human).then_some(i)
        })
    }

    /// The last throw so far with its description, for the drawing.
    fn last_chance(&self) -> Option<(AnyAction, String)> {
        let i = self.log.iter().rposition(|a| a.actor == "chance")?;
        Some((self.game.actions()[i], self.log[i].description.clone()))
    }

    /// The canonical ruleset string.
    pub fn ruleset(&self) -> String {
        self.rules().to_string()
    }

    /// The seat names in seat order.
    pub fn seat_names(&self) -> [&'static str; 2] {
        Player::ALL.map(|p| self.rules().seat_name(p))
    }

    /// The index of the current state: the number of actions played.
    pub fn index(&self) -> usize {
        self.game.actions().len()
    }

    /// Who acts next.
    pub fn next(&self) -> Next {
        match self.game.state().turn() {
            Turn::Chance => Next::Chance,
            Turn::Player(p) => match self.seats[p.index()] {
                Seat::Human => Next::Human(p),
                Seat::Computer(_) => Next::Computer(p),
            },
            Turn::Over(_) => Next::Over,
        }
    }

    /// The action at `index` of the log as the views show it.
    fn action_view(&self, index: usize) -> ActionView {
        let logged = &self.log[index];
        ActionView {
            index,
            actor: logged.actor,
            seat: logged.seat,
            action: logged.action.clone(),
            description: logged.description.clone(),
            detail: raw_json(&self.game.actions()[index]),
        }
    }

    /// At most `limit` actions from `from` on (none if `from` is past the end).
    pub fn actions(&self, from: usize, limit: usize) -> ActionsView {
        let total = self.index();
        let end = from.saturating_add(limit).min(total);
        ActionsView {
            from,
            total,
            actions: (from.min(end)..end).map(|i| self.action_view(i)).collect(),
        }
    }

    /// Every action so far in the game's notation.
    pub fn action_texts(&self) -> Vec<String> {
        self.action_texts_from(0)
    }

    /// Every action so far, as played.
    pub fn played(&self) -> Vec<AnyAction> {
        self.game.actions().to_vec()
    }

    /// The actions from `from` on in the game's notation (none if `from` is past the end).
    pub fn action_texts_from(&self, from: usize) -> Vec<String> {
        self.log
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|a| a.action.clone())
            .collect()
    }

    /// The view of the game with every action from `from` on, however many (a WebSocket
    /// frame sends those its watcher has not had).
    pub fn view_from(&self, from: usize) -> StateView {
        let from = from.min(self.index());
        let mut view = self.view_without_actions();
        view.actions_from = from;
        view.actions = self.actions(from, usize::MAX).actions;
        view
    }

    /// The view of the game with its last [`VIEW_ACTIONS`] actions.
    pub fn view(&self) -> StateView {
        self.view_from(self.index().saturating_sub(VIEW_ACTIONS))
    }

    /// The view of the game, its list of actions empty (from the current index).
    fn view_without_actions(&self) -> StateView {
        let rules = self.rules();
        let state = self.game.state();
        let seat = |p: Player| SeatView {
            seat: rules.seat_name(p),
            player: self.specs[p.index()].clone(),
        };
        StateView {
            ruleset: rules.to_string(),
            name: rules.name(),
            title: rules.title(),
            seats: [seat(Player::One), seat(Player::Two)],
            index: self.index(),
            turn: self.turn_view(),
            position: state.position_id(),
            scores: state.scores().into_array(),
            state: raw_json(state),
            board: state.render(),
            actions_from: self.index(),
            actions: Vec::new(),
            legal: self.legal_actions().1,
            can_undo: self.undo_point().is_some(),
            drawing: state.drawing(self.last_chance()),
            hints: self.hints,
        }
    }

    /// The legal actions of the current turn.
    pub fn legal(&self) -> LegalView {
        let (denominator, actions) = self.legal_actions();
        LegalView {
            index: self.index(),
            actor: self.game.state().actor(),
            denominator,
            actions,
        }
    }

    /// Applies an action given in the game's notation (shorthand accepted), checking that it
    /// is legal.
    ///
    /// # Errors
    /// [`GameError::Action`] with the core's message.
    pub fn apply(&mut self, text: &str) -> Result<(), GameError> {
        let action = self.game.state().parse_action(text.trim()).map_err(|e| {
            GameError::Action(match e {
                ParseActionError::Over(o) => format!(
                    "no action can be made: the game is over ({})",
                    o.reason.describe()
                ),
                e => e.to_string(),
            })
        })?;
        self.push(action)
    }

    /// At a chance turn, the outcome thrown with `fresh` (64 bits from the operating
    /// system's random source), to be played with [`Game::play`].
    pub fn throw(&self, fresh: u64) -> Option<AnyAction> {
        let mut source = ChanceSource::new(fresh);
        source.draw_any(self.game.state())
    }

    /// Plays an action the server made for the current state: a throw from [`Game::throw`],
    /// or the next decision of a [`Game::computer_job`] made for this game (the caller checks,
    /// with [`Game::version`], that the game has not changed since). It is not parsed or
    /// checked again.
    ///
    /// # Errors
    /// [`GameError::Action`] for an action of another game.
    pub fn play(&mut self, action: AnyAction) -> Result<(), GameError> {
        self.push(action)
    }

    /// At a computer player's turn, its decision, to be computed off the async threads; with
    /// `whole_turn`, also the decisions the same player makes right after it, until the turn
    /// passes to a person or to the sticks, so that the turn takes one place in the queue of
    /// computer work. Each decision is the player's with the seed of its own index.
    pub fn computer_job(&self, whole_turn: bool) -> Option<ComputerJob> {
        let p = self.game.state().turn().player()?;
        let Seat::Computer(player) = &self.seats[p.index()] else {
            return None;
        };
        let player = player.clone().with_tables(self.tables.as_ref());
        let mut state = self.game.state().clone();
        let seat_seed = seat_seed(self.seed, p);
        let mut index = self.index() as u64;
        Some(Box::new(move || {
            let mut chosen = Vec::new();
            while let Some(action) = player.choose(&state, derive_seed(seat_seed, index)) {
                // A legal action of this state, as the player chose it.
                if state.apply_unchecked(action).is_err() {
                    break;
                }
                chosen.push(action);
                index += 1;
                if !whole_turn || state.turn().player() != Some(p) {
                    break;
                }
            }
            chosen
        }))
    }

    /// Takes the game back to its first `len` actions.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.index() {
            return;
        }
        self.takebacks += 1;
        if self.truncations.len() == TRUNCATIONS_KEPT {
            self.truncations.pop_front();
        }
        self.truncations.push_back((self.takebacks, len));
        // The kept actions, their log lines and movers are those of the same history.
        self.game.truncate(len);
        self.log.truncate(len);
        self.movers.truncate(len);
    }

    /// The index and the number of takebacks: a version that changes with every change.
    pub fn version(&self) -> (usize, u64) {
        (self.index(), self.takebacks)
    }

    /// The shortest length the log has had since take-back number `takebacks` (the second
    /// half of a [`Game::version`]): the actions below it have not changed since. 0 when the
    /// game no longer remembers that far back.
    pub fn kept_since(&self, takebacks: u64) -> usize {
        if takebacks >= self.takebacks {
            return self.index();
        }
        let remembered = self
            .truncations
            .front()
            .is_some_and(|&(first, _)| first <= takebacks + 1);
        if !remembered {
            return 0;
        }
        self.truncations
            .iter()
            .filter(|&&(n, _)| n > takebacks)
            .map(|&(_, len)| len)
            .fold(self.index(), usize::min)
    }

    /// The length undo takes the game back to: the last decision of the person, in a game
    /// against the computer.
    pub fn undo_point(&self) -> Option<usize> {
        if !self.against_computer() {
            return None;
        }
        self.human_decisions().last()
    }

    /// True for a person against a computer player.
    pub fn against_computer(&self) -> bool {
        matches!(
            (&self.seats[0], &self.seats[1]),
            (Seat::Human, Seat::Computer(_)) | (Seat::Computer(_), Seat::Human)
        )
    }

    /// The game record.
    pub fn record(&self) -> String {
        // The seed is left out: it decides the computer players' choices.
        let info: Vec<(String, String)> = Player::ALL
            .iter()
            .map(|&p| {
                (
                    self.rules().seat_name(p).to_string(),
                    self.specs[p.index()].clone(),
                )
            })
            .collect();
        self.game.record(&info)
    }

    /// Whether hints may be asked in this game.
    pub fn hints(&self) -> bool {
        self.hints
    }

    /// Turns hints on or off for this game.
    pub fn set_hints(&mut self, on: bool) {
        self.hints = on;
    }

    /// Gives the game the endgame tables `tables` (of its ruleset, [`TableSet::open_dir`]), or
    /// takes them away: from then on its computer seats play and its hints rank the moves by
    /// their exact values wherever a table holds the position
    /// ([`AnyPlayer::with_tables`]); elsewhere they play as they would.
    pub fn set_tables(&mut self, tables: Option<Arc<TableSet>>) {
        self.tables = tables;
    }

    /// The two seats' specs in seat order: `human`, or the spec of the computer player that
    /// plays the seat.
    pub(crate) fn specs(&self) -> &[String; 2] {
        &self.specs
    }

    /// The game's strongest computer player, whatever the limits of a host.
    pub fn strongest(&self) -> &'static str {
        AnyPlayer::strongest(self.rules())
    }

    /// A hint: the legal moves ranked by the player of `spec`, or by the strongest player
    /// the server can play within `limits` if `spec` is `None` ([`strongest_playable`]), to
    /// be computed off the async threads.
    ///
    /// # Errors
    /// [`GameError::Setup`] for a bad spec or one above `limits` (checked now); the job
    /// itself fails for a player that does not rank moves.
    pub fn hint_job(
        &self,
        spec: Option<&str>,
        seed: u64,
        limits: &Limits,
    ) -> Result<HintJob, GameError> {
        let spec = match spec {
            Some(spec) => spec.trim().to_string(),
            None => strongest_playable(self.rules(), limits)?,
        };
        if spec == "human" {
            return Err(GameError::Setup(
                "human is not a player that ranks moves; name a computer player".into(),
            ));
        }
        let (spec, player) = playable(&spec, self.rules(), limits).map_err(GameError::Setup)?;
        let player = player.with_tables(self.tables.as_ref());
        let state = self.game.state().clone();
        let index = self.index();
        let strongest =
            AnyPlayer::strongest_allowed(self.rules(), limits).unwrap_or(self.strongest());
        let rules = self.rules().clone();
        Ok(Box::new(move || {
            let Some(Some(eval)) = player.evaluate(&state, seed) else {
                return Err(GameError::Setup(format!(
                    "{spec} chooses moves without ranking them, so it gives no hints; \
                     ask another player (e.g. {strongest})"
                )));
            };
            let moves = eval
                .moves
                .into_iter()
                .map(|(m, value)| HintMove {
                    action: m.to_string(),
                    description: state.describe(m),
                    // JSON has no infinities; a value is finite in practice.
                    value: if value.is_nan() {
                        0.0
                    } else {
                        value.clamp(f64::MIN, f64::MAX)
                    },
                })
                .collect();
            let sanctuaries = qasab_core::endgame::sanctuaries_of(&rules, &state.position_id())
                .ok()
                .flatten()
                .map(|found| {
                    found
                        .into_array()
                        .into_iter()
                        .map(|side| side.into_iter().map(|u| u.square).collect())
                        .collect()
                });
            Ok(HintView {
                index,
                agent: spec,
                kind: hint_kind(eval.kind),
                moves,
                sanctuaries,
            })
        }))
    }
}
