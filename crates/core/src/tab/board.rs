//! The Tâb position: pieces and their histories, the board, pending throws, counters, and
//! what the rules read of them (research §3.10).

use std::hash::{Hash, Hasher};

use crate::game::Outcome;
use crate::grid::{Grid, MAX_SQUARES};
use crate::player::Player;

use super::rules::{Opening, Reduction, Ruleset};
use super::track::{Table, table};

/// Most pieces a side can have: one per column of the widest board.
pub(crate) const MAXP: usize = crate::grid::MAX_COLUMNS as usize;
/// The square of a piece no longer on the board.
pub(crate) const OFF: u8 = 0xFF;

pub(crate) const CONVERTED: u8 = 1;
pub(crate) const ENTERED: u8 = 2;
pub(crate) const ROWS_SHIFT: u8 = 4;

pub(super) const OWNER_BLACK: u32 = 1 << 31;
pub(super) const DISSOLVED: u32 = 1 << 30;
pub(super) const PIECE_BITS: u32 = (1 << MAXP) - 1;

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
    pub(super) fn set_visited(&mut self, v: u128) {
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

/// The position: everything of a [`State`] but the kept decisions, so that the rules can
/// read the position while they write the decisions. A [`State`] dereferences to it.
///
/// Its `Hash` (below) writes the digest of the pieces and the board and every other field that
/// equality compares, except the ones derived from others.
#[doc(hidden)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) rules: Ruleset,
    /// The Zobrist digest of the pieces and dissolved stacks (derived, kept move by move; see
    /// [`super::digest`]). First after the ruleset, so that equality tells most different
    /// positions apart on two words.
    pub(crate) digest: [u64; 2],
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
/// hashes every state it meets, so this writes eleven words or so: the ruleset, the pieces,
/// their histories and the board through the digest that the moves keep, and the counters
/// packed; not the other fields derived from the pieces (`unconv`, `entered`, `occ`,
/// `conv_sq`, `unconv_sq`).
impl Hash for Position {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // Every field named, so that a new one cannot be forgotten here.
        let Position {
            // The ruleset, the pieces and the board are in the digest.
            rules: _,
            digest,
            pieces: _,
            board: _,
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
        h.write_u64(digest[0]);
        h.write_u64(digest[1]);
        // The rest packed into a few words.
        let Stats {
            throws,
            tab_turns,
            conversions,
            reductions,
            banked,
            turn_tab,
            turn_progress,
        } = stats;
        let phase = match *phase {
            Phase::Opening { thrower } => thrower.index() as u64,
            Phase::Throwing { player } => 2 | player.index() as u64,
            Phase::Moving { player } => 4 | player.index() as u64,
            Phase::Over => 6,
        };
        let w = |x: u16, y: u16, z: u16, t: u16| {
            u64::from(x) | u64::from(y) << 16 | u64::from(z) << 32 | u64::from(t) << 48
        };
        let pair = |x: u32, y: u32| u64::from(x) | u64::from(y) << 32;
        h.write_u64(pending.0);
        h.write_u64(w(bank[0], bank[1], captured[0], captured[1]));
        h.write_u64(w(
            removed[0],
            removed[1],
            u16::from(alive[0]) | u16::from(alive[1]) << 8,
            u16::from(*extra) | (phase as u16) << 1 | u16::from(*turn_tab) << 4
                | u16::from(*turn_progress) << 5,
        ));
        h.write_u64(pair(*turns, *actions));
        h.write_u64(pair(u32::from(*no_progress), u32::from(*opening_throws)));
        h.write_u64(pair(*throws, *tab_turns));
        h.write_u64(pair(*conversions, *reductions));
        h.write_u64(u64::from(*banked));
        over.hash(h);
    }
}

/// `ROW_OF[columns][square]`: the row of a square, without a division.
pub(super) static ROW_OF: [[u8; MAX_SQUARES]; 30] = {
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
pub(super) static ROW_MASK: [[u128; 4]; 30] = {
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

/// `BITS[sq]`: the mask of one square (a load is cheaper than a 128-bit shift); 0 for
/// [`NONE`].
pub(super) static BITS: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut sq = 0;
    while sq < 128 {
        t[sq] = 1 << sq;
        sq += 1;
    }
    t
};

#[inline(always)]
pub(super) fn bit(sq: u8) -> u128 {
    BITS[usize::from(sq)]
}

/// `ROW_BIT[columns][sq]`: the bit of a square's row; 0 off the board and for [`NONE`].
pub(super) static ROW_BIT: [[u8; 256]; 30] = {
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

impl Position {
    /// The start of a game under `rules` (L-3, H-2, M-1).
    pub(super) fn new(rules: Ruleset) -> Position {
        let n = rules.piece_count();
        let mut s = Position {
            rules,
            digest: [0; 2],
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
        s.digest = s.full_digest();
        debug_assert!(s.check_derived().is_ok());
        s
    }

    /// Recomputes the derived fields (`unconv`, `entered`, `occ`, `conv_sq`, `unconv_sq`,
    /// `digest`) from the pieces and the board.
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
        self.digest = self.full_digest();
    }

    /// Brings `me`'s derived square sets up to date at `sq` after the board changed there.
    #[inline(always)]
    pub(super) fn refresh_square(&mut self, me: usize, sq: u8) {
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
}
