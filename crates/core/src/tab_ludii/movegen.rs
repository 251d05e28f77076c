//! Move generation: the legal moves of a throw for the side to move (LT-2 to LT-7,
//! LH-2 to LH-7), and the plain track-by-track form of Tab's rule that the tests hold it to.

use crate::sticks::Throw;

use super::moves::{Cell, Move, Step};
use super::ruleset::Preset;
use super::state::{State, bit, squares_of, squares_of64};
#[cfg(test)]
use super::tracks::TabTracks;
use super::tracks::{self, row_mask};
#[cfg(test)]
use super::tracks::{ENEMY_AT, HOME_AT, NONE};

impl State {
    /// Tab: where the stack of player `p` on `s` can go with `v` along each of the three
    /// tracks, taken one by one as ludii-rules.md states the rule (LT-3, LT-4, LT-5, LT-6).
    /// `enemy_open` says whether the opponent still has a piece in its home row (`enemy_home`).
    /// Returns up to three destinations, sorted, duplicates removed.
    ///
    /// The move generator uses the equivalent per-square tables of [`tracks::TabTracks`]
    /// (`primary`, `entry` and their count slots); this plain form is the reference the tests
    /// hold it to.
    #[cfg(test)]
    pub(super) fn tab_destinations(
        &self,
        t: &TabTracks,
        p: usize,
        s: u8,
        v: u8,
        enemy_home: u128,
        enemy_open: bool,
    ) -> ([u8; 3], usize) {
        let n = t.n;
        let su = usize::from(s);
        let mut d = [NONE; 3];
        let mut k = 0;
        // Home track: from the square's index, if the mover's count there is positive.
        let h = t.home_index[p][su];
        if h != NONE && self.counts[p][HOME_AT + usize::from(h)] > 0 && h + v < 2 * n {
            d[k] = t.home[p][usize::from(h + v)];
            k += 1;
        }
        // Middle loop: from the square's only index, round the loop.
        let m = t.middle_index[su];
        if m != NONE {
            let j = m + v;
            d[k] = t.middle[usize::from(if j >= 2 * n { j - 2 * n } else { j })];
            k += 1;
        }
        // Enemy track: from the first index of the square where the mover's count is
        // positive (none: no move); outside the opponent's home row only while the opponent
        // still has a piece there.
        let [e1, e2] = t.enemy_index[p][su];
        if e1 != NONE && (enemy_open || enemy_home & bit(s) != 0) {
            let counts = &self.counts[p][ENEMY_AT..];
            let start = if counts[usize::from(e1)] > 0 {
                e1
            } else if e2 != NONE && counts[usize::from(e2)] > 0 {
                e2
            } else {
                NONE
            };
            if start != NONE && start + v < 3 * n {
                d[k] = t.enemy[p][usize::from(start + v)];
                k += 1;
            }
        }
        // Sort the (at most three) destinations and drop repeats: Ludii lists a destination
        // reached along two tracks twice; it is one move.
        if k > 1 && d[0] > d[1] {
            d.swap(0, 1);
        }
        if k > 2 {
            if d[1] > d[2] {
                d.swap(1, 2);
            }
            if d[0] > d[1] {
                d.swap(0, 1);
            }
        }
        let mut out = [NONE; 3];
        let mut m = 0;
        for &x in &d[..k] {
            if m == 0 || out[m - 1] != x {
                out[m] = x;
                m += 1;
            }
        }
        (out, m)
    }

    /// Fills `out` with the legal moves of the side to move for throw `throw`.
    #[inline]
    pub(super) fn generate(&self, throw: Throw, out: &mut Vec<Move>) {
        self.generate_for(self.to_move.index(), throw, out);
    }

    /// The moves player `p` (the seat index) would have with the throw `throw` now.
    #[inline]
    pub(super) fn generate_for(&self, p: usize, throw: Throw, out: &mut Vec<Move>) {
        out.clear();
        let n = self.columns();
        let v = throw.value();
        let lane = n == 9;
        let step = |cells: &[Cell], from: u8, to: u8, part: u8| {
            Move::Step(Step {
                throw,
                from: cells[usize::from(from)],
                to: cells[usize::from(to)],
                part,
                lane,
            })
        };
        match self.rules.game() {
            Preset::Tab => {
                // LT-2: in the opening the only move is a pass.
                if self.main_phase {
                    let t = tracks::tab(n);
                    let k = throw.index();
                    // LT-5: the enemy track leads into the opponent's home row only while the
                    // opponent still has a piece there.
                    let enemy_open = (self.occ[1 - p] as u64) & t.home_row[1 - p] != 0;
                    let counts = &self.counts[p];
                    // Tab boards have at most 60 squares.
                    for s in squares_of64(self.occ[p] as u64) {
                        let su = usize::from(s) & 63;
                        // LT-6: the home and enemy tracks start only where the mover's count
                        // is positive (the middle loop's slot always holds 1).
                        let first = counts[usize::from(t.first_slot[p][su]) & 127] > 0;
                        let entry =
                            enemy_open && counts[usize::from(t.entry_slot[p][su]) & 127] > 0;
                        let primary = t.primary[p][su][k].filter(|_| first);
                        let entry = t.entry[p][su][k].filter(|_| entry);
                        // In square order: White's entry square is beyond its loop square,
                        // Black's before it.
                        let (a, b) = if p == 0 {
                            (primary, entry)
                        } else {
                            (entry, primary)
                        };
                        if let Some(m) = a {
                            out.push(m);
                        }
                        if let Some(m) = b {
                            out.push(m);
                        }
                    }
                }
            }
            Preset::Hyde => {
                let t = tracks::hyde(n);
                let q = 1 - p;
                let len = 4 * n;
                let enemy_home = self.home_row(q);
                // LH-5: a unit in the opponent's home row may move only once the opponent has
                // no piece left there.
                let blocked = if self.occ[q] & enemy_home != 0 {
                    enemy_home
                } else {
                    0
                };
                // LH-3: a locked piece moves only with a 1.
                let frozen = if v == 1 { 0 } else { self.locked };
                let middle = row_mask(n, 1) | row_mask(n, 2);
                for s in squares_of(self.occ[p] & !blocked & !frozen) {
                    let i = t.index[p][usize::from(s)];
                    // LH-2: a throw past the end of the track cannot be played.
                    if i + v >= len {
                        continue;
                    }
                    let d = t.track[p][usize::from(i + v)];
                    let size = self.count[usize::from(s)];
                    if self.occ[p] & bit(d) != 0 {
                        // LH-4: onto an own unit only in the middle rows, and then exactly one
                        // piece moves and joins it.
                        if middle & bit(d) != 0 {
                            out.push(step(&t.cells, s, d, if size > 1 { 1 } else { 0 }));
                        }
                    } else {
                        // LH-4: the whole unit; and, when the throw is one less than its size,
                        // just `throw` of its pieces.
                        out.push(step(&t.cells, s, d, 0));
                        if v + 1 == size {
                            out.push(step(&t.cells, s, d, v));
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            // LT-2, LH-7: with nothing to move the only move is a pass.
            out.push(Move::Pass);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ruleset::Ruleset;
    use super::*;
    use crate::game::GameState;
    use crate::ruleset::Ruleset as _;
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The moves of the side to move taken track by track (`tab_destinations`), as the rule is
    /// stated.
    fn reference_moves(s: &State, throw: Throw) -> Vec<Move> {
        let mut out = Vec::new();
        if s.main_phase {
            let n = s.columns();
            let t = tracks::tab(n);
            let p = s.to_move.index();
            let enemy_home = s.home_row(1 - p);
            let open = s.occ[1 - p] & enemy_home != 0;
            for sq in squares_of(s.occ[p]) {
                let (d, k) = s.tab_destinations(t, p, sq, throw.value(), enemy_home, open);
                for &to in &d[..k] {
                    out.push(Move::Step(Step {
                        throw,
                        from: Cell::of(sq, n),
                        to: Cell::of(to, n),
                        part: 0,
                        lane: n == 9,
                    }));
                }
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }

    #[test]
    fn tab_moves_equal_the_track_by_track_reference() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut moves = Vec::new();
        let mut checked = 0;
        for columns in [7u8, 9, 11, 13, 15] {
            let rules = Ruleset::new(Preset::Tab, columns).unwrap();
            for game in 0..60 {
                let mut s = rules.initial_state();
                while s.over.is_none() {
                    let throw = Throw::ALL[(rng.next_u64() % 5) as usize];
                    s.apply_chance_unchecked(throw);
                    // Every few games, scramble the track counts a little: the two forms must
                    // agree whatever the bookkeeping holds.
                    if game % 3 == 0 && rng.next_u64() % 4 == 0 {
                        let p = (rng.next_u64() % 2) as usize;
                        let i = (rng.next_u64() % (3 * u64::from(columns))) as usize;
                        s.counts[p][ENEMY_AT + i] = (rng.next_u64() % 5) as i32 - 2;
                        let j = (rng.next_u64() % (2 * u64::from(columns))) as usize;
                        s.counts[p][HOME_AT + j] = (rng.next_u64() % 5) as i32 - 2;
                    }
                    s.legal_moves(&mut moves);
                    assert_eq!(moves, reference_moves(&s, throw), "{}", s.position_id());
                    checked += 1;
                    let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                    s.play_unchecked(m);
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }
}
