"""qasab.distributed on a local Ray cluster of 2 CPUs started by the tests: the results are
those of the ``qasab`` command on one machine, a chunk whose worker dies is played again, a
driver stopped and started again plays only the missing chunks, and bad arguments fail at once
with the command's message.

The command's results come from the ``qasab`` binary named by ``QASAB_BIN`` (``.ci/run`` and
``.ci/py`` set it), else the one on ``PATH``; without either, the comparisons are skipped.
"""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import extra

ray = extra("ray")
extra("tqdm")

from qasab import distributed  # noqa: E402
from qasab.distributed import ArgumentError, Job  # noqa: E402

QASAB = os.environ.get("QASAB_BIN") or shutil.which("qasab")

needs_cli = pytest.mark.skipif(
    QASAB is None and not os.environ.get("QASAB_REQUIRE_EXTRAS"),
    reason="no qasab binary (set QASAB_BIN)",
)


def cli(*args):
    """The qasab command's standard output, standard error and exit code."""
    assert QASAB, "QASAB_BIN names no qasab binary"
    p = subprocess.run([QASAB, *args], capture_output=True, text=True, timeout=600)
    return p.stdout, p.stderr, p.returncode


def cli_json(*args):
    out, err, code = cli(*args)
    assert code == 0, err
    return out.rstrip("\n")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A local Ray of 2 CPUs, its workers armed for the worker-death test."""
    faults = tmp_path_factory.mktemp("faults")
    old = os.environ.get(distributed._EXIT_ONCE)
    os.environ[distributed._EXIT_ONCE] = str(faults)
    if ray.is_initialized():
        ray.shutdown()
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
        object_store_memory=200 * 1024 * 1024,
        configure_logging=False,
    )
    yield faults
    ray.shutdown()
    if old is None:
        os.environ.pop(distributed._EXIT_ONCE, None)
    else:
        os.environ[distributed._EXIT_ONCE] = old


ARENA = ("tab", ["random", "greedy", "mcts(iterations=50)"], 6, 3)


@needs_cli
def test_an_arena_on_the_cluster_is_the_commands(cluster, tmp_path):
    ruleset, players, games, seed = ARENA
    job = Job.arena(ruleset, players, games, seed)
    assert job.units() == 3 * 3
    text = distributed.run_job_text(job, chunk_games=4, cache=tmp_path, progress=False)
    want = cli_json("arena", ruleset, "--players", *players, "--games", str(games),
                    "--seed", str(seed), "--json")
    assert text == want
    # Another chunk size, played here without Ray: the same.
    assert distributed.run_job_text(job, chunk_games=2, cache=False, use_ray=False) == want


def without_seconds(text):
    report = json.loads(text)
    assert report.pop("seconds") >= 0
    return report


@needs_cli
def test_a_simulation_on_the_cluster_is_the_commands(cluster):
    report = distributed.simulate("tab", "random,greedy", games=40, seed=5, chunk_games=7,
                                  cache=False, progress=False)
    want = without_seconds(cli_json("simulate", "tab", "--players", "random,greedy",
                                     "--games", "40", "--seed", "5", "--threads", "2",
                                     "--json"))
    report.pop("seconds")
    assert report == want
    assert report["threads"] == 2  # the cluster's CPUs


@needs_cli
def test_games_with_endgame_tables_on_the_cluster_are_the_commands(cluster, tmp_path):
    import qasab.endgame as eg
    tables = tmp_path / "tables"
    tables.mkdir()
    eg.build("tab-ludii", [], tables / "p11.qeg", pieces=(1, 1))
    report = distributed.simulate("tab-ludii", "random,greedy", games=8, seed=3,
                                  tables=tables, chunk_games=3, cache=False, progress=False)
    want = without_seconds(cli_json("simulate", "tab-ludii", "--players", "random,greedy",
                                     "--games", "8", "--seed", "3", "--threads", "2",
                                     "--tables", str(tables), "--json"))
    report.pop("seconds")
    assert report == want
    assert report["tables"] == [str(tables / "p11.qeg")]
    # The module command, with an arena.
    p = subprocess.run(
        [sys.executable, "-m", "qasab.distributed", "arena", "tab-ludii", "--players", "greedy",
         "random", "--games", "4", "--seed", "1", "--tables", str(tables), "--no-ray",
         "--quiet", "--no-cache"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip("\n") == cli_json("arena", "tab-ludii", "--players", "greedy",
                                             "random", "--games", "4", "--seed", "1",
                                             "--tables", str(tables), "--json")
    # QASAB_TABLES is read as the commands read it; a directory without tables of the
    # ruleset, given by name, is refused.
    old = os.environ.get("QASAB_TABLES")
    os.environ["QASAB_TABLES"] = str(tables)
    try:
        assert Job.simulate("tab-ludii", "random,greedy", 2, 0) == Job.simulate(
            "tab-ludii", "random,greedy", 2, 0, tables)
        assert "tables" not in Job.simulate("tab", "random,greedy", 2, 0).to_json()
    finally:
        if old is None:
            del os.environ["QASAB_TABLES"]
        else:
            os.environ["QASAB_TABLES"] = old
    with pytest.raises(ArgumentError, match="no endgame table of tab in"):
        Job.simulate("tab", "random,greedy", 2, 0, tables)


@needs_cli
def test_a_study_on_the_cluster_is_the_commands(cluster, tmp_path):
    report = distributed.study("tihbat", vary=["seeds=2,3"], players="random,greedy",
                               skill="greedy,random", games=20, skill_games=4, seed=2,
                               chunk_games=16, cache=tmp_path, progress=False)
    words = shlex.split(report["command"])
    assert words[:2] == ["qasab", "study"]
    want = cli_json(*words[1:])
    assert json.loads(want) == report
    assert [v["games"] for v in report["variants"]] == [20, 20]
    # The exact text, from the chunks kept by the run above.
    job = Job.study("tihbat", ["seeds=2,3"], None, "random,greedy", "greedy,random", 20, 4, 2)
    assert distributed.run_job_text(job, cache=tmp_path, progress=False) == want


def test_a_chunk_whose_worker_dies_is_played_again(cluster):
    job = Job.simulate("tab", "greedy,random", 8, 11)
    want = distributed.run_job_text(job, cache=False, use_ray=False)
    armed, fired = cluster / "armed", cluster / "fired"
    armed.write_text("4")  # the chunk of units 4..6
    try:
        text = distributed.run_job_text(job, chunk_games=2, cache=False, progress=False)
    finally:
        if armed.exists():
            armed.unlink()
    assert fired.exists(), "the worker of chunk 4 did not die"
    fired.unlink()
    assert without_seconds(text) == without_seconds(want) | {"threads": 2}
    # Without retries the same death fails the run: the retry is what kept it whole.
    armed.write_text("4")
    try:
        with pytest.raises(ray.exceptions.WorkerCrashedError):
            distributed.run_job_text(job, chunk_games=2, cache=False, progress=False,
                                     retries=0)
    finally:
        if armed.exists():
            armed.unlink()
    assert fired.exists()
    fired.unlink()


def chunk_files(folder):
    return {
        p.name: p.stat().st_mtime_ns
        for p in folder.rglob("*.json")
        if p.name != "job.json"
    }


def test_a_stopped_driver_plays_only_the_missing_chunks(cluster, tmp_path, capsys):
    job = Job.arena("tihbat(seeds=3)", ["random", "greedy"], 16, 7)
    want = distributed.run_job_text(job, cache=False, use_ray=False)
    assert distributed.run_job(job, chunk_games=4, cache=tmp_path, max_chunks=2,
                               progress=False) is None
    first = chunk_files(tmp_path)
    assert len(first) == 2
    capsys.readouterr()
    # Started again, with another chunk size: the two chunks are kept, not played again.
    text = distributed.run_job_text(job, chunk_games=6, cache=tmp_path, progress=True)
    assert text == want
    assert "2 chunks (8 games) already played" in capsys.readouterr().err
    after = chunk_files(tmp_path)
    assert {k: after[k] for k in first} == first
    assert len(after) > len(first)


def test_a_killed_driver_resumes_where_it_was(tmp_path):
    # A real stop: the driver (here without Ray) is killed once a chunk is kept.
    base = [sys.executable, "-m", "qasab.distributed", "simulate", "tab", "--players",
            "mcts(iterations=50),greedy", "--games", "40", "--seed", "4", "--no-ray",
            "--quiet"]
    args = base + ["--chunk-games", "2", "--cache", str(tmp_path)]
    driver = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while not chunk_files(tmp_path) and time.time() < deadline and driver.poll() is None:
        time.sleep(0.05)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    kept = chunk_files(tmp_path)
    assert 1 <= len(kept) < 20, kept
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} chunks ({2 * len(kept)} games) already played" in done.stderr
    assert {k: chunk_files(tmp_path)[k] for k in kept} == kept
    whole = subprocess.run(base + ["--no-cache"], capture_output=True, text=True,
                           timeout=600)
    assert without_seconds(done.stdout) == without_seconds(whole.stdout)


BAD = [
    ("arena", ["tub", "--players", "random", "random", "--games", "2"]),
    ("arena", ["tab", "--players", "random", "wizard(depth=2)", "--games", "2"]),
    ("arena", ["tab", "--players", "random", "greedy", "--games", "0"]),
    ("simulate", ["tub", "--players", "random,random", "--games", "2"]),
    ("simulate", ["tab", "--players", "random,mcts(iterations=x)", "--games", "2"]),
    ("simulate", ["tab", "--players", "random,random", "--games", "0"]),
    ("study", ["tub", "--games", "2"]),
    ("study", ["tab", "--players", "greedy,wizard", "--games", "2"]),
    ("study", ["tab", "--games", "0"]),
]


def job_of(command, args):
    """The Job of a command line, through the module's command-line parser."""
    from qasab.distributed.__main__ import _parser

    a = _parser().parse_args([command, *args])
    if command == "arena":
        return Job.arena(a.ruleset, a.players, a.games, a.seed)
    if command == "simulate":
        return Job.simulate(a.ruleset, a.players, a.games, a.seed)
    return Job.study(a.ruleset, a.vary, a.variants, a.players, a.skill, a.games,
                     a.skill_games, a.seed)


@needs_cli
@pytest.mark.parametrize("command,args", BAD)
def test_bad_arguments_fail_on_the_driver_with_the_commands_message(command, args,
                                                                    monkeypatch):
    _, err, code = cli(command, *args)
    assert code == 1 and err.startswith("error: "), err
    message = err[len("error: "):].rstrip("\n")

    def no_cluster(*_, **__):
        raise AssertionError("the cluster was contacted")

    monkeypatch.setattr(distributed, "_connect", no_cluster)
    with pytest.raises(ArgumentError) as e:
        job_of(command, args)
    assert str(e.value) == message
    # The functions refuse them too, before connecting.
    with pytest.raises(ArgumentError, match="unknown ruleset 'tub'"):
        distributed.arena("tub", ["random", "random"], games=2)
    with pytest.raises(ArgumentError, match="--games must be from 1"):
        distributed.simulate("tab", games=0)


@needs_cli
def test_the_module_command_prints_the_commands_json_and_errors(tmp_path):
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "qasab.distributed", *a], capture_output=True, text=True,
        timeout=600)
    p = run("arena", "tihbat(seeds=2)", "--players", "random", "greedy", "--games", "4",
            "--seed", "1", "--no-ray", "--quiet", "--cache", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip("\n") == cli_json("arena", "tihbat(seeds=2)", "--players",
                                             "random", "greedy", "--games", "4", "--seed",
                                             "1", "--json")
    p = run("simulate", "tub", "--no-ray")
    _, err, _ = cli("simulate", "tub")
    assert p.returncode == 1 and p.stderr == err


@needs_cli
def test_one_step_of_self_play_on_the_cluster_trains_the_commands_network(cluster, tmp_path):
    settings = dict(seed=3, batch=4, hidden=(16, 8), curve_every=0)
    ruleset = "tab(columns=7,pieces=3)"
    spread = distributed.train(ruleset, 4, out=str(tmp_path / "ray.safetensors"),
                               progress=False, **settings)
    assert spread.games_done == 4 and spread.finished()
    here = distributed.train(ruleset, 4, out=str(tmp_path / "here.safetensors"),
                             use_ray=False, threads=1, progress=False, **settings)
    cli("train", ruleset, "--games", "4", "--seed", "3", "--batch", "4", "--hidden", "16,8",
        "--curve-every", "0", "--threads", "1", "--out", str(tmp_path / "cli.safetensors"))
    module = subprocess.run(
        [sys.executable, "-m", "qasab.distributed", "train", ruleset, "--games", "4", "--seed",
         "3", "--batch", "4", "--hidden", "16,8", "--curve-every", "0", "--no-ray", "--quiet",
         "--out", str(tmp_path / "module.safetensors")],
        capture_output=True, text=True, timeout=600)
    assert module.returncode == 0, module.stderr
    names = ("ray", "here", "cli", "module")
    weights = [(tmp_path / f"{n}.safetensors").read_bytes() for n in names]
    assert all(w == weights[0] for w in weights), names
    assert (tmp_path / "ray.checkpoint.safetensors").exists()
    # A second step, from the checkpoint of the first, is the command's two steps.
    more = distributed.train(out=str(tmp_path / "more.safetensors"),
                             resume=str(tmp_path / "ray.checkpoint.safetensors"), games=8,
                             progress=False)
    assert more.games_done == 8
    cli("train", ruleset, "--games", "8", "--seed", "3", "--batch", "4", "--hidden", "16,8",
        "--curve-every", "0", "--out", str(tmp_path / "cli8.safetensors"))
    a = (tmp_path / "more.safetensors").read_bytes()
    b = (tmp_path / "cli8.safetensors").read_bytes()
    assert a == b
    # On at a lower rate, as the command's --resume with --rate.
    slow = distributed.train(out=str(tmp_path / "slow.safetensors"),
                             resume=str(tmp_path / "ray.checkpoint.safetensors"), games=8,
                             rate=0.0002, use_ray=False, threads=1, progress=False)
    assert slow.options["rate"] == pytest.approx(0.0002)
    cli("train", "--resume", str(tmp_path / "ray.checkpoint.safetensors"), "--games", "8",
        "--rate", "0.0002", "--out", str(tmp_path / "cli-slow.safetensors"))
    a = (tmp_path / "slow.safetensors").read_bytes()
    assert a == (tmp_path / "cli-slow.safetensors").read_bytes()
    assert a != b
    assert b'"rate_schedule":"0:0.001,4:0.0002"' in a


@needs_cli
def test_training_keeps_the_curves_best_network_as_the_command_does(tmp_path):
    settings = ["--games", "12", "--seed", "3", "--batch", "4", "--hidden", "16,8",
                "--curve-every", "4", "--curve-pairs", "3", "--threads", "1"]
    ruleset = "tab(columns=7,pieces=3)"
    distributed.train(ruleset, 12, out=str(tmp_path / "here.safetensors"), seed=3, batch=4,
                      hidden=(16, 8), curve_every=4, curve_pairs=3, use_ray=False, threads=1,
                      progress=False)
    _, err, code = cli("train", ruleset, *settings, "--out", str(tmp_path / "cli.safetensors"))
    assert code == 0, err
    best = (tmp_path / "here.best.safetensors").read_bytes()
    assert best == (tmp_path / "cli.best.safetensors").read_bytes()
    # The network of the curve's first point with the top score, which it names.
    curve = json.loads((tmp_path / "here.curve.json").read_text())
    top = max(range(len(curve)), key=lambda i: (curve[i]["score"], -i))
    from safetensors import safe_open
    with safe_open(str(tmp_path / "here.best.safetensors"), framework="numpy") as f:
        meta = f.metadata()
    assert meta["games"] == str(curve[top]["games"])
    assert meta["curve_score"] == f"{curve[top]['score']:.4f}"


@needs_cli
def test_a_run_across_the_family_trains_the_commands_network_here_and_from_the_module(tmp_path):
    # Each game on a reading drawn from the family; the workers learn that from the network.
    ruleset = "tab(columns=7)"
    here = distributed.train(ruleset, 4, out=str(tmp_path / "here.safetensors"), seed=5,
                             batch=4, hidden=(16, 8), curve_every=0, use_ray=False, threads=1,
                             progress=False, across=True)
    assert here.options["across"] is True
    _, err, code = cli("train", ruleset, "--across", "--games", "4", "--seed", "5", "--batch",
                       "4", "--hidden", "16,8", "--curve-every", "0", "--threads", "1",
                       "--out", str(tmp_path / "cli.safetensors"))
    assert code == 0, err
    a = (tmp_path / "here.safetensors").read_bytes()
    assert a == (tmp_path / "cli.safetensors").read_bytes()
    assert b'"encoding":"tab-v3"' in a and b'"across":"boards and rule options"' in a
    # Played by workers from the network's bytes, the games are the learner's own.
    from qasab._qasab import Trainer, self_play_games
    learner = Trainer(ruleset, 4, 5, 4, 0.7, 0.001, (16, 8), 0, 10, 1, across=True)
    first, n = learner.next_batch()
    learner.learn([self_play_games(ruleset, learner.network(), 5, 0.7, first, n)])
    assert learner.network() == a
    # The network plays any board of the family.
    net = str(tmp_path / "here.safetensors")
    _, err, code = cli("arena", "tab(columns=13,reduction=off)", "--players",
                       f"net(weights={net})", "random", "--games", "2", "--seed", "1")
    assert code == 0, err
    # A family without a board-free encoding is refused a run across.
    with pytest.raises(Exception, match="--across"):
        Trainer("tab-ludii", 4, 5, 4, 0.7, 0.001, (16, 8), 0, 10, 1, across=True)


def test_the_learner_refuses_games_of_another_board_with_an_error():
    # No Ray: the learner's check of the bytes that workers send back.
    from qasab._qasab import QasabError, Trainer, self_play_games
    learner = Trainer("tab(columns=7,pieces=3)", 4, 3, 4, 0.7, 0.001, (16, 8), 0, 10, 1)
    other = Trainer("tab(columns=9,pieces=3)", 4, 3, 4, 0.7, 0.001, (16, 8), 0, 10, 1)
    first, n = learner.next_batch()
    games = self_play_games("tab(columns=9,pieces=3)", other.network(), 3, 0.7, first, n)
    with pytest.raises(QasabError, match="games of another ruleset"):
        learner.learn([games])
    assert learner.next_batch() == (first, n)
    with pytest.raises(QasabError, match="cut short or corrupt"):
        learner.learn([b"\x01\x00\x00"])
    with pytest.raises(QasabError, match="rate=0 is not between 0 and 1"):
        learner.set_rate(0.0)
    assert learner.options["rate"] == pytest.approx(0.001)


def test_results_parsed_as_they_arrive_merge_as_the_chunks_text_does():
    # No Ray: what the driver keeps between the chunks and the merge.
    job = Job.simulate("tab", "random,random", 30, 4)
    chunks = [(0, job.run(0, 10)), (20, job.run(20, 10)), (10, job.run(10, 10))]
    results = job.results()
    for first, text in chunks[:2]:
        results.add(first, text)
    assert results.units == 20 and len(results) == 2
    with pytest.raises(ArgumentError, match="unit 10 is missing"):
        results.merge(0.0, 1)
    results = job.results()
    for first, text in chunks:
        results.add(first, text)
    merged = json.loads(results.merge(1.5, 2))
    assert merged == json.loads(job.merge(chunks, 1.5, 2))
    command = json.loads(cli_json("simulate", "tab", "--players", "random,random", "--games",
                                  "30", "--seed", "4", "--json"))
    for key in ("seconds", "threads"):
        merged.pop(key), command.pop(key)
    assert merged == command
    with pytest.raises(ArgumentError, match="the results of chunk 0"):
        job.results().add(0, "not json")


def test_a_run_from_a_network_starts_from_its_weights(tmp_path):
    # `start=` is `qasab train --start`: the same network, byte for byte.
    from qasab._qasab import NetworkError, Trainer
    first = tmp_path / "first.safetensors"
    first.write_bytes(Trainer("tab(columns=7,pieces=3)", 4, 3, 4, 0.7, 0.001, (16, 8), 0, 10,
                              1).network())
    ruleset = "tab(columns=7,pieces=3,enemy_row=free)"
    tuned = Trainer(ruleset, 4, 5, 4, 0.7, 0.001, (64, 64), 0, 10, 1, start=str(first))
    assert tuned.options["hidden"] == (16, 8)
    tuned.step()
    _, err, code = cli("train", ruleset, "--start", str(first), "--games", "4", "--seed", "5",
                       "--batch", "4", "--curve-every", "0", "--threads", "1",
                       "--out", str(tmp_path / "cli.safetensors"))
    assert code == 0, err
    assert tuned.network() == (tmp_path / "cli.safetensors").read_bytes()
    assert b'"start":"tab-v2 (tab(columns=7,pieces=3), 0 games)"' in tuned.network()
    with pytest.raises(NetworkError, match="nope"):
        Trainer(ruleset, 4, start=str(tmp_path / "nope.safetensors"))
    with pytest.raises(Exception, match="trained for tab"):
        Trainer("tab-modern", 4, start=str(first))
