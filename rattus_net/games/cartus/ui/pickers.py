"""The choosers Rattus Cartus's dialogs are built from: how many cards of each kind
(:class:`CountPicker`), which nun-row positions (:class:`NunPicker`), and how many rows of a
list fit. They keep the choice and draw it as Rich text; the dialogs show it."""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import PlayPass
from rattus_net.games.cartus.view import PlayerView
from tui.common.dialog import window as _window

LIST_HEIGHT = 6  # rows of a list shown at once at 80x24 (the rest scrolls with the cursor)


def list_height(screen_height: int) -> int:
    """Rows of a list for a terminal ``screen_height`` tall: the extra room goes to the list."""
    return max(LIST_HEIGHT, LIST_HEIGHT + (screen_height - 24) // 2)


def can_pass(view: PlayerView) -> bool:
    space = view.legal()
    return len(space) > 0 and isinstance(space[len(space) - 1], PlayPass)


def window(count: int, cursor: int, height: int = LIST_HEIGHT) -> range:
    """The rows of a list of ``count`` to show so that ``cursor`` is visible."""
    return _window(count, cursor, height)


class CountPicker:
    """How many cards of each kind: rows of faces with the number held, capped by the hand
    and by ``limit`` in total."""

    def __init__(self, held: Counter[int], limit: int | None = None) -> None:
        self.faces = sorted(held)
        self.held = dict(held)
        self.counts = dict.fromkeys(self.faces, 0)
        self.limit = limit
        self.cursor = 0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def cards(self) -> tuple[int, ...]:
        return tuple(f for f in self.faces for _ in range(self.counts[f]))

    def move(self, delta: int) -> None:
        if self.faces:
            self.cursor = (self.cursor + delta) % len(self.faces)

    def set(self, value: int) -> None:
        if not self.faces:
            return
        f = self.faces[self.cursor]
        value = max(0, min(value, self.held[f]))
        if self.limit is not None:
            value = min(value, self.limit - (self.total - self.counts[f]))
        self.counts[f] = value

    def change(self, delta: int) -> None:
        if self.faces:
            self.set(self.counts[self.faces[self.cursor]] + delta)

    def lines(self, height: int = LIST_HEIGHT) -> Text:
        t = Text()
        if not self.faces:
            t.append("(no cards to choose)\n", style="italic")
            return t
        rows = window(len(self.faces), self.cursor, height)
        if rows.start > 0:
            t.append("   ... more above\n", style="italic")
        for i in rows:
            f = self.faces[i]
            sel = i == self.cursor
            t.append(">" if sel else " ", style="bold")
            t.append(
                f" {D.face_name(f):<22} held {self.held[f]}  ",
                style="reverse" if sel else "",
            )
            t.append(f"< {self.counts[f]} >", style="bold")
            t.append("\n")
        if rows.stop < len(self.faces):
            t.append("   ... more below\n", style="italic")
        return t


class NunPicker:
    """Choose ``count`` nun-row positions; positions seen before are marked (ruling 9.10)."""

    def __init__(self, known: dict[int, int], count: int) -> None:
        self.known = known
        self.count = count
        self.cursor = 0
        unseen = [p for p in range(D.NUN_ROW) if p not in known]
        pre = (unseen + [p for p in range(D.NUN_ROW) if p in known])[:count]
        self.chosen: set[int] = set(pre)

    def toggle(self, pos: int | None = None) -> None:
        p = self.cursor if pos is None else pos
        self.cursor = p
        if p in self.chosen:
            self.chosen.discard(p)
        elif len(self.chosen) < self.count:
            self.chosen.add(p)
        elif self.count == 1:
            self.chosen = {p}

    def lines(self) -> Text:
        t = Text()
        for p in range(D.NUN_ROW):
            sel = p == self.cursor
            mark = "[x]" if p in self.chosen else "[ ]"
            f = self.known.get(p)
            seen = "not seen" if f is None else f"seen: {D.face_name(f)}"
            t.append(">" if sel else " ", style="bold")
            t.append(f" {mark} {p + 1}  {seen}", style="reverse" if sel else "")
            t.append("\n")
        t.append(f"Chosen {len(self.chosen)} of {self.count}.")
        return t
