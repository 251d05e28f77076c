//! The network's inputs for the Ludii presets: `tab-ludii-v1` and `tab-ludii-v2` (the tables
//! are in [`crate::eval::net::encode`]).

use qasab_core::{GameState, Player, tab_ludii};

use crate::eval::net::encode::{
    ENCODINGS, Encode, Encoding, Features, LUDII_PER_SQUARE, THROWS, ThreatBoard, nearness,
    relative, threat_input_count, threat_inputs,
};
use crate::games::tab_ludii::eval::limit_factor;

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
        let near = nearness(limit_factor(self));
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
