"""qasab.endgame: tables built, probed and verified from Python, agreeing with the command
line's format and refusing what they must."""

import doctest
import os

import pytest

import qasab
import qasab.endgame as eg

DUEL = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21"


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "duel.qeg"
    header = eg.build("tab-ludii", [DUEL], path)
    assert header["positions"] == 776 and header["seeds"] == [DUEL]
    return path


def test_probe_a_position_and_the_decisions_of_a_players_turn(table):
    at_throw = eg.probe_position("tab-ludii", DUEL, table)
    assert at_throw["chance"] and at_throw["player"] == 0
    assert abs(at_throw["win"] - at_throw["loss"] - at_throw["value"]) < 1e-5
    assert abs(at_throw["win"] + at_throw["loss"] + at_throw["draw"] - 1) < 1e-5
    # White throws 3: one decision, whose value is the position's.
    after = DUEL.replace("/white/", "/white:3/")
    to_move = eg.probe_position("tab-ludii", after, table)
    assert not to_move["chance"]
    assert [m["move"] for m in to_move["moves"]] == ["3:d2-a2"]
    assert to_move["moves"][0]["value"] == to_move["value"]


def test_a_state_outside_the_table(table):
    state = qasab.load_game("tab-ludii").new_initial_state()
    with pytest.raises(eg.NotInTableError):
        eg.probe(state, table)
    with pytest.raises(qasab.QasabError, match="not tab-hyde-ludii|is for tab-ludii"):
        eg.probe(qasab.load_game("tab-hyde-ludii").new_initial_state(), table)


def test_verify_and_header(table):
    positions, err = eg.verify(table)
    assert positions == 776 and err < 1e-6
    h = eg.header(table)
    assert h["ruleset"] == "tab-ludii" and h["wins"] + h["losses"] + h["draws"] + h["mixed"] == 776


def test_damaged_file_is_refused(table):
    data = bytearray(table.read_bytes())
    data[-40] ^= 1
    table.write_bytes(bytes(data))
    with pytest.raises(qasab.QasabError, match="checksum"):
        eg.header(table)


def test_tables_from_the_environment(table, monkeypatch):
    state = qasab.load_game("tab-ludii").new_initial_state()
    monkeypatch.delenv(eg.TABLES_ENV, raising=False)
    with pytest.raises(qasab.QasabError, match=eg.TABLES_ENV):
        eg.probe(state)
    monkeypatch.setenv(eg.TABLES_ENV, os.fspath(table.parent))
    with pytest.raises(eg.NotInTableError):
        eg.probe(state)


def test_docstring_examples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = doctest.testmod(eg, optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    assert result.attempted > 0 and result.failed == 0


def test_a_table_by_piece_count(tmp_path):
    path = tmp_path / "p11.qeg"
    header = eg.build("tab-ludii", [], path, pieces=(1, 1))
    assert header["domain"] == "pieces" and header["pieces"] == [1, 1]
    assert header["seeds"] == [] and header["positions"] > 1000
    assert eg.probe_position("tab-ludii", DUEL, path)["chance"]
    # The faithful rulesets list one piece a side; two are refused with the reason.
    with pytest.raises(qasab.QasabError, match="--from"):
        eg.build("tab(columns=7)", [], tmp_path / "x.qeg", pieces=(2, 1))
    # A build that would not fit its memory stops with the reason.
    with pytest.raises(qasab.QasabError, match="of memory"):
        eg.build("tab-ludii", [], tmp_path / "y.qeg", pieces=(1, 1), max_memory_mb=0)


def test_a_stopped_build_is_resumed_to_the_same_table(tmp_path):
    whole = eg.build("tab-ludii", [DUEL], tmp_path / "whole.qeg")
    path = tmp_path / "duel.qeg"
    partial = tmp_path / "duel.qeg.partial"
    # Stopped by its position limit, its progress kept after every batch.
    with pytest.raises(qasab.QasabError, match="more than 400 positions"):
        eg.build("tab-ludii", [DUEL], path, max_positions=400, checkpoint_every=0)
    assert partial.exists() and not path.exists()
    with pytest.raises(qasab.QasabError, match="holds a stopped build"):
        eg.build("tab-ludii", [DUEL], path, checkpoint_every=0)
    with pytest.raises(qasab.QasabError, match="another table"):
        eg.build("tab-ludii", [DUEL], path, count_cap=2, checkpoint_every=0, resume=True)
    header = eg.build("tab-ludii", [DUEL], path, checkpoint_every=600, resume=True)
    assert header["positions"] == whole["positions"] == 776
    assert header["longest_win_throws"] == whole["longest_win_throws"]
    assert not partial.exists()
    assert eg.probe_position("tab-ludii", DUEL, path) == eg.probe_position(
        "tab-ludii", DUEL, tmp_path / "whole.qeg"
    )
    with pytest.raises(qasab.QasabError, match="checkpoint_every"):
        eg.build("tab-ludii", [DUEL], path, resume=True)
    with pytest.raises(qasab.QasabError, match="not a number of seconds"):
        eg.build("tab-ludii", [DUEL], path, checkpoint_every=-1)


# Lane's Tab on seven columns, one converted piece a side; White to throw.
LANE_1V1 = "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-"


def test_accumulated_throws_with_a_pending_cap(tmp_path):
    path = tmp_path / "lane.qeg"
    header = eg.build("tab(columns=7)", [LANE_1V1], path, bank_cap=1, pending_cap=1)
    assert header["pending_cap"] == 1 and not header["limits"]
    # The table keeps the starts of turns; a position within a turn (a 1 pending, White
    # throwing on) is probed by throwing on from it.
    one_pending = LANE_1V1.replace("throw:w/-/", "throw:w/1/")
    within = eg.probe_position("tab(columns=7)", one_pending, path)
    assert within["chance"] and -1 <= within["value"] <= 1
    assert abs(within["win"] - within["loss"] - within["value"]) < 1e-5


# White's stack of two on i, which no Black piece can reach and which need never move; Black's
# three pieces go round the middle rows.
STACK_ON_I = "throw:b/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,k.ce1234v7ffffffff,N.ce1234v3ffffffff,x,K.ce1234vffffffff,x,x,x,x/11.0/6.7/0.0/156.0.1.562/247.42.17.0.36.0.0/-"


def test_sanctuaries():
    assert eg.sanctuaries_position("tab", STACK_ON_I) == {"white": ["i"], "black": []}
    # Under end=most-captures the captures decide, and a sanctuary decides nothing.
    assert eg.sanctuaries_position("tab(end=most-captures)", STACK_ON_I) is None
    # The start of a game: none; Tihbat has none to look for.
    assert eg.sanctuaries(qasab.load_game("tab").new_initial_state()) == {"white": [], "black": []}
    assert eg.sanctuaries(qasab.load_game("tihbat").new_initial_state()) is None
    with pytest.raises(qasab.QasabError):
        eg.sanctuaries_position("tab", "not an id")


# One piece a side, whose whole game from the start is one small table.
ONE_PIECE = "tab(columns=7,pieces=1,throw_timing=interleaved,tab_bank=none,reduction=off)"


def test_simulate_with_tables(tmp_path, monkeypatch):
    start = qasab.load_game(ONE_PIECE).new_initial_state().position_id()
    eg.build(ONE_PIECE, [start], tmp_path / "one.qeg")
    monkeypatch.delenv(eg.TABLES_ENV, raising=False)
    # With the table every player plays its best moves, so any two players play the same games.
    a = qasab.simulate(ONE_PIECE, ("random", "random"), games=20, seed=3, tables=tmp_path)
    b = qasab.simulate(ONE_PIECE, ("greedy", "random"), games=20, seed=3, tables=tmp_path)
    assert all((a[k] == b[k]).all() for k in a)
    # The directory named by the environment is the default.
    monkeypatch.setenv(eg.TABLES_ENV, str(tmp_path))
    c = qasab.simulate(ONE_PIECE, ("greedy", "random"), games=20, seed=3)
    assert all((a[k] == c[k]).all() for k in a)
    # Without tables the players play their own games.
    monkeypatch.delenv(eg.TABLES_ENV)
    d = qasab.simulate(ONE_PIECE, ("random", "random"), games=20, seed=3)
    e = qasab.simulate(ONE_PIECE, ("greedy", "random"), games=20, seed=3)
    assert any((d[k] != e[k]).any() for k in d)
