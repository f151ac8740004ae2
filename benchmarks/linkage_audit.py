"""The linkage audit over many self-play games at 2 to 5 players.

Every card a player gives away, lays face down, discards or plays as a Pass must be a handle
of its owner's latest mixed hand, never shown to another peer before (rules section 8: a
Sword's or the Guard Tower's gift is known to giver and receiver only, even when the receiver
discards it at the Hospital of the same building). The games are played on a local
``AuditTable`` that records the handle flow a secure session would see (the same table
requests; the tests check it equals the secure game's flow), so 500 games take minutes.

    .venv/bin/python benchmarks/linkage_audit.py --games 500 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time

from protocol.audit import AuditTable, linkage_problems, play_audited
from protocol.seeded import SeededChance, seeded_params
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.registry import get_game
from rattus_net.selfplay import setup_seats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    bad = 0
    per_n = {n: 0 for n in range(2, 6)}
    cards = gifts = mixes = 0
    for _ in range(args.games):
        n, seed = rng.randint(2, 5), rng.randrange(1_000_000)
        kinds = [rng.choice(["random", "heuristic"])]
        values = {"simultaneous_supply": rng.random() < 0.3}
        _, config, bots = setup_seats(get_game("cartus"), n, seed, kinds, values)
        params, secrets = seeded_params(config, seed, "cartus")
        table = AuditTable(
            LocalTable(seed, chance_source=SeededChance(params, secrets)),
            secrets=secrets,
            game="cartus",
        )
        players = bots
        game = play_audited(
            Game(params.config),
            table,
            lambda g, s, players=players: players[s].choose(PlayerView(g, s)),  # type: ignore[misc]
        )
        flow = table.flow
        per_n[n] += 1
        cards += sum(len(hs) for _, _, hs in flow.played)
        mixes += len(flow.mixes)
        gifts += sum(1 for _hs, to in flow.reveals if to is not None)
        problems = linkage_problems(flow)
        if problems:
            bad += 1
            print(f"  {n} players, seed {seed}, {kinds[0]}: {problems[:3]}")
        assert game.is_over
    secs = time.perf_counter() - start
    print(
        f"{args.games} games ({', '.join(f'{c} at {n}' for n, c in per_n.items())} players) "
        f"in {secs:.1f} s: {cards} cards played from hands, {mixes} hands mixed, "
        f"{gifts} private reveals; games with a linkable card: {bad}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
