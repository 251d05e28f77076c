//! The compiled part of `qasab.net`: the learned evaluation's training data as numpy arrays,
//! a state's network inputs, and networks trained elsewhere written as the files that
//! `net(weights=FILE)` reads (docs/training.md, "Training data for your own models" in
//! docs/python.md).
//!
//! Everything is `qasab_ai::eval::net`'s: the self-play and λ-returns of
//! [`qasab_ai::train::training_data`], the encoding ([`Encode`]), the file
//! ([`Network`]). This module checks arguments and converts values and errors.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyTuple};
use qasab_ai::eval::net::encode::ENCODINGS;
use qasab_ai::eval::net::mlp::{Linear, MAX_HIDDEN, Mlp};
use qasab_ai::eval::net::{Encode, Encoding, Features, NetError, Network};
use qasab_ai::players::{NetworkWork, Playable, with_network};
use qasab_ai::train::{TrainOptions, Trainer};
use qasab_core::{AnyRuleset, AnyState, Observe, Registered, Turn};

use crate::{NetworkError, PyState, QasabError, RulesetError, parse_ruleset};

/// The error for a ruleset whose states no network reads (Tihbat).
fn no_encoding(name: &str) -> PyErr {
    RulesetError::new_err(format!(
        "{name} has no network encoding: networks read the Tâb family (tab, tab-hyde, \
         tab-modern) and Ludii's presets (tab-ludii, tab-hyde-ludii); tihbat is solved exactly \
         instead (qasab solve)"
    ))
}

/// Runs `work` on the game of `rules` if it has an encoding ([`with_network`]), else raises
/// [`no_encoding`].
fn encoded<W: NetworkWork<Output = PyResult<T>>, T>(rules: &AnyRuleset, work: W) -> PyResult<T> {
    with_network(rules, work).unwrap_or_else(|| Err(no_encoding(rules.name())))
}

/// A function of a state of a game with an encoding ([`StateFn`]), run on the dynamic state
/// of such a game.
struct OfState<'a, F>(&'a AnyState, F);

/// The functions [`OfState`] runs: one generic function of a state, for each use.
trait StateFn {
    type Output;
    fn call<S: Encode>(self, state: &S) -> PyResult<Self::Output>;
}

impl<F: StateFn> NetworkWork for OfState<'_, F> {
    type Output = PyResult<F::Output>;

    fn run<S: Encode + Playable + Registered>(self, _: &S::Ruleset) -> Self::Output {
        let state = S::state_of(self.0).expect("a state of its own ruleset's game");
        self.1.call(state)
    }
}

/// [`encode_named`] as a [`StateFn`].
struct EncodeNamed<'a>(Option<&'a str>);

impl StateFn for EncodeNamed<'_> {
    type Output = Features;

    fn call<S: Encode>(self, state: &S) -> PyResult<Features> {
        encode_named(state, self.0)
    }
}

/// [`value_typed`] as a [`StateFn`].
struct ValueOf<'a>(Option<&'a Path>);

impl StateFn for ValueOf<'_> {
    type Output = f64;

    fn call<S: Encode>(self, state: &S) -> PyResult<f64> {
        value_typed(state, self.0)
    }
}

/// [`encoding_typed`] on the game of a dynamic ruleset.
struct EncodingOf<'py, 'a>(Python<'py>, Option<&'a str>);

impl<'py> NetworkWork for EncodingOf<'py, '_> {
    type Output = PyResult<Bound<'py, PyDict>>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        encoding_typed::<S>(rules, self.0, self.1)
    }
}

/// [`training_data_typed`] on the game of a dynamic ruleset.
struct TrainingData<'py, 'a, 'b>(Python<'py>, &'a Export<'b>);

impl<'py> NetworkWork for TrainingData<'py, '_, '_> {
    type Output = PyResult<Bound<'py, PyDict>>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        training_data_typed::<S>(rules, self.0, self.1)
    }
}

/// [`save_typed`] on the game of a dynamic ruleset.
struct Save<'a, 'py> {
    path: &'a Path,
    tensors: &'a HashMap<String, Tensor<'py>>,
    metadata: HashMap<String, String>,
}

impl NetworkWork for Save<'_, '_> {
    type Output = PyResult<()>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        save_typed::<S>(rules, self.path, self.tensors, self.metadata)
    }
}

/// A network error as Python's `NetworkError`, naming the file unless the message does.
fn network_error(path: &Path, e: NetError) -> PyErr {
    match e {
        NetError::Io { .. } => NetworkError::new_err(e.to_string()),
        _ => NetworkError::new_err(format!("{}: {e}", path.display())),
    }
}

/// The network in `path`, checked to read states of `rules`.
fn load<S: Encode>(path: &Path, rules: &S::Ruleset) -> PyResult<Network> {
    Network::load(path)
        .and_then(|n| n.fits::<S>(rules).map(|()| n))
        .map_err(|e| network_error(path, e))
}

/// A numpy array of `dtype` (whose items take `item` bytes) and `shape`, its bytes written by
/// `fill` straight into the bytearray the array owns (zeroed before).
fn array_with<'py>(
    py: Python<'py>,
    dtype: &str,
    item: usize,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let len = shape.iter().product::<usize>() * item;
    let buffer = PyByteArray::new_with(py, len, |b| {
        fill(b);
        Ok(())
    })?;
    py.import("numpy")?
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// The encoding `name` of `rules` (its newest without a name), or why there is none.
fn encoding_of<S: Encode>(rules: &S::Ruleset, name: Option<&str>) -> PyResult<Encoding> {
    let Some(name) = name else {
        return Ok(S::encoding(rules));
    };
    S::encoding_named(rules, name).ok_or_else(|| {
        let known: Vec<&str> = ENCODINGS
            .into_iter()
            .filter(|e| S::encoding_named(rules, e).is_some())
            .collect();
        QasabError::new_err(format!(
            "encoding={name:?} is not one of {rules}'s: {}",
            known.join(", ")
        ))
    })
}

/// The encoding of a ruleset as a dict.
fn encoding_typed<'py, S: Encode>(
    rules: &S::Ruleset,
    py: Python<'py>,
    name: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let enc = encoding_of::<S>(rules, name)?;
    let d = PyDict::new(py);
    d.set_item("name", enc.name)?;
    d.set_item("inputs", enc.inputs)?;
    // A board-free encoding (tab-v3) reads every board: None.
    d.set_item(
        "columns",
        (enc.columns != qasab_ai::eval::net::ANY_BOARD).then_some(enc.columns),
    )?;
    d.set_item("family", S::family(rules))?;
    Ok(d)
}

/// The encoding of a ruleset's states: `name` (`tab-v2`, `tab-ludii-v2`), `inputs`, `columns`
/// (None for `tab-v3`, which reads every board), `family` (the preset whose network reads it);
/// the newest, or the one named `encoding` (`tab-v1`, which older networks read; `tab-v3`,
/// which networks trained across a family read).
#[pyfunction]
#[pyo3(signature = (ruleset, encoding=None))]
pub(crate) fn net_encoding<'py>(
    py: Python<'py>,
    ruleset: &str,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = parse_ruleset(ruleset)?;
    encoded(&rules, EncodingOf(py, encoding))
}

/// The inputs of a state that is not over in the encoding `enc`.
fn features_of<S: Encode>(state: &S, enc: Encoding) -> PyResult<Features> {
    if matches!(state.turn(), Turn::Over(_)) {
        return Err(QasabError::new_err(
            "the game is over: a finished game has its result, not network inputs",
        ));
    }
    let mut f = Features::default();
    Encode::encode(state, enc, &mut f);
    Ok(f)
}

/// The inputs of `state` in its ruleset's encoding `name` (the newest without one).
fn encode_named<S: Encode>(state: &S, name: Option<&str>) -> PyResult<Features> {
    features_of(state, encoding_of::<S>(state.ruleset(), name)?)
}

/// The network inputs of a state as a float32 vector, describing the side in turn (White in
/// an opening that has none), in the ruleset's newest encoding or the one named `encoding`.
#[pyfunction]
#[pyo3(signature = (state, encoding=None))]
pub(crate) fn net_encode<'py>(
    py: Python<'py>,
    state: &PyState,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let any = state.inner.state();
    let f = encoded(&any.ruleset(), OfState(any, EncodeNamed(encoding)))?;
    array_with(py, "float32", 4, &[f.size()], |b| {
        for &(i, v) in f.active() {
            let at = i as usize * 4;
            b[at..at + 4].copy_from_slice(&v.to_ne_bytes());
        }
    })
}

/// The output of a network (the file `network`, else the shipped one) for a state's inputs in
/// the network's encoding.
fn value_typed<S: Encode>(state: &S, network: Option<&Path>) -> PyResult<f64> {
    let rules = state.ruleset();
    let loaded;
    let net = match network {
        Some(path) => {
            loaded = load::<S>(path, rules)?;
            &loaded
        }
        None => qasab_ai::eval::net::for_rules::<S>(rules).map_err(NetworkError::new_err)?,
    };
    let f = features_of(state, net.encoding)?;
    Ok(f64::from(net.mlp.value(&f)))
}

/// A network's value of a state that is not over, for the side its inputs describe: the
/// network's output, in (-1, 1).
#[pyfunction]
#[pyo3(signature = (state, network=None))]
pub(crate) fn net_value(state: &PyState, network: Option<PathBuf>) -> PyResult<f64> {
    let network = network.as_deref();
    let any = state.inner.state();
    encoded(&any.ruleset(), OfState(any, ValueOf(network)))
}

/// The settings of one export.
struct Export<'a> {
    games: u64,
    seed: u64,
    network: Option<&'a Path>,
    lambda: f32,
    threads: usize,
}

/// The network an export plays with, its encoding and where it came from: the file, else the
/// shipped network if it reads the ruleset, else a fresh one initialised from the seed as a
/// new training run's.
fn export_network<S: Encode + Playable>(
    rules: &S::Ruleset,
    x: &Export<'_>,
) -> PyResult<(Mlp, Encoding, &'static str)> {
    if let Some(path) = x.network {
        let net = load::<S>(path, rules)?;
        return Ok((net.mlp, net.encoding, "file"));
    }
    if let Ok(net) = qasab_ai::eval::net::for_rules::<S>(rules) {
        return Ok((net.mlp.clone(), net.encoding, "shipped"));
    }
    let options = TrainOptions {
        seed: x.seed,
        lambda: x.lambda,
        threads: x.threads,
        ..TrainOptions::default()
    };
    let trainer = Trainer::<S>::new(rules.clone(), options)
        .map_err(|e| QasabError::new_err(e.to_string()))?;
    Ok((trainer.mlp, trainer.encoding, "initial"))
}

fn training_data_typed<'py, S: Encode + Observe + Playable>(
    rules: &S::Ruleset,
    py: Python<'py>,
    x: &Export<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let (mlp, enc, source) = export_network::<S>(rules, x)?;
    let games = py.detach(|| {
        qasab_ai::train::training_data::<S>(&mlp, enc, rules, x.games, x.seed, x.lambda, x.threads)
    });
    let rows: Vec<(u64, &S, &qasab_ai::train::Sample)> = games
        .iter()
        .zip(0u64..)
        .flat_map(|(g, k)| g.iter().map(move |(s, sample)| (k, s, sample)))
        .collect();
    let n = rows.len();
    let inputs = enc.inputs;
    let out = PyDict::new(py);
    out.set_item(
        "features",
        array_with(py, "float32", 4, &[n, inputs], |b| {
            for (row, (_, _, sample)) in rows.iter().enumerate() {
                for &(i, v) in sample.features.active() {
                    let at = (row * inputs + i as usize) * 4;
                    b[at..at + 4].copy_from_slice(&v.to_ne_bytes());
                }
            }
        })?,
    )?;
    let shape = S::observation_shape(rules);
    let size: usize = shape.iter().product();
    let mut full = vec![n];
    full.extend(&shape);
    out.set_item(
        "observations",
        array_with(py, "float32", 4, &full, |b| {
            let mut obs = Vec::with_capacity(size);
            for (row, (_, state, _)) in rows.iter().enumerate() {
                state.observation(&mut obs);
                debug_assert_eq!(obs.len(), size);
                let chunk = &mut b[row * size * 4..(row + 1) * size * 4];
                for (dst, v) in chunk.chunks_exact_mut(4).zip(&obs) {
                    dst.copy_from_slice(&v.to_ne_bytes());
                }
            }
        })?,
    )?;
    out.set_item(
        "targets",
        array_with(py, "float32", 4, &[n], |b| {
            for (dst, (_, _, sample)) in b.chunks_exact_mut(4).zip(&rows) {
                dst.copy_from_slice(&sample.target.to_ne_bytes());
            }
        })?,
    )?;
    out.set_item(
        "player",
        array_with(py, "int8", 1, &[n], |b| {
            for (dst, (_, _, sample)) in b.iter_mut().zip(&rows) {
                *dst = sample.us.index() as u8;
            }
        })?,
    )?;
    out.set_item(
        "game",
        array_with(py, "int64", 8, &[n], |b| {
            for (dst, (k, _, _)) in b.chunks_exact_mut(8).zip(&rows) {
                dst.copy_from_slice(&(*k as i64).to_ne_bytes());
            }
        })?,
    )?;
    let positions: Vec<String> = rows.iter().map(|(_, s, _)| s.position_id()).collect();
    out.set_item("positions", PyList::new(py, positions)?)?;
    out.set_item("encoding", enc.name)?;
    out.set_item("inputs", inputs)?;
    out.set_item("network", source)?;
    out.set_item("ruleset", rules.to_string())?;
    Ok(out)
}

/// The training data of `games` self-play games (see `qasab.net.training_data`), computed
/// without the GIL.
#[pyfunction]
#[pyo3(signature = (ruleset, games=100, seed=0, network=None, lambda_=0.7, threads=0))]
pub(crate) fn net_training_data<'py>(
    py: Python<'py>,
    ruleset: &str,
    games: i64,
    seed: u64,
    network: Option<PathBuf>,
    lambda_: f64,
    threads: i64,
) -> PyResult<Bound<'py, PyDict>> {
    if games < 1 {
        return Err(QasabError::new_err(format!(
            "games={games}: at least one game is needed"
        )));
    }
    if !(0.0..=1.0).contains(&lambda_) {
        return Err(QasabError::new_err(format!(
            "lambda_={lambda_} is not between 0 and 1"
        )));
    }
    let max = qasab_ai::play::arena::MAX_THREADS;
    let threads = usize::try_from(threads)
        .ok()
        .filter(|&t| t <= max)
        .ok_or_else(|| {
            QasabError::new_err(format!(
                "threads={threads} is not between 0 (every core) and {max}"
            ))
        })?;
    let rules = parse_ruleset(ruleset)?;
    let x = Export {
        games: games as u64,
        seed,
        network: network.as_deref(),
        lambda: lambda_ as f32,
        threads,
    };
    encoded(&rules, TrainingData(py, &x))
}

/// The layers of a network file, in order.
const LAYERS: [&str; 3] = ["fc1", "fc2", "out"];
/// Metadata keys that the file's writer fills.
const RESERVED: [&str; 8] = [
    "format",
    "encoding",
    "family",
    "columns",
    "activation",
    "ruleset",
    "checkpoint",
    qasab_ai::eval::net::OPTION_INPUTS,
];

/// A shape as Python writes it: `(16, 343)`, `(16,)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A tensor handed over from Python: its shape and its float32 values' little-endian bytes.
type Tensor<'py> = (Vec<usize>, Bound<'py, PyBytes>);

fn save_typed<S: Encode>(
    rules: &S::Ruleset,
    path: &Path,
    tensors: &HashMap<String, Tensor<'_>>,
    metadata: HashMap<String, String>,
) -> PyResult<()> {
    let bad = |m: String| NetworkError::new_err(m);
    let expected = || {
        LAYERS
            .iter()
            .flat_map(|l| [format!("{l}.weight"), format!("{l}.bias")])
            .collect::<Vec<_>>()
    };
    let mut unknown: Vec<&String> = tensors.keys().filter(|k| !expected().contains(k)).collect();
    unknown.sort();
    if let Some(k) = unknown.first() {
        return Err(bad(format!(
            "unknown tensor {k:?}: a network has exactly {}",
            expected().join(", ")
        )));
    }
    let values = |name: &str, dims: usize| -> PyResult<(Vec<usize>, Vec<f32>)> {
        let (shape, bytes) = tensors
            .get(name)
            .ok_or_else(|| bad(format!("no tensor {name}")))?;
        if shape.len() != dims {
            return Err(bad(format!(
                "{name} has shape {}: it must have {dims} dimension{}",
                shape_text(shape),
                if dims == 1 { "" } else { "s" }
            )));
        }
        let bytes = bytes.as_bytes();
        if bytes.len() != 4 * shape.iter().product::<usize>() {
            return Err(bad(format!(
                "{name}: {} bytes for shape {}",
                bytes.len(),
                shape_text(shape)
            )));
        }
        let v = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok((shape.clone(), v))
    };
    let mut layers = Vec::with_capacity(3);
    for l in LAYERS {
        let (ws, weight) = values(&format!("{l}.weight"), 2)?;
        let (bs, bias) = values(&format!("{l}.bias"), 1)?;
        let (outputs, inputs) = (ws[0], ws[1]);
        if bs[0] != outputs {
            return Err(bad(format!(
                "{l}.bias has shape {} for {l}.weight of shape {}: one bias per row, ({outputs},)",
                shape_text(&bs),
                shape_text(&ws)
            )));
        }
        layers.push(Linear {
            inputs,
            outputs,
            weight,
            bias,
        });
    }
    // The encoding is the one whose inputs fc1 reads: the newest, else an older one.
    let newest = S::encoding(rules);
    let Some(enc) = std::iter::once(newest)
        .chain(
            ENCODINGS
                .into_iter()
                .filter_map(|e| S::encoding_named(rules, e)),
        )
        .find(|e| e.inputs == layers[0].inputs)
    else {
        return Err(bad(format!(
            "fc1.weight has shape ({}, {}): the encoding {} of {rules} has {} inputs, so it must \
             be (hidden, {})",
            layers[0].outputs, layers[0].inputs, newest.name, newest.inputs, newest.inputs
        )));
    };
    if layers[0].outputs > MAX_HIDDEN || layers[1].outputs > MAX_HIDDEN {
        return Err(bad(format!(
            "hidden layers of at most {MAX_HIDDEN} units are read, not {} and {}",
            layers[0].outputs, layers[1].outputs
        )));
    }
    let out = layers.pop().expect("three layers");
    let fc2 = layers.pop().expect("three layers");
    let fc1 = layers.pop().expect("three layers");
    let mlp = Mlp::from_layers(fc1, fc2, out).map_err(bad)?;
    // The option list of a board-free encoding is written from this version's.
    let mut net = Network::for_rules::<S>(mlp, rules, enc);
    net.metadata.extend(metadata);
    net.metadata.insert("ruleset".into(), rules.to_string());
    net.fits::<S>(rules).map_err(|e| network_error(path, e))?;
    net.save(path).map_err(|e| network_error(path, e))
}

/// Writes a network given as tensors (`name: (shape, float32 little-endian bytes)`) for
/// `ruleset` to `path`, as `net(weights=FILE)` reads it; `metadata` is added to the file's.
#[pyfunction]
#[pyo3(signature = (path, tensors, ruleset, metadata=None))]
pub(crate) fn net_save_network(
    path: PathBuf,
    tensors: HashMap<String, Tensor<'_>>,
    ruleset: &str,
    metadata: Option<HashMap<String, String>>,
) -> PyResult<()> {
    let rules = parse_ruleset(ruleset)?;
    let metadata = metadata.unwrap_or_default();
    let mut reserved: Vec<&String> = metadata
        .keys()
        .filter(|k| RESERVED.contains(&k.as_str()))
        .collect();
    reserved.sort();
    if let Some(k) = reserved.first() {
        return Err(NetworkError::new_err(format!(
            "metadata {k:?} is written from the ruleset and cannot be given"
        )));
    }
    encoded(
        &rules,
        Save {
            path: &path,
            tensors: &tensors,
            metadata,
        },
    )
}
