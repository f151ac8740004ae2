"""A game's words at a network table: its log in sentences, the decision awaited, its pieces.

:class:`~rattus_net.net.netgame.NetworkGame` serves any game of the family; what it says of a
game comes from that game's side through :class:`TableWords`. Each game has a default here
(built from its own narration in ``rattus_net.games``); a front end may put richer words in
their place (the TUI's Rattus map tells outbreaks step by step with ``tui.rattus.narrate``).
Every name a :class:`TableWords` gets is already made safe to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class TableWords(Protocol):
    """What a network table says of one game, for one seat."""

    things: str
    """What the table masks, shuffles and reveals ("cards", "tokens")."""

    def lines(self, view: Any, start: int) -> list[str]:
        """The view's log from event ``start`` on, in sentences (called in order, once per
        event: a narrator may keep what it needs across calls)."""
        ...

    def decision(self, view: Any) -> str:
        """The decision the view's seat must take, as a short sentence ("place 2 start
        cubes.")."""
        ...


class CartusWords:
    """Rattus Cartus: its narrator (buildings named by the row on display)."""

    things = "cards"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        from rattus_net.games.cartus.narrate import Narrator

        self.names = tuple(names)
        self._narrator = Narrator(self.names, seat)

    def lines(self, view: Any, start: int) -> list[str]:
        from rattus_net.games.cartus.narrate import narrate_view

        return narrate_view(view, self._narrator, start)

    def decision(self, view: Any) -> str:
        from rattus_net.games.cartus.narrate import decision_words

        d = view.decision
        return decision_words(d, self.names, view.row) if d is not None else "decide."


class RattusWords:
    """Rattus: one line per event (``report.event_text``, as ``rattus replay`` says it)."""

    things = "tokens"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names = tuple(names)
        self.seat = seat

    def lines(self, view: Any, start: int) -> list[str]:
        from rattus_net.games.rattus.report import event_text

        out = []
        for event in view.events(start):
            text = event_text(event, self.names)
            if text is not None:
                out.append(text[0].upper() + text[1:] + ".")
        return out

    def decision(self, view: Any) -> str:
        d = view.decision
        return "decide." if d is None else f"decide ({d.kind.value})."


def table_words(game: str, names: Sequence[str], seat: int) -> TableWords:
    """The default words of ``game`` (a name of ``rattus_net.games.GAMES``)."""
    if game == "rattus":
        return RattusWords(names, seat)
    return CartusWords(names, seat)


__all__ = ["CartusWords", "RattusWords", "TableWords", "table_words"]
