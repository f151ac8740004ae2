"""Rattus-specific rule violations, subclasses of the shared ``IllegalMove`` family.

Every one is raised before the state changes, so a caller can show the message and ask again.
"""

from __future__ import annotations

from rattus_net.kit.errors import BadChoice, CardNotHeld, IllegalMove, WrongCount


class NoSuchRegion(BadChoice):
    """A region that is not in play (or not a region at all)."""


class CardNotHeldError(CardNotHeld):
    """An ability of a class card the player does not hold."""


class AbilityNotAllowed(IllegalMove):
    """An ability used twice in a turn, or in a way that would not change the board
    (ruling 6.2), or out of its limits (the Monk's 3-token cap, a token-free region for the
    King, neighbours only for the Merchant and the Monk)."""


class NoTokens(IllegalMove):
    """Cubes placed on a region with no rat tokens (only the Peasant's extra cube may go
    there)."""


class NotNeighbour(IllegalMove):
    """A plague move, spread, Monk or Merchant move to a region that is not a neighbour."""


class RegionFull(IllegalMove):
    """A fourth token in a region."""


class OutOfOrder(IllegalMove):
    """A step of the turn out of its order: the plague moved before the cubes were placed,
    a card taken twice, cubes placed twice."""


__all__ = [
    "AbilityNotAllowed",
    "CardNotHeldError",
    "NoSuchRegion",
    "NoTokens",
    "NotNeighbour",
    "OutOfOrder",
    "RegionFull",
    "WrongCount",
]
