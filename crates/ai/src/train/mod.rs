//! Temporal-difference learning from self-play (`qasab train`).
//!
//! **Method.** TD(λ) on the network's own games, as TD-Gammon (Tesauro 1995), in the forward
//! view (λ-returns computed once a game is over) and with chance made explicit:
//!
//! * The states learnt are those before a throw (the chance states `s_0, s_1, …`). Their value
//!   for White is `v(s)`, the network's value for the player in turn, negated for Black.
//! * Both players choose as the `net` player does: every distinct end of the turn is
//!   enumerated ([`TurnGraph`](crate::search::turn::TurnGraph)) and the best for the player
//!   in turn is played.
//! * The one-step target of `s_t` is exact over the throw: `E_t = Σ_k w_k U(s_t·k) / Σ w`,
//!   over the five throws with their integer weights, where `U` of the state after a throw is
//!   the exact result if the game is over, `v` if another throw follows, and the best end of
//!   the turn for the player in turn if he now moves (the value his choice would give).
//! * The λ-return follows the game actually played: `G_t = E_t + λ (G_{t+1} − v(s_{t+1}))`,
//!   and `G_t = E_t` for the last chance state. With λ = 0 this is expected TD(0); with λ = 1,
//!   the game's result with the expected one-step values as a control variate.
//!
//! **Batches.** Games are played in batches by the network as it stands at the batch's start,
//! on worker threads; the batch's states are then learnt in a shuffled order, in minibatches
//! with [`Adam`](optim::Adam). Every random choice is drawn from a stream derived from the
//! run's seed and the game's or batch's number, so the weights depend on the seed and the
//! settings, not on the threads.
//!
//! **Curve.** Every `curve_every` games the network plays `greedy` on a fixed set of paired
//! throws ([`crate::play::arena::play_pair_to_end`]); the score and the batch losses since the last
//! point make one point of the learning curve.
//!
//! **Files.** [`any`]: a run of the game a dynamic ruleset names; [`options`]: a run's settings and learning curve; [`selfplay`]: the games and
//! the states they teach; [`samples`]: those states and their bytes; `targets`: the
//! λ-returns; [`readings`]: the readings a run across a family plays; [`optim`]: the network's gradient and Adam; [`trainer`]: a run and its steps;
//! `checkpoint`: saving and resuming a run; [`fit`]: fitting the static evaluations' weights.

pub mod any;
mod checkpoint;
pub mod fit;
pub mod optim;
pub mod options;
pub mod readings;
pub mod samples;
pub mod selfplay;
mod targets;
pub mod trainer;

pub use options::{CurvePoint, TrainError, TrainOptions, best_point};
pub use samples::{Sample, samples_from_bytes, samples_to_bytes};
pub use selfplay::{self_play, self_play_games, self_play_in, self_play_kept, training_data};
pub use trainer::{RateChange, StepReport, Trainer};
