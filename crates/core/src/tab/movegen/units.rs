//! The plays of one unit: a lone piece, a whole stack, the pieces of a dissolved square, and the
//! ways a stack splits (L-9c.1, L-10, L-14, L-15, H-10).

use crate::player::Player;

use super::super::board::{MAXP, Position, bit};
use super::super::next;
use super::super::rules::{Conversion, Reduction, Split, Survivor};
use super::super::track::NONE;
use super::{Found, Gen, Sink};

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
}
