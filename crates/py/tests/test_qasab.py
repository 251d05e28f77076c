"""The qasab package: the OpenSpiel-style API on every preset, golden records, and errors."""

import copy
import math
import pathlib
import random
import re

import numpy as np
import pytest

import qasab

PRESETS = ["tab", "tab-hyde", "tab-modern", "tab-ludii", "tab-hyde-ludii", "tihbat"]
REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "core" / "tests" / "data" / "replays"
# Random playouts are cut here: long games are checked in Rust; these check the bindings.
MAX_ACTIONS = 3000


def test_presets_are_the_ruleset_names():
    assert qasab.ruleset_names() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_game_info(name):
    game = qasab.load_game(name)
    assert game.name() == name
    assert game.ruleset().startswith(name)
    assert str(game) == game.ruleset()
    assert qasab.load_game(game.ruleset()) == game
    assert game.num_players() == 2
    assert game.max_game_length() > 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.num_distinct_actions() > 0
    assert game.max_chance_outcomes() == (0 if name == "tihbat" else 5)
    shape = game.observation_tensor_shape()
    assert game.observation_tensor_size() == math.prod(shape)
    assert game.title() and game.rules_text()
    info = game.get_type()
    assert info["short_name"] == name and info["ruleset"] == game.ruleset()
    assert info["chance_mode"] == ("deterministic" if name == "tihbat" else "explicit_stochastic")
    assert (info["information"], info["utility"]) == ("perfect", "zero_sum")
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in game.parameters())


def test_options_change_the_space():
    small = qasab.load_game("tab(columns=7)")
    large = qasab.load_game("tab(columns=9)")
    assert small.num_distinct_actions() < large.num_distinct_actions()
    assert small.observation_tensor_shape() == [14, 4, 7]


def check_state(game, state):
    """The invariants of one state."""
    n = game.num_distinct_actions()
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    obs = state.observation_tensor()
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    assert list(obs.shape) == game.observation_tensor_shape()
    assert isinstance(state.observation_string(), str)
    assert str(state) == state.to_string()
    if state.is_terminal():
        assert state.current_player() == -4
        assert legal == []
        assert state.chance_outcomes() == []
        r = state.returns()
        assert len(r) == 2 and sum(r) == 0 and all(x in (-1.0, 0.0, 1.0) for x in r)
        return
    mask = state.legal_actions_mask()
    assert [i for i, x in enumerate(mask) if x] == legal
    if state.is_chance_node():
        assert state.current_player() == -1
        assert len(mask) == game.max_chance_outcomes()
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
    else:
        assert state.current_player() in (0, 1)
        assert len(mask) == n
        assert legal and all(0 <= a < n for a in legal)
        assert state.chance_outcomes() == []
    assert state.returns() == [0.0, 0.0]
    for a in legal:
        text = state.action_to_string(a)
        assert state.string_to_action(text) == a


def playout(game, seed, check=True):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < MAX_ACTIONS:
        if check:
            check_state(game, state)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    check_state(game, state)
    return state


@pytest.mark.parametrize("name", PRESETS)
def test_random_playouts(name):
    game = qasab.load_game(name)
    for seed in range(2):
        state = playout(game, seed)
        assert len(state.history()) == state.move_number()


def test_max_game_length():
    # turn_cap x (2 x throw_cap + 1), L-18; interleaved throws: 3 x turn_cap x (throw_cap + 1).
    assert qasab.load_game("tab").max_game_length() == 2000 * 201
    assert qasab.load_game("tab-hyde(turn_cap=50,throw_cap=4)").max_game_length() == 50 * 9
    assert (
        qasab.load_game("tab(throw_timing=interleaved,turn_cap=10,throw_cap=2)").max_game_length()
        == 3 * 10 * 3
    )
    assert qasab.load_game("tab-ludii(move_cap=500)").max_game_length() == 500
    # 2 * C(16, 4) positions, each met once before a repetition ends the game (T-7).
    assert qasab.load_game("tihbat(seeds=3)").max_game_length() == 2 * 1820 + 1


def test_tihbat_plays_to_the_end():
    game = qasab.load_game("tihbat(seeds=3)")
    for seed in range(5):
        state = playout(game, seed)
        assert state.is_terminal()
        decisions = len(state.history())
        assert decisions <= game.max_game_length()
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", PRESETS)
def test_clone_is_independent(name):
    game = qasab.load_game(name)
    state = game.new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    before = state.position_id()
    for copied in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert copied.position_id() == before
        if not copied.is_terminal():
            copied.apply_action(copied.legal_actions()[-1])
            assert copied.history() != state.history()
        assert state.position_id() == before


@pytest.mark.parametrize("name", PRESETS)
def test_serialize_round_trip(name):
    game = qasab.load_game(name)
    state = playout(game, 7, check=False)
    text = state.serialize()
    for back in (qasab.deserialize_state(text), game.deserialize_state(text)):
        assert back.position_id() == state.position_id()
        assert back.history() == state.history()
        assert back.to_json() == state.to_json()
        assert back.serialize() == text


def test_json_and_position_id():
    state = qasab.load_game("tihbat").new_initial_state()
    import json

    assert isinstance(json.loads(state.to_json()), dict)
    assert state.position_id()
    assert "tihbat" in repr(state)


def test_drawing_is_the_board_model_with_the_last_throw():
    state = qasab.load_game("tab").new_initial_state()
    state.apply_action(1)  # white throws a 2: nothing to play in the opening
    d = state.drawing()
    assert d["kind"] == "tab"
    assert d["columns"] == 9
    assert len(d["rows"]) == 4 and all(len(r) == 9 for r in d["rows"])
    # Black's home row first, as the terminal draws it.
    assert [q["unit"]["owner"] for q in d["rows"][0]] == ["black"] * 9
    assert d["rows"][3][0]["name"] == "A"
    assert d["last_throw"]["value"] == 2
    assert "white throws 2" in d["last_throw"]["description"]
    pits = qasab.load_game("tihbat").new_initial_state().drawing()
    assert pits["kind"] == "tihbat"
    assert [p["name"] for p in pits["rows"][0]] == ["D", "C"]
    assert all(p["counters"] == 7 for row in pits["rows"] for p in row)


def golden_records():
    return sorted(REPLAYS.glob("*.qrec"))


@pytest.mark.parametrize("path", golden_records(), ids=lambda p: p.stem)
def test_golden_record_replays_through_the_bindings(path):
    """Playing a Rust golden record's actions by id passes the transcript's positions."""
    record = path.read_text()
    transcript = path.with_suffix(".txt").read_text()
    ids = re.findall(r"^# state \d+: (.*)$", transcript, re.M)
    final = re.search(r"^# final: (.*)$", transcript, re.M).group(1)
    ruleset = re.search(r"^ruleset (.*)$", record, re.M).group(1)
    actions = re.findall(r"^\d+ \S+ (\S+)$", record, re.M)
    assert len(actions) == len(ids)
    state = qasab.load_game(ruleset).new_initial_state()
    for text, pid in zip(actions, ids):
        assert state.position_id() == pid
        action = state.string_to_action(text)
        assert state.action_to_string(action) == text
        state.apply_action(action)
    assert state.position_id() == final
    assert qasab.deserialize_state(record).position_id() == final


def test_illegal_actions_raise():
    state = qasab.load_game("tihbat").new_initial_state()
    for bad in (-1, 2, 4, 5, 10**6):
        with pytest.raises(qasab.IllegalActionError) as e:
            state.apply_action(bad)
        assert str(e.value)
    with pytest.raises(qasab.IllegalActionError, match="not legal"):
        state.string_to_action("C4")
    with pytest.raises(qasab.IllegalActionError):
        state.string_to_action("nonsense")
    tab = qasab.load_game("tab").new_initial_state()
    with pytest.raises(qasab.IllegalActionError):
        tab.apply_action(5)
    assert issubclass(qasab.IllegalActionError, qasab.QasabError)
    assert issubclass(qasab.QasabError, ValueError)


def test_terminal_state_refuses_actions():
    state = playout(qasab.load_game("tihbat(seeds=1)"), 0, check=False)
    assert state.is_terminal()
    with pytest.raises(qasab.IllegalActionError):
        state.apply_action(0)


@pytest.mark.parametrize("bad", ["nope", "tab(columns=8)", "tab(colour=red)", "tihbat(seeds=0)", ""])
def test_bad_rulesets_raise(bad):
    with pytest.raises(qasab.RulesetError) as e:
        qasab.load_game(bad)
    assert str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not a record",
        "qasab-record 1\nruleset tihbat\nactions\n1 south A4\n",
        "qasab-record 1\nruleset tihbat\nactions\n1 south C4\nend unfinished\n",
        "qasab-record 1\nruleset nope\nactions\nend unfinished\n",
        "qasab-record 9\n",
    ],
)
def test_corrupt_serializations_raise(text):
    with pytest.raises(qasab.SerializationError) as e:
        qasab.deserialize_state(text)
    assert str(e.value)


def test_game_deserialize_checks_the_ruleset():
    text = qasab.load_game("tihbat").new_initial_state().serialize()
    with pytest.raises(qasab.SerializationError):
        qasab.load_game("tihbat(seeds=3)").deserialize_state(text)


@pytest.mark.parametrize("name", PRESETS)
def test_agents_play_legal_moves(name):
    game = qasab.load_game(name)
    agents = [qasab.Agent("greedy", game, seed=1), qasab.Agent("random", name, seed=2)]
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < 300:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            action = agents[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert "greedy" in agents[0].spec()


def test_agent_errors():
    with pytest.raises(qasab.AgentError):
        qasab.Agent("nobody", "tab")
    with pytest.raises(qasab.AgentError):
        qasab.Agent("solver", "tab")
    with pytest.raises(qasab.RulesetError):
        qasab.Agent("random", "nope")
    agent = qasab.Agent("mcts(iterations=50)", "tab")
    with pytest.raises(qasab.QasabError, match="chance"):
        agent.step(qasab.load_game("tab").new_initial_state())
    with pytest.raises(qasab.QasabError):
        agent.step(qasab.load_game("tihbat").new_initial_state())


def test_strongest_player_is_the_cli_default():
    assert qasab.load_game("tihbat").strongest_player() == "solver"
    # Variants keep mcts: only a preset's own reading has a measured stronger player.
    assert qasab.load_game("tab(columns=11)").strongest_player() == "mcts"
    for name in PRESETS:
        game = qasab.load_game(name)
        spec = game.strongest_player()
        assert qasab.Agent(spec, game, seed=1).spec().startswith(spec.split("(")[0])


def test_strongest_names_the_default_player():
    # spec() names the player it stood for, with the seed it uses.
    assert qasab.Agent("strongest", "tihbat(seeds=3)").spec() == "solver(seed=0)"
    assert qasab.Agent("strongest(seed=2)", "tab(columns=11)").spec() == "mcts(level=4,seed=2)"
    tab = qasab.load_game("tab")
    default = qasab.Agent(tab.strongest_player(), tab, seed=5).spec()
    assert default.startswith("mcts(") and "eval=net" in default
    assert qasab.Agent("strongest", tab, seed=5).spec() == default
    with pytest.raises(qasab.QasabError, match="no option 'wit'"):
        qasab.Agent("strongest(wit=1)", "tab")


def test_solver_agent_on_tihbat():
    game = qasab.load_game("tihbat(seeds=2)")
    state = game.new_initial_state()
    action = qasab.Agent("solver", game).step(state)
    assert action in state.legal_actions()


def test_simulate_returns_arrays():
    out = qasab.simulate("tihbat(seeds=3)", players=("random", "greedy"), games=40, seed=5, threads=2)
    assert set(out) == {"winner", "scores", "turns", "actions", "truncated", "reason"}
    assert out["winner"].shape == (40,) and out["winner"].dtype == np.int8
    assert out["scores"].shape == (40, 2)
    assert set(out["winner"].tolist()) <= {-1, 0, 1}
    assert (out["scores"].sum(axis=1) == 12).all()
    reasons = qasab.end_reasons()
    assert all(0 <= r < len(reasons) for r in out["reason"].tolist())
    again = qasab.simulate("tihbat(seeds=3)", players=("random", "greedy"), games=40, seed=5, threads=1)
    assert (again["winner"] == out["winner"]).all()
    with pytest.raises(qasab.AgentError):
        qasab.simulate("tab", players=("random", "nobody"), games=1)
    with pytest.raises(qasab.RulesetError):
        qasab.simulate("nope")


def test_simulate_tab():
    out = qasab.simulate("tab", games=4, seed=1, threads=1)
    assert out["actions"].shape == (4,) and (out["actions"] > 0).all()


def test_most_captures_decides_every_end_by_the_count():
    """L-17, H-13: under end=most-captures a side left without pieces (some lost to
    reductions) wins, draws or loses on the captures, in simulate and in the state's returns."""
    rules = "tab-modern(end=most-captures)"
    out = qasab.simulate(rules, games=200, seed=3, threads=2)
    diff = out["scores"][:, 0] - out["scores"][:, 1]
    by_count = np.where(diff > 0, 0, np.where(diff < 0, 1, -1))
    decided = ~out["truncated"]
    assert (out["winner"][decided] == by_count[decided]).all()
    elimination = qasab.end_reasons().index("elimination")
    assert ((out["reason"] == elimination) & (out["winner"] == -1)).any(), "a drawn elimination"
    game = qasab.load_game(rules)
    checked = 0
    for seed in range(20):
        state = playout(game, seed, check=False)
        if not state.is_terminal() or state.is_truncated():
            continue
        # Field 6 of a Tab position id: the pieces each side has captured (docs/notation.md).
        white, black = (int(x) for x in state.position_id().split("/")[5].split("."))
        sign = float(np.sign(white - black))
        assert state.returns() == [sign, -sign]
        checked += 1
    assert checked > 10


def test_observation_encoding_of_the_start():
    """The planes documented in docs/python.md, on initial positions."""
    tab = qasab.load_game("tab").new_initial_state().observation_tensor()
    assert tab.shape == (14, 4, 9)
    assert (tab[0, 0] == 1).all() and (tab[1, 3] == 1).all()  # White's and Black's home rows
    assert (tab[2] == tab[0]).all() and (tab[3] == tab[1]).all()  # nothing converted yet
    assert tab[0, 1:].sum() == 0 and tab[4:].sum() == 0  # opening: no throw, bank or turn
    ludii = qasab.load_game("tab-ludii(columns=9)").new_initial_state().observation_tensor()
    assert ludii.shape == (10, 4, 9) and (ludii[0, 0] == 1).all() and (ludii[8] == 1).all()
    tihbat = qasab.load_game("tihbat(seeds=5)").new_initial_state().observation_tensor()
    assert tihbat.tolist() == [5, 5, 5, 5, 0, 0, 1, 0]
