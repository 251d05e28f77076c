"""Every Qasab ruleset as a PettingZoo AEC environment.

    >>> from qasab.pettingzoo import env
    >>> e = env(ruleset="tihbat")
    >>> e.reset(seed=1)

Two agents, ``player_0`` (White in the Tâb family, South in Tihbat) and ``player_1``, as
PettingZoo's classic board games name them. An agent's observation is a dict: ``observation``,
the core's observation tensor (``float32``, the shape of
``qasab.Game.observation_tensor_shape()``), and ``action_mask``, ``int8`` over the
``num_distinct_actions()`` move ids, 1 for the legal moves of the agent to act (all 0 for the
other agent). A Tâb player often acts several times in a row (one decision per throw), so
``agent_selection`` follows the core's player in turn, not a fixed alternation.

The throws (the chance outcomes) are drawn inside ``reset`` and ``step`` with the
environment's numpy Generator, seeded by ``reset(seed=...)``, by their exact probabilities.
Rewards come at the end only: the core's returns (+1, -1, or 0 each for a draw). A game stopped
by a safety limit (L-18, Ludii's caps) sets ``truncations``, not ``terminations``; its rewards
are whatever the ruleset's ``limit_result`` gives (0 each with ``draw``).

``env()`` wraps the raw environment as PettingZoo's classic games do: an illegal move ends the
game with reward -1 for the agent that made it (``TerminateIllegalWrapper``), and the calling
order is enforced. ``raw_env`` itself raises :class:`qasab.IllegalActionError` on an illegal
move. Needs ``pip install 'qasab[pettingzoo]'``.
"""

from typing import Dict, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import qasab
from qasab._env import draw_chance, render

AGENTS = ("player_0", "player_1")


def env(ruleset: str = "tab", render_mode: Optional[str] = None) -> AECEnv:
    """The wrapped environment of a ruleset string (see the module documentation)."""
    e = raw_env(ruleset=ruleset, render_mode=render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def observation_space(game: "qasab.Game") -> spaces.Dict:
    """The observation space of every agent of a game's environment."""
    shape = tuple(game.observation_tensor_shape())
    n = game.num_distinct_actions()
    return spaces.Dict(
        {
            # Counts of pieces, throws and captures: never negative, bounded only by the caps.
            "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }
    )


class raw_env(AECEnv):
    """A Qasab game as an AEC environment, without wrappers."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "qasab_v0",
        "is_parallelizable": False,
    }

    def __init__(self, ruleset: str = "tab", render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = qasab.load_game(ruleset)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.game.num_distinct_actions()
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {a: observation_space(self.game) for a in AGENTS}
        self.state: Optional[qasab.State] = None
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        draw_chance(self.state, self.np_random)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._finish_step(None)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        draw_chance(self.state, self.np_random)
        self._finish_step(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish_step(self, mover: Optional[str]) -> None:
        """Sets the rewards, the end flags and the agent to act from the core's state."""
        if self.state.is_terminal():
            done = self.truncations if self.state.is_truncated() else self.terminations
            for agent, r in zip(AGENTS, self.state.returns()):
                self.rewards[agent] = float(r)
                done[agent] = True
            # The other agent first, then the mover, as they leave the game.
            self.agent_selection = AGENTS[1] if mover == AGENTS[0] else AGENTS[0]
        else:
            for agent in AGENTS:
                self.rewards[agent] = 0.0
            self.agent_selection = AGENTS[self.state.current_player()]

    def render(self) -> Optional[str]:
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass
