"""Bots: players that decide from a player's view only."""

from __future__ import annotations

from typing import Any, Protocol

from rattus_net.bots.base import Bot, RandomBot
from rattus_net.bots.heuristic import HeuristicBot
from rattus_net.bots.search import SearchBot

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

BOT_KINDS = ("random", "heuristic", "search")
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
    """A bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded randomness.

    ``seconds`` / ``iterations`` bound a searching bot's thinking per decision (ignored by the
    others); without them the search bot uses its default time budget."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "search":
        return SearchBot(seed, seconds=seconds, iterations=iterations)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}")


class GameBot(Protocol):
    """A bot of any game of the family: it decides from that game's view of one seat."""

    kind: str

    def choose(self, view: Any) -> Any: ...


def make_game_bot(
    game: str,
    kind: str,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> GameBot:
    """A bot of ``kind`` for the game called ``game`` (``rattus_net.games.GAMES``): the
    network peer and the hosted bot seats make their bots here, whatever the table's game."""
    if game == "rattus":
        from rattus_net.bots.rattus import make_rattus_bot

        return make_rattus_bot(kind, seed, seconds=seconds, iterations=iterations)
    if game != "cartus":
        raise ValueError(f"no bots for the game {game!r}")
    return make_bot(kind, seed, seconds=seconds, iterations=iterations)
