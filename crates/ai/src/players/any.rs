//! The dynamic player of any game: [`AnyPlayer`], a prepared player of whichever game a
//! ruleset names, and [`AnyAgent`], one agent of it, which front ends use with [`AnyState`].

use std::sync::Arc;

use qasab_core::{
    Action, AnyAction, AnyRuleset, AnyState, GameState, Registered, Ruleset, with_ruleset,
};

use crate::agent::{Agent, ValueKind};
use crate::players::limits::Limits;
use crate::players::playable::Playable;
use crate::players::registry::{AGENT_NAMES, PreparedAgent, stands_for, strongest_first};
use crate::search::endgame::TableSet;
use crate::spec::{AgentError, AgentSpec, Cost};

/// A prepared player of any game: the dynamic form of [`PreparedAgent`], which front ends use
/// with [`AnyState`]. Cheap to clone (the preparation, such as a solved game, is shared).
#[derive(Clone)]
pub struct AnyPlayer {
    inner: Arc<dyn DynPlayer>,
}

/// [`PreparedAgent`] with its game's type erased to the registry's dynamic types.
trait DynPlayer: Send + Sync {
    fn spec(&self) -> &AgentSpec;
    fn cost(&self) -> &Cost;
    fn make(&self, seed: u64) -> AnyAgent;
    fn with_tables(&self, tables: &Arc<TableSet>) -> Arc<dyn DynPlayer>;
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

    fn cost(&self) -> &Cost {
        &self.cost
    }

    fn make(&self, seed: u64) -> AnyAgent {
        AnyAgent {
            inner: Box::new(TypedAgent(PreparedAgent::make(self, seed))),
        }
    }

    fn with_tables(&self, tables: &Arc<TableSet>) -> Arc<dyn DynPlayer> {
        Arc::new(self.clone().with_tables(Some(tables)))
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

    /// Prepares the player of `spec` for `rules` if what it spends is within a host's
    /// `limits` ([`PreparedAgent::within`]): its budget, then the size of what it would
    /// prepare (the game a solver solves), checked before it is prepared.
    ///
    /// # Errors
    /// A message: the player's own error, or the limit passed.
    pub fn within(spec: &str, rules: &AnyRuleset, limits: &Limits) -> Result<AnyPlayer, String> {
        with_ruleset!(rules, r => Self::typed_within(spec, r, limits))
    }

    fn typed_within<R: Ruleset>(spec: &str, rules: &R, limits: &Limits) -> Result<AnyPlayer, String>
    where
        R::State: Playable + Registered,
    {
        let prepared = PreparedAgent::<R::State>::within(spec, rules, limits)?;
        Ok(AnyPlayer {
            inner: Arc::new(prepared),
        })
    }

    /// The same player with the endgame tables `tables`, if any
    /// ([`PreparedAgent::with_tables`]): wherever a table holds the position it plays and
    /// ranks the moves by their exact values. `tables` must be of the player's ruleset
    /// ([`TableSet::open_dir`]).
    pub fn with_tables(self, tables: Option<&Arc<TableSet>>) -> AnyPlayer {
        match tables {
            Some(t) => AnyPlayer {
                inner: self.inner.with_tables(t),
            },
            None => self,
        }
    }

    /// What the player spends ([`Limits::check`] checks it).
    pub fn cost(&self) -> &Cost {
        self.inner.cost()
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

    /// The specs that `spec` stands for on `rules`, in the order to try them
    /// ([`stands_for`]): itself, or for `strongest` the game's default players with its
    /// options. A host that keeps players by spec plays the first it can.
    ///
    /// # Errors
    /// [`AgentError::Syntax`] for a spec that does not read.
    pub fn stands_for(spec: &str, rules: &AnyRuleset) -> Result<Vec<String>, AgentError> {
        with_ruleset!(rules, r => typed_stands_for(spec, r))
    }

    /// The strongest player of a game, used as the default opponent and for hints.
    pub fn strongest(rules: &AnyRuleset) -> &'static str {
        with_ruleset!(rules, r => strongest_of(r))
    }

    /// The default players of a game, strongest first ([`strongest_first`]): a host plays
    /// the first it can.
    pub fn strongest_first(rules: &AnyRuleset) -> Vec<&'static str> {
        with_ruleset!(rules, r => typed_strongest_first(r))
    }

    /// Whether `limits` allow the player of `spec` on `rules`, read but not prepared
    /// ([`PreparedAgent::allowed`]).
    ///
    /// # Errors
    /// A message: the player's own error, or the limit passed.
    pub fn allowed(spec: &str, rules: &AnyRuleset, limits: &Limits) -> Result<(), String> {
        with_ruleset!(rules, r => typed_allowed(spec, r, limits))
    }

    /// The strongest player of a game that `limits` allow, by what it costs (its players read
    /// but none prepared): the first of [`AnyPlayer::strongest_first`] that
    /// [`AnyPlayer::allowed`] lets through, or `None`.
    pub fn strongest_allowed(rules: &AnyRuleset, limits: &Limits) -> Option<&'static str> {
        Self::strongest_first(rules)
            .into_iter()
            .find(|spec| Self::allowed(spec, rules, limits).is_ok())
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

fn strongest_of<R: Ruleset>(rules: &R) -> &'static str
where
    R::State: Playable,
{
    R::State::strongest_agent(rules)
}

fn typed_stands_for<R: Ruleset>(spec: &str, rules: &R) -> Result<Vec<String>, AgentError>
where
    R::State: Playable,
{
    Ok(stands_for::<R::State>(spec, rules)?
        .iter()
        .map(ToString::to_string)
        .collect())
}

fn typed_strongest_first<R: Ruleset>(rules: &R) -> Vec<&'static str>
where
    R::State: Playable,
{
    strongest_first::<R::State>(rules)
}

fn typed_allowed<R: Ruleset>(spec: &str, rules: &R, limits: &Limits) -> Result<(), String>
where
    R::State: Playable,
{
    PreparedAgent::<R::State>::allowed(spec, rules, limits)
}
