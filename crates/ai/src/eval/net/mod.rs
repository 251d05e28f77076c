//! Learned evaluation: networks trained by self-play for the Tâb family (`eval=net`, the `net`
//! player).
//!
//! * [`encode`]: the network's inputs, from the side of the player in turn.
//! * [`mlp`]: the network itself (a small perceptron with sparse inputs) and its optimiser.
//! * `crate::train` (above, in the training layer): temporal-difference learning from self-play
//!   (`qasab train`).
//!
//! A [`Network`] is the perceptron with the name of its encoding and the family and board it
//! was trained on. It is stored as safetensors, with the layers named and shaped as PyTorch's
//! `nn.Linear` names and shapes them (`fc1.weight` is `hidden × inputs`), so that a network
//! trained elsewhere on the same encoding loads here. The shipped networks are compiled into
//! the binary ([`shipped`]) and read once, on first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use qasab_core::{Player, Turn};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};

pub use crate::eval::NetId;
use crate::eval::terminal_value;

pub mod encode;
pub mod mlp;

pub use encode::{Encode, Encoding, Features};
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
        batch(
            &self.mlp,
            self.encoding,
            states,
            |o| terminal_value(o, player),
            |us, v| {
                let v = f64::from(v).clamp(-crate::eval::MAX_ESTIMATE, crate::eval::MAX_ESTIMATE);
                if us == player { v } else { -v }
            },
        )
    }

    /// The network as a safetensors file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = [
            ("fc1", &self.mlp.fc1),
            ("fc2", &self.mlp.fc2),
            ("out", &self.mlp.out),
        ];
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = l
            .iter()
            .flat_map(|(name, layer)| {
                [
                    (
                        format!("{name}.weight"),
                        vec![layer.outputs, layer.inputs],
                        le_bytes(&layer.weight),
                    ),
                    (
                        format!("{name}.bias"),
                        vec![layer.outputs],
                        le_bytes(&layer.bias),
                    ),
                ]
            })
            .collect();
        let views = bytes.iter().map(|(name, shape, data)| {
            (
                name.clone(),
                TensorView::new(Dtype::F32, shape.clone(), data).expect("sizes agree"),
            )
        });
        canonical(
            safetensors::serialize(views, Some(self.to_metadata()))
                .expect("a small network serialises"),
        )
    }

    /// The file's metadata: what the network was trained on, and its encoding.
    pub(crate) fn to_metadata(&self) -> HashMap<String, String> {
        let mut meta = self.metadata.clone();
        meta.insert("format".into(), "qasab-net".into());
        meta.insert("encoding".into(), self.encoding.name.into());
        meta.insert("family".into(), self.family.clone());
        meta.insert("columns".into(), self.encoding.columns.to_string());
        meta.insert("activation".into(), "relu,relu,tanh".into());
        meta
    }

    /// Reads a network from a safetensors file's bytes.
    ///
    /// # Errors
    /// [`NetError`] for a file that is not safetensors, lacks a layer, or does not say its
    /// encoding, family and board.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let tensors =
            SafeTensors::deserialize(bytes).map_err(|e| NetError::Format(e.to_string()))?;
        let (_, header) =
            SafeTensors::read_metadata(bytes).map_err(|e| NetError::Format(e.to_string()))?;
        let mut metadata = header.metadata().clone().unwrap_or_default();
        let mut take = |key: &str| {
            metadata
                .remove(key)
                .ok_or_else(|| NetError::Metadata(format!("no \"{key}\" in the metadata")))
        };
        let encoding = take("encoding")?;
        let family = take("family")?;
        let columns = take("columns")?;
        let _ = take("format");
        let _ = take("activation");
        metadata.remove("checkpoint");
        let Some(name) = encode::ENCODINGS.into_iter().find(|&e| e == encoding) else {
            return Err(NetError::Metadata(format!(
                "unknown encoding \"{encoding}\" (this version reads {})",
                encode::ENCODINGS.join(", ")
            )));
        };
        let columns: u8 = columns
            .parse()
            .map_err(|_| NetError::Metadata(format!("columns \"{columns}\" is not a number")))?;
        let layer = |name: &str| -> Result<mlp::Linear, NetError> {
            let w = tensors
                .tensor(&format!("{name}.weight"))
                .map_err(|_| NetError::Tensor(format!("no tensor {name}.weight")))?;
            let b = tensors
                .tensor(&format!("{name}.bias"))
                .map_err(|_| NetError::Tensor(format!("no tensor {name}.bias")))?;
            if w.dtype() != Dtype::F32 || b.dtype() != Dtype::F32 {
                return Err(NetError::Tensor(format!("{name} is not float32")));
            }
            let (&[outputs, inputs], &[bias]) = (w.shape(), b.shape()) else {
                return Err(NetError::Tensor(format!(
                    "{name}.weight must be 2-dimensional and {name}.bias 1-dimensional"
                )));
            };
            if bias != outputs {
                return Err(NetError::Tensor(format!(
                    "{name}.bias has {bias} values for {outputs} outputs"
                )));
            }
            Ok(mlp::Linear {
                inputs,
                outputs,
                weight: from_le_bytes(w.data()),
                bias: from_le_bytes(b.data()),
            })
        };
        let mlp = Mlp::from_layers(layer("fc1")?, layer("fc2")?, layer("out")?)
            .map_err(NetError::Tensor)?;
        if mlp.fc1.outputs > mlp::MAX_HIDDEN || mlp.fc2.outputs > mlp::MAX_HIDDEN {
            return Err(NetError::Tensor(format!(
                "hidden layers of at most {} units are read",
                mlp::MAX_HIDDEN
            )));
        }
        let encoding = Encoding {
            name,
            columns,
            inputs: mlp.inputs(),
        };
        Ok(Network {
            mlp,
            encoding,
            family,
            metadata,
        })
    }

    /// The largest network or checkpoint file read, in bytes: far above any this crate writes
    /// (the largest network, 512 units over `tab`'s inputs, is a few megabytes, its checkpoint
    /// with Adam's moments three times that), so that a path naming something else fails at
    /// once rather than filling memory.
    pub const MAX_FILE_BYTES: u64 = 64 << 20;

    /// Reads a network from a safetensors file ([`read_file`]).
    ///
    /// # Errors
    /// As [`read_file`], else as [`Network::from_bytes`].
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        Network::from_bytes(&read_file(path)?)
    }

    /// Writes the network to a safetensors file (through a temporary file, so that a stopped
    /// run never leaves half a file).
    ///
    /// # Errors
    /// [`NetError::Io`] if the file cannot be written.
    pub fn save(&self, path: &std::path::Path) -> Result<(), NetError> {
        write_atomically(path, &self.to_bytes())
    }
}

/// The bytes of a network or checkpoint file: a regular file of at most
/// [`Network::MAX_FILE_BYTES`] (not a device or a pipe, which may never end, nor something so
/// large that reading it would fill memory).
///
/// # Errors
/// [`NetError::Io`] if the file cannot be read, is not a regular file or is too large.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, NetError> {
    use std::io::Read;
    let io = |message: String| NetError::Io {
        path: path.display().to_string(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let meta = file.metadata().map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io("not a regular file".into()));
    }
    let too_large = || io(format!("larger than {} bytes", Network::MAX_FILE_BYTES));
    if meta.len() > Network::MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(Network::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > Network::MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A safetensors file with its metadata written in key order, so that the same network gives
/// the same bytes (the writer takes the metadata as a hash map, whose order is random).
pub(crate) fn canonical(bytes: Vec<u8>) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as usize;
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&bytes[8..8 + n]).expect("the writer's header is JSON");
    let mut out = serde_json::Map::new();
    let mut keys: Vec<&String> = header.keys().collect();
    keys.sort();
    for k in keys {
        let v = &header[k];
        let v = match v.as_object() {
            Some(m) if k == "__metadata__" => {
                let sorted: std::collections::BTreeMap<&String, &serde_json::Value> =
                    m.iter().collect();
                serde_json::to_value(sorted).expect("strings")
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    let mut text = serde_json::to_string(&out).expect("JSON");
    while !text.len().is_multiple_of(8) {
        text.push(' ');
    }
    let mut file = Vec::with_capacity(8 + text.len() + bytes.len() - 8 - n);
    file.extend_from_slice(&(text.len() as u64).to_le_bytes());
    file.extend_from_slice(text.as_bytes());
    file.extend_from_slice(&bytes[8 + n..]);
    file
}

/// Writes `bytes` to `path` through a temporary file beside it, so that a stopped run never
/// leaves half a file.
///
/// # Errors
/// [`NetError::Io`] if the file cannot be written.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), NetError> {
    let io = |e: std::io::Error| NetError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

pub(crate) fn le_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub(crate) fn from_le_bytes(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
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

/// The shipped network of `family` (`tab`, …), if one is shipped; read on first use.
pub fn shipped(family: &str) -> Option<&'static Network> {
    static NETS: OnceLock<Vec<(&'static str, Network)>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        SHIPPED
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

/// The families with a shipped network, in the order they are compiled in.
pub fn shipped_families() -> Vec<&'static str> {
    SHIPPED.iter().map(|(f, _)| *f).collect()
}

/// The shipped network that reads states of `rules`, or why there is none (for `eval=net` and
/// the `net` player).
///
/// # Errors
/// A message naming the rulesets that have one.
pub fn for_rules<S: Encode>(rules: &S::Ruleset) -> Result<&'static Network, String> {
    let family = S::family(rules);
    let have = || {
        SHIPPED
            .iter()
            .filter_map(|(f, _)| {
                shipped(f).map(|n| format!("{f} ({} columns)", n.encoding.columns))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match shipped(family) {
        Some(net) => net
            .fits::<S>(rules)
            .map(|()| net)
            .map_err(|e| format!("{e}; networks are shipped for {}", have())),
        None => Err(format!(
            "no network is shipped for {family}; networks are shipped for {}",
            have()
        )),
    }
}

/// The shipped network that reads the states of `rules` (`eval=net`), if one is shipped for
/// their family and board.
pub fn shipped_for<S: Encode>(rules: &S::Ruleset) -> Option<&'static Network> {
    shipped(S::family(rules)).filter(|net| net.encoding.columns == S::encoding(rules).columns)
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

/// The network `id` names for states of `rules`, if any.
fn chosen<S: Encode>(id: NetId, rules: &S::Ruleset) -> Option<&'static Network> {
    match id.kept_index() {
        None => shipped_for::<S>(rules),
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
