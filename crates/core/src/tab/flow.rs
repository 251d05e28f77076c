//! The turn flow: throws, the move phase, playing a decision (conversion, capture, reduction),
//! the end of a turn and of the game (L-4, L-5, L-7, L-8, L-15 to L-18, H-13).

use crate::game::{EndReason, Outcome};
use crate::grid::Square;
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::moves::NO_PIECE;
use super::next::{self, Next};
use super::rules::{End, LimitResult, Reduction, Survivor, Timing};
use super::track::dests;

use super::board::{
    CONVERTED, DISSOLVED, ENTERED, OPENING_CAP, OWNER_BLACK, Pending, Phase, Piece, Position,
    ROW_BIT, ROWS_SHIFT, bit,
};
use super::movegen::Keep;

impl Position {
    /// begins.
    pub(super) fn apply_throw(&mut self, t: Throw, next: &mut Next) {
        // The action count and the statistics saturate: the rules bound every game far below
        // `u32::MAX` (turn_cap × throw_cap throws at most), but an id may give any value.
        self.actions = self.actions.saturating_add(1);
        match self.phase {
            Phase::Opening { thrower } => {
                self.opening_throws += 1;
                if t.is_tab() {
                    // L-4: the first tâb starts the thrower's first turn and counts in it.
                    self.turns = 1;
                    self.stats.throws = self.stats.throws.saturating_add(1);
                    self.stats.turn_tab = true;
                    self.pending.add(t.index());
                    self.after_throw(thrower, t, next);
                } else if self.opening_throws >= OPENING_CAP {
                    self.finish_by_limit(EndReason::TurnCap);
                } else {
                    self.phase = Phase::Opening { thrower: !thrower };
                }
            }
            Phase::Throwing { player } => {
                self.stats.throws = self.stats.throws.saturating_add(1);
                self.stats.turn_tab |= t.is_tab();
                self.pending.add(t.index());
                self.after_throw(player, t, next);
            }
            _ => unreachable!("a throw outside a chance turn"),
        }
    }

    pub(super) fn after_throw(&mut self, p: Player, t: Throw, next: &mut Next) {
        match self.rules.timing {
            // L-5: throw again after 1, 4, 6; then play. L-18: every throw of the turn is
            // pending, and a turn that has thrown `throw_cap` times stops the game.
            Timing::Accumulate if t.throws_again() => {
                if self.pending.total() >= u32::from(self.rules.throw_cap) {
                    self.finish_by_limit(EndReason::TurnCap);
                } else {
                    self.phase = Phase::Throwing { player: p };
                }
            }
            Timing::Accumulate => self.enter_moving(p, next),
            Timing::Interleaved => {
                self.extra = t.throws_again();
                self.enter_moving(p, next);
            }
        }
    }

    pub(super) fn enter_moving(&mut self, p: Player, next: &mut Next) {
        self.phase = Phase::Moving { player: p };
        if !self.keep_decisions(p, next) {
            self.finish_moving(p, next);
        }
    }

    /// Generates `p`'s decisions and keeps them for the next call for the legal moves; returns
    /// whether there is any (a move phase without one is skipped).
    #[inline(always)]
    pub(super) fn keep_decisions(&self, p: Player, next: &mut Next) -> bool {
        if self.pending.is_empty() && self.bank[p.index()] == 0 {
            // Nothing to play: no decision.
            next.len = 0;
            next.valid = true;
            return false;
        }
        self.generate_kept(p, next)
    }

    /// [`Position::keep_decisions`] when some throw can be played.
    #[inline(never)]
    pub(super) fn generate_kept(&self, p: Player, next: &mut Next) -> bool {
        let mut keep = Keep {
            codes: &mut next.codes,
            len: 0,
        };
        let any = self.decisions_into(p, &mut keep);
        next.len = keep.len as u32;
        next.valid = true;
        any
    }

    /// Whether `p` has a decision now: one probe pass over his units for every available
    /// throw, keeping no plays ([`State::any_play`]).
    ///
    /// A move phase has a decision exactly when some available throw has a play: banking,
    /// declining and ending are offered only beside plays, and the rules that filter plays
    /// (reserved tâbs, lowest priority) never remove the last one.
    pub(crate) fn has_decisions(&self, p: Player) -> bool {
        self.any_play(p, Throw::ALL.map(|t| self.available_now(p, t)))
    }

    /// Ends a move phase: bank what can be banked, forfeit the rest, and go on.
    pub(super) fn finish_moving(&mut self, p: Player, next: &mut Next) {
        next.valid = false;
        let tab = Throw::TAB.index();
        if self.pending.get(tab) > 0 && self.may_bank(p) {
            let n = u16::from(self.pending.get(tab));
            // Saturates, as the counters do: a bank of 65,535 tabs takes no more.
            self.bank[p.index()] = self.bank[p.index()].saturating_add(n);
            self.stats.banked = self.stats.banked.saturating_add(u32::from(n));
        }
        self.pending = Pending::NONE;
        if self.over.is_some() {
            return;
        }
        if self.rules.timing == Timing::Interleaved && self.extra {
            self.extra = false;
            // L-18: with interleaved throws the cap counts the game's throws (see
            // `Ruleset::throw_cap`).
            if self.stats.throws >= self.rules.interleaved_throw_limit() {
                return self.finish_by_limit(EndReason::TurnCap);
            }
            self.phase = Phase::Throwing { player: p };
            return;
        }
        self.extra = false;
        self.end_turn(p);
    }

    /// The end of `p`'s turn: the guards (L-18), a dead position (H-13), the next turn.
    pub(super) fn end_turn(&mut self, p: Player) {
        if self.stats.turn_tab {
            self.stats.tab_turns = self.stats.tab_turns.saturating_add(1);
        }
        if self.stats.turn_progress {
            self.no_progress = 0;
        } else {
            self.no_progress += 1;
        }
        self.stats.turn_tab = false;
        self.stats.turn_progress = false;
        if self.rules.no_progress > 0 && self.no_progress >= self.rules.no_progress {
            return self.finish_by_limit(EndReason::NoProgress);
        }
        if self.turns >= u32::from(self.rules.turn_cap) {
            return self.finish_by_limit(EndReason::TurnCap);
        }
        if self.rules.end == End::MostCaptures && self.dead() {
            return self.finish(EndReason::NoMoreCaptures);
        }
        self.turns += 1;
        self.phase = Phase::Throwing { player: !p };
    }

    /// H-13 (c): no unit of either player can use any throw.
    pub(super) fn dead(&self) -> bool {
        !Player::ALL.into_iter().any(|p| self.any_play(p, [true; 5]))
    }

    pub(super) fn finish(&mut self, reason: EndReason) {
        self.pending = Pending::NONE;
        self.extra = false;
        let scores = ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1]));
        let winner = self.end_winner();
        self.over = Some(Outcome {
            winner,
            scores,
            reason,
        });
        self.phase = Phase::Over;
    }

    pub(super) fn finish_by_limit(&mut self, reason: EndReason) {
        self.pending = Pending::NONE;
        self.extra = false;
        let scores = ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1]));
        let winner = self.limit_winner();
        self.over = Some(Outcome {
            winner,
            scores,
            reason,
        });
        self.phase = Phase::Over;
    }

    /// Applies the decision with code `code` (see [`super::next`]) of the move phase (assumed
    /// legal); `next` receives the decisions that follow.
    pub(super) fn apply_code(&mut self, code: u64, next: &mut Next) {
        self.actions = self.actions.saturating_add(1);
        let Phase::Moving { player: p } = self.phase else {
            unreachable!("a move outside a move phase")
        };
        match next::kind(code) {
            0 => self.apply_play(p, code),
            1 => {
                self.pending.take(Throw::TAB.index());
                self.bank[p.index()] = self.bank[p.index()].saturating_add(1);
                self.stats.banked = self.stats.banked.saturating_add(1);
            }
            2 => self.pending.take(next::throw(code).index()),
            _ => return self.finish_moving(p, next),
        }
        if self.over.is_some() {
            self.pending = Pending::NONE;
            next.valid = false;
            return;
        }
        if !self.keep_decisions(p, next) {
            self.finish_moving(p, next);
        }
    }

    pub(super) fn apply_play(&mut self, p: Player, code: u64) {
        let me = p.index();
        let t = next::play_throw(code);
        if self.pending.get(t.index()) > 0 {
            self.pending.take(t.index());
        } else {
            self.bank[me] -= 1;
        }
        let from = next::from(code);
        let pieces = next::pieces(code);
        let group = if pieces == 0 { self.mask(from) } else { pieces };
        // L-9c: a tâb on an unconverted unit converts it.
        let converting = group & self.unconv[me] != 0;
        if converting {
            self.convert(me, group);
        }
        if next::dissolves(code) {
            self.set_cell(from, self.board[from as usize] | DISSOLVED);
        }
        let Some(dest) = next::to(code) else {
            self.refresh_square(me, from);
            self.check_end(p);
            return;
        };
        let steps = if converting { 1 } else { t.value() };
        let d = &dests(self.rules.columns, self.rules.track, p)[from as usize];
        let [_, alt] = d[usize::from(steps) - 1];
        let row_bit = &ROW_BIT[self.rules.columns as usize];
        let (passed, passed_rows) = Self::walk_from(d, row_bit, steps, alt == dest);
        let reduces = group & (group - 1) != 0 && self.reduces(p, group, from, dest);
        // Leave the origin.
        let rest = self.mask(from) & !group;
        if rest == 0 {
            self.set_cell(from, 0);
            let keep = !bit(from);
            self.occ[me] &= keep;
            self.conv_sq[me] &= keep;
            self.unconv_sq[me] &= keep;
        } else {
            let dissolved = if rest & (rest - 1) != 0 {
                self.board[from as usize] & DISSOLVED
            } else {
                0
            };
            self.set_cell(
                from,
                rest | dissolved | (self.board[from as usize] & OWNER_BLACK),
            );
            self.refresh_square(me, from);
        }
        // L-16: capture everything on the destination.
        if self.owner(dest).is_some_and(|o| o != p) {
            self.capture(p, dest);
        }
        // History of the moving pieces (§3.10).
        let touched = passed | bit(dest);
        let rows = passed_rows | row_bit[usize::from(dest)];
        let entered = touched & self.row_mask(self.enemy_row(p)) != 0;
        let squares = match self.rules.reduction {
            Reduction::SquareVisited => touched,
            Reduction::SquareLanded => bit(dest),
            _ => 0,
        };
        // L-15: reduce the moving stack to one piece.
        let mut moving = group;
        if reduces {
            moving = self.reduce(me, group, next::survivor(code));
        }
        let mut m = moving;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut piece = self.pieces[me][i];
            piece.sq = dest;
            piece.flags |= rows << ROWS_SHIFT;
            if entered {
                piece.flags |= ENTERED;
                self.entered[me] |= 1 << i;
            }
            if squares != 0 {
                let v = piece.visited() | squares;
                piece.set_visited(v);
            }
            self.set_piece(me, i, piece);
        }
        // Arrive: merge with own pieces there (L-13).
        let own = if self.owner(dest) == Some(p) {
            self.mask(dest)
        } else {
            0
        };
        self.set_cell(
            dest,
            own | moving | if p == Player::Two { OWNER_BLACK } else { 0 },
        );
        // The moving pieces are converted (L-9c), so the square holds a converted piece.
        debug_assert_eq!(moving & self.unconv[me], 0);
        self.occ[me] |= bit(dest);
        self.conv_sq[me] |= bit(dest);
        self.check_end(p);
    }

    /// L-9c: converts the unconverted pieces of `group` (of player index `me`).
    #[inline(never)]
    pub(super) fn convert(&mut self, me: usize, group: u32) {
        let mut m = group & self.unconv[me];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut piece = self.pieces[me][i];
            piece.flags |= CONVERTED;
            self.set_piece(me, i, piece);
            self.unconv[me] &= !(1 << i);
            self.stats.conversions = self.stats.conversions.saturating_add(1);
        }
        self.stats.turn_progress = true;
    }

    /// L-16: `p` captures everything on `dest`.
    #[inline(never)]
    pub(super) fn capture(&mut self, p: Player, dest: u8) {
        let me = p.index();
        let o = !p;
        let mut m = self.mask(dest);
        let n = m.count_ones();
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.set_piece(o.index(), i, Piece::off());
        }
        let gone = self.mask(dest);
        self.unconv[o.index()] &= !gone;
        self.entered[o.index()] &= !gone;
        self.occ[o.index()] &= !bit(dest);
        self.conv_sq[o.index()] &= !bit(dest);
        self.unconv_sq[o.index()] &= !bit(dest);
        self.alive[o.index()] -= n as u8;
        self.captured[me] += n as u16;
        self.set_cell(dest, 0);
        self.stats.turn_progress = true;
    }

    /// L-15: reduces the moving `group` (of player index `me`) to one piece; returns it.
    #[inline(never)]
    pub(super) fn reduce(&mut self, me: usize, group: u32, survivor: u8) -> u32 {
        let keep = if self.rules.survivor == Survivor::Mover && survivor != NO_PIECE {
            survivor
        } else {
            Self::oldest(group)
        };
        let lost = group & !(1 << keep);
        self.entered[me] &= !lost;
        self.unconv[me] &= !lost;
        let mut m = lost;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.set_piece(me, i, Piece::off());
        }
        let k = lost.count_ones();
        self.alive[me] -= k as u8;
        self.removed[me] += k as u16;
        self.stats.reductions = self.stats.reductions.saturating_add(1);
        self.stats.turn_progress = true;
        1 << keep
    }

    /// L-17, H-13 (a, b): the end after a move.
    pub(super) fn check_end(&mut self, p: Player) {
        if self.alive[(!p).index()] == 0 || self.alive[p.index()] == 0 {
            return self.finish(EndReason::Elimination);
        }
        if self.rules.end == End::MostCaptures && self.all_across() {
            self.finish(EndReason::NoMoreCaptures);
        }
    }

    /// H-13 (b): every unit of both sides stands in its enemy's home row.
    pub(super) fn all_across(&self) -> bool {
        Player::ALL
            .into_iter()
            .all(|q| self.occ[q.index()] & !self.row_mask(self.enemy_row(q)) == 0)
    }

    /// The winner of a game the rules end here (L-17, H-13), whatever ended it.
    ///
    /// Under `end=elimination` (L-17) the side with pieces left wins. Under
    /// `end=most-captures` (H-13) every end (a side without pieces, every piece across, no
    /// unit able to move) is decided by the captures, equal being a draw: a side whose last
    /// pieces were lost to reductions (L-15) rather than captured can still win on the count.
    pub(super) fn end_winner(&self) -> Option<Player> {
        match self.rules.end {
            End::Elimination => Player::ALL
                .into_iter()
                .find(|p| self.alive[p.index()] > 0 && self.alive[(!*p).index()] == 0),
            End::MostCaptures => Self::winner_by(self.captured.map(u32::from)),
        }
    }

    /// The side with the higher count, or `None` on a tie.
    pub(super) fn winner_by(counts: [u32; 2]) -> Option<Player> {
        match counts[0].cmp(&counts[1]) {
            std::cmp::Ordering::Greater => Some(Player::One),
            std::cmp::Ordering::Less => Some(Player::Two),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The winner of a game stopped by a safety limit, by `limit_result` (L-18).
    pub(super) fn limit_winner(&self) -> Option<Player> {
        match self.rules.limit_result {
            LimitResult::Draw => None,
            LimitResult::Material => Self::winner_by(self.alive.map(u32::from)),
            LimitResult::Captures => Self::winner_by(self.captured.map(u32::from)),
        }
    }

    // ----- reading -----

    /// The piece number (1-based) and owner of a piece index, for messages.
    pub(crate) fn piece_name(&self, p: Player, i: u8) -> String {
        self.grid().name(Square(self.start_square(p, i)))
    }
}
