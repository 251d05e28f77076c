//! Generation passes: the plays of one throw over a player's squares, in order, after reserved
//! tâbs (L-9c.2) and lowest priority (H-12); and whether any throw can be played at all.

use crate::player::Player;
use crate::sticks::Throw;

use super::super::board::{Position, bit};
use super::super::next;
use super::super::rules::{Conversion, EnemyEntry, EnemyRow, Passing};
use super::super::track::dests;
use super::{Found, Gen, Probe, Sink};

impl Position {
    /// The legal plays of throw `t` by `p`, appended to `out` in [`Move`] order, after reserved
    /// tâbs (L-9c.2: conversions first) and lowest priority (H-12: units outside the enemy row
    /// first). A probe stops at the first play.
    pub(crate) fn plays_into(&self, p: Player, t: Throw, out: &mut impl Sink) -> Found {
        let (mut g, squares) = self.pass_setup(p, t);
        self.plays_of(&mut g, squares, out)
    }

    /// The legal plays of the throw `g.t` by the units on `squares`, as [`State::plays_into`].
    #[inline(always)]
    pub(super) fn plays_of(&self, g: &mut Gen, squares: u128, out: &mut impl Sink) -> Found {
        let reserved = g.t.is_tab() && self.rules.tabs_reserved && self.unconv[g.p.index()] != 0;
        let lowest = self.rules.enemy_row == EnemyRow::LowestPriority;
        g.unconverted = None;
        if !reserved && !lowest {
            return self.gen_pass(g, squares, out);
        }
        self.ordered_passes(g, squares, reserved, lowest, out)
    }

    /// The passes of reserved tâbs (L-9c.2) and lowest priority (H-12): the first that finds a
    /// play gives the plays.
    #[inline(never)]
    pub(super) fn ordered_passes(
        &self,
        g: &mut Gen,
        squares: u128,
        reserved: bool,
        lowest: bool,
        out: &mut impl Sink,
    ) -> Found {
        let conv: &[Option<bool>] = if reserved {
            &[Some(true), Some(false)]
        } else {
            &[None]
        };
        let rows: &[Option<bool>] = if lowest {
            &[Some(false), Some(true)]
        } else {
            &[None]
        };
        let erow = self.row_mask(g.enemy_row);
        for &unconverted in conv {
            g.unconverted = unconverted;
            for &in_enemy_row in rows {
                let squares = match in_enemy_row {
                    None => squares,
                    Some(true) => squares & erow,
                    Some(false) => squares & !erow,
                };
                let found = self.gen_pass(g, squares, out);
                if found.count > 0 {
                    return found;
                }
            }
        }
        Found::default()
    }

    /// What generation for `p` reads for every unit (with the throw `t`), and the squares of
    /// the units that may move at all.
    #[inline(always)]
    pub(super) fn pass_setup(&self, p: Player, t: Throw) -> (Gen, u128) {
        let erow = self.row_mask(self.enemy_row(p));
        let mut squares = self.occ[p.index()];
        let home = self.home_occupied(p);
        // L-11, H-12: units in the enemy row that may not move at all.
        let frozen = match self.rules.enemy_row {
            EnemyRow::Freeze => home,
            EnemyRow::OpponentHomeEmpty => self.home_occupied(!p),
            _ => false,
        };
        if frozen {
            squares &= !erow;
        }
        let g = Gen {
            p,
            t,
            throw_bits: next::throw_bits(t),
            no_land: self.no_land(p),
            enemy_row: self.enemy_row(p),
            // L-10, A8.
            enter_ok: self.rules.enemy_entry == EnemyEntry::Once || self.home_occupied(!p),
            exit_stuck: match self.rules.enemy_row {
                EnemyRow::FreezeExit => home,
                EnemyRow::FreezeExitUnlessOneStack => home && !self.home_on_one_square(p),
                _ => false,
            },
            passing_free: self.rules.passing == Passing::Free,
            unconverted: None,
            dests: dests(self.rules.columns, self.rules.track, p),
        };
        (g, squares)
    }

    /// One generation pass over the units on `squares` with (`g.unconverted == Some(true)`)
    /// or without unconverted pieces (`None`: all). Squares are taken in order and each
    /// square's plays are put in order, so the plays come out sorted.
    #[inline(always)]
    pub(super) fn gen_pass<S: Sink>(&self, g: &Gen, mut squares: u128, out: &mut S) -> Found {
        let mut found = Found::default();
        let start = out.mark();
        let me = g.p.index();
        if !g.t.is_tab() {
            // L-9c.1: only a tâb moves an unconverted piece.
            squares &= self.conv_sq[me];
        }
        // A pass over units with (without) unconverted pieces skips squares without (with only
        // unconverted) pieces.
        match g.unconverted {
            Some(true) => squares &= self.unconv_sq[me],
            Some(false) => squares &= self.conv_sq[me],
            None => {}
        }
        // The common unit, one piece, is played here when no passing or leaving rule applies
        // and it moves the throw's steps, or one step converting (L-9c.1); every other unit
        // goes through `square_plays`.
        let lean = g.passing_free && !g.exit_stuck;
        let one_step = g.t.is_tab() && self.rules.conversion == Conversion::OneStep;
        let step = usize::from(g.t.value()) - 1;
        let unconv = self.unconv[me];
        // Squares are taken a 64-bit word at a time: cheaper than 128-bit arithmetic.
        for (w, mut word) in [squares as u64, (squares >> 64) as u64]
            .into_iter()
            .enumerate()
        {
            while word != 0 {
                if S::PROBE && found.count > 0 {
                    return found;
                }
                let from = (64 * w as u32 + word.trailing_zeros()) as u8;
                word &= word - 1;
                let m = self.mask(from);
                if lean && m & (m - 1) == 0 {
                    let steps = if m & unconv == 0 {
                        if g.unconverted == Some(true) {
                            continue;
                        }
                        step
                    } else if one_step {
                        if g.unconverted == Some(false) {
                            continue;
                        }
                        0
                    } else {
                        self.square_plays(g, from, out, &mut found);
                        continue;
                    };
                    let [main, alt] = g.dests[from as usize][steps];
                    self.lone_plays(g, from, m, main, alt, out, &mut found);
                    continue;
                }
                if m & (m - 1) != 0 {
                    self.stack_plays(g, from, m, out, &mut found);
                    continue;
                }
                self.square_plays(g, from, out, &mut found);
            }
        }
        if !S::PROBE {
            // Every play put is counted once: the count is what the sink received.
            found.count = (out.mark() - start) as u32;
        }
        found
    }

    /// Whether `p` can play any of the throws marked in `throws` (indexed by
    /// [`Throw::index`]). The same as probing each throw with [`State::plays_into`], whose
    /// passes (reserved tâbs, lowest priority) only order the units and never remove the last
    /// play, but with one pass over the units.
    pub(crate) fn any_play(&self, p: Player, throws: [bool; 5]) -> bool {
        let Some(first) = Throw::ALL.into_iter().find(|t| throws[t.index()]) else {
            return false;
        };
        let me = p.index();
        let tab = throws[Throw::TAB.index()];
        // L-9c.1: without a tâb, unconverted pieces cannot move, and no square holds a
        // converted one.
        if !tab && self.conv_sq[me] == 0 {
            return false;
        }
        let (mut g, mut squares) = self.pass_setup(p, first);
        let mut found = Found::default();
        while squares != 0 {
            // Units far along the track first: they are the likeliest to move.
            let from = if p == Player::One {
                127 - squares.leading_zeros() as u8
            } else {
                squares.trailing_zeros() as u8
            };
            squares &= !bit(from);
            if !tab && self.mask(from) & !self.unconv[me] == 0 {
                continue;
            }
            for t in Throw::ALL {
                if throws[t.index()] {
                    g.t = t;
                    g.throw_bits = next::throw_bits(t);
                    self.square_plays(&g, from, &mut Probe, &mut found);
                    if found.count > 0 {
                        return true;
                    }
                }
            }
        }
        false
    }
}
