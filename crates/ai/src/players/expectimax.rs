//! The `expectimax` player: depth-limited search over whole turns and the throws between
//! them ([`crate::search::expectimax`]).

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
    let (options, source) = crate::search::expectimax::Options::from_spec_with_source::<S>(spec)?;
    let shown = spec.clone();
    search_plan(
        spec,
        rules,
        options.cost(),
        (options.eval, source),
        move |eval| {
            Arc::new(move |seed| {
                let agent = crate::search::expectimax::Expectimax::<S>::from_spec(&shown, seed)
                    .expect("the spec was checked when the maker was built")
                    .with_eval(eval);
                Box::new(agent) as Box<dyn Agent<S>>
            })
        },
    )
}
