"""The decisions a Rattus game waits for and the reasons it ends (kept apart so that the
rules can name them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

SUPPLY = "supply"
"""End (a): the rat supply became empty during the turn (or a token was needed and none was
left)."""
CUBES_OUT = "cubes"
"""End (b): at the end of his turn the active player has all 20 cubes on the board and in the
palace."""


class Kind(Enum):
    START = "start"  # place 2 start cubes
    TURN = "turn"  # A, B, abilities, then C (the plague move ends it)
    SWAP = "swap"  # after a Witch's look: swap or keep
    SPREAD = "spread"  # where the new tokens go
    TURN_UP = "turn-up"  # which face-down token to turn up next
    FINAL = "final"  # final round: abilities, then done


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game waits for: ``player`` must answer a ``kind`` decision. ``count``:
    SPREAD the tokens to place. ``region``: SPREAD/TURN_UP the struck region (index)."""

    kind: Kind
    player: int
    count: int = 0
    region: int | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.player,)
