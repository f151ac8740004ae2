"""Bots: players that decide from a seat's view only.

Here is what serves every game: the random bot (``random.py``) and the information-set search
(``ismcts.py``); a game supplies its own bots (``GameDefinition.make_bot``, in its folder),
offering the kinds of ``BOT_KINDS``. :func:`make_game_bot` is how the network peer and the
hosted bot seats make the bots of whatever game their table plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

from rattus_net.kit import interface
from rattus_net.kit.interface import BOT_KINDS, BOT_NAMES, Budget
from rattus_net.kit.registry import get_game

__all__ = ["BOT_KINDS", "BOT_LEVELS", "BOT_NAMES", "GameBot", "bot_of_kind", "make_game_bot"]

V = TypeVar("V")
M = TypeVar("M")

GameBot: TypeAlias = interface.Bot[Any, Any]
"""A bot of any game (it decides from that game's view of one seat)."""

# How the TUI offers the bots: as difficulty levels.
BOT_LEVELS = {"random": "easy", "heuristic": "normal", "search": "hard"}


def bot_of_kind(
    kind: str,
    seed: int | None,
    budget: Budget,
    random: Callable[[int | None], interface.Bot[V, M]],
    heuristic: Callable[[int | None], interface.Bot[V, M]],
    search: Callable[[int | None, float | None, int | None], interface.Bot[V, M]],
) -> interface.Bot[V, M]:
    """A game's bot of ``kind`` (one of ``BOT_KINDS``): its ``random`` (the kit's random bot
    for its moves), ``heuristic`` or ``search`` one, seeded ``seed`` (the search bounded by
    ``budget``)."""
    if kind == "random":
        return random(seed)
    if kind == "heuristic":
        return heuristic(seed)
    if kind == "search":
        return search(seed, budget.seconds, budget.iterations)
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
    return get_game(game).make_bot(kind, seed, Budget(seconds, iterations))
