//! The chance that a unit of the Tâb family is hit in its enemy's turn.
//!
//! # What is computed
//! For an attacker `a` and a square `X`, [`hit_probabilities`] gives the probability, over the
//! throws of `a`'s turn, that `a` **can** land a unit on `X` (and so capture what stands there)
//! with a *chain* of at most [`CHAIN`] of that turn's throws played one after another by one
//! unit:
//!
//! * **The throws.** `a`'s turn is the one in progress if it is his turn, else his next one.
//!   Its throws are those already known (pending, plus tâbs in his bank, which he may play in
//!   any move phase) and, if he still throws, the ones to come: independent throws with the
//!   ruleset's exact weights (fair sticks 4, 6, 4, 1, 1 of 16 for 1, 2, 3, 4, 6, or the
//!   weights of a biased `p_white`), continuing after a 1, 4 or 6 and stopping after the first
//!   2 or 3 (S-1, L-5). The whole throw sequence of the turn is taken into account, however
//!   long: the probability is exact, not sampled or truncated ([`TurnLaw`]).
//! * **The first step** of a chain is a real play: one of the plays the rules' own generator
//!   gives `a` for that single throw on the current board ([`HitBoard::first_steps`]), with
//!   every rule that decides it (conversion by a tâb, reserved tâbs, frozen units, landing,
//!   passing, splits).
//! * **Further steps** (second and third throw of the chain) follow `a`'s track from where the
//!   unit arrived ([`HitBoard::next_squares`]), including the branch into the enemy home row
//!   for a unit that may still enter it. They are geometry: the rules that could forbid them
//!   (landing on one's own pieces, passing restrictions, a unit frozen in the enemy row, a tâb
//!   that must convert) are not consulted.
//! * The throws of a chain are distinct throws of the turn, in any order (a multiset): under
//!   the default timing a turn's throws accumulate and are played in any order (L-5). Under
//!   interleaved timing, and in the Ludii presets, each throw is played as it comes; for a
//!   unit alone on the track the order of its steps does not change where it ends, so the
//!   model is the same.
//!
//! The result is exactly the probability that the rules allow such a hit whenever the units
//! that could reach `X` are converted pieces, alone on their squares, whose chains stay on
//! squares where the rules let them land and pass, and no hit needs more than three throws;
//! `tests/eval.rs` checks it on literal positions against a brute-force enumeration of every
//! throw sequence and every decision of the enemy's turn through the game's public API. Where
//! those conditions fail it is an estimate: it may count a chain the rules forbid, or miss a
//! chain of four or more throws (rare: a turn has four throws or more with probability
//! (6/16)³ ≈ 5 %, and few of those need all of them).
//!
//! # How
//! A turn's throws are summarised by how many of each value they hold, counted up to
//! [`CHAIN`] (a chain cannot use more), as a *bag*. The law of the bag at the end of the turn
//! is a small absorbing Markov chain over the counts of 1, 4 and 6 (each capped at 3: a capped
//! count that repeats is a self-loop, summed as a geometric series), absorbed by a 2 or a 3:
//! at most 4³ × 2 = 128 outcomes. Independently, a depth-first walk over every chain of at most
//! three throws from every real first step gives, for each sub-bag of at most three throws,
//! the squares it reaches. A square is hit under an outcome if some sub-bag of the outcome
//! reaches it.

use qasab_core::sticks::Throw;
use qasab_core::{Player, Weighted};

/// The longest chain of throws by one unit that the model follows.
pub const CHAIN: u8 = 3;

/// The largest number of squares of a board of the Tâb family.
pub const SQUARES: usize = qasab_core::grid::MAX_SQUARES;

/// What the hit model asks of a game.
pub trait HitBoard {
    /// Fills `out` (after clearing it) with the `(from, to)` squares of every play the rules
    /// allow `attacker` with the single throw `t` on the current board, as if it were his only
    /// throw and his turn to move. Plays without a destination are left out.
    fn first_steps(&self, attacker: Player, t: Throw, out: &mut Vec<(u8, u8)>);

    /// A number that names the board's geometry (game, board size, track): boards with the
    /// same key give the same [`HitBoard::next_squares`], which are then kept per thread.
    fn geometry_key(&self) -> u32;

    /// The class of the attacker's unit on `origin` for [`HitBoard::next_squares`]: units of
    /// one class continue their chains alike (0 or 1; in the Tâb family, 1 for a unit that has
    /// been in the enemy home row and may not enter it again).
    fn class(&self, attacker: Player, origin: u8) -> usize;

    /// The squares `steps` squares on from `at` along `attacker`'s track (the main way and,
    /// where it forks, the other), for a unit of `class`. Geometry only.
    fn next_squares(&self, attacker: Player, class: usize, at: u8, steps: u8) -> [Option<u8>; 2];
}

/// A bag of throws: for each throw (by [`Throw::index`]) its count, 0 to 3, in two bits.
type Bag = u16;

/// The bag of one throw of index `i`.
const fn one(i: usize) -> Bag {
    1 << (2 * i)
}

/// The count of throw index `i` in a bag.
const fn count(b: Bag, i: usize) -> u16 {
    (b >> (2 * i)) & 3
}

/// The number of bags of at most [`CHAIN`] throws that hold at least one (5 + 15 + 35).
const SUBS: usize = 55;

/// `SUB_INDEX[bag]`: the dense index of a bag of one to three throws, or `u8::MAX`.
static SUB_INDEX: [u8; 1024] = {
    let mut t = [u8::MAX; 1024];
    let mut b = 0;
    let mut k = 0;
    while b < 1024 {
        let n = count(b as u16, 0)
            + count(b as u16, 1)
            + count(b as u16, 2)
            + count(b as u16, 3)
            + count(b as u16, 4);
        if n >= 1 && n <= CHAIN as u16 {
            t[b] = k;
            k += 1;
        }
        b += 1;
    }
    t
};

/// `SUB_BAG[i]`: the bag of dense index `i`, spread into three-bit fields ([`spread`]).
static SUB_SPREAD: [u16; SUBS] = {
    let mut t = [0u16; SUBS];
    let mut b = 0;
    while b < 1024 {
        if SUB_INDEX[b] != u8::MAX {
            t[SUB_INDEX[b] as usize] = spread(b as u16);
        }
        b += 1;
    }
    t
};

/// The bags of one to three throws, smallest first.
static SUB_BY_SIZE: [u16; SUBS] = {
    let mut t = [0u16; SUBS];
    let mut k = 0;
    let mut size = 1;
    while size <= CHAIN as u16 {
        let mut b = 0;
        while b < 1024 {
            let n = count(b as u16, 0)
                + count(b as u16, 1)
                + count(b as u16, 2)
                + count(b as u16, 3)
                + count(b as u16, 4);
            if n == size {
                t[k] = b as u16;
                k += 1;
            }
            b += 1;
        }
        size += 1;
    }
    t
};

/// Every continuation of one attacker and class of unit on one board: `[throw][square]`, the
/// set of the (at most two) squares a step leads to.
type Steps = [[u128; SQUARES]; 5];

thread_local! {
    /// Continuation tables already built on this thread, by geometry key, attacker and class.
    static STEPS: std::cell::RefCell<
        rustc_hash::FxHashMap<(u32, Player, usize), std::rc::Rc<Steps>>,
    > = Default::default();
}

/// The continuation table of `attacker`'s units of `class` on `board`, built once per thread.
fn steps_of(board: &impl HitBoard, attacker: Player, class: usize) -> std::rc::Rc<Steps> {
    let key = (board.geometry_key(), attacker, class);
    STEPS.with(|cache| {
        cache
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                let mut t = [[0u128; SQUARES]; 5];
                for (i, th) in Throw::ALL.into_iter().enumerate() {
                    for sq in 0..SQUARES as u8 {
                        t[i][usize::from(sq)] = board
                            .next_squares(attacker, class, sq, th.value())
                            .into_iter()
                            .flatten()
                            .fold(0, |m, z| m | 1u128 << z);
                    }
                }
                std::rc::Rc::new(t)
            })
            .clone()
    })
}

/// The guard bits of [`spread`] bags.
const GUARD: u16 = 0b100_100_100_100_100;

/// A bag with each count in a three-bit field, so that [`contains`] is one subtraction.
const fn spread(b: Bag) -> u16 {
    let mut s = 0;
    let mut i = 0;
    while i < 5 {
        s |= count(b, i) << (3 * i);
        i += 1;
    }
    s
}

/// Whether the spread bag `outer` holds every throw of the spread bag `inner`: each field of
/// `(outer | GUARD) - inner` keeps its guard bit exactly when the outer count is at least the
/// inner one (counts are at most 3, so no field borrows from the next).
#[inline]
fn contains(outer: u16, inner: u16) -> bool {
    ((outer | GUARD) - inner) & GUARD == GUARD
}

/// The law of the throws of one turn, as a distribution over bags (counts capped at
/// [`CHAIN`]).
#[derive(Clone, Debug)]
pub struct TurnLaw {
    /// Each possible bag, spread ([`spread`]), with its probability (at most 128 of them).
    outcomes: Vec<(u16, f64)>,
    /// For each bag of one to three throws (by dense index), the outcomes that hold it, as a
    /// bit set over `outcomes`.
    covers: [u128; SUBS],
}

/// The key of a cached [`TurnLaw`]: the weights by throw index, their sum, the known counts
/// (capped) and whether more throws come.
type LawKey = ([u32; 5], u32, [u16; 5], bool);

thread_local! {
    /// Turn laws already worked out on this thread: a search asks for the same few again and
    /// again.
    static LAWS: std::cell::RefCell<rustc_hash::FxHashMap<LawKey, std::rc::Rc<TurnLaw>>> =
        Default::default();
}

impl TurnLaw {
    /// The law of a turn whose throws so far are `known` (counts by [`Throw::index`]) and
    /// which goes on with more throws if `more`: independent throws with `weights` (which sum
    /// to `denominator`), after a 1, 4 or 6 another, ending after the first 2 or 3.
    ///
    /// Without `more` the bag is `known` for certain.
    pub fn new(weights: &[Weighted<Throw>], denominator: u32, known: [u32; 5], more: bool) -> Self {
        let cap = |n: u32| n.min(u32::from(CHAIN)) as u16;
        let known: [u16; 5] = known.map(cap);
        let outcomes = Self::outcomes_of(weights, denominator, known, more);
        let mut covers = [0u128; SUBS];
        for (k, cover) in covers.iter_mut().enumerate() {
            for (i, &(bag, _)) in outcomes.iter().enumerate() {
                if contains(bag, SUB_SPREAD[k]) {
                    *cover |= 1u128 << i;
                }
            }
        }
        TurnLaw { outcomes, covers }
    }

    /// [`TurnLaw::new`], shared with earlier calls with the same arguments on this thread.
    pub fn shared(
        weights: &[Weighted<Throw>],
        denominator: u32,
        known: [u32; 5],
        more: bool,
    ) -> std::rc::Rc<TurnLaw> {
        let mut w = [0u32; 5];
        for x in weights {
            w[x.outcome.index()] += x.weight;
        }
        let key = (
            w,
            denominator,
            known.map(|n| n.min(u32::from(CHAIN)) as u16),
            more,
        );
        LAWS.with(|laws| {
            let mut laws = laws.borrow_mut();
            if let Some(law) = laws.get(&key) {
                return law.clone();
            }
            if laws.len() >= 1024 {
                laws.clear();
            }
            let law = std::rc::Rc::new(TurnLaw::new(weights, denominator, known, more));
            laws.insert(key, law.clone());
            law
        })
    }

    /// The outcomes of [`TurnLaw::new`], with `known` already capped.
    fn outcomes_of(
        weights: &[Weighted<Throw>],
        denominator: u32,
        known: [u16; 5],
        more: bool,
    ) -> Vec<(u16, f64)> {
        let bag = |c: [u16; 5]| -> Bag { (0..5).map(|i| c[i].min(3) << (2 * i)).sum() };
        if !more {
            return vec![(spread(bag(known)), 1.0)];
        }
        let mut w = [0u64; 5];
        for x in weights {
            w[x.outcome.index()] += u64::from(x.weight);
        }
        let d = u64::from(denominator);
        // The throws that give another throw, by index: 1, 4, 6.
        const AGAIN: [usize; 3] = [0, 3, 4];
        // mass[a][b][c]: the probability of ever having a, b, c throws of 1, 4, 6 (capped).
        let mut mass = [[[0.0f64; 4]; 4]; 4];
        let k = [known[0], known[3], known[4]].map(usize::from);
        mass[k[0]][k[1]][k[2]] = 1.0;
        let mut outcomes = Vec::with_capacity(128);
        for a in k[0]..4 {
            for b in k[1]..4 {
                for c in k[2]..4 {
                    let r = mass[a][b][c];
                    if r == 0.0 {
                        continue;
                    }
                    let cnt = [a, b, c];
                    // A capped count that comes again leaves the bag as it is: the stay is a
                    // geometric series, so each way out is taken with its weight over the
                    // weight of leaving.
                    let stay: u64 = (0..3).filter(|&j| cnt[j] == 3).map(|j| w[AGAIN[j]]).sum();
                    let leave = (d - stay) as f64;
                    for j in 0..3 {
                        if cnt[j] < 3 {
                            let mut next = cnt;
                            next[j] += 1;
                            mass[next[0]][next[1]][next[2]] += r * w[AGAIN[j]] as f64 / leave;
                        }
                    }
                    for stop in [1usize, 2] {
                        if w[stop] == 0 {
                            continue;
                        }
                        let mut c5 = known;
                        c5[0] = a as u16;
                        c5[3] = b as u16;
                        c5[4] = c as u16;
                        c5[stop] += 1;
                        outcomes.push((spread(bag(c5)), r * w[stop] as f64 / leave));
                    }
                }
            }
        }
        outcomes
    }

    /// The outcomes: each bag (counts in three-bit fields, by [`Throw::index`]) and its
    /// probability. The probabilities sum to 1 (up to rounding).
    pub fn outcomes(&self) -> impl Iterator<Item = ([u8; 5], f64)> + '_ {
        self.outcomes
            .iter()
            .map(|&(s, p)| (std::array::from_fn(|i| ((s >> (3 * i)) & 7) as u8), p))
    }
}

/// For every bag of one to three throws, the squares an attacker's chains using exactly those
/// throws reach.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// (dense bag index, squares) for the bags that reach something.
    entries: Vec<(u8, u128)>,
    /// The squares of the attacker's units that have a play with some throw.
    origins: u128,
}

impl Reach {
    /// Walks every chain of at most [`CHAIN`] throws of `attacker` on `board`: the squares
    /// reached with each bag of throws, for each class of unit, built up one throw at a time
    /// (a chain of a bag is a chain of the bag less one throw, then that throw).
    pub fn new(board: &impl HitBoard, attacker: Player) -> Reach {
        // squares[class][sub-bag]: where chains of units of that class with that bag end.
        let mut squares = [[0u128; SUBS]; 2];
        let mut origins = 0u128;
        let mut steps = Vec::new();
        for (i, t) in Throw::ALL.into_iter().enumerate() {
            board.first_steps(attacker, t, &mut steps);
            let k = usize::from(SUB_INDEX[usize::from(one(i))]);
            for &(origin, z) in &steps {
                origins |= 1u128 << origin;
                squares[board.class(attacker, origin) & 1][k] |= 1u128 << z;
            }
        }
        for (class, squares) in squares.iter_mut().enumerate() {
            if squares.iter().all(|&m| m == 0) {
                continue;
            }
            let next = steps_of(board, attacker, class);
            // Bags in order of size: a bag's chains come from the smaller bags'.
            for &b in SUB_BY_SIZE.iter() {
                let k = SUB_INDEX[usize::from(b)];
                let size: u16 = (0..5).map(|i| count(b, i)).sum();
                if size == CHAIN as u16 {
                    continue;
                }
                let from = squares[usize::from(k)];
                if from == 0 {
                    continue;
                }
                // A turn holds one 2 or 3 at most: it ends the throwing.
                let stopped = count(b, 1) + count(b, 2) > 0;
                for (i, t) in Throw::ALL.into_iter().enumerate() {
                    if stopped && !t.throws_again() {
                        continue;
                    }
                    let k2 = usize::from(SUB_INDEX[usize::from(b + one(i))]);
                    let mut m = from;
                    let mut to = 0u128;
                    while m != 0 {
                        let sq = m.trailing_zeros() as u8;
                        m &= m - 1;
                        to |= next[i][usize::from(sq)];
                    }
                    squares[k2] |= to;
                }
            }
        }
        Reach {
            entries: (0..SUBS)
                .filter_map(|k| {
                    let m = squares[0][k] | squares[1][k];
                    (m != 0).then_some((k as u8, m))
                })
                .collect(),
            origins,
        }
    }

    /// The squares of the attacker's units that have a play with some throw.
    pub fn origins(&self) -> u128 {
        self.origins
    }

    /// Every square some chain reaches.
    pub fn any(&self) -> u128 {
        self.entries.iter().fold(0, |acc, &(_, m)| acc | m)
    }
}

/// The probability that each square of `targets` is hit, given what the attacker's chains
/// reach and the law of his turn's throws: `out[sq]` for each bit `sq` of `targets`; other
/// entries are left at 0.
pub fn hit_probabilities(reach: &Reach, law: &TurnLaw, targets: u128) -> [f64; SQUARES] {
    let mut out = [0.0; SQUARES];
    let mut m = targets & reach.any();
    while m != 0 {
        let sq = m.trailing_zeros() as usize;
        m &= m - 1;
        // The outcomes holding a bag of throws that reaches the square.
        let mut covered = 0u128;
        for &(k, squares) in &reach.entries {
            if squares & (1u128 << sq) != 0 {
                covered |= law.covers[usize::from(k)];
            }
        }
        let mut p = 0.0;
        while covered != 0 {
            let i = covered.trailing_zeros() as usize;
            covered &= covered - 1;
            p += law.outcomes[i].1;
        }
        // Rounding in the sum must not push a probability past 1.
        out[sq] = p.min(1.0);
    }
    out
}

/// The probability that each square of `targets` is hit when the attacker's only unit that can
/// move must play every throw as it comes (interleaved timing, the Ludii presets): the unit on
/// `origin` moves with the turn's first throw, then the second, and so on, up to [`CHAIN`]
/// throws, standing still when a throw cannot move it; a square is hit if the unit lands on
/// it along the way. `known` is the throw being played, if the turn has begun, and `more`
/// whether the turn goes on after it. Banked tâbs are not counted.
#[allow(clippy::too_many_arguments)]
pub fn ordered_hit_probabilities(
    board: &impl HitBoard,
    attacker: Player,
    origin: u8,
    weights: &[Weighted<Throw>],
    denominator: u32,
    known: Option<Throw>,
    more: bool,
    targets: u128,
) -> [f64; SQUARES] {
    struct Walk<'a, B> {
        board: &'a B,
        attacker: Player,
        origin: u8,
        class: usize,
        weights: &'a [Weighted<Throw>],
        denominator: f64,
        targets: u128,
        out: [f64; SQUARES],
        steps: Vec<(u8, u8)>,
    }
    impl<B: HitBoard> Walk<'_, B> {
        /// Where the unit may stand after throw `t` from the squares `at`.
        fn step(&mut self, at: u128, t: Throw, first: bool) -> u128 {
            let mut next = 0u128;
            if first {
                self.board.first_steps(self.attacker, t, &mut self.steps);
                for &(from, to) in &self.steps {
                    if from == self.origin {
                        next |= 1u128 << to;
                    }
                }
                return if next == 0 { at } else { next };
            }
            let mut m = at;
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let mut moved = false;
                for z in self
                    .board
                    .next_squares(self.attacker, self.class, sq, t.value())
                    .into_iter()
                    .flatten()
                {
                    next |= 1u128 << z;
                    moved = true;
                }
                if !moved {
                    next |= 1u128 << sq;
                }
            }
            next
        }

        fn leaf(&mut self, hits: u128, p: f64) {
            let mut m = hits & self.targets;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                self.out[sq] += p;
            }
        }

        /// Another throw comes after `len` throws that left the unit on `at`, having landed on
        /// `hits`, with probability `p`.
        fn throw(&mut self, at: u128, hits: u128, len: u8, p: f64) {
            for i in 0..self.weights.len() {
                let w = self.weights[i];
                let p2 = p * f64::from(w.weight) / self.denominator;
                let next = self.step(at, w.outcome, len == 0);
                let landed = if next == at { hits } else { hits | next };
                if w.outcome.throws_again() && len + 1 < CHAIN {
                    self.throw(next, landed, len + 1, p2);
                } else {
                    self.leaf(landed, p2);
                }
            }
        }
    }
    let mut walk = Walk {
        board,
        attacker,
        origin,
        class: board.class(attacker, origin),
        weights,
        denominator: f64::from(denominator),
        targets,
        out: [0.0; SQUARES],
        steps: Vec::new(),
    };
    let start = 1u128 << origin;
    match known {
        None if more => walk.throw(start, 0, 0, 1.0),
        None => {}
        Some(t) => {
            let at = walk.step(start, t, true);
            let hits = if at == start { 0 } else { at };
            if more && CHAIN > 1 {
                walk.throw(at, hits, 1, 1.0);
            } else {
                walk.leaf(hits, 1.0);
            }
        }
    }
    for p in &mut walk.out {
        *p = p.min(1.0);
    }
    walk.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fair() -> ([Weighted<Throw>; 5], u32) {
        qasab_core::sticks::StickOdds::FAIR.weights()
    }

    #[test]
    fn bags_are_indexed_densely() {
        let n = SUB_INDEX.iter().filter(|&&k| k != u8::MAX).count();
        assert_eq!(n, SUBS);
        assert!(contains(
            spread(one(0) * 2 + one(3)),
            spread(one(0) + one(3))
        ));
        assert!(!contains(spread(one(0) + one(3)), spread(one(0) * 2)));
        assert!(contains(spread(one(4) * 3), spread(one(4) * 3)));
    }

    #[test]
    fn a_fresh_turn_law_sums_to_one_and_matches_closed_forms() {
        let (w, d) = fair();
        let law = TurnLaw::new(&w, d, [0; 5], true);
        let total: f64 = law.outcomes().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // A turn holds a tâb with probability 4 / (4 + 6 + 4) = 2/7 (the docs' figure).
        let tab: f64 = law
            .outcomes()
            .filter(|(b, _)| b[0] > 0)
            .map(|(_, p)| p)
            .sum();
        assert!((tab - 2.0 / 7.0).abs() < 1e-12, "{tab}");
        // It ends with a 2 with probability 6/10.
        let two: f64 = law
            .outcomes()
            .filter(|(b, _)| b[1] > 0)
            .map(|(_, p)| p)
            .sum();
        assert!((two - 0.6).abs() < 1e-12);
        // At least two 6s: (1/11)^2 (each further throw is a 6 before a 2 or 3 with odds
        // 1 in 1 + 10, the other again-throws not mattering).
        let sixes: f64 = law
            .outcomes()
            .filter(|(b, _)| b[4] >= 2)
            .map(|(_, p)| p)
            .sum();
        assert!((sixes - 1.0 / 121.0).abs() < 1e-12, "{sixes}");
        // Three or more 1s (the cap): (4/14)^3.
        let ones: f64 = law
            .outcomes()
            .filter(|(b, _)| b[0] == 3)
            .map(|(_, p)| p)
            .sum();
        assert!((ones - (4.0f64 / 14.0).powi(3)).abs() < 1e-12, "{ones}");
    }

    #[test]
    fn known_throws_are_kept() {
        let (w, d) = fair();
        let law = TurnLaw::new(&w, d, [1, 0, 1, 0, 0], false);
        let all: Vec<_> = law.outcomes().collect();
        assert_eq!(all, vec![([1, 0, 1, 0, 0], 1.0)]);
        let law = TurnLaw::new(&w, d, [2, 0, 0, 0, 0], true);
        assert!(law.outcomes().all(|(b, _)| b[0] >= 2));
        let total: f64 = law.outcomes().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
