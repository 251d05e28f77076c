//! Qasab's computer players, the exact Tihbat solver, game simulation and training.
//!
//! The crate is built in layers; data flows up, and no module reaches up to a layer above
//! its own:
//!
//! 1. Foundations: [`agent`] (the [`Agent`] trait every player implements), [`spec`] (player
//!    specs such as `random(seed=7)`, their options and what they cost), [`rng`] (the pinned
//!    generator and seed derivation) and [`cancel`] (stopping a search in time).
//! 2. [`eval`]: what a position is worth: the static evaluation of every game
//!    ([`Evaluate`]), terminal values, and the learned networks ([`eval::net`]).
//! 3. [`search`]: the turn enumeration and hashing, `greedy`, `expectimax`, Monte Carlo tree
//!    search and the Tihbat solver.
//! 4. [`players`]: the registry of players, one file per player, and a spec's `Plan`, its
//!    cost and the host's `Limits`; the dynamic player of any game ([`AnyPlayer`]).
//! 5. [`play`]: the driver of a game, simulation, the arena, analysis, the variant study and
//!    the jobs that spread them over machines.
//! 6. [`train`]: self-play training of the networks, and the fitting of evaluation weights.
//!
//! Each game is one folder of [`games`], which implements the traits of the evaluation and the
//! players for it (its evaluation, its network's inputs, its players' hooks); the layers are
//! generic over those traits, and only the registry of the core names the games.

pub mod agent;
pub mod cancel;
pub mod eval;
pub mod games;
pub mod play;
pub mod players;
pub mod rng;
pub mod search;
pub mod spec;
pub mod train;

pub use agent::{Agent, Evaluation, ValueKind};
pub use eval::Evaluate;
pub use players::{AnyAgent, AnyEvaluation, AnyPlayer, Limits, Playable, PreparedAgent};
pub use search::solver::{SolveError, Solver};
pub use spec::{AgentError, AgentSpec};
