//! The game model shared by every ruleset.
//!
//! It follows OpenSpiel's explicit-chance model. A state says whose turn it is ([`Turn`]):
//! chance, a player, or nobody because the game is over. At a chance turn the state lists every
//! outcome with an exact integer weight ([`Weighted`]); the caller picks one (with its own
//! generator, or from a record) and applies it. At a player turn the state lists the legal
//! [`GameState::Move`]s. Nothing here assumes that players alternate: extra throws and extra
//! turns just report the same player again.
//!
//! The rules never own a random generator, so a game is fully described by its ruleset string and
//! the list of [`Action`]s applied to the initial state (see [`crate::record`]).

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::player::{ByPlayer, Player};
use crate::ruleset::Ruleset;

/// Who acts next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Turn {
    /// A chance event (a throw of the sticks) comes next.
    Chance,
    /// The given player must choose a move.
    Player(Player),
    /// The game is over.
    Over(Outcome),
}

impl Turn {
    /// The player to move, if it is a player's turn.
    pub fn player(self) -> Option<Player> {
        match self {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    /// The outcome, if the game is over.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Turn::Over(o) => Some(o),
            _ => None,
        }
    }
}

/// Why a game ended.
///
/// The last two reasons are safety limits, not rules of the game: a game that ends there is
/// *truncated* ([`EndReason::is_truncation`]), which is reported apart from a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EndReason {
    /// Every counter has been captured (Tihbat T-6).
    BoardEmpty,
    /// A position occurred for the ruleset's n-th time (Tihbat T-7).
    Repetition,
    /// The player to move had no counters and the ruleset ends the game then (Tihbat `empty=end`).
    EmptySide,
    /// A player lost every piece.
    Elimination,
    /// No capture or move is possible any more; the score decides.
    NoMoreCaptures,
    /// Safety limit: too many turns without progress.
    NoProgress,
    /// Safety limit: the turn cap was reached.
    TurnCap,
}

impl EndReason {
    /// Every reason, in a fixed order.
    pub const ALL: [EndReason; 7] = [
        EndReason::BoardEmpty,
        EndReason::Repetition,
        EndReason::EmptySide,
        EndReason::Elimination,
        EndReason::NoMoreCaptures,
        EndReason::NoProgress,
        EndReason::TurnCap,
    ];

    /// True if the game was stopped by a safety limit rather than by its rules.
    pub const fn is_truncation(self) -> bool {
        matches!(self, EndReason::NoProgress | EndReason::TurnCap)
    }

    /// The kebab-case name used in records and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::BoardEmpty => "board-empty",
            EndReason::Repetition => "repetition",
            EndReason::EmptySide => "empty-side",
            EndReason::Elimination => "elimination",
            EndReason::NoMoreCaptures => "no-more-captures",
            EndReason::NoProgress => "no-progress",
            EndReason::TurnCap => "turn-cap",
        }
    }

    /// A short plain-language description.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::BoardEmpty => "every counter has been captured",
            EndReason::Repetition => "a position repeated; the counters left were divided",
            EndReason::EmptySide => "the player to move had no counters left",
            EndReason::Elimination => "a player lost all pieces",
            EndReason::NoMoreCaptures => "no more captures are possible",
            EndReason::NoProgress => "stopped by the no-progress limit",
            EndReason::TurnCap => "stopped by the turn cap",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EndReason {
    type Err = UnknownNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownNameError {
                what: "end reason",
                given: s.to_string(),
                valid: EndReason::ALL.iter().map(|r| r.name()).collect(),
            })
    }
}

/// A name that is not one of a fixed list.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown {what} '{given}'; expected one of: {}", valid.join(", "))]
pub struct UnknownNameError {
    /// What kind of name was expected.
    pub what: &'static str,
    /// The text given.
    pub given: String,
    /// The valid names.
    pub valid: Vec<&'static str>,
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw (and for a truncated game with equal scores).
    pub winner: Option<Player>,
    /// Final scores (captured counters or pieces, after any division at the end).
    pub scores: ByPlayer<u32>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// Builds an outcome whose winner is the player with the higher score (a draw if equal).
    pub fn by_score(scores: ByPlayer<u32>, reason: EndReason) -> Outcome {
        let winner = match scores.one.cmp(&scores.two) {
            std::cmp::Ordering::Greater => Some(Player::One),
            std::cmp::Ordering::Less => Some(Player::Two),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            scores,
            reason,
        }
    }

    /// True if the game was stopped by a safety limit.
    pub fn is_truncated(&self) -> bool {
        self.reason.is_truncation()
    }

    /// The game-theoretic return of `p`: +1 for a win, −1 for a loss, 0 for a draw.
    pub fn return_for(&self, p: Player) -> i32 {
        match self.winner {
            Some(w) if w == p => 1,
            Some(_) => -1,
            None => 0,
        }
    }
}

/// A chance outcome with its exact integer weight.
///
/// The weights of all outcomes of one chance turn are positive and sum to the denominator
/// reported by [`GameState::chance_outcomes`]; the probability of an outcome is
/// `weight / denominator`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weighted<C> {
    /// The outcome.
    pub outcome: C,
    /// Its weight.
    pub weight: u32,
}

impl<C: Copy> Weighted<C> {
    /// The outcome at `x` along the cumulative weights (`0 <= x <` their sum), or `None` past
    /// the end. Drawing `x` uniformly draws each outcome with probability weight / sum.
    ///
    /// ```
    /// use qasab_core::Weighted;
    /// let w = [Weighted { outcome: 'a', weight: 1 }, Weighted { outcome: 'b', weight: 3 }];
    /// assert_eq!(Weighted::at(&w, 0), Some('a'));
    /// assert_eq!(Weighted::at(&w, 3), Some('b'));
    /// assert_eq!(Weighted::at(&w, 4), None);
    /// ```
    pub fn at(outcomes: &[Weighted<C>], mut x: u32) -> Option<C> {
        for w in outcomes {
            if x < w.weight {
                return Some(w.outcome);
            }
            x -= w.weight;
        }
        None
    }
}

/// One step of a game: a player's move or a chance outcome.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action<M, C> {
    /// A player's decision.
    Move(M),
    /// A chance outcome.
    Chance(C),
}

/// The action type of a game state.
pub type ActionOf<S> = Action<<S as GameState>::Move, <S as GameState>::Chance>;

impl<M: fmt::Display, C: fmt::Display> fmt::Display for Action<M, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => m.fmt(f),
            Action::Chance(c) => c.fmt(f),
        }
    }
}

/// A move the current state does not allow, or text that names no move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not in the move notation.
    #[error("'{text}' is not a move: {expected}")]
    Syntax {
        /// The text given.
        text: String,
        /// What the notation looks like.
        expected: String,
    },
    /// The move is well formed but not legal here.
    #[error("{text} is not legal here: {reason}")]
    Illegal {
        /// The move as given.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
    /// It is not a player's turn.
    #[error("no move can be made now: {0}")]
    NotPlayersTurn(String),
}

/// A chance outcome that cannot be applied here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChanceError {
    /// The text is not in the notation for chance outcomes.
    #[error("'{text}' is not a chance outcome: {expected}")]
    Syntax {
        /// The text given.
        text: String,
        /// What the notation looks like.
        expected: String,
    },
    /// It is not a chance turn.
    #[error("no chance event happens now: {0}")]
    NotChanceTurn(String),
}

/// [`GameState::play_picked`] by listing the legal moves into `moves` and playing the one
/// `pick` chooses: the default, and the fallback of games that pick from moves kept otherwise.
///
/// # Panics
/// If it is not a player's turn or `pick` returns an index out of range.
#[inline]
pub fn play_picked_from_list<S: GameState>(
    state: &mut S,
    moves: &mut Vec<S::Move>,
    pick: impl FnOnce(usize) -> usize,
) {
    state.legal_moves(moves);
    let m = moves[pick(moves.len())];
    state.play_unchecked(m);
}

/// The playable state of one game under one ruleset.
///
/// Implemented by each game's state type. Generic code (agents, the match driver, records,
/// simulation, perft) works through this trait only.
///
/// # Contract
/// * [`turn`](Self::turn) is a function of the state alone.
/// * At `Turn::Player(_)`, [`legal_moves`](Self::legal_moves) fills a non-empty, sorted list
///   without duplicates. When a player has nothing to do the list holds the game's pass move.
/// * At `Turn::Chance`, [`chance_outcomes`](Self::chance_outcomes) lists distinct outcomes with
///   positive weights summing to the returned denominator.
/// * At `Turn::Over(_)`, both lists are empty.
pub trait GameState:
    Clone + PartialEq + Eq + Hash + fmt::Debug + Serialize + Send + Sync + 'static
{
    /// The ruleset type that creates these states.
    type Ruleset: Ruleset<State = Self>;
    /// A player's decision: self-describing, with `Display`/`FromStr` in the game's notation.
    type Move: Copy
        + Eq
        + Ord
        + Hash
        + fmt::Debug
        + fmt::Display
        + FromStr
        + Serialize
        + Send
        + Sync
        + 'static;
    /// A chance outcome, with `Display` in the game's notation ([`NoChance`] for games without
    /// chance).
    type Chance: Copy
        + Eq
        + Ord
        + Hash
        + fmt::Debug
        + fmt::Display
        + Serialize
        + Send
        + Sync
        + 'static;

    /// The ruleset this state is played under.
    fn ruleset(&self) -> &Self::Ruleset;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// Clears `out` and fills it with the legal moves, sorted, without duplicates.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Clears `out` and fills it with the chance outcomes; returns the denominator of their
    /// weights (0 if it is not a chance turn).
    fn chance_outcomes(&self, out: &mut Vec<Weighted<Self::Chance>>) -> u32;

    /// Applies a move without checking that it is legal.
    ///
    /// # Panics
    /// May panic, or leave the state inconsistent, if `m` is not legal. Use
    /// [`try_play`](Self::try_play) for moves from untrusted input.
    fn play_unchecked(&mut self, m: Self::Move);

    /// Plays legal move number `pick(n)` of the `n` legal moves, counted in the order of
    /// [`legal_moves`](Self::legal_moves); `moves` is scratch space. The same as listing the
    /// moves and playing the one picked, but a game may pick from moves it keeps in another
    /// form (random playouts use it).
    ///
    /// # Panics
    /// If it is not a player's turn or `pick` returns `n` or more.
    #[inline]
    fn play_picked(&mut self, moves: &mut Vec<Self::Move>, pick: impl FnOnce(usize) -> usize) {
        play_picked_from_list(self, moves, pick);
    }

    /// Applies chance outcome number `pick(outcomes)` of the outcomes, listed as by
    /// [`chance_outcomes`](Self::chance_outcomes); `outs` is scratch space. The same as
    /// listing the outcomes and applying the one picked, but a game may list them without
    /// copying (random playouts use it).
    ///
    /// # Panics
    /// If it is not a chance turn or `pick` returns an index out of range.
    #[inline]
    fn apply_picked_chance(
        &mut self,
        outs: &mut Vec<Weighted<Self::Chance>>,
        pick: impl FnOnce(&[Weighted<Self::Chance>]) -> usize,
    ) {
        self.chance_outcomes(outs);
        let c = outs[pick(outs)].outcome;
        self.apply_chance_unchecked(c);
    }

    /// Applies a chance outcome without checking it.
    ///
    /// # Panics
    /// May panic if it is not a chance turn or `c` is not a listed outcome.
    fn apply_chance_unchecked(&mut self, c: Self::Chance);

    /// Reads a move typed by a person or found in a record, in the context of this state.
    ///
    /// Accepts the full notation and any shorthand the game allows (e.g. a Tihbat pit name
    /// without its count). The move returned is legal.
    ///
    /// # Errors
    /// [`MoveError`] naming the problem: bad syntax, an illegal move (and why), or no move due.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Reads a chance outcome in the context of this state. The outcome returned is listed.
    ///
    /// # Errors
    /// [`ChanceError`] if the text is not an outcome or it is not a chance turn.
    fn parse_chance(&self, text: &str) -> Result<Self::Chance, ChanceError>;

    /// Scores so far (captures), before any division at the end of the game.
    fn scores(&self) -> ByPlayer<u32>;

    /// Number of turns begun so far. A turn is one player's whole go (in Tihbat, one move).
    fn turns(&self) -> u32;

    /// Number of actions (moves and chance outcomes) applied so far.
    fn actions(&self) -> u32;

    /// A multi-line picture of the position for a terminal.
    fn render(&self) -> String;

    /// A one-line id holding the whole state (histories and pending throws included), which
    /// [`Ruleset::state_from_id`] reads back to an equal state.
    fn position_id(&self) -> String;

    /// Checks every fact that a state reachable under its ruleset satisfies (the game lists
    /// them). Every state read by [`Ruleset::state_from_id`] has passed it, so front ends may
    /// play from any state they are given; every state reached by playing from one passes it.
    ///
    /// # Errors
    /// [`InvalidState`] naming the first fact that does not hold.
    fn validate(&self) -> Result<(), InvalidState>;

    /// Describes what `m` does in this state, without naming the mover
    /// ("sows 7 from A, last counter in C").
    fn describe_move(&self, m: Self::Move) -> String;

    /// Counts for statistics, for games with stick throws; `None` otherwise.
    fn stick_stats(&self) -> Option<StickStats> {
        None
    }

    /// Describes a chance outcome in this state ("white throws 3 (telateh)").
    fn describe_chance(&self, c: Self::Chance) -> String {
        format!("chance: {c}")
    }

    /// [`describe_chance`](Self::describe_chance) for a person following the game as it is
    /// played: the outcome, and what it brings about that the plain description leaves out
    /// (in the Tâb family, an opening throw that is not a tâb, or throws the thrower cannot
    /// use, which pass the turn). By default the plain description.
    fn narrate_chance(&self, c: Self::Chance) -> String {
        self.describe_chance(c)
    }

    /// [`describe_move`](Self::describe_move) for a person following the game as it is
    /// played: what `m` does, and what it brings about that the plain description leaves out
    /// (in the Tâb family, throws left over that cannot be used). By default the plain
    /// description.
    fn narrate_move(&self, m: Self::Move) -> String {
        self.describe_move(m)
    }

    /// At a chance turn, the player whose throw it is, for statistics such as luck; `None` at
    /// other turns and in games whose chance belongs to nobody.
    fn chance_player(&self) -> Option<Player> {
        None
    }

    /// Reads the text of an action for whoever is to act: a move ([`parse_move`](Self::parse_move),
    /// with the shorthand a prompt allows) at a player's turn, an outcome
    /// ([`parse_chance`](Self::parse_chance)) at a chance turn. The action returned is legal, so
    /// it may be applied unchecked: the legal list is built once.
    ///
    /// # Errors
    /// [`ParseActionError`] with the game's explanation, or at the end of the game.
    fn parse_action(&self, text: &str) -> Result<ActionOf<Self>, ParseActionError> {
        match self.turn() {
            Turn::Chance => self
                .parse_chance(text)
                .map(Action::Chance)
                .map_err(ParseActionError::Chance),
            Turn::Player(_) => self
                .parse_move(text)
                .map(Action::Move)
                .map_err(ParseActionError::Move),
            Turn::Over(o) => Err(ParseActionError::Over(o)),
        }
    }

    /// Applies an action read by [`parse_action`](Self::parse_action) (or otherwise known to be
    /// legal) without checking it again.
    fn apply_unchecked(&mut self, a: ActionOf<Self>) {
        match a {
            Action::Move(m) => self.play_unchecked(m),
            Action::Chance(c) => self.apply_chance_unchecked(c),
        }
    }

    /// True if `m` is legal now.
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.binary_search(&m).is_ok()
    }

    /// Applies `m` if it is legal; otherwise leaves the state unchanged and says why.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] or [`MoveError::NotPlayersTurn`].
    fn try_play(&mut self, m: Self::Move) -> Result<(), MoveError> {
        if self.turn().player().is_none() {
            return Err(MoveError::NotPlayersTurn(describe_turn(self.turn())));
        }
        if self.is_legal(m) {
            self.play_unchecked(m);
            return Ok(());
        }
        // Not legal: re-parsing the canonical text gives the game's own explanation.
        let checked = self.parse_move(&m.to_string())?;
        Err(MoveError::Illegal {
            text: m.to_string(),
            reason: format!("the position calls it {checked}"),
        })
    }

    /// Applies an action if it is legal; otherwise leaves the state unchanged.
    ///
    /// # Errors
    /// [`ActionError`] wrapping the move or chance error.
    fn try_apply(&mut self, a: Action<Self::Move, Self::Chance>) -> Result<(), ActionError> {
        match a {
            Action::Move(m) => self.try_play(m).map_err(ActionError::Move),
            Action::Chance(c) => {
                let mut outs = Vec::new();
                self.chance_outcomes(&mut outs);
                if outs.iter().any(|w| w.outcome == c) {
                    self.apply_chance_unchecked(c);
                    Ok(())
                } else if self.turn() == Turn::Chance {
                    Err(ActionError::Chance(ChanceError::Syntax {
                        text: c.to_string(),
                        expected: "an outcome listed at this chance turn".into(),
                    }))
                } else {
                    Err(ActionError::Chance(ChanceError::NotChanceTurn(
                        describe_turn(self.turn()),
                    )))
                }
            }
        }
    }
}

/// Counts a game with stick throws keeps for statistics (`qasab simulate`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StickStats {
    /// Turns played after the opening: the denominator of the per-turn figures.
    pub turns: u32,
    /// Stick throws after the opening.
    pub throws: u32,
    /// Turns in which a tâb was thrown.
    pub tab_turns: u32,
    /// Pieces captured, both sides together.
    pub captures: u32,
    /// Pieces converted.
    pub conversions: u32,
    /// Stacks reduced.
    pub reductions: u32,
    /// Tâbs put in the bank.
    pub banked: u32,
}

/// The chance outcome type of a game without chance events. It has no values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NoChance {}

impl fmt::Display for NoChance {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// A state that no game under its ruleset can reach: a fact that every reachable state
/// satisfies does not hold ([`GameState::validate`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{why}")]
pub struct InvalidState {
    /// Which fact fails, and how.
    pub why: String,
}

impl InvalidState {
    /// The error for the fact described by `why`.
    pub fn new(why: impl Into<String>) -> InvalidState {
        InvalidState { why: why.into() }
    }
}

/// A position id that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad {game} position id '{id}': {why}")]
pub struct PositionIdError {
    /// The game.
    pub game: &'static str,
    /// The id given.
    pub id: String,
    /// What is wrong.
    pub why: String,
}

/// An action that could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The move was rejected.
    #[error(transparent)]
    Move(MoveError),
    /// The chance outcome was rejected.
    #[error(transparent)]
    Chance(ChanceError),
    /// An action of another game than the state's (a front end's mistake).
    #[error("{action} is an action of {game}, not of {state}")]
    OtherGame {
        /// The action.
        action: String,
        /// Its game.
        game: &'static str,
        /// The state's ruleset name.
        state: &'static str,
    },
}

/// Why the text of an action could not be read for whoever is to act
/// ([`GameState::parse_action`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseActionError {
    /// At a player's turn: the move was not read, or is not legal.
    #[error(transparent)]
    Move(MoveError),
    /// At a chance turn: the outcome was not read.
    #[error(transparent)]
    Chance(ChanceError),
    /// The game is over: no action is due.
    #[error("the game is over ({})", .0.reason.describe())]
    Over(Outcome),
}

/// A short phrase for a turn, used in error messages.
pub fn describe_turn(t: Turn) -> String {
    match t {
        Turn::Chance => "a chance event is due".into(),
        Turn::Player(p) => format!("{p} is to move"),
        Turn::Over(o) => format!("the game is over ({})", o.reason.describe()),
    }
}
