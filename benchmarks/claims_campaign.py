"""Peers apart while their programs keep running: do the records still tell one story?

Separate processes over loopback (``tests/net/splits.py``): 2 and 3 peers, both games, the
link of the host or of a guest cut by the userspace relay, or that peer's process stopped
with SIGSTOP, for 40 s and 70 s, at round 2; the default idle timeout (30 s) and a stall
timeout of 20 s, so that a 70 s separation makes the peers sign stall claims and a 40 s one
may or may not. Each run ends when every peer has ended; its records are compared: one story
is the same finished game (identical records) or the same signed abort in every record.
Prints one line per run and the count of runs whose records agree. One run at a time (about
two minutes each); not part of the test suite.

    python benchmarks/claims_campaign.py                  # the whole matrix (32 runs)
    python benchmarks/claims_campaign.py --runs 4 --seconds 40 --fault stop
"""

from __future__ import annotations

import argparse
import collections
import itertools
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from tests.net.splits import Result, Split, run  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["cartus", "rattus"])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--fault", nargs="+", default=["cut", "stop"], choices=["cut", "stop"])
    ap.add_argument("--seconds", type=float, nargs="+", default=[40.0, 70.0])
    ap.add_argument("--target", nargs="+", default=["host", "guest"], choices=["host", "guest"])
    ap.add_argument("--stall", type=float, default=20.0)
    ap.add_argument("--idle", type=float, default=30.0)
    ap.add_argument("--linger", type=float, default=120.0)
    ap.add_argument("--runs", type=int, default=0, help="stop after this many runs (0: all)")
    ap.add_argument("--keep", action="store_true", help="keep each run's data directories")
    args = ap.parse_args()
    matrix = list(
        itertools.product(args.games, args.players, args.fault, args.seconds, args.target)
    )
    if args.runs:
        matrix = matrix[: args.runs]
    stories: collections.Counter[str] = collections.Counter()
    failed: list[Result] = []
    for i, (game, players, fault, seconds, target) in enumerate(matrix):
        split = Split(
            game, players, fault, seconds, target, args.stall, args.idle, args.linger, seed=i + 1
        )
        tmp = Path(tempfile.mkdtemp(prefix="claims-"))
        try:
            result = run(split, tmp)
        except AssertionError as exc:  # the table did not start, or a peer never ended
            print(f"{i + 1:>2}. {split.label()}: did not complete: {str(exc)[:300]}", flush=True)
            stories["did not complete"] += 1
            continue
        finally:
            if not args.keep:
                shutil.rmtree(tmp, ignore_errors=True)
        stories[result.story] += 1
        if result.story in ("contradicting", "missing"):
            failed.append(result)
        print(
            f"{i + 1:>2}. {split.label()}: {result.story} ({', '.join(result.verdicts())}; "
            f"exit {result.codes}; {result.seconds:.0f} s)",
            flush=True,
        )
    agree = stories["finished"] + stories["one abort"]
    print(f"runs: {sum(stories.values())}, records agree: {agree}")
    for story, count in sorted(stories.items()):
        print(f"  {story:<18} {count}")
    for result in failed:
        print(f"--- {result.split.label()}: {result.story}")
        for out in result.outs:
            print("    " + "\n    ".join(out.strip().splitlines()[-6:]))
    return 0 if agree == sum(stories.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
