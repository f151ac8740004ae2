"""Rattus Cartus's bots: the random one (the kit's), a heuristic one and a searching one.

Each decides from its seat's :class:`~rattus_net.games.cartus.view.PlayerView` only; its
randomness comes from its own seeded generator.
"""

from __future__ import annotations

from rattus_net.bots.random import RandomBot
from rattus_net.games.cartus.bots.heuristic import HeuristicBot
from rattus_net.games.cartus.bots.search import SearchBot
from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.interface import BOT_KINDS, Bot

CartusBot = Bot[PlayerView, Move]


def make_bot(
    kind: str,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> CartusBot:
    """A bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded randomness.

    ``seconds`` / ``iterations`` bound a searching bot's thinking per decision (ignored by the
    others); without them the search bot uses its default time budget."""
    if kind == "random":
        return RandomBot[Move](seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "search":
        return SearchBot(seed, seconds=seconds, iterations=iterations)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}")


__all__ = ["CartusBot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]
