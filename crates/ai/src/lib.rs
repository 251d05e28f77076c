//! Qasab's computer players, the exact Tihbat solver, and game simulation.
//!
//! * [`agent`]: the [`Agent`] trait every player implements.
//! * [`spec`]: player specs (`random(seed=7)`, `solver`) and their errors.
//! * [`players`]: the registry of players: which each game has, and building them from specs.
//! * [`random`]: the uniform random player.
//! * [`mcts`]: Monte Carlo tree search with chance nodes, for every game.
//! * [`eval`]: the static evaluation of every game ([`Evaluate`]).
//! * [`fit`]: logistic regression, which fits evaluation weights to game results.
//! * [`greedy`] and [`expectimax`]: the search players, over whole turns ([`turn`]).
//! * [`hash`]: fast state hashing and fingerprints for the searches.
//! * [`solver`] and [`tihbat`]: retrograde analysis of Tihbat and the perfect player on it.
//! * [`tab_ludii`]: the players of the Ludii presets.
//! * [`driver`]: playing a game between agents, with chance from a seed.
//! * [`simulate`]: many games on all cores, with statistics.
//! * [`arena`]: round robins between players with paired throws, and their Elo ladder.
//! * [`analysis`]: every decision of a game against an agent's best, and the luck of throws.
//! * [`stats`]: score intervals, Elo differences and Bradley–Terry ratings.
//! * [`bench`](mod@bench): playout speed.
//! * [`rng`]: the pinned generator and seed derivation.

pub mod agent;
pub mod analysis;
pub mod arena;
pub mod bench;
pub mod cancel;
pub mod driver;
pub mod eval;
pub mod expectimax;
pub mod fit;
pub mod greedy;
pub mod hash;
pub mod jobs;
pub mod mcts;
pub mod net;
pub mod players;
pub mod random;
pub mod rng;
pub mod simulate;
pub mod solver;
pub mod spec;
pub mod stats;
pub mod study;
pub mod tab;
pub mod tab_ludii;
pub mod tihbat;
pub mod turn;

pub use agent::{Agent, Evaluation, ValueKind};
pub use eval::Evaluate;
pub use players::{AnyAgent, AnyEvaluation, AnyPlayer, Limits, Playable, PreparedAgent};
pub use solver::{SolveError, Solver};
pub use spec::{AgentError, AgentSpec};
