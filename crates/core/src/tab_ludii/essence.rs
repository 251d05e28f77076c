//! A Ludii Tâb position reduced to what the rules read of it, for tables of solved positions
//! ([`crate::endgame`]).

use crate::endgame::{Essence, EssenceCaps, EssenceWork, Tabled};
use crate::player::ByPlayer;

use super::ruleset::Preset;
use super::state::{State, Tally};

impl Essence for State {
    fn material(&self) -> ByPlayer<u8> {
        let pieces = |p: usize| {
            super::state::squares_of(self.occ[p])
                .map(|sq| self.count[usize::from(sq)])
                .sum::<u8>()
        };
        ByPlayer::new(pieces(0), pieces(1))
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

    fn essence(&self, _caps: EssenceCaps) -> State {
        // Pieces stand on squares, not by number, so there is no order to fix.
        let mut s = self.unlimited();
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

impl Tabled for State {
    fn with_essence<W: EssenceWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        Some(work.run::<State>(rules))
    }
}
