//! The games, each in its own folder: what the layers below need to know of one game. A game
//! implements the evaluation layer's [`Evaluate`](crate::eval::Evaluate) (and, with networks,
//! [`Encode`](crate::eval::net::Encode)) and the players' [`Playable`](crate::Playable); the
//! rest of the crate is generic over them.
//!
//! * [`tab`]: `tab`, `tab-hyde`, `tab-modern`: the static evaluation (material or captures,
//!   progress, unconverted pieces, banked tâbs, stacks and reduction risk, and the exact
//!   chance that each unit is hit in the enemy's turn), the network's inputs, and the players.
//! * [`tab_ludii`]: `tab-ludii`, `tab-hyde-ludii`: the same three.
//! * [`tihbat`]: the 2×2 mancala: its evaluation, and its players with the exact `solver`.

// One module a game of the core's registry (`qasab_core::games!`): `tab`, `tab_ludii`,
// `tihbat`, each in this folder.
qasab_core::games!(__game_modules;);
