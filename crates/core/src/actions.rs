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
use crate::{tab, tab_ludii, tihbat};

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
const THROWS: u32 = Throw::ALL.len() as u32;

/// Tâb (`tab`, `tab-hyde`, `tab-modern`): slot = (square the unit leaves) × 5 + throw index,
/// with the squares numbered row × columns + column from White's side; the variants of a slot
/// are its destinations (a fork on the track, L-2), the pieces that move (a peel, a detached
/// part, a piece of a dissolved stack, L-14, H-10) and the survivor chosen in a reduction
/// (L-15). Specials: bank (L-8), decline 1, 2, 3, 4, 6 (L-7), end.
impl ActionIds for tab::State {
    fn play_slots(rules: &tab::Ruleset) -> u32 {
        4 * u32::from(rules.columns) * THROWS
    }
    fn variants(rules: &tab::Ruleset) -> u32 {
        tab_variants(rules)
    }
    fn specials(_: &tab::Ruleset) -> u32 {
        2 + THROWS
    }
    fn slot(rules: &tab::Ruleset, m: tab::Move) -> Result<u32, u32> {
        match m {
            tab::Move::Play(p) => {
                let sq = u32::from(p.from.row) * u32::from(rules.columns) + u32::from(p.from.col);
                Ok(sq * THROWS + p.throw.index() as u32)
            }
            tab::Move::Bank => Err(0),
            tab::Move::Decline(t) => Err(1 + t.index() as u32),
            tab::Move::End => Err(1 + THROWS),
        }
    }
    /// A bound from the safety limits (L-18): see `tab_max_decisions`.
    fn max_game_length(rules: &tab::Ruleset) -> u64 {
        tab_max_decisions(rules)
    }
    fn max_chance_outcomes(_: &tab::Ruleset) -> u32 {
        THROWS
    }
    fn chance_id(c: Throw) -> u32 {
        c.index() as u32
    }
}

/// The most decisions a game of Lane's, Hyde's or the modern Tâb can take, from the safety
/// limits of L-18: `turn_cap × (2 × throw_cap + 1)` with accumulated throws,
/// `3 × turn_cap × (throw_cap + 1)` with interleaved ones (402,000 for every preset).
///
/// Let `W` be the throws after the opening (the opening's tâb counted, L-4) and `M` the move
/// phases. The opening's other throws are chance turns without a decision. A decision
/// (L-7, L-8) is a play, which takes one pending throw or one banked tâb; a bank or a decline,
/// which takes one pending throw; or the end of a move phase. Each throw is pending once, and
/// each banked tâb was a pending tâb before (banked by a decision or at the end of a move
/// phase) and is played at most once, so the decisions are at most `W + W + M`.
///
/// * Accumulated throws (L-5): a turn has one move phase, so `M ≤ turn_cap` (the game stops
///   when a turn ends with `turn_cap` turns played); every throw of a turn is pending until
///   its move phase, and a turn that has thrown `throw_cap` times and would throw again stops
///   the game, so `W ≤ turn_cap × throw_cap`.
/// * Interleaved throws (L-6): a move phase follows each throw, so `M ≤ W`; a throw other than
///   its turn's first is thrown only while the game has had fewer than `turn_cap × throw_cap`
///   throws, and there are at most `turn_cap` first throws, so
///   `W ≤ turn_cap × throw_cap + turn_cap`.
fn tab_max_decisions(rules: &tab::Ruleset) -> u64 {
    let turns = u64::from(rules.turn_cap);
    let per_turn = u64::from(rules.throw_cap);
    match rules.timing {
        tab::Timing::Accumulate => turns * (2 * per_turn + 1),
        tab::Timing::Interleaved => 3 * turns * (per_turn + 1),
    }
}

/// Variants per slot in Lane's, Hyde's and the modern Tâb, from the pieces per side `n`.
///
/// Without detaching, the moves that leave one square with one throw are: the whole unit to
/// one of at most two destinations (the fork of the track, L-2), reduced on arrival with one
/// of at most `n` survivors to choose (L-15); or one of at most `n` single pieces (a peel, a
/// piece of a dissolved stack, L-14, H-10) to one of two destinations; or the stack dissolving
/// or a piece converting in place: `4n + 2`. Detaching part of a stack (`split=detach`,
/// `detach-remainder-one`) chooses a subset of its pieces, whose count has no small bound;
/// there `8n + 2` is a bound found by testing, and a state beyond it is an error
/// ([`ActionIdError::TooManyVariants`]), never a wrong id.
fn tab_variants(rules: &tab::Ruleset) -> u32 {
    let n = u32::from(if rules.pieces == 0 {
        rules.columns
    } else {
        rules.pieces
    });
    match rules.split {
        tab::Split::Detach | tab::Split::DetachRemainderOne => 8 * n + 2,
        _ => 4 * n + 2,
    }
}

/// Variants per slot in the Ludii presets.
const LUDII_VARIANTS: u32 = 8;

/// The Ludii presets: slot = (square left) × 5 + throw index as for Tâb; the variants are the
/// destinations and the number of pieces that move. Special: pass.
impl ActionIds for tab_ludii::State {
    fn play_slots(rules: &tab_ludii::Ruleset) -> u32 {
        4 * u32::from(rules.columns()) * THROWS
    }
    fn variants(_: &tab_ludii::Ruleset) -> u32 {
        LUDII_VARIANTS
    }
    fn specials(_: &tab_ludii::Ruleset) -> u32 {
        1
    }
    fn slot(rules: &tab_ludii::Ruleset, m: tab_ludii::Move) -> Result<u32, u32> {
        match m {
            tab_ludii::Move::Pass => Err(0),
            tab_ludii::Move::Step(s) => {
                let sq = u32::from(s.from.square(rules.columns()));
                Ok(sq * THROWS + s.throw.index() as u32)
            }
        }
    }
    /// Ludii's move cap: decisions per game (LT-10, LH-9).
    fn max_game_length(rules: &tab_ludii::Ruleset) -> u64 {
        u64::from(rules.move_cap())
    }
    fn max_chance_outcomes(_: &tab_ludii::Ruleset) -> u32 {
        THROWS
    }
    fn chance_id(c: Throw) -> u32 {
        c.index() as u32
    }
}

/// Tihbat: slot = the pit sown, A..D = 0..3 (T-3; the count is the pit's content, so there is
/// one variant). Special: pass (T-5).
impl ActionIds for tihbat::State {
    fn play_slots(_: &tihbat::Ruleset) -> u32 {
        4
    }
    fn variants(_: &tihbat::Ruleset) -> u32 {
        1
    }
    fn specials(_: &tihbat::Ruleset) -> u32 {
        1
    }
    fn slot(_: &tihbat::Ruleset, m: tihbat::Move) -> Result<u32, u32> {
        match m {
            tihbat::Move::Sow { pit, .. } => Ok(pit as u32),
            tihbat::Move::Pass => Err(0),
        }
    }
    /// The game ends when a position (the pits and the side to move) occurs for the
    /// `repetition`-th time (T-7); the pits hold at most `4 × seeds` counters, so there are at
    /// most `2 × C(4 × seeds + 4, 4)` positions, each met at most `repetition − 1` times
    /// before the last.
    fn max_game_length(rules: &tihbat::Ruleset) -> u64 {
        let n = 4 * u64::from(rules.seeds) + 4;
        let positions = 2 * (n * (n - 1) * (n - 2) * (n - 3) / 24);
        positions * u64::from(rules.repetition.saturating_sub(1)) + 1
    }
    fn max_chance_outcomes(_: &tihbat::Ruleset) -> u32 {
        0
    }
    fn chance_id(c: crate::NoChance) -> u32 {
        match c {}
    }
}
