"""qasab.gym: every preset as a single-agent environment, checked by Gymnasium's env checker."""

import numpy as np
import pytest

from conftest import extra

extra("gymnasium")

import qasab  # noqa: E402
import qasab.gym as qgym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

PRESETS = qasab.ruleset_names()


@pytest.mark.parametrize("preset", PRESETS)
def test_check_env(preset):
    env = qgym.make(preset, opponent="random")
    check_env(env.unwrapped, skip_render_check=False)


def play(env, seed):
    """A seeded game of uniformly random legal moves; returns (steps, last reward, terminated,
    truncated)."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        legal = np.flatnonzero(info["action_mask"])
        assert legal.tolist() == env.state.legal_actions()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        if terminated or truncated:
            return steps, reward, terminated, truncated
        assert reward == 0.0


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seat", [0, 1])
def test_episodes_end_with_the_learners_return(preset, seat):
    env = qgym.make(preset, opponent="random", seat=seat)
    for seed in range(2):
        steps, reward, terminated, truncated = play(env, seed)
        assert env.state.is_terminal() and steps > 0
        assert reward == env.state.returns()[seat]
        assert truncated == env.state.is_truncated() and terminated != truncated


def test_the_learner_acts_only_on_its_turns():
    env = qgym.make("tab(columns=7)", opponent="greedy", seat=1)
    obs, info = env.reset(seed=4)
    assert env.state.current_player() == 1
    assert info["action_mask"].any()


def test_the_same_seed_plays_the_same_game():
    a, b = qgym.make("tab(columns=7)"), qgym.make("tab(columns=7)")
    assert play(a, 9) == play(b, 9)
    assert a.state.history() == b.state.history()


def test_a_safety_limit_truncates_and_is_not_a_draw():
    env = qgym.make("tab(columns=7,turn_cap=3)", opponent="random")
    for seed in range(5):
        steps, reward, terminated, truncated = play(env, seed)
        assert (reward, terminated, truncated) == (0.0, False, True)


def test_reset_skips_games_that_end_before_the_learner_moves():
    # turn_cap=1: only the player who throws the first tâb ever moves.
    env = qgym.make("tab(columns=7,turn_cap=1)", opponent="random", seat=1)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        assert not env.state.is_terminal() and info["action_mask"].any()
    # Ludii's move cap of 1: Black never moves.
    env = qgym.make("tab-ludii(move_cap=1)", opponent="random", seat=1)
    with pytest.raises(RuntimeError, match="before the learner's first move"):
        env.reset(seed=0)


def test_an_illegal_action_ends_the_episode_as_a_loss():
    env = qgym.make("tihbat", opponent="solver")
    obs, info = env.reset(seed=0)
    before = env.state.position_id()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.state.position_id() == before


def test_bad_arguments_are_refused():
    with pytest.raises(qasab.AgentError):
        qgym.make("tihbat", opponent="no-such-player")
    with pytest.raises(qasab.RulesetError):
        qgym.make("tab(columns=8)")
    with pytest.raises(ValueError):
        qgym.make("tihbat", seat=2)


def test_the_module_example_runs():
    import doctest

    result = doctest.testmod(qgym)
    assert result.attempted > 0 and result.failed == 0
