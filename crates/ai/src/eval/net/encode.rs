//! The network's inputs: a sparse vector of a few dozen non-zero numbers describing a state
//! from the side of the player in turn ("us").
//!
//! Squares are numbered along us's own board: for White as they are, for Black through the
//! point reflection that maps his track onto White's (the tracks are built that way, see
//! `qasab_core::tab`), so one network plays both sides and learns from both. The value the
//! network gives is us's; the other side's is its negation.
//!
//! **`tab-v1`** (`tab`, `tab-hyde`, `tab-modern`), on a board of `n` columns (`S = 4n`
//! squares): for each side (us, then them) and each square, [`TAB_PER_SQUARE`] inputs:
//!
//! | k | input |
//! |---|---|
//! | 0–3 | the side's unit there has at least 1, 2, 3, 4 pieces |
//! | 4 | one of them is not converted (L-9c) |
//! | 5 | one of them has been in the enemy home row (L-10) |
//! | 6, 7 | the enemy-row rule holds the unit: frozen, or kept in the row (L-11) |
//! | 8 | the stack is dissolved (L-14) |
//! | 9–13 | a stack: moving it whole by 1, 2, 3, 4, 6 squares (either way at a branch) would reduce it, as its pieces' histories say (L-15) |
//!
//! then `2·S·14` onwards: the pending throws of the player in turn (at least 1, 2, 3 of each
//! of 1, 2, 3, 4, 6: 15), each side's banked tâbs (at least 1 to 4: 8), the phase (throwing,
//! moving, the opening: 3), a throw to come with interleaved timing (1), each side's pieces on
//! the board (at least 1 to `n`: `2n`), each side's captures (at least 1 to `n`: `2n`), and
//! how near a safety limit is (L-18: `1 − r/10` for `r` turns left, 0 beyond ten: 1).
//!
//! **`tab-v2`** (the encoding new `tab`, `tab-hyde` and `tab-modern` networks are trained on):
//! `tab-v1`, then the threats one throw makes, counted as backgammon programs count shots:
//! for each side (us, then them) and each square, [`THREAT_PER_SQUARE`] inputs, set when the
//! side's unit there would be hit by one throw of the enemy of 1, 2, 3, 4, 6; then for each
//! side (us, then them) [`THREAT_PER_SIDE`] inputs: the chance that one throw of his hits an
//! enemy unit (the throws' probabilities summed), and the largest unit one throw of his hits
//! (at least 1 to 4 pieces). A hit here is a landing on an enemy unit by the track's geometry,
//! for a unit that may move (see `threats`).
//!
//! **`tab-ludii-v1`** (`tab-ludii`, `tab-hyde-ludii`): per side and square, the unit's pieces
//! (at least 1 to 4) and whether it is locked (LH-3): 5; then the throw to play (one of five),
//! the main phase (LT-2), each side's pieces (at least 1 to `2n`: `4n`), each side's score
//! (at least 1 to `2n`: `4n`), and the nearness of Ludii's limits (1).
//!
//! **`tab-ludii-v2`** (the encoding new `tab-ludii` and `tab-hyde-ludii` networks are trained
//! on): `tab-ludii-v1`, then the same threat inputs as `tab-v2`, by the Ludii tracks (see
//! `ludii_threats`).
//!
//! The numbers are laid out once in [`Encoding`]; `docs/players.md` has the same tables. Each
//! game's encodings are written in its own folder (`crate::games::tab::encode`,
//! `crate::games::tab_ludii::encode`); the inputs they share (the threats, the nearness of
//! a limit) are here.

use qasab_core::sticks::Throw;
use qasab_core::{GameState, Player};

/// A sparse input vector: the non-zero inputs, each with its value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    size: usize,
    active: Vec<(u32, f32)>,
}

impl Features {
    /// An empty vector of `size` inputs.
    pub fn new(size: usize) -> Features {
        Features {
            size,
            active: Vec::with_capacity(96),
        }
    }

    /// Clears the vector and sets its size.
    pub fn reset(&mut self, size: usize) {
        self.size = size;
        self.active.clear();
    }

    /// Sets input `i` (not set before) to `v`.
    #[inline]
    pub fn push(&mut self, i: u32, v: f32) {
        debug_assert!((i as usize) < self.size);
        self.active.push((i, v));
    }

    /// Sets inputs `base..base + k` to 1: "at least 1, …, at least k" for a count `k`
    /// (capped at `max`).
    #[inline]
    pub(crate) fn at_least(&mut self, base: usize, count: u32, max: usize) {
        for j in 0..(count as usize).min(max) {
            self.push((base + j) as u32, 1.0);
        }
    }

    /// The non-zero inputs.
    pub fn active(&self) -> &[(u32, f32)] {
        &self.active
    }

    /// The number of inputs.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The dense vector.
    pub fn dense(&self) -> Vec<f32> {
        let mut d = vec![0.0; self.size];
        for &(i, v) in &self.active {
            d[i as usize] = v;
        }
        d
    }
}

/// [`Encoding::columns`] of an encoding that reads every board of its family (`tab-v3`).
pub const ANY_BOARD: u8 = 0;

/// An encoding of one family on one board size (or on every one): its name (stored with a network's weights, so
/// that a network is never read with inputs it was not trained on) and its size. A family
/// keeps its older encodings readable, so networks trained on them still play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// One of [`ENCODINGS`].
    pub name: &'static str,
    /// The board's columns, or [`ANY_BOARD`].
    pub columns: u8,
    /// The number of inputs.
    pub inputs: usize,
}

/// Inputs per side and square in `tab-v1`.
pub const TAB_PER_SQUARE: usize = 14;
/// Inputs per side and square in `tab-ludii-v1`.
pub const LUDII_PER_SQUARE: usize = 5;
/// Threat inputs per side and square in `tab-v2`: the unit there is hit by one throw of 1, 2,
/// 3, 4, 6.
pub const THREAT_PER_SQUARE: usize = 5;
/// Threat inputs per side in `tab-v2`: the chance that one throw hits, and the largest unit
/// one throw hits (at least 1 to 4 pieces).
pub const THREAT_PER_SIDE: usize = 5;
/// The throws in input order.
pub(crate) const THROWS: [Throw; 5] = Throw::ALL;

/// The encodings this version reads, by name: a network's file names its encoding, and is
/// read only with the inputs it was trained on.
pub const ENCODINGS: [&str; 5] = ["tab-v1", "tab-v2", "tab-v3", "tab-ludii-v1", "tab-ludii-v2"];

/// A game whose states the network reads.
pub trait Encode: GameState {
    /// The encoding new networks for `rules` are trained on: the newest of its family.
    fn encoding(rules: &Self::Ruleset) -> Encoding;

    /// The encoding called `name` on the board of `rules`, if it is one of `rules`'s family
    /// ([`ENCODINGS`]): what a network trained on an older encoding reads.
    fn encoding_named(rules: &Self::Ruleset, name: &str) -> Option<Encoding>;

    /// The encoding of `rules`'s family that reads every board and reading of it, if it has
    /// one: what a network trained across the family's readings is trained on.
    fn board_free_encoding(_rules: &Self::Ruleset) -> Option<Encoding> {
        None
    }

    /// The rule options a board-free encoding reads, as one line (`key=v1|v2;…`), stored in a
    /// network's file so that a network is not read with another list.
    fn option_layout(_rules: &Self::Ruleset) -> Option<String> {
        None
    }

    /// The family of `rules` for which networks are trained and shipped (its preset's name).
    fn family(rules: &Self::Ruleset) -> &'static str;

    /// Fills `out` with the state's inputs in the encoding `enc` (one of its ruleset's) and
    /// returns the side they describe as "us" (the player in turn; White in an opening that
    /// has none). Not called on a finished game.
    fn encode(&self, enc: Encoding, out: &mut Features) -> Player;
}

/// The square `s` seen by `us`: itself for White, its point reflection for Black.
#[inline]
pub(crate) fn relative(us: Player, s: u8, squares: usize) -> usize {
    match us {
        Player::One => usize::from(s),
        Player::Two => squares - 1 - usize::from(s),
    }
}

/// `1 − r/10` for `factor = min(1, r/10)`: how near a safety limit is.
#[inline]
pub(crate) fn nearness(factor: f64) -> f32 {
    (1.0 - factor) as f32
}

/// The squares of `mask`, in increasing order.
#[inline]
pub(crate) fn squares_of(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            s
        })
    })
}

/// The threat inputs on a board of `squares` squares: [`THREAT_PER_SQUARE`] per side and
/// square, [`THREAT_PER_SIDE`] per side.
#[inline]
pub(crate) fn threat_input_count(squares: usize) -> usize {
    2 * squares * THREAT_PER_SQUARE + 2 * THREAT_PER_SIDE
}

/// The units a threat input reads, by square (bit `s` of a mask for square `s`).
pub(crate) struct ThreatBoard {
    /// The board's squares.
    pub(crate) squares: usize,
    /// The squares of each side's units, by [`Player::index`].
    pub(crate) occupied: [u128; 2],
    /// The units of each side that may move at all.
    pub(crate) movers: [u128; 2],
}

/// What one throw of either side would hit: the facts the threat inputs are written from
/// ([`write_threats`]).
pub(crate) struct Hits {
    /// Per square, bit `k` when the enemy of its unit hits it with the throw `THROWS[k]`.
    pub(crate) attacked: [u8; qasab_core::grid::MAX_SQUARES],
    /// Per side, by [`Player::index`]: bit `k` when some throw `THROWS[k]` of his hits.
    pub(crate) hitting: [u8; 2],
    /// Per side: the pieces of the largest enemy unit one of his throws hits.
    pub(crate) largest: [u32; 2],
}

impl Default for Hits {
    fn default() -> Self {
        Hits {
            attacked: [0; qasab_core::grid::MAX_SQUARES],
            hitting: [0; 2],
            largest: [0; 2],
        }
    }
}

impl Hits {
    /// Notes that a throw `THROWS[k]` of `o` hits the enemy unit of `size` pieces on `to`.
    #[inline]
    pub(crate) fn hit(&mut self, o: Player, k: usize, to: u8, size: u32) {
        self.attacked[usize::from(to)] |= 1 << k;
        self.hitting[o.index()] |= 1 << k;
        self.largest[o.index()] = self.largest[o.index()].max(size);
    }
}

/// The threat inputs shared by `tab-v2` and `tab-ludii-v2`, from `at` on: per side and square,
/// the throws of the enemy (1, 2, 3, 4, 6) one of whose units lands on the unit there; per
/// side, the chance that one throw of his lands on an enemy unit (the throws' probabilities
/// summed) and the largest unit such a throw takes (at least 1 to 4 pieces).
///
/// `reach(o, s)` gives, per throw in [`THROWS`] order, where `o`'s unit on `s` may land (the
/// main way and a branch); `size(s)` the pieces of the unit on `s`; `odds()` the ruleset's
/// throw weights, read only when some unit is hit.
#[inline]
pub(crate) fn threat_inputs(
    board: &ThreatBoard,
    us: Player,
    reach: impl Fn(Player, u8) -> [[Option<u8>; 2]; 5],
    size: impl Fn(u8) -> u32,
    odds: impl FnOnce() -> ([qasab_core::Weighted<Throw>; 5], u32),
    at: usize,
    out: &mut Features,
) {
    let mut hits = Hits::default();
    for o in [Player::One, Player::Two] {
        let enemy = board.occupied[(!o).index()];
        for s in squares_of(board.movers[o.index()]) {
            for (k, ways) in reach(o, s).into_iter().enumerate() {
                for to in ways.into_iter().flatten() {
                    if enemy & (1 << to) != 0 {
                        hits.hit(o, k, to, size(to));
                    }
                }
            }
        }
    }
    write_threats(board, us, &hits, odds, at, out);
}

/// Writes the threat inputs of [`threat_inputs`] from what each side's throws hit.
#[inline]
pub(crate) fn write_threats(
    board: &ThreatBoard,
    us: Player,
    hits: &Hits,
    odds: impl FnOnce() -> ([qasab_core::Weighted<Throw>; 5], u32),
    at: usize,
    out: &mut Features,
) {
    let squares = board.squares;
    let Hits {
        attacked,
        hitting,
        largest,
    } = hits;
    for s in squares_of(board.occupied[0] | board.occupied[1]) {
        let bits = attacked[usize::from(s)];
        if bits == 0 {
            continue;
        }
        let mine = board.occupied[us.index()] & (1 << s) != 0;
        let base =
            at + (usize::from(!mine) * squares + relative(us, s, squares)) * THREAT_PER_SQUARE;
        for k in (0..THREAT_PER_SQUARE).filter(|k| bits & (1 << k) != 0) {
            out.push((base + k) as u32, 1.0);
        }
    }
    // The chance of each throw, read only when a side hits something.
    let chance_of = || {
        let (odds, total) = odds();
        let mut chance_of = [0f32; 5];
        for w in &odds {
            chance_of[w.outcome.index()] = w.weight as f32 / total as f32;
        }
        chance_of
    };
    let chances = (*hitting != [0, 0]).then(chance_of).unwrap_or_default();
    let sides = at + 2 * squares * THREAT_PER_SQUARE;
    for (j, p) in [us, !us].into_iter().enumerate() {
        let base = sides + j * THREAT_PER_SIDE;
        let chance: f32 = (0..5)
            .filter(|k| hitting[p.index()] & (1 << k) != 0)
            .map(|k| chances[k])
            .sum();
        if chance > 0.0 {
            out.push(base as u32, chance);
        }
        out.at_least(base + 1, largest[p.index()], 4);
    }
}

/// Whether Black's track is the point reflection of White's on `columns` for a game whose
/// geometry `dest(p, square, steps)` gives: the symmetry the encoding relies on.
pub fn tracks_are_point_symmetric(
    columns: u8,
    dest: impl Fn(Player, u8, u8) -> [Option<u8>; 2],
) -> bool {
    let len = 4 * columns;
    let m = |s: Option<u8>| s.map(|s| len - 1 - s);
    (0..len).all(|s| {
        (1..=6).all(|k| {
            let w = dest(Player::One, s, k);
            let b = dest(Player::Two, len - 1 - s, k);
            let mut a = [m(w[0]), m(w[1])];
            let mut b = b;
            a.sort();
            b.sort();
            a == b
        })
    })
}
