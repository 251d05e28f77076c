"""Every Qasab ruleset as an OpenSpiel game.

    >>> import pyspiel, qasab.openspiel
    >>> names = qasab.openspiel.register()
    >>> game = pyspiel.load_game("qasab_tab(columns=7)")
    >>> game.num_distinct_actions()
    4207

``register()`` registers one pyspiel game per preset, named ``qasab_`` and the preset name
with ``-`` as ``_`` (``qasab_tab``, ``qasab_tab_hyde``, ``qasab_tihbat``, ...). Its game
parameters are the ruleset's options, with the preset's values as defaults; a game maps them
to the canonical ruleset string and loads it with :func:`qasab.load_game`. States delegate
every rule to the Rust core: the legal actions, chance outcomes, returns and observations are
the core's, and the action ids are those of docs/python.md. pyspiel is imported only here, so
``import qasab`` works without it (``pip install 'qasab[openspiel]'``).
"""

from typing import Dict, List, Tuple

import numpy as np

import qasab

_registered: Dict[str, str] = {}


def game_name(preset: str) -> str:
    """The pyspiel short name of a preset: ``tab-hyde`` -> ``qasab_tab_hyde``."""
    return "qasab_" + preset.replace("-", "_")


def _typed(value: str):
    """An option's text as the typed default of a pyspiel parameter: a bool, an int (``all``
    pieces is 0, the core's own reading of it) or a string (``p_white``, the choices)."""
    if value == "all":
        return 0
    if value in ("true", "false"):
        return value == "true"
    try:
        return int(value)
    except ValueError:
        return value


def _text(key: str, value) -> str:
    """A pyspiel parameter's value as the text of a ruleset option."""
    if key == "pieces" and value == 0:
        return "all"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def ruleset_string(preset: str, params: Dict[str, object]) -> str:
    """The canonical ruleset string of a preset with pyspiel parameters ``params``.

    Raises:
      qasab.RulesetError: an unknown option or a bad value.
    """
    if not params:
        return qasab.load_game(preset).ruleset()
    options = ",".join(f"{k}={_text(k, v)}" for k, v in sorted(params.items()))
    return qasab.load_game(f"{preset}({options})").ruleset()


def register() -> List[str]:
    """Registers every preset with pyspiel (once; later calls do nothing).

    Returns the registered short names.
    """
    import pyspiel

    for preset in qasab.ruleset_names():
        name = game_name(preset)
        if name not in _registered:
            _register(pyspiel, preset, name)
            _registered[name] = preset
    return sorted(_registered)


def _register(pyspiel, preset: str, name: str) -> None:
    state_class = _state_class(pyspiel)
    base = qasab.load_game(preset)
    kind = base.get_type()
    chance_modes = {
        "explicit_stochastic": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
    }
    utilities = {
        "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
        "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
        "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    }
    rewards = {
        "terminal": pyspiel.GameType.RewardModel.TERMINAL,
        "rewards": pyspiel.GameType.RewardModel.REWARDS,
    }
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Qasab {base.title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_modes[kind["chance_mode"]],
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        # The core's game type: zero-sum (+1, -1, or 0 each) with rewards at the end only.
        utility=utilities[kind["utility"]],
        reward_model=rewards[kind["reward_model"]],
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={k: _typed(v) for k, v in base.parameters()},
    )

    class Game(pyspiel.Game):
        __doc__ = f"The Qasab ruleset {preset} as a pyspiel game."

        def __init__(self, params=None):
            params = dict(params or {})
            self.qasab_game = qasab.load_game(ruleset_string(preset, params))
            g = self.qasab_game
            info = pyspiel.GameInfo(
                num_distinct_actions=g.num_distinct_actions(),
                max_chance_outcomes=g.max_chance_outcomes(),
                num_players=g.num_players(),
                min_utility=g.min_utility(),
                max_utility=g.max_utility(),
                utility_sum=g.utility_sum(),
                max_game_length=g.max_game_length(),
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self):
            return state_class(self, self.qasab_game.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            if iig_obs_type is None or (
                iig_obs_type.public_info and not iig_obs_type.perfect_recall
            ):
                return Observer(self.qasab_game, params)
            from open_spiel.python.observation import IIGObserverForPublicInfoGame

            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    Game.__name__ = Game.__qualname__ = name
    pyspiel.register_game(game_type, Game)


_STATE_CLASS = []


def _state_class(pyspiel):
    """The pyspiel state class, made once (it subclasses ``pyspiel.State``)."""
    if _STATE_CLASS:
        return _STATE_CLASS[0]

    class QasabState(pyspiel.State):
        """A pyspiel state holding a :class:`qasab.State`; every rule is the core's."""

        def __init__(self, game, state):
            super().__init__(game)
            self.qasab_state = state

        def current_player(self) -> int:
            # The core's -1 (chance) and -4 (terminal) are pyspiel's PlayerId values.
            return self.qasab_state.current_player()

        def _legal_actions(self, player: int) -> List[int]:
            return self.qasab_state.legal_actions()

        def chance_outcomes(self) -> List[Tuple[int, float]]:
            return self.qasab_state.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.qasab_state.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.qasab_state.action_to_string(action)

        def is_terminal(self) -> bool:
            return self.qasab_state.is_terminal()

        def returns(self) -> List[float]:
            return self.qasab_state.returns()

        def rewards(self) -> List[float]:
            return self.qasab_state.rewards()

        def __str__(self) -> str:
            return self.qasab_state.to_string()

    _STATE_CLASS.append(QasabState)
    return QasabState


class Observer:
    """The core's observation tensor and picture, as OpenSpiel's PyObserver interface.

    ``tensor`` is flat ``float32``; ``dict["observation"]`` is a view of it with the shape of
    ``qasab.Game.observation_tensor_shape()``. The state is public, so the player observed
    changes nothing.
    """

    def __init__(self, game: "qasab.Game", params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        shape = tuple(game.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player: int) -> None:
        self.tensor[:] = state.qasab_state.observation_tensor().reshape(-1)

    def string_from(self, state, player: int) -> str:
        return state.qasab_state.observation_string()
