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
//! The numbers are laid out once in [`Encoding`]; `docs/players.md` has the same tables.

use qasab_core::grid::Square;
use qasab_core::sticks::Throw;
use qasab_core::tab_ludii;
use qasab_core::{GameState, Player, tab};

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
    fn at_least(&mut self, base: usize, count: u32, max: usize) {
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

/// An encoding of one family on one board size: its name (stored with a network's weights, so
/// that a network is never read with inputs it was not trained on) and its size. A family
/// keeps its older encodings readable, so networks trained on them still play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// One of [`ENCODINGS`].
    pub name: &'static str,
    /// The board's columns.
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
const THROWS: [Throw; 5] = Throw::ALL;

/// The encodings this version reads, by name: a network's file names its encoding, and is
/// read only with the inputs it was trained on.
pub const ENCODINGS: [&str; 4] = ["tab-v1", "tab-v2", "tab-ludii-v1", "tab-ludii-v2"];

/// A game whose states the network reads.
pub trait Encode: GameState {
    /// The encoding new networks for `rules` are trained on: the newest of its family.
    fn encoding(rules: &Self::Ruleset) -> Encoding;

    /// The encoding called `name` on the board of `rules`, if it is one of `rules`'s family
    /// ([`ENCODINGS`]): what a network trained on an older encoding reads.
    fn encoding_named(rules: &Self::Ruleset, name: &str) -> Option<Encoding>;

    /// The family of `rules` for which networks are trained and shipped (its preset's name).
    fn family(rules: &Self::Ruleset) -> &'static str;

    /// Fills `out` with the state's inputs in the encoding `enc` (one of its ruleset's) and
    /// returns the side they describe as "us" (the player in turn; White in an opening that
    /// has none). Not called on a finished game.
    fn encode(&self, enc: Encoding, out: &mut Features) -> Player;
}

/// The square `s` seen by `us`: itself for White, its point reflection for Black.
#[inline]
fn relative(us: Player, s: u8, squares: usize) -> usize {
    match us {
        Player::One => usize::from(s),
        Player::Two => squares - 1 - usize::from(s),
    }
}

/// `1 − r/10` for `factor = min(1, r/10)`: how near a safety limit is.
fn nearness(factor: f64) -> f32 {
    (1.0 - factor) as f32
}

/// The inputs of `tab-v1` on `n` columns; `tab-v2` adds [`THREAT_PER_SQUARE`] per side and
/// square and [`THREAT_PER_SIDE`] per side.
fn tab_v1_inputs(n: usize) -> usize {
    2 * 4 * n * TAB_PER_SQUARE + 15 + 8 + 3 + 1 + 4 * n + 1
}

impl Encode for tab::State {
    fn encoding(rules: &tab::Ruleset) -> Encoding {
        Self::encoding_named(rules, "tab-v2").expect("tab-v2 is tab's")
    }

    fn encoding_named(rules: &tab::Ruleset, name: &str) -> Option<Encoding> {
        let n = usize::from(rules.columns);
        let inputs = match name {
            "tab-v1" => tab_v1_inputs(n),
            "tab-v2" => tab_v1_inputs(n) + threat_input_count(4 * n),
            _ => return None,
        };
        let name = ENCODINGS.into_iter().find(|&e| e == name)?;
        Some(Encoding {
            name,
            columns: rules.columns,
            inputs,
        })
    }

    fn family(rules: &tab::Ruleset) -> &'static str {
        rules.preset.name()
    }

    fn encode(&self, enc: Encoding, out: &mut Features) -> Player {
        let rules = self.ruleset();
        out.reset(enc.inputs);
        let us = self.player_in_turn().unwrap_or(Player::One);
        let grid = self.grid();
        let n = usize::from(rules.columns);
        let squares = grid.len();
        // What each square's unit holds, read from the pieces once.
        let mut unconverted = [false; qasab_core::grid::MAX_SQUARES];
        let mut entered = unconverted;
        for p in [Player::One, Player::Two] {
            for i in 0..rules.piece_count() {
                if let Some(v) = self.piece(p, i) {
                    let s = usize::from(v.square.0);
                    unconverted[s] |= !v.converted;
                    entered[s] |= v.entered_enemy_row;
                }
            }
        }
        let occupied = [self.occupied(Player::One), self.occupied(Player::Two)];
        let mut frozen = 0u128;
        // The occupied squares in square order, as a scan of the whole grid would meet them.
        for s in squares_of(occupied[0] | occupied[1]) {
            let sq = Square(s);
            let Some((owner, count)) = self.unit_at(sq) else {
                continue;
            };
            let hold = self.enemy_row_hold(sq);
            if hold == Some(true) {
                frozen |= 1 << s;
            }
            let side = usize::from(owner != us);
            let base = (side * squares + relative(us, s, squares)) * TAB_PER_SQUARE;
            out.at_least(base, count, 4);
            let s = usize::from(s);
            if unconverted[s] {
                out.push((base + 4) as u32, 1.0);
            }
            if entered[s] {
                out.push((base + 5) as u32, 1.0);
            }
            match hold {
                Some(true) => out.push((base + 6) as u32, 1.0),
                Some(false) => out.push((base + 7) as u32, 1.0),
                None => {}
            }
            if count > 1 {
                if self.is_dissolved(sq) {
                    out.push((base + 8) as u32, 1.0);
                }
                for (k, t) in THROWS.into_iter().enumerate() {
                    let reduces = self
                        .track_destinations(owner, sq, t.value())
                        .into_iter()
                        .flatten()
                        .any(|to| self.unit_reduces(sq, to));
                    if reduces {
                        out.push((base + 9 + k) as u32, 1.0);
                    }
                }
            }
        }
        let mut at = 2 * squares * TAB_PER_SQUARE;
        for t in THROWS {
            out.at_least(at, self.pending_count(t), 3);
            at += 3;
        }
        let bank = self.banked();
        out.at_least(at, bank[us], 4);
        out.at_least(at + 4, bank[!us], 4);
        at += 8;
        let phase = match (self.player_in_turn(), self.throws_to_come()) {
            (None, _) => 2,
            (Some(_), _) if matches!(self.turn(), qasab_core::Turn::Chance) => 0,
            _ => 1,
        };
        out.push((at + phase) as u32, 1.0);
        at += 3;
        if phase == 1 && self.throws_to_come() {
            out.push(at as u32, 1.0);
        }
        at += 1;
        let on_board = self.pieces_on_board();
        out.at_least(at, on_board[us], n);
        out.at_least(at + n, on_board[!us], n);
        at += 2 * n;
        let captures = self.scores();
        out.at_least(at, captures[us], n);
        out.at_least(at + n, captures[!us], n);
        at += 2 * n;
        let near = nearness(crate::eval::limits::tab(self));
        if near > 0.0 {
            out.push(at as u32, near);
        }
        at += 1;
        if enc.name == "tab-v2" {
            let units = Units {
                occupied,
                unconverted,
                entered,
                frozen,
            };
            threats(self, us, &units, at, out);
            at += threat_input_count(squares);
        }
        debug_assert_eq!(at, enc.inputs);
        us
    }
}

/// What the threat inputs read of the units, by square (bit `s` of a mask for square `s`).
struct Units {
    /// The squares of each side's units, by [`Player::index`].
    occupied: [u128; 2],
    /// The unit holds a piece not yet converted: it moves only with a tâb, one step (L-9c).
    unconverted: [bool; qasab_core::grid::MAX_SQUARES],
    /// The unit holds a piece that has been in the enemy home row: it may not enter again
    /// (L-10).
    entered: [bool; qasab_core::grid::MAX_SQUARES],
    /// The enemy-row rule keeps the unit from moving at all (L-11).
    frozen: u128,
}

/// The squares of `mask`, in increasing order.
fn squares_of(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            s
        })
    })
}

/// The threat inputs of `tab-v2`, from `at` on: which units one throw of the enemy would hit,
/// and for each side the chance that one throw of his hits and the largest unit it would take.
///
/// The hits are those of the geometry of the track ([`tab::State::throw_destinations`]) for
/// units that may move: a unit with an unconverted piece only with a tâb (L-9c), a frozen one
/// not at all (L-11), the branch into the enemy row only for units that have not been there
/// (L-10); a landing on an enemy unit takes it (L-16). A first-order view, like backgammon's
/// shot counts: the rules' own generator would be exact but would run ten times for every
/// state valued, and the network reads the rest (stacks, the throws in hand) from the other
/// inputs.
fn threats(state: &tab::State, us: Player, units: &Units, at: usize, out: &mut Features) {
    let board = ThreatBoard {
        squares: state.grid().len(),
        occupied: units.occupied,
        movers: [
            units.occupied[0] & !units.frozen,
            units.occupied[1] & !units.frozen,
        ],
    };
    let reach = |o: Player, s: u8| {
        let (unconverted, entered) = (units.unconverted[s as usize], units.entered[s as usize]);
        let mut reach = [[None; 2]; 5];
        for (r, (t, [main, branch])) in reach.iter_mut().zip(
            THROWS
                .into_iter()
                .zip(state.throw_destinations(o, Square(s))),
        ) {
            if !unconverted || t.is_tab() {
                *r = [main.map(|q| q.0), branch.filter(|_| !entered).map(|q| q.0)];
            }
        }
        reach
    };
    let size = |s: u8| state.unit_at(Square(s)).map_or(0, |(_, c)| c);
    let odds = || state.ruleset().odds.weights();
    threat_inputs(&board, us, reach, size, odds, at, out);
}

/// The threat inputs on a board of `squares` squares: [`THREAT_PER_SQUARE`] per side and
/// square, [`THREAT_PER_SIDE`] per side.
fn threat_input_count(squares: usize) -> usize {
    2 * squares * THREAT_PER_SQUARE + 2 * THREAT_PER_SIDE
}

/// The units a threat input reads, by square (bit `s` of a mask for square `s`).
struct ThreatBoard {
    /// The board's squares.
    squares: usize,
    /// The squares of each side's units, by [`Player::index`].
    occupied: [u128; 2],
    /// The units of each side that may move at all.
    movers: [u128; 2],
}

/// The threat inputs shared by `tab-v2` and `tab-ludii-v2`, from `at` on: per side and square,
/// the throws of the enemy (1, 2, 3, 4, 6) one of whose units lands on the unit there; per
/// side, the chance that one throw of his lands on an enemy unit (the throws' probabilities
/// summed) and the largest unit such a throw takes (at least 1 to 4 pieces).
///
/// `reach(o, s)` gives, per throw in [`THROWS`] order, where `o`'s unit on `s` may land (the
/// main way and a branch); `size(s)` the pieces of the unit on `s`; `odds()` the ruleset's
/// throw weights, read only when some unit is hit.
fn threat_inputs(
    board: &ThreatBoard,
    us: Player,
    reach: impl Fn(Player, u8) -> [[Option<u8>; 2]; 5],
    size: impl Fn(u8) -> u32,
    odds: impl FnOnce() -> ([qasab_core::Weighted<Throw>; 5], u32),
    at: usize,
    out: &mut Features,
) {
    let squares = board.squares;
    // Per square, bit k when the enemy of its unit hits it with the throw THROWS[k]; per
    // side, the throws that hit something, and the largest unit they hit.
    let mut attacked = [0u8; qasab_core::grid::MAX_SQUARES];
    let mut hitting = [0u8; 2];
    let mut largest = [0u32; 2];
    for o in [Player::One, Player::Two] {
        let enemy = board.occupied[(!o).index()];
        for s in squares_of(board.movers[o.index()]) {
            for (k, ways) in reach(o, s).into_iter().enumerate() {
                for to in ways.into_iter().flatten() {
                    if enemy & (1 << to) != 0 {
                        attacked[usize::from(to)] |= 1 << k;
                        hitting[o.index()] |= 1 << k;
                        largest[o.index()] = largest[o.index()].max(size(to));
                    }
                }
            }
        }
    }
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
    let chances = (hitting != [0, 0]).then(chance_of).unwrap_or_default();
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

/// The inputs of `tab-ludii-v1` on `n` columns; `tab-ludii-v2` adds [`THREAT_PER_SQUARE`] per
/// side and square and [`THREAT_PER_SIDE`] per side.
fn tab_ludii_v1_inputs(n: usize) -> usize {
    2 * 4 * n * LUDII_PER_SQUARE + 5 + 1 + 8 * n + 1
}

impl Encode for tab_ludii::State {
    fn encoding(rules: &tab_ludii::Ruleset) -> Encoding {
        Self::encoding_named(rules, "tab-ludii-v2").expect("tab-ludii-v2 is Ludii's")
    }

    fn encoding_named(rules: &tab_ludii::Ruleset, name: &str) -> Option<Encoding> {
        let n = usize::from(rules.columns());
        let inputs = match name {
            "tab-ludii-v1" => tab_ludii_v1_inputs(n),
            "tab-ludii-v2" => tab_ludii_v1_inputs(n) + threat_input_count(4 * n),
            _ => return None,
        };
        let name = ENCODINGS.into_iter().find(|&e| e == name)?;
        Some(Encoding {
            name,
            columns: rules.columns(),
            inputs,
        })
    }

    fn family(rules: &tab_ludii::Ruleset) -> &'static str {
        rules.game().name()
    }

    fn encode(&self, enc: Encoding, out: &mut Features) -> Player {
        let rules = self.rules();
        out.reset(enc.inputs);
        let us = self.mover();
        let n = usize::from(rules.columns());
        let squares = 4 * n;
        // The squares of each side's units, by `Player::index`, for the threat inputs.
        let mut occupied = [0u128; 2];
        for s in 0..squares as u8 {
            let Some((owner, count)) = self.unit_at(s) else {
                continue;
            };
            occupied[owner.index()] |= 1 << s;
            let side = usize::from(owner != us);
            let base = (side * squares + relative(us, s, squares)) * LUDII_PER_SQUARE;
            out.at_least(base, u32::from(count), 4);
            if self.is_locked(s) {
                out.push((base + 4) as u32, 1.0);
            }
        }
        let mut at = 2 * squares * LUDII_PER_SQUARE;
        if let Some(t) = self.pending_throw() {
            out.push((at + t.index()) as u32, 1.0);
        }
        at += 5;
        if self.in_main_phase() {
            out.push(at as u32, 1.0);
        }
        at += 1;
        out.at_least(at, self.pieces(us), 2 * n);
        out.at_least(at + 2 * n, self.pieces(!us), 2 * n);
        at += 4 * n;
        let scores = self.scores();
        out.at_least(at, scores[us], 2 * n);
        out.at_least(at + 2 * n, scores[!us], 2 * n);
        at += 4 * n;
        let near = nearness(crate::eval::limits::tab_ludii(self));
        if near > 0.0 {
            out.push(at as u32, near);
        }
        at += 1;
        if enc.name == "tab-ludii-v2" {
            ludii_threats(self, us, occupied, at, out);
            at += threat_input_count(squares);
        }
        debug_assert_eq!(at, enc.inputs);
        us
    }
}

/// The threat inputs of `tab-ludii-v2`, from `at` on ([`threat_inputs`]): the landings of one
/// throw on an enemy unit, by the geometry of the tracks ([`tab_ludii::State::track_destinations`])
/// for units that may move: none before the first 1 of Tab's opening (LT-2), a locked piece
/// only with a 1 (LH-3); landing on enemy pieces takes them (LT-7, LH-4). A first-order view,
/// as in `tab-v2`: the track counts (LT-6), the open enemy row (LT-5, LH-5) and the landing
/// rules on own units are not consulted.
///
/// `occupied` holds the squares of each side's units, by [`Player::index`].
fn ludii_threats(
    state: &tab_ludii::State,
    us: Player,
    occupied: [u128; 2],
    at: usize,
    out: &mut Features,
) {
    let squares = 4 * usize::from(state.rules().columns());
    let movers = if state.in_main_phase() {
        occupied
    } else {
        [0, 0]
    };
    let board = ThreatBoard {
        squares,
        occupied,
        movers,
    };
    let reach = |o: Player, s: u8| {
        let locked = state.is_locked(s);
        let mut reach = [[None; 2]; 5];
        for (r, t) in reach.iter_mut().zip(THROWS) {
            if !locked || t.is_tab() {
                *r = state.track_destinations(o, s, t.value());
            }
        }
        reach
    };
    let size = |s: u8| state.unit_at(s).map_or(0, |(_, c)| u32::from(c));
    let odds = || {
        let (weights, total) = state.rules().throw_weights();
        (*weights, total)
    };
    threat_inputs(&board, us, reach, size, odds, at, out);
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
