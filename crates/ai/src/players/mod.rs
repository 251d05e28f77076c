//! The registry of players: which players there are (`players!`: one line each, with its
//! option table and how its spec is read), how a spec string becomes an agent of a game
//! ([`Plan`], [`PreparedAgent`]), and the limits a host (the server) may put on them
//! ([`Limits`]). Above the players: it builds them all; the players themselves know only the
//! [`Agent`] trait.

pub mod net;
pub mod random;
pub mod tab;
pub mod tab_ludii;
pub mod tihbat;

use std::sync::Arc;

use qasab_core::options::{OptionDef, OptionDoc};
use qasab_core::{
    Action, AnyAction, AnyRuleset, AnyState, GameState, Registered, Ruleset, with_ruleset,
};

use crate::agent::{Agent, ValueKind};
use crate::eval::options::{EvalSource, WEIGHTS_KEY};
use crate::eval::{EvalWeights, Evaluate};
use crate::spec::{AgentError, AgentSpec, Cost, Spend, apply_options, seed_option};

/// Declares the players, one line each: its name, its option table, and the function that
/// reads its spec for a game (a [`Plan`]). From the list come [`AGENT_NAMES`],
/// [`option_docs`] and the dispatch of [`Plan::read`].
macro_rules! players {
    ($($name:literal: $options:expr => $read:ident,)+) => {
        /// Names of the players, in the registry's order.
        pub const AGENT_NAMES: &[&str] = &[$($name),+];

        /// The documentation of a player's options, in documented order; `None` for an
        /// unknown name.
        pub fn option_docs(name: &str) -> Option<Vec<OptionDoc>> {
            match name {
                $($name => Some($options.iter().map(OptionDef::doc).collect()),)+
                _ => None,
            }
        }

        /// The plan of `spec` for a game of `S`, by the player's name.
        fn read_spec<S: Playable>(
            spec: &AgentSpec,
            rules: &S::Ruleset,
        ) -> Result<Plan<S>, AgentError> {
            match spec.name.as_str() {
                $($name => $read::<S>(spec, rules),)+
                _ => Err(unknown_agent::<S>(spec, rules)),
            }
        }
    };
}

players! {
    "random": SEED_ONLY => read_random,
    "solver": SEED_ONLY => read_solver,
    "mcts": crate::search::mcts::OPTIONS => read_mcts,
    "greedy": crate::search::greedy::OPTIONS => read_greedy,
    "expectimax": crate::search::expectimax::OPTIONS => read_expectimax,
    "net": net::NET_OPTIONS => read_net,
}

/// Builds agents of one spec for one ruleset, from a seed. Expensive preparation (solving a
/// game) happens once, when the maker is built; each call is cheap.
pub type AgentMaker<S> = Arc<dyn Fn(u64) -> Box<dyn Agent<S>> + Send + Sync>;

/// A game whose states computer players can play. Every such game has a static evaluation
/// ([`Evaluate`]), which the search players use.
pub trait Playable: Evaluate {
    /// The strongest player measured on `rules`, used as the default opponent, for hints and
    /// for analysis.
    fn strongest_agent(rules: &Self::Ruleset) -> &'static str;

    /// The options of `mcts` on this game where its spec sets none.
    fn mcts_defaults() -> crate::search::mcts::MctsOptions {
        crate::search::mcts::MctsOptions::default()
    }

    /// Whether a network is shipped for `rules` (`eval=net`), or why not. No game has one by
    /// default.
    ///
    /// # Errors
    /// A message naming the rulesets that have one.
    fn network_fits(rules: &Self::Ruleset) -> Result<(), String> {
        let _ = rules;
        Err("only the Tab family and the Ludii presets have networks".into())
    }

    /// Reads the network file `path` for `eval=net` on `rules` (`weights=FILE`) and keeps it
    /// for the process ([`crate::eval::net::keep`]): its id. A game without networks refuses.
    ///
    /// # Errors
    /// A message: the file cannot be read, or holds no network for `rules`.
    fn load_network(path: &str, rules: &Self::Ruleset) -> Result<crate::eval::net::NetId, String> {
        let _ = (path, rules);
        Err("this game has no network".into())
    }

    /// The `net` player of `spec` on `rules`, with the network of `file` (`weights=FILE`) or
    /// the shipped one, for a game that has networks; `None` by default.
    fn net_plan(
        spec: &AgentSpec,
        rules: &Self::Ruleset,
        file: Option<String>,
    ) -> Option<Result<Plan<Self>, AgentError>> {
        let _ = (spec, rules, file);
        None
    }

    /// The exact `solver` of a ruleset of this game, if the game has one: its cost (the size
    /// of the game it solves, [`Cost::solver_seeds`]) and how to solve it. `None` by default.
    fn solver(rules: &Self::Ruleset) -> Option<Plan<Self>> {
        let _ = rules;
        None
    }
}

/// The options of the players that take only `seed=` (`random`, `solver`).
pub const SEED_ONLY: &[OptionDef<()>] = &[seed_option()];

/// A player's spec read for one game, before it is prepared: what the player spends
/// ([`Cost`], which a host checks against its [`Limits`] first), and how to prepare it (at
/// once for most players; by solving the game for `solver`).
pub struct Plan<S: GameState> {
    /// What the player spends.
    pub cost: Cost,
    prepare: Box<dyn FnOnce() -> Result<AgentMaker<S>, AgentError>>,
}

impl<S: Playable> Plan<S> {
    /// Reads `spec` for `rules`: its player, and its options by the player's option table.
    ///
    /// # Errors
    /// [`AgentError`] for an unknown player, a bad option, or a player this game lacks.
    pub fn read(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
        read_spec::<S>(spec, rules)
    }

    /// A plan whose preparation is `prepare` (run by [`Plan::prepare`]).
    pub fn new(
        cost: Cost,
        prepare: impl FnOnce() -> Result<AgentMaker<S>, AgentError> + 'static,
    ) -> Plan<S> {
        Plan {
            cost,
            prepare: Box::new(prepare),
        }
    }

    /// A plan already prepared.
    pub fn ready(cost: Cost, maker: AgentMaker<S>) -> Plan<S> {
        Plan::new(cost, move || Ok(maker))
    }

    /// Prepares the player: its maker.
    ///
    /// # Errors
    /// [`AgentError::NotAvailable`] if the preparation fails (a game too large to solve).
    pub fn prepare(self) -> Result<AgentMaker<S>, AgentError> {
        (self.prepare)()
    }
}

fn read_net<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    let mut settings = net::NetSettings::default();
    apply_options(spec, net::NET_OPTIONS, &mut settings)?;
    S::net_plan(spec, rules, settings.source.file)
        .unwrap_or_else(|| Err(unknown_agent::<S>(spec, rules)))
}

/// Refuses `eval=net` on a ruleset without a shipped network.
fn check_net<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
    eval: EvalWeights,
) -> Result<(), AgentError> {
    if !eval.is_net() {
        return Ok(());
    }
    S::network_fits(rules).map_err(|why| AgentError::BadValue {
        agent: spec.name.clone(),
        key: "eval".into(),
        value: "net".into(),
        expected: format!("hand or fitted ({why})"),
    })
}

fn read_random<S: Playable>(spec: &AgentSpec, _: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    apply_options(spec, SEED_ONLY, &mut ())?;
    Ok(Plan::ready(
        Cost::default(),
        Arc::new(|seed| {
            Box::new(crate::players::random::RandomAgent::new(seed)) as Box<dyn Agent<S>>
        }),
    ))
}

fn read_solver<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    let plan = S::solver(rules).ok_or_else(|| unknown_agent::<S>(spec, rules))?;
    apply_options(spec, SEED_ONLY, &mut ())?;
    Ok(plan)
}

/// The plan of a search player whose spec has been read: `make(eval)` builds its maker. With
/// `weights=FILE` the file is read when the plan is prepared, after a host has checked its
/// limits (the cost names the file, [`Limits::files`]), and the network it holds replaces the
/// shipped one; the agents' specs name the file, so that they read back.
fn search_plan<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
    cost: Cost,
    (eval, source): (EvalWeights, EvalSource),
    make: impl FnOnce(EvalWeights) -> AgentMaker<S> + 'static,
) -> Result<Plan<S>, AgentError> {
    let Some(path) = source.file else {
        check_net::<S>(spec, rules, eval)?;
        return Ok(Plan::ready(cost, make(eval)));
    };
    if let Some(other) = source.given.filter(|e| !e.is_net()) {
        return Err(AgentError::BadValue {
            agent: spec.name.clone(),
            key: WEIGHTS_KEY.into(),
            value: path,
            expected: format!(
                "no file with eval={}: the file is a network, for eval=net",
                other.name()
            ),
        });
    }
    let rules = rules.clone();
    Ok(reading_file(spec, cost, path, move |path| {
        S::load_network(path, &rules).map(|id| make(EvalWeights::Net(id)))
    }))
}

/// The plan of a player that reads the network file `path` (`weights=FILE`): `cost` with the
/// file named, so that a host refuses it first ([`Limits::files`]); when prepared, `load`
/// reads the file into the maker, whose agents' specs name the file, so that they read back.
/// A file that cannot be read is refused then, under the key `weights`.
pub(crate) fn reading_file<S: Playable>(
    spec: &AgentSpec,
    mut cost: Cost,
    path: String,
    load: impl FnOnce(&str) -> Result<AgentMaker<S>, String> + 'static,
) -> Plan<S> {
    cost.file = Some(format!("{WEIGHTS_KEY}={path}"));
    let agent = spec.name.clone();
    Plan::new(cost, move || match load(&path) {
        Ok(maker) => Ok(naming_file(maker, path)),
        Err(expected) => Err(AgentError::BadValue {
            agent,
            key: WEIGHTS_KEY.into(),
            value: path,
            expected,
        }),
    })
}

/// The agents of `maker`, their specs naming the network file `path` they read.
fn naming_file<S: GameState>(maker: AgentMaker<S>, path: String) -> AgentMaker<S> {
    let path: Arc<str> = path.into();
    Arc::new(move |seed| {
        Box::new(NamingFile {
            inner: maker(seed),
            path: path.clone(),
        }) as Box<dyn Agent<S>>
    })
}

/// An agent whose network was read from a file: as `inner`, with `weights=FILE` in its spec
/// (after `eval=net`, or first).
struct NamingFile<S: GameState> {
    inner: Box<dyn Agent<S>>,
    path: Arc<str>,
}

impl<S: GameState> Agent<S> for NamingFile<S> {
    fn spec(&self) -> String {
        let spec = self.inner.spec();
        if spec.contains("weights=") {
            return spec;
        }
        // Every agent's spec names its seed, so `(` is followed by an option.
        let file = format!("weights={}", self.path);
        match spec.find("eval=net") {
            Some(i) => {
                let (head, tail) = spec.split_at(i + "eval=net".len());
                format!("{head},{file}{tail}")
            }
            None => spec.replacen('(', &format!("({file},"), 1),
        }
    }

    fn choose(&mut self, state: &S) -> S::Move {
        self.inner.choose(state)
    }

    fn evaluate(&mut self, state: &S) -> Option<crate::agent::Evaluation<S::Move>> {
        self.inner.evaluate(state)
    }
}

fn read_mcts<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    let defaults = S::mcts_defaults();
    let (options, source) =
        crate::search::mcts::MctsOptions::from_spec_with_source::<S>(spec, defaults)?;
    search_plan(
        spec,
        rules,
        options.cost(),
        (options.eval, source),
        move |eval| {
            let options = crate::search::mcts::MctsOptions { eval, ..options };
            Arc::new(move |seed| {
                Box::new(crate::search::mcts::MctsAgent::<S>::with_defaults(
                    options, defaults, seed,
                )) as Box<dyn Agent<S>>
            })
        },
    )
}

fn read_greedy<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    let mut settings = crate::search::greedy::Settings {
        eval: EvalWeights::Hand,
        fitted: S::FITTED,
        net: S::NET,
        source: EvalSource::default(),
    };
    apply_options(spec, crate::search::greedy::OPTIONS, &mut settings)?;
    let eval = (settings.eval, settings.source);
    search_plan(spec, rules, Cost::default(), eval, |eval| {
        Arc::new(move |seed| {
            Box::new(crate::search::greedy::Greedy::<S>::new(seed).with_eval(eval))
                as Box<dyn Agent<S>>
        })
    })
}

fn read_expectimax<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
) -> Result<Plan<S>, AgentError> {
    let (options, source) = crate::search::expectimax::Options::from_spec_with_source::<S>(spec)?;
    let shown = spec.clone();
    search_plan(
        spec,
        rules,
        options.cost(),
        (options.eval, source),
        move |eval| {
            Arc::new(move |seed| {
                let agent = crate::search::expectimax::Expectimax::<S>::from_spec(&shown, seed)
                    .expect("the spec was checked when the maker was built")
                    .with_eval(eval);
                Box::new(agent) as Box<dyn Agent<S>>
            })
        },
    )
}

/// The error for an agent name nobody knows, listing the players `rules` has; or for one
/// this ruleset lacks.
pub fn unknown_agent<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> AgentError {
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
        // Reading a plain spec prepares nothing (the solver solves only when prepared).
        let has = |name: &&str| {
            let plain = AgentSpec {
                name: (*name).to_string(),
                options: Vec::new(),
            };
            read_spec::<S>(&plain, rules).is_ok()
        };
        AgentError::UnknownAgent {
            name: spec.name.clone(),
            valid: AGENT_NAMES.iter().copied().filter(has).collect(),
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
    /// What the player spends.
    pub cost: Cost,
    /// Builds the agent.
    pub maker: AgentMaker<S>,
}

impl<S: Playable> PreparedAgent<S> {
    /// Parses and prepares a spec for `rules`.
    ///
    /// # Errors
    /// As [`AgentSpec::parse`], [`Plan::read`] and [`Plan::prepare`].
    pub fn new(spec: &str, rules: &S::Ruleset) -> Result<Self, AgentError> {
        let (spec, seed, plan) = Self::read(spec, rules)?;
        let cost = plan.cost.clone();
        Ok(PreparedAgent {
            spec,
            seed,
            cost,
            maker: plan.prepare()?,
        })
    }

    /// Parses a spec and prepares it for `rules` if what it spends is within a host's
    /// `limits` ([`Limits::check`]), before any expensive preparation.
    ///
    /// # Errors
    /// A message: the player's own error, or the limit passed.
    pub fn within(spec: &str, rules: &S::Ruleset, limits: &Limits) -> Result<Self, String> {
        let (parsed, seed, plan) = Self::read(spec, rules).map_err(|e| e.to_string())?;
        limits.check(spec, &plan.cost)?;
        let cost = plan.cost.clone();
        Ok(PreparedAgent {
            spec: parsed,
            seed,
            cost,
            maker: plan.prepare().map_err(|e| e.to_string())?,
        })
    }

    /// Reads a spec for `rules` as [`PreparedAgent::new`] does, without preparing it (which
    /// for `solver` solves the game): the spec in canonical form.
    ///
    /// # Errors
    /// As [`AgentSpec::parse`] and [`Plan::read`].
    pub fn check(spec: &str, rules: &S::Ruleset) -> Result<AgentSpec, AgentError> {
        Self::read(spec, rules).map(|(spec, _, _)| spec)
    }

    fn read(
        spec: &str,
        rules: &S::Ruleset,
    ) -> Result<(AgentSpec, Option<u64>, Plan<S>), AgentError> {
        let spec = AgentSpec::parse(spec)?;
        let seed = spec.seed()?;
        let plan = Plan::read(&spec, rules)?;
        Ok((spec, seed, plan))
    }

    /// The agent for one game: seeded with the spec's `seed=` if given, else `default_seed`.
    pub fn make(&self, default_seed: u64) -> Box<dyn Agent<S>> {
        (self.maker)(self.seed.unwrap_or(default_seed))
    }
}

/// The options that name a file of the host (`weights=FILE`): a host whose [`Limits::files`] is
/// off refuses them, and a list of what its clients may set leaves them out.
pub const FILE_OPTIONS: &[&str] = &[WEIGHTS_KEY];

/// The budgets a host (the server) allows a computer player, so that one decision can neither
/// hold a thread for long nor take every core, and the largest game its exact solver may
/// prepare. What a player spends ([`Cost`]) is checked against them by [`Limits::check`]
/// before it is prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Who sets the limits, for messages (`the server`).
    pub holder: &'static str,
    /// The most time per move, in milliseconds.
    pub time_ms: u64,
    /// The most search iterations per move.
    pub iterations: u64,
    /// The most threads.
    pub threads: u64,
    /// The most states a move may visit.
    pub nodes: u64,
    /// The most counters per pit for which the exact Tihbat `solver` is prepared.
    pub solver_seeds: u32,
    /// Whether a player may read a file of the host that its spec names (`weights=FILE`, of
    /// `net` and the searches). A server does not let its clients name its files: it would
    /// tell them which files exist, and a spec naming a device could hold a thread.
    pub files: bool,
}

impl Limits {
    /// The most iterations a move under [`Limits::host`]: ten times the strongest `mcts`
    /// level ([`crate::search::mcts::LEVEL_ITERATIONS`]).
    pub const HOST_ITERATIONS: u64 = 1_000_000;

    /// The most states a move may visit under [`Limits::host`]: those of the strongest
    /// `expectimax` level (8,000,000).
    pub const HOST_NODES: u64 = 8_000_000;

    /// The limits of a host that sets how long a move may take and on how many threads: every
    /// level preset of the players fits ([`Limits::HOST_ITERATIONS`],
    /// [`Limits::HOST_NODES`]), and the exact Tihbat `solver` is prepared up to
    /// [`crate::search::solver::HOST_SEEDS`] counters a pit. Players read no file of the host: they
    /// play the shipped networks.
    pub fn host(holder: &'static str, time_ms: u64, threads: u64) -> Limits {
        Limits {
            holder,
            time_ms,
            iterations: Limits::HOST_ITERATIONS,
            threads,
            nodes: Limits::HOST_NODES,
            solver_seeds: crate::search::solver::HOST_SEEDS,
            files: false,
        }
    }

    /// Refuses a player of `spec` whose `cost` is above the limits: what it spends on a move,
    /// then the size of what it prepares, then a file of the host it would read.
    ///
    /// # Errors
    /// A message naming the option and the limit.
    pub fn check(&self, spec: &str, cost: &Cost) -> Result<(), String> {
        for (key, spend, max, unit) in [
            ("time", &cost.time_ms, self.time_ms, "milliseconds"),
            (
                "iterations",
                &cost.iterations,
                self.iterations,
                "iterations",
            ),
            ("threads", &cost.threads, self.threads, "threads"),
            ("nodes", &cost.nodes, self.nodes, "nodes"),
        ] {
            if let Some(Spend { amount, set_by }) = spend
                && *amount > max
            {
                let what = if *set_by == format!("{key}={amount}") {
                    set_by.clone()
                } else {
                    format!("{set_by} ({amount} {unit})")
                };
                return Err(format!(
                    "{spec}: {what} is above {}'s limit of {max} {unit}",
                    self.holder
                ));
            }
        }
        if let Some(seeds) = cost.solver_seeds
            && seeds > self.solver_seeds
        {
            return Err(format!(
                "solver: {} solves tihbat up to seeds={}, not seeds={seeds}",
                self.holder, self.solver_seeds
            ));
        }
        if let Some(set_by) = &cost.file
            && !self.files
        {
            return Err(format!(
                "{spec}: {set_by} would read a file of the host; {} plays only the networks it \
                 ships",
                self.holder
            ));
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
    fn cost(&self) -> &Cost;
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

    fn cost(&self) -> &Cost {
        &self.cost
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

fn strongest_of<R: Ruleset>(rules: &R) -> &'static str
where
    R::State: Playable,
{
    R::State::strongest_agent(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::{LEVEL_HELP, LEVEL_ITERATIONS};

    fn cost_on_tab(spec: &str) -> Cost {
        let rules = qasab_core::tab::Ruleset::default();
        let spec = AgentSpec::parse(spec).unwrap();
        Plan::<qasab_core::tab::State>::read(&spec, &rules)
            .unwrap_or_else(|e| panic!("{spec}: {e}"))
            .cost
    }

    #[test]
    fn the_level_help_states_the_level_iterations() {
        assert_eq!(
            LEVEL_HELP,
            "a preset budget: 200, 1,000, 10,000, 30,000 or 100,000 iterations a move"
        );
        for n in LEVEL_ITERATIONS {
            let grouped = n
                .to_string()
                .as_bytes()
                .rchunks(3)
                .rev()
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect::<Vec<_>>()
                .join(",");
            assert!(LEVEL_HELP.contains(&grouped), "{grouped}");
        }
    }

    #[test]
    fn players_answer_their_cost_levels_included() {
        let c = cost_on_tab("mcts(level=5,threads=2)");
        assert_eq!(c.iterations, Some(Spend::new(100_000, "level=5")));
        assert_eq!(c.threads, Some(Spend::option("threads", 2)));
        assert_eq!(c.time_ms, None);
        // The game's default level (4 on the Tâb family).
        let c = cost_on_tab("mcts");
        assert_eq!(c.iterations, Some(Spend::new(30_000, "level=4")));
        let c = cost_on_tab("mcts(time=300)");
        assert_eq!(c.time_ms, Some(Spend::option("time", 300)));
        assert_eq!(c.iterations, None);
        assert_eq!(
            cost_on_tab("expectimax(level=5)").nodes,
            Some(Spend::option("nodes", 8_000_000))
        );
        assert_eq!(
            cost_on_tab("expectimax(nodes=5000)").nodes,
            Some(Spend::option("nodes", 5000))
        );
        assert_eq!(cost_on_tab("greedy"), Cost::default());
        assert_eq!(cost_on_tab("random(seed=3)"), Cost::default());
    }

    #[test]
    fn a_hosts_limits_fit_every_level_and_name_what_passes_them() {
        let limits = Limits::host("the server", 500, 1);
        for level in 1..=5 {
            for player in ["mcts", "expectimax"] {
                let spec = format!("{player}(level={level})");
                assert_eq!(limits.check(&spec, &cost_on_tab(&spec)), Ok(()), "{spec}");
            }
        }
        let check = |spec: &str| limits.check(spec, &cost_on_tab(spec)).unwrap_err();
        assert_eq!(
            check("mcts(time=501)"),
            "mcts(time=501): time=501 is above the server's limit of 500 milliseconds"
        );
        assert_eq!(
            check("mcts(threads=2)"),
            "mcts(threads=2): threads=2 is above the server's limit of 1 threads"
        );
        assert_eq!(
            check("mcts(iterations=1000001)"),
            "mcts(iterations=1000001): iterations=1000001 is above the server's limit of 1000000 \
             iterations"
        );
        let small = Limits {
            iterations: 50_000,
            ..limits.clone()
        };
        assert_eq!(
            small.check("mcts(level=5)", &cost_on_tab("mcts(level=5)")),
            Err(
                "mcts(level=5): level=5 (100000 iterations) is above the server's limit of \
                 50000 iterations"
                    .into()
            )
        );
    }

    #[test]
    fn the_solver_is_refused_above_the_hosts_seeds_before_it_solves() {
        let limits = Limits::host("the server", 500, 1);
        let rules = qasab_core::tihbat::Ruleset::with_seeds(40);
        let e = PreparedAgent::<qasab_core::tihbat::State>::within("solver", &rules, &limits)
            .err()
            .unwrap();
        assert_eq!(
            e,
            "solver: the server solves tihbat up to seeds=20, not seeds=40"
        );
        let rules = qasab_core::tihbat::Ruleset::with_seeds(2);
        let p = PreparedAgent::<qasab_core::tihbat::State>::within("solver", &rules, &limits);
        assert_eq!(p.unwrap().cost.solver_seeds, Some(2));
    }
}
