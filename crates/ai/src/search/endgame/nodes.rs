//! A table's graph in memory: its positions, the throws at each and the choices after each
//! throw, stored flat (ranges into shared vectors) so that a table of millions of positions
//! fits. The build ([`super::graph`]) fills it, the progress file ([`super::partial`]) keeps
//! it, the solver ([`super::solve`]) reads it.

use qasab_core::Player;

/// Where a choice leads: a position of the table (its index), or the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A chance turn of the table.
    Node(u32),
    /// The game is over: `Some(p)` won, `None` a draw by the rules.
    Over(Option<Player>),
    /// A safety limit of the ruleset ended the game (a turn's throw cap, L-18): its result
    /// is not the rules', so the solver bounds it by both.
    Limit,
}

/// The targets as stored: nodes by index, the ends by the reserved values at the top.
const WHITE_WINS: u32 = u32::MAX;
const BLACK_WINS: u32 = u32::MAX - 1;
const DRAW: u32 = u32::MAX - 2;
const LIMIT: u32 = u32::MAX - 3;
/// The most nodes a table may hold.
pub const MAX_NODES: usize = (u32::MAX - 4) as usize;

impl Target {
    pub(super) fn pack(self) -> u32 {
        match self {
            Target::Node(i) => i,
            Target::Over(Some(Player::One)) => WHITE_WINS,
            Target::Over(Some(Player::Two)) => BLACK_WINS,
            Target::Over(None) => DRAW,
            Target::Limit => LIMIT,
        }
    }

    pub(super) fn unpack(v: u32) -> Target {
        match v {
            WHITE_WINS => Target::Over(Some(Player::One)),
            BLACK_WINS => Target::Over(Some(Player::Two)),
            DRAW => Target::Over(None),
            LIMIT => Target::Limit,
            i => Target::Node(i),
        }
    }
}

/// One throw at a node, or one way the throws of a turn can end: its probability, who
/// chooses after it, and the choices.
#[derive(Clone, Copy, Debug)]
pub(super) struct Throw {
    pub weight: f64,
    /// The player who chooses among the targets; `None` when there is one target and no
    /// choice (the throw leads to another throw, or the turn passes on by itself).
    pub chooser: Option<Player>,
    /// The targets, as a range of [`Graph::targets`].
    pub start: u32,
    pub end: u32,
}

/// The table's positions and their moves.
#[derive(Debug, Default)]
pub struct Graph {
    /// Each node's key: the first 16 bytes of the SHA-256 of its essence's position id.
    pub keys: Vec<[u8; 16]>,
    /// Each node's player to throw.
    pub throwers: Vec<Player>,
    /// Each node's pieces on the board, White's and Black's.
    pub material: Vec<(u8, u8)>,
    /// Each node's throws, as a range of `throws`.
    pub(super) node_throws: Vec<(u32, u32)>,
    /// Each node's expected number of throws until the next choice or position: 1, or more
    /// where a turn throws on before it plays (accumulated throws).
    pub(super) throw_count: Vec<f64>,
    pub(super) throws: Vec<Throw>,
    pub(super) targets: Vec<u32>,
    /// Whether any choice leads to a safety limit.
    pub limits: bool,
    /// The seconds earlier runs of a resumed build spent on it.
    pub earlier_seconds: f64,
}

impl Graph {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the table has no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The bytes the graph takes, with the index of the positions while it is built (a
    /// fingerprint and a number, about 32 bytes with the map's overhead) and what solving it
    /// will add ([`SOLVE_BYTES`]).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        let nodes = self.keys.len();
        nodes * (size_of::<[u8; 16]>() + size_of::<Player>() + size_of::<(u8, u8)>() + 32)
            + nodes * SOLVE_BYTES
            + self.node_throws.len() * (size_of::<(u32, u32)>() + size_of::<f64>())
            + self.throws.len() * size_of::<Throw>()
            + self.targets.len() * size_of::<u32>()
    }

    /// Node `i`'s throws: weight, chooser and targets.
    pub(super) fn throws_of(
        &self,
        i: usize,
    ) -> impl Iterator<Item = (f64, Option<Player>, &[u32])> {
        let (a, b) = self.node_throws[i];
        self.throws[a as usize..b as usize].iter().map(|t| {
            (
                t.weight,
                t.chooser,
                &self.targets[t.start as usize..t.end as usize],
            )
        })
    }
}

/// The bytes a position takes in the value iteration and the file, on top of its place in
/// the graph: its values (four 64-bit floats while solving) and its entry (32 bytes).
pub const SOLVE_BYTES: usize = 4 * 8 + 32;
