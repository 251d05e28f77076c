//! The registry of players: which players there are (`players!`: one line each, with its
//! option table and how its spec is read), and a spec read and prepared for one game
//! ([`PreparedAgent`]). Above the players: it builds them all; the players themselves know
//! only the [`Agent`] trait and their own options.

use qasab_core::options::{OptionDef, OptionDoc};

use crate::agent::Agent;
use crate::players::limits::Limits;
use crate::players::plan::{AgentMaker, Plan, SEED_ONLY};
use crate::players::playable::Playable;
use crate::players::{expectimax, greedy, mcts, net, random, solver};
use crate::spec::{AgentError, AgentSpec, Cost};
use qasab_core::GameState;

/// Declares the players, one line each: its name, its option table, and the function that
/// reads its spec for a game (a [`Plan`]). From the list come [`AGENT_NAMES`],
/// [`option_docs`] and the dispatch of [`Plan::read`].
macro_rules! players {
    ($($name:literal: $options:expr => $($read:ident)::+,)+) => {
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
                $($name => $($read)::+::<S>(spec, rules),)+
                _ => Err(unknown_agent::<S>(spec, rules)),
            }
        }
    };
}

players! {
    "random": SEED_ONLY => random::read,
    "solver": SEED_ONLY => solver::read,
    "mcts": crate::search::mcts::OPTIONS => mcts::read,
    "greedy": crate::search::greedy::OPTIONS => greedy::read,
    "expectimax": crate::search::expectimax::OPTIONS => expectimax::read,
    "net": net::NET_OPTIONS => net::read,
}

impl<S: Playable> Plan<S> {
    /// Reads `spec` for `rules`: its player, and its options by the player's option table.
    ///
    /// # Errors
    /// [`AgentError`] for an unknown player, a bad option, or a player this game lacks.
    pub fn read(spec: &AgentSpec, rules: &S::Ruleset) -> Result<Plan<S>, AgentError> {
        read_spec::<S>(spec, rules)
    }
}

/// The name that stands for a game's default player wherever a spec is read (the commands,
/// the server, Python): the first of [`strongest_first`] that can play, whatever it is at the
/// time (`mcts(eval=net,iterations=70000)` on `tab`, `solver` on a small Tihbat, `mcts` on a
/// reading without a measured default). Its options are added to that player's
/// (`strongest(seed=3)`), and what plays is named by its own spec.
pub const STRONGEST: &str = "strongest";

/// The specs that `spec` stands for on `rules`, in the order to try them: `spec` itself, or
/// for [`STRONGEST`] the game's default players, strongest first, each with the options given
/// to `strongest` set over its own.
///
/// # Errors
/// As [`AgentSpec::parse`].
pub fn stands_for<S: Playable>(
    spec: &str,
    rules: &S::Ruleset,
) -> Result<Vec<AgentSpec>, AgentError> {
    let parsed = AgentSpec::parse(spec)?;
    if parsed.name != STRONGEST {
        return Ok(vec![parsed]);
    }
    Ok(strongest_first::<S>(rules)
        .into_iter()
        .map(|default| {
            let mut player = AgentSpec::parse(default).expect("a default player's spec reads");
            for (key, value) in &parsed.options {
                match player.options.iter_mut().find(|(k, _)| k == key) {
                    Some((_, v)) => v.clone_from(value),
                    None => player.options.push((key.clone(), value.clone())),
                }
            }
            player
        })
        .collect())
}

/// The first of `specs` (the players a spec stands for, [`stands_for`]) that `take` takes,
/// with why each before it was refused; or, if none is taken, why each was, in order (never
/// empty: a spec stands for at least one player).
fn first_taken<T, E>(
    specs: Vec<AgentSpec>,
    mut take: impl FnMut(AgentSpec) -> Result<T, E>,
) -> Result<(T, Vec<E>), Vec<E>> {
    let mut refused = Vec::new();
    for spec in specs {
        match take(spec) {
            Ok(taken) => return Ok((taken, refused)),
            Err(why) => refused.push(why),
        }
    }
    Err(refused)
}

/// The error for an agent name nobody knows, listing the players `rules` has.
pub fn unknown_agent<S: Playable>(spec: &AgentSpec, rules: &S::Ruleset) -> AgentError {
    // Reading a plain spec prepares nothing (the solver solves only when prepared).
    let has = |name: &&str| {
        let plain = AgentSpec {
            name: (*name).to_string(),
            options: Vec::new(),
        };
        read_spec::<S>(&plain, rules).is_ok()
    };
    let mut valid: Vec<&'static str> = AGENT_NAMES.iter().copied().filter(has).collect();
    valid.push(STRONGEST);
    AgentError::UnknownAgent {
        name: spec.name.clone(),
        valid,
    }
}

/// The player a host falls back to when it cannot play a game's strongest: `mcts` at its
/// default level, which every game has and every host's limits allow ([`Limits::host`]).
pub const FALLBACK_AGENT: &str = "mcts";

/// The default players of `rules`, strongest first: the game's strongest
/// ([`Playable::strongest_agent`]), then [`FALLBACK_AGENT`] where that is another player. A
/// front end plays the first it can ([`PreparedAgent::strongest`]): the strongest may be above
/// a host's limits (the exact `solver` of a Tihbat with many counters) or not solvable at all
/// (a `cycle=own-side` Tihbat whose values the solver cannot prove).
pub fn strongest_first<S: Playable>(rules: &S::Ruleset) -> Vec<&'static str> {
    let strongest = S::strongest_agent(rules);
    if strongest == FALLBACK_AGENT {
        vec![strongest]
    } else {
        vec![strongest, FALLBACK_AGENT]
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
    /// Parses and prepares a spec for `rules` ([`STRONGEST`]: the first default player that
    /// prepares).
    ///
    /// # Errors
    /// As [`AgentSpec::parse`], [`Plan::read`] and [`Plan::prepare`]; for `strongest`, the
    /// first default player's error if none prepares.
    pub fn new(spec: &str, rules: &S::Ruleset) -> Result<Self, AgentError> {
        first_taken(stands_for::<S>(spec, rules)?, |spec| {
            Self::new_one(spec, rules)
        })
        .map(|(player, _)| player)
        .map_err(|mut errors| errors.swap_remove(0))
    }

    fn new_one(spec: AgentSpec, rules: &S::Ruleset) -> Result<Self, AgentError> {
        let (spec, seed, plan) = Self::read(spec, rules)?;
        Self::prepared(spec, seed, plan)
    }

    /// Parses a spec and prepares it for `rules` if what it spends is within a host's
    /// `limits` ([`Limits::check`]), before any expensive preparation; [`STRONGEST`] is the
    /// first default player that the limits allow and that prepares.
    ///
    /// # Errors
    /// A message: the player's own error, or the limit passed (for `strongest`, one for each
    /// default player, joined by `; `).
    pub fn within(spec: &str, rules: &S::Ruleset, limits: &Limits) -> Result<Self, String> {
        let specs = stands_for::<S>(spec, rules).map_err(|e| e.to_string())?;
        first_taken(specs, |spec| Self::within_one(spec, rules, limits))
            .map(|(player, _)| player)
            .map_err(|passed| passed.join("; "))
    }

    fn within_one(spec: AgentSpec, rules: &S::Ruleset, limits: &Limits) -> Result<Self, String> {
        let text = spec.to_string();
        let (spec, seed, plan) = Self::read(spec, rules).map_err(|e| e.to_string())?;
        limits.check(&text, &plan.cost)?;
        Self::prepared(spec, seed, plan).map_err(|e| e.to_string())
    }

    /// The player of a plan read from `spec`, prepared.
    fn prepared(spec: AgentSpec, seed: Option<u64>, plan: Plan<S>) -> Result<Self, AgentError> {
        let cost = plan.cost.clone();
        Ok(PreparedAgent {
            spec,
            seed,
            cost,
            maker: plan.prepare()?,
        })
    }

    /// The strongest player of `rules` that can be played, within `limits` if given: the
    /// first of [`strongest_first`] that the limits allow ([`PreparedAgent::within`]) and that
    /// prepares, as [`STRONGEST`] reads. Also why each player before it was passed over, one
    /// message each (`solver: the server solves tihbat up to seeds=20, not seeds=60`).
    ///
    /// # Errors
    /// If none can be played: why, for each of them.
    pub fn strongest(
        rules: &S::Ruleset,
        limits: Option<&Limits>,
    ) -> Result<(Self, Vec<String>), String> {
        let specs = stands_for::<S>(STRONGEST, rules).map_err(|e| e.to_string())?;
        first_taken(specs, |spec| match limits {
            Some(limits) => Self::within_one(spec, rules, limits),
            None => Self::new_one(spec, rules).map_err(|e| e.to_string()),
        })
        .map_err(|passed| passed.join("; "))
    }

    /// Whether `limits` allow the player of `spec` on `rules`, read as [`PreparedAgent::within`]
    /// reads it but not prepared: cheap, where preparing the `solver` solves the game (and
    /// may still fail). [`STRONGEST`] is allowed if one of the default players is.
    ///
    /// # Errors
    /// A message: the player's own error, or the limit passed.
    pub fn allowed(spec: &str, rules: &S::Ruleset, limits: &Limits) -> Result<(), String> {
        let specs = stands_for::<S>(spec, rules).map_err(|e| e.to_string())?;
        first_taken(specs, |spec| {
            let text = spec.to_string();
            let (_, _, plan) = Self::read(spec, rules).map_err(|e| e.to_string())?;
            limits.check(&text, &plan.cost)
        })
        .map(|_| ())
        .map_err(|passed| passed.join("; "))
    }

    /// Reads a spec for `rules` as [`PreparedAgent::new`] does, without preparing it (which
    /// for `solver` solves the game): the spec in canonical form ([`STRONGEST`]: the first
    /// default player's).
    ///
    /// # Errors
    /// As [`AgentSpec::parse`] and [`Plan::read`].
    pub fn check(spec: &str, rules: &S::Ruleset) -> Result<AgentSpec, AgentError> {
        first_taken(stands_for::<S>(spec, rules)?, |spec| {
            Self::read(spec, rules)
        })
        .map(|((spec, _, _), _)| spec)
        .map_err(|mut errors| errors.swap_remove(0))
    }

    fn read(
        spec: AgentSpec,
        rules: &S::Ruleset,
    ) -> Result<(AgentSpec, Option<u64>, Plan<S>), AgentError> {
        let seed = spec.seed()?;
        let plan = Plan::read(&spec, rules)?;
        Ok((spec, seed, plan))
    }

    /// The agent for one game: seeded with the spec's `seed=` if given, else `default_seed`.
    pub fn make(&self, default_seed: u64) -> Box<dyn Agent<S>> {
        (self.maker)(self.seed.unwrap_or(default_seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::{LEVEL_HELP, LEVEL_ITERATIONS};
    use crate::spec::Spend;

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
    fn the_strongest_player_within_the_limits_falls_back_to_mcts() {
        use qasab_core::tihbat::{Ruleset, State};
        let limits = Limits::host("the server", 500, 1);
        let small = Ruleset::with_seeds(3);
        assert_eq!(strongest_first::<State>(&small), ["solver", "mcts"]);
        let (p, passed) = PreparedAgent::<State>::strongest(&small, Some(&limits)).unwrap();
        assert_eq!((p.spec.to_string().as_str(), passed.len()), ("solver", 0));

        let large = Ruleset::with_seeds(60);
        assert_eq!(
            PreparedAgent::<State>::allowed("solver", &large, &limits),
            Err("solver: the server solves tihbat up to seeds=20, not seeds=60".into())
        );
        let (p, passed) = PreparedAgent::<State>::strongest(&large, Some(&limits)).unwrap();
        assert_eq!(p.spec.to_string(), "mcts");
        assert_eq!(
            passed,
            ["solver: the server solves tihbat up to seeds=20, not seeds=60"]
        );

        // A game whose values the solver cannot prove: not even a host without limits can
        // play it, and mcts plays instead.
        let unproven: Ruleset = "tihbat(seeds=12,cycle=own-side)".parse().unwrap();
        let (p, passed) = PreparedAgent::<State>::strongest(&unproven, None).unwrap();
        assert_eq!(p.spec.to_string(), "mcts");
        assert!(passed[0].contains("no exact solution"), "{passed:?}");

        // A game whose strongest is mcts has no other.
        let tab: qasab_core::tab::Ruleset = "tab(columns=29)".parse().unwrap();
        assert_eq!(strongest_first::<qasab_core::tab::State>(&tab), ["mcts"]);
    }

    #[test]
    fn strongest_stands_for_the_games_default_player() {
        use qasab_core::tihbat;
        type Tab = qasab_core::tab::State;
        let tab = qasab_core::tab::Ruleset::default();
        let p = PreparedAgent::<Tab>::check("strongest", &tab).unwrap();
        assert_eq!(p.to_string(), <Tab as Playable>::strongest_agent(&tab));
        assert_ne!(p.to_string(), "mcts", "tab has a measured default");
        // Its options are set over the default's own: added, or replacing the default's.
        let p = PreparedAgent::<Tab>::check("strongest(seed=3,iterations=500)", &tab).unwrap();
        assert_eq!(p.to_string(), "mcts(eval=net,iterations=500,seed=3)");
        let p = PreparedAgent::<Tab>::new("strongest(seed=3)", &tab).unwrap();
        assert_eq!((p.spec.name.as_str(), p.seed), ("mcts", Some(3)));
        // A reading without a measured default: plain mcts.
        let wide: qasab_core::tab::Ruleset = "tab(columns=29)".parse().unwrap();
        let p = PreparedAgent::<Tab>::check("strongest", &wide).unwrap();
        assert_eq!(p.to_string(), "mcts");
        // A bad option is the default player's error.
        let e = PreparedAgent::<Tab>::check("strongest(foo=1)", &tab).unwrap_err();
        assert!(
            e.to_string().contains("player mcts has no option 'foo'"),
            "{e}"
        );
        // The name is listed among the players where an unknown one is refused.
        let e = PreparedAgent::<Tab>::check("wizard", &tab).unwrap_err();
        assert!(e.to_string().ends_with(", net, strongest"), "{e}");

        // On Tihbat: the solver where it can play, else mcts, with and without limits.
        let limits = Limits::host("the server", 500, 1);
        let small = tihbat::Ruleset::with_seeds(3);
        let p = PreparedAgent::<tihbat::State>::new("strongest", &small).unwrap();
        assert_eq!(p.spec.to_string(), "solver");
        let large = tihbat::Ruleset::with_seeds(60);
        let p = PreparedAgent::<tihbat::State>::within("strongest", &large, &limits).unwrap();
        assert_eq!(p.spec.to_string(), "mcts");
        assert_eq!(
            PreparedAgent::<tihbat::State>::allowed("strongest", &large, &limits),
            Ok(())
        );
        let unproven: tihbat::Ruleset = "tihbat(seeds=12,cycle=own-side)".parse().unwrap();
        let p = PreparedAgent::<tihbat::State>::new("strongest", &unproven).unwrap();
        assert_eq!(p.spec.to_string(), "mcts");
        // Above every limit: why each default was passed over.
        let tiny = Limits {
            iterations: 10,
            ..limits.clone()
        };
        let e = PreparedAgent::<tihbat::State>::within("strongest(iterations=20)", &large, &tiny)
            .err()
            .unwrap();
        assert!(
            e.starts_with("player solver has no option 'iterations'")
                && e.contains("; mcts(iterations=20): iterations=20 is above the server's limit"),
            "{e}"
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
