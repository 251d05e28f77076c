//! `mcts`: Monte Carlo tree search with chance nodes, for every game.
//!
//! The player searches through the [`GameState`](qasab_core::GameState) API only, so it plays every ruleset. How it
//! works (a longer account with the reasons is in `docs/mcts.md`):
//!
//! * **Graph.** Nodes and the links between them are kept in two arenas (`Vec`s) and addressed
//!   by index; a node's links are allocated together, contiguously, when it is expanded, and a
//!   link's child node the first time the link is followed. Nodes hold no state: each
//!   iteration clones the root state and replays the actions on the way down.
//! * **Transpositions** (`transpositions=on`; off by default, see `docs/mcts.md`): a table keyed on the state's
//!   128-bit fingerprint ([`crate::search::hash::fingerprint`]) makes one node of every state, however
//!   it is reached, so the search is a graph. A link keeps its own visits (for exploration);
//!   its value is its child's mean over every path. A state met again on the path being
//!   descended (a cycle, possible in games whose state holds no move count) ends the descent
//!   there. With `transpositions=off` every path has its own node.
//! * **Reuse** (`reuse=on`; off by default; with `tree=decisions`): an agent keeps each tree's
//!   graph, and a later search whose state the graph holds goes on from that state's node
//!   with its statistics, adding its budget of iterations; otherwise, or once a graph holds
//!   half its share of [`MAX_LINKS`], the search starts afresh.
//! * **Iteration.** From the root, descend until a node that has not been visited yet (or a
//!   finished game); play a rollout from there; add the result to every node on the path. A
//!   node's children are allocated on its second visit (the root's on its first), so a node
//!   costs memory only once the search comes back to it.
//! * **Player nodes** choose a child by UCB1 (Kocsis and Szepesvári's UCT): a child never
//!   visited is taken first, otherwise the child maximising
//!   `q + c · sqrt(ln N / n)`, where `n` is the child's visits, `N` the node's, `q` the child's
//!   mean result **from the point of view of the player to move at the node**, and `c` the
//!   exploration constant ([`DEFAULT_C`]). Results are stored from [`Player::One`]'s point of
//!   view and negated for [`Player::Two`] at selection, so nothing assumes that players
//!   alternate: a player who makes several decisions in a row (extra throws, several throws to
//!   play) maximises his own result at each of them.
//! * **Chance nodes** are sampled, not fully expanded: on its second visit a chance node gets
//!   one child per outcome, and each descent draws one of them with probability
//!   `weight / denominator`, by the exact integer weights of
//!   [`GameState::chance_outcomes`](qasab_core::GameState::chance_outcomes) ([`pick_weighted`]). A chance node's value is thus the
//!   sampled average of its children's.
//! * **Implicit minimax values** (`minimax=α` > 0; 0.4 on the Tâb family, else 0): every node
//!   also keeps the expectimax value of the tree explored below it, from the static value of
//!   each leaf, backed up by the best child at player nodes and by the weighted mean at chance
//!   nodes (Lanctot, Winands, Pepels and Sturtevant, 2014); selection rates a child by
//!   `(1 − α) · mean + α · implicit value`.
//! * **Rewards**: a finished game is worth `(1 − margin) · r + margin · d` to the first player,
//!   `r` being +1 for a win, −1 for a loss, 0 for a draw and `d` the score difference over the
//!   scores' sum (`margin=0`, the result alone, except on Tihbat); a game stopped by a
//!   safety limit ([`Outcome::is_truncated`](qasab_core::Outcome::is_truncated)) is worth the
//!   result its ruleset gives it (`limit_result`, a draw by default). A rollout cut off by
//!   `cutoff` is worth the static evaluation ([`Evaluate`]) where it stops.
//! * **Rollouts** follow a [`RolloutPolicy`]: `random` (a uniform legal move), `greedy` (the
//!   move the evaluation prefers) or `captures` (the move that scores most), chance by its weights, with reused buffers, to the end of the
//!   game or for `cutoff` turns.
//! * **Mixing** (`mix=λ` < 1; 1 by default): a leaf is worth `(1 − λ) · its static value + λ ·
//!   its rollout's result`, as AlphaGo mixed its value network with its rollouts (Silver et
//!   al., 2016), so that a search can use an evaluation and rollouts to the end together.
//! * **Priors** (`priors=on`; off by default; with `tree=decisions`): when a node is expanded,
//!   every child is played at once and valued by the static evaluation in one batch (a
//!   network values a batch faster than its states one by one), and starts with one visit
//!   worth that value, as Gelly and Silver (2007) seeded UCT's children with prior knowledge.
//!   The iteration stops at the node it expands and backs up the node's value one action
//!   deeper: its best child's for the player to move, or at a chance node the weighted mean
//!   of its outcomes'. Every node but the root is thus created valued, and each iteration
//!   expands one node.
//! * **Tree shape** ([`TreeShape`]): a player's node branches on single decisions, or with
//!   `tree=turns` on the distinct ends of his whole turn, each seeded with one visit worth its
//!   static value.
//! * **Ties** are broken by the seed: the children of a player node are stored in an order
//!   shuffled with the tree's generator, and the first of equals in that order is taken.
//! * **Budget** ([`Budget`]): a number of iterations, or a time in milliseconds, or a level
//!   ([`LEVEL_ITERATIONS`]).
//! * **Threads.** `threads=T` searches `T` independent trees from the same root (root
//!   parallelisation), tree `t` seeded with `derive_seed(seed, t)`; an iteration budget is
//!   split between them (the first `N mod T` trees get one more). Their root statistics are
//!   summed move by move. With an iteration budget the result depends only on the state, the
//!   options, the seed and (with reuse) the agent's earlier searches, never on how the trees
//!   are scheduled.
//! * **Final move.** The move with the most visits (summed over the trees); among equals, the
//!   higher mean value; among equals again, the first in an order drawn from the search's seed.
//!   A decision with a single legal move is played without searching.
//! * **Inspection.** [`SearchTree`] grows one tree and reads its nodes, [`rollout_reward`]
//!   plays one rollout and [`reward`] scores a finished game: what the search computes, open
//!   to tests against values known by hand and to diagnostics.
//!
//! Memory: a node or a link is a few dozen bytes; a search allocates at most [`MAX_LINKS`]
//! links in all (split between its trees), and at most one node per link. Past that, leaves
//! are no longer expanded and the search goes on with rollouts from them.
//!
//! References: Auer, Cesa-Bianchi and Fischer, "Finite-time Analysis of the Multiarmed Bandit
//! Problem" (2002, UCB1); Kocsis and Szepesvári, "Bandit based Monte-Carlo Planning" (2006,
//! UCT); Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree Search" (2008, root
//! parallelisation); OpenSpiel's `algorithms/mcts.h` (chance nodes sampled by their
//! probabilities, values per player).
//!
//! [`Evaluate`]: crate::eval::Evaluate
//! [`Player::One`]: qasab_core::Player::One
//! [`Player::Two`]: qasab_core::Player::Two
//! [`pick_weighted`]: crate::rng::pick_weighted

mod agent;
mod inspect;
mod iterate;
mod options;
mod rollout;
mod run;
mod select;
mod tree;

pub use agent::MctsAgent;
pub use inspect::{NodeStats, SearchTree, rollout_reward};
pub use options::*;
pub use rollout::reward;
pub use run::{MoveStats, SearchResult, search};
