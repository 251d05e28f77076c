//! The hooks by which a game gives its players: its strongest player, its search defaults, its
//! networks, its exact solver.

use qasab_core::{AnyRuleset, Player, Registered, Ruleset, with_ruleset};

use crate::eval::net::Encode;
use crate::eval::{Evaluate, NetId};
use crate::players::plan::Plan;
use crate::search::endgame::TableSet;
use crate::search::mcts::MctsOptions;
use crate::spec::{AgentError, AgentSpec};

/// A game whose states computer players can play. Every such game has a static evaluation
/// ([`Evaluate`]), which the search players use.
pub trait Playable: Evaluate {
    /// The strongest player measured on `rules`, used as the default opponent, for hints and
    /// for analysis.
    fn strongest_agent(rules: &Self::Ruleset) -> &'static str;

    /// The options of `mcts` on this game where its spec sets none.
    fn mcts_defaults() -> MctsOptions {
        MctsOptions::default()
    }

    /// Whether a network is shipped for `rules` (`eval=net`), or why not. No game has one by
    /// default.
    ///
    /// # Errors
    /// A message naming the rulesets that have one.
    fn network_fits(rules: &Self::Ruleset) -> Result<(), String> {
        let _ = rules;
        Err("only the Tab family and the Ludii presets have networks".into())
    }

    /// Reads the network file `path` for `eval=net` on `rules` (`weights=FILE`) and keeps it
    /// for the process ([`crate::eval::net::keep`]): its id. A game without networks refuses.
    ///
    /// # Errors
    /// A message: the file cannot be read, or holds no network for `rules`.
    fn load_network(path: &str, rules: &Self::Ruleset) -> Result<NetId, String> {
        let _ = (path, rules);
        Err("this game has no network".into())
    }

    /// The `net` player of `spec` on `rules`, with the network of `file` (`weights=FILE`) or
    /// the shipped one, for a game that has networks; `None` by default.
    fn net_plan(
        spec: &AgentSpec,
        rules: &Self::Ruleset,
        file: Option<String>,
    ) -> Option<Result<Plan<Self>, AgentError>> {
        let _ = (spec, rules, file);
        None
    }

    /// Runs `work` on `rules` if this game has networks (its states have an encoding,
    /// [`Encode`]): the hook by which front ends reach the networks of whichever game a
    /// dynamic ruleset names ([`with_network`]). `None` by default.
    fn with_network<W: NetworkWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        let _ = (rules, work);
        None
    }

    /// The exact `solver` of a ruleset of this game, if the game has one: its cost (the size
    /// of the game it solves, [`Cost::solver_seeds`](crate::spec::Cost::solver_seeds)) and how to solve it. `None` by default.
    fn solver(rules: &Self::Ruleset) -> Option<Plan<Self>> {
        let _ = rules;
        None
    }

    /// The exact values that the endgame tables `tables` give at `state`, a player's turn:
    /// every legal move with its value (the mover's expected result, +1 a win, −1 a loss, 0
    /// play that never ends), in move order. `None` for a game without tables or a position
    /// no table holds.
    fn table_values(tables: &TableSet, state: &Self) -> Option<Vec<(Self::Move, f64)>> {
        let _ = (tables, state);
        None
    }

    /// What the endgame tables `tables` say of a game that a safety limit stopped at `state`:
    /// the player to throw at the start of the turn the limit cut off
    /// ([`qasab_core::Essence::beyond_limit`]) and, if a table holds that position, White's
    /// and Black's chances to win from it under optimal play. `None` for a game without
    /// tables or a state no limit stopped.
    fn limit_chances(tables: &TableSet, state: &Self) -> Option<(Player, Option<[f64; 2]>)> {
        let _ = (tables, state);
        None
    }

    /// Each side's sanctuaries at `state` ([`qasab_core::Essence::sanctuaries`]); `None` for
    /// a game that does not look for them.
    fn sanctuaries(state: &Self) -> Option<qasab_core::ByPlayer<Vec<qasab_core::Sanctuary>>> {
        let _ = state;
        None
    }

    /// The pieces each side has on the board ([`qasab_core::Essence::material`]); `None` for
    /// a game without tables.
    fn material(state: &Self) -> Option<qasab_core::ByPlayer<u8>> {
        let _ = state;
        None
    }
}

/// Work generic over a game with networks (training, encodings, network files), run on the
/// game of a dynamic ruleset by [`with_network`]: the one place where the front ends' code
/// for networks meets the game's type.
pub trait NetworkWork {
    /// What the work gives.
    type Output;
    /// The work on a ruleset of game `S`.
    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output;
}

/// Runs `work` on the game of `rules` if that game has networks
/// ([`Playable::with_network`]); `None` for a game without them.
pub fn with_network<W: NetworkWork>(rules: &AnyRuleset, work: W) -> Option<W::Output> {
    with_ruleset!(rules, r => typed_network(r, work))
}

fn typed_network<R: Ruleset, W: NetworkWork>(rules: &R, work: W) -> Option<W::Output>
where
    R::State: Playable,
{
    R::State::with_network(rules, work)
}
