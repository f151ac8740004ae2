"""The full log of a game: everything that happened, in words, scrollable (``l`` at a table,
in a dialog, on the end screen).

Each player's lines are in his seat's colour (the game says whose a line is:
:func:`rattus_net.kit.said.seat_of`), and the log can show one player's lines only: a digit
(his seat's number) or his name's initial, ``a`` all of them again. Without colour (NO_COLOR)
the lines name their players anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from rattus_net.kit.said import seat_of

SEAT_STYLES = ("#e00000", "#3060ff", "#00c000", "#e0c000", "#c040ff")
"""A seat's colour in a game that names none of its own (any terminal shows them apart)."""
RESERVED = frozenset("alq")
"""Keys of the log screen itself: no player's initial filters with them."""


@dataclass(frozen=True, slots=True)
class LogSeat:
    """A player as the log shows him: his name (as shown) and the style of his lines."""

    name: str
    style: str


def _round_bold(line: str) -> str:
    return "bold" if line.startswith("Round ") else ""


@dataclass(frozen=True, slots=True)
class LogSeats:
    """The players of a log: who each is, and the seat reading it (his lines say "You");
    and how the game shows a line over its seat's colour (``line_style``)."""

    seats: tuple[LogSeat, ...] = ()
    me: int | None = None
    line_style: Callable[[str], str] = _round_bold

    def seat_of(self, line: str) -> int | None:
        return seat_of(line, [s.name for s in self.seats], self.me)

    def style_of(self, line: str) -> str:
        """The style of the seat ``line`` is about ("" if nobody's)."""
        seat = self.seat_of(line)
        return self.seats[seat].style if seat is not None and seat < len(self.seats) else ""

    def key_of(self, key: str) -> int | None:
        """The seat a key filters: its number (1 for the first seat), or its name's initial
        if no other player's name starts with it and the log does not use the key itself."""
        if key.isdigit():
            seat = int(key) - 1
            return seat if 0 <= seat < len(self.seats) else None
        key = key.lower()
        if len(key) != 1 or key in RESERVED:
            return None
        found = [i for i, s in enumerate(self.seats) if s.name[:1].lower() == key]
        return found[0] if len(found) == 1 else None

    def keys_help(self) -> str:
        """``1 Ann (n)  2 Bob (b)``: the filter's keys, as the log screen lists them."""
        out = []
        for i, s in enumerate(self.seats):
            initial = s.name[:1].lower()
            own = f" ({initial})" if initial and self.key_of(initial) == i else ""
            out.append(f"{i + 1} {s.name}{own}")
        return "  ".join(out)


def styled(line: str, seats: LogSeats, style: str = "") -> Text:
    """``line`` in its seat's colour, with ``style`` (the game's for such a line) over it."""
    return Text(line, style=f"{seats.style_of(line)} {style}".strip())


class LogScreen(Screen[None]):
    """Everything that happened, in words, scrollable; one player's lines only on request."""

    HELP_TITLE = "the log"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,l", "close", "Back"),
        Binding("a", "only(None)", "All players"),
    ]

    def __init__(self, lines: list[str], seats: LogSeats | None = None) -> None:
        super().__init__()
        self.lines = lines
        self.seats = seats or LogSeats()
        self.only: int | None = None
        """The seat whose lines alone are shown (``None``: everybody's)."""

    def compose(self) -> ComposeResult:
        yield Static(id="log-title")
        yield RichLog(id="full-log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self.fill()
        self.query_one("#full-log", RichLog).focus()

    def fill(self) -> None:
        """Write the lines (those of the seat chosen) and say what is shown."""
        seats = self.seats
        title = Text("The game so far", style="bold")
        if self.only is None:
            title.append(" (Up/Down, PageUp/PageDown scroll)", style="bold")
        else:
            title.append(", only ", style="bold")
            title.append(seats.seats[self.only].name, style=f"bold {seats.seats[self.only].style}")
            title.append("'s lines (a: all)", style="bold")
        if seats.seats:
            title.append("\nShow one player: " + seats.keys_help() + "  a all")
        self.query_one("#log-title", Static).update(title)
        log = self.query_one("#full-log", RichLog)
        log.clear()
        for line in self.lines:
            if self.only is not None and seats.seat_of(line) != self.only:
                continue
            log.write(styled(line, seats, seats.line_style(line)))

    def on_key(self, event: events.Key) -> None:
        """A seat's number or initial shows his lines only."""
        seat = self.seats.key_of(event.character or "") if event.character else None
        if seat is not None:
            event.stop()
            self.action_only(seat)

    def action_only(self, seat: int | None) -> None:
        self.only = seat
        self.fill()

    def action_close(self) -> None:
        self.app.pop_screen()


__all__ = ["SEAT_STYLES", "LogScreen", "LogSeat", "LogSeats", "styled"]
