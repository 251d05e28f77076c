//! Sanctuaries: units that can never be taken and never have to move, so that the side holding
//! one can never lose (docs/ENDGAMES.md, "Fortresses").
//!
//! A unit of side A on square `q` is a sanctuary when both hold:
//!
//! 1. **No enemy piece can ever land on `q`.** A piece moves only along its own track (L-2), so
//!    the squares it can ever stand on are those its track reaches from where it stands; it
//!    takes the branch into the enemy home row only if it has not been there (L-10), and never
//!    comes back to its own home row. The union over every enemy piece, stacked or not,
//!    converted or not, over-approximates where a capture could happen (blocking, freezing and
//!    conversion only remove squares from it).
//! 2. **A never has to move it.** Every piece of A is converted (so no tâb is reserved for a
//!    conversion, L-9c.2, and none can be again), and for every throw value, alone on the board
//!    and with nothing frozen, the unit either has no play or the rules let A leave the throw
//!    unplayed (L-7: a throw whose only plays reduce a stack, L-15; a tâb that can be banked,
//!    L-8; any throw under `throw_use=optional`). Other units only add plays for A to choose
//!    from, and a frozen unit (L-11) has fewer plays than an unfrozen one, so the unit alone
//!    and unfrozen is the worst case. Pieces of A that join it only add histories, so its
//!    plays stay reducing.
//!
//! Under `end=elimination` (L-17) a side holding a sanctuary can never lose: it keeps the unit
//! where it stands. When both sides hold one, neither can ever win, and the game is a draw
//! under perfect play, whatever the throws: the rules, not the players, stop it. Under
//! `end=most-captures` the result is counted, not forced, and nothing is concluded.

use crate::grid::Square;
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::board::{MAXP, OFF, OWNER_BLACK, PIECE_BITS, Pending, Phase, Piece, Position};
use super::moves::Move;
use super::rules::End;
use super::track::NONE;

impl Position {
    /// The squares of each side's sanctuaries (see the module docs), or `None` where the
    /// ending does not make a sanctuary decisive (`end=most-captures`).
    pub(crate) fn sanctuaries(&self) -> Option<ByPlayer<Vec<Square>>> {
        if self.rules.end != End::Elimination {
            return None;
        }
        Some(ByPlayer::new(
            self.sanctuaries_of(Player::One),
            self.sanctuaries_of(Player::Two),
        ))
    }

    fn sanctuaries_of(&self, a: Player) -> Vec<Square> {
        let me = a.index();
        if self.alive[me] == 0 || self.unconv[me] != 0 {
            return Vec::new();
        }
        let reach = self.reach(!a);
        let mut occ = self.occ[me];
        let mut out = Vec::new();
        while occ != 0 {
            let q = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            if reach & (1u128 << q) == 0 && self.never_compelled(a, q) {
                out.push(Square(q));
            }
        }
        out
    }

    /// Every square a piece of `p` could ever land on, from where the pieces stand now.
    fn reach(&self, p: Player) -> u128 {
        let t = self.table(p);
        let n = usize::from(self.rules.piece_count()).min(MAXP);
        // Walk (square, may still enter the enemy row); each is visited once.
        let mut seen = [0u128; 2];
        let mut todo: Vec<(u8, bool)> = self.pieces[p.index()][..n]
            .iter()
            .filter(|pc| pc.sq != OFF)
            .map(|pc| (pc.sq, !pc.entered()))
            .collect();
        let mut reach = 0u128;
        while let Some((sq, may_enter)) = todo.pop() {
            let [next, branch] = t[usize::from(sq)];
            let mut step = |to: u8, may: bool| {
                if to == NONE {
                    return;
                }
                reach |= 1u128 << to;
                let set = &mut seen[usize::from(may)];
                if *set & (1u128 << to) == 0 {
                    *set |= 1u128 << to;
                    todo.push((to, may));
                }
            };
            step(next, may_enter);
            if may_enter {
                // L-10: the enemy row once; a piece that has been there takes the loop.
                step(branch, false);
            }
        }
        reach
    }

    /// Whether `a` can always leave the unit on `q` where it stands (point 2 of the module
    /// docs).
    fn never_compelled(&self, a: Player, q: u8) -> bool {
        let me = a.index();
        let mut alone = *self;
        let cell = self.board[usize::from(q)];
        let unit = cell & PIECE_BITS;
        let squares = 4 * usize::from(self.rules.columns);
        for (sq, c) in alone.board[..squares].iter_mut().enumerate() {
            if sq != usize::from(q) {
                *c = 0;
            }
        }
        let n = usize::from(self.rules.piece_count()).min(MAXP);
        for side in 0..2 {
            for (i, pc) in alone.pieces[side][..n].iter_mut().enumerate() {
                if side != me || unit & (1 << i) == 0 {
                    *pc = Piece::off();
                }
            }
        }
        debug_assert_eq!(cell & OWNER_BLACK != 0, a == Player::Two);
        alone.alive = [0; 2];
        alone.alive[me] = unit.count_ones() as u8;
        alone.bank = [0; 2];
        alone.extra = false;
        alone.over = None;
        alone.phase = Phase::Moving { player: a };
        alone.derive_caches();
        let mut out = Vec::new();
        Throw::ALL.iter().all(|&t| {
            alone.pending = Pending::NONE;
            alone.pending.add(t.index());
            alone.decisions(a, &mut out);
            let plays = out.iter().any(|m| matches!(m, Move::Play(_)));
            !plays || out.contains(&Move::End)
        })
    }
}
