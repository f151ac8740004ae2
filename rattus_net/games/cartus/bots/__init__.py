"""Rattus Cartus's bots: the random one (the kit's), a heuristic one and a searching one.

Each decides from its seat's :class:`~rattus_net.games.cartus.view.PlayerView` only; its
randomness comes from its own seeded generator.
"""

from __future__ import annotations

from rattus_net.bots import bot_of_kind
from rattus_net.bots.random import RandomBot
from rattus_net.games.cartus.bots.heuristic import HeuristicBot
from rattus_net.games.cartus.bots.search import SearchBot
from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.interface import NO_BUDGET, Bot, Budget

CartusBot = Bot[PlayerView, Move]


def make_bot(kind: str, seed: int | None = None, budget: Budget = NO_BUDGET) -> CartusBot:
    """A bot of ``kind`` (one of ``BOT_KINDS``) with its own seeded randomness; the budget
    bounds the search bot's thinking per decision (its default time without one)."""
    return bot_of_kind(kind, seed, budget, RandomBot[Move], HeuristicBot, SearchBot)


__all__ = ["CartusBot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]
