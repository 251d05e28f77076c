//! Players for the Tâb family: the common ones. Stronger players come with the search agents.

use qasab_core::tab::{Ruleset, State};

use crate::agent::{AgentError, AgentMaker, AgentSpec, Playable, common_maker, unknown_agent};

impl Playable for State {
    fn agent_maker(spec: &AgentSpec, rules: &Ruleset) -> Result<AgentMaker<State>, AgentError> {
        match common_maker(spec)? {
            Some(maker) => Ok(maker),
            None => Err(unknown_agent(spec, rules)),
        }
    }

    fn strongest_agent() -> &'static str {
        "mcts"
    }
}
