//! A Ludii Tâb position reduced to what the rules read of it, for tables of solved positions
//! ([`crate::endgame`]).

use crate::endgame::{Essence, EssenceCaps, EssenceWork, Tabled};
use crate::game::GameState;
use crate::player::{ByPlayer, Player};

use super::ruleset::{Preset, Ruleset};
use super::state::{State, Tally};
use super::tracks::{self, COUNTS, ENEMY_AT, HOME_AT, MAX_SQUARES, NONE, ONE_AT};

impl Essence for State {
    fn material(&self) -> ByPlayer<u8> {
        let pieces = |p: usize| {
            super::state::squares_of(self.occ[p])
                .map(|sq| self.count[usize::from(sq)])
                .sum::<u8>()
        };
        ByPlayer::new(pieces(0), pieces(1))
    }

    fn from_essence_id(rules: &Ruleset, id: &str) -> Result<State, crate::game::PositionIdError> {
        super::id::read(*rules, id, false)
    }

    fn unlimited(&self) -> State {
        let mut s = *self;
        // Ludii's turn and decision counters are read only by the move and turn caps; the
        // tally only by the statistics.
        s.turn = 1;
        s.decisions = 0;
        s.tally = Tally::default();
        s
    }

    fn placements(
        rules: &Ruleset,
        pieces: ByPlayer<u8>,
        _caps: EssenceCaps,
        out: &mut dyn FnMut(State),
    ) -> Result<u64, String> {
        let n = rules.columns();
        if pieces.one == 0 || pieces.two == 0 || pieces.one > n || pieces.two > n {
            return Err(format!(
                "{rules}: each side has from 1 to {n} pieces on the board in a position at a throw"
            ));
        }
        match rules.game() {
            Preset::Tab => State::tab_placements(rules, pieces, out),
            Preset::Hyde => Err(format!(
                "{rules}: tables by piece count are not available here yet (the captures scored so far decide the winner, LH-8); build from positions with --from"
            )),
        }
    }

    fn essence(&self, caps: EssenceCaps) -> State {
        // Pieces stand on squares, not by number, so there is no order to fix.
        let mut s = self.unlimited();
        if s.rules.game() == Preset::Tab {
            let n = usize::from(s.rules.columns());
            for side in &mut s.counts {
                for at in (HOME_AT..HOME_AT + 2 * n).chain(ENEMY_AT..ENEMY_AT + 3 * n) {
                    side[at] = side[at].clamp(-caps.counts, caps.counts);
                }
            }
        }
        match s.rules.game() {
            // LT-9: the mover wins; Ludii's Tab keeps no score.
            Preset::Tab => s.scores = [0; 2],
            // LH-8: the higher score wins; only the difference is read.
            Preset::Hyde => {
                let least = s.scores[0].min(s.scores[1]);
                s.scores = s.scores.map(|c| c - least);
            }
        }
        s
    }
}

/// The ways `k` pieces of one side can stand on the squares of `allowed`: units (a square and
/// its count) on distinct squares, in increasing square order.
fn units(allowed: &[u8], k: u8, from: usize, acc: &mut Vec<(u8, u8)>, out: &mut Vec<Vec<(u8, u8)>>) {
    if k == 0 {
        out.push(acc.clone());
        return;
    }
    for (i, &sq) in allowed.iter().enumerate().skip(from) {
        for size in 1..=k {
            acc.push((sq, size));
            units(allowed, k - size, i + 1, acc, out);
            acc.pop();
        }
    }
}

impl State {
    /// [`Essence::placements`] for Ludii's Tab: every way to set `pieces` on the board (stacks
    /// included), each unit with each track count it can carry (LT-6: counted at its square's
    /// first index on the home or enemy track holding it, or not counted, as after a move along
    /// the middle loop), either side to throw in the main phase; only states that pass
    /// validation are given.
    fn tab_placements(
        rules: &Ruleset,
        pieces: ByPlayer<u8>,
        out: &mut dyn FnMut(State),
    ) -> Result<u64, String> {
        let n = rules.columns();
        let squares: Vec<u8> = (0..4 * n).collect();
        let t = tracks::tab(n);
        let mut sides: [Vec<Vec<(u8, u8)>>; 2] = [Vec::new(), Vec::new()];
        for p in Player::ALL {
            units(&squares, pieces[p], 0, &mut Vec::new(), &mut sides[p.index()]);
        }
        // The track slot a unit of `p` on `sq` may be counted at: its home-track index, else
        // its first enemy-track index.
        let slot = |p: usize, sq: u8| -> Option<usize> {
            let home = t.home_index[p][usize::from(sq)];
            let enemy = t.enemy_index[p][usize::from(sq)][0];
            if home != NONE {
                Some(HOME_AT + usize::from(home))
            } else if enemy != NONE {
                Some(ENEMY_AT + usize::from(enemy))
            } else {
                None
            }
        };
        let mut given = 0;
        let start = State::new(*rules);
        for white in &sides[0] {
            for black in &sides[1] {
                if white.iter().any(|(a, _)| black.iter().any(|(b, _)| a == b)) {
                    continue;
                }
                let both = [white, black];
                // Each unit that a track holds may be counted or not: one bit each.
                let countable: Vec<(usize, u8, u8)> = (0..2)
                    .flat_map(|p| both[p].iter().map(move |&(sq, c)| (p, sq, c)))
                    .collect();
                let choices: Vec<(usize, usize, u8)> = countable
                    .iter()
                    .filter_map(|&(p, sq, c)| slot(p, sq).map(|at| (p, at, c)))
                    .collect();
                for mask in 0u32..(1 << choices.len()) {
                    for to_move in Player::ALL {
                        let mut s = start;
                        s.occ = [0, 0];
                        s.count = [0; MAX_SQUARES];
                        s.counts = [[0; COUNTS]; 2];
                        for (p, side) in both.iter().enumerate() {
                            s.counts[p][ONE_AT] = 1;
                            for &(sq, c) in side.iter() {
                                s.occ[p] |= 1u128 << sq;
                                s.count[usize::from(sq)] = c;
                            }
                        }
                        for (i, &(p, at, c)) in choices.iter().enumerate() {
                            if mask & (1 << i) != 0 {
                                s.counts[p][at] += i32::from(c);
                            }
                        }
                        s.main_phase = true;
                        s.to_move = to_move;
                        (s.turn, s.decisions) = match to_move {
                            Player::One => (1, 0),
                            Player::Two => (2, 1),
                        };
                        let lost = [n - pieces.one, n - pieces.two];
                        s.scores = [lost[1], lost[0]];
                        if s.validate().is_ok() {
                            out(s);
                            given += 1;
                        }
                    }
                }
            }
        }
        Ok(given)
    }
}

impl Tabled for State {
    fn with_essence<W: EssenceWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        Some(work.run::<State>(rules))
    }
}
