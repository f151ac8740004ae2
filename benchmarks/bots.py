"""Seeded bot tournaments with win rates and 95% Wilson confidence intervals.

Each match-up seats one *focal* bot against copies of an opponent kind; the focal seat rotates
with the game number so that no seat position is favoured, and game ``g`` uses table seed
``seed + g`` (so two runs with the same options play the same deals). A shared win counts as a
fraction. Games run in worker processes (``--jobs``); progress goes to stdout line by line.

    python benchmarks/bots.py --games 100 --seconds 0.5 --jobs 2
    python benchmarks/bots.py --matchups heuristic-random-4,heuristic-random-2 --games 400
    python benchmarks/bots.py --vs openspiel --games 100 --seconds 0.5

``--vs openspiel`` plays our search against OpenSpiel's ISMCTS in both games instead, and
prints an Elo ladder (``vs_openspiel.py``; needs the ``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rattus_net.bots.arena import play_game
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.config import GameConfig
from rattus_net.kit.interface import Budget
from rattus_net.kit.registry import get_game

CARTUS = get_game("cartus")


def first_game(n: int) -> GameConfig:
    """The first game's buildings, players P1, P2... (the arena's games here)."""
    return GameConfig(GameConfig.default_names(n))


MATCHUPS = {
    "search-heuristic-4": ("search", "heuristic", 4),
    "search-heuristic-2": ("search", "heuristic", 2),
    "heuristic-random-4": ("heuristic", "random", 4),
    "heuristic-random-2": ("heuristic", "random", 2),
}


@dataclass(frozen=True)
class Job:
    focal: str
    other: str
    n: int
    game: int
    seed: int
    seconds: float | None
    iterations: int | None


@dataclass(frozen=True)
class Outcome:
    win: float  # the focal bot's share of the win
    dead: bool
    margin: int  # focal total minus the best other total
    think: float  # focal seconds per decision
    decisions: int


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play(job: Job) -> Outcome:
    focal_seat = job.game % job.n
    bots = []
    for s in range(job.n):
        kind = job.focal if s == focal_seat else job.other
        bots.append(
            make_bot(
                kind,
                job.seed * 7919 + job.game * 31 + s,
                Budget(job.seconds, job.iterations),
            )
        )
    stats = play_game(CARTUS, bots, job.seed + job.game, first_game(len(bots)))
    r = stats.game.result
    win = 1.0 / len(r.winners) if focal_seat in r.winners else 0.0
    best_other = max(r.totals[s] for s in range(job.n) if s != focal_seat)
    decisions = stats.decisions[focal_seat]
    return Outcome(
        win,
        r.dead[focal_seat],
        r.totals[focal_seat] - best_other,
        stats.think[focal_seat] / max(1, decisions),
        decisions,
    )


def run_matchup(name: str, args: argparse.Namespace, pool: ProcessPoolExecutor) -> None:
    focal, other, n = MATCHUPS[name]
    jobs = [
        Job(focal, other, n, g, args.seed, args.seconds, args.iterations) for g in range(args.games)
    ]
    print(f"== {name}: 1 {focal} vs {n - 1} {other}, {args.games} games", flush=True)
    t0 = time.time()
    wins = 0.0
    deaths = 0
    think = 0.0
    decisions = 0
    for k, out in enumerate(pool.map(play, jobs), start=1):
        wins += out.win
        deaths += out.dead
        think += out.think * out.decisions
        decisions += out.decisions
        lo, hi = wilson(wins, k)
        print(
            f"  game {k:4d}: {'win ' if out.win else 'loss'} margin {out.margin:+4d}"
            f"{' DEAD' if out.dead else ''}  | {focal} {wins / k:6.1%} [{lo:.1%}, {hi:.1%}]",
            flush=True,
        )
    lo, hi = wilson(wins, args.games)
    fair = 1 / n
    print(
        f"RESULT {name}: {focal} wins {wins:g}/{args.games} = {wins / args.games:.1%} "
        f"(95% CI {lo:.1%}-{hi:.1%}; fair share {fair:.0%}), deaths {deaths / args.games:.1%}, "
        f"{1000 * think / max(1, decisions):.1f} ms/decision, {time.time() - t0:.0f} s",
        flush=True,
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40, help="games per match-up")
    p.add_argument("--seconds", type=float, default=None, help="search time per decision")
    p.add_argument("--iterations", type=int, default=None, help="search iterations per decision")
    p.add_argument("--seed", type=int, default=10_000, help="base table seed")
    p.add_argument("--jobs", type=int, default=2, help="worker processes")
    p.add_argument(
        "--matchups",
        default=",".join(MATCHUPS),
        help=f"comma-separated, from: {', '.join(MATCHUPS)}",
    )
    p.add_argument(
        "--vs",
        choices=["openspiel"],
        default=None,
        help="play our search against OpenSpiel's ISMCTS (both games) and print an Elo ladder",
    )
    p.add_argument(
        "--ladder-games", type=int, default=None, help="games per Elo match-up (--vs openspiel)"
    )
    args = p.parse_args()
    if args.vs == "openspiel":
        try:
            from vs_openspiel import run
        except ImportError as exc:
            sys.exit(f"bots.py: --vs openspiel needs the openspiel extra ({exc})")
        if args.seconds is None:
            args.seconds = 0.5
        if args.ladder_games is None:
            args.ladder_games = args.games
        run(args)
        return
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in args.matchups.split(","):
            run_matchup(name.strip(), args, pool)


if __name__ == "__main__":
    main()
