"""Bots: players that decide from a player's view only."""

from __future__ import annotations

from rattus_net.bots.base import Bot, RandomBot
from rattus_net.bots.heuristic import HeuristicBot

BOT_KINDS = ("random", "heuristic")


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded randomness."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}")
