//! The decisions of a move phase: the plays of every available throw, then banking, declining
//! and ending where the throw-use rule allows (L-7, L-8).

use crate::player::Player;
use crate::sticks::Throw;

use super::super::board::Position;
use super::super::moves::Move;
use super::super::next;
use super::super::rules::{Bank, ThrowUse};
use super::{MoveList, Sink};

impl Position {
    /// Whether all of `p`'s pieces are converted and banking is on (L-8).
    #[inline]
    pub(crate) fn may_bank(&self, p: Player) -> bool {
        self.rules.bank == Bank::AfterAllConverted && self.unconv[p.index()] == 0
    }

    /// Whether `p` can play `t` now: it is pending, or it is a tâb and one is banked.
    #[inline(always)]
    pub(in crate::tab) fn available_now(&self, p: Player, t: Throw) -> bool {
        self.pending.get(t.index()) > 0 || (t.is_tab() && self.bank[p.index()] > 0)
    }

    /// Fills `out` with every decision of the move phase; returns whether there is any.
    pub(crate) fn decisions(&self, p: Player, out: &mut Vec<Move>) -> bool {
        out.clear();
        let any = self.decisions_into(p, &mut MoveList::new(self, out));
        // The plays come out sorted by throw, square and the rest; banking, declining and
        // ending sort after them, in the order pushed.
        debug_assert!(
            out.windows(2).all(|w| w[0] < w[1]),
            "generation gives sorted decisions without duplicates"
        );
        any
    }

    /// Puts every decision of the move phase into `out` (L-7, L-8): the plays of every
    /// available throw, then banking, declining and ending where allowed. Returns whether there
    /// is any.
    pub(crate) fn decisions_into(&self, p: Player, out: &mut impl Sink) -> bool {
        let me = p.index();
        let mut available = 0u32;
        for i in 0..5 {
            available |= u32::from(self.pending.get(i) > 0) << i;
        }
        // A banked tâb can be played too.
        available |= u32::from(self.bank[me] > 0);
        if available == 0 {
            return false;
        }
        // L-9c.1: without a tâb, unconverted pieces cannot move, and no square holds a
        // converted one.
        if available & 1 == 0 && self.conv_sq[me] == 0 {
            return false;
        }
        let may_bank = self.may_bank(p);
        let (mut g, squares) = self.pass_setup(p, Throw::TAB);
        let mut any = false;
        let (mut playable, mut only_reducing) = (0u32, 0u32);
        let mut compulsory_pending = false;
        let (mut optional_pending, mut playable_count) = (0u32, 0u32);
        let mut rest = available;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let t = Throw::ALL[i];
            g.t = t;
            g.throw_bits = next::throw_bits(t);
            let found = self.plays_of(&mut g, squares, out);
            if found.count == 0 {
                continue;
            }
            any = true;
            let n = u32::from(self.pending.get(i));
            if n == 0 {
                continue; // a banked tâb: always optional
            }
            playable |= 1 << i;
            playable_count += n;
            let reducing = found.reducing == found.count;
            only_reducing |= u32::from(reducing) << i;
            // L-7: a tâb that may be banked, and a throw whose only plays reduce a stack, need
            // not be played.
            let optional = match self.rules.throw_use {
                ThrowUse::Optional => true,
                ThrowUse::Compulsory => false,
                ThrowUse::CompulsoryWithExemptions | ThrowUse::CompulsoryWithEarlyDecline => {
                    (t.is_tab() && may_bank) || reducing
                }
            };
            if optional {
                optional_pending += n;
            } else {
                compulsory_pending = true;
            }
        }
        if !any {
            return false;
        }
        // Bank and decline single throws only while something else remains to be played;
        // otherwise `end` does the same.
        if playable_count >= 2 {
            if self.pending.get(Throw::TAB.index()) > 0 && may_bank {
                out.push(next::BANK);
            }
            // L-7 as written judges the exemption when the move phase ends (by `end`), so an
            // exempt throw is not declined early: a later play may give it an ordinary move.
            let declinable = match self.rules.throw_use {
                ThrowUse::Compulsory | ThrowUse::CompulsoryWithExemptions => 0,
                ThrowUse::Optional => playable,
                ThrowUse::CompulsoryWithEarlyDecline => playable & only_reducing,
            };
            // A tâb that may be banked is banked, not declined.
            let mut d = declinable & !u32::from(may_bank);
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                out.push(next::decline(Throw::ALL[i]));
            }
        }
        if !compulsory_pending && (optional_pending > 0 || self.bank[me] > 0) {
            out.push(next::END);
        }
        true
    }
}
