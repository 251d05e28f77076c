//! The `net` player: the best end of its turn by a network ([`crate::search::net_choice`]),
//! with the shipped network of the ruleset or one read from a file (`weights=FILE`); and the
//! strongest player measured on each preset, which the presets' defaults name.

use std::sync::Arc;

use qasab_core::GameState;
use qasab_core::options::OptionDef;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::eval::EvalWeights;
use crate::eval::net::encode::{Encode, Encoding};
use crate::eval::net::mlp::Mlp;
use crate::eval::net::{Network, for_rules, load_fitting};
use crate::eval::options::{EvalSetting, EvalSource, weights_option};
use crate::players::plan::{AgentMaker, Plan, not_available, reading_file};
use crate::players::playable::Playable;
use crate::rng::{GameRng, rng_from_seed};
use crate::search::net_choice::{choose, one_step, turn_values};
use crate::search::turn::{GraphPool, best_first, follow};
use crate::spec::{AgentError, AgentSpec, apply_options, seed_option};

/// The strongest player measured on each family's preset where it is not plain `mcts`: a
/// search with the shipped network. Each entry beat `mcts` at about its time per move over the
/// games recorded in docs/STRENGTH.md ("The default players"), or scored at least even over
/// 1,000 games against the entry before it in at most a quarter of its time (`tab-hyde`'s
/// with transpositions, `tab-ludii`'s with `priors=on`); a family without an entry keeps `mcts`.
const STRONGEST: &[(&str, &str)] = &[
    ("tab", "mcts(eval=net,iterations=70000)"),
    (
        "tab-hyde",
        "mcts(eval=net,iterations=12000,transpositions=on)",
    ),
    ("tab-modern", "mcts(eval=net,iterations=65000)"),
    (
        "tab-ludii",
        "mcts(eval=net,cutoff=0,iterations=1750,c=0.5,minimax=0.4,priors=on)",
    ),
    (
        "tab-hyde-ludii",
        "mcts(eval=net,cutoff=0,iterations=120000,c=0.7,minimax=0.4)",
    ),
];

/// The default strongest player of `rules` (the default opponent, the hint and analysis
/// player): the family's entry in `STRONGEST` on the preset itself, whose strength was
/// measured, and `mcts` on every other ruleset, including the preset's variants.
pub fn strongest<S: Encode>(rules: &S::Ruleset) -> &'static str {
    let preset = rules.to_string();
    STRONGEST
        .iter()
        .find(|(family, _)| *family == preset)
        .map_or("mcts", |(_, spec)| spec)
}

/// The `net` player's settings while its options are read: the network file it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetSettings {
    /// A network file to play with instead of the shipped one (`weights=FILE`).
    pub source: EvalSource,
}

/// The `net` player always plays a network: `weights=` is all its spec may say of it.
impl EvalSetting for NetSettings {
    fn eval(&self) -> EvalWeights {
        EvalWeights::NET
    }

    fn set_eval(&mut self, _: EvalWeights) {}

    fn fitted(&self) -> bool {
        false
    }

    fn net(&self) -> bool {
        true
    }

    fn source(&mut self) -> &mut EvalSource {
        &mut self.source
    }
}

/// The options of `net`, each declared once.
pub const NET_OPTIONS: &[OptionDef<NetSettings>] = &[
    seed_option(),
    weights_option(
        "play with this network (trained by qasab train, or elsewhere on the same encoding) \
         instead of the shipped one",
    ),
];

/// The plan of the `net` player ([`NetPlayer`]: the best end of its turn by the
/// network) for `rules`. With `weights=FILE` the file is read when the plan is prepared, after
/// a host has checked its limits ([`crate::players::Limits::files`]), and the plan's cost names it.
///
/// # Errors
/// [`crate::spec::AgentError`] for a ruleset with no shipped network; when prepared,
/// for a network file that cannot be read or was trained on other inputs.
pub fn net_plan<S: Encode + Playable>(
    spec: &crate::spec::AgentSpec,
    rules: &S::Ruleset,
    file: Option<String>,
) -> Result<Plan<S>, crate::spec::AgentError> {
    let Some(path) = file else {
        let net = for_rules::<S>(rules).map_err(|e| crate::spec::AgentError::NotAvailable {
            agent: spec.name.clone(),
            ruleset: rules.to_string(),
            why: e,
        })?;
        return Ok(Plan::ready(
            crate::spec::Cost::default(),
            net_player_maker(net.clone()),
        ));
    };
    let rules = rules.clone();
    Ok(reading_file(
        spec,
        crate::spec::Cost::default(),
        path,
        move |path| load_fitting::<S>(path, &rules).map(net_player_maker),
    ))
}

/// Makes `net` players of `net`.
fn net_player_maker<S: Encode + crate::eval::Evaluate>(net: Network) -> AgentMaker<S> {
    let (mlp, enc) = (std::sync::Arc::new(net.mlp), net.encoding);
    std::sync::Arc::new(move |seed| {
        Box::new(NetPlayer::<S>::new(mlp.clone(), enc, "net", seed))
            as Box<dyn crate::agent::Agent<S>>
    })
}

/// A player that chooses as the network does in self-play: the `net` player's rule, on a
/// network being trained.
pub struct NetPlayer<S: GameState> {
    mlp: Arc<Mlp>,
    enc: Encoding,
    name: &'static str,
    seed: u64,
    rng: GameRng,
    plan: Vec<(S, S::Move)>,
    /// Turn graphs kept for their room.
    graphs: GraphPool<S>,
}

impl<S: GameState> NetPlayer<S> {
    /// The player of `mlp`, whose inputs are encoded as `enc`, called `name` in its spec,
    /// seeded with `seed` for ties.
    pub fn new(mlp: Arc<Mlp>, enc: Encoding, name: &'static str, seed: u64) -> Self {
        NetPlayer {
            mlp,
            enc,
            name,
            seed,
            rng: rng_from_seed(seed),
            plan: Vec::new(),
            graphs: GraphPool::default(),
        }
    }
}

impl<S: Encode> Agent<S> for NetPlayer<S> {
    fn spec(&self) -> String {
        format!("{}(seed={})", self.name, self.seed)
    }

    fn choose(&mut self, state: &S) -> S::Move {
        if let Some(m) = follow(&mut self.plan, state) {
            return m;
        }
        let (m, rest) = choose(&self.mlp, self.enc, state, &mut self.rng, &mut self.graphs);
        self.plan = rest;
        m
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let moves = match turn_values(&self.mlp, self.enc, state, &mut self.graphs) {
            Some((g, values)) => {
                let moves = g.root_values(&values);
                self.graphs.give(g);
                moves
            }
            None => one_step(&self.mlp, self.enc, state),
        };
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: best_first(moves),
        })
    }
}

/// Reads a `net` spec: its seed and network file; the game gives the player
/// ([`Playable::net_plan`]).
pub(crate) fn read<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
) -> Result<Plan<S>, AgentError> {
    let mut settings = NetSettings::default();
    apply_options(spec, NET_OPTIONS, &mut settings)?;
    S::net_plan(spec, rules, settings.source.file).unwrap_or_else(|| {
        Err(not_available::<S>(
            spec,
            rules,
            "it is only available for the Tab family and the Ludii presets",
        ))
    })
}

/// The hooks of [`Playable`](Playable) that a game with networks implements
/// alike: its rulesets' shipped networks, the `net` player, network files for `eval=net`, and
/// the strongest player measured on each preset. Written once here, expanded in each such
/// game's `impl Playable`.
macro_rules! network_hooks {
    () => {
        fn network_fits(rules: &Self::Ruleset) -> Result<(), String> {
            crate::eval::net::for_rules::<Self>(rules).map(|_| ())
        }

        fn net_plan(
            spec: &crate::spec::AgentSpec,
            rules: &Self::Ruleset,
            file: Option<String>,
        ) -> Option<Result<crate::players::plan::Plan<Self>, crate::spec::AgentError>> {
            Some(crate::players::net::net_plan(spec, rules, file))
        }

        fn load_network(path: &str, rules: &Self::Ruleset) -> Result<crate::eval::NetId, String> {
            crate::eval::net::load_for::<Self>(path, rules)
        }

        fn strongest_agent(rules: &Self::Ruleset) -> &'static str {
            crate::players::net::strongest::<Self>(rules)
        }

        fn with_network<W: crate::players::playable::NetworkWork>(
            rules: &Self::Ruleset,
            work: W,
        ) -> Option<W::Output> {
            Some(work.run::<Self>(rules))
        }
    };
}
pub(crate) use network_hooks;
