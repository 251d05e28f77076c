//! Tihbat for the players: its static evaluation, and its players with the exact `solver`.

pub mod eval;
pub mod players;
