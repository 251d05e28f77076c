"""Speed of the Python package: not a test, a measurement (docs/PERFORMANCE.md, "Python").

    python crates/py/bench/bench.py [--seconds S] [--qasab PATH] [--skip-openspiel]

(a) A Python loop of uniformly random play (one call per step, the throws drawn by their
    probabilities) on `tab` and `tihbat`: games per second, microseconds per action, and the
    overhead per action above the Rust core's own cost of a random playout (`qasab bench`).
(b) The same loop on OpenSpiel's C++ games backgammon and kalah ("mancala"), through pyspiel.
(c) qasab.simulate against the `qasab simulate` command, same players, games, seed and threads.

Needs the `qasab` package, and for (b) open-spiel; (a) and (c) run the `qasab` binary
(default: `qasab` on PATH).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import time

import numpy  # noqa: F401  (imported here, not inside the first qasab.simulate call)

import qasab


def python_loop(new_state, seconds, seed=1):
    """Random games until `seconds` have passed: (games, actions, elapsed seconds)."""
    rng = random.Random(seed)
    rand = rng.random
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        s = new_state()
        while not s.is_terminal():
            if s.is_chance_node():
                x = rand()
                a = -1
                for a, p in s.chance_outcomes():
                    x -= p
                    if x < 0.0:
                        break
            else:
                legal = s.legal_actions()
                a = legal[int(rand() * len(legal))]
            s.apply_action(a)
            actions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, actions, now - start


def rust_ns_per_action(binary, ruleset, seconds):
    out = subprocess.run(
        [binary, "bench", ruleset, "--seconds", str(seconds), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    row = json.loads(out)[0]
    return row["ns_per_action"], row["playouts_per_second"]


def report_loop(label, games, actions, elapsed, rust_ns=None):
    us = elapsed / actions * 1e6
    line = f"  {label:<28} {games / elapsed:10.0f} games/s  {us:6.2f} µs/action  {actions / games:7.1f} actions/game"
    if rust_ns is not None:
        line += f"  overhead {us - rust_ns / 1000:5.2f} µs/action (Rust {rust_ns:.0f} ns)"
    print(line, flush=True)


def simulate_pair(binary, ruleset, players, games, seed, threads, repeats=5):
    """Median wall seconds of `repeats` alternated runs of qasab.simulate and of the command
    (a new process each time, its start included)."""
    py_times, cli_times = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        qasab.simulate(ruleset, players=players, games=games, seed=seed, threads=threads)
        py_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        subprocess.run(
            [binary, "simulate", ruleset, "--games", str(games), "--players", ",".join(players),
             "--seed", str(seed), "--threads", str(threads), "--json"],
            check=True, capture_output=True,
        )
        cli_times.append(time.perf_counter() - t)
    return statistics.median(py_times), statistics.median(cli_times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="per measurement (default 5)")
    ap.add_argument("--qasab", default="qasab", help="the qasab binary (default: on PATH)")
    ap.add_argument("--skip-openspiel", action="store_true")
    args = ap.parse_args()

    print("(a) Python loop of random play on qasab games, one thread")
    for ruleset in ("tab", "tihbat"):
        game = qasab.load_game(ruleset)
        rust_ns, _ = rust_ns_per_action(args.qasab, ruleset, args.seconds)
        report_loop(ruleset, *python_loop(game.new_initial_state, args.seconds), rust_ns)

    if not args.skip_openspiel:
        import pyspiel

        print("(b) the same loop on OpenSpiel's C++ games through pyspiel, one thread")
        for name in ("backgammon", "mancala"):
            game = pyspiel.load_game(name)
            report_loop(f"{name} (pyspiel)", *python_loop(game.new_initial_state, args.seconds))

    print("(c) qasab.simulate against `qasab simulate` (median wall seconds of 5 alternated runs;")
    print("    the command's process start included)")
    qasab.simulate("tihbat", games=1)  # warm up: the first call loads what it needs once
    cores = os.cpu_count() or 1
    for ruleset, games in (("tab", 20000), ("tihbat", 200000)):
        for threads in sorted({1, cores}):
            py, cli = simulate_pair(args.qasab, ruleset, ("random", "random"), games, 1, threads)
            print(f"  {ruleset:<8} {games:>7} games random,random, {threads} thread(s): "
                  f"qasab.simulate {py:6.3f} s, qasab simulate {cli:6.3f} s, "
                  f"ratio {py / cli:5.3f}", flush=True)


if __name__ == "__main__":
    main()
