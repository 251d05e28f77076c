//! The turn flow: a decision applied (Tab's moves with Ludii's track-index counts, At-Tab's
//! moves), the throws and turns that follow it, and the end of the game (LT-2, LT-4 to LT-10,
//! LH-3, LH-4, LH-6 to LH-9).

use crate::game::{EndReason, Outcome};
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::ruleset::Preset;
use super::state::{State, bit};
use super::tracks::{self, ENEMY_AT, ENEMY_LEN, HOME_AT, HOME_LEN, NONE, row_mask};

impl State {
    /// Tab: moves the stack of the side to move from `f` to `t`, capturing what stands there,
    /// and updates Ludii's track-index counts (LT-4, LT-6, LT-7).
    pub(super) fn play_tab(&mut self, f: u8, to: u8) {
        let tr = tracks::tab(self.columns());
        let p = self.to_move.index();
        let q = 1 - p;
        let (fu, tu) = (usize::from(f), usize::from(to));
        let c = self.count[fu];
        if self.occ[q] & bit(to) != 0 {
            // LT-7: the whole enemy stack is removed; Ludii's counts of the captured player
            // lose one (not the stack's size) at every index of the square, on every track.
            self.scores[p] = self.scores[p].saturating_add(self.count[tu]);
            self.occ[q] &= !bit(to);
            self.count[tu] = 0;
            let h = tr.home_index[q][tu];
            if h != NONE {
                let x = &mut self.counts[q][HOME_AT + usize::from(h)];
                *x = x.wrapping_sub(1);
            }
            for e in tr.enemy_index[q][tu] {
                if e != NONE {
                    let x = &mut self.counts[q][ENEMY_AT + usize::from(e)];
                    *x = x.wrapping_sub(1);
                }
            }
        }
        // LT-6: the mover's counts on its home track and its enemy track. (The middle loop's
        // counts never decide anything, and the other tracks' counts of the mover are never
        // read.)
        let c32 = i32::from(c);
        shift_counts(
            &mut self.counts[p][HOME_AT..HOME_AT + HOME_LEN],
            [tr.home_index[p][fu], NONE],
            [tr.home_index[p][tu], NONE],
            c32,
        );
        shift_counts(
            &mut self.counts[p][ENEMY_AT..ENEMY_AT + ENEMY_LEN],
            tr.enemy_index[p][fu],
            tr.enemy_index[p][tu],
            c32,
        );
        // LT-4: the whole stack moves; on an own stack the counts add.
        self.occ[p] = (self.occ[p] & !bit(f)) | bit(to);
        self.count[fu] = 0;
        self.count[tu] += c;
    }

    /// At-Tab: moves `part` pieces (0 = the whole unit) from `f` to `t` (LH-3, LH-4, LH-6).
    pub(super) fn play_hyde(&mut self, f: u8, to: u8, part: u8) {
        let p = self.to_move.index();
        let q = 1 - p;
        let (fu, tu) = (usize::from(f), usize::from(to));
        let k = if part == 0 { self.count[fu] } else { part };
        // LH-3: a locked piece that moves is freed (a locked square holds one piece).
        self.tally.freed += u32::from(self.locked & bit(f) != 0);
        if self.occ[q] & bit(to) != 0 {
            // LH-6: the whole enemy unit is removed and the capture scores one.
            self.occ[q] &= !bit(to);
            self.count[tu] = 0;
            self.scores[p] = self.scores[p].saturating_add(1);
        }
        self.count[fu] -= k;
        if self.count[fu] == 0 {
            self.occ[p] &= !bit(f);
            self.locked &= !bit(f);
        }
        self.count[tu] += k;
        self.occ[p] |= bit(to);
        // LH-3: every move leaves its destination unlocked.
        self.locked &= !bit(to);
    }

    /// After a decision by the side to move: the extra throw, the end of the game, Ludii's
    /// limits and the turn counter.
    pub(super) fn finish_decision(&mut self, throw: Throw) {
        let mover = self.to_move;
        let again = match self.rules.game() {
            // LT-2: in the opening only a 1 gives another throw, and it starts the main
            // phase for both players. LT-8: afterwards a 1, 4 or 6 does.
            Preset::Tab if !self.main_phase => {
                if throw.is_tab() {
                    self.main_phase = true;
                }
                throw.is_tab()
            }
            // LH-7: a 1, 4 or 6 gives another throw, after a move or a pass.
            _ => throw.throws_again(),
        };
        let next = if again { mover } else { !mover };
        if self.main_phase || throw.is_tab() {
            self.tally.throws += 1;
            self.tally.turn_tab |= throw.is_tab();
        }
        self.decisions += 1;
        self.throw = None;
        let scores = ByPlayer::new(u32::from(self.scores[0]), u32::from(self.scores[1]));
        let natural = match self.rules.game() {
            // LT-9: the game ends after a move that hands the turn to a player with no
            // pieces; the mover wins.
            Preset::Tab => (self.occ[next.index()] == 0).then_some(Outcome {
                winner: Some(mover),
                scores,
                reason: EndReason::Elimination,
            }),
            // LH-8: after any move, when every piece stands in its opposing home row or the
            // player who moved has no pieces; the higher score wins.
            Preset::Hyde => self
                .hyde_end_reason(mover)
                .map(|reason| Outcome::by_score(scores, reason)),
        };
        // LT-10, LH-9: Ludii's limits, checked after the rules' own end, with the turn number
        // of the decision just made.
        let truncated = natural.is_none()
            && (u64::from(self.turn) >= 2 * u64::from(self.rules.turn_cap())
                || self.decisions >= self.rules.move_cap());
        if next != mover || natural.is_some() || truncated {
            self.tally.turns += u32::from(self.main_phase);
            self.tally.tab_turns += u32::from(self.tally.turn_tab);
            self.tally.turn_tab = false;
        }
        if let Some(o) = natural {
            self.end(o);
        } else if truncated {
            self.end(Outcome {
                winner: None,
                scores,
                reason: EndReason::TurnCap,
            });
        } else {
            if next != mover {
                self.turn += 1;
            }
            self.to_move = next;
        }
    }

    /// At-Tab's natural end after a decision by `mover` (LH-8).
    pub(super) fn hyde_end_reason(&self, mover: Player) -> Option<EndReason> {
        let n = self.columns();
        let all_home = self.occ[0] & !row_mask(n, 3) == 0 && self.occ[1] & !row_mask(n, 0) == 0;
        if all_home {
            Some(EndReason::NoMoreCaptures)
        } else if self.occ[mover.index()] == 0 {
            Some(EndReason::Elimination)
        } else {
            None
        }
    }

    pub(super) fn end(&mut self, o: Outcome) {
        self.over = Some(o);
        self.to_move = Player::One;
    }

    /// The current outcome's scores.
    pub(super) fn score_pair(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.scores[0]), u32::from(self.scores[1]))
    }
}

/// Ludii's track-index update for one track when `c` pieces move from a square with track
/// indices `from` to a square with indices `to` (first index first, `NONE` if absent) (LT-6).
#[inline]
fn shift_counts(counts: &mut [i32], from: [u8; 2], to: [u8; 2], c: i32) {
    if from[0] != NONE {
        // The first index of the origin where the mover's count is positive; none: no change.
        let start = if counts[usize::from(from[0])] > 0 {
            from[0]
        } else if from[1] != NONE && counts[usize::from(from[1])] > 0 {
            from[1]
        } else {
            return;
        };
        let x = &mut counts[usize::from(start)];
        *x = x.wrapping_sub(c);
        if to[0] != NONE {
            // The first index of the destination after it, else its first index.
            let j = if to[0] > start {
                to[0]
            } else if to[1] != NONE && to[1] > start {
                to[1]
            } else {
                to[0]
            };
            let y = &mut counts[usize::from(j)];
            *y = y.wrapping_add(c);
        }
    } else if to[0] != NONE {
        // Arriving from off the track adds one, whatever the stack's size.
        let y = &mut counts[usize::from(to[0])];
        *y = y.wrapping_add(1);
    }
}
