"""What a bot is: something that picks a legal move from a player's view, and nothing else.

A bot never sees the game, only a :class:`~rattus_net.games.cartus.view.PlayerView`, so it cannot
know a card its seat may not know. Its randomness comes from its own seeded generator, which
makes a bot's choices reproducible and lets tests check that they depend only on the view.
"""

from __future__ import annotations

import random
from typing import Protocol

from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.view import PlayerView


class Bot(Protocol):
    """A player that decides from its view only."""

    kind: str

    def choose(self, view: PlayerView) -> Move:
        """A legal move for ``view.seat``, which must act now."""
        ...


class RandomBot:
    """Uniform over the legal choices (identical cards count once)."""

    kind = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        space = view.legal()
        return space[self.rng.randrange(len(space))]
