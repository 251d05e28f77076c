//! Players for Tihbat: the common ones plus the exact `solver`.

use std::sync::Arc;

use qasab_core::tihbat::{Move, Ruleset, State};

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::players::plan::{AgentMaker, Plan};
use crate::players::playable::Playable;
use crate::rng::{GameRng, below, rng_from_seed};
use crate::search::solver::Solver;
use crate::spec::{AgentError, Cost};

/// Plays perfectly: a move of the best exact value given the game's history, chosen at random
/// among equally good moves with its seed.
pub struct SolverAgent {
    solver: Arc<Solver>,
    seed: u64,
    rng: GameRng,
}

impl SolverAgent {
    /// A solver player using an already solved ruleset.
    pub fn new(solver: Arc<Solver>, seed: u64) -> Self {
        SolverAgent {
            solver,
            seed,
            rng: rng_from_seed(seed),
        }
    }
}

impl SolverAgent {
    /// Exact move values, or the tabulated guess where they cannot be proven (only possible
    /// under `cycle=own-side`).
    fn values(&self, state: &State) -> (Vec<(Move, i32)>, ValueKind) {
        match self.solver.move_values(state) {
            Ok(v) => (v, ValueKind::ExactMargin),
            Err(_) => (
                self.solver.fresh_move_values(state),
                ValueKind::ApproximateMargin,
            ),
        }
    }
}

impl Agent<State> for SolverAgent {
    fn spec(&self) -> String {
        format!("solver(seed={})", self.seed)
    }

    fn choose(&mut self, state: &State) -> Move {
        let (values, _) = self.values(state);
        let best = values.iter().map(|&(_, v)| v).max().expect("a legal move");
        let best: Vec<Move> = values
            .into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(m, _)| m)
            .collect();
        best[below(&mut self.rng, best.len())]
    }

    fn evaluate(&mut self, state: &State) -> Option<Evaluation<Move>> {
        let (values, kind) = self.values(state);
        let mut moves: Vec<(Move, f64)> =
            values.into_iter().map(|(m, v)| (m, f64::from(v))).collect();
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(Evaluation { kind, moves })
    }
}

impl Playable for State {
    fn strongest_agent(_: &Self::Ruleset) -> &'static str {
        "solver"
    }

    /// The reward weighs the margin of captures half (`margin=0.5`): Tihbat's exact value is
    /// that margin, and with the result alone `mcts` picked a move of optimal value in 82.8% of
    /// 1,000 random positions, against 97.5% with the margin (`docs/STRENGTH.md`).
    fn mcts_defaults() -> crate::search::mcts::MctsOptions {
        crate::search::mcts::MctsOptions {
            margin: 0.5,
            ..crate::search::mcts::MctsOptions::default()
        }
    }

    /// The exact solver ([`Solver`]); what it costs is the counters per pit it solves (see
    /// [`crate::search::solver::HOST_SEEDS`]).
    fn solver(rules: &Ruleset) -> Option<Plan<State>> {
        let rules = *rules;
        let cost = Cost {
            solver_seeds: Some(u32::from(rules.seeds)),
            ..Cost::default()
        };
        Some(Plan::new(cost, move || {
            let solver = Arc::new(Solver::new(rules).map_err(|e| AgentError::NotAvailable {
                agent: "solver".into(),
                ruleset: rules.to_string(),
                why: e.detail(),
            })?);
            Ok(Arc::new(move |seed| {
                Box::new(SolverAgent::new(solver.clone(), seed)) as Box<dyn Agent<State>>
            }) as AgentMaker<State>)
        }))
    }
}
