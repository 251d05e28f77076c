"""A Qasab ruleset as a single-agent Gymnasium environment against a Qasab computer player.

    >>> import qasab.gym
    >>> env = qasab.gym.make("tihbat", opponent="greedy")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The learner plays one seat (``seat=0``: White in the Tâb family, South in Tihbat; ``seat=1``
the other), the ``opponent`` (an agent spec as for :class:`qasab.Agent`: ``random``,
``greedy``, ``expectimax(level=2)``, ``mcts(iterations=200)``, ``solver`` for Tihbat) the
other. The throws and the opponent's moves are played inside ``reset`` and ``step`` until it
is the learner's turn again (a Tâb player often acts several times in a row, one decision per
throw). Everything random comes from the generator seeded by ``reset(seed=...)``: the throws,
and the opponent's seed at each reset.

* **Observation**: the core's observation tensor, a ``float32`` Box of
  ``qasab.Game.observation_tensor_shape()``.
* **Action**: ``Discrete(num_distinct_actions())``, the move ids of docs/python.md. The legal
  ones are in ``info["action_mask"]`` (``int8``, 1 for legal) after every ``reset`` and
  ``step``, and ``env.action_masks()`` returns the same array (sb3-contrib's ``MaskablePPO``
  calls it).
* **Illegal action**: the episode ends at once, ``terminated=True`` with reward -1 (a loss),
  ``info["illegal_action"] = True``, and the state does not change. (Raising instead would
  break learners and checkers that sample from the whole action space.)
* **Reward**: 0 until the end, then the learner's return: +1 win, -1 loss, 0 draw.
* **End**: ``terminated`` when the game ends by its rules; ``truncated`` when a safety limit
  stopped it (L-18, Ludii's caps), never reported as a terminated draw. Its reward is what the
  ruleset's ``limit_result`` gives (0 with ``draw``). A game that ends before the learner's
  first move (possible only with tiny limits, e.g. ``turn_cap=1``) cannot be an episode:
  ``reset`` starts another, and raises ``RuntimeError`` after 100 such games in a row.

Needs ``pip install 'qasab[gym]'``.
"""

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

import qasab
from qasab._env import draw_chance, render


# Games that reset() may start before one reaches the learner's first move.
RESET_TRIES = 100


def make(
    ruleset: str = "tab",
    opponent: str = "random",
    seat: int = 0,
    render_mode: Optional[str] = None,
) -> "QasabEnv":
    """The environment of a ruleset string against ``opponent`` (see the module docs)."""
    return QasabEnv(ruleset, opponent=opponent, seat=seat, render_mode=render_mode)


class QasabEnv(gymnasium.Env):
    """One seat of a Qasab game; the other is a Qasab agent."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        ruleset: str = "tab",
        opponent: str = "random",
        seat: int = 0,
        render_mode: Optional[str] = None,
    ):
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = qasab.load_game(ruleset)
        self.seat = seat
        self.opponent_spec = opponent
        # Checks the spec now (AgentError), rather than at the first reset.
        self.opponent = qasab.Agent(opponent, self.game, 0)
        self.render_mode = render_mode
        shape = tuple(self.game.observation_tensor_shape())
        self.observation_space = spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: Optional[qasab.State] = None

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(0, 2**63))
        self.opponent = qasab.Agent(self.opponent_spec, self.game, opponent_seed)
        for _ in range(RESET_TRIES):
            self.state = self.game.new_initial_state()
            self._advance()
            if not self.state.is_terminal():
                return self.state.observation_tensor(), self._info()
        raise RuntimeError(
            f"{RESET_TRIES} games of {self.game.ruleset()} in a row ended before the learner's "
            "first move: the ruleset's limits are too small for this seat"
        )

    def step(self, action) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if not self.action_space.contains(action) or action not in self.state.legal_actions():
            info = self._info()
            info["illegal_action"] = True
            return self.state.observation_tensor(), -1.0, True, False, info
        self.state.apply_action(action)
        self._advance()
        reward, terminated, truncated = 0.0, False, False
        if self.state.is_terminal():
            reward = float(self.state.returns()[self.seat])
            truncated = self.state.is_truncated()
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal move ids as an ``int8`` mask (all 0 once the game is over)."""
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self.state is not None and self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = 1
        return mask

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _advance(self) -> None:
        """Plays the throws and the opponent's moves until the learner acts or the game ends."""
        state = self.state
        while True:
            draw_chance(state, self.np_random)
            player = state.current_player()
            if player < 0 or player == self.seat:
                return
            state.apply_action(self.opponent.step(state))

    def render(self) -> Optional[str]:
        return render(self.state, self.render_mode)
