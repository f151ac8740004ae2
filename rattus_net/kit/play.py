"""Driving a game: the table answers, players choose, until the end (one loop, any game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from rattus_net.kit.interface import GameState, Table

G = TypeVar("G", bound=GameState[Any])


Chooser = Callable[[G, int], Any]
"""The move of ``seat``, who must act in ``game``: ``choose(game, seat)``."""


def settle(game: GameState[Any], table: Table) -> None:
    """Let ``table`` answer requests until a player must act or the game is over."""
    while game.pending is not None and not game.to_act():
        table.answer(game)


def play_to_end(
    game: G, table: Table, choose: Chooser[G], until: Callable[[G], bool] | None = None
) -> G:
    """Drive ``game`` to its end (or until ``until(game)`` holds, asked before each step):
    the table answers requests and ``choose(game, seat)`` decides for whichever seat must
    act (the first one listed when several may)."""
    while not game.is_over:
        if until is not None and until(game):
            break
        seats = game.to_act()
        if seats:
            game.apply(seats[0], choose(game, seats[0]))
        else:
            table.answer(game)
    return game
