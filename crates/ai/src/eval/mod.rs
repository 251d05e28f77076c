//! Static evaluation: the value of a state for a player, in `[-1, 1]`, without search.
//!
//! Every game implements [`Evaluate`]; the search players (`greedy`, `expectimax`) call it at
//! the leaves of their trees. A finished game gets its exact result ([`terminal_value`]); any
//! other state gets a weighted score of features, squashed into `(-1, 1)` with `tanh`. The
//! weights are chosen by hand; the Tâb family also has weights fitted to game results
//! ([`EvalWeights`], the players' `eval=` option). Each game's evaluation is written in its
//! own folder of `crate::games` (its features and weights are documented there and in
//! `docs/players.md`); this module holds what they share:
//!
//! * the [`Evaluate`] trait, terminal values and the squashing of scores;
//! * [`hits`]: the hit model the two Tâb evaluations share, and [`terms`], their shared
//!   weights and the nearness of a safety limit;
//! * [`net`]: the learned networks, as an evaluation;
//! * [`options`]: the players' `eval=` and `weights=` options.
//!
//! Every evaluation is antisymmetric: `evaluate(One) == -evaluate(Two)` (the score is computed
//! once, for the first seat, and negated for the second), so a search may take either side's
//! view.

use qasab_core::{GameState, Outcome, Player};

use qasab_core::options::ValueError;

pub mod hits;
pub mod net;
pub mod options;
pub mod terms;

/// A game whose states have a static value for each player.
pub trait Evaluate: GameState {
    /// The value of the state for `player`, in `[-1, 1]`: +1 a certain win, −1 a certain loss.
    ///
    /// A finished game gives its exact result ([`terminal_value`]); other states an estimate,
    /// strictly inside `(-1, 1)`. Always `evaluate(p) == -evaluate(!p)`.
    fn evaluate(&self, player: Player) -> f64;

    /// Whether the game has weights fitted to game results ([`EvalWeights::Fitted`]).
    const FITTED: bool = false;

    /// Whether the game has networks ([`EvalWeights::Net`]) for some of its rulesets.
    const NET: bool = false;

    /// The value of the state for `player` with the chosen weights; [`Evaluate::evaluate`]
    /// is the value with [`EvalWeights::Hand`]. A game without fitted weights
    /// ([`Evaluate::FITTED`] false) gives its one evaluation for both.
    fn evaluate_with(&self, player: Player, weights: EvalWeights) -> f64 {
        let _ = weights;
        self.evaluate(player)
    }

    /// The values of `states` (all of one ruleset) for `player` with `weights`, in order: each
    /// exactly [`Evaluate::evaluate_with`]'s. For the searches that value many states at once
    /// (the ends of a turn, the moves of a state): a network values them together, which is
    /// faster per state ([`crate::eval::net::Network::values`]).
    fn evaluate_all<'a>(
        states: impl IntoIterator<Item = &'a Self>,
        player: Player,
        weights: EvalWeights,
    ) -> Vec<f64>
    where
        Self: 'a,
    {
        states
            .into_iter()
            .map(|s| s.evaluate_with(player, weights))
            .collect()
    }
}

/// Which weights a search player evaluates with: the `eval=` option of `greedy`, `expectimax`
/// and `mcts`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalWeights {
    /// The hand-chosen weights documented with each game's evaluation.
    #[default]
    Hand,
    /// Weights fitted to the results of self-play games by logistic regression (the Tâb
    /// family only; see `games::tab::eval::Weights::FITTED`).
    Fitted,
    /// A network ([`crate::eval::net`]): the shipped one of the ruleset's family (the Tâb family and
    /// the Ludii presets, on the boards their networks were trained on), or one read from a
    /// file (`weights=FILE`).
    Net(NetId),
}

impl EvalWeights {
    /// Both choices, in the order the docs list them.
    pub const ALL: [EvalWeights; 3] = [EvalWeights::Hand, EvalWeights::Fitted, EvalWeights::NET];

    /// The shipped network of the states' ruleset (`eval=net`).
    pub const NET: EvalWeights = EvalWeights::Net(NetId::SHIPPED);

    /// Whether a network evaluates (`eval=net`, with or without `weights=FILE`).
    pub const fn is_net(self) -> bool {
        matches!(self, EvalWeights::Net(_))
    }

    /// The name in a spec (`eval=fitted`).
    pub const fn name(self) -> &'static str {
        match self {
            EvalWeights::Hand => "hand",
            EvalWeights::Fitted => "fitted",
            EvalWeights::Net(_) => "net",
        }
    }

    /// The choice named `name` (`hand`, `fitted`), if any.
    pub fn from_name(name: &str) -> Option<EvalWeights> {
        EvalWeights::ALL.into_iter().find(|w| w.name() == name)
    }

    /// Reads an `eval=` value for a game that has (`fitted`) or lacks fitted weights, and
    /// that has (`net`) or lacks networks. Whether the ruleset's board has a network is
    /// checked when the player is read (`Playable::network_fits`).
    ///
    /// # Errors
    /// [`ValueError::Expected`] for another value, or for `fitted` or `net` on a game without
    /// them.
    pub fn parse_for(text: &str, fitted: bool, net: bool) -> Result<EvalWeights, ValueError> {
        let valid = match (fitted, net) {
            (true, true) => "hand, fitted or net",
            (true, false) => "hand or fitted",
            (false, true) => "hand or net (this game has no fitted weights)",
            (false, false) => "hand (this game has no fitted weights)",
        };
        let without = if net { "hand or net" } else { "hand" };
        match EvalWeights::from_name(text) {
            Some(EvalWeights::Fitted) if !fitted => Err(ValueError::Expected(format!(
                "{without}: this game has no fitted weights (only tab, tab-hyde and tab-modern \
                 have)"
            ))),
            Some(EvalWeights::Net(_)) if !net => Err(ValueError::Expected(format!(
                "{}: this game has no network (only the Tab family and the Ludii presets have)",
                if fitted { "hand or fitted" } else { "hand" }
            ))),
            Some(w) => Ok(w),
            None => Err(ValueError::Expected(valid.into())),
        }
    }
}

/// Which network `eval=net` reads: the shipped one of the ruleset's family and board
/// ([`NetId::SHIPPED`]), or one read from a file (`weights=FILE`) and kept
/// (`net::keep`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NetId(u8);

impl NetId {
    /// The shipped network of the states' ruleset.
    pub const SHIPPED: NetId = NetId(0);

    /// The id of the `index`-th network kept from a file (from 0).
    pub(crate) const fn kept(index: usize) -> NetId {
        NetId(index as u8 + 1)
    }

    /// Which network kept from a file this id names (from 0); `None` for the shipped one.
    pub(crate) const fn kept_index(self) -> Option<usize> {
        match self.0 {
            0 => None,
            k => Some(k as usize - 1),
        }
    }
}

/// The exact value of a finished game for `player`: 1 for a win, −1 for a loss, 0 for a draw.
/// A game stopped by a safety limit (a truncated game, [`Outcome::is_truncated`]) counts as
/// the ruleset says it ends (L-18, `limit_result`): a draw by default, so that a side ahead
/// loses value by stalling, and the side ahead on captures under Hyde's count (H-13). Searches
/// and training value a stopped game alike.
pub fn terminal_value(outcome: &Outcome, player: Player) -> f64 {
    f64::from(outcome.return_for(player))
}

/// The largest value an estimate may take: estimates stay strictly inside `(-1, 1)`, so that
/// only a finished game is worth a certain win or loss.
pub const MAX_ESTIMATE: f64 = 1.0 - 1e-9;

/// Maps a score in some unit (pieces, counters) to `(-1, 1)`: `tanh(score / scale)`, kept
/// within [`MAX_ESTIMATE`]. A score of one `scale` gives 0.76, two give 0.96.
pub fn squash(score: f64, scale: f64) -> f64 {
    (score / scale).tanh().clamp(-MAX_ESTIMATE, MAX_ESTIMATE)
}

/// The value for `player` of a score computed for [`Player::One`].
pub(crate) fn for_player(value_for_one: f64, player: Player) -> f64 {
    match player {
        Player::One => value_for_one,
        Player::Two => -value_for_one,
    }
}

/// The index of every square along the first lap of a track of the Tâb family, from the
/// player's first square: home row, second row, third row, then (through the branch where there
/// is one) the enemy home row; `u8::MAX` for squares the lap does not pass. `step(sq)` gives
/// the squares one step on (main way, branch).
pub(crate) fn lap_index(
    columns: u8,
    start: u8,
    step: impl Fn(u8) -> [Option<u8>; 2],
) -> [u8; hits::SQUARES] {
    let n = usize::from(columns);
    let mut idx = [u8::MAX; hits::SQUARES];
    let mut sq = start;
    idx[usize::from(sq)] = 0;
    for k in 1..4 * n {
        let [main, alt] = step(sq);
        // Leaving the third row, the lap goes into the enemy home row.
        let next = if k == 3 * n { alt.or(main) } else { main };
        match next {
            Some(x) if idx[usize::from(x)] == u8::MAX => {
                idx[usize::from(x)] = k as u8;
                sq = x;
            }
            _ => break,
        }
    }
    idx
}

/// Laps already walked, by [`lap_index_cached`]'s key.
type Laps = rustc_hash::FxHashMap<(u8, u8, u8, Player), std::rc::Rc<[u8; hits::SQUARES]>>;

thread_local! {
    /// Laps already walked on this thread.
    static LAPS: std::cell::RefCell<Laps> = Default::default();
}

/// [`lap_index`], kept per thread under `key` (which must name the game, the board and the
/// track), since a board's tracks never change.
pub(crate) fn lap_index_cached(
    key: (u8, u8, u8, Player),
    columns: u8,
    start: u8,
    step: impl Fn(u8) -> [Option<u8>; 2],
) -> std::rc::Rc<[u8; hits::SQUARES]> {
    LAPS.with(|laps| {
        laps.borrow_mut()
            .entry(key)
            .or_insert_with(|| std::rc::Rc::new(lap_index(columns, start, step)))
            .clone()
    })
}
