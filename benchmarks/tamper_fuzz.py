"""The tamper fuzzers at scale: random changes of honest records of 2 to 5 players, and
moves a peer could send in both games.

For every change (bit flips anywhere in a frame or in the record, dropped, duplicated,
swapped, foreign, spliced frames, truncations, a frame re-signed with its author's own key
after an edit) ``rattus verify`` must not say FAIR, must not raise anything but a one-line
format error, and may name a cheater only on a message the named seat signed that an
independent replay confirms (tests/recordkit.py: ``check_verdict``). Prints the counts per
change and verdict. The test suite runs a small seeded sample of the same
(tests/protocol/test_protocol_tamper_fuzz.py).

The move fuzzer (``tests/movefuzz.py``; ``--moves``, 10^5 cases by default, half per game):
move texts and wire forms with numbers of other scripts, signs, spaces, huge numbers and every
field of the wire map changed, through the text parser, the wire parser, the engine and (one
case in ``--session-every``) a live session receiving the peer's signed message. Prints the
outcomes per layer and the count of unexpected exceptions, which must be 0
(tests/protocol/test_move_fuzz.py runs a few hundred).

    python benchmarks/tamper_fuzz.py --cases 200 --players 2 3 4 5 --seed 1
    python benchmarks/tamper_fuzz.py --only moves --moves 100000
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

# (the record kit and the move fuzzer are the tests' own helpers)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import recordkit as K


def moves(count: int, seed: int, session_every: int) -> int:
    """The move fuzzer: ``count`` cases, half per game; returns the unexpected outcomes."""
    import movefuzz as M

    figures = M.Figures()
    start = time.perf_counter()
    for i, game in enumerate(M.GAMES):
        M.points(game)  # (the decision points: a seeded game in memory)
        M.run(game, count // len(M.GAMES), seed * 10 + i, session_every, figures)
    secs = time.perf_counter() - start
    print(
        f"moves: {figures.cases} cases in {secs:.1f} s ({figures.sessions} through a live "
        f"session), unexpected exceptions: {figures.unexpected}"
    )
    for what, c in sorted(figures.outcomes.items()):
        print(f"  {what:<28} {c}")
    for line in figures.failures[:20]:
        print(f"  {line}")
    return figures.unexpected


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200, help="record changes per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--moves", type=int, default=100_000, help="move fuzzer cases")
    ap.add_argument("--session-every", type=int, default=10, help="1 move case in N: a session")
    ap.add_argument("--only", choices=["records", "moves"], default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    failures = 0
    if args.only != "records":
        failures += moves(args.moves, args.seed, args.session_every)
    if args.only == "moves":
        print(f"violations: {failures}")
        return 1 if failures else 0
    for n in args.players:
        rec, params, secrets = K.honest(n, 100 + n)
        other = K.honest(n, 100 + n, b"\x05" * 32)[0]
        rng = random.Random(args.seed * 1000 + n)
        counts: collections.Counter[tuple[str, str]] = collections.Counter()
        start = time.perf_counter()
        for case in range(args.cases):
            what, data, keys = K.mutate(rec, params, secrets, rng, other)
            try:
                kind = K.check_verdict(rec, data, params, keys)
            except AssertionError as exc:
                failures += 1
                kind = "VIOLATION"
                print(f"  {n} players, case {case} ({what}, keys {sorted(keys)}): {exc}")
            except Exception as exc:  # a traceback is a failure too
                failures += 1
                kind = "CRASH"
                print(f"  {n} players, case {case} ({what}): {type(exc).__name__}: {exc}")
            counts[(what, kind)] += 1
        secs = time.perf_counter() - start
        print(f"{n} players: {args.cases} changes in {secs:.1f} s ({len(rec)} byte record)")
        for (what, kind), c in sorted(counts.items()):
            print(f"  {what:<15} {kind:<10} {c}")
    print(f"violations: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
