//! Any player with the endgame tables: where a table holds the position, the tables' exact
//! values choose the move; elsewhere the player plays as it would (docs/ENDGAMES.md).
//!
//! [`PreparedAgent::with_tables`] is the one hook by which the jobs that play or rate many
//! games (`qasab arena`, `simulate`, `analyse`, the server's seats and hints) give every
//! player the tables.

use std::sync::Arc;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::players::playable::Playable;
use crate::players::registry::PreparedAgent;
use crate::search::endgame::TableSet;
use crate::search::turn::{best_first, best_moves};

/// A player that consults the endgame tables first.
pub struct WithTables<S: Playable> {
    inner: Box<dyn Agent<S>>,
    tables: Arc<TableSet>,
    /// Whether the last decision was the tables', not the player's.
    from_tables: bool,
}

impl<S: Playable> WithTables<S> {
    /// `inner`, consulting `tables` first.
    pub fn new(inner: Box<dyn Agent<S>>, tables: Arc<TableSet>) -> Self {
        WithTables {
            inner,
            tables,
            from_tables: false,
        }
    }
}

impl<S: Playable> Agent<S> for WithTables<S> {
    /// The player's own spec: the tables change its moves only where they are exact.
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// In a table, the first move in move order among those of the best exact value.
    fn choose(&mut self, state: &S) -> S::Move {
        let values = S::table_values(&self.tables, state);
        self.from_tables = values.is_some();
        match values {
            Some(values) => best_moves(&values)[0],
            None => self.inner.choose(state),
        }
    }

    fn last_search(&self) -> Option<crate::agent::SearchCounts> {
        (!self.from_tables)
            .then(|| self.inner.last_search())
            .flatten()
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        match S::table_values(&self.tables, state) {
            Some(values) => Some(Evaluation {
                kind: ValueKind::ExactResult,
                moves: best_first(values),
            }),
            None => self.inner.evaluate(state),
        }
    }
}

impl<S: Playable> PreparedAgent<S> {
    /// The same player with the endgame tables `tables`, if any: every agent it makes is
    /// wrapped in [`WithTables`]. Its spec, seed and cost are unchanged; without tables it is
    /// returned as it is, so its games are exactly those it plays without.
    pub fn with_tables(mut self, tables: Option<&Arc<TableSet>>) -> Self {
        if let Some(tables) = tables {
            let (inner, tables) = (self.maker, tables.clone());
            self.maker = Arc::new(move |seed| -> Box<dyn Agent<S>> {
                Box::new(WithTables::new(inner(seed), tables.clone()))
            });
        }
        self
    }
}

/// The [`Playable::table_values`] of a game whose positions have an
/// [`Essence`](qasab_core::Essence): the values of the first table that holds the position,
/// the chances of a game a limit stopped, the sanctuaries and the material.
/// Written once here, used in the `impl Playable` of each such game.
macro_rules! table_hooks {
    () => {
        fn table_values(
            tables: &crate::search::endgame::TableSet,
            state: &Self,
        ) -> Option<Vec<(Self::Move, f64)>> {
            let (_, moves) = tables.probe_typed(state).ok()?;
            (!moves.is_empty()).then_some(moves)
        }

        fn limit_chances(
            tables: &crate::search::endgame::TableSet,
            state: &Self,
        ) -> Option<(qasab_core::Player, Option<[f64; 2]>)> {
            let next = qasab_core::Essence::beyond_limit(state)?;
            let thrower = qasab_core::GameState::chance_player(&next)?;
            let chances = tables.probe_typed(&next).ok().and_then(|(p, _)| {
                let (win, loss) = (p.win?, p.loss?);
                Some(match p.player {
                    qasab_core::Player::One => [win, loss],
                    qasab_core::Player::Two => [loss, win],
                })
            });
            Some((thrower, chances))
        }

        fn sanctuaries(state: &Self) -> Option<qasab_core::ByPlayer<Vec<qasab_core::Sanctuary>>> {
            qasab_core::Essence::sanctuaries(state)
        }

        fn material(state: &Self) -> Option<qasab_core::ByPlayer<u8>> {
            Some(qasab_core::Essence::material(state))
        }
    };
}
pub(crate) use table_hooks;
