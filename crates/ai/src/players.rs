//! The registry of players: which players each game has, how a spec string becomes an agent
//! ([`PreparedAgent`]), and the limits a host (the server) may put on them. Above the players:
//! it builds them all; the players themselves know only the [`Agent`] trait.

use std::sync::Arc;

use qasab_core::{
    Action, AnyAction, AnyRuleset, AnyState, GameState, Registered, Ruleset, with_ruleset,
};

use crate::agent::{Agent, ValueKind};
use crate::eval::{EvalWeights, Evaluate};
use crate::spec::{AgentError, AgentSpec, apply_options, seed_option};
use qasab_core::options::OptionDef;

/// Names of the agents, for messages.
pub const AGENT_NAMES: &[&str] = &["random", "solver", "mcts", "greedy", "expectimax", "net"];

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

    /// Refuses a spec whose preparation would pass a host's `limits` (the size of the game an
    /// exact solver solves). Nothing by default.
    ///
    /// # Errors
    /// A message naming the limit.
    fn check_preparation(
        spec: &AgentSpec,
        rules: &Self::Ruleset,
        limits: &Limits,
    ) -> Result<(), String> {
        let _ = (spec, rules, limits);
        Ok(())
    }
}

/// The documentation of a player's options, in documented order; `None` for an unknown name.
pub fn option_docs(name: &str) -> Option<Vec<qasab_core::OptionDoc>> {
    Some(match name {
        "random" | "solver" => SEED_ONLY.iter().map(OptionDef::doc).collect(),
        "greedy" => crate::greedy::OPTIONS.iter().map(OptionDef::doc).collect(),
        "expectimax" => crate::expectimax::OPTIONS
            .iter()
            .map(OptionDef::doc)
            .collect(),
        "mcts" => crate::mcts::OPTIONS.iter().map(OptionDef::doc).collect(),
        "net" => crate::net::NET_OPTIONS.iter().map(OptionDef::doc).collect(),
        _ => return None,
    })
}

/// The options of the players that take only `seed=` (`random`, `solver`).
pub const SEED_ONLY: &[OptionDef<()>] = &[seed_option()];

/// The maker of an agent every game has (`random`, `mcts`, `greedy`, `expectimax`); `None` for
/// other names.
///
/// # Errors
/// [`AgentError`] for bad options.
pub fn common_maker<S: Playable>(spec: &AgentSpec) -> Result<Option<AgentMaker<S>>, AgentError> {
    match spec.name.as_str() {
        "random" => {
            apply_options(spec, SEED_ONLY, &mut ())?;
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
            let mut settings = crate::greedy::Settings {
                eval: EvalWeights::Hand,
                fitted: S::FITTED,
                net: S::NET,
            };
            apply_options(spec, crate::greedy::OPTIONS, &mut settings)?;
            let eval = settings.eval;
            Ok(Some(Arc::new(move |seed| {
                Box::new(crate::greedy::Greedy::<S>::new(seed).with_eval(eval)) as Box<dyn Agent<S>>
            })))
        }
        "expectimax" => {
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
            why: if spec.name == "net" {
                "it is only available for the Tab family and the Ludii presets".into()
            } else {
                "it is only available for tihbat".into()
            },
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

/// The budgets a host (the server) allows a computer player, so that one decision can neither
/// hold a thread for long nor take every core, and the largest game its exact solver may
/// prepare. A spec is checked against them by [`Limits::check`] before it is prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Who sets the limits, for messages (`the server`).
    pub holder: &'static str,
    /// The most `time=` per move, in milliseconds.
    pub time_ms: u64,
    /// The most `iterations=` per move.
    pub iterations: u64,
    /// The most `threads=`.
    pub threads: u64,
    /// The most `nodes=` per move.
    pub nodes: u64,
    /// The most counters per pit for which the exact Tihbat `solver` is prepared (its table
    /// grows with the fourth power of the counters).
    pub solver_seeds: u32,
}

impl Limits {
    /// Refuses a spec whose budget is above the limits; the player checks the rest of its
    /// options when it is prepared. A spec that does not parse is left to the player too.
    ///
    /// # Errors
    /// A message naming the option and the limit.
    pub fn check(&self, spec: &str) -> Result<(), String> {
        let Ok(parsed) = AgentSpec::parse(spec) else {
            return Ok(());
        };
        for (key, max, unit) in [
            ("time", self.time_ms, "milliseconds"),
            ("iterations", self.iterations, "iterations"),
            ("threads", self.threads, "threads"),
            ("nodes", self.nodes, "nodes"),
        ] {
            if let Some(v) = parsed.get(key).and_then(|v| v.parse::<u64>().ok())
                && v > max
            {
                return Err(format!(
                    "{spec}: {key}={v} is above {}'s limit of {max} {unit}",
                    self.holder
                ));
            }
        }
        Ok(())
    }
}

/// A prepared player of any game: the dynamic form of [`PreparedAgent`], which front ends use
/// with [`AnyState`]. Cheap to clone (the preparation, such as a solved game, is shared).
#[derive(Clone)]
pub struct AnyPlayer {
    inner: Arc<dyn DynPlayer>,
}

/// [`PreparedAgent`] with its game's type erased to the registry's dynamic types.
trait DynPlayer: Send + Sync {
    fn spec(&self) -> &AgentSpec;
    fn make(&self, seed: u64) -> AnyAgent;
}

/// An agent of any game, made by [`AnyPlayer::make`]: it keeps its own state from one decision
/// to the next (its random stream, a plan, a search tree it reuses), as the typed agent does.
pub struct AnyAgent {
    inner: Box<dyn DynAgent>,
}

/// [`Agent`] with its game's type erased.
trait DynAgent: Send {
    fn spec(&self) -> String;
    fn choose(&mut self, state: &AnyState) -> Option<AnyAction>;
    fn evaluate(&mut self, state: &AnyState) -> Option<Option<AnyEvaluation>>;
}

/// A typed agent behind [`DynAgent`].
struct TypedAgent<S: GameState>(Box<dyn Agent<S>>);

impl<S: Registered> DynAgent for TypedAgent<S> {
    fn spec(&self) -> String {
        self.0.spec()
    }

    fn choose(&mut self, state: &AnyState) -> Option<AnyAction> {
        let state = S::state_of(state)?;
        state.turn().player()?;
        Some(S::action_into_any(Action::Move(self.0.choose(state))))
    }

    fn evaluate(&mut self, state: &AnyState) -> Option<Option<AnyEvaluation>> {
        let state = S::state_of(state)?;
        state.turn().player()?;
        Some(self.0.evaluate(state).map(|e| {
            AnyEvaluation {
                kind: e.kind,
                moves: e
                    .moves
                    .into_iter()
                    .map(|(m, v)| (S::action_into_any(Action::Move(m)), v))
                    .collect(),
            }
        }))
    }
}

impl AnyAgent {
    /// The agent's spec string, with the seed it uses.
    pub fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The agent's move at `state`; `None` if it is not a player's turn or the state is of
    /// another game.
    pub fn choose(&mut self, state: &AnyState) -> Option<AnyAction> {
        self.inner.choose(state)
    }

    /// The agent's values of the legal moves at `state`: `None` if it is not a player's turn
    /// or the state is of another game, `Some(None)` for an agent that does not rate moves.
    pub fn evaluate(&mut self, state: &AnyState) -> Option<Option<AnyEvaluation>> {
        self.inner.evaluate(state)
    }
}

/// An agent's values of the legal moves of a dynamic state, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct AnyEvaluation {
    /// What the values mean.
    pub kind: ValueKind,
    /// Each legal move with its value, best first.
    pub moves: Vec<(AnyAction, f64)>,
}

impl<S: Playable + Registered> DynPlayer for PreparedAgent<S> {
    fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    fn make(&self, seed: u64) -> AnyAgent {
        AnyAgent {
            inner: Box::new(TypedAgent(PreparedAgent::make(self, seed))),
        }
    }
}

impl AnyPlayer {
    /// Prepares the player of `spec` for `rules`.
    ///
    /// # Errors
    /// [`AgentError`] for a bad spec, or a player this game lacks.
    pub fn new(spec: &str, rules: &AnyRuleset) -> Result<AnyPlayer, AgentError> {
        with_ruleset!(rules, r => Self::typed(spec, r))
    }

    fn typed<R: Ruleset>(spec: &str, rules: &R) -> Result<AnyPlayer, AgentError>
    where
        R::State: Playable + Registered,
    {
        let prepared = PreparedAgent::<R::State>::new(spec, rules)?;
        Ok(AnyPlayer {
            inner: Arc::new(prepared),
        })
    }

    /// Prepares the player of `spec` for `rules` within a host's `limits`: the budget of the
    /// spec, then the size of what the player would prepare (the game a solver solves).
    ///
    /// # Errors
    /// A message: the limit passed, or the player's own error.
    pub fn within(spec: &str, rules: &AnyRuleset, limits: &Limits) -> Result<AnyPlayer, String> {
        limits.check(spec)?;
        let parsed = AgentSpec::parse(spec).map_err(|e| e.to_string())?;
        with_ruleset!(rules, r => check_preparation_of(&parsed, r, limits))?;
        AnyPlayer::new(spec, rules).map_err(|e| e.to_string())
    }

    /// The spec as given.
    pub fn spec(&self) -> &AgentSpec {
        self.inner.spec()
    }

    /// An agent of this player, seeded with the spec's `seed=` if given, else `seed`.
    pub fn make(&self, seed: u64) -> AnyAgent {
        self.inner.make(seed)
    }

    /// The move at `state` of a fresh agent seeded with `seed` (the spec's `seed=` wins if
    /// given); `None` if it is not a player's turn or the state is of another game.
    pub fn choose(&self, state: &AnyState, seed: u64) -> Option<AnyAction> {
        self.make(seed).choose(state)
    }

    /// A fresh agent's values of the legal moves at `state` ([`AnyAgent::evaluate`]).
    pub fn evaluate(&self, state: &AnyState, seed: u64) -> Option<Option<AnyEvaluation>> {
        self.make(seed).evaluate(state)
    }

    /// The strongest player of a game, used as the default opponent and for hints.
    pub fn strongest(rules: &AnyRuleset) -> &'static str {
        with_ruleset!(rules, r => strongest_of(r))
    }

    /// The players a game has, in [`AGENT_NAMES`] order.
    pub fn names(rules: &AnyRuleset) -> Vec<&'static str> {
        AGENT_NAMES
            .iter()
            .copied()
            .filter(|name| AnyPlayer::new(name, rules).is_ok())
            .collect()
    }
}

fn check_preparation_of<R: Ruleset>(
    spec: &AgentSpec,
    rules: &R,
    limits: &Limits,
) -> Result<(), String>
where
    R::State: Playable,
{
    R::State::check_preparation(spec, rules, limits)
}

fn strongest_of<R: Ruleset>(_: &R) -> &'static str
where
    R::State: Playable,
{
    R::State::strongest_agent()
}
