//! The reference move generator: the plain, option-by-option form of the rules' move
//! generation, kept beside the faster generator of the `movegen` folder so that tests can check
//! that both give the same plays, in the same order, at every position (`generator_check`).
//!
//! Nothing here is used to play a game.

use crate::player::Player;
use crate::sticks::Throw;

use super::board::{Phase, Position};
use super::movegen::{Found, MoveList, Probe};
use super::moves::{Move, NO_PIECE, Play, Spot};
use super::rules::{
    Conversion, EnemyEntry, EnemyRow, Passing, Split, Stacking, Survivor, ThrowUse,
};
use super::state::State;
use super::track::{NONE, dests};

/// Which units a generation pass looks at: those with (`Some(true)`) or without unconverted
/// pieces, and those inside (`Some(true)`) or outside the enemy home row; `None` for all.
#[derive(Copy, Clone, Debug)]
struct Sel {
    unconverted: Option<bool>,
    enemy_row: Option<bool>,
}

/// A path of a move: its destination and the squares passed over.
#[derive(Copy, Clone, Debug)]
struct Path {
    dest: u8,
    passed: u128,
}

#[inline]
fn bit(sq: u8) -> u128 {
    1u128 << sq
}

impl Position {
    /// The spot of a square, without a division.
    #[inline(always)]
    pub(crate) fn spot(&self, sq: u8) -> Spot {
        let n = self.rules.columns;
        let row = self.row_of(sq);
        Spot {
            row,
            col: sq - row * n,
            lane: n == 9,
        }
    }

    /// The throws `p` can play now: pending ones, and a banked tâb.
    pub(crate) fn available(&self, p: Player) -> impl Iterator<Item = Throw> + '_ {
        Throw::ALL
            .into_iter()
            .filter(move |&t| self.available_now(p, t))
    }
}

impl State {
    /// True if `p` has a piece in his own home row.
    fn ref_home_occupied(&self, p: Player) -> bool {
        let row = self.home_row(p);
        let n = self.rules.columns;
        (0..n).any(|c| self.owner(row * n + c) == Some(p))
    }

    /// True if all of `p`'s home-row pieces stand on one square (`freeze-exit-unless-one-stack`).
    fn ref_home_on_one_square(&self, p: Player) -> bool {
        let row = self.home_row(p);
        let n = self.rules.columns;
        (0..n)
            .filter(|&c| self.owner(row * n + c) == Some(p))
            .count()
            <= 1
    }

    /// The distinct subsets of `mask` of size `k`, up to interchangeable pieces.
    fn ref_subsets(&self, p: Player, mask: u32, k: u32, out: &mut Vec<u32>) {
        out.clear();
        // Group the pieces into signature classes, then choose how many of each.
        let mut classes: Vec<u32> = Vec::new();
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let sig = self.signature(&self.pieces[p.index()][i as usize]);
            match classes.iter_mut().find(|c| {
                self.signature(&self.pieces[p.index()][c.trailing_zeros() as usize]) == sig
            }) {
                Some(c) => *c |= 1 << i,
                None => classes.push(1 << i),
            }
        }
        fn rec(classes: &[u32], k: u32, acc: u32, out: &mut Vec<u32>) {
            if k == 0 {
                out.push(acc);
                return;
            }
            let Some((&first, rest)) = classes.split_first() else {
                return;
            };
            let size = first.count_ones();
            for take in (0..=size.min(k)).rev() {
                // The lowest-numbered `take` pieces of the class.
                let mut chosen = 0u32;
                let mut c = first;
                for _ in 0..take {
                    chosen |= c & c.wrapping_neg();
                    c &= c - 1;
                }
                rec(rest, k - take, acc | chosen, out);
            }
        }
        rec(&classes, k, 0, out);
    }

    /// Whether a group of `p`'s pieces may take the enemy branch (L-10, A8).
    #[inline(always)]
    fn ref_may_enter(&self, p: Player, group: u32) -> bool {
        group & self.entered[p.index()] == 0
            && (self.rules.enemy_entry == EnemyEntry::Once || self.ref_home_occupied(!p))
    }

    /// Whether a path is blocked by the passing rule (A13, H-7).
    fn ref_blocked(&self, p: Player, path: &Path) -> bool {
        let own_home = self.row_mask(self.home_row(p));
        let zone = match self.rules.passing {
            Passing::Free => return false,
            Passing::NoOwnInHomeRow | Passing::NoneInHomeRow => own_home,
            Passing::NoOwnInHomeRows => own_home | self.row_mask(self.enemy_row(p)),
        };
        let mut squares = (path.passed | bit(path.dest)) & zone;
        while squares != 0 {
            let sq = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            match self.owner(sq) {
                Some(o) if o == p => return true,
                Some(_) if self.rules.passing == Passing::NoneInHomeRow && sq != path.dest => {
                    return true;
                }
                _ => {}
            }
        }
        false
    }

    /// Whether `p` may end a move on `dest` (L-9c.3, L-13, H-9).
    fn ref_may_land(&self, p: Player, dest: u8) -> bool {
        if self.owner(dest) != Some(p) {
            return true;
        }
        if self.rules.stacking == Stacking::MiddleRows && !matches!(self.row_of(dest), 1 | 2) {
            return false;
        }
        self.rules.land_on_unconverted || self.mask(dest) & self.unconv[p.index()] == 0
    }

    /// The squares passed over by `steps` steps from `from`, through the enemy row at the
    /// branch if `alt`.
    fn ref_passed_squares(&self, p: Player, from: u8, steps: u8, alt: bool) -> u128 {
        let t = self.table(p);
        let mut sq = from;
        let mut passed = 0u128;
        for i in 0..steps {
            if i > 0 {
                passed |= bit(sq);
            }
            let [a, b] = t[sq as usize];
            sq = if alt && b != NONE { b } else { a };
            if sq == NONE {
                break;
            }
        }
        passed
    }

    /// Pushes the plays of throw `t` by the unit `group` on `from`, with every choice.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn ref_push_moves(
        &self,
        p: Player,
        t: Throw,
        from: u8,
        group: u32,
        whole: bool,
        steps: u8,
        dissolve: bool,
        out: &mut Vec<Move>,
        found: &mut Found,
    ) {
        let enemy_row = self.enemy_row(p);
        let in_enemy_row = self.row_of(from) == enemy_row;
        let [main, alt] =
            dests(self.rules.columns, self.rules.track, p)[from as usize][usize::from(steps) - 1];
        for (dest, is_alt) in [(main, false), (alt, true)] {
            if dest == NONE
                || (is_alt && !self.ref_may_enter(p, group))
                || !self.ref_may_land(p, dest)
            {
                continue;
            }
            if self.rules.passing != Passing::Free {
                let path = Path {
                    dest,
                    passed: self.ref_passed_squares(p, from, steps, is_alt),
                };
                if self.ref_blocked(p, &path) {
                    continue;
                }
            }
            if in_enemy_row && self.row_of(dest) != enemy_row {
                // Leaving the enemy row (L-11 options).
                let stuck = match self.rules.enemy_row {
                    EnemyRow::FreezeExit => self.ref_home_occupied(p),
                    EnemyRow::FreezeExitUnlessOneStack => {
                        self.ref_home_occupied(p) && !self.ref_home_on_one_square(p)
                    }
                    _ => false,
                };
                if stuck {
                    continue;
                }
            }
            let play = Play {
                throw: t,
                from: self.spot(from),
                to: Some(self.spot(dest)),
                pieces: if whole { 0 } else { group },
                dissolve,
                survivor: NO_PIECE,
            };
            if group & (group - 1) != 0 && self.reduces(p, group, from, dest) {
                if self.rules.survivor == Survivor::Mover {
                    let mut reps = self.class_reps(p, group);
                    while reps != 0 {
                        let i = reps.trailing_zeros() as u8;
                        reps &= reps - 1;
                        out.push(Move::Play(Play {
                            survivor: i,
                            ..play
                        }));
                        found.count += 1;
                        found.reducing += 1;
                    }
                } else {
                    out.push(Move::Play(play));
                    found.count += 1;
                    found.reducing += 1;
                }
            } else {
                out.push(Move::Play(play));
                found.count += 1;
            }
        }
    }

    /// The legal plays of throw `t` by `p`, appended to `out`, after reserved tâbs (L-9c.2:
    /// conversions first) and lowest priority (H-12: units outside the enemy row first). With
    /// `probe`, stops at the first play.
    fn ref_plays_into(&self, p: Player, t: Throw, out: &mut Vec<Move>, probe: bool) -> Found {
        let reserved = t.is_tab() && self.rules.tabs_reserved && self.unconv[p.index()] != 0;
        let lowest = self.rules.enemy_row == EnemyRow::LowestPriority;
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
        for &unconverted in conv {
            for &enemy_row in rows {
                let found = self.ref_gen_pass(
                    p,
                    t,
                    Sel {
                        unconverted,
                        enemy_row,
                    },
                    out,
                    probe,
                );
                if found.count > 0 {
                    return found;
                }
            }
        }
        Found::default()
    }

    /// One generation pass over the units `sel` selects.
    fn ref_gen_pass(
        &self,
        p: Player,
        t: Throw,
        sel: Sel,
        out: &mut Vec<Move>,
        probe: bool,
    ) -> Found {
        let mut found = Found::default();
        let v = t.value();
        let me = p.index();
        let enemy_row = self.enemy_row(p);
        let mut squares = self.occ[me];
        while squares != 0 {
            if probe && found.count > 0 {
                return found;
            }
            let from = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let all = self.mask(from);
            let in_enemy_row = self.row_of(from) == enemy_row;
            if sel.enemy_row.is_some_and(|want| want != in_enemy_row) {
                continue;
            }
            if in_enemy_row {
                // L-11, H-12.
                let frozen = match self.rules.enemy_row {
                    EnemyRow::Freeze => self.ref_home_occupied(p),
                    EnemyRow::OpponentHomeEmpty => self.ref_home_occupied(!p),
                    _ => false,
                };
                if frozen {
                    continue;
                }
            }
            if self.dissolved(from) && all & (all - 1) != 0 {
                // A dissolved square holds independent pieces: each is a unit (L-14); pieces
                // with the same history are interchangeable.
                let mut reps = self.class_reps(p, all);
                while reps != 0 {
                    let unit = reps & reps.wrapping_neg();
                    reps &= reps - 1;
                    self.ref_unit_plays(p, t, v, from, unit, false, sel, out, &mut found);
                }
            } else {
                self.ref_unit_plays(p, t, v, from, all, true, sel, out, &mut found);
            }
        }
        found
    }

    /// The plays of throw `t` (value `v`) by one unit.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn ref_unit_plays(
        &self,
        p: Player,
        t: Throw,
        v: u8,
        from: u8,
        unit: u32,
        whole: bool,
        sel: Sel,
        out: &mut Vec<Move>,
        found: &mut Found,
    ) {
        let unconverted = unit & self.unconv[p.index()] != 0;
        if sel.unconverted.is_some_and(|want| want != unconverted) {
            return;
        }
        if unconverted {
            // L-9c.1: only a tâb moves an unconverted piece, one step, converting it.
            if t.is_tab() {
                match self.rules.conversion {
                    Conversion::OneStep => {
                        self.ref_push_moves(p, t, from, unit, whole, 1, false, out, found)
                    }
                    Conversion::InPlace => {
                        out.push(Move::Play(Play {
                            throw: t,
                            from: self.spot(from),
                            to: None,
                            pieces: if whole { 0 } else { unit },
                            dissolve: false,
                            survivor: NO_PIECE,
                        }));
                        found.count += 1;
                    }
                }
            }
            return;
        }
        self.ref_push_moves(p, t, from, unit, whole, v, false, out, found);
        let size = unit.count_ones();
        if size < 2 {
            return;
        }
        // L-14, H-10: breaking up a stack.
        match self.rules.split {
            Split::PeelOne | Split::DissolveMoveOne if t.is_tab() => {
                let dissolve = self.rules.split == Split::DissolveMoveOne;
                let mut reps = self.class_reps(p, unit);
                while reps != 0 {
                    let i = reps.trailing_zeros();
                    reps &= reps - 1;
                    self.ref_push_moves(p, t, from, 1 << i, false, 1, dissolve, out, found);
                }
            }
            Split::Dissolve if t.is_tab() => {
                out.push(Move::Play(Play {
                    throw: t,
                    from: self.spot(from),
                    to: None,
                    pieces: 0,
                    dissolve: true,
                    survivor: NO_PIECE,
                }));
                found.count += 1;
            }
            Split::Detach | Split::DetachRemainderOne => {
                let k = u32::from(v);
                let ok = if self.rules.split == Split::Detach {
                    k < size
                } else {
                    k + 1 == size
                };
                if ok {
                    let mut subsets = Vec::new();
                    self.ref_subsets(p, unit, k, &mut subsets);
                    for &sub in &subsets {
                        self.ref_push_moves(p, t, from, sub, false, v, false, out, found);
                    }
                }
            }
            _ => {}
        }
    }

    /// The decisions of the move phase given a generator of the plays of one throw (L-7, L-8):
    /// the plays of every available throw, then banking, declining and ending where allowed.
    fn ref_decisions_from(
        &self,
        p: Player,
        out: &mut Vec<Move>,
        mut plays: impl FnMut(&State, Throw, &mut Vec<Move>) -> Found,
    ) -> bool {
        out.clear();
        let mut playable_pending = [false; 5];
        let mut only_reducing = [false; 5];
        let mut compulsory_pending = false;
        let mut optional_pending = 0u32;
        for t in self.available(p) {
            let found = plays(self, t, out);
            if found.count == 0 {
                continue;
            }
            let n = self.pending.get(t.index());
            if n == 0 {
                continue; // a banked tâb: always optional
            }
            playable_pending[t.index()] = true;
            only_reducing[t.index()] = found.reducing == found.count;
            let optional = match self.rules.throw_use {
                ThrowUse::Optional => true,
                ThrowUse::Compulsory => false,
                ThrowUse::CompulsoryWithExemptions | ThrowUse::CompulsoryWithEarlyDecline => {
                    (t.is_tab() && self.may_bank(p)) || only_reducing[t.index()]
                }
            };
            if optional {
                optional_pending += u32::from(n);
            } else {
                compulsory_pending = true;
            }
        }
        if out.is_empty() {
            return false;
        }
        let playable_count: u32 = Throw::ALL
            .iter()
            .filter(|t| playable_pending[t.index()])
            .map(|t| u32::from(self.pending.get(t.index())))
            .sum();
        // Bank and decline single throws only while something else remains to be played;
        // otherwise `end` does the same.
        if playable_count >= 2 {
            let tab = Throw::TAB.index();
            if self.pending.get(tab) > 0 && self.may_bank(p) {
                out.push(Move::Bank);
            }
            // L-7: declining early is a decision only under `optional` and
            // `compulsory-with-early-decline`; as written, L-7 judges the exemption at `end`.
            let early = match self.rules.throw_use {
                ThrowUse::Compulsory | ThrowUse::CompulsoryWithExemptions => None,
                ThrowUse::Optional => Some(false),
                ThrowUse::CompulsoryWithEarlyDecline => Some(true),
            };
            if let Some(only_if_reducing) = early {
                for t in Throw::ALL {
                    let i = t.index();
                    if !playable_pending[i] || (t.is_tab() && self.may_bank(p)) {
                        continue;
                    }
                    if !only_if_reducing || only_reducing[i] {
                        out.push(Move::Decline(t));
                    }
                }
            }
        }
        if !compulsory_pending && (optional_pending > 0 || self.bank[p.index()] > 0) {
            out.push(Move::End);
        }
        true
    }

    /// Fills `out` with every decision of the move phase, in sorted order; returns whether
    /// there is any.
    fn ref_decisions(&self, p: Player, out: &mut Vec<Move>) -> bool {
        let any = self.ref_decisions_from(p, out, |s, t, out| s.ref_plays_into(p, t, out, false));
        if !out.is_sorted() {
            out.sort_unstable();
        }
        debug_assert!(
            out.windows(2).all(|w| w[0] != w[1]),
            "generation gives no duplicates"
        );
        any
    }

    /// Whether `p` has a decision now, by the reference generator.
    fn ref_has_decisions(&self, p: Player) -> bool {
        let mut buf = Vec::new();
        self.available(p)
            .any(|t| self.ref_plays_into(p, t, &mut buf, true).count > 0)
    }

    /// Checks the move generator against the reference generator at this position, for both
    /// players and every throw whether pending or not: the plays of each throw (contents and
    /// order) and what was counted, the probes that stop at the first play, and the full list
    /// of decisions with the pending throws; and that the decisions the state keeps for the
    /// player to move are his decisions, all of them, in order. Used by tests.
    #[doc(hidden)]
    pub fn generator_check(&self) -> Result<(), String> {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        if let Phase::Moving { player } = self.phase
            && self.next.valid
        {
            self.ref_decisions(player, &mut slow);
            let spots = super::next::spots(self.rules.columns);
            let kept: Option<Vec<Move>> = self.next.kept().map(|codes| {
                codes
                    .iter()
                    .map(|&c| super::next::decode(c, spots))
                    .collect()
            });
            if self.next.len as usize != slow.len()
                || kept.as_ref().is_some_and(|kept| *kept != slow)
            {
                return Err(format!(
                    "the kept decisions of {player} ({} of them): {kept:?} against the reference {slow:?}",
                    self.next.len
                ));
            }
            self.legal_moves_into(&mut fast);
            if fast != slow {
                return Err(format!(
                    "the legal moves of {player}: {fast:?} against the reference {slow:?}"
                ));
            }
        }
        for p in Player::ALL {
            for t in Throw::ALL {
                fast.clear();
                slow.clear();
                let a = self.plays_into(p, t, &mut MoveList::new(self, &mut fast));
                let b = self.ref_plays_into(p, t, &mut slow, false);
                slow.sort_unstable();
                if fast != slow || (a.count, a.reducing) != (b.count, b.reducing) {
                    return Err(format!(
                        "plays of {t} for {p}: {fast:?} ({}, {}) against the reference {slow:?} ({}, {})",
                        a.count, a.reducing, b.count, b.reducing
                    ));
                }
                fast.clear();
                slow.clear();
                let a = self.plays_into(p, t, &mut Probe).count > 0;
                let b = self.ref_plays_into(p, t, &mut slow, true).count > 0;
                if a != b {
                    return Err(format!(
                        "the probe of {t} for {p} says {a}, the reference {b}"
                    ));
                }
            }
            let a = self.decisions(p, &mut fast);
            let b = self.ref_decisions(p, &mut slow);
            if a != b || fast != slow {
                return Err(format!(
                    "decisions of {p}: {fast:?} against the reference {slow:?}"
                ));
            }
            let a = self.any_play(p, [true; 5]);
            let b = Throw::ALL
                .into_iter()
                .any(|t| self.ref_plays_into(p, t, &mut slow, true).count > 0);
            if a != b {
                return Err(format!(
                    "whether {p} can play any throw: {a}, the reference {b}"
                ));
            }
            let (a, b) = (self.has_decisions(p), self.ref_has_decisions(p));
            if a != b {
                return Err(format!("has_decisions for {p} says {a}, the reference {b}"));
            }
        }
        Ok(())
    }
}
