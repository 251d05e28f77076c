//! Playing many games: the driver of one game between agents, and the jobs built on it.
//!
//! * [`driver`]: one game between agents, with chance from a seed.
//! * [`simulate`]: many games on all cores, with statistics.
//! * [`stalls`]: the games of a simulation that a safety limit stops, and whether the rules
//!   force the draw.
//! * [`arena`]: round robins between players with paired throws, and their ratings.
//! * [`analysis`]: every decision of a game against an agent's best, and the luck of throws.
//! * [`study`]: the variant study, seeded chunks of paired games and their metrics.
//! * [`jobs`]: simulation, arena and study as numbered units that any machine can play and
//!   that merge into the commands' JSON.
//! * [`stats`]: score intervals, Elo differences and Bradley–Terry ratings.
//! * [`bench`](mod@bench): playout speed.
//!
//! Above [`crate::players`], which builds the agents it plays; below `train`.

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod driver;
pub mod jobs;
pub mod simulate;
pub mod stalls;
pub mod stats;
pub mod study;
