"""The plague strikes (rules section 3): spread, outbreak thresholds, effects, and ruling 6.1
(the active player chooses which face-down token to turn up next)."""

from __future__ import annotations

import pytest

from rattus_net.games.rattus.errors import NotNeighbour, RegionFull
from rattus_net.games.rattus.game import Kind, RattusGame
from rattus_net.games.rattus.moves import Monk, Place, Plague, Spread, Swap, TurnUp, Witch
from rattus_net.games.rattus.rules import FROM_SETUP, FROM_SUPPLY, legal, tell_apart
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.local import LocalTable

from .helpers import (
    after_setup,
    cubes,
    give,
    leave,
    on_empty_board,
    put,
    resolve,
    seat_cubes,
    seat_total,
    turn_player,
)


def strike(
    region: str, tokens: list[str], counts: tuple[int, int], knight: bool = False
) -> tuple[RattusGame, LocalTable, int]:
    """Player ``p`` (the first player) moves the plague from a neighbour onto ``region``,
    which holds ``tokens`` and ``counts`` cubes (seat 0, seat 1); spreads take the first
    choice."""
    game, table, p = on_empty_board(2)
    put(game, table, region, *tokens)
    cubes(game, region, *counts)
    game.placed = True
    here = game.region(region)
    game.plague = game.nbrs[here][0]
    if knight:
        give(game, p, "Knight")
    game.apply(p, Plague(region, knight=knight))
    resolve(game, table)
    return game, table, p


@pytest.mark.parametrize(("tokens", "new"), [(0, 0), (1, 1), (2, 2), (3, 2)])
def test_spread_puts_0_1_or_2_new_tokens(tokens: int, new: int) -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", *["5 A"] * tokens)
    game.placed = True
    game.plague = game.region("Anglia")
    supply = len(game.rat_supply)
    game.apply(p, Plague("Gallia"))
    table.settle(game)
    d = game.decision
    if new:
        assert d is not None and d.kind is Kind.SPREAD and d.count == new
        choice = ("Hispania",) if new == 1 else ("Hispania", "Italia")
        game.apply(p, Spread(choice))
        table.settle(game)
    assert len(game.rat_supply) == supply - new
    around = [len(game.tokens[o]) for o in game.nbrs[game.region("Gallia")]]
    assert sum(around) == new
    assert len(game.tokens[game.region("Gallia")]) == tokens  # no cubes: no outbreak


def test_spread_refuses_non_neighbours_and_a_fourth_token() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A", "5 A")
    put(game, table, "Hispania", "5 A", "5 A")
    game.placed = True
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    table.settle(game)
    with pytest.raises(NotNeighbour):
        game.apply(p, Spread(("Polonia", "Italia")))
    with pytest.raises(RegionFull):
        game.apply(p, Spread(("Hispania", "Hispania")))
    game.apply(p, Spread(("Hispania", "Italia")))
    assert len(game.tokens[game.region("Hispania")]) == 3


def test_spread_with_room_for_one_token_places_one() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Hispania", "5 A", "5 A")
    put(game, table, "Gallia", "5 A", "5 A", "5 A")
    put(game, table, "Italia", "5 A", "5 A")
    game.placed = True
    game.plague = game.region("Gallia")
    supply = len(game.rat_supply)
    game.apply(p, Plague("Hispania"))
    table.settle(game)  # one legal place: no decision
    assert len(game.tokens[game.region("Italia")]) == 3
    assert len(game.rat_supply) == supply - 1


def test_spread_with_no_legal_place_places_nothing() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Hispania", "5 A")
    put(game, table, "Gallia", "5 A", "5 A", "5 A")
    put(game, table, "Italia", "5 A", "5 A", "5 A")
    game.placed = True
    game.plague = game.region("Gallia")
    supply = len(game.rat_supply)
    game.apply(p, Plague("Hispania"))
    table.settle(game)
    assert len(game.rat_supply) == supply
    assert game.end_reason is None
    d = game.decision
    assert d is not None and d.kind is Kind.TURN and d.player == 1 - p


def test_token_below_threshold_has_no_effect() -> None:
    game, _, _ = strike("Hispania", ["4 A"], (2, 1))
    h = game.region("Hispania")
    assert game.cubes[h] == [2, 1] and game.struck == [0, 0]
    assert game.tokens[h] == [] and len(game.turned) == 1  # turned up and removed anyway


def test_knight_counts_two_more_cubes() -> None:
    game, _, _ = strike("Hispania", ["4 A"], (2, 1), knight=True)
    assert game.cubes[game.region("Hispania")] == [1, 0]
    assert game.struck == [1, 1]


def test_threshold_is_met_by_exactly_the_number() -> None:
    game, _, _ = strike("Hispania", ["3 A"], (2, 1))
    assert game.struck == [1, 1]


@pytest.mark.parametrize(("counts", "dead"), [((2, 2), [1, 1]), ((3, 1), [1, 0]), ((1, 3), [0, 1])])
def test_majority_loses_one_and_tied_colours_each_lose_one(
    counts: tuple[int, int], dead: list[int]
) -> None:
    game, _, _ = strike("Hispania", ["1 M Pea"], counts)
    assert game.struck == dead


def test_class_symbols_cost_one_cube_per_matching_symbol() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
    put(game, table, "Hispania", "1 Pea Chi")
    seat_cubes(game, "Hispania", {p: 3, q: 3})
    give(game, q, "Peasant", "Knight")
    game.placed = True
    game.plague = game.region("Gallia")
    game.apply(p, Plague("Hispania"))
    resolve(game, table)
    assert game.struck[q] == 2 and game.struck[p] == 0


def test_majority_first_then_symbols_and_a_player_without_cubes_loses_nothing() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
    put(game, table, "Hispania", "1 M Pea")
    seat_cubes(game, "Hispania", {q: 1, p: 3})
    give(game, p, "Peasant")
    give(game, q, "King")
    game.placed = True
    game.plague = game.region("Gallia")
    game.apply(p, Plague("Hispania"))
    resolve(game, table)
    assert game.struck[p] == 2  # majority, then the Peasant symbol
    assert game.struck[q] == 0


def test_turning_stops_when_no_cube_is_left_and_the_rest_stay_face_down() -> None:
    game, _, _ = strike("Hispania", ["1 A", "1 A", "1 A"], (1, 0))
    h = game.region("Hispania")
    assert game.cubes[h] == [0, 0]
    assert len(game.tokens[h]) == 2 and len(game.turned) == 1
    assert not any(t in game.faces or t in game.public for t in game.tokens[h])


def test_struck_cubes_go_back_to_the_supply_and_are_placed_again() -> None:
    """Ruling 4: a struck cube goes back to its owner's supply and may be placed again."""
    game, table, p = strike("Hispania", ["1 A", "1 A"], (2, 2))
    assert game.struck == [2, 2]
    assert game.cubes[game.region("Hispania")] == [0, 0]
    assert all(seat_total(game, s) == 20 for s in range(2))
    # Every cube back in the supply: a player with all his cubes struck places them again.
    q = turn_player(game)
    assert q == 1 - p
    leave(game, q, 0)
    for r in range(game.k):
        game.palace[q] += game.cubes[r][q]
        game.cubes[r][q] = 0
    game.palace[q] -= 2
    game.supply[q] = 2  # the two struck cubes, nothing else left
    put(game, table, "Gallia", "5 A", "5 A")
    game.apply(q, Place("Gallia"))
    assert game.cubes[game.region("Gallia")][q] == 2 and game.supply[q] == 0
    assert seat_total(game, q) == 20


def test_active_player_chooses_the_next_token_after_a_witch_look() -> None:
    game, table, p = on_empty_board(2)
    _a, b = put(game, table, "Hispania", "1 A", "5 A")
    counts = [2, 2]
    cubes(game, "Hispania", *counts)
    give(game, p, "Witch")
    game.placed = True
    game.plague = game.region("Gallia")
    game.apply(p, Witch(("Hispania", 1), ("Hispania", 2)))
    table.settle(game)
    game.apply(p, Swap(False))
    game.apply(p, Plague("Hispania"))
    resolve_spread_only(game, table)
    d = game.decision
    assert d is not None and d.kind is Kind.TURN_UP and d.player == p
    game.apply(p, TurnUp(2))
    table.settle(game)
    assert game.turned[0] == b  # the chosen token first


def resolve_spread_only(game: RattusGame, table: LocalTable) -> None:
    table.settle(game)
    d = game.decision
    if d is not None and d.kind is Kind.SPREAD:
        game.apply(d.player, Spread((game.regions[game.nbrs[d.region or 0][0]],) * d.count))
        table.settle(game)


def test_without_a_look_tokens_are_turned_up_slot_by_slot() -> None:
    game, _, _ = strike("Hispania", ["5 A", "1 M Pea", "2 M Chu"], (2, 0))
    texts = [e.data["token"] for e in game.log if e.kind == "turn-up"]
    assert texts == ["5 A", "1 M Pea", "2 M Chu"]
    strikes = [e.data["strikes"] for e in game.log if e.kind == "turn-up"]
    assert strikes == [False, True, False]  # 2 cubes, then 1 left: below the last token's 2
    assert game.cubes[game.region("Hispania")] == [1, 0]


def test_spread_never_goes_to_a_region_out_of_play() -> None:
    """With 2 players Hungaria's neighbours Bulgaria and Tartaria are not in play: they are
    not neighbours of anything, so the new tokens go to the others only."""
    game, table, p = on_empty_board(2)
    put(game, table, "Hungaria", "5 A", "5 A")
    game.placed = True
    game.plague = game.region("Germania")
    game.apply(p, Plague("Hungaria"))
    table.settle(game)
    d = game.decision
    assert d is not None and d.kind is Kind.SPREAD
    named = {r for m in legal(game, p) if isinstance(m, Spread) for r in m.regions}
    assert named == {"Germania", "Italia", "Polonia"}
    assert not {"Bulgaria", "Tartaria"} & {game.regions[o] for o in game.nbrs[d.region or 0]}
    game.apply(p, Spread(("Italia", "Polonia")))
    assert [len(game.tokens[game.region(r)]) for r in ("Italia", "Polonia")] == [1, 1]


def test_knights_plus_two_does_not_keep_turning_once_no_cube_is_left() -> None:
    """The +2 counts against token numbers only: with the last real cube struck, turning
    stops and the other tokens stay face down."""
    game, _, _ = strike("Hispania", ["3 A", "1 A", "1 A"], (1, 0), knight=True)
    h = game.region("Hispania")
    ups = [e.data for e in game.log if e.kind == "turn-up"]
    assert [(u["token"], u["counted"], u["strikes"]) for u in ups] == [("3 A", 3, True)]
    assert game.cubes[h] == [0, 0]
    assert len(game.tokens[h]) == 2
    assert not any(t in game.faces for t in game.tokens[h])


def turn_up_asked(setup: str) -> tuple[RattusGame, bool]:
    """Hispania holds two plain tokens spread there and cubes; ``setup`` arranges what tells
    them apart (``ring``: the first is a ringed token instead; ``monk``: a third comes from
    Gallia; ``look``: the active player looked at one), then the first player strikes it:
    is he asked which token to turn up next?"""
    game, table, p = on_empty_board(2)
    if setup == "ring":
        put(game, table, "Hispania", "5 A", ring=True)
        put(game, table, "Hispania", "5 A", ring=False)
    else:
        put(game, table, "Hispania", "5 A", "5 A", ring=False)
    cubes(game, "Hispania", 3, 3)
    if setup == "monk":
        give(game, p, "Monk")
        put(game, table, "Gallia", "5 A", ring=False)
        game.apply(p, Monk("Gallia", 1, "Hispania"))
    if setup in ("look", "look-other"):
        looked = game.tokens[game.region("Hispania")][0]  # as if a Witch had looked
        game.seen[p if setup == "look" else 1 - p].add(looked)
        game.faces[looked] = table.face_of[looked]
    game.placed = True
    game.plague = game.region("Gallia")
    game.apply(p, Plague("Hispania"))
    table.settle(game)
    d = game.decision
    if d is not None and d.kind is Kind.SPREAD:
        game.apply(p, legal(game, p)[0])
        table.settle(game)
    d = game.decision
    return game, d is not None and d.kind is Kind.TURN_UP


@pytest.mark.parametrize(("setup", "asked"), [("none", False), ("look-other", False)])
def test_tokens_he_cannot_tell_apart_are_turned_up_slot_by_slot(setup: str, asked: bool) -> None:
    """Two plain tokens from the supply: the active player cannot tell them apart (another
    seat's look does not help him), so they are turned up slot by slot."""
    game, was_asked = turn_up_asked(setup)
    assert was_asked is asked
    h = game.region("Hispania")
    assert game.tokens[h] == [] or game.cubes[h] == [0, 0]


def test_his_own_look_lets_the_active_player_choose() -> None:
    _, asked = turn_up_asked("look")
    assert asked


def test_a_ring_lets_the_active_player_choose_the_next_token() -> None:
    """Ruling 5: the start tokens' ring shows face down."""
    game, asked = turn_up_asked("ring")
    assert asked
    view = RattusView(game, 0)
    h = game.region("Hispania")
    assert view.rings(h) == [True, False]
    assert view.origins(h) == [FROM_SUPPLY, FROM_SUPPLY]


def test_where_a_token_came_from_lets_the_active_player_choose() -> None:
    """A token the Monk brought from Gallia is told apart from those spread there."""
    game, asked = turn_up_asked("monk")
    assert asked
    assert RattusView(game, 1).origins(game.region("Hispania"))[-1] == "Gallia"


def test_rings_are_public_on_the_board_and_in_the_supply() -> None:
    game, _ = after_setup(2)
    for seat in range(2):
        view = RattusView(game, seat)
        assert all(view.rings(r) == [True] for r in range(game.k))  # a start token each
        assert all(view.origins(r) == [FROM_SETUP] for r in range(game.k))
        assert view.supply_rings == sum(h in game.start_handles for h in game.rat_supply)
        assert view.removed_rings == sum(h in game.start_handles for h in game.removed)
    assert RattusView(game, 0).supply_rings + RattusView(game, 0).removed_rings == 4


def test_whether_he_is_asked_depends_on_public_facts_only() -> None:
    """Every peer of a network game runs the engine without the Witch's faces: who looked
    at which token is public, the face is not, so the question must not depend on it."""
    game, asked = turn_up_asked("look")
    assert asked
    blind = game.clone()
    blind.faces = {h: f for h, f in game.faces.items() if h in game.public}
    d = game.decision
    assert d is not None and d.region is not None
    assert tell_apart(blind, d.player, d.region) == tell_apart(game, d.player, d.region)
