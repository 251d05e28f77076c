//! Observation tensors: a plain numeric picture of a state for learning libraries, a flat
//! `f32` vector in row-major order of [`Observe::observation_shape`].
//!
//! Board games give planes of `4 × columns` values, one square per value, squares in rows
//! from White's side (row × columns + column, as in [`crate::actions`]); numbers that belong to
//! no square (pending throws, the bank, the side to move) are constant planes. The encoding of
//! each game is tabulated in `docs/python.md`. Every player sees the whole state: there is no
//! hidden information in these games.

use crate::game::{GameState, Turn};
use crate::player::Player;
use crate::sticks::Throw;
use crate::{tab, tab_ludii, tihbat};

/// The observation tensor of one game. Implemented by each game's state type.
pub trait Observe: GameState {
    /// The tensor's shape; depends only on the ruleset.
    fn observation_shape(rules: &Self::Ruleset) -> Vec<usize>;
    /// Clears `out` and fills it with the tensor, flattened in row-major order.
    fn observation(&self, out: &mut Vec<f32>);
}

/// Planes of the Tâb observation (`tab`, `tab-hyde`, `tab-modern`).
const TAB_PLANES: usize = 14;
/// Planes of the Ludii presets' observation.
const LUDII_PLANES: usize = 10;

/// Fills plane `k` of `out` (planes of `n` values) with `v`.
fn fill(out: &mut [f32], n: usize, k: usize, v: f32) {
    out[k * n..(k + 1) * n].fill(v);
}

/// The side to move as two flags (White, Black); both 0 at the end.
fn side_flags(p: Option<Player>) -> [f32; 2] {
    match p {
        Some(Player::One) => [1.0, 0.0],
        Some(Player::Two) => [0.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// Planes, each 4 × columns: 0, 1 the pieces of White, Black on the square; 2, 3 those of
/// them not yet converted (L-9c); 4 a dissolved stack (L-14); 5-9 the pending throws of 1,
/// 2, 3, 4, 6 (how many of each); 10, 11 White's, Black's banked tâbs (L-8); 12, 13 the
/// player in turn (White, Black), both 0 in the opening (L-4) and at the end.
impl Observe for tab::State {
    fn observation_shape(rules: &tab::Ruleset) -> Vec<usize> {
        vec![TAB_PLANES, 4, usize::from(rules.columns)]
    }

    fn observation(&self, out: &mut Vec<f32>) {
        let grid = self.grid();
        let cols = usize::from(grid.columns());
        let n = 4 * cols;
        out.clear();
        out.resize(TAB_PLANES * n, 0.0);
        for row in 0..4u8 {
            for col in 0..grid.columns() {
                let sq = grid.at(row, col);
                let i = usize::from(row) * cols + usize::from(col);
                if let Some((p, count)) = self.unit_at(sq) {
                    out[p.index() * n + i] = count as f32;
                }
                if self.is_dissolved(sq) {
                    out[4 * n + i] = 1.0;
                }
            }
        }
        for p in [Player::One, Player::Two] {
            // Piece numbers stay below 32 (a mask of pieces is a u32).
            for piece in (0..32).filter_map(|k| self.piece(p, k)) {
                if !piece.converted {
                    let i = usize::from(grid.row(piece.square)) * cols
                        + usize::from(grid.col(piece.square));
                    out[(2 + p.index()) * n + i] += 1.0;
                }
            }
        }
        for t in Throw::ALL {
            fill(out, n, 5 + t.index(), self.pending_count(t) as f32);
        }
        let bank = self.banked();
        fill(out, n, 10, bank.one as f32);
        fill(out, n, 11, bank.two as f32);
        let side = side_flags(self.player_in_turn());
        fill(out, n, 12, side[0]);
        fill(out, n, 13, side[1]);
    }
}

/// Planes, each 4 × columns: 0, 1 the pieces of White, Black on the square; 2 a locked piece
/// (At-Tab); 3-7 the throw to be played, one-hot over 1, 2, 3, 4, 6; 8, 9 the player to throw
/// or move (White, Black), both 0 at the end.
impl Observe for tab_ludii::State {
    fn observation_shape(rules: &tab_ludii::Ruleset) -> Vec<usize> {
        vec![LUDII_PLANES, 4, usize::from(rules.columns())]
    }

    fn observation(&self, out: &mut Vec<f32>) {
        let cols = self.rules().columns();
        let n = 4 * usize::from(cols);
        out.clear();
        out.resize(LUDII_PLANES * n, 0.0);
        for sq in 0..4 * cols {
            let i = usize::from(sq);
            if let Some((p, count)) = self.unit_at(sq) {
                out[p.index() * n + i] = f32::from(count);
            }
            if self.is_locked(sq) {
                out[2 * n + i] = 1.0;
            }
        }
        if let Some(t) = self.pending_throw() {
            fill(out, n, 3 + t.index(), 1.0);
        }
        let mover = match self.turn() {
            Turn::Over(_) => None,
            _ => Some(self.mover()),
        };
        let side = side_flags(mover);
        fill(out, n, 8, side[0]);
        fill(out, n, 9, side[1]);
    }
}

/// Eight numbers: the counters in pits A, B, C, D (T-1); South's and North's captures; the
/// player to move (South, North), both 0 at the end.
impl Observe for tihbat::State {
    fn observation_shape(_: &tihbat::Ruleset) -> Vec<usize> {
        vec![8]
    }

    fn observation(&self, out: &mut Vec<f32>) {
        let pos = self.position();
        out.clear();
        out.extend(pos.pits.iter().map(|&c| f32::from(c)));
        out.push(f32::from(pos.captured.one));
        out.push(f32::from(pos.captured.two));
        let mover = match self.turn() {
            Turn::Over(_) => None,
            _ => Some(pos.to_move),
        };
        out.extend(side_flags(mover));
    }
}
