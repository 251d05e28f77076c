//! The `solver` player: perfect play from the exact values of a game that can be solved
//! ([`Playable::solver`]; Tihbat's is [`crate::games::tihbat::players`]).

use crate::players::plan::{Plan, SEED_ONLY, not_available};
use crate::players::playable::Playable;
use crate::spec::{AgentError, AgentSpec, apply_options};

pub(crate) fn read<S: Playable>(
    spec: &AgentSpec,
    rules: &S::Ruleset,
) -> Result<Plan<S>, AgentError> {
    let plan = S::solver(rules)
        .ok_or_else(|| not_available::<S>(spec, rules, "it is only available for tihbat"))?;
    apply_options(spec, SEED_ONLY, &mut ())?;
    Ok(plan)
}
