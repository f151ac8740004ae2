"""Full 4-player games per second with random bots on the local table, in one process.

Run: python benchmarks/engine.py [--games N] [--players P] [--bots KIND]
Target (issue: foundation): at least 500 games/s on the 2-core reference machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rattus_net.selfplay import play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rates = []
    decisions = 0
    for r in range(args.repeats):
        start = time.perf_counter()
        for seed in range(args.games):
            played = play_game(args.players, r * args.games + seed, [args.bots])
            decisions += len(played.game.history)
        elapsed = time.perf_counter() - start
        rates.append(args.games / elapsed)
        print(f"run {r + 1}: {args.games} games in {elapsed:.2f} s = {rates[-1]:.0f} games/s")
    per_game = decisions / (args.games * args.repeats)
    print(
        f"{args.players}-player games with {args.bots} bots: median {statistics.median(rates):.0f} "
        f"games/s (best {max(rates):.0f}); {per_game:.0f} decisions per game"
    )


if __name__ == "__main__":
    main()
