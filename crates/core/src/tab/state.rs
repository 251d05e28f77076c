//! The Tâb state and its rules: throws, moves, captures, stacks, the end (research §3–5).

use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use crate::game::{EndReason, InvalidState, Outcome, PositionIdError};
use crate::grid::{Grid, MAX_SQUARES, Square};
use crate::player::{ByPlayer, Player};
use crate::sticks::Throw;

use super::moves::{Move, NO_PIECE, Spot};
use super::next::{self, Next};
use super::rules::{
    Bank, Conversion, End, EnemyEntry, EnemyRow, LimitResult, Opening, Passing, Reduction, Ruleset,
    Split, Stacking, Survivor, ThrowUse, Timing,
};
use super::track::{Dests, NONE, Table, dests, table};

/// Most pieces a side can have.
pub(crate) const MAXP: usize = 29;
/// The square of a piece no longer on the board.
pub(crate) const OFF: u8 = 0xFF;

pub(crate) const CONVERTED: u8 = 1;
pub(crate) const ENTERED: u8 = 2;
pub(crate) const ROWS_SHIFT: u8 = 4;

const OWNER_BLACK: u32 = 1 << 31;
const DISSOLVED: u32 = 1 << 30;
const PIECE_BITS: u32 = (1 << MAXP) - 1;

/// One piece and its history (§3.10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Piece {
    /// Squares stood on or passed (`square-landed`: squares come to rest on), low and high
    /// 64 bits. Kept only when a reduction rule reads it.
    pub lo: u64,
    pub hi: u64,
    /// The square, or [`OFF`].
    pub sq: u8,
    /// [`CONVERTED`], [`ENTERED`] (has been in the enemy home row), and the rows seen in bits
    /// 4–7.
    pub flags: u8,
}

impl Piece {
    /// A piece no longer on the board: no square, no history.
    pub(crate) const fn off() -> Piece {
        Piece {
            lo: 0,
            hi: 0,
            sq: OFF,
            flags: 0,
        }
    }

    #[inline]
    pub(crate) fn visited(&self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }

    #[inline]
    fn set_visited(&mut self, v: u128) {
        self.lo = v as u64;
        self.hi = (v >> 64) as u64;
    }

    #[inline]
    pub(crate) fn converted(&self) -> bool {
        self.flags & CONVERTED != 0
    }

    #[inline]
    pub(crate) fn entered(&self) -> bool {
        self.flags & ENTERED != 0
    }

    #[inline]
    pub(crate) fn rows(&self) -> u8 {
        self.flags >> ROWS_SHIFT
    }
}

/// Where the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// L-4: players throw alternately until a tâb; `thrower` throws next.
    Opening { thrower: Player },
    /// The player throws (again).
    Throwing { player: Player },
    /// The player plays his throws.
    Moving { player: Player },
    /// The game is over.
    Over,
}

/// Pending throws, counted by [`Throw::index`] in the bytes of one word, so that the counts
/// are written and read whole: a store of one count followed by a read of all of them (the
/// generation that follows a throw or a play reads them all) would stall the read. Prints as
/// the array of the five counts.
#[derive(Copy, Clone, PartialEq, Eq, Default)]
pub(crate) struct Pending(u64);

impl Pending {
    /// No throw pending.
    pub(crate) const NONE: Pending = Pending(0);

    /// The count of throw index `i`.
    #[inline(always)]
    pub(crate) fn get(self, i: usize) -> u8 {
        (self.0 >> (8 * i)) as u8
    }

    /// One more throw of index `i`.
    #[inline(always)]
    pub(crate) fn add(&mut self, i: usize) {
        debug_assert!(self.get(i) < u8::MAX, "too many pending throws");
        self.0 += 1 << (8 * i);
    }

    /// One throw of index `i` fewer.
    #[inline(always)]
    pub(crate) fn take(&mut self, i: usize) {
        debug_assert!(self.get(i) > 0);
        self.0 -= 1 << (8 * i);
    }

    /// How many throws are pending.
    #[inline(always)]
    pub(crate) fn total(self) -> u32 {
        self.counts().iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether no throw is pending.
    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The counts, by throw index.
    pub(crate) fn counts(self) -> [u8; 5] {
        let [a, b, c, d, e, ..] = self.0.to_le_bytes();
        [a, b, c, d, e]
    }
}

impl Hash for Pending {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.counts().fmt(f)
    }
}

/// Counters kept for statistics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Stats {
    /// Stick throws after the opening.
    pub throws: u32,
    /// Turns in which a tâb was thrown.
    pub tab_turns: u32,
    /// Pieces converted.
    pub conversions: u32,
    /// Stacks reduced.
    pub reductions: u32,
    /// Tâbs put in the bank.
    pub banked: u32,
    /// The current turn has had a tâb.
    pub(crate) turn_tab: bool,
    /// The current turn has had a capture, conversion or reduction.
    pub(crate) turn_progress: bool,
}

/// A Tâb game in progress (`tab`, `tab-hyde`, `tab-modern`).
///
/// Compact and `Copy` (about 2.4 KB, no heap). Equality compares everything, histories included;
/// the decisions the rules keep for the player to move are not part of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pos: Position,
    /// The decisions of the player to move, kept by the rules when they check that he has
    /// one; not part of the position (see [`super::next`]).
    pub(crate) next: Next,
}

/// The position: everything of a [`State`] but the kept decisions, so that the rules can
/// read the position while they write the decisions. A [`State`] dereferences to it.
///
/// Its `Hash` (below) writes every field that equality compares except the ones derived from
/// others, and only the pieces and squares the ruleset uses; the rest are always default.
#[doc(hidden)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) rules: Ruleset,
    pub(crate) pieces: [[Piece; MAXP]; 2],
    /// Per square: bit 31 set for Black's pieces, bit 30 for a dissolved stack, bits 0–28 the
    /// owner's pieces there.
    pub(crate) board: [u32; MAX_SQUARES],
    pub(crate) phase: Phase,
    /// Pending throws, counted by [`Throw::index`].
    pub(crate) pending: Pending,
    /// Interleaved timing: the throw being played gives another throw.
    pub(crate) extra: bool,
    pub(crate) bank: [u16; 2],
    pub(crate) captured: [u16; 2],
    pub(crate) removed: [u16; 2],
    pub(crate) alive: [u8; 2],
    /// Bit `i` set if piece `i` is unconverted (derived from `pieces`, kept for speed).
    pub(crate) unconv: [u32; 2],
    /// Bit `i` set if piece `i` has been in the enemy home row (derived, for speed).
    pub(crate) entered: [u32; 2],
    /// The squares holding each side's pieces (derived from `board`, for speed).
    pub(crate) occ: [u128; 2],
    /// The squares holding a converted piece of each side (derived, for speed).
    pub(crate) conv_sq: [u128; 2],
    /// The squares holding an unconverted piece of each side (derived, for speed).
    pub(crate) unconv_sq: [u128; 2],
    pub(crate) turns: u32,
    pub(crate) no_progress: u16,
    pub(crate) opening_throws: u16,
    pub(crate) actions: u32,
    pub(crate) stats: Stats,
    pub(crate) over: Option<Outcome>,
}

/// Consistent with the derived equality: equal positions write the same words. A search
/// hashes every state of a turn it enumerates, so this writes about a fifth of the words a
/// derived hash would: not the fields derived from others (`unconv`, `entered`, `occ`,
/// `conv_sq`, `unconv_sq`), not the unused tail of `pieces` and `board`, and a piece's
/// history only when it has one.
impl Hash for Position {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // Every field named, so that a new one cannot be forgotten here.
        let Position {
            rules,
            pieces,
            board,
            phase,
            pending,
            extra,
            bank,
            captured,
            removed,
            alive,
            unconv: _,
            entered: _,
            occ: _,
            conv_sq: _,
            unconv_sq: _,
            turns,
            no_progress,
            opening_throws,
            actions,
            stats,
            over,
        } = self;
        rules.hash(h);
        let n = usize::from(rules.piece_count()).min(MAXP);
        for side in pieces {
            for pc in &side[..n] {
                let kept = pc.lo | pc.hi != 0;
                h.write_u32(u32::from(pc.sq) | u32::from(pc.flags) << 8 | u32::from(kept) << 16);
                if kept {
                    h.write_u64(pc.lo);
                    h.write_u64(pc.hi);
                }
            }
        }
        let squares = (4 * usize::from(rules.columns)).min(MAX_SQUARES);
        board[..squares].hash(h);
        phase.hash(h);
        pending.hash(h);
        extra.hash(h);
        bank.hash(h);
        captured.hash(h);
        removed.hash(h);
        alive.hash(h);
        turns.hash(h);
        no_progress.hash(h);
        opening_throws.hash(h);
        actions.hash(h);
        stats.hash(h);
        over.hash(h);
    }
}

impl Deref for State {
    type Target = Position;

    #[inline(always)]
    fn deref(&self) -> &Position {
        &self.pos
    }
}

impl DerefMut for State {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Position {
        &mut self.pos
    }
}

/// `ROW_OF[columns][square]`: the row of a square, without a division.
static ROW_OF: [[u8; MAX_SQUARES]; 30] = {
    let mut t = [[0u8; MAX_SQUARES]; 30];
    let mut n = 1;
    while n < 30 {
        let mut sq = 0;
        while sq < 4 * n && sq < MAX_SQUARES {
            t[n][sq] = (sq / n) as u8;
            sq += 1;
        }
        n += 1;
    }
    t
};

/// `ROW_MASK[columns][row]`: the squares of a row.
static ROW_MASK: [[u128; 4]; 30] = {
    let mut t = [[0u128; 4]; 30];
    let mut n = 1;
    while n < 30 {
        let mut row = 0;
        while row < 4 {
            t[n][row] = ((1u128 << n) - 1) << (row * n);
            row += 1;
        }
        n += 1;
    }
    t
};

/// The most throws the opening may take before the game is stopped (L-18).
pub(crate) const OPENING_CAP: u16 = 1000;

/// What one generation pass found: how many plays, and how many of them reduce a stack.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Found {
    pub count: u32,
    pub reducing: u32,
}

/// What one generation pass reads for every unit, worked out once per pass.
#[derive(Copy, Clone)]
struct Gen {
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
    codes: &'a mut [u64; next::CAP],
    len: usize,
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

/// `BITS[sq]`: the mask of one square (a load is cheaper than a 128-bit shift); 0 for
/// [`NONE`].
static BITS: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut sq = 0;
    while sq < 128 {
        t[sq] = 1 << sq;
        sq += 1;
    }
    t
};

#[inline(always)]
fn bit(sq: u8) -> u128 {
    BITS[usize::from(sq)]
}

/// `ROW_BIT[columns][sq]`: the bit of a square's row; 0 off the board and for [`NONE`].
static ROW_BIT: [[u8; 256]; 30] = {
    let mut t = [[0u8; 256]; 30];
    let mut n = 1;
    while n < 30 {
        let mut sq = 0;
        while sq < 4 * n && sq < MAX_SQUARES {
            t[n][sq] = 1 << (sq / n);
            sq += 1;
        }
        n += 1;
    }
    t
};

impl State {
    /// The start of a game under `rules` (L-3, H-2, M-1).
    pub fn new(rules: Ruleset) -> State {
        State {
            pos: Position::new(rules),
            next: Next::EMPTY,
        }
    }

    /// Checks every fact that a state reachable under its ruleset satisfies: the pieces and
    /// their histories, what stands together, the counts, the phase and pending throws, the
    /// counters the rules read, and the outcome (the list is in `valid.rs`). Every state read
    /// from a position id has passed it.
    ///
    /// # Errors
    /// [`InvalidState`] naming the first fact that does not hold.
    pub fn validate(&self) -> Result<(), InvalidState> {
        self.pos.validate().map_err(InvalidState::new)
    }

    /// The board geometry.
    #[inline]
    pub fn grid(&self) -> Grid {
        self.pos.grid()
    }

    /// Applies a throw (a chance outcome).
    #[inline]
    pub(crate) fn apply_throw(&mut self, t: Throw) {
        self.pos.apply_throw(t, &mut self.next);
    }

    /// Applies a decision of the move phase (assumed legal).
    #[inline]
    pub(crate) fn apply_move(&mut self, m: Move) {
        let code = next::encode(m, self.rules.columns).expect("a legal play is on the board");
        self.pos.apply_code(code, &mut self.next);
    }

    /// The legal moves: the kept decisions if they are all kept, else generated again.
    pub(crate) fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let Phase::Moving { player } = self.phase else {
            return;
        };
        match self.next.kept() {
            Some(codes) => {
                let spots = next::spots(self.rules.columns);
                out.extend(codes.iter().map(|&c| next::decode(c, spots)));
            }
            None => {
                self.decisions(player, out);
            }
        }
    }

    /// Plays the kept decision number `pick(n)` of the `n` kept ones, if the decisions of the
    /// player to move are kept; otherwise gives `pick` back.
    #[inline]
    pub(crate) fn kept_code<F: FnOnce(usize) -> usize>(&mut self, pick: F) -> Result<(), F> {
        if !matches!(self.phase, Phase::Moving { .. }) {
            return Err(pick);
        }
        let Some(codes) = self.next.kept() else {
            return Err(pick);
        };
        let code = codes[pick(codes.len())];
        self.pos.apply_code(code, &mut self.next);
        Ok(())
    }

    /// Reads a position id (format in `docs/notation.md`).
    pub fn from_id(rules: Ruleset, id: &str) -> Result<State, PositionIdError> {
        super::id::parse(rules, id)
    }
}

impl Position {
    /// The start of a game under `rules` (L-3, H-2, M-1).
    pub(super) fn new(rules: Ruleset) -> Position {
        let n = rules.piece_count();
        let mut s = Position {
            rules,
            pieces: [[Piece {
                sq: OFF,
                ..Piece::default()
            }; MAXP]; 2],
            board: [0; MAX_SQUARES],
            phase: match rules.opening {
                Opening::UntilTab => Phase::Opening {
                    thrower: Player::One,
                },
                Opening::Normal => Phase::Throwing {
                    player: Player::One,
                },
            },
            pending: Pending::NONE,
            extra: false,
            bank: [0; 2],
            captured: [0; 2],
            removed: [0; 2],
            alive: [n; 2],
            unconv: [0; 2],
            entered: [0; 2],
            occ: [0; 2],
            conv_sq: [0; 2],
            unconv_sq: [0; 2],
            turns: u32::from(rules.opening == Opening::Normal),
            no_progress: 0,
            opening_throws: 0,
            actions: 0,
            stats: Stats::default(),
            over: None,
        };
        for p in Player::ALL {
            let home = s.home_row(p);
            for i in 0..n {
                let sq = s.start_square(p, i);
                let piece = &mut s.pieces[p.index()][i as usize];
                piece.sq = sq;
                piece.flags = (1 << home) << ROWS_SHIFT;
                if rules.tracks_squares() {
                    piece.set_visited(bit(sq));
                }
                s.board[sq as usize] |= (1 << i) | if p == Player::Two { OWNER_BLACK } else { 0 };
                // Every piece starts alone and unconverted (what `derive_caches` would find).
                s.unconv[p.index()] |= 1 << i;
                s.occ[p.index()] |= bit(sq);
                s.unconv_sq[p.index()] |= bit(sq);
            }
        }
        debug_assert!(s.check_derived().is_ok());
        s
    }

    /// Recomputes the derived fields (`unconv`, `entered`, `occ`) from the pieces.
    pub(crate) fn derive_caches(&mut self) {
        for p in Player::ALL {
            let (mut unconv, mut entered, mut occ) = (0u32, 0u32, 0u128);
            let (mut conv_sq, mut unconv_sq) = (0u128, 0u128);
            for (i, piece) in self.pieces[p.index()]
                .iter()
                .enumerate()
                .take(usize::from(self.rules.piece_count()))
            {
                if piece.sq == OFF {
                    continue;
                }
                occ |= bit(piece.sq);
                if piece.converted() {
                    conv_sq |= bit(piece.sq);
                } else {
                    unconv |= 1 << i;
                    unconv_sq |= bit(piece.sq);
                }
                if piece.entered() {
                    entered |= 1 << i;
                }
            }
            self.unconv[p.index()] = unconv;
            self.entered[p.index()] = entered;
            self.occ[p.index()] = occ;
            self.conv_sq[p.index()] = conv_sq;
            self.unconv_sq[p.index()] = unconv_sq;
        }
    }

    /// Brings `me`'s derived square sets up to date at `sq` after the board changed there.
    #[inline(always)]
    fn refresh_square(&mut self, me: usize, sq: u8) {
        let c = self.board[sq as usize];
        let mine = (c & OWNER_BLACK != 0) == (me == 1);
        let m = if mine { c & PIECE_BITS } else { 0 };
        let b = bit(sq);
        let unconv = self.unconv[me];
        self.occ[me] = (self.occ[me] & !b) | if m != 0 { b } else { 0 };
        self.conv_sq[me] = (self.conv_sq[me] & !b) | if m & !unconv != 0 { b } else { 0 };
        self.unconv_sq[me] = (self.unconv_sq[me] & !b) | if m & unconv != 0 { b } else { 0 };
    }

    /// The board geometry.
    #[inline]
    pub(crate) fn grid(&self) -> Grid {
        Grid::new(self.rules.columns)
    }

    /// The square where piece `i` of `p` starts: the `i`-th square of its track.
    #[inline]
    pub(crate) fn start_square(&self, p: Player, i: u8) -> u8 {
        let sq = i;
        if p == Player::One {
            sq
        } else {
            self.grid().len() as u8 - 1 - sq
        }
    }

    #[inline]
    pub(crate) fn home_row(&self, p: Player) -> u8 {
        3 * p.index() as u8
    }

    #[inline]
    pub(crate) fn enemy_row(&self, p: Player) -> u8 {
        3 - self.home_row(p)
    }

    #[inline(always)]
    pub(crate) fn row_of(&self, sq: u8) -> u8 {
        ROW_OF[self.rules.columns as usize][sq as usize]
    }

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

    #[inline]
    pub(crate) fn row_mask(&self, row: u8) -> u128 {
        ROW_MASK[self.rules.columns as usize][row as usize]
    }

    #[inline]
    pub(crate) fn table(&self, p: Player) -> &'static Table {
        table(self.rules.columns, self.rules.track, p)
    }

    /// The owner of the pieces on a square.
    #[inline(always)]
    pub(crate) fn owner(&self, sq: u8) -> Option<Player> {
        let c = self.board[sq as usize];
        if c & PIECE_BITS == 0 {
            None
        } else if c & OWNER_BLACK != 0 {
            Some(Player::Two)
        } else {
            Some(Player::One)
        }
    }

    /// The mask of pieces on a square (of its owner).
    #[inline(always)]
    pub(crate) fn mask(&self, sq: u8) -> u32 {
        self.board[sq as usize] & PIECE_BITS
    }

    #[inline]
    pub(crate) fn dissolved(&self, sq: u8) -> bool {
        self.board[sq as usize] & DISSOLVED != 0
    }

    /// True if `p` has a piece in his own home row.
    #[inline]
    pub(crate) fn home_occupied(&self, p: Player) -> bool {
        self.occ[p.index()] & self.row_mask(self.home_row(p)) != 0
    }

    /// True if all of `p`'s home-row pieces stand on one square (`freeze-exit-unless-one-stack`).
    #[inline]
    pub(crate) fn home_on_one_square(&self, p: Player) -> bool {
        let home = self.occ[p.index()] & self.row_mask(self.home_row(p));
        home & home.wrapping_sub(1) == 0
    }

    /// The piece signature that matters for the rules: pieces with equal signatures are
    /// interchangeable, so a choice between them is offered once.
    #[inline]
    pub(super) fn signature(&self, piece: &Piece) -> (u8, u128) {
        let mut flags = piece.flags & (CONVERTED | ENTERED);
        if self.rules.reduction == Reduction::RowEntered {
            flags |= piece.flags & 0xF0;
        }
        (flags, piece.visited())
    }

    /// One representative per signature class among the pieces of `mask`.
    pub(super) fn class_reps(&self, p: Player, mask: u32) -> u32 {
        let mut reps = 0u32;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let sig = self.signature(&self.pieces[p.index()][i as usize]);
            let mut r = reps;
            let mut dup = false;
            while r != 0 {
                let j = r.trailing_zeros();
                r &= r - 1;
                if self.signature(&self.pieces[p.index()][j as usize]) == sig {
                    dup = true;
                    break;
                }
            }
            if !dup {
                reps |= 1 << i;
            }
        }
        reps
    }

    /// Calls `f` with each distinct subset of `mask` of size `k`, up to interchangeable pieces.
    fn for_subsets(&self, p: Player, mask: u32, k: u32, f: &mut impl FnMut(u32)) {
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
    fn blocked(&self, p: Player, passed: u128, dest: u8) -> bool {
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
    fn may_land(&self, g: &Gen, dest: u8) -> bool {
        g.no_land & bit(dest) == 0
    }

    /// The squares where `p` may not end a move (L-9c.3, L-13, H-9): his own squares outside
    /// the middle rows under `stacking=middle-rows`, and his squares holding an unconverted
    /// piece unless `land_on_unconverted`.
    #[inline(always)]
    fn no_land(&self, p: Player) -> u128 {
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
    fn oldest(group: u32) -> u8 {
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
    fn walk(&self, p: Player, from: u8, steps: u8, alt: bool) -> (u128, u8) {
        let d = &dests(self.rules.columns, self.rules.track, p)[from as usize];
        Self::walk_from(d, &ROW_BIT[self.rules.columns as usize], steps, alt)
    }

    /// [`Position::walk`] from the destinations `d` of the square moved from, with the row bits
    /// of the board.
    #[inline(always)]
    fn walk_from(d: &[[u8; 2]; 6], row_bit: &[u8; 256], steps: u8, alt: bool) -> (u128, u8) {
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
    fn push_moves(
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
    fn may_reach(&self, g: &Gen, from: u8, steps: u8, held: bool, dest: u8, is_alt: bool) -> bool {
        self.may_land(g, dest)
            && !(held && self.row_of(dest) != g.enemy_row)
            && (self.rules.passing == Passing::Free
                || !self.blocked(g.p, self.walk(g.p, from, steps, is_alt).0, dest))
    }

    /// Pushes the plays of one unit to one destination: one play, or one per surviving piece
    /// when the stack is reduced and the mover chooses (L-15).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push_to(
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
    fn push_reduced(&self, g: &Gen, group: u32, code: u64, out: &mut impl Sink, found: &mut Found) {
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
    fn plays_of(&self, g: &mut Gen, squares: u128, out: &mut impl Sink) -> Found {
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
    fn ordered_passes(
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
    fn pass_setup(&self, p: Player, t: Throw) -> (Gen, u128) {
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
    fn gen_pass<S: Sink>(&self, g: &Gen, mut squares: u128, out: &mut S) -> Found {
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
    fn lone_plays<S: Sink>(
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
    fn square_plays(&self, g: &Gen, from: u8, out: &mut impl Sink, found: &mut Found) {
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
    fn stack_plays(&self, g: &Gen, from: u8, all: u32, out: &mut impl Sink, found: &mut Found) {
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
    fn lean_stack_plays(
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
    fn unit_plays(
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

    /// The throws `p` can play now: pending ones, and a banked tâb.
    pub(crate) fn available(&self, p: Player) -> impl Iterator<Item = Throw> + '_ {
        Throw::ALL
            .into_iter()
            .filter(move |&t| self.available_now(p, t))
    }

    /// Whether `p` can play `t` now: it is pending, or it is a tâb and one is banked.
    #[inline(always)]
    fn available_now(&self, p: Player, t: Throw) -> bool {
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

    // ----- applying actions -----

    /// Applies a throw (a chance outcome); `next` receives the decisions if a move phase
    /// begins.
    fn apply_throw(&mut self, t: Throw, next: &mut Next) {
        self.actions += 1;
        match self.phase {
            Phase::Opening { thrower } => {
                self.opening_throws += 1;
                if t.is_tab() {
                    // L-4: the first tâb starts the thrower's first turn and counts in it.
                    self.turns = 1;
                    self.stats.throws += 1;
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
                self.stats.throws += 1;
                self.stats.turn_tab |= t.is_tab();
                self.pending.add(t.index());
                self.after_throw(player, t, next);
            }
            _ => unreachable!("a throw outside a chance turn"),
        }
    }

    fn after_throw(&mut self, p: Player, t: Throw, next: &mut Next) {
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

    fn enter_moving(&mut self, p: Player, next: &mut Next) {
        self.phase = Phase::Moving { player: p };
        if !self.keep_decisions(p, next) {
            self.finish_moving(p, next);
        }
    }

    /// Generates `p`'s decisions and keeps them for the next call for the legal moves; returns
    /// whether there is any (a move phase without one is skipped).
    #[inline(always)]
    fn keep_decisions(&self, p: Player, next: &mut Next) -> bool {
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
    fn generate_kept(&self, p: Player, next: &mut Next) -> bool {
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
    fn finish_moving(&mut self, p: Player, next: &mut Next) {
        next.valid = false;
        let tab = Throw::TAB.index();
        if self.pending.get(tab) > 0 && self.may_bank(p) {
            let n = u16::from(self.pending.get(tab));
            self.bank[p.index()] += n;
            self.stats.banked += u32::from(n);
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
    fn end_turn(&mut self, p: Player) {
        if self.stats.turn_tab {
            self.stats.tab_turns += 1;
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

    fn finish(&mut self, reason: EndReason) {
        self.pending = Pending::NONE;
        self.extra = false;
        let scores = ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1]));
        let winner = match reason {
            EndReason::Elimination => Player::ALL.into_iter().find(|p| self.alive[p.index()] > 0),
            _ => Outcome::by_score(scores, reason).winner,
        };
        self.over = Some(Outcome {
            winner,
            scores,
            reason,
        });
        self.phase = Phase::Over;
    }

    fn finish_by_limit(&mut self, reason: EndReason) {
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
    fn apply_code(&mut self, code: u64, next: &mut Next) {
        self.actions += 1;
        let Phase::Moving { player: p } = self.phase else {
            unreachable!("a move outside a move phase")
        };
        match next::kind(code) {
            0 => self.apply_play(p, code),
            1 => {
                self.pending.take(Throw::TAB.index());
                self.bank[p.index()] += 1;
                self.stats.banked += 1;
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

    fn apply_play(&mut self, p: Player, code: u64) {
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
            self.board[from as usize] |= DISSOLVED;
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
            self.board[from as usize] = 0;
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
            self.board[from as usize] =
                rest | dissolved | (self.board[from as usize] & OWNER_BLACK);
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
            let piece = &mut self.pieces[me][i];
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
        }
        // Arrive: merge with own pieces there (L-13).
        let own = if self.owner(dest) == Some(p) {
            self.mask(dest)
        } else {
            0
        };
        self.board[dest as usize] = own | moving | if p == Player::Two { OWNER_BLACK } else { 0 };
        // The moving pieces are converted (L-9c), so the square holds a converted piece.
        debug_assert_eq!(moving & self.unconv[me], 0);
        self.occ[me] |= bit(dest);
        self.conv_sq[me] |= bit(dest);
        self.check_end(p);
    }

    /// L-9c: converts the unconverted pieces of `group` (of player index `me`).
    #[inline(never)]
    fn convert(&mut self, me: usize, group: u32) {
        let mut m = group & self.unconv[me];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.pieces[me][i].flags |= CONVERTED;
            self.unconv[me] &= !(1 << i);
            self.stats.conversions += 1;
        }
        self.stats.turn_progress = true;
    }

    /// L-16: `p` captures everything on `dest`.
    #[inline(never)]
    fn capture(&mut self, p: Player, dest: u8) {
        let me = p.index();
        let o = !p;
        let mut m = self.mask(dest);
        let n = m.count_ones();
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.pieces[o.index()][i] = Piece {
                sq: OFF,
                ..Piece::default()
            };
        }
        let gone = self.mask(dest);
        self.unconv[o.index()] &= !gone;
        self.entered[o.index()] &= !gone;
        self.occ[o.index()] &= !bit(dest);
        self.conv_sq[o.index()] &= !bit(dest);
        self.unconv_sq[o.index()] &= !bit(dest);
        self.alive[o.index()] -= n as u8;
        self.captured[me] += n as u16;
        self.board[dest as usize] = 0;
        self.stats.turn_progress = true;
    }

    /// L-15: reduces the moving `group` (of player index `me`) to one piece; returns it.
    #[inline(never)]
    fn reduce(&mut self, me: usize, group: u32, survivor: u8) -> u32 {
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
            self.pieces[me][i] = Piece {
                sq: OFF,
                ..Piece::default()
            };
        }
        let k = lost.count_ones();
        self.alive[me] -= k as u8;
        self.removed[me] += k as u16;
        self.stats.reductions += 1;
        self.stats.turn_progress = true;
        1 << keep
    }

    /// L-17, H-13 (a, b): the end after a move.
    fn check_end(&mut self, p: Player) {
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
