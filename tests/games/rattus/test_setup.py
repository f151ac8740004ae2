"""Setup by player count (rules section 2): regions, start tokens, removed tokens, order."""

from __future__ import annotations

import pytest

from rattus_net.games.rattus.game import Kind, RattusConfig, RattusGame
from rattus_net.games.rattus.moves import StartPlace
from rattus_net.kit.table import PublicRandom, Shuffle

from .helpers import COMPS, new_game


@pytest.mark.parametrize(("n", "regions", "removed"), [(2, 8, 12), (3, 10, 6), (4, 12, 0)])
def test_regions_start_tokens_and_removed_tokens_by_player_count(
    n: int, regions: int, removed: int
) -> None:
    game, _ = new_game(n)
    assert game.k == regions
    assert set(game.regions) == set(COMPS.groups[n])
    assert all(len(t) == 1 for t in game.tokens)
    assert all(h in game.start_handles for t in game.tokens for h in t)
    assert len(game.removed) == removed
    leftover_start = 12 - regions
    assert len(game.rat_supply) == 37 + leftover_start - removed
    assert sum(h in game.start_handles for h in game.rat_supply + game.removed) == leftover_start
    # Nobody knows a face: the engine was told none.
    assert game.faces == {} and game.public == set()
    assert 0 <= game.plague < regions


def test_regions_not_in_play_are_not_neighbours() -> None:
    game, _ = new_game(2)
    names = set(game.regions)
    assert "Bulgaria" not in names and "Russia" not in names
    italia = game.region("Italia")
    assert {game.regions[o] for o in game.nbrs[italia]} == {
        "Gallia",
        "Hispania",
        "Germania",
        "Hungaria",
    }


def test_setup_asks_the_table_for_shuffles_and_public_randoms() -> None:
    game = RattusGame(RattusConfig(("A", "B", "C"), COMPS))
    asked = []
    from rattus_net.kit.local import LocalTable

    table = LocalTable(4)
    while game.decision is None:
        asked.append(type(game.pending).__name__ + ":" + getattr(game.pending, "pile", "") or "")
        req = game.pending
        if isinstance(req, Shuffle):
            assert len(req.faces) == len(req.handles)
        if isinstance(req, PublicRandom):
            assert req.bound > 0
        table.answer(game)
    assert asked[:2] == ["Shuffle:start tokens", "Shuffle:rat supply"]
    # 2 start tokens left over with 3 players, each placed by a public random number, then
    # the plague piece and the starting player.
    assert [a for a in asked if a.startswith("PublicRandom")] == ["PublicRandom:"] * 4


@pytest.mark.parametrize("n", [2, 3, 4])
def test_start_placement_goes_round_and_back(n: int) -> None:
    game, table = new_game(n, seed=n)
    first = game.first_player
    order = []
    while game.decision is not None and game.decision.kind is Kind.START:
        s = game.decision.player
        order.append(s)
        game.apply(s, StartPlace((game.regions[0], game.regions[-1])))
        table.settle(game)
    forward = [(first + i) % n for i in range(n)]
    assert order == forward + forward[::-1]
    assert game.supply == [16] * n
    d = game.decision
    assert d is not None and d.kind is Kind.TURN and d.player == first


def test_both_start_cubes_may_go_to_one_region() -> None:
    game, _table = new_game(2)
    s = game.decision.player if game.decision else -1
    game.apply(s, StartPlace(("hispania", "HISPANIA")))
    assert game.cubes[game.region("Hispania")][s] == 2
    assert game.history[-1][1] == StartPlace(("Hispania", "Hispania"))


def test_player_counts_outside_two_to_four_are_refused() -> None:
    from rattus_net.kit.errors import SetupError

    for names in (("A",), ("A", "B", "C", "D", "E")):
        with pytest.raises(SetupError):
            RattusConfig(names, COMPS)
    with pytest.raises(SetupError):
        RattusConfig(("A", "A"), COMPS)
