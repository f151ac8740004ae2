"""What a local table decided, and where its chance may come from (shared by every game).

A local table keeps what it decided (``Chance``) so a game record can say what the order of
hidden things was; a ``ChanceSource`` lets it take its chance from somewhere other than a
seeded generator (for example what honest network peers would produce from the same seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Chance:
    """What the table decided: shuffled orders (faces, top first) per pile and random numbers,
    in the order they were asked."""

    shuffles: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    randoms: list[int] = field(default_factory=list)


class ChanceSource(Protocol):
    """Where a seeded table's chance comes from, instead of ``random.Random(seed)``: for
    example what honest peers of the network table would produce from the same seed (so a
    local game and a secure game of one seed are the same game: ``protocol/seeded.py``).

    For a pile named in ``drawn_piles`` the table does not ask for a shuffled order: it asks
    ``draw`` for the faces of the pieces each time some are turned up, drawn from the faces
    not drawn yet (as the network table draws Rattus Cartus's building deck, card by card,
    with commit-reveal randomness)."""

    drawn_piles: frozenset[str]

    def shuffle(self, pile: str, faces: tuple[int, ...]) -> tuple[int, ...]:
        """The shuffled order of ``faces`` (top first)."""
        ...

    def random(self, bound: int, purpose: str) -> int:
        """A number in ``range(bound)``."""
        ...

    def draw(self, pile: str, positions: tuple[int, ...], left: tuple[int, ...]) -> tuple[int, ...]:
        """The faces of the pile's pieces at ``positions`` (indices in the ``Shuffle``
        request's handles) turned up now, drawn from ``left`` (faces not drawn yet, sorted)."""
        ...
