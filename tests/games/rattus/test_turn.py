"""A turn (rules section 3): taking a card, placing cubes, the abilities and their limits,
moving the plague piece. Every illegal move raises a precise error and changes nothing."""

from __future__ import annotations

import pytest

from rattus_net.games.rattus.errors import (
    AbilityNotAllowed,
    NoSuchRegion,
    NotNeighbour,
    NoTokens,
    OutOfOrder,
    RegionFull,
)
from rattus_net.games.rattus.game import Kind, RattusGame
from rattus_net.games.rattus.moves import (
    King,
    Merchant,
    Monk,
    Move,
    Place,
    Plague,
    Swap,
    Take,
    Witch,
)
from rattus_net.games.rattus.rules import legal
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.errors import BadChoice, CardNotHeld, IllegalMove, NotYourTurn, WrongCount

from .helpers import (
    after_setup,
    cubes,
    give,
    leave,
    on_empty_board,
    put,
    seat_cubes,
    snapshot,
    turn_player,
)


def refused(game: RattusGame, seat: int, move: Move, error: type[IllegalMove]) -> None:
    before = snapshot(game)
    with pytest.raises(error):
        game.apply(seat, move)
    assert snapshot(game) == before
    if game.decision is not None and game.decision.player == seat:
        assert move not in legal(game, seat)


@pytest.mark.parametrize("tokens", [1, 2, 3])
def test_place_as_many_cubes_as_the_region_holds_tokens(tokens: int) -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", *["5 A"] * tokens)
    before = game.supply[p]
    game.apply(p, Place("Gallia"))
    assert game.cubes[game.region("Gallia")][p] == tokens
    assert game.supply[p] == before - tokens


def test_with_fewer_cubes_left_all_are_placed() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A", "5 A", "5 A")
    leave(game, p, 2)
    game.apply(p, Place("Gallia"))
    assert game.cubes[game.region("Gallia")][p] == 2 and game.supply[p] == 0


def test_place_refusals() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A")
    refused(game, p, Place("Italia"), NoTokens)  # a region with no tokens
    refused(game, p, Place("Narnia"), NoSuchRegion)
    refused(game, p, Place("Russia"), NoSuchRegion)  # not in play with 2 players
    refused(game, p, Place("Gallia", "Italia"), CardNotHeld)  # the Peasant's cube
    refused(game, p, Plague("Anglia"), OutOfOrder)  # C before B
    refused(game, 1 - p, Place("Gallia"), NotYourTurn)
    game.apply(p, Place("Gallia"))
    refused(game, p, Place("Gallia"), OutOfOrder)  # twice


def test_take_a_card_from_the_table_or_another_player_once_per_turn() -> None:
    game, _ = after_setup(2)
    p = turn_player(game)
    give(game, 1 - p, "Witch")
    game.apply(p, Take("witch"))
    assert game.holds(p, "Witch") and game.took
    refused(game, p, Take("King"), OutOfOrder)
    assert game.log[-1].data == {"card": "Witch", "taken_from": 1 - p}


def test_take_refusals() -> None:
    game, _ = after_setup(2)
    p = turn_player(game)
    give(game, p, "Monk")
    refused(game, p, Take("Monk"), BadChoice)  # holds it already
    refused(game, p, Take("Jester"), BadChoice)


def test_king_moves_a_cube_from_a_token_free_region_to_the_palace() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A")
    cubes(game, "Gallia", 1, 0)
    cubes(game, "Italia", 2, 0) if p == 0 else cubes(game, "Italia", 0, 2)
    if p == 1:
        cubes(game, "Gallia", 0, 1)
    refused(game, p, King("Italia"), CardNotHeld)
    give(game, p, "King")
    refused(game, p, King("Gallia"), AbilityNotAllowed)  # the region holds tokens
    refused(game, p, King("Hispania"), AbilityNotAllowed)  # no cube there: changes nothing
    game.apply(p, King("Italia"))
    assert game.palace[p] == 1 and game.cubes[game.region("Italia")][p] == 1
    refused(game, p, King("Italia"), AbilityNotAllowed)  # once per turn


def test_peasant_places_one_more_cube_anywhere() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A", "5 A")
    give(game, p, "Peasant")
    game.apply(p, Place("Gallia", "Polonia"))  # Polonia holds no token
    assert game.cubes[game.region("Gallia")][p] == 2
    assert game.cubes[game.region("Polonia")][p] == 1
    assert "Peasant" in game.used


def test_peasant_needs_a_cube_left() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "5 A", "5 A")
    give(game, p, "Peasant")
    leave(game, p, 2)
    refused(game, p, Place("Gallia", "Polonia"), WrongCount)


def test_monk_moves_a_token_to_a_neighbour_never_a_fourth() -> None:
    game, table, p = on_empty_board(2)
    (h,) = put(game, table, "Gallia", "5 A")
    put(game, table, "Hispania", "5 A", "5 A", "5 A")
    give(game, p, "Monk")
    refused(game, p, Monk("Gallia", 1, "Hispania"), RegionFull)
    refused(game, p, Monk("Gallia", 1, "Polonia"), NotNeighbour)
    refused(game, p, Monk("Gallia", 2, "Italia"), BadChoice)
    game.apply(p, Monk("Gallia", 1, "Italia"))
    assert game.tokens[game.region("Italia")] == [h] and game.tokens[game.region("Gallia")] == []
    refused(game, p, Monk("Italia", 1, "Gallia"), AbilityNotAllowed)


def test_merchant_moves_up_to_three_cubes_to_one_neighbour() -> None:
    game, _, p = on_empty_board(2)
    seat_cubes(game, "Gallia", {p: 4})
    give(game, p, "Merchant")
    refused(game, p, Merchant("Gallia", "Italia", 4), WrongCount)
    refused(game, p, Merchant("Gallia", "Polonia", 2), NotNeighbour)
    refused(game, p, Merchant("Italia", "Gallia", 1), WrongCount)  # no cubes of his there
    game.apply(p, Merchant("Gallia", "Italia", 3))
    assert game.cubes[game.region("Italia")][p] == 3
    assert game.cubes[game.region("Gallia")][p] == 1
    refused(game, p, Merchant("Gallia", "Italia", 1), AbilityNotAllowed)  # once per turn
    refused(game, p, Merchant("Italia", "Gallia", 1), AbilityNotAllowed)


def test_witch_looks_privately_and_may_swap() -> None:
    game, table, p = on_empty_board(2)
    (a,) = put(game, table, "Gallia", "1 A")
    b, c = put(game, table, "Italia", "5 A", "2 M Pea")
    give(game, p, "Witch")
    refused(game, p, Witch(("Gallia", 1), ("Gallia", 1)), BadChoice)
    refused(game, p, Witch(("Gallia", 2), ("Italia", 1)), BadChoice)
    game.apply(p, Witch(("Gallia", 1), ("Italia", 2)))
    # The table was asked to show the two tokens to the Witch's holder only.
    table.settle(game)
    assert game.seen[p] == {a, c} and game.public == set()
    mine, theirs = RattusView(game, p), RattusView(game, 1 - p)
    assert [t.text() if t else None for t in mine.tokens(game.region("Italia"))] == [
        None,
        "2 M Pea",
    ]
    assert theirs.tokens(game.region("Gallia")) == [None]
    assert all(e.kind != "witch-look" for e in theirs.events())
    assert any(e.kind == "witch-look" for e in mine.events())
    d = game.decision
    assert d is not None and d.kind is Kind.SWAP
    game.apply(p, Swap(True))
    assert game.tokens[game.region("Gallia")] == [c]
    assert game.tokens[game.region("Italia")] == [b, a]
    d = game.decision
    assert d is not None and d.kind is Kind.TURN
    refused(game, p, Witch(("Gallia", 1), ("Italia", 1)), AbilityNotAllowed)


def test_a_witch_look_kept_is_a_use_of_the_witch() -> None:
    """Ruling 2: a look followed by "keep" changes nothing on the board, yet it is a use."""
    game, table, p = on_empty_board(2)
    a, b = put(game, table, "Italia", "5 A", "2 M Pea")
    give(game, p, "Witch")
    game.apply(p, Witch(("Italia", 1), ("Italia", 2)))
    table.settle(game)
    game.apply(p, Swap(False))
    assert game.tokens[game.region("Italia")] == [a, b]
    assert "Witch" in game.used
    assert not any(isinstance(m, Witch) for m in legal(game, p))
    refused(game, p, Witch(("Italia", 1), ("Italia", 2)), AbilityNotAllowed)


def test_witch_may_look_at_two_tokens_of_one_region() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Italia", "5 A", "2 M Pea")
    give(game, p, "Witch")
    game.apply(p, Witch(("Italia", 1), ("Italia", 2)))
    table.settle(game)
    assert len(game.seen[p]) == 2


def test_plague_moves_to_a_neighbour_and_knight_one_or_two() -> None:
    game, _table, p = on_empty_board(2)
    game.plague = game.region("Anglia")
    game.placed = True
    refused(game, p, Plague("Anglia"), AbilityNotAllowed)  # it must move
    refused(game, p, Plague("Italia"), NotNeighbour)
    refused(game, p, Plague("Italia", via="Gallia"), CardNotHeld)
    give(game, p, "Knight")
    refused(game, p, Plague("Polonia", via="Gallia"), NotNeighbour)
    refused(game, p, Plague("Anglia", via="Gallia"), AbilityNotAllowed)
    refused(game, p, Plague("Italia", via="Gallia", knight=True), AbilityNotAllowed)  # no cubes
    game.apply(p, Plague("Italia", via="Gallia"))
    assert game.plague == game.region("Italia")


def test_plague_without_placing_when_no_region_holds_tokens() -> None:
    game, table, p = on_empty_board(2)
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))  # B is impossible: nothing to place on
    table.settle(game)
    d = game.decision
    assert d is not None and d.kind is Kind.TURN and d.player == 1 - p


def test_peasants_cube_on_a_normal_turn_when_no_region_holds_tokens() -> None:
    game, _, p = on_empty_board(2)
    give(game, p, "Peasant")
    game.plague = game.region("Anglia")
    placing = [m for m in legal(game, p) if isinstance(m, Place)]
    assert placing and all(m.region is None and m.extra is not None for m in placing)
    assert len(placing) == game.k  # one cube, to any region in play
    refused(game, p, Place("Polonia"), NoTokens)  # the main placement needs tokens
    before = game.supply[p]
    game.apply(p, Place(None, "Polonia"))
    assert game.cubes[game.region("Polonia")][p] == 1 and game.supply[p] == before - 1
    refused(game, p, Place(None, "Italia"), OutOfOrder)  # once
    game.apply(p, Plague("Gallia"))


def test_moves_while_the_game_waits_for_the_table_are_refused() -> None:
    game, table, p = on_empty_board(2)
    put(game, table, "Italia", "5 A", "2 M Pea")
    give(game, p, "Witch")
    game.apply(p, Witch(("Italia", 1), ("Italia", 2)))
    with pytest.raises(NotYourTurn):
        game.apply(p, Swap(False))
