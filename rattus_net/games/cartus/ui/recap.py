"""What happened since the player's last decision, told before the next dialog covers it.

When buildings resolved or a round ended since the player last decided, the table shows a
recap first: for each building, who laid what, the influence and rats each gained, who
took the premium and who the standard action, and what the Sword, the Flute and the Guard
Tower did; then the end of the round. The recap is built from the log's events (the
player's view of them), one line per player and building, so that a whole round fits on an
80x24 screen. The table shows it in the panel every game's recap is shown in
(:class:`tui.common.recap.RecapScreen`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.game import Event
from rattus_net.games.cartus.narrate import Narrator
from rattus_net.games.cartus.view import PlayerView
from tui.common.recap import RecapScreen

# Events that make a recap worth showing before the next decision.
WORTH_A_RECAP = frozenset({"resolve", "end-round", "game-over"})
# Told as the narrator says them, under their building.
TOLD = frozenset({"sword", "give", "gift", "flute", "guard-tower", "warning"})


def recap_events(view: PlayerView, start: int) -> tuple[list[Event], list[int]]:
    """The events the player may see from log index ``start`` on, and the row of buildings
    as it was when the first of them happened (earlier rounds had other rows)."""
    every = view.events(0)
    fresh = len(view.events(start))
    row: list[int] = []
    for e in every[: len(every) - fresh]:
        if e.kind == "row":
            row = list(e.data["cards"])
        elif e.kind == "replace" and row:
            row[-1] = e.data["new"]
    return every[len(every) - fresh :], row


def worth_a_recap(view: PlayerView, start: int) -> bool:
    """A building resolved or a round ended since log index ``start``."""
    return any(e.kind in WORTH_A_RECAP for e in view.events(start))


def _seat(t: Text, view: PlayerView, names: Sequence[str], seat: int) -> None:
    t.append(f"{R.letter(view, seat)} {names[seat]}", style=R.seat_style(view, seat))


def recap(view: PlayerView, names: Sequence[str], start: int, width: int | None = None) -> Text:
    """The recap of the events from log index ``start`` on (see the module's docstring);
    with ``width``, a player's line breaks only between its parts ("+1 rat" stays whole)."""
    events, row = recap_events(view, start)
    narrator = Narrator(names, view.seat)
    narrator.row = list(row)
    t = Text()
    building: int | None = None
    parts: dict[int, list[str]] = {}  # seat -> what happened to him at this building
    order: list[int] = []
    told: list[str] = []  # the Sword, the Flute, the Guard Tower: after everyone's line

    def flush() -> None:
        if building is not None and not order and not told:
            t.append("  (nobody inside)\n", style="italic")
        for s in order:
            t.append("  ")
            _seat(t, view, names, s)
            t.append(":")
            column = 5 + len(names[s])
            for i, text in enumerate(parts[s]):
                piece = (" " if i == 0 else "; ") + text
                if width is not None and i and column + len(piece) + 1 > width:  # + ";"
                    t.append(";\n      ")
                    piece, column = text, 6
                t.append(piece)
                column += len(piece)
            t.append("\n")
        for line in told:
            t.append(f"  {line}\n", style="italic")
        parts.clear()
        order.clear()
        told.clear()

    def part(seat: int, text: str) -> None:
        if seat not in parts:
            parts[seat] = []
            order.append(seat)
        parts[seat].append(text)

    for e in events:
        said = narrator(e)  # keeps the narrator's row up to date
        p = e.player
        if e.kind == "resolve":
            flush()
            building = e.data["building"]
            label = (
                D.face_building(narrator.row[building]).label
                if building < len(narrator.row)
                else f"building {building + 1}"
            )
            t.append(f"{label}\n", style="bold underline")
        elif building is None:
            if e.kind in ("end-round", "game-over", "round"):
                t.append((said or "") + "\n", style="bold")
            continue
        elif e.kind == "reveal" and p is not None:
            cards = e.data["cards"]
            part(p, "laid " + (", ".join(R.hand_groups(cards)) if cards else "nothing"))
        elif e.kind == "influence" and p is not None:
            part(p, f"+{e.data['delta']} {D.Klass(e.data['klass']).label}")
        elif e.kind == "rats" and p is not None:
            delta = e.data["delta"]
            part(p, f"{'+' if delta > 0 else '-'}{R.plural(abs(delta), 'rat')}")
        elif e.kind == "action" and p is not None:
            b = D.face_building(narrator.row[e.data["building"]])
            premium, standard = R.SHORT_ACTIONS[b]
            part(p, f"premium ({premium})" if e.data["premium"] else f"standard ({standard})")
        elif e.kind == "last-round-premium" and p is not None:
            part(p, "most cards: +1 influence")
        elif e.kind == "hospital" and p is not None:
            cards = e.data["cards"]
            part(p, "discarded " + (", ".join(R.hand_groups(cards)) if cards else "nothing"))
        elif e.kind in TOLD and said:
            told.append(said)
        elif e.kind in ("end-round", "game-over"):
            flush()
            building = None
            t.append((said or "") + "\n", style="bold")
    flush()
    t.rstrip()
    return t


__all__ = ["RecapScreen", "recap", "recap_events", "worth_a_recap"]
