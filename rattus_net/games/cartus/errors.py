"""Rattus Cartus's own rule violations, subclasses of the kit's ``IllegalMove`` family.

Every one is raised before the state changes, so a caller can show the message and ask again.
"""

from __future__ import annotations

from rattus_net.kit.errors import IllegalMove


class CardNotPlayable(IllegalMove):
    """Gold and Pass cannot be laid face down in a building."""


class PassNotAllowed(IllegalMove):
    """A Pass needs a Pass card and at least one other player who has not entered yet."""
