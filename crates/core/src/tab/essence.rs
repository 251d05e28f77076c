//! A Tâb position reduced to what the rules read of it, for tables of solved positions
//! ([`crate::endgame`]).

use crate::endgame::{Essence, EssenceCaps, EssenceWork, Sanctuary, Tabled};
use crate::player::{ByPlayer, Player};

use super::board::{MAXP, OFF, OWNER_BLACK, PIECE_BITS, Piece, Stats};
use super::next::Next;
use super::rules::End;
use super::state::State;

impl Essence for State {
    fn material(&self) -> ByPlayer<u8> {
        ByPlayer::new(self.alive[0], self.alive[1])
    }

    fn unlimited(&self) -> State {
        let mut s = *self;
        // The counters only the limits (L-18) and the statistics read.
        s.turns = 0;
        s.no_progress = 0;
        s.opening_throws = 0;
        s.actions = 0;
        s.stats = Stats::default();
        s
    }

    /// See `fortress.rs`.
    fn sanctuaries(&self) -> Option<ByPlayer<Vec<Sanctuary>>> {
        let grid = self.grid();
        super::board::Position::sanctuaries(self).map(|sides| {
            sides.map(|squares| {
                squares
                    .into_iter()
                    .map(|s| Sanctuary {
                        square: super::moves::Spot::of(grid, s).to_string(),
                        pieces: self.mask(s.0).count_ones() as u8,
                    })
                    .collect()
            })
        })
    }

    fn essence(&self, caps: EssenceCaps) -> State {
        let mut s = self.unlimited();
        // The captures decide the result only under `end=most-captures` (L-17), and there only
        // their difference does; pieces lost to reductions are never read again.
        if s.rules.end == End::MostCaptures {
            let least = s.captured[0].min(s.captured[1]);
            s.captured = s.captured.map(|c| c - least);
        } else {
            s.captured = [0; 2];
        }
        s.removed = [0; 2];
        for b in &mut s.bank {
            *b = (*b).min(caps.bank);
        }
        // Pieces of a side are interchangeable: number them in the order of (square, marks,
        // history), pieces off the board last, and renumber the board's piece bits to match.
        let n = usize::from(s.rules.piece_count()).min(MAXP);
        for p in Player::ALL {
            let side = p.index();
            let mut order: Vec<usize> = (0..n).collect();
            let key = |pc: &Piece| (pc.sq == OFF, pc.sq, pc.flags, pc.hi, pc.lo);
            order.sort_by_key(|&i| key(&self.pieces[side][i]));
            let mut new_index = [0usize; MAXP];
            for (new, &old) in order.iter().enumerate() {
                s.pieces[side][new] = if self.pieces[side][old].sq == OFF {
                    Piece::off()
                } else {
                    self.pieces[side][old]
                };
                new_index[old] = new;
            }
            for cell in s.board.iter_mut() {
                let owner_is_black = *cell & OWNER_BLACK != 0;
                let bits = *cell & PIECE_BITS;
                if bits == 0 || owner_is_black != (p == Player::Two) {
                    continue;
                }
                let mut renumbered = 0;
                for (old, &new) in new_index.iter().enumerate().take(n) {
                    if bits & (1 << old) != 0 {
                        renumbered |= 1 << new;
                    }
                }
                *cell = (*cell & !PIECE_BITS) | renumbered;
            }
        }
        s.derive_caches();
        s.next = Next::EMPTY;
        s
    }

    /// Not enumerated yet: a piece's history (the squares or rows it has seen, its visit to
    /// the enemy row) multiplies the positions of even one piece a side; tables start from
    /// positions instead (`--from`).
    fn placements(
        rules: &Self::Ruleset,
        _pieces: ByPlayer<u8>,
        _out: &mut dyn FnMut(State),
    ) -> Result<u64, String> {
        Err(format!(
            "{rules}: tables by piece count are not available for the faithful rulesets yet (the pieces' histories multiply the positions); build from positions with --from"
        ))
    }
}

impl Tabled for State {
    fn with_essence<W: EssenceWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        Some(work.run::<State>(rules))
    }
}
