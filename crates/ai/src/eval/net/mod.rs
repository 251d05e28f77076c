//! Learned evaluation: networks trained by self-play for the Tâb family (`eval=net`, the `net`
//! player).
//!
//! * [`encode`]: the network's inputs, from the side of the player in turn.
//! * [`mlp`]: the network itself (a small perceptron with sparse inputs) and its forward
//!   passes.
//! * `file`: the network's file format (safetensors).
//!
//! The network is trained by temporal-difference learning from self-play (`qasab train`), in
//! the crate's `train` layer, which also holds the network's gradient and optimiser.
//!
//! A [`Network`] is the perceptron with the name of its encoding and the family and board it
//! was trained on. It is stored as safetensors, with the layers named and shaped as PyTorch's
//! `nn.Linear` names and shapes them (`fc1.weight` is `hidden × inputs`), so that a network
//! trained elsewhere on the same encoding loads here. The shipped networks are compiled into
//! the binary ([`shipped`]) and read once, on first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use qasab_core::{Player, Turn};

pub use crate::eval::NetId;
use crate::eval::terminal_value;

pub mod encode;
pub mod file;
pub mod mlp;

pub use encode::{ANY_BOARD, Encode, Encoding, Features};

/// The metadata key of a board-free network's option inputs ([`Encode::option_layout`]).
pub const OPTION_INPUTS: &str = "option_inputs";
/// The metadata key that marks a network trained across its family's readings (`qasab train
/// --across`): workers that play its self-play games draw the readings too.
pub const ACROSS: &str = "across";
pub use mlp::Mlp;

/// Why a network could not be read, or does not fit a ruleset.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// The bytes are not a safetensors file.
    #[error("not a safetensors file: {0}")]
    Format(String),
    /// A tensor is missing or has the wrong type or shape.
    #[error("bad network: {0}")]
    Tensor(String),
    /// The file says nothing of its encoding, or names one this version does not know.
    #[error("bad network metadata: {0}")]
    Metadata(String),
    /// The network was trained on other inputs than the ruleset's.
    #[error("{0}")]
    Mismatch(String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// A trained network and what it was trained on ([module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The perceptron.
    pub mlp: Mlp,
    /// The encoding of its inputs (`tab-v2` on 9 columns), which says the board's columns.
    pub encoding: Encoding,
    /// The family it was trained for (`tab`, `tab-hyde`, …).
    pub family: String,
    /// Everything else the file says (the ruleset trained on, games, seed), kept as read.
    pub metadata: HashMap<String, String>,
}

thread_local! {
    /// Scratch inputs for [`Network::value`].
    static FEATURES: std::cell::RefCell<Features> = Default::default();
    /// Scratch for [`batch`]: the inputs of each state and the network's values.
    static BATCH: std::cell::RefCell<(Vec<Features>, Vec<f32>)> = Default::default();
}

/// The network `mlp` run on `states` together ([`Mlp::values`]), each state's result mapped
/// by `over` for a finished game, else by `net` from the side its inputs describe and the
/// network's value for that side; in the order of `states`.
pub(crate) fn batch<'a, S: Encode + 'a, T>(
    mlp: &Mlp,
    enc: Encoding,
    states: impl IntoIterator<Item = &'a S>,
    over: impl Fn(&qasab_core::Outcome) -> T,
    net: impl Fn(Player, f32) -> T,
) -> Vec<T> {
    BATCH.with(|scratch| {
        let (inputs, values) = &mut *scratch.borrow_mut();
        // For each state, its result if the game is over, else the side of its inputs.
        let mut done: Vec<Result<T, Player>> = Vec::new();
        let mut n = 0;
        for s in states {
            done.push(match s.turn() {
                Turn::Over(o) => Ok(over(&o)),
                _ => {
                    if n == inputs.len() {
                        inputs.push(Features::default());
                    }
                    n += 1;
                    Err(Encode::encode(s, enc, &mut inputs[n - 1]))
                }
            });
        }
        values.resize(n, 0.0);
        mlp.values(&inputs[..n], &mut values[..n]);
        let mut values = values.iter();
        done.into_iter()
            .map(|d| d.unwrap_or_else(|us| net(us, *values.next().expect("a value each"))))
            .collect()
    })
}

impl Network {
    /// A network for `family` on the encoding `enc`, around `mlp`.
    pub fn new(mlp: Mlp, family: &str, enc: Encoding) -> Network {
        Network {
            mlp,
            encoding: enc,
            family: family.into(),
            metadata: HashMap::new(),
        }
    }

    /// A network for the states of `rules` on the encoding `enc` (one of the ruleset's): its
    /// family's, and for a board-free encoding the option list it reads
    /// ([`OPTION_INPUTS`]), without which [`Network::fits`] refuses it.
    pub fn for_rules<S: Encode>(mlp: Mlp, rules: &S::Ruleset, enc: Encoding) -> Network {
        let mut net = Network::new(mlp, S::family(rules), enc);
        if enc.columns == ANY_BOARD
            && let Some(layout) = S::option_layout(rules)
        {
            net.metadata.insert(OPTION_INPUTS.into(), layout);
        }
        net
    }

    /// Whether the network reads states of `rules`: an encoding of the ruleset's family (its
    /// newest or an older one), the same family and board.
    ///
    /// # Errors
    /// [`NetError::Mismatch`] saying what differs.
    pub fn fits<S: Encode>(&self, rules: &S::Ruleset) -> Result<(), NetError> {
        let family = S::family(rules);
        let enc = match S::encoding_named(rules, self.encoding.name) {
            Some(enc) if self.family == family => enc,
            _ => {
                return Err(NetError::Mismatch(format!(
                    "the network was trained for {} (inputs {}), not for {family} (inputs {})",
                    self.family,
                    self.encoding.name,
                    S::encoding(rules).name
                )));
            }
        };
        if let Some(layout) = S::option_layout(rules).filter(|_| enc.columns == ANY_BOARD) {
            let theirs = self.metadata.get(OPTION_INPUTS).map(String::as_str);
            if theirs != Some(layout.as_str()) {
                return Err(NetError::Mismatch(format!(
                    "the network reads the options {}; {} reads {layout}",
                    theirs.unwrap_or("(none said)"),
                    enc.name
                )));
            }
        }
        if self.encoding.columns != enc.columns {
            return Err(NetError::Mismatch(format!(
                "the network was trained on {} columns; this board has {} (a network reads one \
                 board size)",
                self.encoding.columns, enc.columns
            )));
        }
        if self.mlp.inputs() != enc.inputs {
            return Err(NetError::Mismatch(format!(
                "the network has {} inputs; {} on {} columns has {}",
                self.mlp.inputs(),
                enc.name,
                enc.columns,
                enc.inputs
            )));
        }
        Ok(())
    }

    /// The value of `state` for `player`, in `[-1, 1]`: the exact result of a finished game,
    /// else the network's estimate (strictly inside, as [`crate::eval::MAX_ESTIMATE`] asks).
    /// The state must be of a ruleset the network [fits](Network::fits).
    pub fn value<S: Encode>(&self, state: &S, player: Player) -> f64 {
        if let Turn::Over(o) = state.turn() {
            return terminal_value(&o, player);
        }
        evaluations::add(1);
        let (us, v) = FEATURES.with(|f| {
            let mut f = f.borrow_mut();
            let us = Encode::encode(state, self.encoding, &mut f);
            (us, self.mlp.value(&f))
        });
        let v = f64::from(v).clamp(-crate::eval::MAX_ESTIMATE, crate::eval::MAX_ESTIMATE);
        if us == player { v } else { -v }
    }

    /// The values of `states` for `player`, in order, each exactly as [`Network::value`]
    /// gives it; the network runs on them together ([`Mlp::values`]), which is faster per
    /// state. The states must be of a ruleset the network [fits](Network::fits).
    pub fn values<'a, S: Encode + 'a>(
        &self,
        states: impl IntoIterator<Item = &'a S>,
        player: Player,
    ) -> Vec<f64> {
        let values = batch(
            &self.mlp,
            self.encoding,
            states,
            |o| terminal_value(o, player),
            |us, v| {
                let v = f64::from(v).clamp(-crate::eval::MAX_ESTIMATE, crate::eval::MAX_ESTIMATE);
                if us == player { v } else { -v }
            },
        );
        evaluations::add(values.len() as u64);
        values
    }
}

/// A count of the states the networks value ([`Network::value`], [`Network::values`]; a
/// finished game, valued by its result, is not counted), over the whole process, for the
/// figures of `qasab bench --search`. Off unless started: then one relaxed load a call.
pub mod evaluations {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

    static COUNTING: AtomicBool = AtomicBool::new(false);
    static COUNT: AtomicU64 = AtomicU64::new(0);

    /// Starts counting (from 0) or stops; the count so far.
    pub fn count(on: bool) -> u64 {
        COUNTING.store(on, Relaxed);
        COUNT.swap(0, Relaxed)
    }

    /// The count since [`count`] started it.
    pub fn so_far() -> u64 {
        COUNT.load(Relaxed)
    }

    #[inline]
    pub(super) fn add(n: u64) {
        if COUNTING.load(Relaxed) {
            COUNT.fetch_add(n, Relaxed);
        }
    }
}

/// The shipped networks: family and the safetensors bytes compiled in.
const SHIPPED: &[(&str, &[u8])] = &[
    ("tab", include_bytes!("../../../nets/tab.safetensors")),
    (
        "tab-hyde",
        include_bytes!("../../../nets/tab-hyde.safetensors"),
    ),
    (
        "tab-modern",
        include_bytes!("../../../nets/tab-modern.safetensors"),
    ),
    (
        "tab-ludii",
        include_bytes!("../../../nets/tab-ludii.safetensors"),
    ),
    (
        "tab-hyde-ludii",
        include_bytes!("../../../nets/tab-hyde-ludii.safetensors"),
    ),
];

/// The shipped networks of whole families, trained across their boards and rule options
/// (`qasab train RULESET --across`, on a board-free encoding): family and bytes.
const SHIPPED_ACROSS: &[(&str, &[u8])] = &[
    (
        "tab",
        include_bytes!("../../../nets/tab-family.safetensors"),
    ),
    (
        "tab-hyde",
        include_bytes!("../../../nets/tab-hyde-family.safetensors"),
    ),
];

/// The shipped networks of single readings, each trained on its reading alone (`qasab train
/// RULESET`), where it plays that reading better than the family's network trained across its
/// readings (docs/STRENGTH.md, "Every reading of `tab`"). The reading is the `ruleset` the
/// file names; its family and board are the file's.
const SHIPPED_READINGS: &[&[u8]] = &[
    include_bytes!("../../../nets/readings/tab-modern-end-most-captures.safetensors"),
    include_bytes!("../../../nets/readings/tab-enemy-row-freeze-exit.safetensors"),
    include_bytes!("../../../nets/readings/tab-columns-7.safetensors"),
    include_bytes!("../../../nets/readings/tab-tab-bank-none.safetensors"),
    include_bytes!("../../../nets/readings/tab-hyde-columns-29.safetensors"),
];

/// The shipped networks of single readings, read on first use: each with its reading.
fn shipped_readings() -> &'static [(String, Network)] {
    static NETS: OnceLock<Vec<(String, Network)>> = OnceLock::new();
    NETS.get_or_init(|| {
        SHIPPED_READINGS
            .iter()
            .map(|bytes| {
                let net = Network::from_bytes(bytes).expect("a shipped network reads (tested)");
                let reading = net
                    .metadata
                    .get("ruleset")
                    .cloned()
                    .expect("a shipped reading's network names its ruleset (tested)");
                (reading, net)
            })
            .collect()
    })
}

/// The readings with a network of their own (the `ruleset` each file names).
pub fn shipped_reading_names() -> Vec<&'static str> {
    shipped_readings().iter().map(|(r, _)| r.as_str()).collect()
}

/// The shipped network trained on `rules`'s reading alone ([`same_reading`]), if there is one.
pub fn shipped_reading<S: Encode>(rules: &S::Ruleset) -> Option<&'static Network> {
    shipped_readings()
        .iter()
        .find(|(reading, net)| {
            net.family == S::family(rules)
                && reading
                    .parse::<S::Ruleset>()
                    .is_ok_and(|r| same_reading(&r, rules))
        })
        .map(|(_, net)| net)
}

/// The shipped network of `family` trained across its readings, if one is shipped; read on
/// first use.
pub fn shipped_across(family: &str) -> Option<&'static Network> {
    static NETS: OnceLock<Vec<(&'static str, Network)>> = OnceLock::new();
    compiled_in(&NETS, SHIPPED_ACROSS, family)
}

/// The network of `family` among the compiled-in `files`, read into `nets` on first use.
fn compiled_in(
    nets: &'static OnceLock<Vec<(&'static str, Network)>>,
    files: &[(&'static str, &[u8])],
    family: &str,
) -> Option<&'static Network> {
    let nets = nets.get_or_init(|| {
        files
            .iter()
            .map(|&(f, bytes)| {
                (
                    f,
                    Network::from_bytes(bytes).expect("a shipped network reads (tested)"),
                )
            })
            .collect()
    });
    nets.iter().find(|(f, _)| *f == family).map(|(_, n)| n)
}

/// The families with a shipped network trained across their readings.
pub fn shipped_across_families() -> Vec<&'static str> {
    SHIPPED_ACROSS.iter().map(|(f, _)| *f).collect()
}

/// Whether `rules` is its preset's own reading: the preset's board and every rule option at
/// the preset's value (the safety limits, L-18, aside). The preset's network was trained
/// there.
pub fn is_preset_reading<R: qasab_core::Ruleset>(rules: &R) -> bool {
    same_reading(rules, &rules.defaults())
}

/// Whether `a` and `b` are the same reading: the same board and every rule option the same
/// (the safety limits, L-18, aside: they stop a game, they do not change how it is played).
pub fn same_reading<R: qasab_core::Ruleset>(a: &R, b: &R) -> bool {
    R::option_defs()
        .iter()
        .filter(|d| !d.is_safety_limit())
        .all(|d| (d.get)(a) == (d.get)(b))
}

/// The shipped network of `family` (`tab`, …), if one is shipped; read on first use.
pub fn shipped(family: &str) -> Option<&'static Network> {
    static NETS: OnceLock<Vec<(&'static str, Network)>> = OnceLock::new();
    compiled_in(&NETS, SHIPPED, family)
}

/// The families with a shipped network, in the order they are compiled in.
pub fn shipped_families() -> Vec<&'static str> {
    SHIPPED.iter().map(|(f, _)| *f).collect()
}

/// The shipped network that plays `rules` (for `eval=net` and the `net` player), or why there
/// is none: a network trained on that reading alone where one is shipped
/// ([`shipped_reading`]); on the preset's own reading ([`is_preset_reading`]) the preset's
/// network, trained there; on any other board or reading the family's network trained across
/// its readings ([`shipped_across`]) where one is shipped, else the preset's where it reads
/// the board.
///
/// # Errors
/// A message naming the rulesets that have one.
pub fn for_rules<S: Encode>(rules: &S::Ruleset) -> Result<&'static Network, String> {
    let family = S::family(rules);
    let fitting = |n: Option<&'static Network>| n.filter(|n| n.fits::<S>(rules).is_ok());
    let board = fitting(shipped(family));
    let across = fitting(shipped_across(family));
    let own = fitting(shipped_reading::<S>(rules));
    let chosen = own.or(if is_preset_reading(rules) {
        board.or(across)
    } else {
        across.or(board)
    });
    if let Some(net) = chosen {
        return Ok(net);
    }
    let have = SHIPPED
        .iter()
        .filter_map(|(f, _)| shipped(f).map(|n| format!("{f} ({} columns)", n.encoding.columns)))
        .chain(
            SHIPPED_ACROSS
                .iter()
                .map(|(f, _)| format!("every reading of {f}")),
        )
        .collect::<Vec<_>>()
        .join(", ");
    match shipped(family) {
        Some(net) => Err(format!(
            "{}; networks are shipped for {have}",
            net.fits::<S>(rules)
                .err()
                .map_or_else(String::new, |e| e.to_string())
        )),
        None => Err(format!(
            "no network is shipped for {family}; networks are shipped for {have}"
        )),
    }
}

/// The shipped network that reads the states of `rules` (`eval=net`), as [`for_rules`] picks
/// it, if there is one.
pub fn shipped_for<S: Encode>(rules: &S::Ruleset) -> Option<&'static Network> {
    for_rules::<S>(rules).ok()
}

/// The most network files one process keeps for `eval=net` ([`keep`]).
pub const MAX_KEPT: usize = 64;

/// The networks read from files for the searches, by [`NetId`] less one: set once, never
/// moved, so that a search reads them without a lock.
static KEPT: [OnceLock<Network>; MAX_KEPT] = [const { OnceLock::new() }; MAX_KEPT];

/// Keeps `net` for the searches' `eval=net` for the rest of the process: its id. A network
/// equal to one kept before gets that one's id, so preparing a player again takes no more
/// memory.
///
/// # Errors
/// When [`MAX_KEPT`] other networks are kept already.
pub fn keep(net: Network) -> Result<NetId, String> {
    static ADDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = ADDING.lock().unwrap_or_else(|e| e.into_inner());
    for (i, slot) in KEPT.iter().enumerate() {
        let id = NetId::kept(i);
        match slot.get() {
            Some(kept) if *kept == net => return Ok(id),
            Some(_) => {}
            None => {
                let _ = slot.set(net);
                return Ok(id);
            }
        }
    }
    Err(format!(
        "at most {MAX_KEPT} network files are read in one process"
    ))
}

/// Reads the network file `path` for the searches of `rules` and keeps it ([`keep`]).
///
/// # Errors
/// A message: the file cannot be read, holds no network, or one trained on other inputs.
pub fn load_for<S: Encode>(path: &str, rules: &S::Ruleset) -> Result<NetId, String> {
    keep(load_fitting::<S>(path, rules)?)
}

/// The network in the file `path`, if it reads the states of `rules`.
pub(crate) fn load_fitting<S: Encode>(path: &str, rules: &S::Ruleset) -> Result<Network, String> {
    Network::load(std::path::Path::new(path))
        .and_then(|n| n.fits::<S>(rules).map(|()| n))
        .map_err(|e| format!("a network for {rules}: {e}"))
}

/// A ruleset (of any game) and the shipped network [`for_rules`] picked for it.
type Picked = (Box<dyn std::any::Any>, Option<&'static Network>);

thread_local! {
    /// The shipped networks picked for the last few rulesets, the latest first: a search asks
    /// for every state it values.
    static PICKED: std::cell::RefCell<Vec<Picked>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The network `id` names for states of `rules`, if any.
fn chosen<S: Encode>(id: NetId, rules: &S::Ruleset) -> Option<&'static Network> {
    match id.kept_index() {
        None => PICKED.with(|picked| {
            let mut picked = picked.borrow_mut();
            let found = picked
                .iter()
                .position(|(r, _)| r.downcast_ref::<S::Ruleset>() == Some(rules));
            let k = found.unwrap_or_else(|| {
                picked.truncate(7);
                picked.push((Box::new(rules.clone()), shipped_for::<S>(rules)));
                picked.len() - 1
            });
            if k != 0 {
                let entry = picked.remove(k);
                picked.insert(0, entry);
            }
            picked[0].1
        }),
        Some(k) => KEPT[k].get(),
    }
}

/// [`crate::eval::Evaluate::evaluate_all`] for a game with networks: with
/// [`EvalWeights::Net`](crate::eval::EvalWeights::Net) and a network for the states'
/// ruleset, its values computed together ([`Network::values`]); else each state's
/// `evaluate_with`.
pub(crate) fn evaluate_all<'a, S: Encode + crate::eval::Evaluate + 'a>(
    states: impl IntoIterator<Item = &'a S>,
    player: Player,
    weights: crate::eval::EvalWeights,
) -> Vec<f64> {
    let mut states = states.into_iter().peekable();
    if let crate::eval::EvalWeights::Net(id) = weights
        && let Some(first) = states.peek()
        && let Some(net) = chosen::<S>(id, first.ruleset())
    {
        return net.values(states, player);
    }
    states.map(|s| s.evaluate_with(player, weights)).collect()
}

/// The value of `state` for `player` by the network `id` names, if there is one for its
/// family and board (`eval=net`, checked when the player was made).
pub fn net_value<S: Encode>(id: NetId, state: &S, player: Player) -> Option<f64> {
    chosen::<S>(id, state.ruleset()).map(|net| net.value(state, player))
}
