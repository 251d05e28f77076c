//! Any player with the endgame tables: where a table holds the position, the tables' exact
//! values choose the move; elsewhere the player plays as it would (docs/ENDGAMES.md).

use std::sync::Arc;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::players::playable::Playable;
use crate::search::endgame::TableSet;
use crate::search::turn::{best_first, best_moves};

/// A player that consults the endgame tables first.
pub struct WithTables<S: Playable> {
    inner: Box<dyn Agent<S>>,
    tables: Arc<TableSet>,
}

impl<S: Playable> WithTables<S> {
    /// `inner`, consulting `tables` first.
    pub fn new(inner: Box<dyn Agent<S>>, tables: Arc<TableSet>) -> Self {
        WithTables { inner, tables }
    }
}

impl<S: Playable> Agent<S> for WithTables<S> {
    /// The player's own spec: the tables change its moves only where they are exact.
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// In a table, the first move in move order among those of the best exact value.
    fn choose(&mut self, state: &S) -> S::Move {
        match S::table_values(&self.tables, state) {
            Some(values) => best_moves(&values)[0],
            None => self.inner.choose(state),
        }
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

/// The [`Playable::table_values`] of a game whose positions have an
/// [`Essence`](qasab_core::Essence): the values of the first table that holds the position,
/// the sanctuaries and the material.
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

        fn sanctuaries(state: &Self) -> Option<qasab_core::ByPlayer<Vec<qasab_core::Sanctuary>>> {
            qasab_core::Essence::sanctuaries(state)
        }

        fn material(state: &Self) -> Option<qasab_core::ByPlayer<u8>> {
            Some(qasab_core::Essence::material(state))
        }
    };
}
pub(crate) use table_hooks;
