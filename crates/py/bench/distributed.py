"""Speed of qasab.distributed: not a test, a measurement (docs/PERFORMANCE.md, "Ray").

    python crates/py/bench/distributed.py [--qasab PATH] [--runs N] [--quick]

Every run is timed twice: wall seconds, and CPU seconds of every process it used (for a run on
Ray, the driver and all its descendants: Ray's own processes and its workers; for the command,
its process). On a machine that other work shares, the CPU seconds are the steadier figure.

(a) Games per second of a simulation and of an arena played by qasab.distributed on a local
    Ray cluster of 1 and of 2 CPUs (one worker each), against the `qasab` command on 1 and 2
    threads; the same games, seed and results.
(b) The overhead of one task: 400 chunks of one cheap game each (Tihbat, random against random,
    about 10 µs a game): the CPU seconds of the run less those of the same games played in one
    chunk in the driver's process, per task.
(c) The overhead's share against the chunk size: 200,000 games of `tab`, random against random
    (tens of µs a game), in chunks of more and more games, each chunk a task that times its
    own games inside the worker. The overhead is the workers' wall time (the run's wall time
    times the workers) less the seconds the chunks took inside them: scheduling, transport of
    the job and of the results, idle workers at the end. Measured this way it does not
    depend on how fast the machine runs the games, which on a shared virtual machine moves by
    half from one run to the next.

Each figure is the median of `--runs` runs. Needs the `qasab` package with the extra `ray`,
and the `qasab` binary (default: `qasab` on PATH), both release builds. Linux (reads /proc).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import time

import ray

from qasab import distributed
from qasab.distributed import Job

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu():
    """CPU seconds of this process and of every live descendant (and the children they
    waited for)."""
    parent, cpu = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(pid)] = int(fields[1])
        cpu[int(pid)] = sum(int(x) for x in fields[11:15]) / TICK
    me = os.getpid()
    total = 0.0
    for pid in cpu:
        p = pid
        while p not in (me, 0, 1) and p in parent:
            p = parent[p]
        if p == me:
            total += cpu[pid]
    return total


def measured(fn, runs):
    """Median wall seconds and median CPU seconds of `fn()`."""
    walls, cpus = [], []
    for _ in range(runs):
        c, t = tree_cpu(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(tree_cpu() - c)
    return statistics.median(walls), statistics.median(cpus)


def command(qasab, args, runs):
    """Median wall and CPU seconds of the qasab command (with its process start)."""
    def once():
        subprocess.run([qasab, *args, "--json"], check=True, capture_output=True)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        once()
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def on_ray(job, runs, **options):
    return measured(lambda: distributed.run_job_text(job, cache=False, progress=False,
                                                     **options), runs)


@ray.remote(num_cpus=1)
def timed_chunk(job, first, count):
    """A chunk as `qasab.distributed` plays it (`Job.run`, the results' JSON back), and the
    seconds it took inside the worker."""
    t = time.perf_counter()
    results = job.run(first, count)
    return time.perf_counter() - t, results


def start(cpus):
    if ray.is_initialized():
        ray.shutdown()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    # Warm up: start the workers and import the package in them.
    distributed.run_job_text(Job.simulate("tihbat", "random,random", 4 * cpus, 0),
                             chunk_games=1, cache=False, progress=False)


def show(row):
    print(json.dumps(row), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--qasab", default="qasab")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="smaller workloads")
    a = p.parse_args()
    q = 4 if a.quick else 1
    sim = ("tab", "greedy,greedy", 200 // q, 1)
    arena = ("tab", ["greedy", "random", "mcts(level=1)"], 40 // q, 1)
    for cpus in (1, 2):
        start(cpus)
        for name, job, games, args in [
            ("simulate", Job.simulate(*sim), sim[2],
             ["simulate", sim[0], "--players", sim[1], "--games", str(sim[2]), "--seed", "1"]),
            ("arena", Job.arena(*arena), 3 * arena[2],
             ["arena", arena[0], "--players", *arena[1], "--games", str(arena[2]), "--seed",
              "1"]),
        ]:
            wall, cpu = on_ray(job, a.runs)
            cwall, ccpu = command(a.qasab, [*args, "--threads", str(cpus)], a.runs)
            show({"workers": cpus, "job": name, "games": games,
                  "command games/s": round(games / cwall, 2),
                  "ray games/s": round(games / wall, 2),
                  "command CPU ms/game": round(1000 * ccpu / games, 2),
                  "ray CPU ms/game": round(1000 * cpu / games, 2)})

        tasks = 400
        job = Job.simulate("tihbat", "random,random", tasks, 1)
        wall, cpu = on_ray(job, a.runs, chunk_games=1)
        _, alone = on_ray(job, a.runs, use_ray=False, chunk_games=tasks)
        show({"workers": cpus, "tasks": tasks, "wall s": round(wall, 3),
              "wall ms per task": round(1000 * wall / tasks, 2),
              "CPU ms per task": round(1000 * (cpu - alone) / tasks, 2)})

        games = 200_000 // q
        job = Job.simulate("tab", "random,random", games, 1)
        job_ref = ray.put(job)
        for chunk in (100, 300, 1000, 3000, 10_000):
            if chunk > games // cpus:
                continue
            runs = []
            for _ in range(a.runs):
                t = time.perf_counter()
                refs = [timed_chunk.remote(job_ref, f, min(chunk, games - f))
                        for f in range(0, games, chunk)]
                inside = sum(seconds for seconds, _ in ray.get(refs))
                wall = time.perf_counter() - t
                runs.append((cpus * wall - inside, inside))
            overhead, inside = statistics.median_low(runs)
            tasks = -(-games // chunk)
            show({"workers": cpus, "tab random games": games, "chunk": chunk, "tasks": tasks,
                  "games s": round(inside, 3), "overhead s": round(overhead, 3),
                  "overhead ms per task": round(1000 * overhead / tasks, 2),
                  "overhead share": round(overhead / inside, 3)})
    ray.shutdown()


if __name__ == "__main__":
    main()
