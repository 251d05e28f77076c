//! Players behind one trait, and the spec strings that configure them.
//!
//! A player is written like a ruleset: `random`, `random(seed=7)`, `solver`. Each agent takes an
//! explicit seed: the `seed=` key of its spec, or else the seed the game driver derives for its
//! seat (see [`crate::rng`]).

use std::fmt;
use std::sync::Arc;

use qasab_core::ruleset::split_spec;
use qasab_core::{GameState, Ruleset};
use thiserror::Error;

use crate::eval::{EvalWeights, Evaluate};

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
}

/// Move values from an agent, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation<M> {
    /// What the values mean.
    pub kind: ValueKind,
    /// Each legal move with its value, best first.
    pub moves: Vec<(M, f64)>,
}

/// A parsed agent spec: a name and `key=value` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent name.
    pub name: String,
    /// Options in the order given.
    pub options: Vec<(String, String)>,
}

/// Names of the agents, for messages.
pub const AGENT_NAMES: &[&str] = &["random", "solver", "mcts", "greedy", "expectimax"];

/// Why an agent spec was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AgentError {
    /// Not of the form `name(key=value,...)`.
    #[error("bad player spec '{spec}': {message}; expected e.g. random or random(seed=7)")]
    Syntax {
        /// The spec.
        spec: String,
        /// What is wrong.
        message: String,
    },
    /// No agent has this name.
    #[error("unknown player '{name}'; valid players: {}", valid.join(", "))]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The valid names.
        valid: Vec<&'static str>,
    },
    /// The agent has no such option.
    #[error("player {agent} has no option '{key}'; valid options: {}", valid.join(", "))]
    UnknownKey {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// Valid keys.
        valid: Vec<&'static str>,
    },
    /// A bad option value.
    #[error("player {agent} option {key}={value} is not valid; expected {expected}")]
    BadValue {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// The agent cannot play this ruleset.
    #[error("player {agent} cannot play {ruleset}: {why}")]
    NotAvailable {
        /// The agent.
        agent: String,
        /// The ruleset.
        ruleset: String,
        /// Why.
        why: String,
    },
}

impl AgentSpec {
    /// Parses `name` or `name(key=value,...)`.
    ///
    /// # Errors
    /// [`AgentError::Syntax`].
    pub fn parse(spec: &str) -> Result<AgentSpec, AgentError> {
        let s = split_spec(spec).map_err(|message| AgentError::Syntax {
            spec: spec.to_string(),
            message,
        })?;
        for (i, (k, _)) in s.options.iter().enumerate() {
            if s.options[..i].iter().any(|(k2, _)| k2 == k) {
                return Err(AgentError::Syntax {
                    spec: spec.to_string(),
                    message: format!("option '{k}' is given twice"),
                });
            }
        }
        Ok(AgentSpec {
            name: s.name.to_string(),
            options: s
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        })
    }

    /// Checks that every key is one of `valid`.
    ///
    /// # Errors
    /// [`AgentError::UnknownKey`] for the first other key.
    pub fn check_keys(&self, valid: &[&'static str]) -> Result<(), AgentError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !valid.contains(&k.as_str()))
        {
            Some((k, _)) => Err(AgentError::UnknownKey {
                agent: self.name.clone(),
                key: k.clone(),
                valid: valid.to_vec(),
            }),
            None => Ok(()),
        }
    }

    /// The value of option `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `seed=` option, if given.
    ///
    /// # Errors
    /// [`AgentError::BadValue`] if it is not a `u64`.
    pub fn seed(&self) -> Result<Option<u64>, AgentError> {
        match self.get("seed") {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| AgentError::BadValue {
                agent: self.name.clone(),
                key: "seed".into(),
                value: v.into(),
                expected: "an integer from 0 to 18446744073709551615".into(),
            }),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.options.is_empty() {
            let opts: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", opts.join(","))?;
        }
        Ok(())
    }
}

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
