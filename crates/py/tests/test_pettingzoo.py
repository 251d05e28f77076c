"""qasab.pettingzoo: every preset as an AEC environment, checked by PettingZoo's own tests."""

import numpy as np
import pytest

from conftest import extra

extra("pettingzoo")

import qasab  # noqa: E402
import qasab.pettingzoo as qpz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

PRESETS = qasab.ruleset_names()


@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset):
    api_test(qpz.env(ruleset=preset), num_cycles=300)


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_test(preset):
    seed_test(lambda: qpz.env(ruleset=preset), num_cycles=300)


def play(env, seed):
    """Plays a seeded game with uniformly random legal moves; returns the last of every agent
    and the number of steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    last, steps = {}, 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        last[agent] = (reward, termination, truncation)
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return last, steps


@pytest.mark.parametrize("preset", PRESETS)
def test_games_end_with_the_cores_returns(preset):
    env = qpz.env(ruleset=preset)
    raw = env.unwrapped
    for seed in range(3):
        last, steps = play(env, seed)
        assert raw.state.is_terminal()
        # One step per decision: the throws were drawn inside reset and step.
        assert steps == len(raw.state.history()) - _chance_count(raw.state)
        returns = raw.state.returns()
        truncated = raw.state.is_truncated()
        for i, agent in enumerate(qpz.AGENTS):
            assert last[agent] == (returns[i], not truncated, truncated)


def _chance_count(state):
    """The chance outcomes among the state's history, replayed through the core."""
    replay = state.get_game().new_initial_state()
    count = 0
    for action in state.history():
        count += replay.is_chance_node()
        replay.apply_action(action)
    return count


def test_the_same_seed_plays_the_same_game():
    a, b = qpz.raw_env("tab(columns=7)"), qpz.raw_env("tab(columns=7)")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state.history() == b.state.history()
    a.reset(seed=12)
    assert a.state.history() != b.state.history() or a.state.history() == []


def test_a_truncated_game_sets_truncations_not_terminations():
    # turn_cap=1: the game stops when the first turn ends.
    env = qpz.env(ruleset="tab(columns=7,turn_cap=1)")
    last, _ = play(env, 0)
    raw = env.unwrapped
    assert raw.state.is_truncated()
    assert all(last[a] == (0.0, False, True) for a in qpz.AGENTS)


def test_spaces_and_observation():
    env = qpz.raw_env("tab(columns=7)")
    env.reset(seed=3)
    agent = env.agent_selection
    game = qasab.load_game("tab(columns=7)")
    assert env.action_space(agent).n == game.num_distinct_actions()
    obs = env.observe(agent)
    assert obs["observation"].shape == tuple(game.observation_tensor_shape())
    assert obs["observation"].dtype == np.float32
    np.testing.assert_array_equal(obs["observation"], env.state.observation_tensor())
    assert obs["action_mask"].dtype == np.int8
    assert np.flatnonzero(obs["action_mask"]).tolist() == env.state.legal_actions()
    other = [a for a in qpz.AGENTS if a != agent][0]
    assert not env.observe(other)["action_mask"].any()
    assert env.agent_selection == qpz.AGENTS[env.state.current_player()]


def test_raw_env_refuses_an_illegal_move_and_env_ends_the_game():
    raw = qpz.raw_env("tihbat")
    raw.reset(seed=0)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(qasab.IllegalActionError):
        raw.step(illegal)
    env = qpz.env(ruleset="tihbat")
    env.reset(seed=0)
    mover = env.agent_selection
    env.step(illegal)
    assert env.rewards[mover] == -1
    assert all(env.terminations.values())


def test_render_ansi_is_the_cores_picture():
    env = qpz.raw_env("tihbat", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.state.to_string()
    with pytest.raises(ValueError):
        qpz.raw_env("tihbat", render_mode="rgb_array")


def test_the_module_example_runs():
    import doctest

    result = doctest.testmod(qpz)
    assert result.attempted > 0 and result.failed == 0
