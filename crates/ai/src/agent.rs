//! The [`Agent`] trait that every computer player implements, and what an agent says of the
//! moves it rates. The players are below this trait; the registry that builds them from spec
//! strings is `players`.

use qasab_core::GameState;

/// A computer (or human) player.
pub trait Agent<S: GameState>: Send {
    /// The agent's spec string, with the seed it actually uses.
    fn spec(&self) -> String;

    /// Chooses a legal move. Called only at a player's turn that is this agent's.
    fn choose(&mut self, state: &S) -> S::Move;

    /// Every legal move with the agent's value for it, best first, or `None` if the agent does
    /// not evaluate moves (e.g. `random`).
    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let _ = state;
        None
    }

    /// What the agent's last search spent, for a player that searches by iterations (`mcts`);
    /// `None` for the others, and where the last decision was played without a search.
    fn last_search(&self) -> Option<SearchCounts> {
        None
    }
}

/// What one search spent.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Iterations run, over all its trees.
    pub iterations: u64,
    /// Nodes its graphs hold at the end.
    pub nodes: u64,
}

/// What an agent's move values mean.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// The exact margin of future captures (mover's minus opponent's) under perfect play.
    ExactMargin,
    /// The same margin taken from positions' values without their history, where the exact
    /// value for this history could not be proven (Tihbat `cycle=own-side` only).
    ApproximateMargin,
    /// An estimate of the mover's expected result in `[-1, 1]`.
    Estimate,
    /// The mover's exact expected result in `[-1, 1]` (+1 a win, −1 a loss, 0 play that never
    /// ends), from the endgame tables.
    ExactResult,
}

impl ValueKind {
    /// Whether the values are the mover's expected result in `[-1, 1]`, estimated or exact
    /// (rather than a margin of captures).
    pub fn is_result(self) -> bool {
        matches!(self, ValueKind::Estimate | ValueKind::ExactResult)
    }
}

/// Move values from an agent, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation<M> {
    /// What the values mean.
    pub kind: ValueKind,
    /// Each legal move with its value, best first.
    pub moves: Vec<(M, f64)>,
}
