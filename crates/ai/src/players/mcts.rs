//! The `mcts` player: Monte Carlo tree search ([`crate::search::mcts`]) with the game's
//! defaults ([`Playable::mcts_defaults`]).

use std::sync::Arc;

use crate::agent::Agent;
use crate::players::plan::Plan;
use crate::players::playable::Playable;
use crate::players::search::search_plan;
use crate::spec::{AgentError, AgentSpec};

pub(crate) fn read<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
) -> Result<Plan<S>, AgentError> {
    let defaults = S::mcts_defaults();
    let (options, source) = crate::search::mcts::MctsOptions::from_spec_over::<S>(spec, defaults)?;
    search_plan(
        spec,
        rules,
        options.cost(),
        (options.eval, source),
        move |eval| {
            let options = crate::search::mcts::MctsOptions { eval, ..options };
            Arc::new(move |seed| {
                Box::new(crate::search::mcts::MctsAgent::<S>::with_defaults(
                    options, defaults, seed,
                )) as Box<dyn Agent<S>>
            })
        },
    )
}
