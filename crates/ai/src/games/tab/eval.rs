//! The evaluation of `tab`, `tab-hyde` and `tab-modern` (and every option value of them).
//!
//! The score is computed for White in *pieces* and squashed with `tanh(score / scale)`,
//! `scale = max(2, pieces per side / 3)` (3 on Lane's 9 columns: three pieces up is worth 0.76).
//! Black's value is its negation. The terms, each White's minus Black's:
//!
//! | term | weight | what it counts |
//! |---|---|---|
//! | material ([`MATERIAL`]) | 1.0 | pieces on the board, under `end=elimination` (L-17): the game is won by taking them all; pieces captured instead, under `end=most-captures` (H-13): the game is won by the count |
//! | unconverted ([`UNCONVERTED`]) | −0.15 | pieces still waiting for a tâb (L-9c): they cannot move and are easy prey |
//! | banked ([`BANKED`]) | 0.1 | tâbs in the bank, at most [`BANK_CAP`] (L-8): a tâb to play when it suits |
//! | progress ([`PROGRESS`]) | 0.3 | for each converted piece, how far along its first lap it is (0 at its start square, 1 at the end of the enemy home row, 1 once it has been there) |
//! | stacked ([`STACKED`]) | 0.05 | pieces beyond the first on a square (L-13): a stack moves them together |
//! | reduction risk ([`REDUCTION`]) | −0.5 | for each stack, the pieces a reduction would remove (size − 1) times the chance that a single throw, when it moves the whole stack, can only reduce it (L-15) |
//! | threats ([`HIT_NOW`], [`HIT_LATER`]) | 0.8 or 0.4 | the expected pieces the enemy takes with his hits: for each unit, its pieces times the probability that it is hit in the enemy's turn ([`hit_probability`], the model of [`crate::eval::hits`]); 0.8 when the enemy's turn is the one in progress, 0.4 when he plays after the owner |
//!
//! Near a safety limit (L-18) the value shrinks towards 0, the value of a truncated game: it
//! is multiplied by `min(1, r / 10)` where `r` is the number of turns left before the
//! no-progress limit or the turn cap stops the game.
//!
//! These are the hand weights ([`Weights::HAND`], `eval=hand`). The score is a weighted sum of
//! [`inputs`], which also holds five terms the hand weights leave at 0; [`Weights::FITTED`]
//! (`eval=fitted`) weighs all of them as a logistic regression on self-play results found
//! (`docs/players.md` has the data, the command and both sets of weights).

use qasab_core::grid::Square;
use qasab_core::sticks::Throw;
use qasab_core::tab::{End, Move, State, Track};
use qasab_core::{ByPlayer, GameState, Player, Turn};

use crate::eval::hits::{HitBoard, Reach, SQUARES, TurnLaw, hit_probabilities};
pub use crate::eval::terms::{CommonTerms, HIT_LATER, HIT_NOW, LIMIT_HORIZON, PROGRESS, STACKED};
use crate::eval::{EvalWeights, Evaluate, for_player, lap_index_cached, squash, terminal_value};

/// Weight of a piece on the board (`end=elimination`), or of a piece captured
/// (`end=most-captures`).
pub const MATERIAL: f64 = 1.0;
/// Weight (a penalty) of a piece not yet converted.
pub const UNCONVERTED: f64 = 0.15;
/// Weight of a banked tâb.
pub const BANKED: f64 = 0.1;
/// Banked tâbs beyond this many are not counted.
pub const BANK_CAP: u32 = 4;
/// Weight (a penalty) of the pieces a stack risks losing to a reduction.
pub const REDUCTION: f64 = 0.5;

/// One side's terms, before weighting ([`features`]).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SideFeatures {
    /// The terms every Tâb evaluation counts: pieces on the board, the progress of converted
    /// pieces along their first lap, stacked pieces, and the pieces exposed to the enemy's
    /// hits (read as `f.material` and so on, through `Deref`).
    pub common: CommonTerms,
    /// Pieces this side has captured.
    pub captures: f64,
    /// Pieces not yet converted.
    pub unconverted: f64,
    /// Banked tâbs, at most [`BANK_CAP`].
    pub banked: f64,
    /// Pieces that have been in the enemy home row (L-10).
    pub lapped: f64,
    /// Pieces standing in the enemy home row (L-10).
    pub in_enemy_row: f64,
    /// For each stack, its size − 1 times the chance that a throw that moves it whole can
    /// only reduce it.
    pub reduction_risk: f64,
}

crate::eval::terms::common_terms!(SideFeatures);

/// The hit model's view of a Tâb position.
struct Board<'a> {
    state: &'a State,
    /// Per player, the squares whose unit holds a piece that has been in the enemy home row
    /// (it may not enter again, L-10).
    entered: [u128; 2],
    moves: std::cell::RefCell<Vec<Move>>,
}

impl HitBoard for Board<'_> {
    fn first_steps(&self, attacker: Player, t: Throw, out: &mut Vec<(u8, u8)>) {
        out.clear();
        let grid = self.state.grid();
        let mut moves = self.moves.borrow_mut();
        self.state.throw_plays(attacker, t, &mut moves);
        for m in moves.iter() {
            if let Move::Play(p) = m
                && let (Some(from), Some(to)) =
                    (p.from.square(grid), p.to.and_then(|s| s.square(grid)))
            {
                out.push((from.0, to.0));
            }
        }
    }

    fn geometry_key(&self) -> u32 {
        let rules = self.state.ruleset();
        u32::from(rules.columns) << 1 | u32::from(rules.track == Track::OneWay)
    }

    fn class(&self, attacker: Player, origin: u8) -> usize {
        usize::from(self.entered[attacker.index()] & (1u128 << origin) != 0)
    }

    fn next_squares(&self, attacker: Player, class: usize, at: u8, steps: u8) -> [Option<u8>; 2] {
        let [main, alt] = self.state.track_destinations(attacker, Square(at), steps);
        // A unit that has been in the enemy home row may not enter it again (L-10).
        [main.map(|s| s.0), alt.filter(|_| class == 0).map(|s| s.0)]
    }
}

impl<'a> Board<'a> {
    fn new(state: &'a State) -> Self {
        let mut entered = [0u128; 2];
        for p in Player::ALL {
            for i in 0..state.ruleset().piece_count() {
                if let Some(v) = state.piece(p, i)
                    && v.entered_enemy_row
                {
                    entered[p.index()] |= 1u128 << v.square.0;
                }
            }
        }
        Board {
            state,
            entered,
            moves: std::cell::RefCell::new(Vec::new()),
        }
    }
}

/// The law of the throws `attacker` will have in his turn: the one in progress if it is his
/// (with his pending throws), else his next; his banked tâbs count as known tâbs.
fn turn_law(state: &State, attacker: Player) -> std::rc::Rc<TurnLaw> {
    let (weights, denominator) = state.ruleset().odds.weights();
    let mut known = [0u32; 5];
    let in_turn = state.player_in_turn() == Some(attacker);
    if in_turn {
        for t in Throw::ALL {
            known[t.index()] = state.pending_count(t);
        }
    }
    known[Throw::TAB.index()] += state.banked()[attacker];
    let more = !in_turn || state.throws_to_come();
    TurnLaw::shared(&weights, denominator, known, more)
}

/// The probability that `attacker` hits each square of `targets` in his turn, by the model of
/// [`crate::eval::hits`]. Under `throw_timing=interleaved` the throws of a chain are still taken in
/// any order, an approximation: there each throw is played as it is thrown, and only a banked
/// tâb waits for later.
fn hit_chances(state: &State, board: &Board, attacker: Player, targets: u128) -> [f64; SQUARES] {
    let reach = Reach::new(board, attacker);
    hit_probabilities(&reach, &turn_law(state, attacker), targets)
}

/// The squares of each side's units and their sizes.
fn units(state: &State) -> ([u128; 2], [u8; SQUARES]) {
    let mut occ = [0u128; 2];
    let mut size = [0u8; SQUARES];
    for sq in state.grid().squares() {
        if let Some((p, k)) = state.unit_at(sq) {
            occ[p.index()] |= 1u128 << sq.0;
            size[usize::from(sq.0)] = k as u8;
        }
    }
    (occ, size)
}

/// The probability that the unit on `target` is hit in its enemy's turn (the one in progress
/// if it is his, else his next), by the model of [`crate::eval::hits`]; 0 for an empty square.
pub fn hit_probability(state: &State, target: Square) -> f64 {
    let Some((owner, _)) = state.unit_at(target) else {
        return 0.0;
    };
    let board = Board::new(state);
    hit_chances(state, &board, !owner, 1u128 << target.0)[usize::from(target.0)]
}

/// Every term of the evaluation, for each side, before weighting (see the module docs).
pub fn features(state: &State) -> ByPlayer<SideFeatures> {
    let rules = state.ruleset();
    let n = rules.columns;
    let len = 4 * n;
    let (occ, size) = units(state);
    let board = Board::new(state);
    let one_way = u8::from(rules.track == Track::OneWay);
    let lap = |p: Player| {
        let start = if p == Player::One { 0 } else { len - 1 };
        lap_index_cached((0, n, one_way, p), n, start, |sq| {
            state
                .track_destinations(p, Square(sq), 1)
                .map(|s| s.map(|s| s.0))
        })
    };
    let (weights, denominator) = rules.odds.weights();
    let single = |t: Throw| {
        weights
            .iter()
            .find(|w| w.outcome == t)
            .map_or(0.0, |w| f64::from(w.weight) / f64::from(denominator))
    };
    let in_turn = state.player_in_turn();
    let mut out = ByPlayer::<SideFeatures>::default();
    let mut moves = Vec::new();
    for p in Player::ALL {
        let f = &mut out[p];
        let me = p.index();
        f.material = f64::from(state.pieces_on_board()[p]);
        f.captures = f64::from(state.scores()[p]);
        f.unconverted = f64::from(state.unconverted(p));
        f.banked = f64::from(state.banked()[p].min(BANK_CAP));
        let idx = lap(p);
        let grid = state.grid();
        // The enemy home row: row 3 for White, row 0 for Black (0 is White's home).
        let enemy_row = 3 - 3 * me as u8;
        for i in 0..rules.piece_count() {
            let Some(v) = state.piece(p, i) else { continue };
            if !v.converted {
                continue;
            }
            let k = idx[usize::from(v.square.0)];
            f.progress += if v.entered_enemy_row || k == u8::MAX {
                1.0
            } else {
                f64::from(k) / f64::from(len - 1)
            };
            f.lapped += f64::from(u8::from(v.entered_enemy_row));
            f.in_enemy_row += f64::from(u8::from(grid.row(v.square) == enemy_row));
        }
        // Stacks and the chance that moving one can only reduce it.
        let mut stacks = 0u128;
        let mut m = occ[me];
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            if size[sq] > 1 {
                stacks |= 1u128 << sq;
                f.stacked += f64::from(size[sq] - 1);
            }
        }
        if stacks != 0 {
            // Per stack square: the throws with a whole-stack play, and those whose every
            // whole-stack play reduces.
            let mut any = [0u8; SQUARES];
            let mut safe = [0u8; SQUARES];
            for t in Throw::ALL {
                state.throw_plays(p, t, &mut moves);
                for &mv in &moves {
                    let Move::Play(play) = mv else { continue };
                    let Some(from) = play.from.square(grid) else {
                        continue;
                    };
                    let sq = usize::from(from.0);
                    if stacks & (1u128 << sq) == 0 || play.pieces != 0 || play.to.is_none() {
                        continue;
                    }
                    any[sq] |= 1 << t.index();
                    if !state.play_reduces(mv) {
                        safe[sq] |= 1 << t.index();
                    }
                }
            }
            let mut m = stacks;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let risky: f64 = Throw::ALL
                    .into_iter()
                    .filter(|t| any[sq] & !safe[sq] & (1 << t.index()) != 0)
                    .map(single)
                    .sum();
                f.reduction_risk += f64::from(size[sq] - 1) * risky;
            }
        }
        // The enemy's hits on this side's units.
        let enemy = !p;
        let probs = hit_chances(state, &board, enemy, occ[me]);
        let mut m = occ[me];
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            f.exposed += probs[sq] * f64::from(size[sq]);
        }
        f.exposed_weight = if in_turn == Some(enemy) {
            HIT_NOW
        } else {
            HIT_LATER
        };
    }
    out
}

/// The number of inputs of the weighted score ([`inputs`]).
pub const INPUTS: usize = 13;

/// The names of the inputs, in the order of [`inputs`] and [`Weights::inputs`].
pub const INPUT_NAMES: [&str; INPUTS] = [
    "material",
    "material_ratio",
    "unconverted",
    "banked",
    "progress",
    "lapped",
    "in_enemy_row",
    "stacked",
    "reduction_risk",
    "exposed_now",
    "exposed_later",
    "tempo",
    "pending",
];

/// The inputs of the score, each White's term minus Black's ([`INPUT_NAMES`]): the end term
/// (pieces on the board under `end=elimination` (L-17), captures under `end=most-captures`
/// (H-13)), the same over both sides' total (`material_ratio`), unconverted pieces, banked
/// tâbs, progress, pieces that have been in the enemy home row and pieces standing in it
/// (L-10), stacked pieces, reduction risk, the expected pieces lost to the hits of the player
/// in turn (`exposed_now`) and to those of the player who plays after the owner
/// (`exposed_later`), then two terms of the turn in progress (L-5): `tempo` (+1 when White is
/// in turn, −1 when Black is, 0 in the opening) and `pending` (the throws waiting to be played
/// by the player in turn, with his sign).
pub fn inputs(state: &State) -> [f64; INPUTS] {
    let f = features(state);
    let (w, b) = (&f.one, &f.two);
    let (end_w, end_b) = match state.ruleset().end {
        End::Elimination => (w.material, b.material),
        End::MostCaptures => (w.captures, b.captures),
    };
    let (end_term, total) = (end_w - end_b, end_w + end_b);
    let exposed = |weight: f64, s: &SideFeatures| {
        if s.exposed_weight == weight {
            s.exposed
        } else {
            0.0
        }
    };
    let sign = match state.player_in_turn() {
        Some(Player::One) => 1.0,
        Some(Player::Two) => -1.0,
        None => 0.0,
    };
    let pending: u32 = Throw::ALL.iter().map(|&t| state.pending_count(t)).sum();
    [
        end_term,
        if total > 0.0 { end_term / total } else { 0.0 },
        w.unconverted - b.unconverted,
        w.banked - b.banked,
        w.progress - b.progress,
        w.lapped - b.lapped,
        w.in_enemy_row - b.in_enemy_row,
        w.stacked - b.stacked,
        w.reduction_risk - b.reduction_risk,
        exposed(HIT_NOW, w) - exposed(HIT_NOW, b),
        exposed(HIT_LATER, w) - exposed(HIT_LATER, b),
        sign,
        sign * f64::from(pending),
    ]
}

/// The weights of a score, one per input of [`inputs`], in pieces: the value is
/// `tanh(score / scale)` with `scale = max(2, pieces per side / 3)` (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// The weight of each input.
    pub inputs: [f64; INPUTS],
}

impl Weights {
    /// The hand-chosen weights of the module docs (`eval=hand`).
    pub const HAND: Weights = Weights {
        inputs: [
            MATERIAL,
            0.0,
            -UNCONVERTED,
            BANKED,
            PROGRESS,
            0.0,
            0.0,
            STACKED,
            -REDUCTION,
            -HIT_NOW,
            -HIT_LATER,
            0.0,
            0.0,
        ],
    };

    /// Weights fitted to the results of self-play games on `tab` (`eval=fitted`): a logistic
    /// regression of the result on [`inputs`], by the `fit_tab_eval` example (the command is in
    /// `docs/players.md`). A win probability `1 / (1 + exp(-z))` is worth `tanh(z / 2)`, so each
    /// weight is the fitted coefficient times `scale / 2` on Lane's 9 pieces a side (1.5).
    pub const FITTED: Weights = Weights {
        inputs: [
            -0.1833, 6.4615, -0.1278, 0.2443, 0.3218, -0.3510, 0.4367, -0.2053, -0.4889, -0.2713,
            -0.2179, 0.0425, 0.1116,
        ],
    };

    /// White's score in pieces for these inputs.
    pub fn score(&self, inputs: &[f64; INPUTS]) -> f64 {
        self.inputs.iter().zip(inputs).map(|(w, x)| w * x).sum()
    }

    /// White's value of a state that is not over, before the safety-limit factor.
    fn squashed(&self, state: &State) -> f64 {
        squash(
            self.score(&inputs(state)),
            scale(state.ruleset().piece_count()),
        )
    }
}

/// The squash's scale, in pieces, for `pieces` a side: `max(2, pieces / 3)`.
pub fn scale(pieces: u8) -> f64 {
    (f64::from(pieces) / 3.0).max(2.0)
}

/// The factor that shrinks the value towards 0 near a safety limit (L-18).
#[inline]
pub(crate) fn limit_factor(state: &State) -> f64 {
    let rules = state.ruleset();
    let mut left = f64::from(rules.turn_cap) - f64::from(state.turns());
    if rules.no_progress > 0 {
        left = left.min(f64::from(rules.no_progress) - f64::from(state.turns_without_progress()));
    }
    (left / LIMIT_HORIZON).clamp(0.0, 1.0)
}

impl Evaluate for State {
    fn evaluate(&self, player: Player) -> f64 {
        self.evaluate_with(player, EvalWeights::Hand)
    }

    const FITTED: bool = true;

    const NET: bool = true;

    /// With [`EvalWeights::Net`], the network's value; a ruleset without one (which
    /// the players refuse when they are made) falls back to the fitted weights.
    fn evaluate_with(&self, player: Player, weights: EvalWeights) -> f64 {
        if let Turn::Over(o) = self.turn() {
            return terminal_value(&o, player);
        }
        let w = match weights {
            EvalWeights::Hand => &Weights::HAND,
            EvalWeights::Fitted => &Weights::FITTED,
            EvalWeights::Net(id) => match crate::eval::net::net_value(id, self, player) {
                Some(v) => return v,
                None => &Weights::FITTED,
            },
        };
        for_player(w.squashed(self) * limit_factor(self), player)
    }

    /// With [`EvalWeights::Net`], the network's values, computed together.
    fn evaluate_all<'a>(
        states: impl IntoIterator<Item = &'a Self>,
        player: Player,
        weights: EvalWeights,
    ) -> Vec<f64> {
        crate::eval::net::evaluate_all(states, player, weights)
    }
}
