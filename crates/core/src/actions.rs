//! Integer action ids: a stable, compact numbering of every game's moves and chance outcomes,
//! for learning libraries such as OpenSpiel (fixed-size policy heads and legal-action masks).
//!
//! A player's move is numbered by a *slot* that depends only on the move (for Tâb: the square
//! it starts from and the throw it plays), and a *variant*: its rank among the legal moves of
//! the same slot in the state, in the sorted order of [`GameState::legal_moves`]. Moves without
//! variants (pass, bank, decline, end) have slots of their own after the others:
//!
//! ```text
//! id = slot * variants + rank          for slot < play_slots
//! id = play_slots * variants + k       for the k-th special move
//! ```
//!
//! so [`ActionIds::num_distinct_actions`] is `play_slots * variants + specials` and depends
//! only on the ruleset's options. Chance outcomes are numbered apart, `0..max_chance_outcomes`
//! (a throw by [`Throw::index`], value order), as OpenSpiel numbers chance outcomes.
//! `docs/python.md` tabulates the encoding of each game.

use thiserror::Error;

use crate::game::{GameState, Turn, describe_turn};
use crate::sticks::Throw;

/// An action id that does not name a legal action here, or a move that has no id.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionIdError {
    /// The id is outside `0..num_distinct_actions` (or `0..max_chance_outcomes` at a chance
    /// turn).
    #[error("action {id} is out of range: this game has {limit} {what}")]
    OutOfRange {
        /// The id given.
        id: i64,
        /// The size of the space.
        limit: u32,
        /// Which space.
        what: &'static str,
    },
    /// The id is in range but names no legal action in this state.
    #[error("action {id} is not legal here ({turn})")]
    NotLegal {
        /// The id given.
        id: i64,
        /// Whose turn it is.
        turn: String,
    },
    /// The move is not one of the legal moves here.
    #[error("{0} is not a legal move here")]
    MoveNotLegal(String),
    /// More legal moves share a slot than the encoding has variants: a state the encoding's
    /// bound does not cover (never seen in testing; reported rather than misnumbered).
    #[error("{count} legal moves share the slot of {text}; the encoding has room for {limit}")]
    TooManyVariants {
        /// A move of the slot.
        text: String,
        /// How many share it.
        count: usize,
        /// The bound.
        limit: u32,
    },
}

/// The integer action encoding of one game. Implemented by each game's state type.
pub trait ActionIds: GameState {
    /// Slots of moves that may have variants (see the module documentation).
    fn play_slots(rules: &Self::Ruleset) -> u32;
    /// Variants per play slot: a bound on the legal moves that share one slot.
    fn variants(rules: &Self::Ruleset) -> u32;
    /// Moves with a slot of their own (pass, bank, ...).
    fn specials(rules: &Self::Ruleset) -> u32;
    /// The slot of a move: `Ok(slot)` for a play slot, `Err(k)` for the `k`-th special move.
    fn slot(rules: &Self::Ruleset, m: Self::Move) -> Result<u32, u32>;
    /// The number of distinct chance outcomes (0 for a game without chance).
    fn max_chance_outcomes(rules: &Self::Ruleset) -> u32;
    /// The id of a chance outcome, `0..max_chance_outcomes`.
    fn chance_id(c: Self::Chance) -> u32;

    /// A bound on the players' decisions in one game (chance outcomes not counted, as
    /// OpenSpiel's `MaxGameLength`), proved from the ruleset's limits.
    fn max_game_length(rules: &Self::Ruleset) -> u64;

    /// The size of the move id space; depends only on the ruleset.
    fn num_distinct_actions(rules: &Self::Ruleset) -> u32 {
        Self::play_slots(rules) * Self::variants(rules) + Self::specials(rules)
    }

    /// The id of a legal move of this state.
    ///
    /// # Errors
    /// [`ActionIdError::MoveNotLegal`] if `m` is not legal here.
    fn move_id(&self, m: Self::Move) -> Result<u32, ActionIdError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.binary_search(&m).is_err() {
            return Err(ActionIdError::MoveNotLegal(m.to_string()));
        }
        let rules = self.ruleset();
        Ok(ids_of::<Self>(rules, &moves, |x| x == m)?
            .pop()
            .expect("a legal move has an id"))
    }

    /// The legal move with id `id`.
    ///
    /// # Errors
    /// [`ActionIdError::OutOfRange`] or [`ActionIdError::NotLegal`].
    fn move_from_id(&self, id: i64) -> Result<Self::Move, ActionIdError> {
        let rules = self.ruleset();
        let limit = Self::num_distinct_actions(rules);
        if id < 0 || id >= i64::from(limit) {
            return Err(ActionIdError::OutOfRange {
                id,
                limit,
                what: "distinct actions",
            });
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let ids = ids_of::<Self>(rules, &moves, |_| true)?;
        ids.iter()
            .position(|&x| i64::from(x) == id)
            .map(|i| moves[i])
            .ok_or_else(|| ActionIdError::NotLegal {
                id,
                turn: describe_turn(self.turn()),
            })
    }

    /// The chance outcome with id `id`, if it is one of this chance turn's outcomes.
    ///
    /// # Errors
    /// [`ActionIdError::OutOfRange`] or [`ActionIdError::NotLegal`].
    fn chance_from_id(&self, id: i64) -> Result<Self::Chance, ActionIdError> {
        let limit = Self::max_chance_outcomes(self.ruleset());
        if id < 0 || id >= i64::from(limit) {
            return Err(ActionIdError::OutOfRange {
                id,
                limit,
                what: "chance outcomes",
            });
        }
        let mut outs = Vec::new();
        self.chance_outcomes(&mut outs);
        outs.iter()
            .map(|w| w.outcome)
            .find(|&c| i64::from(Self::chance_id(c)) == id)
            .ok_or_else(|| ActionIdError::NotLegal {
                id,
                turn: describe_turn(self.turn()),
            })
    }

    /// The legal moves with their ids, ascending by id; empty unless at a player's turn. One
    /// generation of the moves serves both, for callers that map ids back to moves.
    ///
    /// # Errors
    /// [`ActionIdError::TooManyVariants`] if the state is outside the encoding's bound.
    fn legal_moves_by_id(&self) -> Result<Vec<(u32, Self::Move)>, ActionIdError> {
        if !matches!(self.turn(), Turn::Player(_)) {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let ids = ids_of::<Self>(self.ruleset(), &moves, |_| true)?;
        let mut pairs: Vec<(u32, Self::Move)> = ids.into_iter().zip(moves).collect();
        pairs.sort_unstable_by_key(|&(id, _)| id);
        Ok(pairs)
    }

    /// The legal action ids, ascending: move ids at a player's turn, chance outcome ids at a
    /// chance turn (OpenSpiel's convention), none when the game is over.
    ///
    /// # Errors
    /// [`ActionIdError::TooManyVariants`] if the state is outside the encoding's bound.
    fn legal_ids(&self) -> Result<Vec<u32>, ActionIdError> {
        let mut ids = match self.turn() {
            Turn::Player(_) => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                ids_of::<Self>(self.ruleset(), &moves, |_| true)?
            }
            Turn::Chance => {
                let mut outs = Vec::new();
                self.chance_outcomes(&mut outs);
                outs.iter().map(|w| Self::chance_id(w.outcome)).collect()
            }
            Turn::Over(_) => Vec::new(),
        };
        ids.sort_unstable();
        Ok(ids)
    }
}

/// The ids of the moves of `moves` (a sorted legal list) that `keep` selects, in list order.
fn ids_of<S: ActionIds>(
    rules: &S::Ruleset,
    moves: &[S::Move],
    keep: impl Fn(S::Move) -> bool,
) -> Result<Vec<u32>, ActionIdError> {
    let v = S::variants(rules);
    let base = S::play_slots(rules) * v;
    // Ranks count per slot; the list is short, so a small map of (slot, count) is enough.
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut out = Vec::new();
    for &m in moves {
        let id = match S::slot(rules, m) {
            Ok(slot) => {
                let rank = match seen.iter_mut().find(|(s, _)| *s == slot) {
                    Some((_, n)) => {
                        *n += 1;
                        *n - 1
                    }
                    None => {
                        seen.push((slot, 1));
                        0
                    }
                };
                if rank >= v {
                    return Err(ActionIdError::TooManyVariants {
                        text: m.to_string(),
                        count: rank as usize + 1,
                        limit: v,
                    });
                }
                slot * v + rank
            }
            Err(k) => base + k,
        };
        if keep(m) {
            out.push(id);
        }
    }
    Ok(out)
}

/// Throws are numbered 0..5 in value order: 1, 2, 3, 4, 6.
pub(crate) const THROWS: u32 = Throw::ALL.len() as u32;
