//! The `mcts` player: an agent that searches each decision, keeps its trees for reuse and plays
//! the rest of a turn it has planned (`tree=turns`) without searching again.

use rand_core::Rng;

use super::options::MctsOptions;
use super::run::{SearchResult, run_search};
use super::tree::Tree;
use crate::agent::{Agent, Evaluation, SearchCounts, ValueKind};
use crate::eval::Evaluate;
use crate::rng::{GameRng, rng_from_seed};

/// The `mcts` player: Monte Carlo tree search with the options of an [`MctsOptions`].
///
/// Each search draws its seed from the agent's generator, so a game is reproducible from the
/// agent's seed (with an iteration budget).
pub struct MctsAgent<S: Evaluate> {
    options: MctsOptions,
    defaults: MctsOptions,
    seed: u64,
    rng: GameRng,
    trees: Vec<Tree<S>>,
    /// The rest of the turn chosen by the last search (`tree=turns`): each decision with the
    /// state it is to be played in.
    plan: Vec<(S, S::Move)>,
    /// What the last decision's search spent, `None` if it was played without one.
    last: Option<SearchCounts>,
}

impl<S: Evaluate> MctsAgent<S> {
    /// A player with `options`, seeded with `seed`.
    pub fn new(options: MctsOptions, seed: u64) -> Self {
        Self::with_defaults(options, MctsOptions::default(), seed)
    }

    /// A player with `options`, seeded with `seed`, whose spec lists the options that differ
    /// from `defaults` (the game's, from which `options` were read).
    pub fn with_defaults(options: MctsOptions, defaults: MctsOptions, seed: u64) -> Self {
        MctsAgent {
            options,
            defaults,
            seed,
            rng: rng_from_seed(seed),
            trees: Vec::new(),
            plan: Vec::new(),
            last: None,
        }
    }

    /// The player's options.
    pub fn options(&self) -> &MctsOptions {
        &self.options
    }

    /// Searches `state` and returns every legal move with its visits and value, best first;
    /// `None` if it is not a player's turn. Every call draws a new seed from the agent's
    /// generator.
    pub fn search(&mut self, state: &S) -> Option<SearchResult<S::Move>> {
        state.turn().player()?;
        let seed = self.rng.next_u64();
        let result = run_search(&mut self.trees, state, &self.options, seed);
        self.last = result.as_ref().map(|r| SearchCounts {
            iterations: r.iterations,
            nodes: r.nodes,
        });
        result
    }

    /// The decisions still planned (`tree=turns`): the rest of the turn the last search chose,
    /// which [`choose`](Agent::choose) plays without searching as long as the game follows it.
    pub fn planned(&self) -> impl ExactSizeIterator<Item = S::Move> + '_ {
        self.plan.iter().map(|&(_, m)| m)
    }
}

impl<S: Evaluate> Agent<S> for MctsAgent<S> {
    fn spec(&self) -> String {
        self.options.spec_over(self.seed, &self.defaults)
    }

    /// With `tree=turns` the rest of the turn the search chose is played without searching
    /// again, as long as the game follows it.
    fn choose(&mut self, state: &S) -> S::Move {
        self.last = None;
        if self.plan.first().is_some_and(|(s, _)| s == state) {
            return self.plan.remove(0).1;
        }
        self.plan.clear();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if let [only] = moves[..] {
            return only;
        }
        let result = self
            .search(state)
            .expect("choose is called at a player's turn");
        let mut s = state.clone();
        s.play_unchecked(result.line[0]);
        for &m in &result.line[1..] {
            self.plan.push((s.clone(), m));
            s.play_unchecked(m);
        }
        result.best()
    }

    fn last_search(&self) -> Option<SearchCounts> {
        self.last
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let result = self.search(state)?;
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: result.moves.iter().map(|m| (m.mv, m.value)).collect(),
        })
    }
}
