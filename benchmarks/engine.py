"""Full games per second with bots on the local table, in one process.

Run: python benchmarks/engine.py [--games N] [--players P] [--bots KIND] [--repeats R]
Target (engine issue): at least 500 four-player games per second with random bots on the
2-core reference machine. The local table here draws its chance from a seeded
``random.Random``; ``rattus selfplay`` instead uses the chance seeded peers of a secure game
would produce (so that local and secure games match), which costs extra hashing per shuffle.
Rattus (the board game) is measured in the same run: 4-player games with random bots
(``--rattus-games`` per repeat, 0 to skip). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rattus_net.bots import make_bot
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.local import LocalTable
from rattus_net.games.cartus.view import PlayerView
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.view import RattusView


def play(players: int, seed: int, kind: str) -> int:
    """One game between bots; returns the number of decisions."""
    game = Game(GameConfig(GameConfig.default_names(players), BuildingSelection.random_cards()))
    game.attach(LocalTable(seed))
    bots = [make_bot(kind, seed * 7919 + s) for s in range(players)]
    views = [PlayerView(game, s) for s in range(players)]
    while not game.is_over:
        d = game.decision
        assert d is not None
        seat = d.players[0]
        game.apply(seat, bots[seat].choose(views[seat]))
    return len(game.history)


def play_rattus(players: int, seed: int) -> int:
    """One game of Rattus between random bots; returns the number of decisions."""
    from rattus_net.bots.rattus import RattusRandomBot

    game = RattusGame(RattusConfig(RattusConfig.default_names(players), default_components()))
    table = RattusTable(seed)
    bots = [RattusRandomBot(seed * 7919 + s) for s in range(players)]
    views = [RattusView(game, s) for s in range(players)]
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        game.apply(d.player, bots[d.player].choose(views[d.player]))
    return len(game.history)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rattus-games", type=int, default=500, help="Rattus games per repeat")
    args = ap.parse_args()
    rates, cpu_rates = [], []
    decisions = 0
    for r in range(args.repeats):
        start, cpu = time.perf_counter(), time.process_time()
        for seed in range(args.games):
            decisions += play(args.players, r * args.games + seed, args.bots)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        rates.append(args.games / elapsed)
        cpu_rates.append(args.games / cpu)
        print(
            f"run {r + 1}: {args.games} games in {elapsed:.2f} s = {rates[-1]:.0f} games/s "
            f"({cpu_rates[-1]:.0f} per CPU second)"
        )
    per_game = decisions / (args.games * args.repeats)
    print(
        f"{args.players}-player games with {args.bots} bots: median {statistics.median(rates):.0f} "
        f"games/s wall clock (best {max(rates):.0f}), median {statistics.median(cpu_rates):.0f} "
        f"per CPU second; {per_game:.0f} decisions per game"
    )
    if args.rattus_games <= 0:
        return
    r_rates, r_cpu = [], []
    r_decisions = 0
    for r in range(args.repeats):
        start, cpu = time.perf_counter(), time.process_time()
        for seed in range(args.rattus_games):
            r_decisions += play_rattus(4, r * args.rattus_games + seed)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        r_rates.append(args.rattus_games / elapsed)
        r_cpu.append(args.rattus_games / cpu)
    print(
        f"Rattus, 4-player games with random bots: median {statistics.median(r_rates):.0f} "
        f"games/s wall clock (best {max(r_rates):.0f}), median {statistics.median(r_cpu):.0f} "
        f"per CPU second; {r_decisions / (args.rattus_games * args.repeats):.0f} decisions "
        "per game"
    )


if __name__ == "__main__":
    main()
