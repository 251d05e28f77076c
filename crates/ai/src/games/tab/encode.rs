//! The network's inputs for the Tâb family: `tab-v1`, `tab-v2` and the board-free `tab-v3`
//! (the tables are in [`crate::eval::net::encode`]).

use std::sync::OnceLock;

use qasab_core::grid::Square;
use qasab_core::{GameState, Player, tab};

use crate::eval::net::encode::{
    ANY_BOARD, ENCODINGS, Encode, Encoding, Features, Hits, TAB_PER_SQUARE, THREAT_PER_SIDE,
    THREAT_PER_SQUARE, THROWS, ThreatBoard, nearness, relative, squares_of, threat_input_count,
    write_threats,
};
use crate::games::tab::eval::limit_factor;

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
        let (inputs, columns) = match name {
            "tab-v1" => (tab_v1_inputs(n), rules.columns),
            "tab-v2" => (tab_v1_inputs(n) + threat_input_count(4 * n), rules.columns),
            "tab-v3" => (v3::inputs(), ANY_BOARD),
            _ => return None,
        };
        let name = ENCODINGS.into_iter().find(|&e| e == name)?;
        Some(Encoding {
            name,
            columns,
            inputs,
        })
    }

    fn board_free_encoding(rules: &tab::Ruleset) -> Option<Encoding> {
        Self::encoding_named(rules, "tab-v3")
    }

    fn option_layout(_: &tab::Ruleset) -> Option<String> {
        Some(v3::layout().1.clone())
    }

    fn family(rules: &tab::Ruleset) -> &'static str {
        rules.preset.name()
    }

    fn encode(&self, enc: Encoding, out: &mut Features) -> Player {
        if enc.name == "tab-v3" {
            return v3::encode(self, out);
        }
        let rules = self.ruleset();
        out.reset(enc.inputs);
        let us = self.player_in_turn().unwrap_or(Player::One);
        let grid = self.grid();
        let n = usize::from(rules.columns);
        let squares = grid.len();
        // What each square's unit holds, read from the pieces once.
        let (unconverted, entered) = piece_marks(self);
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
            if unconverted & (1 << s) != 0 {
                out.push((base + 4) as u32, 1.0);
            }
            if entered & (1 << s) != 0 {
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
        let near = nearness(limit_factor(self));
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
    unconverted: u128,
    /// The unit holds a piece that has been in the enemy home row: it may not enter again
    /// (L-10).
    entered: u128,
    /// The enemy-row rule keeps the unit from moving at all (L-11).
    frozen: u128,
}

/// The squares whose unit holds a piece not yet converted, and those whose unit holds a piece
/// that has been in the enemy home row ([`Units`]), read from the pieces once.
fn piece_marks(state: &tab::State) -> (u128, u128) {
    let (mut unconverted, mut entered) = (0u128, 0u128);
    for p in [Player::One, Player::Two] {
        for i in 0..state.ruleset().piece_count() {
            if let Some(v) = state.piece(p, i) {
                unconverted |= u128::from(!v.converted) << v.square.0;
                entered |= u128::from(v.entered_enemy_row) << v.square.0;
            }
        }
    }
    (unconverted, entered)
}

/// For one side's track on one board: per square and throw (in [`THROWS`] order), the squares
/// from which a unit of that side lands there, by the main way and by the branch into the
/// enemy row.
type Sources = [[[u128; 2]; 5]; qasab_core::grid::MAX_SQUARES];

/// The [`Sources`] of `p`'s track on `state`'s board, built from the track's geometry
/// ([`tab::State::throw_destinations`]) the first time a board and track are met.
fn sources(state: &tab::State, p: Player) -> &'static Sources {
    const BOARDS: usize = 4 * (qasab_core::grid::MAX_COLUMNS as usize + 1);
    static TABLES: [OnceLock<Box<Sources>>; BOARDS] = [const { OnceLock::new() }; BOARDS];
    let rules = state.ruleset();
    let one_way = rules.track == tab::Track::OneWay;
    let key = (usize::from(rules.columns) * 2 + usize::from(one_way)) * 2 + p.index();
    TABLES[key].get_or_init(|| {
        let mut from = Box::new([[[0u128; 2]; 5]; qasab_core::grid::MAX_SQUARES]);
        for s in 0..state.grid().len() as u8 {
            for (k, ways) in state.throw_destinations(p, Square(s)).into_iter().enumerate() {
                for (way, to) in ways.into_iter().enumerate() {
                    if let Some(to) = to {
                        from[usize::from(to.0)][k][way] |= 1 << s;
                    }
                }
            }
        }
        from
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
///
/// Each enemy unit is looked up in the track read backwards ([`sources`]): the squares from
/// which each throw reaches it, masked with the units that may make that throw.
fn threats(state: &tab::State, us: Player, units: &Units, at: usize, out: &mut Features) {
    let board = threat_board(state, units);
    let mut hits = Hits::default();
    for o in [Player::One, Player::Two] {
        let from = sources(state, o);
        let movers = board.movers[o.index()];
        // Units with an unconverted piece move only with a tâb.
        let converted = movers & !units.unconverted;
        for to in squares_of(board.occupied[(!o).index()]) {
            let mut size = None;
            for (k, [main, branch]) in from[usize::from(to)].iter().enumerate() {
                let may = if THROWS[k].is_tab() { movers } else { converted };
                if (main | (branch & !units.entered)) & may != 0 {
                    let size = *size.get_or_insert_with(|| unit_size(state, to));
                    hits.hit(o, k, to, size);
                }
            }
        }
    }
    write_threats(&board, us, &hits, || state.ruleset().odds.weights(), at, out);
}

/// The units the threat inputs read.
fn threat_board(state: &tab::State, units: &Units) -> ThreatBoard {
    ThreatBoard {
        squares: state.grid().len(),
        occupied: units.occupied,
        movers: [
            units.occupied[0] & !units.frozen,
            units.occupied[1] & !units.frozen,
        ],
    }
}

/// The pieces of the unit on square `s`.
fn unit_size(state: &tab::State, s: u8) -> u32 {
    state.unit_at(Square(s)).map_or(0, |(_, c)| c)
}

#[cfg(test)]
mod tests {
    use qasab_core::{GameState, Player, Ruleset as _, Turn, tab};

    use super::{Units, piece_marks, squares_of, threat_board, threats, unit_size};
    use crate::eval::net::encode::{Features, THROWS, threat_inputs};
    use crate::rng::{below, pick_weighted, rng_from_seed};

    /// The threat inputs as first written: each movable unit's destinations read forwards
    /// from the track, one unit at a time.
    fn threats_forwards(
        state: &tab::State,
        us: Player,
        units: &Units,
        at: usize,
        out: &mut Features,
    ) {
        let reach = |o: Player, s: u8| {
            let unconverted = units.unconverted & (1 << s) != 0;
            let entered = units.entered & (1 << s) != 0;
            let mut reach = [[None; 2]; 5];
            for (r, (t, [main, branch])) in reach.iter_mut().zip(
                THROWS
                    .into_iter()
                    .zip(state.throw_destinations(o, qasab_core::grid::Square(s))),
            ) {
                if !unconverted || t.is_tab() {
                    *r = [main.map(|q| q.0), branch.filter(|_| !entered).map(|q| q.0)];
                }
            }
            reach
        };
        let size = |s: u8| unit_size(state, s);
        let odds = || state.ruleset().odds.weights();
        threat_inputs(&threat_board(state, units), us, reach, size, odds, at, out);
    }

    /// The units of `state` as the encoder reads them.
    fn units_of(state: &tab::State) -> Units {
        let (unconverted, entered) = piece_marks(state);
        let occupied = [state.occupied(Player::One), state.occupied(Player::Two)];
        let frozen = squares_of(occupied[0] | occupied[1])
            .filter(|&s| state.enemy_row_hold(qasab_core::grid::Square(s)) == Some(true))
            .fold(0u128, |m, s| m | 1 << s);
        Units {
            occupied,
            unconverted,
            entered,
            frozen,
        }
    }

    /// The threats read backwards from each enemy unit equal the threats read forwards from
    /// each movable unit, at every state of seeded random games of every faithful preset and
    /// of readings with a wide or narrow board, a free enemy row and conversion in place.
    #[test]
    fn threats_read_backwards_equal_threats_read_forwards_along_seeded_games() {
        let mut hit = 0;
        for (g, ruleset) in [
            "tab",
            "tab-hyde",
            "tab-modern",
            "tab(columns=29)",
            "tab(columns=7,enemy_row=free,conversion=in-place)",
            "tab-hyde(columns=13)",
        ]
        .into_iter()
        .enumerate()
        {
            let rules: tab::Ruleset = ruleset.parse().expect("a ruleset");
            for seed in 0..6u64 {
                let mut rng = rng_from_seed(100 * g as u64 + seed);
                let mut state = rules.initial_state();
                let (mut outs, mut moves) = (Vec::new(), Vec::new());
                while !matches!(state.turn(), Turn::Over(_)) {
                    let units = units_of(&state);
                    for us in [Player::One, Player::Two] {
                        let (mut fast, mut slow) = (Features::new(2000), Features::new(2000));
                        threats(&state, us, &units, 7, &mut fast);
                        threats_forwards(&state, us, &units, 7, &mut slow);
                        assert_eq!(fast, slow, "{ruleset} seed {seed}: {state:?}");
                        hit += usize::from(fast.active().len() > 2);
                    }
                    if state.turn() == Turn::Chance {
                        state.chance_outcomes(&mut outs);
                        let k = pick_weighted(&mut rng, outs.iter().map(|o| o.weight));
                        state.apply_chance_unchecked(outs[k].outcome);
                    } else {
                        state.legal_moves(&mut moves);
                        state.play_unchecked(moves[below(&mut rng, moves.len())]);
                    }
                }
            }
        }
        assert!(hit > 1000, "threats were seldom seen: {hit}");
    }
}

/// `tab-v3`: one encoding for every board and reading of a family, so that one network plays
/// them all.
///
/// It is `tab-v2` seen through a board of fixed size, then the reading itself:
///
/// * **The squares on a fixed scale.** Each row's columns are laid on [`v3::BINS`] bins, the first
///   column on the first bin and the last on the last (`x = col · (BINS − 1) / (n − 1)`), and
///   a square's inputs (`tab-v2`'s 14 per unit and 5 threats) are shared between the two bins
///   either side of `x` in proportion to nearness. On the 9-column board each column is its
///   own bin, exactly `tab-v2`; on a wider board neighbouring squares share bins, on a
///   narrower one a square spreads over two. The rows stay rows, so the track's turns stay at
///   the ends of the scale.
/// * **What does not depend on the board** as in `tab-v2`: each side's threat summary, the
///   pending throws, the banks, the phase, a throw to come, the nearness of a limit.
/// * **Counts** of pieces on the board and captures as "at least 1 to 8 (`COUNTS`)" and as a
///   fraction of the side's pieces.
/// * **The reading**: the board's columns (one input for each of 7 to 29, and `(n − 7) / 22`),
///   the pieces a side as a fraction of the columns, and one input for each value of each
///   rule option with a list of values (the ruleset's own option table, in its order), set for
///   the value in force. The safety limits (L-18) are not inputs: they are not the game's.
///   The list is written into a network's file (`option_inputs`) and a network is read only
///   where it is the same.
pub mod v3 {
    use std::sync::OnceLock;

    use qasab_core::options::Values;
    use qasab_core::{GameState, Player, Ruleset as _, tab};

    use super::{Encode, Features, TAB_PER_SQUARE, THREAT_PER_SIDE, THREAT_PER_SQUARE};
    use crate::eval::net::encode::{nearness, threat_input_count};
    use crate::games::tab::eval::limit_factor;

    /// Bins a row's columns are laid on.
    pub const BINS: usize = 9;
    /// Cells per side: 4 rows of [`BINS`].
    pub const CELLS: usize = 4 * BINS;
    /// Counts of pieces and captures are "at least 1 to `COUNTS`".
    const COUNTS: usize = 8;
    /// The boards' columns with an input of their own.
    const COLUMNS: std::ops::RangeInclusive<u8> = 7..=29;

    /// Where each part begins.
    /// The inputs of the cells (`tab-v2`'s 14 a unit).
    pub const SQUARES_AT: usize = 0;
    /// The threat inputs of the cells.
    pub const THREATS_AT: usize = SQUARES_AT + 2 * CELLS * TAB_PER_SQUARE;
    const SIDES_AT: usize = THREATS_AT + 2 * CELLS * THREAT_PER_SQUARE;
    /// Pending throws (15), banks (8), phase (3), a throw to come (1), as in `tab-v2`.
    const TURN_AT: usize = SIDES_AT + 2 * THREAT_PER_SIDE;
    const COUNTS_AT: usize = TURN_AT + 27;
    /// Per side: pieces on the board (at least 1 to 8, fraction), captures (the same).
    const NEAR_AT: usize = COUNTS_AT + 2 * 2 * (COUNTS + 1);
    const BOARD_AT: usize = NEAR_AT + 1;
    /// One input per board size, the scaled size, the pieces a side per column.
    /// The inputs of the rule options ([`layout`]).
    pub const OPTIONS_AT: usize = BOARD_AT + (*COLUMNS.end() - *COLUMNS.start() + 1) as usize + 2;

    /// The rule options read, as (key, values), and the same as one line.
    pub type Layout = (Vec<(&'static str, &'static [&'static str])>, String);

    /// The rule options with a list of values, in the option table's order, as (key, values);
    /// and the layout as one line, `key=v1|v2;key=…`, stored in a network's file.
    pub fn layout() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(|| {
            let options: Vec<_> = tab::Ruleset::option_defs()
                .iter()
                .filter(|d| !d.is_safety_limit())
                .filter_map(|d| match d.values {
                    Values::Choice(names) => Some((d.key, names)),
                    _ => None,
                })
                .collect();
            let line = options
                .iter()
                .map(|(k, v)| format!("{k}={}", v.join("|")))
                .collect::<Vec<_>>()
                .join(";");
            (options, line)
        })
    }

    /// The number of inputs.
    pub fn inputs() -> usize {
        OPTIONS_AT + layout().0.iter().map(|(_, v)| v.len()).sum::<usize>()
    }

    /// The inputs of the reading `rules` (the board and the options), sorted.
    fn reading_inputs(rules: &tab::Ruleset) -> Vec<(u32, f32)> {
        let mut v = Vec::new();
        let n = rules.columns;
        if COLUMNS.contains(&n) {
            v.push(((BOARD_AT + usize::from(n - COLUMNS.start())) as u32, 1.0));
        }
        let end = OPTIONS_AT - 2;
        let scaled = f32::from(n.saturating_sub(*COLUMNS.start()))
            / f32::from(COLUMNS.end() - COLUMNS.start());
        if scaled > 0.0 {
            v.push((end as u32, scaled));
        }
        v.push((
            (end + 1) as u32,
            f32::from(rules.piece_count()) / f32::from(n),
        ));
        let mut at = OPTIONS_AT;
        let defs = tab::Ruleset::option_defs();
        for (key, names) in &layout().0 {
            let def = defs.iter().find(|d| d.key == *key).expect("from the table");
            let value = (def.get)(rules);
            if let Some(k) = names.iter().position(|&n| n == value) {
                v.push(((at + k) as u32, 1.0));
            }
            at += names.len();
        }
        v
    }

    /// The `tab-v2` inputs of a state, the inputs being laid out, and the last ruleset with
    /// its reading's inputs.
    type Scratch = (
        Features,
        Vec<(u32, f32)>,
        Option<(tab::Ruleset, Vec<(u32, f32)>)>,
    );

    thread_local! {
        /// The `tab-v2` inputs of the state, and the reading's inputs of the last ruleset.
        static SCRATCH: std::cell::RefCell<Scratch> = Default::default();
    }

    /// Fills `out` with the `tab-v3` inputs of `state`: its `tab-v2` inputs, laid on the fixed
    /// board ([module docs](self)), then the reading.
    pub(crate) fn encode(state: &tab::State, out: &mut Features) -> Player {
        let rules = state.ruleset();
        out.reset(inputs());
        SCRATCH.with(|scratch| {
            let (v2, cells, reading) = &mut *scratch.borrow_mut();
            let enc = <tab::State as Encode>::encoding_named(rules, "tab-v2").expect("tab's");
            let us = Encode::encode(state, enc, v2);
            let n = usize::from(rules.columns);
            let squares = 4 * n;
            let v2_turn = 2 * squares * TAB_PER_SQUARE;
            let v2_counts = v2_turn + 27;
            let v2_threats = v2_counts + 4 * n + 1;
            let v2_sides = v2_threats + 2 * squares * THREAT_PER_SQUARE;
            debug_assert_eq!(v2_threats + threat_input_count(squares), enc.inputs);
            // A square `r` (in us's numbering) of side `side` on the scale: up to two cells
            // with their shares.
            let place = |side: usize, r: usize| {
                let (row, col) = (r / n, r % n);
                let x = (col * (BINS - 1)) as f32 / (n - 1) as f32;
                let lo = (x.floor() as usize).min(BINS - 1);
                let frac = x - lo as f32;
                let cell = |b: usize| side * CELLS + row * BINS + b;
                [(cell(lo), 1.0 - frac), (cell((lo + 1).min(BINS - 1)), frac)]
            };
            cells.clear();
            for &(i, value) in v2.active() {
                let i = i as usize;
                let (base, per, j) = if i < v2_turn {
                    (SQUARES_AT, TAB_PER_SQUARE, i)
                } else if i < v2_counts {
                    cells.push(((TURN_AT + i - v2_turn) as u32, value));
                    continue;
                } else if i < v2_threats {
                    continue;
                } else if i < v2_sides {
                    (THREATS_AT, THREAT_PER_SQUARE, i - v2_threats)
                } else {
                    cells.push(((SIDES_AT + i - v2_sides) as u32, value));
                    continue;
                };
                let (unit, k) = (j / per, j % per);
                let (side, r) = (unit / squares, unit % squares);
                for (cell, share) in place(side, r) {
                    if share > 0.0 {
                        cells.push(((base + cell * per + k) as u32, value * share));
                    }
                }
            }
            // Counts: pieces on the board and captures, at least 1 to COUNTS and as a fraction.
            let pieces = f32::from(rules.piece_count());
            let on_board = state.pieces_on_board();
            let captures = state.scores();
            for (j, count) in [on_board[us], on_board[!us], captures[us], captures[!us]]
                .into_iter()
                .enumerate()
            {
                let base = COUNTS_AT + j * (COUNTS + 1);
                for k in 0..(count as usize).min(COUNTS) {
                    cells.push(((base + k) as u32, 1.0));
                }
                if count > 0 {
                    cells.push(((base + COUNTS) as u32, count as f32 / pieces));
                }
            }
            let near = nearness(limit_factor(state));
            if near > 0.0 {
                cells.push((NEAR_AT as u32, near));
            }
            if reading.as_ref().is_none_or(|(r, _)| r != rules) {
                *reading = Some((*rules, reading_inputs(rules)));
            }
            cells.extend_from_slice(&reading.as_ref().expect("just set").1);
            cells.sort_unstable_by_key(|&(i, _)| i);
            let mut last: Option<(u32, f32)> = None;
            for &(i, v) in cells.iter() {
                match &mut last {
                    Some((j, w)) if *j == i => *w += v,
                    _ => {
                        if let Some((j, w)) = last.take() {
                            out.push(j, w);
                        }
                        last = Some((i, v));
                    }
                }
            }
            if let Some((j, w)) = last {
                out.push(j, w);
            }
            us
        })
    }
}
