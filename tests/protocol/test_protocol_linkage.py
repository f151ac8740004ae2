"""Gifts cannot be linked to their giver's hand: a card given by a Sword or the Guard Tower is
in a freshly mixed hand before its receiver can play it, even when the receiver discards it
at the Hospital of the same building (rules section 8: only giver and receiver may know).

The linkage audit runs on the handle flow of a game. ``AuditTable`` records that flow from a
local game (no cryptography, so many games are cheap); one test checks that it is exactly the
flow of the secure game of the same seed. ``benchmarks/linkage_audit.py`` runs 500 games."""

from __future__ import annotations

import random

import pytest

from protocol.audit import AuditTable, HandleFlow, linkage_problems, play_audited
from protocol.seeded import SeededChance, seeded_params
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.registry import get_game
from rattus_net.selfplay import play_secure_game, setup_seats


def audited(n: int, seed: int, kinds: list[str]) -> HandleFlow:
    """The handle flow of the self-play game ``rattus selfplay --seed`` plays (local)."""
    _, config, bots = setup_seats(get_game("cartus"), n, seed, kinds, {})
    params, secrets = seeded_params(config, seed, "cartus")
    table = AuditTable(
        LocalTable(seed, chance_source=SeededChance(params, secrets)),
        secrets=secrets,
        game="cartus",
    )
    game = Game(params.config)
    play_audited(game, table, lambda g, s: bots[s].choose(PlayerView(g, s)))
    return table.flow


def test_the_audit_table_sees_the_flow_of_the_secure_game() -> None:
    secure = play_secure_game(get_game("cartus"), 3, 5, ["random"], {})
    assert audited(3, 5, ["random"]) == HandleFlow.of_session(secure.sessions[0])


@pytest.mark.parametrize("seed", [122, 171, 173, 192])
def test_the_heuristic_seeds_that_linked_a_gift_no_longer_do(seed: int) -> None:
    flow = audited(4, seed, ["heuristic"])
    assert any(len(hs) > 0 for _, _, hs in flow.played)
    assert linkage_problems(flow) == []


def test_a_sample_of_random_games_at_2_to_5_players_has_no_linkage() -> None:
    rng = random.Random(11)
    for _ in range(16):
        n, seed = rng.randint(2, 5), rng.randrange(10_000)
        kinds = [rng.choice(["random", "heuristic"])]
        assert linkage_problems(audited(n, seed, kinds)) == [], (n, seed, kinds)


def test_the_audit_sees_a_gift_discarded_before_its_hand_is_mixed() -> None:
    """Without the mixing after a gift the audit finds the leak of seed 173 again."""
    flow = audited(4, 173, ["heuristic"])
    gift_mixes = [m for m in flow.mixes if any(m[0] == i for i, _, _ in flow.played)]
    assert gift_mixes  # hands mixed between a gift and the next card played
    at, seat, _old, _new = gift_mixes[0]
    earlier = [m for m in flow.mixes if m is not gift_mixes[0]]
    leaky = HandleFlow(flow.played, flow.reveals, flow.reveal_moves, earlier, flow.masked)
    assert any(f"of seat {seat} keeps a handle" in p for p in linkage_problems(leaky)), at
