//! Checkpoints: a run saved whole (the network, the optimiser's moments, the settings and
//! the curve), from which it goes on exactly as if it had never stopped.

use crate::eval::net::encode::Encode;
use crate::eval::net::file::{canonical, from_le_bytes, le_bytes};
use crate::eval::net::{NetError, Network};
use crate::players::Playable;
use crate::train::optim::Adam;
use crate::train::options::{CurvePoint, TrainError, TrainOptions, check};
use crate::train::trainer::{RateChange, Trainer, thread_pool};

/// The part of a checkpoint that is not a tensor, kept as JSON in its metadata.
#[derive(serde::Serialize, serde::Deserialize)]
struct CheckpointMeta {
    ruleset: String,
    games: u64,
    seed: u64,
    batch: u64,
    lambda: f32,
    rate: f32,
    minibatch: usize,
    hidden: [usize; 2],
    curve_every: u64,
    curve_pairs: u64,
    games_done: u64,
    curve: Vec<CurvePoint>,
    loss_sum: f64,
    loss_count: u64,
    seconds: f64,
    adam_steps: u64,
    /// Absent from the checkpoints of runs whose rate never changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rate_changes: Vec<RateChange>,
    /// Absent from the checkpoints of runs on one reading.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    across: bool,
    /// The network the run started from; absent for a run from random weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<String>,
}

impl<S: Encode + Playable> Trainer<S> {
    /// The run as a checkpoint file: the network, the optimiser's moments and the run's
    /// settings and curve (safetensors; the settings as JSON under the metadata key
    /// `checkpoint`). `seconds` is the run's time so far.
    pub fn checkpoint(&self, seconds: f64) -> Vec<u8> {
        let o = &self.options;
        let meta = CheckpointMeta {
            ruleset: self.rules.to_string(),
            games: o.games,
            seed: o.seed,
            batch: o.batch,
            lambda: o.lambda,
            rate: o.rate,
            minibatch: o.minibatch,
            hidden: o.hidden,
            curve_every: o.curve_every,
            curve_pairs: o.curve_pairs,
            games_done: self.games_done,
            curve: self.curve.clone(),
            loss_sum: self.loss_sum,
            loss_count: self.loss_count,
            seconds,
            adam_steps: self.adam.steps,
            rate_changes: self.rate_changes.clone(),
            across: o.across,
            start: self.start.clone(),
        };
        let net = self.network();
        let (m, v) = self.adam.moments();
        let mut tensors: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
        for (name, layer) in [
            ("fc1", &net.mlp.fc1),
            ("fc2", &net.mlp.fc2),
            ("out", &net.mlp.out),
        ] {
            tensors.push((
                format!("{name}.weight"),
                vec![layer.outputs, layer.inputs],
                le_bytes(&layer.weight),
            ));
            tensors.push((
                format!("{name}.bias"),
                vec![layer.outputs],
                le_bytes(&layer.bias),
            ));
        }
        for (k, (mk, vk)) in m.iter().zip(v).enumerate() {
            tensors.push((format!("adam.m.{k}"), vec![mk.len()], le_bytes(mk)));
            tensors.push((format!("adam.v.{k}"), vec![vk.len()], le_bytes(vk)));
        }
        let views = tensors.iter().map(|(n, shape, data)| {
            (
                n.clone(),
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), data)
                    .expect("sizes agree"),
            )
        });
        let mut info = net.to_metadata();
        info.insert(
            "checkpoint".into(),
            serde_json::to_string(&meta).expect("plain data serialises"),
        );
        canonical(safetensors::serialize(views, Some(info)).expect("a checkpoint serialises"))
    }

    /// Goes on with the run saved in `bytes` ([`Trainer::checkpoint`]) on `rules`, which must be
    /// the ruleset it was started on, up to `games` games in all and with `threads` threads.
    /// Returns the run and its time so far, in seconds.
    ///
    /// # Errors
    /// [`TrainError`] if the file is not a checkpoint of this ruleset.
    pub fn resume(
        rules: S::Ruleset,
        bytes: &[u8],
        games: Option<u64>,
        threads: usize,
    ) -> Result<(Self, f64), TrainError> {
        let net = Network::from_bytes(bytes)?;
        net.fits::<S>(&rules)?;
        let (_, header) = safetensors::SafeTensors::read_metadata(bytes)
            .map_err(|e| NetError::Format(e.to_string()))?;
        let text = header
            .metadata()
            .as_ref()
            .and_then(|m| m.get("checkpoint"))
            .ok_or_else(|| {
                NetError::Metadata("not a checkpoint (no \"checkpoint\" metadata): a trained network cannot be resumed, its checkpoint can".into())
            })?;
        let meta: CheckpointMeta = serde_json::from_str(text)
            .map_err(|e| NetError::Metadata(format!("the checkpoint's settings: {e}")))?;
        if meta.ruleset != rules.to_string() {
            return Err(TrainError::Options(format!(
                "the checkpoint is of {}, not {rules}",
                meta.ruleset
            )));
        }
        let tensors = safetensors::SafeTensors::deserialize(bytes)
            .map_err(|e| NetError::Format(e.to_string()))?;
        let slot = |name: String| -> Result<Vec<f32>, TrainError> {
            let t = tensors
                .tensor(&name)
                .map_err(|_| NetError::Tensor(format!("no tensor {name} in the checkpoint")))?;
            Ok(from_le_bytes(t.data()))
        };
        let m = (0..6)
            .map(|k| slot(format!("adam.m.{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let v = (0..6)
            .map(|k| slot(format!("adam.v.{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let adam =
            Adam::restore(&net.mlp, meta.rate, meta.adam_steps, m, v).map_err(NetError::Tensor)?;
        let options = TrainOptions {
            games: games.unwrap_or(meta.games),
            seed: meta.seed,
            threads,
            batch: meta.batch,
            lambda: meta.lambda,
            rate: meta.rate,
            minibatch: meta.minibatch,
            hidden: meta.hidden,
            curve_every: meta.curve_every,
            curve_pairs: meta.curve_pairs,
            across: meta.across,
        };
        check(&options)?;
        let pool = thread_pool(options.threads)?;
        Ok((
            Trainer {
                rules,
                options,
                mlp: net.mlp,
                encoding: net.encoding,
                adam,
                games_done: meta.games_done,
                curve: meta.curve,
                loss_sum: meta.loss_sum,
                loss_count: meta.loss_count,
                seconds_before: meta.seconds,
                graphs: crate::train::trainer::graph_pools(&pool),
                pool,
                rate_changes: meta.rate_changes,
                start: meta.start,
            },
            meta.seconds,
        ))
    }
}
