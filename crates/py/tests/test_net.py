"""qasab.net: the exported training data has the documented shapes, and a network made
outside Rust loads back and plays (issue 20)."""

import math

import numpy as np
import pytest

from conftest import extra

import qasab
import qasab.net as qn

ENCODED = ["tab", "tab-hyde", "tab-modern", "tab-ludii", "tab-hyde-ludii"]
KEYS = {
    "features",
    "observations",
    "targets",
    "player",
    "game",
    "positions",
    "encoding",
    "inputs",
    "network",
    "ruleset",
}


@pytest.mark.parametrize("ruleset", ENCODED)
def test_training_data_has_the_documented_shapes(ruleset):
    games = 2
    data = qn.training_data(ruleset, games=games, seed=3)
    assert set(data) == KEYS
    # The features are in the encoding of the network that played.
    enc = qn.encoding(ruleset, data["encoding"])
    game = qasab.load_game(ruleset)
    n = len(data["positions"])
    assert n > 0
    assert data["features"].dtype == np.float32
    assert data["features"].shape == (n, enc["inputs"])
    assert data["observations"].dtype == np.float32
    assert data["observations"].shape == (n, *game.observation_tensor_shape())
    assert data["targets"].dtype == np.float32
    assert data["targets"].shape == (n,)
    assert data["player"].dtype == np.int8
    assert data["player"].shape == (n,)
    assert data["game"].dtype == np.int64
    assert data["game"].shape == (n,)
    assert all(isinstance(p, str) for p in data["positions"])
    assert data["encoding"] == enc["name"]
    assert data["inputs"] == enc["inputs"]
    assert data["ruleset"] == game.ruleset()
    assert data["network"] in ("shipped", "initial")

    assert np.all(np.abs(data["targets"]) <= 1.0)
    assert set(np.unique(data["player"])) <= {0, 1}
    assert np.all(np.diff(data["game"]) >= 0)
    assert set(np.unique(data["game"])) == set(range(games))
    assert np.all((data["features"] >= 0.0) & (data["features"] <= 1.0))

    # Each game starts from the initial state, which the first row of each game describes.
    start = game.new_initial_state()
    for g in range(games):
        row = int(np.flatnonzero(data["game"] == g)[0])
        np.testing.assert_array_equal(data["features"][row], qn.encode(start, data["encoding"]))
        np.testing.assert_array_equal(data["observations"][row], start.observation_tensor())
        assert data["positions"][row] == start.position_id()


def test_the_network_played_is_named():
    assert qn.training_data("tab", games=1)["network"] == "shipped"
    # Lane's game has a network for every board (the family's, on tab-v3).
    wide = qn.training_data("tab(columns=11)", games=1)
    assert wide["network"] == "shipped" and wide["encoding"] == "tab-v3"
    # So has Hyde's (its family network); none reads the modern game on 11 columns: a fresh
    # one, initialised from the seed.
    assert qn.training_data("tab-hyde(columns=19)", games=1)["encoding"] == "tab-v3"
    assert qn.training_data("tab-modern(columns=11)", games=1)["network"] == "initial"


def test_the_same_seed_gives_the_same_arrays_whatever_the_threads():
    a = qn.training_data("tab-ludii", games=4, seed=7, threads=1)
    b = qn.training_data("tab-ludii", games=4, seed=7, threads=2)
    for key in ("features", "observations", "targets", "player", "game"):
        np.testing.assert_array_equal(a[key], b[key])
    assert a["positions"] == b["positions"]
    c = qn.training_data("tab-ludii", games=4, seed=8, threads=1)
    assert a["positions"] != c["positions"]


def test_lambda_changes_the_targets_not_the_games():
    zero = qn.training_data("tab-ludii", games=2, seed=1, lambda_=0.0)
    one = qn.training_data("tab-ludii", games=2, seed=1, lambda_=1.0)
    np.testing.assert_array_equal(zero["features"], one["features"])
    assert not np.array_equal(zero["targets"], one["targets"])
    # The last state of a game has the one-step target whatever λ.
    last = np.flatnonzero(np.diff(zero["game"], append=zero["game"][-1] + 1))
    np.testing.assert_array_equal(zero["targets"][last], one["targets"][last])


def test_encoding_and_encode():
    assert qn.encoding("tab") == {"name": "tab-v2", "inputs": 1442, "columns": 9, "family": "tab"}
    old = qn.encoding("tab", encoding="tab-v1")
    assert old == {"name": "tab-v1", "inputs": 1072, "columns": 9, "family": "tab"}
    ludii = qn.encoding("tab-ludii")
    assert ludii == {"name": "tab-ludii-v2", "inputs": 633, "columns": 7, "family": "tab-ludii"}
    assert qn.encoding("tab-ludii", encoding="tab-ludii-v1")["inputs"] == 343
    state = qasab.load_game("tab").new_initial_state()
    x = qn.encode(state)
    assert x.dtype == np.float32 and x.shape == (1442,)
    # tab-v2 is tab-v1 followed by the threat inputs.
    v1 = qn.encode(state, encoding="tab-v1")
    assert v1.shape == (1072,)
    np.testing.assert_array_equal(x[:1072], v1)
    with pytest.raises(qasab.QasabError, match="tab-ludii-v1.*not one of tab's: tab-v1, tab-v2"):
        qn.encoding("tab", encoding="tab-ludii-v1")
    with pytest.raises(qasab.QasabError, match="not one of"):
        qn.encode(state, encoding="tab-v9")


def test_tihbat_has_no_encoding():
    with pytest.raises(qasab.RulesetError, match="tihbat has no network encoding"):
        qn.training_data("tihbat", games=1)
    with pytest.raises(qasab.RulesetError, match="tihbat"):
        qn.encoding("tihbat")
    with pytest.raises(qasab.RulesetError, match="tihbat"):
        qn.encode(qasab.load_game("tihbat").new_initial_state())


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games=0"),
        ({"games": -3}, "games=-3"),
        ({"lambda_": 1.5}, "lambda_=1.5"),
        ({"lambda_": -0.1}, "lambda_=-0.1"),
        ({"lambda_": math.nan}, "lambda_=NaN"),
        ({"threads": -1}, "threads=-1"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(kwargs, message):
    with pytest.raises(qasab.QasabError, match=message):
        # Checked before the ruleset is even read.
        qn.training_data("tihbat", **kwargs)


def test_bad_ruleset_and_network_file(tmp_path):
    with pytest.raises(qasab.RulesetError):
        qn.training_data("tab(columns=two)", games=1)
    with pytest.raises(qasab.NetworkError, match="nope.safetensors"):
        qn.training_data("tab", games=1, network=tmp_path / "nope.safetensors")
    # Networks are shipped for the presets' boards, and for every board of Lane's game and
    # Hyde's.
    with pytest.raises(qasab.NetworkError, match="networks are shipped for tab"):
        qn.value(qasab.load_game("tab-modern(columns=11)").new_initial_state())
    assert -1 < qn.value(qasab.load_game("tab-hyde(columns=19)").new_initial_state()) < 1
    assert -1 < qn.value(qasab.load_game("tab(columns=11)").new_initial_state()) < 1


def random_network(inputs, seed, hidden=(16, 8)):
    """Random weights of the documented shapes, float32."""
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    shapes = {
        "fc1.weight": (h1, inputs),
        "fc1.bias": (h1,),
        "fc2.weight": (h2, h1),
        "fc2.bias": (h2,),
        "out.weight": (1, h2),
        "out.bias": (1,),
    }
    return {k: rng.normal(0.0, 0.3, s).astype(np.float32) for k, s in shapes.items()}


def forward(t, x):
    """The network as docs/training.md writes it, in numpy."""
    h = np.maximum(t["fc1.weight"] @ x + t["fc1.bias"], 0.0)
    h = np.maximum(t["fc2.weight"] @ h + t["fc2.bias"], 0.0)
    return float(np.tanh(t["out.weight"] @ h + t["out.bias"])[0])


def play_with(path, ruleset, steps=300, seed=0, spec="net(weights={})"):
    """Plays `spec` with the network file `path` (by default `net(weights=path)`) against
    itself (chance drawn from a seeded generator) for up to `steps` actions; checks every
    action is legal; returns the number of player actions."""
    game = qasab.load_game(ruleset)
    agent = qasab.Agent(spec.format(path), game, seed=seed)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    moves = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = agent.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    return moves


def check_values(path, tensors, ruleset, seed=0):
    """The network read from `path` gives numpy's values along a seeded random game."""
    state = qasab.load_game(ruleset).new_initial_state()
    rng = np.random.default_rng(seed)
    checked = 0
    while not state.is_terminal() and checked < 40:
        x = qn.encode(state)
        assert qn.value(state, path) == pytest.approx(forward(tensors, x), abs=1e-5)
        checked += 1
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 0


@pytest.mark.parametrize("ruleset", ["tab", "tab-ludii"])
def test_a_numpy_network_saved_with_save_network_plays(tmp_path, ruleset):
    tensors = random_network(qn.encoding(ruleset)["inputs"], seed=1)
    path = tmp_path / "numpy.safetensors"
    qn.save_network(path, tensors, ruleset, metadata={"method": "numpy test"})
    check_values(path, tensors, ruleset)
    assert play_with(path, ruleset) > 0
    data = qn.training_data(ruleset, games=1, seed=2, network=path)
    assert data["network"] == "file"
    assert data["features"].shape[1] == qn.encoding(ruleset)["inputs"]


@pytest.mark.parametrize(
    "spec",
    [
        "greedy(weights={})",
        "expectimax(weights={},level=1)",
        "mcts(weights={},cutoff=0,iterations=50)",
    ],
)
def test_a_numpy_network_is_the_evaluation_of_every_search(tmp_path, spec):
    ruleset = "tab-ludii"
    tensors = random_network(qn.encoding(ruleset)["inputs"], seed=8)
    path = tmp_path / "search.safetensors"
    qn.save_network(path, tensors, ruleset)
    assert f"weights={path}" in repr(qasab.Agent(spec.format(path), ruleset, seed=1))
    assert play_with(path, ruleset, steps=60, seed=1, spec=spec) > 0
    with pytest.raises(qasab.AgentError, match="no file with eval=hand"):
        qasab.Agent(spec.format(path).replace("(", "(eval=hand,", 1), ruleset)


def test_float64_and_lists_are_written_as_float32(tmp_path):
    tensors = random_network(qn.encoding("tab-ludii")["inputs"], seed=4)
    wide = {k: v.astype(np.float64) for k, v in tensors.items()}
    wide["out.bias"] = wide["out.bias"].tolist()
    path = tmp_path / "wide.safetensors"
    qn.save_network(str(path), wide, "tab-ludii")
    check_values(path, tensors, "tab-ludii")


def test_a_network_written_by_the_safetensors_package_plays(tmp_path):
    st = extra("safetensors.numpy")
    ruleset = "tab-ludii"
    enc = qn.encoding(ruleset)
    tensors = random_network(enc["inputs"], seed=5, hidden=(32, 16))
    path = tmp_path / "outside.safetensors"
    st.save_file(
        tensors,
        str(path),
        metadata={"encoding": enc["name"], "family": enc["family"], "columns": str(enc["columns"])},
    )
    check_values(path, tensors, ruleset)
    assert play_with(path, ruleset, seed=3) > 0


def test_save_network_writes_what_the_safetensors_package_reads(tmp_path):
    extra("safetensors")
    from safetensors import safe_open

    tensors = random_network(qn.encoding("tab")["inputs"], seed=6)
    path = tmp_path / "saved.safetensors"
    qn.save_network(path, tensors, "tab", metadata={"method": "numpy test"})
    with safe_open(str(path), framework="numpy") as f:
        assert sorted(f.keys()) == sorted(qn.LAYERS)
        for k in qn.LAYERS:
            np.testing.assert_array_equal(f.get_tensor(k), tensors[k])
        meta = f.metadata()
    assert meta["encoding"] == "tab-v2"
    assert meta["family"] == "tab"
    assert meta["columns"] == "9"
    assert meta["ruleset"] == "tab"
    assert meta["method"] == "numpy test"
    # A network on the older encoding's inputs is written as one of that encoding.
    old = random_network(qn.encoding("tab", encoding="tab-v1")["inputs"], seed=6)
    qn.save_network(path, old, "tab")
    with safe_open(str(path), framework="numpy") as f:
        assert f.metadata()["encoding"] == "tab-v1"
    # A network on the board-free inputs plays every board of the family: the file says which
    # options it reads, from this version's list, and that key cannot be given.
    free = qn.encoding("tab", encoding="tab-v3")
    assert free["columns"] is None
    qn.save_network(path, random_network(free["inputs"], seed=6), "tab")
    with safe_open(str(path), framework="numpy") as f:
        meta = f.metadata()
    assert meta["encoding"] == "tab-v3" and meta["columns"] == "any"
    assert "reduction=" in meta["option_inputs"]
    assert play_with(path, "tab(columns=13,reduction=off)", steps=60) > 0
    with pytest.raises(qasab.NetworkError, match="option_inputs"):
        qn.save_network(path, random_network(free["inputs"], seed=6), "tab",
                        metadata={"option_inputs": "reduction=off"})


def test_a_file_of_wrong_shapes_is_refused_with_a_reason(tmp_path):
    st = extra("safetensors.numpy")
    enc = qn.encoding("tab-ludii")
    tensors = random_network(enc["inputs"] - 1, seed=7)
    path = tmp_path / "short.safetensors"
    meta = {"encoding": enc["name"], "family": enc["family"], "columns": str(enc["columns"])}
    st.save_file(tensors, str(path), metadata=meta)
    with pytest.raises(qasab.AgentError, match=f"{enc['inputs'] - 1} inputs"):
        qasab.Agent(f"net(weights={path})", "tab-ludii")
    with pytest.raises(qasab.NetworkError, match=f"has {enc['inputs']}"):
        qn.value(qasab.load_game("tab-ludii").new_initial_state(), path)

    tensors = random_network(enc["inputs"], seed=7)
    tensors["fc2.weight"] = tensors["fc2.weight"][:, :-1]
    st.save_file(tensors, str(path), metadata=meta)
    with pytest.raises(qasab.AgentError, match="layer sizes do not chain"):
        qasab.Agent(f"net(weights={path})", "tab-ludii")


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda t: t.update({"fc1.weight": t["fc1.weight"][:, :100]}),
            r"fc1.weight has shape \(16, 100\).*633 inputs",
        ),
        (lambda t: t.update({"fc2.weight": t["fc2.weight"][:, :15]}), "layer sizes do not chain"),
        (lambda t: t.update({"fc1.bias": t["fc1.bias"][:, None]}), r"fc1.bias has shape \(16, 1\)"),
        (lambda t: t.update({"fc1.bias": t["fc1.bias"][:8]}), r"fc1.bias has shape \(8,\)"),
        (lambda t: t.pop("out.bias"), "no tensor out.bias"),
        (lambda t: t.update({"fc3.weight": t["out.weight"]}), "unknown tensor \"fc3.weight\""),
        (lambda t: t["out.bias"].__setitem__(0, np.nan), "not a finite number"),
        (lambda t: t.update({"out.bias": np.array(["a"])}), "dtype"),
    ],
)
def test_save_network_refuses_bad_tensors(tmp_path, change, message):
    tensors = random_network(qn.encoding("tab-ludii")["inputs"], seed=8)
    change(tensors)
    path = tmp_path / "bad.safetensors"
    with pytest.raises(qasab.NetworkError, match=message):
        qn.save_network(path, tensors, "tab-ludii")
    assert not path.exists()


def test_save_network_refuses_reserved_metadata_and_tihbat(tmp_path):
    tensors = random_network(qn.encoding("tab-ludii")["inputs"], seed=9)
    with pytest.raises(qasab.NetworkError, match='"family"'):
        qn.save_network(
            tmp_path / "n.safetensors", tensors, "tab-ludii", metadata={"family": "tab"}
        )
    with pytest.raises(qasab.RulesetError, match="tihbat"):
        qn.save_network(tmp_path / "n.safetensors", tensors, "tihbat")
