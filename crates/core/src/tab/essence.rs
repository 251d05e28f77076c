//! A Tâb position reduced to what the rules read of it, for tables of solved positions
//! ([`crate::endgame`]).

use crate::endgame::{Essence, EssenceCaps, EssenceWork, Sanctuary, Tabled};
use crate::player::{ByPlayer, Player};

use super::board::{
    CONVERTED, ENTERED, MAXP, OFF, OWNER_BLACK, PIECE_BITS, Pending, Phase, Piece, ROWS_SHIFT, Stats,
};
use super::rules::{Bank, Reduction};
use super::next::Next;
use super::rules::End;
use super::state::State;

impl Essence for State {
    fn material(&self) -> ByPlayer<u8> {
        ByPlayer::new(self.alive[0], self.alive[1])
    }

    fn within_turn(&self) -> bool {
        matches!(self.phase, Phase::Throwing { .. }) && !self.pending.is_empty()
    }

    /// L-18: a limit ends the game at the end of a turn (`end_turn`), before the next turn
    /// starts: that turn, the next of the count, starts with its player's throw (the count's
    /// parity says whose, L-4), nothing pending. The no-progress count starts again; a turn
    /// count at the turn cap steps back two, which keeps whose turn it is.
    fn beyond_limit(&self) -> Option<State> {
        if !self.over?.reason.is_truncation() {
            return None;
        }
        let mut s = *self;
        s.no_progress = 0;
        s.turns += 1;
        if s.turns > u32::from(s.rules.turn_cap) {
            s.turns -= 2;
        }
        s.over = None;
        s.pending = Pending::NONE;
        s.extra = false;
        s.next = Next::EMPTY;
        Player::ALL.into_iter().find_map(|p| {
            s.phase = Phase::Throwing { player: p };
            s.validate().is_ok().then_some(s)
        })
    }

    fn from_essence_id(
        rules: &super::rules::Ruleset,
        id: &str,
    ) -> Result<State, crate::game::PositionIdError> {
        super::id::read(*rules, id, false)
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
        // L-5: while a turn throws on, its pending 1s, 4s and 6s grow without bound; beyond
        // the cap a count stands for any larger one.
        if let Phase::Throwing { .. } = s.phase {
            for i in 0..5 {
                while s.pending.get(i) > caps.pending {
                    s.pending.take(i);
                }
            }
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
        // A side with one piece left can never stack again (pieces never come back), and only a
        // stack's move reads the histories (L-15; the survivor, L-15; which pieces of a stack
        // are alike): its piece keeps its square, its conversion and its visit to the enemy row
        // (L-10), and forgets the rest.
        for p in Player::ALL {
            if s.alive[p.index()] == 1 {
                for pc in s.pieces[p.index()].iter_mut().filter(|pc| pc.sq != OFF) {
                    pc.lo = 0;
                    pc.hi = 0;
                    pc.flags &= CONVERTED | ENTERED;
                }
            }
        }
        s.derive_caches();
        s.next = Next::EMPTY;
        s
    }

    /// One piece a side at most: a lone piece keeps only its square, its conversion and its
    /// visit to the enemy row in the essence, so its positions are few; two or more pieces of
    /// a side would each bring its history (the squares or rows it has seen, L-15), which
    /// multiplies the positions beyond this enumeration. Each lone piece is set with one
    /// history that a walk along its track gives (first lap, round the loop, through the enemy
    /// row; `valid.rs`), on every square and with every mark it can have; banked tâbs run from
    /// 0 to the cap once every piece of the side is converted (L-8).
    fn placements(
        rules: &Self::Ruleset,
        pieces: ByPlayer<u8>,
        caps: EssenceCaps,
        out: &mut dyn FnMut(State),
    ) -> Result<u64, String> {
        if pieces.one > 1 || pieces.two > 1 {
            return Err(format!(
                "{rules}: tables by piece count list at most one piece a side for the faithful rulesets (the histories of two or more pieces of a side, L-15, multiply the positions); build from positions with --from"
            ));
        }
        if pieces.one == 0 || pieces.two == 0 {
            return Ok(0);
        }
        let fresh = State::new(*rules);
        let [white, black] = Player::ALL.map(|p| lone_pieces(&fresh, p));
        let banks = |pc: &Piece| {
            if pc.converted() && rules.bank == Bank::AfterAllConverted {
                caps.bank
            } else {
                0
            }
        };
        let mut count = 0;
        for (wk, w) in &white {
            for (bk, b) in &black {
                if w.sq == b.sq {
                    continue;
                }
                for bank_w in 0..=banks(w) {
                    for bank_b in 0..=banks(b) {
                        for thrower in Player::ALL {
                            let s = lone_state(&fresh, [(*wk, *w), (*bk, *b)], [bank_w, bank_b], thrower);
                            if s.validate().is_ok() {
                                out(s);
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        Ok(count)
    }
}

/// Every lone piece `p` can have, one for each essence (square, conversion, visit to the
/// enemy row), as (its number, the piece with a history of a walk along its track).
fn lone_pieces(fresh: &State, p: Player) -> Vec<(usize, Piece)> {
    let rules = fresh.rules;
    let order = fresh.track_order(p);
    let len = order.len();
    let enemy = fresh.row_mask(fresh.enemy_row(p));
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for k in 0..usize::from(rules.piece_count()) {
        // Unconverted, on its start square.
        let start = fresh.pieces[p.index()][k];
        if seen.insert((start.sq, start.flags & (CONVERTED | ENTERED))) {
            out.push((k, start));
        }
        for (t, &sq) in order.iter().enumerate() {
            for walk in fresh.walks(k, t, len) {
                let squares = order[walk.from..=walk.to].iter().fold(0u128, |acc, &q| acc | 1 << q);
                let entered = squares & enemy != 0;
                let mut flags = CONVERTED | fresh.rows_of(squares) << ROWS_SHIFT;
                if entered {
                    flags |= ENTERED;
                }
                if !seen.insert((sq, flags & (CONVERTED | ENTERED))) {
                    continue;
                }
                let mut pc = Piece { lo: 0, hi: 0, sq, flags };
                if rules.tracks_squares() {
                    let visited = if rules.reduction == Reduction::SquareLanded {
                        1u128 << order[k] | 1u128 << sq
                    } else {
                        squares
                    };
                    pc.set_visited(visited);
                }
                out.push((k, pc));
            }
        }
    }
    out
}

/// The position at `thrower`'s throw with one piece a side (numbered as given), the rest
/// captured, and the given banks: turn 11 or 12 of a game that White began.
fn lone_state(fresh: &State, lone: [(usize, Piece); 2], bank: [u16; 2], thrower: Player) -> State {
    let mut s = *fresh;
    let n = usize::from(s.rules.piece_count());
    for cell in s.board.iter_mut() {
        *cell = 0;
    }
    for (side, &(k, pc)) in lone.iter().enumerate() {
        for (i, slot) in s.pieces[side][..n].iter_mut().enumerate() {
            *slot = if i == k { pc } else { Piece::off() };
        }
        let owner = if side == 1 { OWNER_BLACK } else { 0 };
        s.board[usize::from(pc.sq)] = owner | 1 << k;
    }
    s.alive = [1, 1];
    s.captured = [n as u16 - 1, n as u16 - 1];
    s.removed = [0; 2];
    s.bank = bank;
    s.pending = Pending::NONE;
    s.extra = false;
    s.phase = Phase::Throwing { player: thrower };
    s.opening_throws = 1;
    s.turns = if thrower == Player::One { 11 } else { 12 };
    s.no_progress = 0;
    s.over = None;
    s.derive_caches();
    s.next = Next::EMPTY;
    s
}

impl Tabled for State {
    fn with_essence<W: EssenceWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        Some(work.run::<State>(rules))
    }
}
