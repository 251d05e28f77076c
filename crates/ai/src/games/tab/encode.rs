//! The network's inputs for the Tâb family: `tab-v1` and `tab-v2` (the tables are in
//! [`crate::eval::net::encode`]).

use qasab_core::grid::Square;
use qasab_core::{GameState, Player, tab};

use crate::eval::net::encode::{
    ENCODINGS, Encode, Encoding, Features, TAB_PER_SQUARE, THROWS, ThreatBoard, nearness, relative,
    squares_of, threat_input_count, threat_inputs,
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
    unconverted: [bool; qasab_core::grid::MAX_SQUARES],
    /// The unit holds a piece that has been in the enemy home row: it may not enter again
    /// (L-10).
    entered: [bool; qasab_core::grid::MAX_SQUARES],
    /// The enemy-row rule keeps the unit from moving at all (L-11).
    frozen: u128,
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
