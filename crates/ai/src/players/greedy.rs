//! The `greedy` player: the best end of the turn by the static evaluation
//! ([`crate::search::greedy`]).

use std::sync::Arc;

use crate::agent::Agent;
use crate::eval::EvalWeights;
use crate::eval::options::EvalSource;
use crate::players::plan::Plan;
use crate::players::playable::Playable;
use crate::players::search::search_plan;
use crate::spec::{AgentError, AgentSpec, Cost, apply_options};

pub(crate) fn read<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
) -> Result<Plan<S>, AgentError> {
    let mut settings = crate::search::greedy::Settings {
        options: EvalWeights::Hand,
        fitted: S::FITTED,
        net: S::NET,
        source: EvalSource::default(),
    };
    apply_options(spec, crate::search::greedy::OPTIONS, &mut settings)?;
    let eval = (settings.options, settings.source);
    search_plan(spec, rules, Cost::default(), eval, |eval| {
        Arc::new(move |seed| {
            Box::new(crate::search::greedy::Greedy::<S>::new(seed).with_eval(eval))
                as Box<dyn Agent<S>>
        })
    })
}
