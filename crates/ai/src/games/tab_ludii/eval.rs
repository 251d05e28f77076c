//! The evaluation of the Ludii presets, `tab-ludii` and `tab-hyde-ludii`.
//!
//! The same shape as the faithful family's ([`crate::games::tab::eval`]): a score for White in pieces (or
//! points), squashed with `tanh(score / scale)`, `scale = max(2, columns / 3)`; Black's value
//! is its negation. The terms, each White's minus Black's:
//!
//! | term | weight | what it counts |
//! |---|---|---|
//! | material ([`MATERIAL`]) | 1.0 | `tab-ludii`: pieces on the board (the game is won by taking them all, LT-9) |
//! | score ([`SCORE`]) | 1.0 | `tab-hyde-ludii`: captures scored, one a unit (the higher score wins, LH-6, LH-8) |
//! | material ([`HYDE_MATERIAL`]) | 0.2 | `tab-hyde-ludii`: pieces on the board, the units that can still score |
//! | locked ([`LOCKED`]) | −0.15 | `tab-hyde-ludii`: pieces that have not moved yet and need a 1 (LH-3) |
//! | progress ([`PROGRESS`]) | 0.3 | for each unlocked piece, how far along its first lap it stands (0 to 1) |
//! | stacked ([`STACKED`]) | 0.05 | pieces beyond the first on a square (a Tab stack, an At-Tab king) |
//! | threats ([`HIT_NOW`], [`HIT_LATER`]) | 0.8 or 0.4 | the expected loss to the enemy's hits in his turn ([`hit_probability`]): pieces in Tab, points in At-Tab; 0.8 when the enemy's turn is in progress, 0.4 when he plays after the owner |
//!
//! Before the first 1 of Tab's opening (LT-2) nothing can move, and only material counts. Near
//! Ludii's limits (LT-10, LH-9) the value shrinks towards 0, as in [`crate::games::tab::eval`], with the
//! turns left before `turn_cap` or before `move_cap` (counted as two decisions a turn).

use qasab_core::sticks::Throw;
use qasab_core::tab_ludii::{Move, Preset, State};
use qasab_core::{ByPlayer, GameState, Player, Turn};

use crate::eval::hits::{
    HitBoard, Reach, SQUARES, TurnLaw, hit_probabilities, ordered_hit_probabilities,
};
pub use crate::eval::terms::{CommonTerms, HIT_LATER, HIT_NOW, LIMIT_HORIZON, PROGRESS, STACKED};
use crate::eval::{EvalWeights, Evaluate, for_player, lap_index_cached, squash, terminal_value};

/// Weight of a piece on the board in `tab-ludii`.
pub const MATERIAL: f64 = 1.0;
/// Weight of a point scored in `tab-hyde-ludii`.
pub const SCORE: f64 = 1.0;
/// Weight of a piece on the board in `tab-hyde-ludii`.
pub const HYDE_MATERIAL: f64 = 0.2;
/// Weight (a penalty) of a locked piece in `tab-hyde-ludii`.
pub const LOCKED: f64 = 0.15;

/// One side's terms, before weighting ([`features`]).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SideFeatures {
    /// The terms every Tâb evaluation counts: pieces on the board, the progress of unlocked
    /// pieces along their first lap, stacked pieces, and the loss expected to the enemy's hits
    /// (pieces in Tab, points in At-Tab); read as `f.material` and so on, through `Deref`.
    pub common: CommonTerms,
    /// Captures scored ([`GameState::scores`]).
    pub score: f64,
    /// Locked pieces (At-Tab).
    pub locked: f64,
}

crate::eval::terms::common_terms!(SideFeatures);

struct Board<'a> {
    state: &'a State,
    moves: std::cell::RefCell<Vec<Move>>,
}

impl HitBoard for Board<'_> {
    fn first_steps(&self, attacker: Player, t: Throw, out: &mut Vec<(u8, u8)>) {
        out.clear();
        let n = self.state.rules().columns();
        let mut moves = self.moves.borrow_mut();
        self.state.throw_plays(attacker, t, &mut moves);
        out.extend(
            moves
                .iter()
                .filter_map(|m| m.step())
                .map(|s| (s.from.square(n), s.to.square(n))),
        );
    }

    fn geometry_key(&self) -> u32 {
        let rules = self.state.rules();
        // Apart from the faithful family's keys, which stay under 64.
        0x100 | u32::from(rules.columns()) << 1 | u32::from(rules.game() == Preset::Hyde)
    }

    fn class(&self, _attacker: Player, _origin: u8) -> usize {
        0
    }

    fn next_squares(&self, attacker: Player, _class: usize, at: u8, steps: u8) -> [Option<u8>; 2] {
        self.state.track_destinations(attacker, at, steps)
    }
}

/// Whether `p` is the player in turn (throwing, or playing his throw).
fn in_turn(state: &State) -> Option<Player> {
    match state.turn() {
        Turn::Over(_) => None,
        _ => Some(state.mover()),
    }
}

/// The throw `attacker` is playing, if his turn has begun, and whether his turn goes on after
/// it.
fn turn_start(state: &State, attacker: Player) -> (Option<Throw>, bool) {
    match state.pending_throw() {
        Some(t) if in_turn(state) == Some(attacker) => {
            // LT-2: in Tab's opening only a 1 gives another throw.
            let more = if state.in_main_phase() {
                t.throws_again()
            } else {
                t.is_tab()
            };
            (Some(t), more)
        }
        _ => (None, true),
    }
}

/// The law of the throws `attacker` has in his turn: the one in progress (from the throw he is
/// playing, if any) or his next.
fn turn_law(state: &State, attacker: Player) -> std::rc::Rc<TurnLaw> {
    let (weights, denominator) = state.rules().throw_weights();
    let mut known = [0u32; 5];
    let (t, more) = turn_start(state, attacker);
    if let Some(t) = t {
        known[t.index()] = 1;
    }
    TurnLaw::shared(weights, denominator, known, more)
}

/// The probability that `attacker` hits each square of `targets` in his turn: the model of
/// [`crate::eval::hits`], with chains in the order thrown (each throw is played as it comes) when he
/// has a single unit that can move.
fn hit_chances(state: &State, board: &Board, attacker: Player, targets: u128) -> [f64; SQUARES] {
    let reach = Reach::new(board, attacker);
    let origins = reach.origins();
    if origins.count_ones() == 1 {
        let (weights, denominator) = state.rules().throw_weights();
        let (known, more) = turn_start(state, attacker);
        return ordered_hit_probabilities(
            board,
            attacker,
            origins.trailing_zeros() as u8,
            weights,
            denominator,
            known,
            more,
            targets,
        );
    }
    hit_probabilities(&reach, &turn_law(state, attacker), targets)
}

/// The probability that the unit on `square` is hit in its enemy's turn (the one in progress
/// if it is his, else his next), by the model of [`crate::eval::hits`]; 0 for an empty square.
pub fn hit_probability(state: &State, square: u8) -> f64 {
    let Some((owner, _)) = state.unit_at(square) else {
        return 0.0;
    };
    let board = Board {
        state,
        moves: Default::default(),
    };
    hit_chances(state, &board, !owner, 1u128 << square)[usize::from(square)]
}

/// Every term of the evaluation, for each side, before weighting (see the module docs).
pub fn features(state: &State) -> ByPlayer<SideFeatures> {
    let rules = state.rules();
    let n = rules.columns();
    let len = 4 * n;
    let hyde = rules.game() == Preset::Hyde;
    let mut occ = [0u128; 2];
    let mut size = [0u8; SQUARES];
    for sq in 0..len {
        if let Some((p, k)) = state.unit_at(sq) {
            occ[p.index()] |= 1u128 << sq;
            size[usize::from(sq)] = k;
        }
    }
    let board = Board {
        state,
        moves: Default::default(),
    };
    let mover = in_turn(state);
    let mut out = ByPlayer::<SideFeatures>::default();
    for p in Player::ALL {
        let f = &mut out[p];
        let me = p.index();
        f.material = f64::from(state.pieces(p));
        f.score = f64::from(state.scores()[p]);
        let start = if p == Player::One { 0 } else { len - 1 };
        let game = 1 + u8::from(hyde);
        let idx = lap_index_cached((game, n, 0, p), n, start, |sq| {
            state.track_destinations(p, sq, 1)
        });
        let mut m = occ[me];
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let k = f64::from(size[usize::from(sq)]);
            f.stacked += k - 1.0;
            if state.is_locked(sq) {
                f.locked += k;
            } else {
                let at = match idx[usize::from(sq)] {
                    u8::MAX => 1.0,
                    i => f64::from(i) / f64::from(len - 1),
                };
                f.progress += k * at;
            }
        }
        if !state.in_main_phase() {
            continue;
        }
        let enemy = !p;
        let probs = hit_chances(state, &board, enemy, occ[me]);
        let mut m = occ[me];
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let loss = if hyde { 1.0 } else { f64::from(size[sq]) };
            f.exposed += probs[sq] * loss;
        }
        f.exposed_weight = if mover == Some(enemy) {
            HIT_NOW
        } else {
            HIT_LATER
        };
    }
    out
}

/// White's weighted score (see the module docs).
fn score(state: &State) -> f64 {
    let f = features(state);
    let (w, b) = (&f.one, &f.two);
    let main = if state.rules().game() == Preset::Hyde {
        SCORE * (w.score - b.score) + HYDE_MATERIAL * (w.material - b.material)
            - LOCKED * (w.locked - b.locked)
    } else {
        MATERIAL * (w.material - b.material)
    };
    if !state.in_main_phase() {
        return main;
    }
    main + PROGRESS * (w.progress - b.progress) + STACKED * (w.stacked - b.stacked)
        - w.exposed_weight * w.exposed
        + b.exposed_weight * b.exposed
}

/// The factor that shrinks the value towards 0 near Ludii's limits (LT-10, LH-9).
#[inline]
pub(crate) fn limit_factor(state: &State) -> f64 {
    let rules = state.rules();
    // Ludii's turn number counts both players' turns; its limit is per player.
    let turns_left = 2.0 * f64::from(rules.turn_cap()) - f64::from(state.ludii_turn());
    let decisions_left = f64::from(rules.move_cap()) - f64::from(state.decisions());
    (turns_left.min(decisions_left / 2.0) / LIMIT_HORIZON).clamp(0.0, 1.0)
}

impl Evaluate for State {
    const NET: bool = true;

    /// With [`EvalWeights::Net`], the network's value; a ruleset without one (which
    /// the players refuse when they are made) falls back to the hand weights.
    fn evaluate_with(&self, player: Player, weights: EvalWeights) -> f64 {
        if let EvalWeights::Net(id) = weights
            && let Some(v) = crate::eval::net::net_value(id, self, player)
        {
            return v;
        }
        self.evaluate(player)
    }

    /// With [`EvalWeights::Net`], the network's values, computed together.
    fn evaluate_all<'a>(
        states: impl IntoIterator<Item = &'a Self>,
        player: Player,
        weights: EvalWeights,
    ) -> Vec<f64> {
        crate::eval::net::evaluate_all(states, player, weights)
    }

    fn evaluate(&self, player: Player) -> f64 {
        if let Turn::Over(o) = self.turn() {
            return terminal_value(&o, player);
        }
        let scale = (f64::from(self.rules().columns()) / 3.0).max(2.0);
        for_player(squash(score(self), scale) * limit_factor(self), player)
    }
}
