"""qasab.distributed: Qasab's long jobs on a Ray cluster, with the results of one machine.

``arena``, ``simulate`` and ``study`` take the arguments of the ``qasab`` commands of the same
names and return the JSON object that the command prints with ``--json`` (as a dict). The
games are split into seeded chunks; each chunk is a Ray task that plays its games in Rust
without the GIL, with exactly the seeds the one-machine run gives them, and the driver merges
the chunks' results in Rust into the command's report. Only the fields that describe the run
(``seconds`` and ``threads`` of ``simulate``) depend on where it ran.

``train`` runs ``qasab train``'s self-play training: the driver holds the network and learns,
each batch's games are played by the workers with the network's weights, broadcast through
Ray's object store. The weights depend on the seed and the settings only, not on the
workers, and the same code runs on one machine without Ray (``use_ray=False``).

    >>> from qasab import distributed
    >>> report = distributed.simulate("tihbat", players="random,random", games=100, seed=1)
    >>> report["games"]
    100

Ray and tqdm are the optional extra ``ray`` (``pip install qasab[ray]``); without Ray,
``use_ray=False`` plays the chunks in this process. The command line is ``python -m
qasab.distributed arena|simulate|study|train ...``. See docs/distributed.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import tempfile
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .. import __version__
from .._qasab import ArgumentError, Job, Trainer
from .._qasab import self_play_games as _self_play_games

__all__ = [
    "ArgumentError",
    "Job",
    "Trainer",
    "arena",
    "default_cache",
    "run_job",
    "run_job_text",
    "simulate",
    "study",
    "train",
]

#: The most games one task plays when ``chunk_games`` is not given.
MAX_CHUNK_GAMES = 10_000

#: How many times Ray runs a chunk again whose worker died.
DEFAULT_RETRIES = 3

#: For the test of worker death: the name of a directory. While it holds a file ``armed``
#: whose text is a unit number, the first task to play the chunk that starts there moves
#: ``armed`` to ``fired`` and ends its worker process at once, as a crash would.
_EXIT_ONCE = "QASAB_DISTRIBUTED_EXIT_ONCE"


def default_cache() -> str:
    """The directory where finished chunks are kept unless ``cache`` says otherwise:
    ``$QASAB_CACHE/distributed``, else ``$XDG_CACHE_HOME/qasab/distributed``, else
    ``~/.cache/qasab/distributed``."""
    base = os.environ.get("QASAB_CACHE")
    if base:
        return os.path.join(base, "distributed")
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "qasab", "distributed")


def _write_atomically(path: str, data: Union[str, bytes]) -> None:
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class _Store:
    """The finished chunks of one job: ``DIR/<command>-<hash>/`` holds ``job.json`` (the
    canonical arguments and the package version that the hash is of) and one file of results
    per chunk, ``<first>-<count>.json``, written whole or not at all."""

    def __init__(self, root: str, job: Job) -> None:
        identity = json.dumps({"job": json.loads(job.to_json()), "version": __version__},
                              sort_keys=True)
        digest = hashlib.sha256(identity.encode()).hexdigest()[:20]
        self.dir = os.path.join(root, f"{job.command}-{digest}")
        os.makedirs(self.dir, exist_ok=True)
        meta = os.path.join(self.dir, "job.json")
        if not os.path.exists(meta):
            _write_atomically(meta, identity + "\n")

    def chunks(self, units: int) -> List[Tuple[int, int]]:
        """The stored chunks, ``(first, count)``."""
        out = []
        for name in os.listdir(self.dir):
            stem, ext = os.path.splitext(name)
            parts = stem.split("-")
            if ext != ".json" or len(parts) != 2 or not all(p.isdigit() for p in parts):
                continue
            first, count = int(parts[0]), int(parts[1])
            if count < 1 or first + count > units:
                continue
            out.append((first, count))
        return out

    def read(self, first: int, count: int) -> str:
        """The results of a stored chunk."""
        with open(os.path.join(self.dir, f"{first}-{count}.json"), encoding="utf-8") as f:
            return f.read()

    def save(self, first: int, count: int, results: str) -> None:
        _write_atomically(os.path.join(self.dir, f"{first}-{count}.json"), results)


def _chunks(job: Job, chunk_games: int, done: Iterable[Tuple[int, int]]
            ) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]:
    """The stored chunks that are kept (no two overlapping), and the chunks still to play,
    which fill the gaps between them with about ``chunk_games`` games each."""
    units = job.units()
    kept: List[Tuple[int, int]] = []
    end = 0
    for first, count in sorted(done):
        if first >= end:
            kept.append((first, count))
            end = first + count
    if job.command == "study":
        sizes = job.unit_games()
    else:
        per_unit = 2 if job.command == "arena" else 1
        step = max(1, chunk_games // per_unit)
        sizes = None
    todo: List[Tuple[int, int]] = []
    gaps = []
    at = 0
    for first, count in kept + [(units, 0)]:
        if first > at:
            gaps.append((at, first))
        at = first + count
    for lo, hi in gaps:
        u = lo
        while u < hi:
            if sizes is None:
                n = min(step, hi - u)
            else:
                n, games = 0, 0
                while u + n < hi and (n == 0 or games + sizes[u + n] <= chunk_games):
                    games += sizes[u + n]
                    n += 1
            todo.append((u, n))
            u += n
    return kept, todo


def _games(job: Job, sizes: Optional[List[int]], first: int, count: int) -> int:
    if sizes is not None:
        return sum(sizes[first:first + count])
    return count * (2 if job.command == "arena" else 1)


def _connect(address: Optional[str], quiet: bool = True):
    """Ray, connected: to the cluster at ``address`` (``"auto"``, ``"ray://host:10001"``,
    ``"host:6379"``), or, without one, to ``$RAY_ADDRESS`` or a new local cluster."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError(
            "qasab.distributed needs Ray: pip install 'qasab[ray]' (or use_ray=False to play "
            "on this machine without it)") from e
    if not ray.is_initialized():
        kwargs: Dict[str, Any] = {"log_to_driver": not quiet}
        if quiet:
            import logging
            kwargs["logging_level"] = logging.WARNING
        if address is None and not os.environ.get("RAY_ADDRESS"):
            kwargs["include_dashboard"] = False
        ray.init(address=address, **kwargs)
    return ray


def _cluster_cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _exit_once(first: int) -> None:
    """The fault of the worker-death test (``QASAB_DISTRIBUTED_EXIT_ONCE``)."""
    folder = os.environ.get(_EXIT_ONCE)
    if not folder:
        return
    armed = os.path.join(folder, "armed")
    try:
        with open(armed, encoding="utf-8") as f:
            at = f.read().strip()
    except OSError:
        return
    if at == str(first):
        try:
            os.rename(armed, os.path.join(folder, "fired"))
        except OSError:
            return  # another attempt fired first
        os._exit(1)


def _run_chunk(job: Job, first: int, count: int) -> str:
    """A task: plays one chunk in Rust, without the GIL."""
    _exit_once(first)
    return job.run(first, count)


def _play_chunk_games(ruleset: str, network: bytes, seed: int, lambda_: float, first: int,
                      count: int) -> bytes:
    """A task: plays self-play games with the broadcast weights."""
    return _self_play_games(ruleset, network, seed, lambda_, first, count)


_REMOTE: Dict[str, Any] = {}


def _remote(ray, fn, retries: int):
    key = fn.__name__
    if key not in _REMOTE:
        _REMOTE[key] = ray.remote(num_cpus=1)(fn)
    return _REMOTE[key].options(max_retries=retries, retry_exceptions=False)


def _bar(total: int, initial: int, progress: bool, what: str):
    if not progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=initial, unit="game", desc=what, file=sys.stderr,
                dynamic_ncols=True)


def run_job(job: Job, **options: Any) -> Optional[Dict[str, Any]]:
    """Plays a job (``Job.arena``, ``Job.simulate``, ``Job.study``) in chunks and returns the
    command's JSON object, or ``None`` if ``max_chunks`` stopped it before the end.

    * ``address``: the Ray cluster (``"auto"``, ``"ray://host:10001"``); ``None`` connects to
      ``$RAY_ADDRESS`` or starts a local cluster. Ignored if Ray is already initialised.
    * ``chunk_games``: games per task (whole units: a game pair of an arena, a chunk of 8 game
      pairs of a study); by default the games split into about 4 tasks per CPU of the cluster,
      at most ``MAX_CHUNK_GAMES`` each. The results do not depend on it.
    * ``cache``: the directory where finished chunks are kept (``default_cache()`` if
      ``None``; ``False`` keeps none). A driver run again with the same arguments plays only
      the chunks that are missing.
    * ``max_chunks``: play at most this many chunks, then stop (run again to go on).
    * ``retries``: how many times Ray plays a chunk again whose worker died.
    * ``progress``: a progress bar (tqdm) on standard error.
    * ``use_ray``: ``False`` plays the chunks here, one after another, without Ray.
    """
    text = run_job_text(job, **_options(options))
    return None if text is None else json.loads(text)


def run_job_text(job: Job, *, address: Optional[str] = None,
                 chunk_games: Optional[int] = None, cache: Union[str, bool, None] = None,
                 max_chunks: Optional[int] = None, retries: int = DEFAULT_RETRIES,
                 progress: bool = True, use_ray: bool = True) -> Optional[str]:
    """``run_job``, returning the JSON text exactly as the command prints it (``None`` if
    stopped early)."""
    if chunk_games is not None and chunk_games < 1:
        raise ArgumentError(f"chunk_games must be at least 1; got {chunk_games}")
    if max_chunks is not None and max_chunks < 0:
        raise ArgumentError(f"max_chunks must be at least 0; got {max_chunks}")
    units = job.units()
    sizes = job.unit_games() if job.command == "study" else None
    total = _games(job, sizes, 0, units)
    store = None
    if cache is not False:
        store = _Store(default_cache() if cache in (None, True) else str(cache), job)
    done = store.chunks(units) if store else []
    ray = _connect(address) if use_ray and units > 0 else None
    cpus = _cluster_cpus(ray) if ray else 1
    if chunk_games is None:
        chunk_games = min(MAX_CHUNK_GAMES, max(1, math.ceil(total / (4 * cpus))))
    kept, todo = _chunks(job, chunk_games, done)
    # The results, parsed as they arrive (a few tens of bytes a game, not their JSON text).
    results = job.results()
    for first, count in kept:
        results.add(first, store.read(first, count))
    if max_chunks is not None:
        todo = todo[:max_chunks]
    played_games = sum(_games(job, sizes, f, c) for f, c in kept)
    if kept:
        print(f"qasab.distributed: {len(kept)} chunks ({played_games} games) already played, "
              f"kept in {store.dir if store else ''}", file=sys.stderr)
    bar = _bar(total, played_games, progress and bool(todo), job.command)
    started = time.perf_counter()

    def finish(first: int, count: int, text: str) -> None:
        if store:
            store.save(first, count, text)
        results.add(first, text)
        if bar is not None:
            bar.update(_games(job, sizes, first, count))

    try:
        if ray is not None and todo:
            task = _remote(ray, _run_chunk, retries)
            job_ref = ray.put(job)
            pending = {task.remote(job_ref, f, c): (f, c) for f, c in todo}
            refs = list(pending)
            while refs:
                # The first chunk to finish, and every other one finished by then.
                ready, refs = ray.wait(refs, num_returns=1)
                if refs:
                    more, refs = ray.wait(refs, num_returns=len(refs), timeout=0)
                    ready += more
                for ref in ready:
                    first, count = pending.pop(ref)
                    finish(first, count, ray.get(ref))
        else:
            for first, count in todo:
                finish(first, count, job.run(first, count))
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    covered = results.units
    if covered < units:
        print(f"qasab.distributed: stopped with {covered} of {units} units played; run the "
              "same job again with the same cache to continue", file=sys.stderr)
        return None
    return results.merge(seconds, cpus)


def _options(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    allowed = {"address", "chunk_games", "cache", "max_chunks", "retries", "progress",
               "use_ray"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")
    return kwargs


def arena(ruleset: str, players: Union[str, Sequence[str]], games: int = 100, seed: int = 0,
          tables: Optional[Union[str, "os.PathLike[str]"]] = None,
          **options: Any) -> Optional[Dict[str, Any]]:
    """``qasab arena RULESET --players ... --games N --seed S [--tables DIR] --json`` on a
    cluster: the same object. ``players``: specs, as a list or one string separated by commas
    or spaces. ``tables``: a directory of endgame tables every player consults (default:
    ``QASAB_TABLES``), which every machine must see at the same path. ``options``: those of
    ``run_job``. Bad arguments raise ``ArgumentError`` with the command's message before
    anything is sent to the cluster."""
    words = players.split() if isinstance(players, str) else list(players)
    job = Job.arena(ruleset, words, games, seed, tables)
    return run_job(job, **options)


def simulate(ruleset: str, players: Union[str, Sequence[str]] = "random,random",
             games: int = 1000, seed: int = 0,
             tables: Optional[Union[str, "os.PathLike[str]"]] = None,
             **options: Any) -> Optional[Dict[str, Any]]:
    """``qasab simulate RULESET --players A,B --games N --seed S [--tables DIR] --json`` on a
    cluster: the same object, but for ``seconds`` (the driver's) and ``threads`` (the CPUs of
    the cluster). ``players``: ``"A,B"`` or ``[A, B]``. ``tables``: as for ``arena``.
    ``options``: those of ``run_job``."""
    text = players if isinstance(players, str) else ",".join(players)
    job = Job.simulate(ruleset, text, games, seed, tables)
    return run_job(job, **options)


def study(ruleset: Optional[str] = None, vary: Sequence[str] = (),
          variants: Optional[Union[str, os.PathLike]] = None,
          players: Union[str, Sequence[str]] = "greedy,greedy",
          skill: Optional[Union[str, Sequence[str]]] = None, games: int = 100,
          skill_games: Optional[int] = None, seed: int = 0, **options: Any
          ) -> Optional[Dict[str, Any]]:
    """``qasab study`` on a cluster: the object of ``--json``, whose ``command`` is the
    ``qasab study ... --json`` command line that gives the same object on one machine.
    ``vary``: the ``--vary KEY=V1,V2,...`` axes; ``variants``: a file of rulesets instead.
    ``options``: those of ``run_job``."""
    pair = lambda p: p if p is None or isinstance(p, str) else ",".join(p)  # noqa: E731
    job = Job.study(ruleset, list(vary), None if variants is None else os.fspath(variants),
                    pair(players), pair(skill), games, skill_games, seed)
    return run_job(job, **options)


def _stem_files(out: str) -> Tuple[str, str, str]:
    folder, name = os.path.split(out)
    stem = os.path.splitext(name)[0] or "net"
    return (os.path.join(folder, f"{stem}.checkpoint.safetensors"),
            os.path.join(folder, f"{stem}.curve.json"),
            os.path.join(folder, f"{stem}.best.safetensors"))


def train(ruleset: Optional[str] = None, games: Optional[int] = None, *, out: str,
          seed: int = 0, batch: int = 32, lambda_: float = 0.7, rate: Optional[float] = None,
          hidden: Tuple[int, int] = (128, 32), curve_every: int = 1000, curve_pairs: int = 100,
          resume: Optional[str] = None, address: Optional[str] = None, use_ray: bool = True,
          retries: int = DEFAULT_RETRIES, threads: int = 0, progress: bool = True,
          max_batches: Optional[int] = None, across: bool = False,
          start: Optional[str] = None) -> Trainer:
    """``qasab train``'s self-play training, its games played on a cluster. Writes, as the
    command does, the network to ``out``, and beside it ``STEM.checkpoint.safetensors`` after
    every batch (which ``resume`` and ``qasab train --resume`` go on from),
    ``STEM.curve.json`` and ``STEM.best.safetensors`` (the network at the curve's best point
    so far, its score in the metadata key ``curve_score``). Returns the ``Trainer``.

    Each batch: the driver puts the network's weights in Ray's object store once, the batch's
    games are split among the cluster's CPUs, each worker plays its part with those weights
    and sends back the learnt states, and the driver learns from them in order: the weights
    are those of ``qasab train`` with the same seed and settings. ``use_ray=False`` plays the
    batches here on ``threads`` threads (0: every core). The learning curve's matches against
    ``greedy`` run on the driver; ``curve_every=0`` leaves them out. ``max_batches`` stops
    after that many batches (the checkpoint is kept). ``rate`` is Adam's step size (default
    0.001); with ``resume``, the run goes on at it from its next game, as ``qasab train
    --resume CHECKPOINT --rate R`` does, and without it at the checkpoint's. ``across=True``
    trains one network for the ruleset's whole family, each game on a reading drawn from its
    boards and rule options (``qasab train --across``); a resumed run keeps its checkpoint's
    choice. ``start=NETWORK`` starts a new run from that network's weights, encoding and
    layer sizes (``qasab train --start``: fine-tuning a reading from its preset's or
    family's network)."""
    checkpoint_path, curve_path, best_path = _stem_files(out)
    if resume is not None:
        with open(resume, "rb") as f:
            trainer = Trainer.resume(f.read(), games, threads)
        if rate is not None:
            trainer.set_rate(rate)
    else:
        if ruleset is None or games is None:
            raise ArgumentError("a new run needs a ruleset and games (or resume=CHECKPOINT)")
        if start is not None:
            chosen_start = {"start": start}
        else:
            chosen_start = {}
        # Without a rate, the Trainer's own default.
        chosen = {} if rate is None else {"rate": rate}
        trainer = Trainer(ruleset, games, seed, batch, lambda_, hidden=tuple(hidden),
                          curve_every=curve_every, curve_pairs=curve_pairs, threads=threads,
                          across=across, **chosen, **chosen_start)
    ray = _connect(address) if use_ray and not trainer.finished() else None
    cpus = _cluster_cpus(ray) if ray else 1
    o = trainer.options
    bar = _bar(o["games"], trainer.games_done, progress, "train")
    batches = 0
    try:
        while not trainer.finished() and (max_batches is None or batches < max_batches):
            if ray is not None:
                first, n = trainer.next_batch()
                weights = ray.put(trainer.network())
                task = _remote(ray, _play_chunk_games, retries)
                parts = min(n, cpus)
                bounds = [first + n * k // parts for k in range(parts + 1)]
                refs = [task.remote(trainer.ruleset, weights, o["seed"], o["lambda_"], lo,
                                    hi - lo)
                        for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
                report = trainer.learn(ray.get(refs))
            else:
                report = trainer.step()
            batches += 1
            if bar is not None:
                bar.update(report["games"])
                bar.set_postfix(loss=f"{report['loss']:.4f}")
            if report["point"] is not None:
                _write_atomically(curve_path, trainer.curve_json())
            if report["best"] is not None:
                _write_atomically(best_path, report["best"])
            _write_atomically(checkpoint_path, trainer.checkpoint())
    finally:
        if bar is not None:
            bar.close()
    if trainer.finished():
        _write_atomically(out, trainer.network())
        _write_atomically(curve_path, trainer.curve_json())
    return trainer
