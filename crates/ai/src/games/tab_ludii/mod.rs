//! Ludii's presets (`tab-ludii`, `tab-hyde-ludii`) for the players: their static evaluation,
//! their network's inputs and their players' defaults.

pub mod encode;
pub mod eval;
pub mod players;
