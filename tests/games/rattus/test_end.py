"""The end (rules section 4): both triggers, the final round's order and abilities, the final
outbreak everywhere (ruling 6.1's order) and the tie-break."""

from __future__ import annotations

import pytest

from rattus_net.engine.errors import CardNotHeld
from rattus_net.games.rattus.errors import AbilityNotAllowed, OutOfOrder
from rattus_net.games.rattus.game import Kind, Phase, RattusGame
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.moves import Done, King, Place, Plague, Take

from .helpers import after_setup, cubes, empty_board, give, put, resolve, snapshot, turn_player


def place_last_cube(game: RattusGame, table: RattusTable, plague_to: str = "Gallia") -> int:
    """The active player places his last cube (on Scandia, a ``5 A`` token) and moves the
    plague from Anglia to ``plague_to``: trigger (b). Returns the ender."""
    p = turn_player(game)
    put(game, table, "Scandia", "5 A")
    game.dead[p] += game.supply[p] - 1
    game.supply[p] = 1
    game.apply(p, Place("Scandia"))
    game.plague = game.region("Anglia")
    game.apply(p, Plague(plague_to))
    resolve(game, table)
    return p


def final_turns(game: RattusGame, table: RattusTable) -> list[int]:
    """Answer every final-round decision with ``done``; the seats asked, in order."""
    asked = []
    while game.decision is not None and game.decision.kind is Kind.FINAL:
        asked.append(game.decision.player)
        game.apply(game.decision.player, Done())
        resolve(game, table)
    return asked


def test_placing_the_last_cube_ends_the_game_after_that_turn() -> None:
    game, table = after_setup(2)
    empty_board(game)
    p = place_last_cube(game, table)
    assert game.end_reason == "cubes" and game.ender == p
    assert game.is_over  # nobody holds a card: no final-round decision
    r = game.result
    assert r is not None and r.reason == "cubes" and r.ender == p


def test_the_rat_supply_running_out_ends_the_game_after_that_turn() -> None:
    game, table = after_setup(2)
    p = turn_player(game)
    empty_board(game)
    game.removed += game.rat_supply
    game.rat_supply.clear()
    put_from_removed = game.removed.pop()
    game.tokens[game.region("Gallia")].append(put_from_removed)
    table.face_of[put_from_removed] = next(
        i for i, t in enumerate(game.token_faces) if t.text() == "1 A"
    )
    cubes(game, "Gallia", 1, 1)
    game.placed = True
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    # The turn's outbreak still happened, then the game ended.
    assert game.dead == [1, 1]
    assert game.end_reason == "supply" and game.ender == p
    assert game.is_over


def test_final_round_runs_counter_clockwise_from_the_enders_right_without_him() -> None:
    game, table = after_setup(4)
    p = turn_player(game)
    empty_board(game)
    for s, card in enumerate(("Monk", "Merchant", "Witch", "King")):
        give(game, s, card)
    place_last_cube(game, table)
    assert game.phase is Phase.FINAL
    expected = [(p - 1) % 4, (p - 2) % 4, (p - 3) % 4]
    assert game.final_order == tuple(expected)
    assert final_turns(game, table) == expected
    r = game.result
    assert r is not None and r.tie_order == (*expected, p)


def test_final_round_allows_only_abilities_each_once() -> None:
    game, table = after_setup(2)
    p = turn_player(game)
    q = 1 - p
    empty_board(game)
    give(game, q, "Peasant", "King")
    counts = [0, 0]
    counts[q] = 2
    cubes(game, "Polonia", *counts)
    place_last_cube(game, table)
    d = game.decision
    assert d is not None and d.kind is Kind.FINAL and d.player == q
    for move, error in (
        (Take("Witch"), OutOfOrder),
        (Place("Scandia"), OutOfOrder),
        (Plague("Hispania"), CardNotHeld),
    ):
        before = snapshot(game)
        with pytest.raises(error):
            game.apply(q, move)
        assert snapshot(game) == before
    game.apply(q, Place(None, "Hispania"))  # the Peasant's cube, anywhere
    game.apply(q, King("Polonia"))
    with pytest.raises(AbilityNotAllowed):
        game.apply(q, Place(None, "Hispania"))  # once
    game.apply(q, Done())
    resolve(game, table)
    r = game.result
    assert r is not None
    assert r.palace[q] == 1 and r.board[q] == 2  # Polonia 1 + Hispania 1


def test_final_round_knight_moves_the_plague_and_its_plus_two_counts() -> None:
    game, table = after_setup(2)
    p = turn_player(game)
    q = 1 - p
    empty_board(game)
    give(game, q, "Knight")
    put(game, table, "Italia", "4 A")
    counts = [1, 1]
    cubes(game, "Italia", *counts)
    place_last_cube(game, table, plague_to="Gallia")
    with pytest.raises(CardNotHeld):
        game.apply(q, Place(None, "Italia"))
    game.apply(q, Plague("Italia", via="Hispania", knight=True))
    assert game.knight_region == game.region("Italia")
    game.apply(q, Done())
    resolve(game, table)
    assert game.dead[p] > 0 or game.dead[q] > 0
    assert game.cubes[game.region("Italia")] == [0, 0]  # 2 cubes + 2 >= 4: A strikes


def test_final_outbreak_strikes_every_region_in_order_slot_by_slot() -> None:
    game, table = after_setup(2)
    empty_board(game)
    put(game, table, "Polonia", "1 M Pea", "5 A")
    put(game, table, "Anglia", "2 A")
    put(game, table, "Italia", "3 A")
    put(game, table, "Hungaria", "1 A")  # no cubes there: nothing turned up
    cubes(game, "Polonia", 2, 0)
    cubes(game, "Anglia", 1, 1)
    cubes(game, "Italia", 2, 1)
    cubes(game, "Germania", 3, 3)  # no tokens: safe
    place_last_cube(game, table, plague_to="Gallia")
    final_turns(game, table)
    assert game.is_over
    idx = next(i for i, e in enumerate(game.log) if e.kind == "final-outbreak")
    seen = [(e.data["region"], e.data["token"]) for e in game.log[idx:] if e.kind == "turn-up"]
    assert seen == [
        ("Anglia", "2 A"),
        ("Italia", "3 A"),
        ("Scandia", "5 A"),
        ("Polonia", "1 M Pea"),
        ("Polonia", "5 A"),
    ]
    assert game.cubes[game.region("Anglia")] == [0, 0]
    assert game.cubes[game.region("Italia")] == [1, 0]
    assert game.cubes[game.region("Polonia")] == [1, 0]
    assert game.cubes[game.region("Germania")] == [3, 3]
    assert len(game.tokens[game.region("Hungaria")]) == 1


@pytest.mark.parametrize(
    ("extra", "winner_at", "tied"),
    [
        ((0, 0, 0), 0, True),  # all tied: the first of the final round wins
        ((-1, 0, 0), 1, True),  # the second of the final round ties the ender and wins
        ((-1, -1, 0), 2, False),  # only the ender leads
    ],
)
def test_tie_break_by_the_final_rounds_order_ender_last(
    extra: tuple[int, int, int], winner_at: int, tied: bool
) -> None:
    game, table = after_setup(3)
    p = turn_player(game)
    empty_board(game)
    order = [(p - 1) % 3, (p - 2) % 3, p]
    base = {order[0]: 3, order[1]: 3, p: 2}  # the ender places one more cube
    for rank, s in enumerate(order):
        base[s] += extra[rank]
    cubes(game, "Germania", *(base[s] for s in range(3)))
    place_last_cube(game, table, plague_to="Gallia")
    r = game.result
    assert r is not None
    assert r.tie_order == tuple(order)
    assert r.winner == order[winner_at]
    assert r.tied == tied


def test_ender_loses_a_tie_against_anyone() -> None:
    game, table = after_setup(2)
    p = turn_player(game)
    empty_board(game)
    counts = [2, 2]
    counts[p] = 1
    cubes(game, "Germania", *counts)
    place_last_cube(game, table)
    r = game.result
    assert r is not None and r.totals == (2, 2) and r.winner == 1 - p
