//! The playable state and the rules of both presets, move by move as Ludii plays them.
//!
//! Rule ids (`S-1`, `LT-…`, `LH-…`) are those of [`super`]'s module docs and of `qasab rules`;
//! each names the section of ludii-rules.md it comes from.

use crate::game::{
    ChanceError, EndReason, GameState, InvalidState, MoveError, Outcome, PositionIdError, Turn,
    Weighted, describe_turn,
};
use crate::player::{ByPlayer, Player};
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;

use super::moves::{Cell, Move, Step, parse_loose};
use super::ruleset::{Preset, Ruleset};
#[cfg(test)]
use super::tracks::TabTracks;
use super::tracks::{
    self, COUNTS, ENEMY_AT, ENEMY_LEN, HOME_AT, HOME_LEN, MAX_SQUARES, NONE, ONE_AT, row_mask,
};

/// A game of `tab-ludii` or `tab-hyde-ludii` in progress.
///
/// A small `Copy` value (no heap): the board (pieces per square and who owns them), At-Tab's
/// locked squares, Tab's track-index counts, the pending throw, the phase, the scores and
/// Ludii's turn and move counters. Equality compares all of it; once the game is over the side
/// to move is not kept (it reads as White).
///
/// Serialises as `{"position": ID, "ruleset": ..., "to_move": SEAT|null, "throw": T|null,
/// "phase": ..., "board": [{"square", "owner", "pieces", "locked"}...], "scores": [A, B],
/// "turns": N, "decisions": N}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(super) rules: Ruleset,
    /// Squares holding each player's pieces (bit `s` = square `s`).
    pub(super) occ: [u128; 2],
    /// Pieces on each square: a Tab stack or an At-Tab unit (a king if more than one).
    pub(super) count: [u8; MAX_SQUARES],
    /// At-Tab: squares whose piece has not moved yet and needs a 1 (LH-3).
    pub(super) locked: u128,
    /// Tab: Ludii's count of each player's pieces at every index of its home track and of its
    /// enemy track (LT-6), laid out as [`tracks::COUNTS`] says.
    pub(super) counts: [[i32; COUNTS]; 2],
    /// The player to throw or to move.
    pub(super) to_move: Player,
    /// The throw to be played, at a player's turn.
    pub(super) throw: Option<Throw>,
    /// Tab: the opening phase is over (LT-2). Always true in At-Tab.
    pub(super) main_phase: bool,
    /// Tab: enemy pieces captured; At-Tab: captures scored (LH-6).
    pub(super) scores: [u8; 2],
    /// Ludii's turn number (`numTurn`): 1 at the start, one more whenever the mover changes.
    pub(super) turn: u32,
    /// Decisions (moves and passes) made.
    pub(super) decisions: u32,
    pub(super) over: Option<Outcome>,
    /// Counters for statistics only; not part of the position (see [`Tally`]).
    pub(super) tally: Tally,
}

/// Counters kept for `simulate`'s statistics. They describe the game's history, not its
/// position, so they are left out of equality, hashing and the position id: a state read from
/// an id starts them at zero.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Tally {
    /// Throws played from the main phase on (Tab's opening throw of a 1 included).
    throws: u32,
    /// Turns from the main phase on (Tab's opening turn that throws the 1 included).
    turns: u32,
    /// Turns in which a 1 (tâb) was thrown.
    tab_turns: u32,
    /// At-Tab: locked pieces freed by their first move (LH-3).
    freed: u32,
    /// The turn in progress has had a 1.
    turn_tab: bool,
}

impl PartialEq for Tally {
    fn eq(&self, _: &Tally) -> bool {
        true
    }
}

impl Eq for Tally {}

impl std::hash::Hash for Tally {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Bit of square `s`.
#[inline]
const fn bit(s: u8) -> u128 {
    1u128 << s
}

impl State {
    /// The start of a game: one piece on every square of each home row (LT-1, LH-1).
    pub fn new(rules: Ruleset) -> State {
        let n = rules.columns();
        let mut s = State {
            rules,
            occ: [row_mask(n, 0), row_mask(n, 3)],
            count: [0; MAX_SQUARES],
            locked: 0,
            counts: [[0; COUNTS]; 2],
            to_move: Player::One,
            throw: None,
            main_phase: rules.game() == Preset::Hyde,
            scores: [0; 2],
            turn: 1,
            decisions: 0,
            over: None,
            tally: Tally::default(),
        };
        for sq in rules.grid().squares() {
            if (s.occ[0] | s.occ[1]) & bit(sq.0) != 0 {
                s.count[usize::from(sq.0)] = 1;
            }
        }
        match rules.game() {
            // LT-6: every piece is counted at the first index of its square on every track
            // that holds the square.
            Preset::Tab => s.counts = s.initial_counts(),
            // LH-3: every piece starts locked.
            Preset::Hyde => s.locked = s.occ[0] | s.occ[1],
        }
        s
    }

    /// Tab's home-track counts at the start (the enemy tracks start empty: nobody stands on
    /// them).
    fn initial_counts(&self) -> [[i32; COUNTS]; 2] {
        let t = tracks::tab(self.rules.columns());
        let mut all = [[0; COUNTS]; 2];
        for (p, counts) in all.iter_mut().enumerate() {
            counts[ONE_AT] = 1;
            for s in squares_of(self.occ[p]) {
                counts[HOME_AT + usize::from(t.home_index[p][usize::from(s)])] += 1;
            }
        }
        all
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The owner and the number of pieces on a square, if any.
    pub fn unit_at(&self, square: u8) -> Option<(Player, u8)> {
        let b = bit(square);
        let owner = if self.occ[0] & b != 0 {
            Player::One
        } else if self.occ[1] & b != 0 {
            Player::Two
        } else {
            return None;
        };
        Some((owner, self.count[usize::from(square)]))
    }

    /// True if the piece on `square` is locked (At-Tab).
    pub fn is_locked(&self, square: u8) -> bool {
        self.locked & bit(square) != 0
    }

    /// The pieces `p` has on the board.
    pub fn pieces(&self, p: Player) -> u32 {
        squares_of(self.occ[p.index()])
            .map(|s| u32::from(self.count[usize::from(s)]))
            .sum()
    }

    /// The player to throw or to move (White once the game is over).
    pub fn mover(&self) -> Player {
        self.to_move
    }

    /// The throw to be played, at a player's turn.
    pub fn pending_throw(&self) -> Option<Throw> {
        self.throw
    }

    /// False during Tab's opening phase (LT-2).
    pub fn in_main_phase(&self) -> bool {
        self.main_phase
    }

    /// Ludii's turn counter: the number of the turn in progress (Ludii's `numTurn`).
    pub fn ludii_turn(&self) -> u32 {
        self.turn
    }

    /// Decisions made (Ludii's moves).
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// The moves `p` would have with the throw `t` on this board, as if he were to play it now:
    /// the rules' own generator (LT-2 to LT-6, LH-2 to LH-5), ending with [`Move::Pass`] when
    /// nothing can move. Fills `out` after clearing it. Read-only: evaluations use it to ask
    /// what a throw could do for either player.
    pub fn throw_plays(&self, p: Player, t: Throw, out: &mut Vec<Move>) {
        self.generate_for(p.index(), t, out);
    }

    /// Where a unit of `p` on `square` would be `steps` squares on along the tracks through
    /// the square (1 to 6 steps): the main way and, where the way forks, the other. In Tab the
    /// main way is the middle loop where the square is on it, else `p`'s home track, else his
    /// enemy track; the other way is the enemy track from a square of the loop that it also
    /// holds (LT-3). In At-Tab it is `p`'s one track, `None` past its end (LH-2). Geometry
    /// only: Ludii's track counts (LT-6), the open enemy row (LT-5), locks and landing rules
    /// are not consulted (for those, [`State::throw_plays`]).
    pub fn track_destinations(&self, p: Player, square: u8, steps: u8) -> [Option<u8>; 2] {
        let n = self.columns();
        if !(1..=6).contains(&steps) || square >= 4 * n {
            return [None, None];
        }
        let (s, v, pi) = (usize::from(square), steps, p.index());
        let some = |x: u8| (x != NONE).then_some(x);
        match self.rules.game() {
            Preset::Tab => {
                let t = tracks::tab(n);
                let enemy = {
                    let e = t.enemy_index[pi][s][0];
                    if e != NONE && e + v < 3 * n {
                        t.enemy[pi][usize::from(e + v)]
                    } else {
                        NONE
                    }
                };
                let m = t.middle_index[s];
                if m != NONE {
                    let j = m + v;
                    let main = t.middle[usize::from(if j >= 2 * n { j - 2 * n } else { j })];
                    let alt = if enemy != main { enemy } else { NONE };
                    return [some(main), some(alt)];
                }
                let h = t.home_index[pi][s];
                if h != NONE {
                    return [
                        (h + v < 2 * n).then(|| t.home[pi][usize::from(h + v)]),
                        None,
                    ];
                }
                [some(enemy), None]
            }
            Preset::Hyde => {
                let t = tracks::hyde(n);
                let i = usize::from(t.index[pi][s]) + usize::from(v);
                [(i < usize::from(4 * n)).then(|| t.track[pi][i]), None]
            }
        }
    }

    /// Tab's track-index counts of `p`: (home track, enemy track), by track index (LT-6).
    pub fn track_counts(&self, p: Player) -> (&[i32], &[i32]) {
        let n = usize::from(self.rules.columns());
        (
            &self.counts[p.index()][HOME_AT..HOME_AT + 2 * n],
            &self.counts[p.index()][ENEMY_AT..ENEMY_AT + 3 * n],
        )
    }

    #[inline]
    fn columns(&self) -> u8 {
        self.rules.columns()
    }

    /// The home row of player `p` (0 = White: row 0; 1 = Black: row 3).
    #[inline]
    fn home_row(&self, p: usize) -> u128 {
        row_mask(self.columns(), if p == 0 { 0 } else { 3 })
    }

    /// Tab: where the stack of player `p` on `s` can go with `v` along each of the three
    /// tracks, taken one by one as ludii-rules.md states the rule (LT-3, LT-4, LT-5, LT-6).
    /// `enemy_open` says whether the opponent still has a piece in its home row (`enemy_home`).
    /// Returns up to three destinations, sorted, duplicates removed.
    ///
    /// The move generator uses the equivalent per-square tables of [`tracks::TabTracks`]
    /// (`primary`, `entry` and their count slots); this plain form is the reference the tests
    /// hold it to.
    #[cfg(test)]
    fn tab_destinations(
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
    fn generate(&self, throw: Throw, out: &mut Vec<Move>) {
        self.generate_for(self.to_move.index(), throw, out);
    }

    /// The moves player `p` (the seat index) would have with the throw `throw` now.
    #[inline]
    fn generate_for(&self, p: usize, throw: Throw, out: &mut Vec<Move>) {
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

    /// Tab: moves the stack of the side to move from `f` to `t`, capturing what stands there,
    /// and updates Ludii's track-index counts (LT-4, LT-6, LT-7).
    fn play_tab(&mut self, f: u8, to: u8) {
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
    fn play_hyde(&mut self, f: u8, to: u8, part: u8) {
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
    fn finish_decision(&mut self, throw: Throw) {
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

    fn end(&mut self, o: Outcome) {
        self.over = Some(o);
        self.to_move = Player::One;
    }

    /// The current outcome's scores.
    fn score_pair(&self) -> ByPlayer<u32> {
        ByPlayer::new(u32::from(self.scores[0]), u32::from(self.scores[1]))
    }

    /// The squares and names used in messages.
    pub(super) fn name(&self, s: u8) -> String {
        self.rules.grid().name(crate::grid::Square(s))
    }

    fn seat(&self, p: Player) -> &'static str {
        self.rules.seat_name(p)
    }

    /// Why a well-formed step is not legal now (one line).
    fn why_illegal(&self, throw: Throw, st: &Step, legal: &[Move]) -> String {
        let n = self.columns();
        let v = throw.value();
        if legal == [Move::Pass] {
            return if !self.main_phase {
                "in the opening nobody moves until someone throws a 1; pass".into()
            } else {
                format!("nothing can move with a {v}; pass")
            };
        }
        let f = st.from.square(n);
        let me = self.to_move;
        match self.unit_at(f) {
            None => return format!("{} is empty", self.name(f)),
            Some((owner, _)) if owner != me => {
                return format!("{} holds {}'s pieces", self.name(f), self.seat(owner));
            }
            Some(_) => {}
        }
        if self.rules.game() == Preset::Hyde {
            if self.is_locked(f) && v != 1 {
                return format!(
                    "the piece on {} is locked: it moves only with a 1",
                    self.name(f)
                );
            }
            let opp = !me;
            let home = self.home_row(opp.index());
            if home & bit(f) != 0 && self.occ[opp.index()] & home != 0 {
                return format!(
                    "a unit in {}'s home row may move only once {} has no piece left there",
                    self.seat(opp),
                    self.seat(opp)
                );
            }
        }
        let from_here: Vec<String> = legal
            .iter()
            .filter(|m| m.step().is_some_and(|s| s.from == st.from))
            .map(|m| m.to_string())
            .collect();
        if from_here.is_empty() {
            format!("nothing on {} can move with a {v}", self.name(f))
        } else {
            format!(
                "from {} a {v} allows only {}",
                self.name(f),
                from_here.join(" or ")
            )
        }
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

/// The squares of a bit mask of at most 64 squares, in increasing order.
#[inline]
fn squares_of64(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let s = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(s)
        }
    })
}

/// The squares of a bit mask, in increasing order.
#[inline]
pub(super) fn squares_of(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let s = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(s)
        }
    })
}

impl GameState for State {
    type Ruleset = Ruleset;
    type Move = Move;
    type Chance = Throw;

    fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    #[inline]
    fn turn(&self) -> Turn {
        match (self.over, self.throw) {
            (Some(o), _) => Turn::Over(o),
            (None, None) => Turn::Chance,
            (None, Some(_)) => Turn::Player(self.to_move),
        }
    }

    fn chance_player(&self) -> Option<Player> {
        (self.over.is_none() && self.throw.is_none()).then_some(self.to_move)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        match (self.over, self.throw) {
            (None, Some(t)) => self.generate(t, out),
            _ => out.clear(),
        }
    }

    #[inline]
    fn chance_outcomes(&self, out: &mut Vec<Weighted<Throw>>) -> u32 {
        if self.over.is_some() || self.throw.is_some() {
            out.clear();
            return 0;
        }
        // S-1: four two-sided sticks; 0 whites counts 6.
        let (weights, total) = self.rules.throw_weights();
        // A caller that reuses its buffer usually has these very outcomes in it already;
        // rewriting them would only stall the reads that follow.
        if out.as_slice() != weights {
            out.clear();
            out.extend_from_slice(weights);
        }
        total
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        let throw = self.throw.expect("a move is played after a throw");
        if let Move::Step(s) = m {
            let n = self.columns();
            let (f, t) = (s.from.square(n), s.to.square(n));
            match self.rules.game() {
                Preset::Tab => self.play_tab(f, t),
                Preset::Hyde => self.play_hyde(f, t, s.part),
            }
        }
        self.finish_decision(throw);
    }

    #[inline]
    fn apply_chance_unchecked(&mut self, c: Throw) {
        debug_assert!(self.over.is_none() && self.throw.is_none());
        self.throw = Some(c);
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let Some(throw) = self.throw.filter(|_| self.over.is_none()) else {
            return Err(MoveError::NotPlayersTurn(describe_turn(self.turn())));
        };
        let text = text.trim();
        let syntax = |expected: String| MoveError::Syntax {
            text: text.to_string(),
            expected,
        };
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let loose = parse_loose(text).map_err(|why| {
            syntax(format!(
                "{why}; expected T:FROM-TO (e.g. 3:a1-d1), T:FROM-TO*N, FROM-TO or pass"
            ))
        })?;
        let mut legal = Vec::new();
        self.generate(throw, &mut legal);
        let Some(l) = loose else {
            return if legal == [Move::Pass] {
                Ok(Move::Pass)
            } else {
                Err(illegal(format!(
                    "a piece can move (e.g. {}), so you may not pass",
                    legal[0]
                )))
            };
        };
        let n = self.columns();
        if l.lane && n != 9 {
            return Err(syntax(format!(
                "Lane's letters name squares only on 9 columns; this board has {n}, so write coordinates such as a1"
            )));
        }
        for c in [l.from, l.to] {
            if c.col >= n {
                return Err(syntax(format!(
                    "{} is off the board: it has {n} columns",
                    c.coordinate()
                )));
            }
        }
        if let Some(t) = l.throw.filter(|&t| t != throw) {
            return Err(illegal(format!("the throw to play is {throw}, not {t}")));
        }
        let st = Step {
            throw,
            from: l.from,
            to: l.to,
            part: l.part,
            lane: n == 9,
        };
        let m = Move::Step(st);
        if legal.contains(&m) {
            Ok(m)
        } else {
            Err(illegal(self.why_illegal(throw, &st, &legal)))
        }
    }

    fn parse_chance(&self, text: &str) -> Result<Throw, ChanceError> {
        if self.turn() != Turn::Chance {
            return Err(ChanceError::NotChanceTurn(describe_turn(self.turn())));
        }
        text.parse::<Throw>().map_err(|e| ChanceError::Syntax {
            text: text.trim().to_string(),
            expected: e.to_string(),
        })
    }

    fn scores(&self) -> ByPlayer<u32> {
        self.score_pair()
    }

    /// Ludii's turn count: the turn in progress, numbered from 1 at the first throw; a turn
    /// begins whenever the mover changes. 0 before the first action.
    fn turns(&self) -> u32 {
        if self.actions() == 0 { 0 } else { self.turn }
    }

    fn actions(&self) -> u32 {
        2 * self.decisions + u32::from(self.throw.is_some())
    }

    fn describe_chance(&self, t: Throw) -> String {
        let who = if self.over.is_none() && self.throw.is_none() {
            self.seat(self.to_move)
        } else {
            "nobody"
        };
        format!("{who} throws {t} ({})", t.name())
    }

    fn stick_stats(&self) -> Option<crate::game::StickStats> {
        let t = &self.tally;
        Some(crate::game::StickStats {
            turns: t.turns,
            throws: t.throws,
            tab_turns: t.tab_turns,
            captures: u32::from(self.scores[0]) + u32::from(self.scores[1]),
            conversions: t.freed,
            // Ludii's rules have no stack reduction and no bank.
            reductions: 0,
            banked: 0,
        })
    }

    fn render(&self) -> String {
        super::text::render(self)
    }

    fn position_id(&self) -> String {
        super::id::write(self)
    }

    fn validate(&self) -> Result<(), InvalidState> {
        super::id::validate(self).map_err(InvalidState::new)
    }

    fn describe_move(&self, m: Move) -> String {
        super::text::describe_move(self, m)
    }
}

impl State {
    /// Reads a position id ([`GameState::position_id`]) under `rules`.
    ///
    /// Fields are separated by `/`:
    ///
    /// * four board rows, from White's home row (row 1) to Black's (row 4), each a comma-separated
    ///   list of squares from column `a` on: `W` or `B` (a single piece), `W3` (three pieces: a Tab
    ///   stack or an At-Tab king), `w`/`b` (a locked At-Tab piece), or a number of empty squares;
    /// * the status: `white` or `black` to throw, `white:3` to play a 3, or `over:REASON` with an
    ///   end reason (`elimination`, `no-more-captures`, `turn-cap`);
    /// * Tab only: the phase, `opening` or `main`;
    /// * Ludii's turn number and the decisions made: `TURN,DECISIONS`;
    /// * the scores (Tab: pieces captured), White's first: `0,0`;
    /// * Tab only: Ludii's track-index counts, White's home track, White's enemy track, Black's
    ///   home track, Black's enemy track, each by track index as comma-separated values where
    ///   `VxK` repeats `V` `K` times.
    ///
    /// The start of `tab-ludii`:
    /// `W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21`.
    ///
    /// # Errors
    /// [`PositionIdError`] for bad syntax or a position these rules cannot hold.
    pub fn from_id(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
        super::id::read(rules, id)
    }
}

impl serde::Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(serde::Serialize)]
        struct Unit {
            square: String,
            owner: &'static str,
            pieces: u8,
            locked: bool,
        }
        let board: Vec<Unit> = squares_of(self.occ[0] | self.occ[1])
            .filter_map(|s| {
                let (owner, pieces) = self.unit_at(s)?;
                Some(Unit {
                    square: self.name(s),
                    owner: self.seat(owner),
                    pieces,
                    locked: self.is_locked(s),
                })
            })
            .collect();
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("position", &self.position_id())?;
        map.serialize_entry("ruleset", &self.rules.to_string())?;
        let to_move = self.over.is_none().then(|| self.seat(self.to_move));
        map.serialize_entry("to_move", &to_move)?;
        map.serialize_entry("throw", &self.throw)?;
        if self.rules.game() == Preset::Tab {
            map.serialize_entry("phase", if self.main_phase { "main" } else { "opening" })?;
        }
        map.serialize_entry("board", &board)?;
        map.serialize_entry("scores", &self.scores)?;
        map.serialize_entry("turns", &self.turns())?;
        map.serialize_entry("decisions", &self.decisions)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
