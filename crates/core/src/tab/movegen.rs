//! Move generation: the plays of each throw, and the decisions of a move phase (L-6 to L-16,
//! H-6 to H-12).

use crate::player::Player;
use crate::sticks::Throw;

use super::moves::Move;
use super::next;
use super::rules::{
    Bank, Conversion, EnemyEntry, EnemyRow, Passing, Reduction, Split, Stacking, Survivor, ThrowUse,
};
use super::track::{Dests, NONE, dests};

use super::board::{MAXP, Position, ROW_BIT, bit};

/// What one generation pass found: how many plays, and how many of them reduce a stack.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Found {
    pub count: u32,
    pub reducing: u32,
}

/// What one generation pass reads for every unit, worked out once per pass.
#[derive(Copy, Clone)]
pub(super) struct Gen {
    p: Player,
    t: Throw,
    /// The throw's bits in a play's code.
    throw_bits: u64,
    /// The squares where `p` may not end a move ([`Position::no_land`]).
    no_land: u128,
    /// `p`'s enemy home row.
    enemy_row: u8,
    /// L-10, A8: the enemy branch is open (to units none of whose pieces has been there).
    enter_ok: bool,
    /// L-11: units in the enemy row may not leave it.
    exit_stuck: bool,
    /// A13, H-7: the passing rule is `free`, so paths need no walk.
    passing_free: bool,
    /// Only units with (`Some(true)`) or without unconverted pieces; `None` for all.
    unconverted: Option<bool>,
    dests: &'static Dests,
}

/// Where the generator puts plays, as codes (see [`super::next`]): a move list, the kept
/// decisions, or a [`Probe`].
pub(crate) trait Sink {
    /// Whether generation may stop at the first play.
    const PROBE: bool;
    fn push(&mut self, code: u64);
    /// The number of plays put so far.
    fn mark(&self) -> usize;
    /// Sorts the plays put since `start`.
    fn sort_from(&mut self, start: usize);
}

/// A move list as a [`Sink`]: codes are decoded as they come.
pub(crate) struct MoveList<'a> {
    out: &'a mut Vec<Move>,
    spots: &'static next::Spots,
}

impl<'a> MoveList<'a> {
    pub(crate) fn new(state: &Position, out: &'a mut Vec<Move>) -> MoveList<'a> {
        MoveList {
            out,
            spots: next::spots(state.rules.columns),
        }
    }
}

impl Sink for MoveList<'_> {
    const PROBE: bool = false;

    #[inline(always)]
    fn push(&mut self, code: u64) {
        self.out.push(next::decode(code, self.spots));
    }

    #[inline(always)]
    fn mark(&self) -> usize {
        self.out.len()
    }

    #[inline]
    fn sort_from(&mut self, start: usize) {
        let plays = &mut self.out[start..];
        if !plays.is_sorted() {
            plays.sort_unstable();
        }
    }
}

/// The kept decisions as a [`Sink`]: the codes go into [`Next`], the count is kept here until
/// generation ends.
pub(crate) struct Keep<'a> {
    pub(super) codes: &'a mut [u64; next::CAP],
    pub(super) len: usize,
}

impl Sink for Keep<'_> {
    const PROBE: bool = false;

    #[inline(always)]
    fn push(&mut self, code: u64) {
        if let Some(slot) = self.codes.get_mut(self.len) {
            *slot = code;
        }
        self.len += 1;
    }

    #[inline(always)]
    fn mark(&self) -> usize {
        self.len
    }

    #[inline]
    fn sort_from(&mut self, start: usize) {
        if let Some(plays) = self.codes.get_mut(start..self.len)
            && !plays.is_sorted()
        {
            plays.sort_unstable();
        }
    }
}

/// A sink that keeps nothing: generation only counts, and stops at the first play.
pub(crate) struct Probe;

impl Sink for Probe {
    const PROBE: bool = true;

    #[inline(always)]
    fn push(&mut self, _: u64) {}

    #[inline(always)]
    fn mark(&self) -> usize {
        0
    }

    #[inline(always)]
    fn sort_from(&mut self, _: usize) {}
}

impl Position {
    /// Calls `f` with each distinct subset of `mask` of size `k`, up to interchangeable pieces.
    pub(super) fn for_subsets(&self, p: Player, mask: u32, k: u32, f: &mut impl FnMut(u32)) {
        // Group the pieces into signature classes, then choose how many of each.
        let mut classes = [0u32; MAXP];
        let mut n = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let sig = self.signature(&self.pieces[p.index()][i as usize]);
            match classes[..n].iter_mut().find(|c| {
                self.signature(&self.pieces[p.index()][c.trailing_zeros() as usize]) == sig
            }) {
                Some(c) => *c |= 1 << i,
                None => {
                    classes[n] = 1 << i;
                    n += 1;
                }
            }
        }
        fn rec(classes: &[u32], k: u32, acc: u32, f: &mut impl FnMut(u32)) {
            if k == 0 {
                f(acc);
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
                rec(rest, k - take, acc | chosen, f);
            }
        }
        rec(&classes[..n], k, 0, f);
    }

    /// Whether a path is blocked by the passing rule (A13, H-7).
    pub(super) fn blocked(&self, p: Player, passed: u128, dest: u8) -> bool {
        let own_home = self.row_mask(self.home_row(p));
        let zone = match self.rules.passing {
            Passing::Free => return false,
            Passing::NoOwnInHomeRow | Passing::NoneInHomeRow => own_home,
            Passing::NoOwnInHomeRows => own_home | self.row_mask(self.enemy_row(p)),
        };
        // Own pieces block passing and landing; under `none-in-home-row` enemy pieces block
        // passing (landing on them captures).
        ((passed | bit(dest)) & zone & self.occ[p.index()] != 0)
            || (self.rules.passing == Passing::NoneInHomeRow
                && passed & !bit(dest) & zone & self.occ[(!p).index()] != 0)
    }

    /// Whether `p` may end a move on `dest` (L-9c.3, L-13, H-9).
    #[inline(always)]
    pub(super) fn may_land(&self, g: &Gen, dest: u8) -> bool {
        g.no_land & bit(dest) == 0
    }

    /// The squares where `p` may not end a move (L-9c.3, L-13, H-9): his own squares outside
    /// the middle rows under `stacking=middle-rows`, and his squares holding an unconverted
    /// piece unless `land_on_unconverted`.
    #[inline(always)]
    pub(super) fn no_land(&self, p: Player) -> u128 {
        let me = p.index();
        let mut no = 0;
        if self.rules.stacking == Stacking::MiddleRows {
            no |= self.occ[me] & !(self.row_mask(1) | self.row_mask(2));
        }
        if !self.rules.land_on_unconverted {
            no |= self.unconv_sq[me];
        }
        no
    }

    /// Whether a moving group of two or more pieces is reduced on arrival (L-15, M-9).
    pub(super) fn reduces(&self, p: Player, group: u32, from: u8, dest: u8) -> bool {
        if group & group.wrapping_sub(1) == 0 {
            return false;
        }
        let pieces = &self.pieces[p.index()];
        let members = || {
            let mut m = group;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    i
                })
            })
        };
        match self.rules.reduction {
            Reduction::Off => false,
            Reduction::SquareVisited | Reduction::SquareLanded => {
                members().any(|i| pieces[i].visited() & bit(dest) != 0)
            }
            Reduction::RowEntered => {
                let (rf, rd) = (self.row_of(from), self.row_of(dest));
                rf != rd && members().any(|i| pieces[i].rows() & (1 << rd) != 0)
            }
            Reduction::PositionalRows => {
                let (rf, rd) = (self.row_of(from), self.row_of(dest));
                let (second, third) = if p == Player::One { (1, 2) } else { (2, 1) };
                (rf == third && rd == second) || (rf == self.enemy_row(p) && rd != rf)
            }
        }
    }

    /// The survivor of a reduction under `survivor=oldest`: the member that started furthest
    /// along the track (the highest piece number).
    pub(super) fn oldest(group: u32) -> u8 {
        31 - group.leading_zeros() as u8
    }

    /// The squares passed over by `steps` steps from `from`, through the enemy row at the
    /// branch if `alt`, and the rows of those squares.
    ///
    /// Read from the destination table, whose entry for `k` steps is the square after `k`
    /// steps (through the enemy row once the way has crossed the branch), for a fixed number of
    /// steps without branches: the number of steps is random in a game, so a loop that stops
    /// after it would be mispredicted.
    #[inline]
    pub(super) fn walk(&self, p: Player, from: u8, steps: u8, alt: bool) -> (u128, u8) {
        let d = &dests(self.rules.columns, self.rules.track, p)[from as usize];
        Self::walk_from(d, &ROW_BIT[self.rules.columns as usize], steps, alt)
    }

    /// [`Position::walk`] from the destinations `d` of the square moved from, with the row bits
    /// of the board.
    #[inline(always)]
    pub(super) fn walk_from(
        d: &[[u8; 2]; 6],
        row_bit: &[u8; 256],
        steps: u8,
        alt: bool,
    ) -> (u128, u8) {
        let mut passed = 0u128;
        let mut rows = 0u8;
        for (k, &[a, b]) in d[..5].iter().enumerate() {
            let sq = if alt && b != NONE { b } else { a };
            // The squares after 1 to `steps - 1` steps ([`NONE`] adds nothing).
            let sq = if k + 1 < usize::from(steps) { sq } else { NONE };
            passed |= bit(sq);
            rows |= row_bit[usize::from(sq)];
        }
        (passed, rows)
    }

    /// Pushes the plays of the throw by the unit `group` on `from` to the destinations `steps`
    /// steps on, with every choice. The two destinations come out in square order.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn push_moves(
        &self,
        g: &Gen,
        from: u8,
        group: u32,
        whole: bool,
        steps: u8,
        dissolve: bool,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        let [main, alt] = g.dests[from as usize][usize::from(steps) - 1];
        // L-11: a unit that may not leave the enemy row.
        let held = g.exit_stuck && self.row_of(from) == g.enemy_row;
        let main_ok = main != NONE && self.may_reach(g, from, steps, held, main, false);
        // L-10: the enemy branch, once per piece.
        let alt_ok = alt != NONE
            && g.enter_ok
            && group & self.entered[g.p.index()] == 0
            && self.may_reach(g, from, steps, held, alt, true);
        if alt_ok && (!main_ok || alt < main) {
            self.push_to(g, from, alt, group, whole, dissolve, out, found);
            if main_ok {
                self.push_to(g, from, main, group, whole, dissolve, out, found);
            }
        } else {
            if main_ok {
                self.push_to(g, from, main, group, whole, dissolve, out, found);
            }
            if alt_ok {
                self.push_to(g, from, alt, group, whole, dissolve, out, found);
            }
        }
    }

    /// Whether a unit may move from `from` to `dest` (`steps` steps on, through the enemy row
    /// if `is_alt`): landing (L-13, H-9), leaving the enemy row (`held`, L-11), passing (A13,
    /// H-7).
    #[inline(always)]
    pub(super) fn may_reach(
        &self,
        g: &Gen,
        from: u8,
        steps: u8,
        held: bool,
        dest: u8,
        is_alt: bool,
    ) -> bool {
        self.may_land(g, dest)
            && !(held && self.row_of(dest) != g.enemy_row)
            && (self.rules.passing == Passing::Free
                || !self.blocked(g.p, self.walk(g.p, from, steps, is_alt).0, dest))
    }

    /// Pushes the plays of one unit to one destination: one play, or one per surviving piece
    /// when the stack is reduced and the mover chooses (L-15).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn push_to(
        &self,
        g: &Gen,
        from: u8,
        dest: u8,
        group: u32,
        whole: bool,
        dissolve: bool,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        let code = next::play(
            g.throw_bits,
            from,
            Some(dest),
            if whole { 0 } else { group },
            dissolve,
        );
        if group & (group - 1) != 0 && self.reduces(g.p, group, from, dest) {
            self.push_reduced(g, group, code, out, found);
        } else {
            out.push(code);
            found.count += 1;
        }
    }

    /// Pushes a play that reduces the moving stack: once, or once per distinct survivor the
    /// mover may choose (L-15).
    #[inline(never)]
    pub(super) fn push_reduced(
        &self,
        g: &Gen,
        group: u32,
        code: u64,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        if self.rules.survivor == Survivor::Mover {
            let mut reps = self.class_reps(g.p, group);
            while reps != 0 {
                let i = reps.trailing_zeros() as u8;
                reps &= reps - 1;
                out.push(next::with_survivor(code, i));
                found.count += 1;
                found.reducing += 1;
            }
        } else {
            out.push(code);
            found.count += 1;
            found.reducing += 1;
        }
    }

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

    /// The plays of one piece (`m`) on `from` to `main` and, through the enemy row, `alt`, when
    /// the passing rule is `free` and nothing holds it in the enemy row: what
    /// [`Position::unit_plays`] gives for it, without the general tests.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn lone_plays<S: Sink>(
        &self,
        g: &Gen,
        from: u8,
        m: u32,
        main: u8,
        alt: u8,
        out: &mut S,
        found: &mut Found,
    ) {
        let main_ok = main != NONE && g.no_land & bit(main) == 0;
        // The code of a play to square 0; a play to `dest` adds `dest` to the destination field.
        let base = next::play(g.throw_bits, from, Some(0), 0, false);
        if alt == NONE {
            // The common case: one way.
            if main_ok {
                out.push(base + next::to_bits(main));
                // Non-probe sinks count their plays ([`Position::gen_pass`]).
                if S::PROBE {
                    found.count += 1;
                }
            }
            return;
        }
        // L-10: the enemy branch, once per piece.
        let alt_ok = alt != NONE
            && g.enter_ok
            && m & self.entered[g.p.index()] == 0
            && g.no_land & bit(alt) == 0;
        // The two destinations in square order.
        let swap = alt < main;
        let (first, first_ok) = if swap { (alt, alt_ok) } else { (main, main_ok) };
        let (second, second_ok) = if swap { (main, main_ok) } else { (alt, alt_ok) };
        for (dest, ok) in [(first, first_ok), (second, second_ok)] {
            if ok {
                out.push(base + next::to_bits(dest));
                if S::PROBE {
                    found.count += 1;
                }
            }
        }
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

    /// The plays of the pass's throw by the units on `from`, in order.
    #[inline(never)]
    pub(super) fn square_plays(&self, g: &Gen, from: u8, out: &mut impl Sink, found: &mut Found) {
        let all = self.mask(from);
        if all & (all - 1) == 0 {
            // One piece: its plays are already in order.
            self.unit_plays(g, from, all, true, out, found);
            return;
        }
        self.stack_plays(g, from, all, out, found);
    }

    /// The plays of the pass's throw by the units on a square of two or more pieces, in order.
    /// Kept out of line: stacks are the rarer case, and the single-piece loop stays small.
    #[inline(never)]
    pub(super) fn stack_plays(
        &self,
        g: &Gen,
        from: u8,
        all: u32,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        // The common stack: whole, converted, free to pass and to leave, and split (if at all)
        // by peeling one piece.
        let split_lean = match self.rules.split {
            Split::PeelOne | Split::DissolveMoveOne | Split::Never => true,
            Split::Dissolve => !g.t.is_tab(),
            Split::Detach | Split::DetachRemainderOne => false,
        };
        if split_lean
            && g.passing_free
            && !g.exit_stuck
            && !self.dissolved(from)
            && all & self.unconv[g.p.index()] == 0
        {
            if g.unconverted != Some(true) {
                self.lean_stack_plays(g, from, all, out, found);
            }
            return;
        }
        let start = out.mark();
        if self.dissolved(from) {
            // A dissolved square holds independent pieces: each is a unit (L-14); pieces
            // with the same history are interchangeable.
            let mut reps = self.class_reps(g.p, all);
            while reps != 0 {
                let unit = reps & reps.wrapping_neg();
                reps &= reps - 1;
                self.unit_plays(g, from, unit, false, out, found);
            }
        } else {
            self.unit_plays(g, from, all, true, out, found);
        }
        out.sort_from(start);
    }

    /// The plays of the pass's throw by a whole stack of converted pieces on `from` when no
    /// passing or leaving rule applies and the stack splits (if at all) by peeling one piece
    /// (L-14): what [`Position::unit_plays`] gives for it, put in order without sorting. A
    /// tâb moves the stack and a peeled piece one step alike, so each destination takes the
    /// stack's plays (pieces 0) and then the peeled pieces' (in piece order).
    #[inline(always)]
    pub(super) fn lean_stack_plays(
        &self,
        g: &Gen,
        from: u8,
        all: u32,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        let entered = self.entered[g.p.index()];
        let may_land = |sq: u8| sq != NONE && g.no_land & bit(sq) == 0;
        // L-10: the enemy branch, once per piece.
        let may_branch = |m: u32| g.enter_ok && m & entered == 0;
        let [main, alt] = g.dests[from as usize][usize::from(g.t.value()) - 1];
        let peel =
            g.t.is_tab() && matches!(self.rules.split, Split::PeelOne | Split::DissolveMoveOne);
        let reps = if peel { self.class_reps(g.p, all) } else { 0 };
        let dissolve = self.rules.split == Split::DissolveMoveOne;
        // L-15: whether the stack is reduced on arriving at `dest`; the square rules read the
        // squares any of its pieces has visited.
        let pieces = &self.pieces[g.p.index()];
        let mut visited = 0u128;
        let by_square = matches!(
            self.rules.reduction,
            Reduction::SquareVisited | Reduction::SquareLanded
        );
        if by_square {
            let mut m = all;
            while m != 0 {
                visited |= pieces[m.trailing_zeros() as usize].visited();
                m &= m - 1;
            }
        }
        let reduces = |dest: u8| {
            if by_square {
                visited & bit(dest) != 0
            } else {
                self.reduces(g.p, all, from, dest)
            }
        };
        let base = next::play(g.throw_bits, from, Some(0), 0, false);
        let ways = if alt < main { [alt, main] } else { [main, alt] };
        for dest in ways {
            if !may_land(dest) {
                continue;
            }
            let is_alt = dest == alt;
            if !is_alt || may_branch(all) {
                let code = base + next::to_bits(dest);
                // L-15: a stack reduced on arrival.
                if reduces(dest) {
                    self.push_reduced(g, all, code, out, found);
                } else {
                    out.push(code);
                    found.count += 1;
                }
            }
            let mut r = reps;
            while r != 0 {
                let i = r.trailing_zeros();
                r &= r - 1;
                if !is_alt || may_branch(1 << i) {
                    out.push(next::play(g.throw_bits, from, Some(dest), 1 << i, dissolve));
                    found.count += 1;
                }
            }
        }
    }

    /// The plays of the pass's throw by one unit.
    #[inline(always)]
    pub(super) fn unit_plays(
        &self,
        g: &Gen,
        from: u8,
        unit: u32,
        whole: bool,
        out: &mut impl Sink,
        found: &mut Found,
    ) {
        let t = g.t;
        let unconverted = unit & self.unconv[g.p.index()] != 0;
        if g.unconverted.is_some_and(|want| want != unconverted) {
            return;
        }
        if unconverted {
            // L-9c.1: only a tâb moves an unconverted piece, one step, converting it.
            if t.is_tab() {
                match self.rules.conversion {
                    Conversion::OneStep => {
                        self.push_moves(g, from, unit, whole, 1, false, out, found)
                    }
                    Conversion::InPlace => {
                        out.push(next::play(
                            g.throw_bits,
                            from,
                            None,
                            if whole { 0 } else { unit },
                            false,
                        ));
                        found.count += 1;
                    }
                }
            }
            return;
        }
        let v = t.value();
        self.push_moves(g, from, unit, whole, v, false, out, found);
        if unit & (unit - 1) == 0 {
            return;
        }
        // L-14, H-10: breaking up a stack.
        match self.rules.split {
            Split::PeelOne | Split::DissolveMoveOne if t.is_tab() => {
                let dissolve = self.rules.split == Split::DissolveMoveOne;
                let mut reps = self.class_reps(g.p, unit);
                while reps != 0 {
                    let i = reps.trailing_zeros();
                    reps &= reps - 1;
                    self.push_moves(g, from, 1 << i, false, 1, dissolve, out, found);
                }
            }
            Split::Dissolve if t.is_tab() => {
                out.push(next::play(g.throw_bits, from, None, 0, true));
                found.count += 1;
            }
            Split::Detach | Split::DetachRemainderOne => {
                let size = unit.count_ones();
                let k = u32::from(v);
                let ok = if self.rules.split == Split::Detach {
                    k < size
                } else {
                    k + 1 == size
                };
                if ok {
                    self.for_subsets(g.p, unit, k, &mut |sub| {
                        self.push_moves(g, from, sub, false, v, false, out, found)
                    });
                }
            }
            _ => {}
        }
    }

    /// Whether all of `p`'s pieces are converted and banking is on (L-8).
    #[inline]
    pub(crate) fn may_bank(&self, p: Player) -> bool {
        self.rules.bank == Bank::AfterAllConverted && self.unconv[p.index()] == 0
    }

    /// Whether `p` can play `t` now: it is pending, or it is a tâb and one is banked.
    #[inline(always)]
    pub(super) fn available_now(&self, p: Player, t: Throw) -> bool {
        self.pending.get(t.index()) > 0 || (t.is_tab() && self.bank[p.index()] > 0)
    }

    /// Fills `out` with every decision of the move phase; returns whether there is any.
    pub(crate) fn decisions(&self, p: Player, out: &mut Vec<Move>) -> bool {
        out.clear();
        let any = self.decisions_into(p, &mut MoveList::new(self, out));
        // The plays come out sorted by throw, square and the rest; banking, declining and
        // ending sort after them, in the order pushed.
        debug_assert!(
            out.windows(2).all(|w| w[0] < w[1]),
            "generation gives sorted decisions without duplicates"
        );
        any
    }

    /// Puts every decision of the move phase into `out` (L-7, L-8): the plays of every
    /// available throw, then banking, declining and ending where allowed. Returns whether there
    /// is any.
    pub(crate) fn decisions_into(&self, p: Player, out: &mut impl Sink) -> bool {
        let me = p.index();
        let mut available = 0u32;
        for i in 0..5 {
            available |= u32::from(self.pending.get(i) > 0) << i;
        }
        // A banked tâb can be played too.
        available |= u32::from(self.bank[me] > 0);
        if available == 0 {
            return false;
        }
        // L-9c.1: without a tâb, unconverted pieces cannot move, and no square holds a
        // converted one.
        if available & 1 == 0 && self.conv_sq[me] == 0 {
            return false;
        }
        let may_bank = self.may_bank(p);
        let (mut g, squares) = self.pass_setup(p, Throw::TAB);
        let mut any = false;
        let (mut playable, mut only_reducing) = (0u32, 0u32);
        let mut compulsory_pending = false;
        let (mut optional_pending, mut playable_count) = (0u32, 0u32);
        let mut rest = available;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let t = Throw::ALL[i];
            g.t = t;
            g.throw_bits = next::throw_bits(t);
            let found = self.plays_of(&mut g, squares, out);
            if found.count == 0 {
                continue;
            }
            any = true;
            let n = u32::from(self.pending.get(i));
            if n == 0 {
                continue; // a banked tâb: always optional
            }
            playable |= 1 << i;
            playable_count += n;
            let reducing = found.reducing == found.count;
            only_reducing |= u32::from(reducing) << i;
            // L-7: a tâb that may be banked, and a throw whose only plays reduce a stack, need
            // not be played.
            let optional = match self.rules.throw_use {
                ThrowUse::Optional => true,
                ThrowUse::Compulsory => false,
                ThrowUse::CompulsoryWithExemptions | ThrowUse::CompulsoryWithEarlyDecline => {
                    (t.is_tab() && may_bank) || reducing
                }
            };
            if optional {
                optional_pending += n;
            } else {
                compulsory_pending = true;
            }
        }
        if !any {
            return false;
        }
        // Bank and decline single throws only while something else remains to be played;
        // otherwise `end` does the same.
        if playable_count >= 2 {
            if self.pending.get(Throw::TAB.index()) > 0 && may_bank {
                out.push(next::BANK);
            }
            // L-7 as written judges the exemption when the move phase ends (by `end`), so an
            // exempt throw is not declined early: a later play may give it an ordinary move.
            let declinable = match self.rules.throw_use {
                ThrowUse::Compulsory | ThrowUse::CompulsoryWithExemptions => 0,
                ThrowUse::Optional => playable,
                ThrowUse::CompulsoryWithEarlyDecline => playable & only_reducing,
            };
            // A tâb that may be banked is banked, not declined.
            let mut d = declinable & !u32::from(may_bank);
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                out.push(next::decline(Throw::ALL[i]));
            }
        }
        if !compulsory_pending && (optional_pending > 0 || self.bank[me] > 0) {
            out.push(next::END);
        }
        true
    }
}
