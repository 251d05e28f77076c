//! Selection: which link a descent follows from a node. At a player's node, UCB1 (UCT) on the
//! children's means for the player to move, blended with their implicit minimax values
//! (`minimax` > 0); at a chance node, an outcome drawn by its weight.

use qasab_core::Player;

use super::tree::{Edge, Tree};
use crate::eval::Evaluate;
use crate::rng::{GameRng, pick_weighted};

impl<S: Evaluate> Tree<S> {
    /// The link UCB1 picks at a node where `p` is to move: a link never followed first, else
    /// the one maximising the child's mean for `p` plus `c · sqrt(ln N / n)`, `n` being the
    /// link's visits and `N` the node's.
    pub(super) fn select(&self, node: usize, p: Player, c: f64, alpha: f64) -> usize {
        let n = &self.nodes[node];
        let (first, len) = (n.first as usize, n.len as usize);
        let sign = if p == Player::One { 1.0 } else { -1.0 };
        let explore = c * f64::from(n.visits.max(1)).ln().sqrt();
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        for (i, l) in self.links[first..first + len].iter().enumerate() {
            if l.visits == 0 {
                return first + i;
            }
            let child = &self.nodes[l.child as usize];
            let q = if alpha > 0.0 && !child.implicit.is_nan() {
                (1.0 - alpha) * child.mean() + alpha * f64::from(child.implicit)
            } else {
                child.mean()
            };
            let score = sign * q + explore * (1.0 / f64::from(l.visits)).sqrt();
            if score > best_score {
                best = first + i;
                best_score = score;
            }
        }
        best
    }

    /// A link of a chance node, drawn by the outcomes' weights.
    pub(super) fn sample(&self, node: usize, rng: &mut GameRng) -> usize {
        let n = &self.nodes[node];
        let (first, len) = (n.first as usize, n.len as usize);
        first
            + pick_weighted(
                rng,
                self.links[first..first + len].iter().map(|l| match l.edge {
                    Edge::Chance(_, w) => w,
                    _ => 0,
                }),
            )
    }
}
