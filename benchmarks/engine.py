"""Full games per second with bots on the local table, in one process.

Run: python benchmarks/engine.py [--games N] [--players P] [--bots KIND] [--repeats R]
Target (engine issue): at least 500 four-player games per second with random bots on the
2-core reference machine. The local table here draws its chance from a seeded
``random.Random``; ``rattus selfplay`` instead uses the chance seeded peers of a secure game
would produce (so that local and secure games match), which costs extra hashing per shuffle.
Rattus (the board game) is measured in the same run: 4-player games with random bots
(``--rattus-games`` per repeat, 0 to skip). Then how Rattus games end (rules section 4), for
2, 3 and 4 players and each kind of ``--ending-bots``: the share of games ended by (a) the rat
supply running out and by (b) the active player's cubes all out (rare by the rules, since
struck cubes come back), the share decided by the tie-break, cubes struck per player and
turns per game (``--ending-games`` per count, 0 to skip). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.view import PlayerView
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


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
    from rattus_net.bots.random import RandomBot

    game = RattusGame(RattusConfig(RattusConfig.default_names(players), default_components()))
    bots = [RandomBot(seed * 7919 + s) for s in range(players)]
    views = [RattusView(game, s) for s in range(players)]
    play_to_end(game, LocalTable(seed), lambda _, seat: bots[seat].choose(views[seat]))
    return len(game.history)


def rattus_endings(players: int, kind: str, games: int) -> str:
    """One line: how ``games`` Rattus games of ``players`` ``kind`` bots ended."""
    from rattus_net.games.rattus.decision import CUBES_OUT, SUPPLY
    from rattus_net.kit.registry import get_game
    from rattus_net.selfplay import play_game

    ends = {SUPPLY: 0, CUBES_OUT: 0}
    ties = struck = turns = 0
    for seed in range(games):
        game = play_game(get_game("rattus"), players, seed, [kind], {}).game
        r = game.result
        assert r is not None
        ends[r.reason] += 1
        ties += r.tied
        struck += sum(r.struck)
        turns += sum(1 for e in game.log if e.kind == "turn")
    return (
        f"  {players} players, {kind:<9}: (a) rat supply {100 * ends[SUPPLY] / games:5.1f}%  "
        f"(b) all cubes out {100 * ends[CUBES_OUT] / games:5.1f}%  ties {100 * ties / games:5.1f}%"
        f"  struck/player {struck / (games * players):4.1f}  turns/game {turns / games:4.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rattus-games", type=int, default=500, help="Rattus games per repeat")
    ap.add_argument("--ending-games", type=int, default=200, help="Rattus games per count")
    ap.add_argument("--ending-bots", default="heuristic,random", help="bot kinds, commas")
    args = ap.parse_args()
    if args.games > 0:
        games_per_second(
            f"{args.players}-player games with {args.bots} bots",
            lambda seed: play(args.players, seed, args.bots),
            args.repeats,
            args.games,
        )
    if args.rattus_games > 0:
        games_per_second(
            "Rattus, 4-player games with random bots",
            lambda seed: play_rattus(4, seed),
            args.repeats,
            args.rattus_games,
        )
    if args.ending_games > 0:
        print(f"How Rattus games end ({args.ending_games} games per line, seeds 0 on):")
        for kind in args.ending_bots.split(","):
            for players in (2, 3, 4):
                print(rattus_endings(players, kind.strip(), args.ending_games), flush=True)


def games_per_second(what: str, play_one: Callable[[int], int], repeats: int, games: int) -> None:
    """``what`` (the games and their bots, in words): ``repeats`` runs of ``games`` games,
    ``play_one(seed)`` playing one and returning its number of decisions; games per second."""
    rates, cpu_rates = [], []
    decisions = 0
    for r in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            decisions += play_one(r * games + seed)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        rates.append(games / elapsed)
        cpu_rates.append(games / cpu)
        print(
            f"run {r + 1}: {games} games in {elapsed:.2f} s = {rates[-1]:.0f} games/s "
            f"({cpu_rates[-1]:.0f} per CPU second)"
        )
    per_game = decisions / (games * repeats)
    print(
        f"{what}: median {statistics.median(rates):.0f} "
        f"games/s wall clock (best {max(rates):.0f}), median {statistics.median(cpu_rates):.0f} "
        f"per CPU second; {per_game:.0f} decisions per game"
    )


if __name__ == "__main__":
    main()
