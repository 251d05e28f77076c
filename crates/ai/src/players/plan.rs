//! A player's spec read for one game: what it spends and how it is prepared ([`Plan`]), and
//! the plans of players that read a network file (`weights=FILE`).

use std::sync::Arc;

use qasab_core::GameState;
use qasab_core::options::OptionDef;

use crate::agent::Agent;
use crate::eval::options::WEIGHTS_KEY;
use crate::spec::{AgentError, AgentSpec, Cost, seed_option};

/// Builds agents of one spec for one ruleset, from a seed. Expensive preparation (solving a
/// game) happens once, when the maker is built; each call is cheap.
pub type AgentMaker<S> = Arc<dyn Fn(u64) -> Box<dyn Agent<S>> + Send + Sync>;

/// The options of the players that take only `seed=` (`random`, `solver`).
pub const SEED_ONLY: &[OptionDef<()>] = &[seed_option()];

/// A player's spec read for one game, before it is prepared: what the player spends
/// ([`Cost`], which a host checks against its [`Limits`](crate::players::limits::Limits) first), and how to prepare it (at
/// once for most players; by solving the game for `solver`).
pub struct Plan<S: GameState> {
    /// What the player spends.
    pub cost: Cost,
    prepare: Box<dyn FnOnce() -> Result<AgentMaker<S>, AgentError>>,
}

impl<S: GameState> Plan<S> {
    /// A plan whose preparation is `prepare` (run by [`Plan::prepare`]).
    pub fn new(
        cost: Cost,
        prepare: impl FnOnce() -> Result<AgentMaker<S>, AgentError> + 'static,
    ) -> Plan<S> {
        Plan {
            cost,
            prepare: Box::new(prepare),
        }
    }

    /// A plan already prepared.
    pub fn ready(cost: Cost, maker: AgentMaker<S>) -> Plan<S> {
        Plan::new(cost, move || Ok(maker))
    }

    /// Prepares the player: its maker.
    ///
    /// # Errors
    /// [`AgentError::NotAvailable`] if the preparation fails (a game too large to solve).
    pub fn prepare(self) -> Result<AgentMaker<S>, AgentError> {
        (self.prepare)()
    }
}

/// The error for a player that `rules` lacks, saying which games have it.
pub fn not_available<S: GameState>(spec: &AgentSpec, rules: &S::Ruleset, why: &str) -> AgentError {
    AgentError::NotAvailable {
        agent: spec.name.clone(),
        ruleset: rules.to_string(),
        why: why.into(),
    }
}

/// The plan of a player that reads the network file `path` (`weights=FILE`): `cost` with the
/// file named, so that a host refuses it first ([`Limits::files`]); when prepared, `load`
/// reads the file into the maker, whose agents' specs name the file, so that they read back.
/// A file that cannot be read is refused then, under the key `weights`.
pub(crate) fn reading_file<S: GameState>(
    spec: &AgentSpec,
    mut cost: Cost,
    path: String,
    load: impl FnOnce(&str) -> Result<AgentMaker<S>, String> + 'static,
) -> Plan<S> {
    cost.file = Some(format!("{WEIGHTS_KEY}={path}"));
    let agent = spec.name.clone();
    Plan::new(cost, move || match load(&path) {
        Ok(maker) => Ok(naming_file(maker, path)),
        Err(expected) => Err(AgentError::BadValue {
            agent,
            key: WEIGHTS_KEY.into(),
            value: path,
            expected,
        }),
    })
}

/// The agents of `maker`, their specs naming the network file `path` they read.
fn naming_file<S: GameState>(maker: AgentMaker<S>, path: String) -> AgentMaker<S> {
    let path: Arc<str> = path.into();
    Arc::new(move |seed| {
        Box::new(NamingFile {
            inner: maker(seed),
            path: path.clone(),
        }) as Box<dyn Agent<S>>
    })
}

/// An agent whose network was read from a file: as `inner`, with `weights=FILE` in its spec
/// (after `eval=net`, or first).
struct NamingFile<S: GameState> {
    inner: Box<dyn Agent<S>>,
    path: Arc<str>,
}

impl<S: GameState> Agent<S> for NamingFile<S> {
    fn spec(&self) -> String {
        let spec = self.inner.spec();
        if spec.contains("weights=") {
            return spec;
        }
        // Every agent's spec names its seed, so `(` is followed by an option.
        let file = format!("weights={}", self.path);
        match spec.find("eval=net") {
            Some(i) => {
                let (head, tail) = spec.split_at(i + "eval=net".len());
                format!("{head},{file}{tail}")
            }
            None => spec.replacen('(', &format!("({file},"), 1),
        }
    }

    fn choose(&mut self, state: &S) -> S::Move {
        self.inner.choose(state)
    }

    fn evaluate(&mut self, state: &S) -> Option<crate::agent::Evaluation<S::Move>> {
        self.inner.evaluate(state)
    }

    fn last_search(&self) -> Option<crate::agent::SearchCounts> {
        self.inner.last_search()
    }
}
