//! The players: the registry of every player and the game hooks they need, from a spec
//! string to an agent of a game.
//!
//! * [`registry`]: which players there are (`players!`: one line each, with its option table
//!   and how its spec is read), and [`PreparedAgent`], a spec read and prepared for one game.
//! * One file per player, each reading its spec into a [`Plan`]: [`random`], [`solver`]
//!   (the exact player of the games that have one), [`net`] (a network's choice), and the
//!   thin wrappers of the searches, [`mcts`], [`greedy`] and [`expectimax`].
//! * [`playable`]: the [`Playable`] trait, the hooks by which a game gives its players (its
//!   solver, its networks, its search defaults), which each game implements in its own folder
//!   of `crate::games`.
//! * [`plan`]: what a spec costs and how it is prepared ([`Plan`]), and the network files it
//!   may read; [`search`]: the evaluation of the search players, shipped or from a file; [`limits`]: what a host allows ([`Limits`]).
//! * [`any`]: the dynamic player of any game ([`AnyPlayer`], [`AnyAgent`]).
//! * [`tables`]: any player with the endgame tables ([`tables::WithTables`]), which play
//!   exactly wherever a table holds the position, and [`PreparedAgent::with_tables`], which
//!   gives them to every agent a prepared player makes.
//!
//! Above the searches, which know nothing of specs but their own options; below
//! [`crate::play`], which plays the agents.

pub mod any;
pub mod expectimax;
pub mod greedy;
pub mod limits;
pub mod mcts;
pub mod net;
pub mod plan;
pub mod playable;
pub mod random;
pub mod registry;
pub mod search;
pub mod solver;
pub mod tables;

pub use any::{AnyAgent, AnyEvaluation, AnyPlayer};
pub use limits::{FILE_OPTIONS, Limits};
pub use plan::{AgentMaker, Plan};
pub use playable::{NetworkWork, Playable, with_network};
pub use registry::{
    AGENT_NAMES, FALLBACK_AGENT, PreparedAgent, STRONGEST, option_docs, stands_for,
    strongest_first, unknown_agent,
};
