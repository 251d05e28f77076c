"""qasab.openspiel: every preset registered with pyspiel, checked by OpenSpiel's own tests."""

import numpy as np
import pytest

from conftest import extra

pyspiel = extra("pyspiel")

import qasab  # noqa: E402
import qasab.openspiel as qo  # noqa: E402
from open_spiel.python import observation  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

PRESETS = qasab.ruleset_names()
NAMES = [qo.game_name(p) for p in PRESETS]
# Short games for the bots: small boards where the preset has them, low caps.
SMALL = {
    "tab": {"columns": 7, "turn_cap": 40},
    "tab-hyde": {"turn_cap": 30},
    "tab-modern": {"columns": 7, "turn_cap": 40},
    "tab-ludii": {"move_cap": 100},
    "tab-hyde-ludii": {"move_cap": 100},
    "tihbat": {"seeds": 3},
}


@pytest.fixture(scope="module", autouse=True)
def registered():
    return qo.register()


def test_register_names_every_preset_once():
    assert qo.register() == sorted(NAMES)
    assert qo.register() == sorted(NAMES)
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered


@pytest.mark.parametrize("preset", PRESETS)
def test_game_type_and_info_are_the_cores(preset):
    game = pyspiel.load_game(qo.game_name(preset))
    core = qasab.load_game(preset)
    kind = game.get_type()
    assert kind.short_name == qo.game_name(preset)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    stochastic = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    deterministic = pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.chance_mode == (deterministic if preset == "tihbat" else stochastic)
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert game.num_distinct_actions() == core.num_distinct_actions()
    assert game.max_chance_outcomes() == core.max_chance_outcomes()
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == core.max_game_length()
    assert game.observation_tensor_shape() == core.observation_tensor_shape()
    assert game.qasab_game == core


def test_parameters_map_to_the_canonical_ruleset():
    by_string = pyspiel.load_game("qasab_tab(columns=7)")
    by_dict = pyspiel.load_game("qasab_tab", {"columns": 7})
    assert by_string.qasab_game.ruleset() == by_dict.qasab_game.ruleset() == "tab(columns=7)"
    assert by_string.num_distinct_actions() == qasab.load_game("tab(columns=7)").num_distinct_actions()
    game = pyspiel.load_game("qasab_tab(pieces=4,p_white=9/16,tabs_reserved=False,split=dissolve)")
    assert game.qasab_game.ruleset() == "tab(pieces=4,p_white=9/16,tabs_reserved=false,split=dissolve)"
    assert pyspiel.load_game("qasab_tab(pieces=0)").qasab_game.ruleset() == "tab"
    assert pyspiel.load_game("qasab_tihbat(seeds=5)").qasab_game.ruleset() == "tihbat(seeds=5)"
    # The game string holds every parameter: loading it again gives the same game.
    again = pyspiel.load_game(str(game))
    assert again.qasab_game == game.qasab_game


def test_bad_parameters_are_refused():
    with pytest.raises(qasab.RulesetError, match="columns"):
        pyspiel.load_game("qasab_tab(columns=8)")
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("qasab_tab(no_such_option=1)")


@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test(preset):
    # OpenSpiel's generic checks (clone, history, legal-action masks, chance outcomes,
    # returns, serialization) over whole random games of the preset as it is.
    game = pyspiel.load_game(qo.game_name(preset))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", PRESETS)
def test_mcts_against_random_with_evaluate_bots(preset):
    game = pyspiel.load_game(qo.game_name(preset), SMALL[preset])
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=40)
    for seat in (0, 1):
        bots = [uniform_random.UniformRandomBot(p, rng) for p in (0, 1)]
        bots[seat] = mcts.MCTSBot(
            game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng
        )
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal()
        assert returns == state.qasab_state.returns()
        assert sum(returns) == 0.0 and all(r in (-1.0, 0.0, 1.0) for r in returns)


def random_states(game, seed, every=7):
    """States along a seeded random game, every `every`-th action and the last."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        if len(state.history()) % every == 0:
            out.append(state.clone())
    out.append(state)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_serialize_game_and_state_round_trip(preset):
    game = pyspiel.load_game(qo.game_name(preset), SMALL[preset])
    for state in random_states(game, seed=3):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.history() == state.history()
        assert state2.qasab_state.position_id() == state.qasab_state.position_id()
        assert str(state2) == str(state)
        assert state2.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_are_the_cores(preset):
    game = pyspiel.load_game(qo.game_name(preset), SMALL[preset])
    obs = observation.make_observation(game)
    for state in random_states(game, seed=5, every=11):
        core = state.qasab_state.observation_tensor()
        for player in (0, 1):
            obs.set_from(state, player)
            np.testing.assert_array_equal(obs.tensor, core.reshape(-1))
            np.testing.assert_array_equal(obs.dict["observation"], core)
            assert obs.string_from(state, player) == state.qasab_state.observation_string()
            # pyspiel's own accessors go through the same observer.
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(player), np.float32), core.reshape(-1)
            )
            assert state.observation_string(player) == state.qasab_state.observation_string()


def test_states_follow_the_core():
    game = pyspiel.load_game("qasab_tab(columns=7)")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2, 3, 4]
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == (
        state.qasab_state.action_to_string(0)
    )
    state.apply_action(0)  # White throws a tâb: the first turn begins
    state.apply_action(1)  # and a 2 ends its throwing
    assert state.current_player() == 0
    assert state.legal_actions() == state.qasab_state.legal_actions()
    mask = state.legal_actions_mask()
    assert len(mask) == game.num_distinct_actions()
    assert [i for i, m in enumerate(mask) if m] == state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if not mask[a])
    with pytest.raises(qasab.IllegalActionError):
        state.qasab_state.apply_action(illegal)
    # Through pyspiel the core's error reaches the caller, and the state is unchanged.
    before = (state.qasab_state.position_id(), state.history())
    with pytest.raises(qasab.IllegalActionError):
        state.apply_action(illegal)
    assert (state.qasab_state.position_id(), state.history()) == before


def test_the_module_example_runs():
    import doctest

    result = doctest.testmod(qo)
    assert result.attempted > 0 and result.failed == 0
