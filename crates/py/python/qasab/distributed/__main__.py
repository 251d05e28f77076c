"""``python -m qasab.distributed arena|simulate|study|train ...``: the ``qasab`` commands of the
same names on a Ray cluster. The flags are the command's; arena, simulate and study print the
object that the command prints with ``--json`` (``--json`` is accepted and changes nothing).
Bad arguments get the command's one-line error, before anything is sent to the cluster."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from . import ArgumentError, DEFAULT_RETRIES, Job, run_job_text, train
from .._qasab import QasabError


def _cluster_flags(p: argparse.ArgumentParser, chunks: bool = True) -> None:
    g = p.add_argument_group("cluster")
    g.add_argument("--address", default=None,
                   help="the Ray cluster: auto, ray://HOST:10001 or HOST:6379 (default: "
                        "$RAY_ADDRESS, else a new local cluster)")
    g.add_argument("--no-ray", action="store_true",
                   help="play here, without Ray")
    g.add_argument("--retries", type=int, default=DEFAULT_RETRIES,
                   help="times a task whose worker died is run again (default %(default)s)")
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    if chunks:
        g.add_argument("--chunk-games", type=int, default=None, metavar="N",
                       help="games per task (default: about 4 tasks per CPU of the cluster)")
        g.add_argument("--cache", default=None, metavar="DIR",
                       help="where finished chunks are kept, so that a run started again "
                            "plays only the missing ones (default: ~/.cache/qasab/distributed)")
        g.add_argument("--no-cache", action="store_true", help="keep no chunks")
        g.add_argument("--max-chunks", type=int, default=None, metavar="N",
                       help="play at most N chunks, then stop (run again to continue)")


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m qasab.distributed",
        description="Qasab's arena, simulate, study and train on a Ray cluster, with the "
                    "results of one machine (docs/distributed.md).")
    sub = top.add_subparsers(dest="command", required=True)

    a = sub.add_parser("arena", help="a round robin between players (qasab arena)")
    a.add_argument("ruleset")
    a.add_argument("--players", nargs="+", required=True, metavar="SPEC")
    a.add_argument("--games", type=int, default=100)
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--tables", metavar="DIR", default=None,
                   help="endgame tables every player consults (default: QASAB_TABLES); "
                        "every machine must see them at the same path")
    a.add_argument("--json", action="store_true")
    _cluster_flags(a)

    s = sub.add_parser("simulate", help="many games between two players (qasab simulate)")
    s.add_argument("ruleset")
    s.add_argument("--players", default="random,random")
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--tables", metavar="DIR", default=None,
                   help="endgame tables both players consult (default: QASAB_TABLES); "
                        "every machine must see them at the same path")
    s.add_argument("--json", action="store_true")
    _cluster_flags(s)

    st = sub.add_parser("study", help="the variant laboratory (qasab study)")
    st.add_argument("ruleset", nargs="?")
    st.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2,...")
    st.add_argument("--variants", metavar="FILE")
    st.add_argument("--players", default="greedy,greedy")
    st.add_argument("--skill", metavar="STRONG,WEAK")
    st.add_argument("--games", type=int, default=100)
    st.add_argument("--skill-games", type=int, metavar="N")
    st.add_argument("--seed", type=int, default=0)
    st.add_argument("--json", action="store_true")
    _cluster_flags(st)

    t = sub.add_parser("train", help="self-play training of a network (qasab train)")
    t.add_argument("ruleset", nargs="?")
    t.add_argument("--games", type=int)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", required=True, metavar="FILE")
    t.add_argument("--resume", metavar="CHECKPOINT")
    t.add_argument("--batch", type=int, default=32)
    t.add_argument("--lambda", dest="lambda_", type=float, default=0.7)
    t.add_argument("--rate", type=float, default=None,
                   help="Adam's step size (default 0.001); with --resume, the run goes on at it")
    t.add_argument("--hidden", default="128,32", metavar="H1,H2")
    t.add_argument("--curve-every", type=int, default=1000)
    t.add_argument("--curve-pairs", type=int, default=100)
    t.add_argument("--across", action="store_true",
                   help="one network for the family: each game on a reading drawn from its "
                        "boards and rule options (qasab train --across)")
    t.add_argument("--start", metavar="NETWORK",
                   help="start from this network's weights (qasab train --start)")
    t.add_argument("--threads", type=int, default=0,
                   help="threads with --no-ray (0: every core)")
    _cluster_flags(t, chunks=False)
    return top


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "train":
            try:
                h1, h2 = (int(x) for x in args.hidden.split(","))
            except ValueError:
                raise ArgumentError(
                    f"--hidden {args.hidden}: expected two unit counts, H1,H2 (such as 128,32)")
            trainer = train(args.ruleset, args.games, out=args.out, seed=args.seed,
                            batch=args.batch, lambda_=args.lambda_, rate=args.rate,
                            hidden=(h1, h2), curve_every=args.curve_every,
                            curve_pairs=args.curve_pairs, resume=args.resume,
                            address=args.address, use_ray=not args.no_ray,
                            retries=args.retries, threads=args.threads,
                            progress=not args.quiet, across=args.across,
                            start=args.start)
            print(f"{trainer.games_done} games of {trainer.ruleset}: network in {args.out}")
            return 0
        # Checked here, before connecting to the cluster.
        if args.command == "arena":
            job = Job.arena(args.ruleset, args.players, args.games, args.seed, args.tables)
        elif args.command == "simulate":
            job = Job.simulate(args.ruleset, args.players, args.games, args.seed, args.tables)
        else:
            job = Job.study(args.ruleset, args.vary, args.variants, args.players, args.skill,
                            args.games, args.skill_games, args.seed)
        result = run_job_text(job, address=args.address, chunk_games=args.chunk_games,
                         cache=False if args.no_cache else args.cache,
                         max_chunks=args.max_chunks, retries=args.retries,
                         progress=not args.quiet, use_ray=not args.no_ray)
    except (QasabError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if result is not None:
        print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
