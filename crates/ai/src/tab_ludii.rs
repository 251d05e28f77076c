//! Players for the Ludii presets (`tab-ludii`, `tab-hyde-ludii`): the common ones.

use qasab_core::tab_ludii::{Ruleset, State};

use crate::agent::{AgentError, AgentMaker, AgentSpec, Playable, common_maker, unknown_agent};

impl Playable for State {
    fn strongest_agent() -> &'static str {
        "mcts"
    }

    fn agent_maker(spec: &AgentSpec, rules: &Ruleset) -> Result<AgentMaker<State>, AgentError> {
        common_maker(spec)?.ok_or_else(|| unknown_agent(spec, rules))
    }
}
