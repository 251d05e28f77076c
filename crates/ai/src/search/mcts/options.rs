//! The options of an `mcts` player: budgets, rollouts, tree shapes and the rest, declared once
//! as [`OPTIONS`], with their limits and the spec they print as.

use std::fmt;

use qasab_core::options::{
    Choice, ConstText, OptionDef, ValueError, Values, choice_option, int_in, int_option,
};

use crate::eval::options::{
    EvalSource, SEARCH_WEIGHTS_HELP, SearchSettings, WEIGHTS_KEY, eval_option, weights_option,
};
use crate::eval::{EvalWeights, Evaluate};
use crate::spec::{
    AgentError, AgentSpec, Cost, Spend, Switch, apply_options, either, one_of, seed_option,
};

/// The default exploration constant `c` of UCB1: `sqrt(2)`, as Ludii's UCT player uses.
///
/// Results lie in `[-1, 1]`, twice the width of the `[0, 1]` of Auer et al.'s UCB1, whose
/// `sqrt(2)` would become `2·sqrt(2)` here. In matches of 1,000 iterations a move on
/// `tab-ludii`, 1.4 scored 53 to 54% against 1.0, 2.0 and 2.8, and 1.0 scored 68% against 0.5
/// (`docs/mcts.md`).
pub const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// The default weight of the score difference in a finished game's reward (`margin=`): none,
/// the result alone. Tihbat, whose value is a margin of captures, sets 0.5 (see
/// `Playable::mcts_defaults`).
///
/// On `tab-ludii` (1,000 games against `random`, 1,000 iterations a move, seed 1) `margin=0.5`
/// scored 91.8% where the result alone scored 93.6%.
pub const DEFAULT_MARGIN: f64 = 0.0;

/// Iterations per move of levels 1 to 5 (`level=1` is index 0).
///
/// On one thread, with each game's defaults, level 3 takes about 50 ms a move in mid-game `tab`,
/// 59 ms at the first decision of `tab-ludii` and 0.33 s on `tab-hyde-ludii`; level 5 takes ten
/// times as long (see `docs/mcts.md` and `docs/PERFORMANCE.md`).
pub const LEVEL_ITERATIONS: [u64; 5] = [200, 1_000, 10_000, 30_000, 100_000];

/// The level used when a spec sets no budget and the game sets no other
/// (`Playable::mcts_defaults`; the Tâb family uses `players::tab::TAB_LEVEL`).
pub const DEFAULT_LEVEL: u8 = 3;

/// Links (parent to child) a search may allocate, over all its trees, before it stops
/// expanding leaves; each link has at most one node.
pub const MAX_LINKS: usize = 1 << 22;

/// The largest `iterations=`.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;

/// The largest `time=`, in milliseconds (one hour).
pub const MAX_TIME_MS: u64 = 3_600_000;

/// The largest `threads=`.
pub const MAX_THREADS: usize = 256;

/// The largest `c=`.
pub const MAX_C: f64 = 100.0;

/// The cap on the distinct states of a turn expanded inside the tree (`tree=turns`); the
/// root's turn may hold [`crate::search::turn::TURN_STATES`]. A larger turn is expanded decision by
/// decision.
pub const INNER_TURN_STATES: usize = 1024;

/// What a child of a player's node stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum TreeShape {
    /// One decision: a node per legal move.
    #[default]
    Decisions,
    /// The player's whole turn: a node per distinct state at which his turn passes on, every
    /// order of his decisions merged ([`crate::search::turn::TurnGraph`]), each starting with one visit
    /// worth its static evaluation.
    Turns,
}

/// The shapes' names in a spec (`tree=turns`), in the order the docs list them.
impl Choice for TreeShape {
    const CHOICES: &'static [(&'static str, TreeShape)] = &[
        ("decisions", TreeShape::Decisions),
        ("turns", TreeShape::Turns),
    ];
    const NAMES: &'static [&'static str] = &["decisions", "turns"];
}

/// The largest `cutoff=`, in turns.
pub const MAX_CUTOFF: u32 = 1000;

/// How much searching to do for one move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    /// A preset: the iterations of [`LEVEL_ITERATIONS`] for level 1 to 5.
    Level(u8),
    /// A fixed number of iterations (over all trees together).
    Iterations(u64),
    /// A time in milliseconds: every tree iterates until then. The result then depends on the
    /// machine and its load.
    Time(u64),
}

impl Budget {
    /// The number of iterations, or `None` for a time budget. A level outside 1..=5 counts as
    /// the nearest level.
    pub fn iterations(self) -> Option<u64> {
        match self {
            Budget::Level(l) => Some(LEVEL_ITERATIONS[usize::from(l.clamp(1, 5)) - 1]),
            Budget::Iterations(n) => Some(n),
            Budget::Time(_) => None,
        }
    }
}

/// How a rollout chooses moves, from the leaf where the tree stops to the end of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RolloutPolicy {
    /// A legal move uniformly at random; chance outcomes by their weights.
    #[default]
    Random,
    /// The legal move whose result the static evaluation ([`Evaluate`](crate::Evaluate)) rates best for the
    /// player to move (ties broken at random); chance outcomes by their weights. About as many
    /// evaluations as legal moves at every decision: use it with a short `cutoff`.
    Greedy,
    /// A legal move that raises the mover's score ([`GameState::scores`](qasab_core::GameState::scores):
    /// the captures) the most, drawn uniformly among equals, so a move that captures nothing is
    /// uniform at random; chance outcomes by their weights. It plays each legal move once on a
    /// copy of the state, with no evaluation.
    Captures,
}

/// The policies' names in a spec (`rollout=random`), in the order the docs list them.
impl Choice for RolloutPolicy {
    const CHOICES: &'static [(&'static str, RolloutPolicy)] = &[
        ("random", RolloutPolicy::Random),
        ("greedy", RolloutPolicy::Greedy),
        ("captures", RolloutPolicy::Captures),
    ];
    const NAMES: &'static [&'static str] = &["random", "greedy", "captures"];
}

/// The options of an `mcts` player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// How much to search for each move.
    pub budget: Budget,
    /// The exploration constant `c` of UCB1.
    pub c: f64,
    /// Independent trees searched in parallel (root parallelisation).
    pub threads: usize,
    /// How rollouts choose moves.
    pub rollout: RolloutPolicy,
    /// Where rollouts stop: `None` at the end of the game; `Some(n)` once `n` turns have begun
    /// after the leaf's (a turn begins when a player other than the last one to decide is to
    /// decide), where the static evaluation gives the reward; `Some(0)` evaluates the leaf.
    pub cutoff: Option<u32>,
    /// The weight of the score difference in the reward of a finished game, from 0 to 1 (see
    /// the module docs).
    pub margin: f64,
    /// What a child of a player's node stands for: one decision or a whole turn.
    pub tree: TreeShape,
    /// The weights of the static evaluation, where rollouts stop and in greedy rollouts.
    pub eval: EvalWeights,
    /// Whether the same state reached by different paths is one node (a transposition table
    /// keyed on the state's fingerprint) or one node per path.
    pub transpositions: bool,
    /// Whether a player's next search goes on from the graph of his last one where it holds
    /// the new state (`tree=decisions` only).
    pub reuse: bool,
    /// The weight `α` of the implicit minimax value in a child's value at selection, from 0
    /// to 1 (0: the mean of the results alone). See the module docs.
    pub minimax: f64,
    /// Whether a node's children are valued all at once when it is expanded (one batch of the
    /// static evaluation), each starting with one visit worth its value, the iteration stopping
    /// there with the node's value one action deeper (`tree=decisions` only). See the module
    /// docs.
    pub priors: bool,
    /// The weight of a rollout's result in the value of the leaf it starts from, from 0 to 1;
    /// the rest is the leaf's static evaluation (AlphaGo's mixing parameter λ). 1, the
    /// default, is the rollout alone; below 1 it needs a rollout (`cutoff` other than 0).
    pub mix: f64,
}

impl Default for MctsOptions {
    /// Level [`DEFAULT_LEVEL`], `c` = [`DEFAULT_C`], one thread, random rollouts.
    fn default() -> Self {
        MctsOptions {
            budget: Budget::Level(DEFAULT_LEVEL),
            c: DEFAULT_C,
            threads: 1,
            rollout: RolloutPolicy::Random,
            cutoff: None,
            margin: DEFAULT_MARGIN,
            tree: TreeShape::Decisions,
            eval: EvalWeights::Hand,
            transpositions: false,
            reuse: false,
            minimax: 0.0,
            priors: false,
            mix: 1.0,
        }
    }
}

/// Reads a number from 0 to `hi`.
fn number_in(v: &str, hi: f64) -> Result<f64, ValueError> {
    v.parse::<f64>()
        .ok()
        .filter(|x| (0.0..=hi).contains(x))
        .ok_or_else(|| ValueError::Expected(format!("a number from 0 to {hi}")))
}

/// The help of `level=`, built from [`LEVEL_ITERATIONS`] so that it cannot drift from them:
/// "a preset budget: 200, 1,000, 10,000, 30,000 or 100,000 iterations a move".
pub const LEVEL_HELP: &str = {
    const TEXT: ConstText<120> = ConstText::new()
        .push("a preset budget: ")
        .list(&LEVEL_ITERATIONS, true, ", ", " or ")
        .push(" iterations a move");
    TEXT.as_str()
};

/// A spec's settings while its options are read: the options, and whether the game has
/// fitted weights and networks (for `eval=`).
pub type Settings = SearchSettings<MctsOptions>;

crate::eval::options::with_eval!(MctsOptions);

/// The options of `mcts`, in documented order (docs/mcts.md), each declared once: the spec's
/// keys, their values and what they set. The defaults are each game's
/// (`Playable::mcts_defaults`).
pub const OPTIONS: &[OptionDef<Settings>] = &[
    OptionDef {
        key: "level",
        values: Values::Int {
            lo: 1,
            hi: 5,
            note: "",
        },
        help: LEVEL_HELP,
        rules: "",
        get: |s| match s.options.budget {
            Budget::Level(l) => l.to_string(),
            _ => String::new(),
        },
        set: |s, v| {
            s.options.budget = Budget::Level(int_in(v, 1, 5)? as u8);
            Ok(())
        },
    },
    OptionDef {
        key: "iterations",
        values: Values::Int {
            lo: 1,
            hi: MAX_ITERATIONS as u32,
            note: "",
        },
        help: "iterations per move, over all trees together",
        rules: "",
        get: |s| match s.options.budget {
            Budget::Iterations(n) => n.to_string(),
            _ => String::new(),
        },
        set: |s, v| {
            s.options.budget = Budget::Iterations(u64::from(int_in(v, 1, MAX_ITERATIONS as u32)?));
            Ok(())
        },
    },
    OptionDef {
        key: "time",
        values: Values::Int {
            lo: 1,
            hi: MAX_TIME_MS as u32,
            note: "",
        },
        help: "milliseconds per move (the result then depends on the machine and its load)",
        rules: "",
        get: |s| match s.options.budget {
            Budget::Time(ms) => ms.to_string(),
            _ => String::new(),
        },
        set: |s, v| {
            s.options.budget = Budget::Time(u64::from(int_in(v, 1, MAX_TIME_MS as u32)?));
            Ok(())
        },
    },
    int_option!(
        options.threads: usize,
        "threads",
        1..=MAX_THREADS,
        "",
        "",
        "independent trees searched in parallel"
    ),
    OptionDef {
        key: "c",
        values: Values::Text("a number from 0 to 100"),
        help: "the exploration constant of UCB1",
        rules: "",
        get: |s| s.options.c.to_string(),
        set: |s, v| {
            s.options.c = number_in(v, MAX_C)?;
            Ok(())
        },
    },
    choice_option!(
        RolloutPolicy,
        options.rollout,
        "rollout",
        "",
        "how rollouts choose moves",
        parse: one_of
    ),
    OptionDef {
        key: "cutoff",
        values: Values::Text("0..=1000 or none"),
        help: "turns a rollout plays before the static evaluation ends it",
        rules: "",
        get: |s| s.options.cutoff.map_or("none".into(), |n| n.to_string()),
        set: |s, v| {
            s.options.cutoff = match v {
                "none" => None,
                _ => Some(int_in(v, 0, MAX_CUTOFF)?),
            };
            Ok(())
        },
    },
    OptionDef {
        key: "margin",
        values: Values::Text("a number from 0 to 1"),
        help: "the weight of the score difference in a finished game's reward",
        rules: "",
        get: |s| s.options.margin.to_string(),
        set: |s, v| {
            s.options.margin = number_in(v, 1.0)?;
            Ok(())
        },
    },
    choice_option!(
        TreeShape,
        options.tree,
        "tree",
        "",
        "what a child of a player's node stands for: one decision, or a whole turn",
        parse: one_of
    ),
    eval_option(),
    weights_option(SEARCH_WEIGHTS_HELP),
    OptionDef {
        key: "transpositions",
        values: Values::Choice(Switch::NAMES),
        help: "one node per state, however it is reached, or one per path",
        rules: "",
        get: |s| Switch(s.options.transpositions).name().into(),
        set: |s, v| {
            s.options.transpositions = either::<Switch>(v)?.0;
            Ok(())
        },
    },
    OptionDef {
        key: "reuse",
        values: Values::Choice(Switch::NAMES),
        help: "go on from the graph of the player's last search (with tree=decisions)",
        rules: "",
        get: |s| Switch(s.options.reuse).name().into(),
        set: |s, v| {
            s.options.reuse = either::<Switch>(v)?.0;
            Ok(())
        },
    },
    OptionDef {
        key: "priors",
        values: Values::Choice(Switch::NAMES),
        help: "value all of a node's children at once when it is expanded, each starting with \
               one visit worth its value (with tree=decisions)",
        rules: "",
        get: |s| Switch(s.options.priors).name().into(),
        set: |s, v| {
            s.options.priors = either::<Switch>(v)?.0;
            Ok(())
        },
    },
    OptionDef {
        key: "minimax",
        values: Values::Text("a number from 0 to 1"),
        help: "the weight of a child's implicit minimax value in its value at selection",
        rules: "",
        get: |s| s.options.minimax.to_string(),
        set: |s, v| {
            s.options.minimax = number_in(v, 1.0)?;
            Ok(())
        },
    },
    OptionDef {
        key: "mix",
        values: Values::Text("a number from 0 to 1"),
        help: "the weight of a rollout's result in its leaf's value, the rest being the leaf's \
               static evaluation (1: the rollout alone; below 1, not with cutoff=0)",
        rules: "",
        get: |s| s.options.mix.to_string(),
        set: |s, v| {
            s.options.mix = number_in(v, 1.0)?;
            Ok(())
        },
    },
    seed_option(),
];

impl MctsOptions {
    /// Whether the search keeps a table of states: for transpositions, or to find the root of
    /// a reused graph.
    pub(super) fn keys(&self) -> bool {
        self.transpositions || (self.reuse && self.tree == TreeShape::Decisions)
    }

    /// Reads the options of an `mcts` spec: `level=1..5`, `iterations=N` or `time=MS` (at most
    /// one of the three), `threads=T`, `c=X`, `rollout=random`, and `seed=` (checked here, used
    /// by the caller), for a game with fitted evaluation weights.
    ///
    /// # Errors
    /// [`AgentError::UnknownKey`] for another key, [`AgentError::BadValue`] for a value out of
    /// range or two budgets.
    pub fn from_spec(spec: &AgentSpec) -> Result<MctsOptions, AgentError> {
        Self::read(spec, MctsOptions::default(), true, true).map(|(o, _)| o)
    }

    /// As [`MctsOptions::from_spec`] for game `S`, with the options the spec does not set taken
    /// from `defaults` (the game's own, `Playable::mcts_defaults`); `eval=fitted` only
    /// where `S` has fitted weights. With the options, what the spec says of the evaluation
    /// beyond the weights (the `weights=FILE` that the player reads when it is made).
    ///
    /// # Errors
    /// As [`MctsOptions::from_spec`], and for `eval=fitted` on a game without fitted weights.
    pub fn from_spec_over<S: Evaluate>(
        spec: &AgentSpec,
        defaults: MctsOptions,
    ) -> Result<(MctsOptions, EvalSource), AgentError> {
        Self::read(spec, defaults, S::FITTED, S::NET)
    }

    fn read(
        spec: &AgentSpec,
        defaults: MctsOptions,
        fitted: bool,
        net: bool,
    ) -> Result<(MctsOptions, EvalSource), AgentError> {
        spec.seed()?;
        let budgets: Vec<&str> = ["level", "iterations", "time"]
            .into_iter()
            .filter(|k| spec.get(k).is_some())
            .collect();
        if let [first, second, ..] = budgets[..] {
            return Err(AgentError::BadValue {
                agent: spec.name.clone(),
                key: second.into(),
                value: spec.get(second).unwrap_or_default().into(),
                expected: format!(
                    "a single budget, but {first}= is given too: use one of level=, iterations= \
                     and time="
                ),
            });
        }
        let mut settings = Settings {
            options: defaults,
            fitted,
            net,
            source: EvalSource::default(),
        };
        apply_options(spec, OPTIONS, &mut settings)?;
        let (o, source) = (settings.options, settings.source);
        if o.mix < 1.0 && o.cutoff == Some(0) {
            return Err(AgentError::BadValue {
                agent: spec.name.clone(),
                key: "mix".into(),
                value: spec.get("mix").unwrap_or_default().into(),
                expected: "1 with cutoff=0, which plays no rollout to mix with the evaluation: \
                           give cutoff=N (N of 1 or more) or cutoff=none too"
                    .into(),
            });
        }
        if o.priors && o.tree == TreeShape::Turns {
            return Err(AgentError::BadValue {
                agent: spec.name.clone(),
                key: "priors".into(),
                value: spec.get("priors").unwrap_or_default().into(),
                expected: "off with tree=turns, whose children start with their values already: \
                           give tree=decisions too, or leave priors out"
                    .into(),
            });
        }
        let unread = (source.given.map(|w| ("eval", w.name().to_string())))
            .or_else(|| source.file.clone().map(|f| (WEIGHTS_KEY, f)))
            .filter(|_| !o.reads_eval());
        if let Some((key, value)) = unread {
            return Err(AgentError::BadValue {
                agent: spec.name.clone(),
                key: key.into(),
                value,
                expected: "no eval= with these options, which never evaluate a position: \
                           rollouts play to the end (cutoff=none), with minimax=0, mix=1, \
                           priors=off, tree=decisions and rollouts other than greedy; give \
                           cutoff=N (0 evaluates the leaf), minimax=X, mix=λ or priors=on too"
                    .into(),
            });
        }
        Ok((o, source))
    }

    /// Whether a search with these options reads its static evaluation (`eval`) anywhere: at
    /// a cutoff, for implicit minimax values, to mix with rollouts, in greedy rollouts, or for
    /// the priors of children (`priors=on`) or of whole turns.
    pub fn reads_eval(&self) -> bool {
        self.cutoff.is_some()
            || self.minimax > 0.0
            || self.mix < 1.0
            || self.priors
            || self.rollout == RolloutPolicy::Greedy
            || self.tree == TreeShape::Turns
    }

    /// What a move with these options may spend: its iterations (`iterations=`, or those of
    /// the level, [`LEVEL_ITERATIONS`]) or its time (`time=`), and its threads.
    pub fn cost(&self) -> Cost {
        let (time_ms, iterations) = match self.budget {
            Budget::Level(l) => (
                None,
                self.budget
                    .iterations()
                    .map(|n| Spend::new(n, format!("level={l}"))),
            ),
            Budget::Iterations(n) => (None, Some(Spend::option("iterations", n))),
            Budget::Time(ms) => (Some(Spend::option("time", ms)), None),
        };
        Cost {
            time_ms,
            iterations,
            threads: Some(Spend::option("threads", self.threads as u64)),
            ..Cost::default()
        }
    }

    /// The spec of a player with these options and `seed`: the budget, then `c`, `threads`,
    /// `rollout`, `cutoff`, `margin`, `tree` and `eval` where they differ from
    /// [`MctsOptions::default`], then the seed. It parses back to the same options.
    pub fn spec(&self, seed: u64) -> String {
        self.spec_over(seed, &MctsOptions::default())
    }

    /// As [`MctsOptions::spec`], listing the options that differ from `defaults` (a game's own):
    /// it parses back to the same options with [`MctsOptions::from_spec_over`] and `defaults`.
    pub fn spec_over(&self, seed: u64, defaults: &MctsOptions) -> String {
        let mut parts = vec![match self.budget {
            Budget::Level(l) => format!("level={l}"),
            Budget::Iterations(n) => format!("iterations={n}"),
            Budget::Time(ms) => format!("time={ms}"),
        }];
        let d = defaults;
        if self.c != d.c {
            parts.push(format!("c={}", self.c));
        }
        if self.threads != d.threads {
            parts.push(format!("threads={}", self.threads));
        }
        if self.rollout != d.rollout {
            parts.push(format!("rollout={}", self.rollout));
        }
        if self.cutoff != d.cutoff {
            parts.push(match self.cutoff {
                Some(n) => format!("cutoff={n}"),
                None => "cutoff=none".into(),
            });
        }
        if self.margin != d.margin {
            parts.push(format!("margin={}", self.margin));
        }
        if self.minimax != d.minimax {
            parts.push(format!("minimax={}", self.minimax));
        }
        if self.mix != d.mix {
            parts.push(format!("mix={}", self.mix));
        }
        if self.tree != d.tree {
            parts.push(format!("tree={}", self.tree.name()));
        }
        if self.eval != d.eval {
            parts.push(format!("eval={}", self.eval.name()));
        }
        for (key, flag, default) in [
            ("transpositions", self.transpositions, d.transpositions),
            ("reuse", self.reuse, d.reuse),
            ("priors", self.priors, d.priors),
        ] {
            if flag != default {
                parts.push(format!("{key}={}", if flag { "on" } else { "off" }));
            }
        }
        parts.push(format!("seed={seed}"));
        format!("mcts({})", parts.join(","))
    }
}

impl fmt::Display for RolloutPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
