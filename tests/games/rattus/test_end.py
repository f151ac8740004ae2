"""The end (rules section 4): both triggers, the turn played to its end, the final round's
order and abilities, the final outbreak everywhere (ruling 1's order) and the tie-break (from
the ender's left, the ender last: the other way round from the final round)."""

from __future__ import annotations

from itertools import combinations

import pytest

from rattus_net.games.rattus.decision import CUBES_OUT, SUPPLY
from rattus_net.games.rattus.errors import AbilityNotAllowed, OutOfOrder
from rattus_net.games.rattus.game import Kind, Phase, RattusGame
from rattus_net.games.rattus.moves import (
    Done,
    King,
    Merchant,
    Monk,
    Place,
    Plague,
    Swap,
    Take,
    Witch,
)
from rattus_net.games.rattus.rules import legal
from rattus_net.kit.errors import CardNotHeld
from rattus_net.kit.local import LocalTable

from .helpers import (
    after_setup,
    cubes,
    empty_board,
    give,
    leave,
    on_empty_board,
    put,
    resolve,
    seat_cubes,
    seat_total,
    snapshot,
    turn_player,
)


def place_last_cube(game: RattusGame, table: LocalTable, plague_to: str = "Gallia") -> int:
    """The active player places his last cube (on Scandia, a ``5 A`` token; the rest of his
    cubes wait in the palace) and moves the plague from Anglia to ``plague_to``: end (b).
    Returns the ender."""
    p = turn_player(game)
    put(game, table, "Scandia", "5 A")
    leave(game, p, 1)
    game.apply(p, Place("Scandia"))
    game.plague = game.region("Anglia")
    game.apply(p, Plague(plague_to))
    resolve(game, table)
    return p


def final_turns(game: RattusGame, table: LocalTable) -> list[int]:
    """Answer every final-round decision with ``done``; the seats asked, in order."""
    asked = []
    while game.decision is not None and game.decision.kind is Kind.FINAL:
        asked.append(game.decision.player)
        game.apply(game.decision.player, Done())
        resolve(game, table)
    return asked


def kinds_after(game: RattusGame, kind: str) -> list[str]:
    """The kinds of the events logged from the last ``kind`` event on."""
    idx = max(i for i, e in enumerate(game.log) if e.kind == kind)
    return [e.kind for e in game.log[idx:]]


# --- end (b): all of the active player's cubes on the board and in the palace ---------------


def test_all_cubes_on_the_board_and_in_the_palace_end_the_game_after_that_turn() -> None:
    game, table = after_setup(2)
    empty_board(game)
    p = place_last_cube(game, table)
    assert game.supply[p] == 0 and game.palace[p] > 0  # the palace counts as on the board
    assert game.end_reason == CUBES_OUT and game.ender == p
    assert game.is_over  # nobody holds a card: no final-round decision
    r = game.result
    assert r is not None and r.reason == CUBES_OUT and r.ender == p


def test_end_b_is_judged_at_the_end_of_the_turn_after_the_outbreak() -> None:
    """The last cube placed, then struck by the turn's own outbreak: it is back in the
    supply at the end of the turn, so the game goes on."""
    game, table, p = on_empty_board(2)
    put(game, table, "Gallia", "1 A")
    leave(game, p, 1)
    game.apply(p, Place("Gallia"))
    assert game.supply[p] == 0
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    assert game.supply[p] == 1 and game.struck[p] == 1
    assert game.end_reason is None and game.phase is Phase.PLAY
    assert turn_player(game) == 1 - p


def test_only_the_active_players_cubes_count_for_end_b() -> None:
    game, table, p = on_empty_board(2)
    leave(game, 1 - p, 0)  # the other player has every cube out, the active one has not
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    assert game.end_reason is None and turn_player(game) == 1 - p


# --- end (a): the rat supply became empty during the turn -----------------------------------


def spread_from(game: RattusGame, table: LocalTable, supply: int, tokens: int) -> int:
    """The active player strikes Gallia (``tokens`` tokens, a cube each) with ``supply``
    tokens left in the rat supply. Returns him."""
    p = turn_player(game)
    empty_board(game)
    put(game, table, "Gallia", *["1 A"] * tokens)
    game.removed += game.rat_supply[supply:]
    del game.rat_supply[supply:]
    cubes(game, "Gallia", 1, 1)
    game.placed = True
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    return p


def test_a_spread_taking_exactly_the_last_token_ends_the_game() -> None:
    game, table = after_setup(2)
    p = spread_from(game, table, supply=1, tokens=1)
    assert game.rat_supply == []
    assert game.end_reason == SUPPLY and game.ender == p
    # The turn was played to its end: its outbreak struck both cubes, then the end came.
    assert game.struck == [1, 1]
    assert game.is_over and game.result is not None and game.result.reason == SUPPLY


def test_a_spread_with_one_token_to_spare_goes_on() -> None:
    game, table = after_setup(2)
    p = spread_from(game, table, supply=2, tokens=1)
    assert len(game.rat_supply) == 1
    assert game.end_reason is None and turn_player(game) == 1 - p


def test_a_token_needed_when_none_is_left_ends_the_game() -> None:
    """Two tokens to spread, one in the supply: it is placed, and the game ends."""
    game, table = after_setup(2)
    p = spread_from(game, table, supply=1, tokens=2)
    assert game.rat_supply == [] and game.end_reason == SUPPLY and game.ender == p
    spread = [e for e in game.log if e.kind == "spread"][-1]
    assert len(spread.data["regions"]) == 1 and spread.data["left"] == 0


def test_the_log_says_the_game_ends_after_the_turns_spread_and_outbreak() -> None:
    game, table = after_setup(2)
    spread_from(game, table, supply=1, tokens=1)
    after = kinds_after(game, "spread")
    assert after.index("turn-up") < after.index("loss") < after.index("end-trigger")
    assert after.index("end-trigger") < after.index("final-round")


# --- the final round ------------------------------------------------------------------------


def test_final_round_runs_counter_clockwise_from_the_enders_right_without_him() -> None:
    game, table, p = on_empty_board(4)
    for s, card in enumerate(("Monk", "Merchant", "Witch", "King")):
        give(game, s, card)
    place_last_cube(game, table)
    assert game.phase is Phase.FINAL
    expected = [(p - 1) % 4, (p - 2) % 4, (p - 3) % 4]
    assert game.final_order == tuple(expected)
    assert final_turns(game, table) == expected
    r = game.result
    assert r is not None and r.final_order == tuple(expected)
    # The tie-break runs the other way: from the ender's left, the ender last.
    assert r.tie_order == ((p + 1) % 4, (p + 2) % 4, (p + 3) % 4, p)


def test_final_round_allows_only_abilities_each_once() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
    give(game, q, "Peasant", "King")
    seat_cubes(game, "Polonia", {q: 2})
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


def test_final_round_monk_merchant_and_witch_each_once() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
    give(game, q, "Monk", "Merchant", "Witch")
    put(game, table, "Italia", "1 A", "5 A")
    seat_cubes(game, "Italia", {q: 3})
    place_last_cube(game, table)
    d = game.decision
    assert d is not None and d.kind is Kind.FINAL and d.player == q
    game.apply(q, Witch(("Italia", 1), ("Italia", 2)))
    table.settle(game)
    game.apply(q, Swap(False))  # a look kept is still a use (ruling 2)
    with pytest.raises(AbilityNotAllowed):
        game.apply(q, Witch(("Italia", 1), ("Italia", 2)))
    game.apply(q, Monk("Italia", 1, "Hispania"))  # the 1 A leaves his cubes
    with pytest.raises(AbilityNotAllowed):
        game.apply(q, Monk("Italia", 1, "Hispania"))
    game.apply(q, Merchant("Italia", "Germania", 3))  # and so do his cubes
    with pytest.raises(AbilityNotAllowed):
        game.apply(q, Merchant("Germania", "Italia", 1))
    assert not [m for m in legal(game, q) if not isinstance(m, Done)]
    game.apply(q, Done())
    resolve(game, table)
    r = game.result
    assert r is not None and r.board[q] == 3 and game.struck[q] == 0


def test_final_round_knight_moves_the_plague_and_its_plus_two_counts() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
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
    assert game.struck == [1, 1]
    assert game.cubes[game.region("Italia")] == [0, 0]  # 2 cubes + 2 >= 4: A strikes


def test_final_round_knights_plus_two_without_moving() -> None:
    """The plague stays where it is and the Knight's +2 counts in its final outbreak."""
    game, table, p = on_empty_board(2)
    q = 1 - p
    give(game, q, "Knight", "Peasant")
    put(game, table, "Gallia", "1 A", "3 A", ring=False)
    seat_cubes(game, "Gallia", {q: 1})
    # The ender's outbreak in Gallia: 1 A strikes q's only cube there, 3 A stays face down.
    place_last_cube(game, table, plague_to="Gallia")
    g = game.region("Gallia")
    assert len(game.tokens[g]) == 1 and game.cubes[g] == [0, 0] and game.struck[q] == 1
    game.apply(q, Place(None, "Gallia"))  # the Peasant's cube: 1 cube, below 3
    assert Plague("Gallia", None, True) in legal(game, q)
    game.apply(q, Plague("Gallia", knight=True))  # stays, counts 2 more: 1 + 2 >= 3
    assert game.plague == g and game.knight_region == g
    game.apply(q, Done())
    resolve(game, table)
    assert game.cubes[g] == [0, 0] and game.struck[q] == 2


def test_final_outbreak_strikes_every_region_in_order_slot_by_slot() -> None:
    game, table = after_setup(2)
    empty_board(game)
    put(game, table, "Polonia", "1 M Pea", "5 A", ring=False)
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
    assert all(seat_total(game, s) == 20 for s in range(2))


# --- the winner and the tie-break -----------------------------------------------------------


def end_with_totals(n: int, totals: dict[int, int]) -> tuple[RattusGame, int]:
    """A game of ``n`` players, seat ``s`` with ``totals[s]`` cubes in Germania (no tokens:
    safe), ended by end (a): the active player strikes Gallia, which holds one token and no
    cube, and its spread takes the rat supply's last token. Returns the game and the
    ender."""
    game, table, p = on_empty_board(n)
    cubes(game, "Germania", *(totals[s] for s in range(n)))
    put(game, table, "Gallia", "5 A")
    game.removed += game.rat_supply[1:]
    del game.rat_supply[1:]
    game.placed = True
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    final_turns(game, table)
    assert game.is_over and game.end_reason == SUPPLY and game.ender == p
    return game, p


def test_the_most_cubes_wins() -> None:
    game, p = end_with_totals(3, {0: 5, 1: 5, 2: 5})
    r = game.result
    assert r is not None and r.tied  # everybody tied: the ender's left neighbour wins
    assert r.winner == (p + 1) % 3
    game, p = end_with_totals(3, {p: 7, (p + 1) % 3: 6, (p + 2) % 3: 2})
    r = game.result
    assert r is not None and not r.tied and r.winner == p


def test_the_palace_decides_a_win() -> None:
    """Fewer cubes on the board, more in the palace: the palace counts (rules section 4)."""
    game, table, p = on_empty_board(2)
    q = 1 - p
    seat_cubes(game, "Germania", {q: 6})
    game.palace[q] += 2
    game.supply[q] -= 2
    place_last_cube(game, table)  # p: 19 in the palace, 1 on the board
    r = game.result
    assert r is not None
    assert r.totals[p] == 20 and r.board[p] == 1 and r.palace[p] == 19
    assert r.winner == p
    assert r.board[q] == 6 and r.palace[q] == 2
    # With the palace left out, q would have won on the board.
    assert r.board[q] > r.board[p]


@pytest.mark.parametrize("pair", list(combinations(range(4), 2)))
def test_four_player_tie_break_for_every_pair_of_tied_seats(pair: tuple[int, int]) -> None:
    """Two seats tied on the most cubes: the one who would have had the next turn wins, in
    turn order from the ender's left, the ender last (the designer's "2 > 3 > 4 > 1" for
    ender 1). ``pair``: the tied seats, counted from the ender (0 the ender, 1 his left)."""
    game, p = end_with_totals(4, dict.fromkeys(range(4), 3))  # the ender, known after setup
    seats = [(p + i) % 4 for i in range(4)]
    tied = {seats[i] for i in pair}
    game, p2 = end_with_totals(4, {s: 6 if s in tied else 3 for s in range(4)})
    assert p2 == p  # the same seed: the same first player
    r = game.result
    assert r is not None
    assert r.tie_order == (seats[1], seats[2], seats[3], p)
    assert r.final_order == (seats[3], seats[2], seats[1])  # the other way round
    assert r.tied and set(r.tied_players) == tied
    assert r.winner == seats[min(i for i in pair if i != 0) if 0 in pair else min(pair)]
    assert r.tied_players[0] == r.winner


def test_ender_loses_a_tie_against_anyone() -> None:
    game, p = end_with_totals(2, {0: 2, 1: 2})
    r = game.result
    assert r is not None and r.totals == (2, 2) and r.winner == 1 - p
