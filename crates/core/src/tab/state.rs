//! The Tâb state: a position and the decisions kept for the player to move.

use std::hash::Hash;
use std::ops::{Deref, DerefMut};

use crate::game::{InvalidState, PositionIdError};
use crate::grid::Grid;
use crate::sticks::Throw;

use super::moves::Move;
use super::next::{self, Next};
use super::rules::Ruleset;

use super::board::{Phase, Position};

/// A Tâb game in progress (`tab`, `tab-hyde`, `tab-modern`).
///
/// Compact and `Copy` (about 2.4 KB, no heap). Equality compares everything, histories included;
/// the decisions the rules keep for the player to move are not part of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pos: Position,
    /// The decisions of the player to move, kept by the rules when they check that he has
    /// one; not part of the position (see [`super::next`]).
    pub(crate) next: Next,
}

impl Deref for State {
    type Target = Position;

    #[inline(always)]
    fn deref(&self) -> &Position {
        &self.pos
    }
}

impl DerefMut for State {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Position {
        &mut self.pos
    }
}

impl State {
    /// The start of a game under `rules` (L-3, H-2, M-1).
    pub fn new(rules: Ruleset) -> State {
        State {
            pos: Position::new(rules),
            next: Next::EMPTY,
        }
    }

    /// Checks every fact that a state reachable under its ruleset satisfies: the pieces and
    /// their histories, what stands together, the counts, the phase and pending throws, the
    /// counters the rules read, and the outcome (the list is in `valid.rs`). Every state read
    /// from a position id has passed it.
    ///
    /// # Errors
    /// [`InvalidState`] naming the first fact that does not hold.
    pub fn validate(&self) -> Result<(), InvalidState> {
        self.pos.validate().map_err(InvalidState::new)
    }

    /// The board geometry.
    #[inline]
    pub fn grid(&self) -> Grid {
        self.pos.grid()
    }

    /// Applies a throw (a chance outcome).
    #[inline]
    pub(crate) fn apply_throw(&mut self, t: Throw) {
        self.pos.apply_throw(t, &mut self.next);
    }

    /// Applies a decision of the move phase (assumed legal).
    #[inline]
    pub(crate) fn apply_move(&mut self, m: Move) {
        let code = next::encode(m, self.rules.columns).expect("a legal play is on the board");
        self.pos.apply_code(code, &mut self.next);
    }

    /// The legal moves: the kept decisions if they are all kept, else generated again.
    pub(crate) fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let Phase::Moving { player } = self.phase else {
            return;
        };
        match self.next.kept() {
            Some(codes) => {
                let spots = next::spots(self.rules.columns);
                out.extend(codes.iter().map(|&c| next::decode(c, spots)));
            }
            None => {
                self.decisions(player, out);
            }
        }
    }

    /// Plays the kept decision number `pick(n)` of the `n` kept ones, if the decisions of the
    /// player to move are kept; otherwise gives `pick` back.
    #[inline]
    pub(crate) fn kept_code<F: FnOnce(usize) -> usize>(&mut self, pick: F) -> Result<(), F> {
        if !matches!(self.phase, Phase::Moving { .. }) {
            return Err(pick);
        }
        let Some(codes) = self.next.kept() else {
            return Err(pick);
        };
        let code = codes[pick(codes.len())];
        self.pos.apply_code(code, &mut self.next);
        Ok(())
    }

    /// Reads a position id (format in `docs/notation.md`).
    pub fn from_id(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
        super::id::parse(rules, id)
    }
}
