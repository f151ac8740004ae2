"""The random bot, for any game: uniform over the seat's legal moves.

A bot never sees the game, only its seat's view, so it cannot know a piece its seat may not
know. Its randomness comes from its own seeded generator, which makes its choices
reproducible and lets tests check that they depend only on the view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

M = TypeVar("M", covariant=True)


class Legal(Protocol[M]):
    """A seat's view, as far as the random bot reads it."""

    def legal(self) -> Sequence[M]: ...


class RandomBot(Generic[M]):
    """Uniform over the legal choices (identical cards count once)."""

    kind = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Legal[M]) -> M:
        space = view.legal()
        return space[self.rng.randrange(len(space))]
