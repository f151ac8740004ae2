"""Costs of the network table protocol, for 2 to 5 peers (all peers in one process).

Prints, per player count: setup (hellos, public randomness, the population shuffle with
proofs, the deal, the first row of buildings drawn by commit-reveal), time per private draw
and per public reveal (all peers' work: shares, proofs and their verification), the whole
secure game, ``rattus verify`` on its record, the group operations counted (in units of one
variable-base scalar multiplication) and the building draws (commit-reveal rounds). Then the
same for Rattus (the board game) at 2 to 4 peers with heuristic bots: setup (hellos, the start
tokens and the rat supply shuffled by every peer with proofs, the public random numbers, to
the first start placement), the whole secure game and its verification.

    .venv/bin/python benchmarks/protocol_costs.py [--players 2,3,4,5] [--rattus 2,3,4] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from protocol.crypto.group import OPS, Scalar, base_mul
from protocol.memnet import MemoryNetwork
from protocol.randomness import RandomStream
from protocol.seeded import seeded_params
from protocol.steps import StepChecks
from protocol.verdict import Verdict
from protocol.verify import verify_record
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move


def chooser(n: int, seed: int):  # type: ignore[no-untyped-def]
    rngs = [random.Random(seed * 101 + s) for s in range(n)]

    def choose(game: Game, seat: int) -> Move:
        space = legal_choices(game, seat)
        return space[rngs[seat].randrange(len(space))]

    return choose


def one_mult_ms() -> float:
    r = RandomStream(b"bench".ljust(32, b"."))
    p = base_mul(Scalar.random(r))
    s = Scalar.random(r)
    t = time.perf_counter()
    for _ in range(500):
        p = s * p
    return (time.perf_counter() - t) / 500 * 1000


def set_up(params: Any, secrets: Any) -> tuple[MemoryNetwork, float, float, int]:
    """A network of peers in this process, run until the first decision after the setup: the
    network, the time it started, the seconds and the group operations the setup took."""
    OPS.reset()
    started = time.perf_counter()
    net = MemoryNetwork(params, secrets)
    while net.deliver_one() or not any(p.needs_decision for p in net.peers):
        pass
    return net, started, time.perf_counter() - started, OPS.total_scalarmults


def verified(net: MemoryNetwork) -> tuple[bytes, Verdict, float]:
    """The record of a game the network played to its end, its verdict (which must be fair)
    and the seconds checking it took; the operation counters count the check alone."""
    assert all(p.finished for p in net.peers), [p.abort for p in net.peers]
    record = net.peers[0].record_bytes()
    OPS.reset()
    started = time.perf_counter()
    verdict = verify_record(record)
    took = time.perf_counter() - started
    assert verdict.fair, verdict.text()
    return record, verdict, took


def bench(n: int, seed: int) -> None:
    config = GameConfig(GameConfig.default_names(n), BuildingSelection.random_cards())
    params, secrets = seeded_params(config, seed, "cartus")
    choose = chooser(n, seed)
    # Setup: until the first decision of round 1.
    net, t0, setup, setup_ops = set_up(params, secrets)
    # Time the reveals: wrap StepChecks._step_shares (and the hand mixings).
    reveal_times: dict[str, list[float]] = {"private": [], "public": []}
    original = StepChecks._step_shares

    def timed(self: StepChecks, st, msgs):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        out = original(self, st, msgs)
        req = self.state.public.pending
        rec = self.state.record
        kind = "public" if rec.reveals and rec.reveals[-1][1] is None else "private"
        reveal_times[kind].append((time.perf_counter() - t, len(rec.reveals[-1][0])))  # type: ignore[arg-type]
        del req
        return out

    mix_times: list[tuple[float, int]] = []
    original_mix = StepChecks._step_private_mix

    def timed_mix(self: StepChecks, st, msgs):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        out = original_mix(self, st, msgs)
        mix_times.append((time.perf_counter() - t, len(st.info["deck"])))
        return out

    StepChecks._step_shares = timed  # type: ignore[method-assign]
    StepChecks._step_private_mix = timed_mix  # type: ignore[method-assign]
    t1 = time.perf_counter()
    net.run(choose)
    StepChecks._step_shares = original  # type: ignore[method-assign]
    StepChecks._step_private_mix = original_mix  # type: ignore[method-assign]
    whole = time.perf_counter() - t0
    total_ops = OPS.total_scalarmults
    record, verdict, verify = verified(net)
    vops = OPS.total_scalarmults

    def per_card(kind: str) -> str:
        items = reveal_times[kind]
        cards = sum(c for _, c in items)  # type: ignore[misc]
        secs = sum(t for t, _ in items)  # type: ignore[misc]
        # Each reveal step is processed by every one of the n peers in this process.
        # every peer processes every reveal: total checking time of all peers per card
        return f"{1000 * secs * n / max(cards, 1):5.2f} ms/card ({cards // n} cards)"

    del t1
    # A mixed hand is proven once by its owner (not timed here) and checked by the n-1 others
    # (the timed step, summed over all peers).
    mixes = len(mix_times) // n
    mixed_cards = sum(c for _, c in mix_times) // n
    mix_secs = sum(t for t, _ in mix_times)
    print(
        f"{n} peers: setup {setup:5.2f} s ({setup_ops} mults) | private draw {per_card('private')}"
        f" | public reveal {per_card('public')} | whole game {whole:5.2f} s ({total_ops} mults,"
        f" {len(record) // 1024} KiB record) | verify {verify:5.2f} s ({vops} mults)"
        f" | {mixes} hands mixed ({mixed_cards} cards, checks {mix_secs:5.2f} s all peers)"
        f" | {verdict.draws} building draws (commit-reveal)"
    )


def bench_rattus(n: int, seed: int) -> None:
    from rattus_net.games.rattus.bots import RattusHeuristicBot
    from rattus_net.games.rattus.game import RattusConfig
    from rattus_net.games.rattus.loader import default_components
    from rattus_net.games.rattus.view import RattusView

    config = RattusConfig(RattusConfig.default_names(n), default_components())
    params, secrets = seeded_params(config, seed, "rattus")
    bots = [RattusHeuristicBot(seed * 10 + s) for s in range(n)]
    net, t0, setup, setup_ops = set_up(params, secrets)
    net.run(lambda game, seat: bots[seat].choose(RattusView(game, seat)))
    whole = time.perf_counter() - t0
    total_ops = OPS.total_scalarmults
    record, verdict, verify = verified(net)
    reveals = net.peers[0].record.reveals
    looks = sum(1 for _, to in reveals if to is not None)
    turned = sum(len(hs) for hs, to in reveals if to is None)
    print(
        f"Rattus {n} peers: setup {setup:5.2f} s ({setup_ops} mults) | whole game {whole:5.2f} s"
        f" ({total_ops} mults, {len(net.peers[0].public.history)} moves, {turned} tokens turned"
        f" up, {looks} Witch looks, {len(record) // 1024} KiB record) | verify {verify:5.2f} s"
        f" ({OPS.total_scalarmults} mults, {verdict.shares_verified} share proofs)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--rattus", default="2,3,4", help="Rattus player counts ('' for none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-mix", action="store_true", help="for comparison: hands never mixed")
    args = ap.parse_args()
    if args.no_mix:
        from rattus_net.games.cartus.secure import CartusSecure

        def no_mixing(self: CartusSecure, config: GameConfig) -> GameConfig:
            from dataclasses import replace

            return replace(config, mix_hands=False)

        CartusSecure.secure_config = no_mixing  # type: ignore[method-assign]
    print(f"one variable-base scalar multiplication: {one_mult_ms():.3f} ms")
    print("all peers run in this one process: per-peer wall time on a network is about 1/n")
    for n in (int(x) for x in args.players.split(",") if x):
        bench(n, args.seed)
    for n in (int(x) for x in args.rattus.split(",") if x):
        bench_rattus(n, args.seed)


if __name__ == "__main__":
    main()
