"""Bots: players that decide from a seat's view only.

Here is what serves every game: the random bot (``random.py``) and the information-set search
(``ismcts.py``); a game supplies its own bots (``GameDefinition.make_bot``, in its folder),
offering the kinds of ``BOT_KINDS``. :func:`make_game_bot` is how the network peer and the
hosted bot seats make the bots of whatever game their table plays.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from rattus_net.kit import interface
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.registry import get_game

__all__ = ["BOT_KINDS", "BOT_LEVELS", "BOT_NAMES", "GameBot", "make_game_bot"]

GameBot: TypeAlias = interface.Bot[Any, Any]
"""A bot of any game (it decides from that game's view of one seat)."""

# How the TUI offers the bots: as difficulty levels.
BOT_LEVELS = {"random": "easy", "heuristic": "normal", "search": "hard"}
# The names bots sit down with (offline seats, and bot seats a host adds to a network table).
BOT_NAMES = ("Agnes", "Bertram", "Cecily", "Dietrich", "Elsbeth")


def make_game_bot(
    game: str,
    kind: str,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> GameBot:
    """A bot of ``kind`` for the game called ``game``: the network peer and the hosted bot
    seats make their bots here, whatever the table's game."""
    return get_game(game).make_bot(kind, seed, seconds=seconds, iterations=iterations)
