"""Rattus's words at a network table (``rattus_net.games.base.TableWords``): one line per
event, as ``rattus replay`` says it (a front end may tell more: the TUI's map does)."""

from __future__ import annotations

from collections.abc import Sequence

from rattus_net.games.rattus.report import event_text
from rattus_net.games.rattus.view import RattusView


class RattusWords:
    """Rattus: one line per event (``report.event_text``, as ``rattus replay`` says it)."""

    things = "tokens"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names = tuple(names)
        self.seat = seat

    def lines(self, view: RattusView, start: int) -> list[str]:
        out = []
        for event in view.events(start):
            text = event_text(event, self.names, self.seat)
            if text is not None:
                out.append(text[0].upper() + text[1:] + ".")
        return out

    def decision(self, view: RattusView) -> str:
        d = view.decision
        return "decide." if d is None else f"decide ({d.kind.value})."


__all__ = ["RattusWords"]
