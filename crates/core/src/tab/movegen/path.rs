//! Where a unit may go: the squares a move passes over, the passing rule (A13, H-7), landing
//! (L-9c.3, L-13, H-9) and the reduction of a stack on arrival (L-15, M-9).

use crate::player::Player;

use super::super::board::{Position, ROW_BIT, bit};
use super::super::rules::{Passing, Reduction, Stacking};
use super::super::track::{NONE, dests};
use super::Gen;

impl Position {
    /// Whether a path is blocked by the passing rule (A13, H-7).
    pub(super) fn blocked(&self, p: Player, passed: u128, dest: u8) -> bool {
        let own_home = self.row_mask(self.home_row(p));
        let zone = match self.rules.passing {
            Passing::Free => return false,
            Passing::NoOwnInHomeRow | Passing::NoneInHomeRow => own_home,
            Passing::NoOwnInHomeRows => own_home | self.row_mask(self.enemy_row(p)),
        };
        // Own pieces block passing and landing; under `none-in-home-row` enemy pieces block
        // passing (landing on them captures).
        ((passed | bit(dest)) & zone & self.occ[p.index()] != 0)
            || (self.rules.passing == Passing::NoneInHomeRow
                && passed & !bit(dest) & zone & self.occ[(!p).index()] != 0)
    }

    /// Whether `p` may end a move on `dest` (L-9c.3, L-13, H-9).
    #[inline(always)]
    pub(super) fn may_land(&self, g: &Gen, dest: u8) -> bool {
        g.no_land & bit(dest) == 0
    }

    /// The squares where `p` may not end a move (L-9c.3, L-13, H-9): his own squares outside
    /// the middle rows under `stacking=middle-rows`, and his squares holding an unconverted
    /// piece unless `land_on_unconverted`.
    #[inline(always)]
    pub(super) fn no_land(&self, p: Player) -> u128 {
        let me = p.index();
        let mut no = 0;
        if self.rules.stacking == Stacking::MiddleRows {
            no |= self.occ[me] & !(self.row_mask(1) | self.row_mask(2));
        }
        if !self.rules.land_on_unconverted {
            no |= self.unconv_sq[me];
        }
        no
    }

    /// Whether a moving group of two or more pieces is reduced on arrival (L-15, M-9).
    pub(in crate::tab) fn reduces(&self, p: Player, group: u32, from: u8, dest: u8) -> bool {
        if group & group.wrapping_sub(1) == 0 {
            return false;
        }
        let pieces = &self.pieces[p.index()];
        let members = || {
            let mut m = group;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    i
                })
            })
        };
        match self.rules.reduction {
            Reduction::Off => false,
            Reduction::SquareVisited | Reduction::SquareLanded => {
                members().any(|i| pieces[i].visited() & bit(dest) != 0)
            }
            Reduction::RowEntered => {
                let (rf, rd) = (self.row_of(from), self.row_of(dest));
                rf != rd && members().any(|i| pieces[i].rows() & (1 << rd) != 0)
            }
            Reduction::PositionalRows => {
                let (rf, rd) = (self.row_of(from), self.row_of(dest));
                let (second, third) = if p == Player::One { (1, 2) } else { (2, 1) };
                (rf == third && rd == second) || (rf == self.enemy_row(p) && rd != rf)
            }
        }
    }

    /// The survivor of a reduction under `survivor=oldest`: the member that started furthest
    /// along the track (the highest piece number).
    pub(in crate::tab) fn oldest(group: u32) -> u8 {
        31 - group.leading_zeros() as u8
    }

    /// The squares passed over by `steps` steps from `from`, through the enemy row at the
    /// branch if `alt`, and the rows of those squares.
    ///
    /// Read from the destination table, whose entry for `k` steps is the square after `k`
    /// steps (through the enemy row once the way has crossed the branch), for a fixed number of
    /// steps without branches: the number of steps is random in a game, so a loop that stops
    /// after it would be mispredicted.
    #[inline]
    pub(super) fn walk(&self, p: Player, from: u8, steps: u8, alt: bool) -> (u128, u8) {
        let d = &dests(self.rules.columns, self.rules.track, p)[from as usize];
        Self::walk_from(d, &ROW_BIT[self.rules.columns as usize], steps, alt)
    }

    /// [`Position::walk`] from the destinations `d` of the square moved from, with the row bits
    /// of the board.
    #[inline(always)]
    pub(in crate::tab) fn walk_from(
        d: &[[u8; 2]; 6],
        row_bit: &[u8; 256],
        steps: u8,
        alt: bool,
    ) -> (u128, u8) {
        let mut passed = 0u128;
        let mut rows = 0u8;
        for (k, &[a, b]) in d[..5].iter().enumerate() {
            let sq = if alt && b != NONE { b } else { a };
            // The squares after 1 to `steps - 1` steps ([`NONE`] adds nothing).
            let sq = if k + 1 < usize::from(steps) { sq } else { NONE };
            passed |= bit(sq);
            rows |= row_bit[usize::from(sq)];
        }
        (passed, rows)
    }

    /// Whether a unit may move from `from` to `dest` (`steps` steps on, through the enemy row
    /// if `is_alt`): landing (L-13, H-9), leaving the enemy row (`held`, L-11), passing (A13,
    /// H-7).
    #[inline(always)]
    pub(super) fn may_reach(
        &self,
        g: &Gen,
        from: u8,
        steps: u8,
        held: bool,
        dest: u8,
        is_alt: bool,
    ) -> bool {
        self.may_land(g, dest)
            && !(held && self.row_of(dest) != g.enemy_row)
            && (self.rules.passing == Passing::Free
                || !self.blocked(g.p, self.walk(g.p, from, steps, is_alt).0, dest))
    }
}
