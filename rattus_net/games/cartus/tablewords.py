"""Rattus Cartus's words at a network table (``rattus_net.kit.interface.TableWords``): its
narrator, the buildings named by the row on display."""

from __future__ import annotations

from collections.abc import Sequence

from rattus_net.games.cartus.narrate import Narrator, decision_words, narrate_view
from rattus_net.games.cartus.view import PlayerView


class CartusWords:
    """Rattus Cartus: its narrator (buildings named by the row on display)."""

    things = "cards"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names = tuple(names)
        self._narrator = Narrator(self.names, seat)

    def lines(self, view: PlayerView, start: int) -> list[str]:
        return narrate_view(view, self._narrator, start)

    def decision(self, view: PlayerView) -> str:
        d = view.decision
        return decision_words(d, self.names, view.row) if d is not None else "decide."


__all__ = ["CartusWords"]
