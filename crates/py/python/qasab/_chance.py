"""Drawing chance outcomes for the environments (``qasab.pettingzoo``, ``qasab.gym``)."""

import numpy as np


def draw_chance(state, rng: np.random.Generator) -> None:
    """Applies chance outcomes drawn from `rng` by their probabilities until a player is to
    act or the game is over."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        x = rng.random()
        action = outcomes[-1][0]
        for a, p in outcomes:
            x -= p
            if x < 0.0:
                action = a
                break
        state.apply_action(action)
