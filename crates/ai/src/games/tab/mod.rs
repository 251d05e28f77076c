//! The Tâb family (`tab`, `tab-hyde`, `tab-modern`) for the players: its static evaluation,
//! its network's inputs and its players' defaults.

pub mod encode;
pub mod eval;
pub mod players;
