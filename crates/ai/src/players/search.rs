//! What the search players (`mcts`, `greedy`, `expectimax`) share once their options are
//! read: their evaluation's network, shipped or read from a file (`weights=FILE`).

use crate::eval::EvalWeights;
use crate::eval::options::{EvalSource, WEIGHTS_KEY};
use crate::players::plan::{AgentMaker, Plan, reading_file};
use crate::players::playable::Playable;
use crate::spec::{AgentError, AgentSpec, Cost};

/// Refuses `eval=net` on a ruleset without a shipped network.
pub(crate) fn check_net<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
    eval: EvalWeights,
) -> Result<(), AgentError> {
    if !eval.is_net() {
        return Ok(());
    }
    S::network_fits(rules).map_err(|why| AgentError::BadValue {
        agent: spec.name.clone(),
        key: "eval".into(),
        value: "net".into(),
        expected: format!("hand or fitted ({why})"),
    })
}

/// The plan of a search player whose spec has been read: `make(eval)` builds its maker. With
/// `weights=FILE` the file is read when the plan is prepared, after a host has checked its
/// limits (the cost names the file, [`Limits::files`]), and the network it holds replaces the
/// shipped one; the agents' specs name the file, so that they read back.
pub(crate) fn search_plan<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
    cost: Cost,
    (eval, source): (EvalWeights, EvalSource),
    make: impl FnOnce(EvalWeights) -> AgentMaker<S> + 'static,
) -> Result<Plan<S>, AgentError> {
    let Some(path) = source.file else {
        check_net::<S>(spec, rules, eval)?;
        return Ok(Plan::ready(cost, make(eval)));
    };
    if let Some(other) = source.given.filter(|e| !e.is_net()) {
        return Err(AgentError::BadValue {
            agent: spec.name.clone(),
            key: WEIGHTS_KEY.into(),
            value: path,
            expected: format!(
                "no file with eval={}: the file is a network, for eval=net",
                other.name()
            ),
        });
    }
    let rules = rules.clone();
    Ok(reading_file(spec, cost, path, move |path| {
        S::load_network(path, &rules).map(|id| make(EvalWeights::Net(id)))
    }))
}
