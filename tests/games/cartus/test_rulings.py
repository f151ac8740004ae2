"""Rulings of section 9 not covered by a more specific test file.

Where the others are tested: 9.1 test_views, 9.2 and 9.3 test_round_flow, 9.4 to 9.6 and 9.16
test_sword_flute, 9.7 to 9.9 and 9.11 test_buildings, 9.13 test_round_flow, 9.14 test_setup."""

from __future__ import annotations

from rattus_net.games.cartus.data import Building
from rattus_net.games.cartus.moves import Look, Supply

from .helpers import C, M, Scenario, set_rats


def test_looks_may_repeat_positions_seen_before_ruling_9_10() -> None:
    sc = Scenario(3, hands=[[M(0)]], rows=[["Tent/F", "Palace/F"]])
    sc.supplies({0: Supply(0, (0, 1)), 1: Supply(0, (0, 1)), 2: Supply(0, (0, 1))})
    sc.enter_all([(0, 0, [M(0)]), (1, 1, []), (2, 1, [])])
    sc.play(0, Look((0, 1)))  # the same positions again
    assert [e.data["position"] for e in sc.events("look") if e.player == 0] == [0, 1, 0, 1]


def test_rat_totals_are_public_ruling_9_12() -> None:
    sc = Scenario(3, hands=[[C(0)]], rows=[[Building.MONASTERY, Building.PALACE]])
    sc.round([(0, 0, [C(0)]), (1, 1, []), (2, 1, [])])
    for seat in range(3):
        assert sc.view(seat).rats == sc.game.rats == [8, 10, 10]
    assert all(e.private_to is None for e in sc.game.log if e.kind in ("rats", "flute"))


def test_rats_never_go_below_zero_ruling_9_15() -> None:
    sc = Scenario(3, hands=[[C(0)]], rows=[["Monastery/B", "Palace/F"]])
    g = sc.game
    set_rats(g, 0, 1)
    set_rats(g, 1, 0)
    sc.supplies({0: Supply(0), 1: Supply(0), 2: Supply(1, (0, 1))})  # discard 2 rats
    assert g.rats[:2] == [0, 0]
    losses = [(e.player, e.data["delta"]) for e in sc.events("rats")]
    assert losses == [(0, -1), (1, 0)]
    sc.enter_all([(0, 0, [C(0)]), (1, 0, []), (2, 1, [])])  # Monastery: 2 and 1 more rats
    assert g.rats[:2] == [0, 0]


def test_guard_tower_with_two_players_is_allowed_but_warned() -> None:
    from rattus_net.games.cartus import data as D
    from rattus_net.games.cartus.config import BuildingSelection, GameConfig
    from rattus_net.games.cartus.game import Game
    from rattus_net.kit.local import LocalTable

    with_tower = BuildingSelection.parse("farm,office,hospital,guardtower,tent,palace")
    for players, selection, warned in (
        (2, with_tower, True),
        (3, with_tower, False),
        (2, BuildingSelection.first_game(), False),
    ):
        game = Game(GameConfig(GameConfig.default_names(players), selection))
        game.attach(LocalTable(1))
        warnings = [e.data["text"] for e in game.log if e.kind == "warning"]
        assert warnings == ([D.TWO_PLAYER_GUARD_TOWER_WARNING] if warned else [])
        assert game.decision is not None  # the game goes on regardless
