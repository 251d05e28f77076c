//! Search: what to play, looking ahead from a position through the throws to come.
//!
//! * [`turn`]: every way a player's turn can end (its decisions merged where their order
//!   does not matter), and [`hash`], the fast state hashing the searches share.
//! * [`greedy`]: the best end of the turn by the static evaluation.
//! * [`expectimax`]: depth-limited search over whole turns and the throws between them.
//! * [`mcts`]: Monte Carlo tree search with chance nodes, for every game.
//! * [`solver`]: retrograde analysis of Tihbat, the exact value of every position.
//! * [`endgame`]: exact tables of Tâb positions, solved as a stochastic game with cycles.
//!
//! The searches read the evaluation layer ([`crate::eval`]) and nothing above it: the players
//! that wrap them, with their specs and costs, are `players`.

pub mod endgame;
pub mod expectimax;
pub mod greedy;
pub mod hash;
pub mod mcts;
pub mod net_choice;
pub mod solver;
pub mod turn;
