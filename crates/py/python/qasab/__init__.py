"""Qasab: Tâb and its relatives and the mancala Tihbat as OpenSpiel-style games.

Every rule, action id and observation is computed by Qasab's Rust rules core; this package
only exposes it. See docs/python.md in the repository.

    >>> import qasab
    >>> game = qasab.load_game("tab(columns=9)")
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()
    True
"""

from ._qasab import (
    Agent,
    AgentError,
    Game,
    IllegalActionError,
    NetworkError,
    QasabError,
    RulesetError,
    SerializationError,
    State,
    deserialize_state,
    end_reasons,
    load_game,
    ruleset_names,
    simulate,
)

__all__ = [
    "Agent",
    "AgentError",
    "Game",
    "IllegalActionError",
    "NetworkError",
    "QasabError",
    "RulesetError",
    "SerializationError",
    "State",
    "deserialize_state",
    "end_reasons",
    "load_game",
    "ruleset_names",
    "simulate",
]

__version__ = "0.1.0"
