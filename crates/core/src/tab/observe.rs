//! The Tâb observation tensor ([`Observe`]).

use crate::observe::{Observe, fill, side_flags};
use crate::player::Player;
use crate::sticks::Throw;

use super::rules::Ruleset;
use super::state::State;

/// Planes of the Tâb observation (`tab`, `tab-hyde`, `tab-modern`).
const TAB_PLANES: usize = 14;

/// Planes, each 4 × columns: 0, 1 the pieces of White, Black on the square; 2, 3 those of
/// them not yet converted (L-9c); 4 a dissolved stack (L-14); 5-9 the pending throws of 1,
/// 2, 3, 4, 6 (how many of each); 10, 11 White's, Black's banked tâbs (L-8); 12, 13 the
/// player in turn (White, Black), both 0 in the opening (L-4) and at the end.
impl Observe for State {
    fn observation_shape(rules: &Ruleset) -> Vec<usize> {
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
