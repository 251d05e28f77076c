//! The playable state of both presets: what it holds, the start, and what it tells. The rules
//! move by move, as Ludii plays them, are in `movegen.rs` (the legal moves), `flow.rs` (a
//! decision applied and the turn that follows) and `game.rs` ([`GameState`]).
//!
//! Rule ids (`S-1`, `LT-…`, `LH-…`) are those of [`super`]'s module docs and of `qasab rules`;
//! each names the section of ludii-rules.md it comes from.

use crate::game::Outcome;
use crate::player::Player;
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;

use super::moves::Move;
use super::ruleset::{Preset, Ruleset};
use super::tracks::{self, COUNTS, ENEMY_AT, HOME_AT, MAX_SQUARES, NONE, ONE_AT, row_mask};

/// A game of `tab-ludii` or `tab-hyde-ludii` in progress.
///
/// A small `Copy` value (no heap): the board (pieces per square and who owns them), At-Tab's
/// locked squares, Tab's track-index counts, the pending throw, the phase, the scores and
/// Ludii's turn and move counters. Equality compares all of it; once the game is over the side
/// to move is not kept (it reads as White).
///
/// Serialises as `{"position": ID, "ruleset": ..., "to_move": SEAT|null, "throw": T|null,
/// "phase": ..., "board": [{"square", "owner", "pieces", "locked"}...], "scores": [A, B],
/// "turns": N, "decisions": N}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Ruleset,
    /// Squares holding each player's pieces (bit `s` = square `s`).
    pub(super) occ: [u128; 2],
    /// Pieces on each square: a Tab stack or an At-Tab unit (a king if more than one).
    pub(super) count: [u8; MAX_SQUARES],
    /// At-Tab: squares whose piece has not moved yet and needs a 1 (LH-3).
    pub(super) locked: u128,
    /// Tab: Ludii's count of each player's pieces at every index of its home track and of its
    /// enemy track (LT-6), laid out as [`tracks::COUNTS`] says.
    pub(super) counts: [[i32; COUNTS]; 2],
    /// The player to throw or to move.
    pub(super) to_move: Player,
    /// The throw to be played, at a player's turn.
    pub(super) throw: Option<Throw>,
    /// Tab: the opening phase is over (LT-2). Always true in At-Tab.
    pub(super) main_phase: bool,
    /// Tab: enemy pieces captured; At-Tab: captures scored (LH-6).
    pub(super) scores: [u8; 2],
    /// Ludii's turn number (`numTurn`): 1 at the start, one more whenever the mover changes.
    pub(super) turn: u32,
    /// Decisions (moves and passes) made.
    pub(super) decisions: u32,
    pub(super) over: Option<Outcome>,
    /// Counters for statistics only; not part of the position (see [`Tally`]).
    pub(super) tally: Tally,
}

/// Counters kept for `simulate`'s statistics. They describe the game's history, not its
/// position, so they are left out of equality, hashing and the position id: a state read from
/// an id starts them at zero.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Tally {
    /// Throws played from the main phase on (Tab's opening throw of a 1 included).
    pub(super) throws: u32,
    /// Turns from the main phase on (Tab's opening turn that throws the 1 included).
    pub(super) turns: u32,
    /// Turns in which a 1 (tâb) was thrown.
    pub(super) tab_turns: u32,
    /// At-Tab: locked pieces freed by their first move (LH-3).
    pub(super) freed: u32,
    /// The turn in progress has had a 1.
    pub(super) turn_tab: bool,
}

impl PartialEq for Tally {
    fn eq(&self, _: &Tally) -> bool {
        true
    }
}

impl Eq for Tally {}

impl std::hash::Hash for Tally {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Consistent with the derived equality: equal states write the same words. The searches hash
/// every state of a turn they enumerate, so this writes only what the ruleset uses: the squares
/// of its board, and Tab's track counts only on the tracks' lengths (At-Tab keeps none), not
/// the 1 KB of count slots that stay at their start values.
impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // Every field named, so that a new one cannot be forgotten here.
        let State {
            rules,
            occ,
            count,
            locked,
            counts,
            to_move,
            throw,
            main_phase,
            scores,
            turn,
            decisions,
            over,
            tally: _,
        } = self;
        rules.hash(h);
        occ.hash(h);
        let n = usize::from(rules.columns());
        count[..(4 * n).min(MAX_SQUARES)].hash(h);
        locked.hash(h);
        if rules.game() == Preset::Tab {
            for side in counts {
                side[HOME_AT..HOME_AT + 2 * n].hash(h);
                side[ENEMY_AT..ENEMY_AT + 3 * n].hash(h);
            }
        }
        to_move.hash(h);
        throw.hash(h);
        main_phase.hash(h);
        scores.hash(h);
        turn.hash(h);
        decisions.hash(h);
        over.hash(h);
    }
}

/// Bit of square `s`.
#[inline]
pub(super) const fn bit(s: u8) -> u128 {
    1u128 << s
}

impl State {
    /// The start of a game: one piece on every square of each home row (LT-1, LH-1).
    pub fn new(rules: Ruleset) -> State {
        let n = rules.columns();
        let mut s = State {
            rules,
            occ: [row_mask(n, 0), row_mask(n, 3)],
            count: [0; MAX_SQUARES],
            locked: 0,
            counts: [[0; COUNTS]; 2],
            to_move: Player::One,
            throw: None,
            main_phase: rules.game() == Preset::Hyde,
            scores: [0; 2],
            turn: 1,
            decisions: 0,
            over: None,
            tally: Tally::default(),
        };
        for sq in rules.grid().squares() {
            if (s.occ[0] | s.occ[1]) & bit(sq.0) != 0 {
                s.count[usize::from(sq.0)] = 1;
            }
        }
        match rules.game() {
            // LT-6: every piece is counted at the first index of its square on every track
            // that holds the square.
            Preset::Tab => s.counts = s.initial_counts(),
            // LH-3: every piece starts locked.
            Preset::Hyde => s.locked = s.occ[0] | s.occ[1],
        }
        s
    }

    /// Tab's home-track counts at the start (the enemy tracks start empty: nobody stands on
    /// them).
    pub(super) fn initial_counts(&self) -> [[i32; COUNTS]; 2] {
        let t = tracks::tab(self.rules.columns());
        let mut all = [[0; COUNTS]; 2];
        for (p, counts) in all.iter_mut().enumerate() {
            counts[ONE_AT] = 1;
            for s in squares_of(self.occ[p]) {
                counts[HOME_AT + usize::from(t.home_index[p][usize::from(s)])] += 1;
            }
        }
        all
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The owner and the number of pieces on a square, if any.
    pub fn unit_at(&self, square: u8) -> Option<(Player, u8)> {
        let b = bit(square);
        let owner = if self.occ[0] & b != 0 {
            Player::One
        } else if self.occ[1] & b != 0 {
            Player::Two
        } else {
            return None;
        };
        Some((owner, self.count[usize::from(square)]))
    }

    /// True if the piece on `square` is locked (At-Tab).
    pub fn is_locked(&self, square: u8) -> bool {
        self.locked & bit(square) != 0
    }

    /// The pieces `p` has on the board.
    pub fn pieces(&self, p: Player) -> u32 {
        squares_of(self.occ[p.index()])
            .map(|s| u32::from(self.count[usize::from(s)]))
            .sum()
    }

    /// The player to throw or to move (White once the game is over).
    pub fn mover(&self) -> Player {
        self.to_move
    }

    /// The throw to be played, at a player's turn.
    pub fn pending_throw(&self) -> Option<Throw> {
        self.throw
    }

    /// False during Tab's opening phase (LT-2).
    pub fn in_main_phase(&self) -> bool {
        self.main_phase
    }

    /// Ludii's turn counter: the number of the turn in progress (Ludii's `numTurn`).
    pub fn ludii_turn(&self) -> u32 {
        self.turn
    }

    /// Decisions made (Ludii's moves).
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// The moves `p` would have with the throw `t` on this board, as if he were to play it now:
    /// the rules' own generator (LT-2 to LT-6, LH-2 to LH-5), ending with [`Move::Pass`] when
    /// nothing can move. Fills `out` after clearing it. Read-only: evaluations use it to ask
    /// what a throw could do for either player.
    pub fn throw_plays(&self, p: Player, t: Throw, out: &mut Vec<Move>) {
        self.generate_for(p.index(), t, out);
    }

    /// Where a unit of `p` on `square` would be `steps` squares on along the tracks through
    /// the square (1 to 6 steps): the main way and, where the way forks, the other. In Tab the
    /// main way is the middle loop where the square is on it, else `p`'s home track, else his
    /// enemy track; the other way is the enemy track from a square of the loop that it also
    /// holds (LT-3). In At-Tab it is `p`'s one track, `None` past its end (LH-2). Geometry
    /// only: Ludii's track counts (LT-6), the open enemy row (LT-5), locks and landing rules
    /// are not consulted (for those, [`State::throw_plays`]).
    pub fn track_destinations(&self, p: Player, square: u8, steps: u8) -> [Option<u8>; 2] {
        let n = self.columns();
        if !(1..=6).contains(&steps) || square >= 4 * n {
            return [None, None];
        }
        let (s, v, pi) = (usize::from(square), steps, p.index());
        let some = |x: u8| (x != NONE).then_some(x);
        match self.rules.game() {
            Preset::Tab => {
                let t = tracks::tab(n);
                let enemy = {
                    let e = t.enemy_index[pi][s][0];
                    if e != NONE && e + v < 3 * n {
                        t.enemy[pi][usize::from(e + v)]
                    } else {
                        NONE
                    }
                };
                let m = t.middle_index[s];
                if m != NONE {
                    let j = m + v;
                    let main = t.middle[usize::from(if j >= 2 * n { j - 2 * n } else { j })];
                    let alt = if enemy != main { enemy } else { NONE };
                    return [some(main), some(alt)];
                }
                let h = t.home_index[pi][s];
                if h != NONE {
                    return [
                        (h + v < 2 * n).then(|| t.home[pi][usize::from(h + v)]),
                        None,
                    ];
                }
                [some(enemy), None]
            }
            Preset::Hyde => {
                let t = tracks::hyde(n);
                let i = usize::from(t.index[pi][s]) + usize::from(v);
                [(i < usize::from(4 * n)).then(|| t.track[pi][i]), None]
            }
        }
    }

    /// Tab's track-index counts of `p`: (home track, enemy track), by track index (LT-6).
    pub fn track_counts(&self, p: Player) -> (&[i32], &[i32]) {
        let n = usize::from(self.rules.columns());
        (
            &self.counts[p.index()][HOME_AT..HOME_AT + 2 * n],
            &self.counts[p.index()][ENEMY_AT..ENEMY_AT + 3 * n],
        )
    }

    #[inline]
    pub(super) fn columns(&self) -> u8 {
        self.rules.columns()
    }

    /// The home row of player `p` (0 = White: row 0; 1 = Black: row 3).
    #[inline]
    pub(super) fn home_row(&self, p: usize) -> u128 {
        row_mask(self.columns(), if p == 0 { 0 } else { 3 })
    }

    /// The squares and names used in messages.
    pub(super) fn name(&self, s: u8) -> String {
        self.rules.grid().name(crate::grid::Square(s))
    }

    pub(super) fn seat(&self, p: Player) -> &'static str {
        self.rules.seat_name(p)
    }
}

/// Defines a function giving the squares of a bit mask of one integer type, in increasing
/// order: one body for both widths.
macro_rules! squares_of {
    ($(#[$doc:meta])* $name:ident: $mask:ty) => {
        $(#[$doc])*
        #[inline]
        pub(super) fn $name(mut mask: $mask) -> impl Iterator<Item = u8> {
            std::iter::from_fn(move || {
                if mask == 0 {
                    None
                } else {
                    let s = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    Some(s)
                }
            })
        }
    };
}

squares_of!(
    /// The squares of a bit mask of at most 64 squares, in increasing order.
    squares_of64: u64
);
squares_of!(
    /// The squares of a bit mask, in increasing order.
    squares_of: u128
);
