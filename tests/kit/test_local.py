"""The local table, the play-to-end loop and the record lines: one of each, for every game."""

from __future__ import annotations

import pytest

from rattus_net.kit.errors import MoveSyntaxError, RecordError, SetupError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end, settle
from rattus_net.kit.record import move_lines, parse_move_lines
from rattus_net.kit.registry import game_names, get_game
from rattus_net.kit.table import PublicRandom


@pytest.mark.parametrize("name", game_names())
def test_a_scripted_random_number_out_of_range_is_refused(name: str) -> None:
    """(Rattus checked it and Rattus Cartus did not: the one table checks it for both.)"""
    g = get_game(name)
    game = g.new_game(g.configure(["A", "B"], {}))
    table = LocalTable(1, script_randoms=[10**30])
    with pytest.raises(SetupError, match="out of range"):
        while not isinstance(game.pending, PublicRandom):
            table.answer(game)
        table.answer(game)


@pytest.mark.parametrize("name", game_names())
def test_a_strict_table_refuses_what_its_script_does_not_give(name: str) -> None:
    g = get_game(name)
    with pytest.raises(SetupError, match="the record gives no"):
        settle(g.new_game(g.configure(["A", "B"], {})), LocalTable(1, strict=True))


@pytest.mark.parametrize("name", game_names())
def test_one_seed_one_game_and_the_table_keeps_what_it_decided(name: str) -> None:
    g = get_game(name)
    ends = []
    for _ in range(2):
        game = g.new_game(g.configure(["A", "B", "C"], {}))
        table = LocalTable(9)
        play_to_end(game, table, lambda state, seat: g.legal(state, seat)[0])
        ends.append((game.history, table.chance))
    assert ends[0] == ends[1] and ends[0][1].shuffles and game.is_over


def test_the_loop_stops_where_asked() -> None:
    g = get_game("rattus")
    game = g.new_game(g.configure(["A", "B"], {}))
    play_to_end(
        game, LocalTable(2), lambda s, seat: g.legal(s, seat)[0], lambda s: len(s.history) == 5
    )
    assert len(game.history) == 5 and not game.is_over


def test_move_lines_are_read_back_and_say_where_they_are_wrong() -> None:
    g = get_game("rattus")
    players = ("Ann", "Bob")
    moves = [(1, g.parse_move("take King")), (0, g.parse_move("done"))]
    lines = move_lines(players, moves, g.format_move)
    assert lines == ["Bob: take King", "Ann: done"]
    assert parse_move_lines(lines, players, g.parse_move) == moves
    for bad, said in [
        ("nope", 'move 1 must read "Name: move"'),
        ([7], 'move 1 must read "Name: move"'),
        (["Cid: done"], "move 1: 'Cid' is not one of the players"),
        (["Ann: fly"], "move 1: 'fly' is not a move"),
    ]:
        with pytest.raises(RecordError, match=said if bad != "nope" else "must be a list"):
            parse_move_lines(bad, players, g.parse_move)
    with pytest.raises(MoveSyntaxError):
        g.parse_move("fly")
