//! Move generation: the plays of each throw, and the decisions of a move phase (L-6 to L-16,
//! H-6 to H-12).
//!
//! * `passes`: the generation passes over a player's squares for one throw, in the order the
//!   reserved-tâb and lowest-priority rules give, and the quick test for any play;
//! * `units`: the plays of one piece, one stack or one unit of a stack, with its splits and
//!   reductions;
//! * `path`: where a unit may go: walking the track, passing, landing, reduction on arrival;
//! * `turn`: the decisions of a move phase: the plays of every available throw, then banking,
//!   declining and ending (throw use, L-7, L-8).

use crate::player::Player;
use crate::sticks::Throw;

use super::board::Position;
use super::moves::Move;
use super::next;
use super::track::Dests;

mod passes;
mod path;
mod turn;
mod units;

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
