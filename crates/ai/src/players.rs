//! The registry of players: which players each game has, how a spec string becomes an agent
//! ([`PreparedAgent`]), and the limits a host (the server) may put on them. Above the players:
//! it builds them all; the players themselves know only the [`Agent`] trait.

use std::sync::Arc;

use qasab_core::{GameState, Ruleset};

use crate::agent::Agent;
use crate::eval::{EvalWeights, Evaluate};
use crate::spec::{AgentError, AgentSpec};

/// Names of the agents, for messages.
pub const AGENT_NAMES: &[&str] = &["random", "solver", "mcts", "greedy", "expectimax"];

/// Builds agents of one spec for one ruleset, from a seed. Expensive preparation (solving a
/// game) happens once, when the maker is built; each call is cheap.
pub type AgentMaker<S> = Arc<dyn Fn(u64) -> Box<dyn Agent<S>> + Send + Sync>;

/// A game whose states computer players can play. Every such game has a static evaluation
/// ([`Evaluate`]), which the search players use.
pub trait Playable: Evaluate {
    /// Prepares the agent described by `spec` for `rules`. The maker ignores the spec's
    /// `seed=`; callers choose the seed (see [`AgentSpec::seed`] and [`crate::rng`]).
    ///
    /// # Errors
    /// [`AgentError`] for an unknown agent, a bad option, or an agent this game lacks.
    fn agent_maker(spec: &AgentSpec, rules: &Self::Ruleset)
    -> Result<AgentMaker<Self>, AgentError>;

    /// The strongest player for this game, used as the default opponent and for hints.
    fn strongest_agent() -> &'static str;

    /// The options of `mcts` on this game where its spec sets none.
    fn mcts_defaults() -> crate::mcts::MctsOptions {
        crate::mcts::MctsOptions::default()
    }
}

/// The maker of an agent every game has (`random`, `mcts`, `greedy`, `expectimax`); `None` for
/// other names.
///
/// # Errors
/// [`AgentError`] for bad options.
pub fn common_maker<S: Playable>(spec: &AgentSpec) -> Result<Option<AgentMaker<S>>, AgentError> {
    match spec.name.as_str() {
        "random" => {
            spec.check_keys(&["seed"])?;
            spec.seed()?;
            Ok(Some(Arc::new(|seed| {
                Box::new(crate::random::RandomAgent::new(seed)) as Box<dyn Agent<S>>
            })))
        }
        "mcts" => {
            let defaults = S::mcts_defaults();
            EvalWeights::from_spec::<S>(spec, defaults.eval)?;
            let options = crate::mcts::MctsOptions::from_spec_over(spec, defaults)?;
            Ok(Some(Arc::new(move |seed| {
                Box::new(crate::mcts::MctsAgent::<S>::with_defaults(
                    options, defaults, seed,
                )) as Box<dyn Agent<S>>
            })))
        }
        "greedy" => {
            spec.check_keys(&["seed", "eval"])?;
            spec.seed()?;
            let eval = EvalWeights::from_spec::<S>(spec, EvalWeights::Hand)?;
            Ok(Some(Arc::new(move |seed| {
                Box::new(crate::greedy::Greedy::<S>::new(seed).with_eval(eval)) as Box<dyn Agent<S>>
            })))
        }
        "expectimax" => {
            spec.check_keys(&["seed", "level", "depth", "nodes", "horizon", "eval"])?;
            spec.seed()?;
            crate::expectimax::Options::from_spec::<S>(spec)?;
            let spec = spec.clone();
            Ok(Some(Arc::new(move |seed| {
                let agent = crate::expectimax::Expectimax::<S>::from_spec(&spec, seed)
                    .expect("the spec was checked when the maker was built");
                Box::new(agent) as Box<dyn Agent<S>>
            })))
        }
        _ => Ok(None),
    }
}

/// The error for an agent name nobody knows, or one this ruleset lacks.
pub fn unknown_agent<R: Ruleset>(spec: &AgentSpec, rules: &R) -> AgentError {
    if AGENT_NAMES.contains(&spec.name.as_str()) {
        AgentError::NotAvailable {
            agent: spec.name.clone(),
            ruleset: rules.to_string(),
            why: "it is only available for tihbat".into(),
        }
    } else {
        AgentError::UnknownAgent {
            name: spec.name.clone(),
            valid: AGENT_NAMES.to_vec(),
        }
    }
}

/// A prepared agent spec: the maker plus the spec's own seed, if any.
#[derive(Clone)]
pub struct PreparedAgent<S: GameState> {
    /// The spec as given.
    pub spec: AgentSpec,
    /// The `seed=` of the spec.
    pub seed: Option<u64>,
    /// Builds the agent.
    pub maker: AgentMaker<S>,
}

impl<S: Playable> PreparedAgent<S> {
    /// Parses and prepares a spec for `rules`.
    ///
    /// # Errors
    /// As [`AgentSpec::parse`] and [`Playable::agent_maker`].
    pub fn new(spec: &str, rules: &S::Ruleset) -> Result<Self, AgentError> {
        let spec = AgentSpec::parse(spec)?;
        let seed = spec.seed()?;
        let maker = S::agent_maker(&spec, rules)?;
        Ok(PreparedAgent { spec, seed, maker })
    }

    /// The agent for one game: seeded with the spec's `seed=` if given, else `default_seed`.
    pub fn make(&self, default_seed: u64) -> Box<dyn Agent<S>> {
        (self.maker)(self.seed.unwrap_or(default_seed))
    }
}
