"""What the environments (``qasab.pettingzoo``, ``qasab.gym``) share: drawing the throws and
rendering the state."""

from typing import Optional

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


def render(state, render_mode: Optional[str]) -> Optional[str]:
    """The state's text for ``render_mode="ansi"``; printed for ``"human"``; nothing without a
    mode or a state."""
    if render_mode is None or state is None:
        return None
    text = state.to_string()
    if render_mode == "ansi":
        return text
    print(text)
    return None
