"""Bots: players that decide from a player's view only.

A game supplies its bots (``GameDefinition.make_bot``); every game offers the kinds of
``BOT_KINDS``. :func:`make_game_bot` is how the network peer and the hosted bot seats make
the bots of whatever game their table plays.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from rattus_net.bots.base import Bot, RandomBot
from rattus_net.bots.heuristic import HeuristicBot
from rattus_net.bots.search import SearchBot
from rattus_net.kit import interface
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.registry import get_game

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "BOT_NAMES",
    "Bot",
    "GameBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "make_game_bot",
]

GameBot: TypeAlias = interface.Bot[Any, Any]
"""A bot of any game (it decides from that game's view of one seat)."""

# How the TUI offers the bots: as difficulty levels.
BOT_LEVELS = {"random": "easy", "heuristic": "normal", "search": "hard"}
# The names bots sit down with (offline seats, and bot seats a host adds to a network table).
BOT_NAMES = ("Agnes", "Bertram", "Cecily", "Dietrich", "Elsbeth")


def make_bot(
    kind: str,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> Bot:
    """A Rattus Cartus bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded randomness.

    ``seconds`` / ``iterations`` bound a searching bot's thinking per decision (ignored by the
    others); without them the search bot uses its default time budget."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "search":
        return SearchBot(seed, seconds=seconds, iterations=iterations)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}")


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
