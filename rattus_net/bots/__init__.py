"""Bots: players that decide from a player's view only."""

from __future__ import annotations

from rattus_net.bots.base import Bot, RandomBot
from rattus_net.bots.heuristic import HeuristicBot
from rattus_net.bots.search import SearchBot

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "BOT_NAMES",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
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
