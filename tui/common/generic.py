"""The table of a game that has no screens of its own: any registered game can be played.

It shows what the game interface gives every game: how far the game has come
(``GameDefinition.progress``), who must do what (the game's words), the log in the game's
table words, a dialog listing the legal moves in their text form (``format_move``), and at
the end the outcome's breakdown. A game's own screens (``rattus_net/games/<game>/ui``) draw
its pieces instead; the play around them is the same (:class:`tui.common.table.GameTable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import RichLog, Static

from rattus_net.kit.interface import AnyGame
from rattus_net.net.netgame import NetworkGame
from tui.common.dialog import ListDialog
from tui.common.end import GameEndScreen
from tui.common.footer import KeysFooter
from tui.common.parts import Part
from tui.common.seat import Seat
from tui.common.table import GameTable


def seat_state(seat: Seat) -> Any:
    """The game as the seat's engine holds it: the whole game offline (the local table knows
    everything: only the seat's view and its legal moves are shown of it), the seat's own
    engine at a network table (it knows what the seat knows)."""
    return seat.snapshot.game if isinstance(seat, NetworkGame) else seat.game


class MoveDialog(ListDialog):
    """The legal moves of the decision, by their text; Up/Down, PgUp/PgDn, Home/End or 1-9
    choose, Enter plays."""

    DEFAULT_CSS = """
    MoveDialog > #dialog { max-height: 14; }
    """

    LIST_HEIGHT = 8

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self.definition: AnyGame = seat.definition
        self.moves: Sequence[Any] = self.definition.legal(seat_state(seat), seat.seat)

    def heading(self) -> str:
        words = self.controller.awaited().removeprefix("Your turn: ")
        return words[:1].upper() + words[1:]

    def rows(self) -> list[str]:
        return [self.definition.format_move(m) for m in self.moves]

    def body(self) -> Text:
        return self.list_text()

    def help_line(self) -> str:
        keys = self.choose_keys()
        end = ", ? keys" if keys.startswith("Up/Down") else ""  # (a longer line must fit)
        return f"{keys} choose, Enter play it, Esc look at the table{end}"

    def action_confirm(self) -> None:
        if len(self.moves):
            self.error = ""
            self.submit(self.moves[self.cursor])

    def action_back(self) -> None:
        self.close(False)


class GenericTable(GameTable):
    """The table of a game without screens of its own."""

    DEFAULT_CSS = """
    GenericTable #g-status { height: auto; background: $boost; }
    GenericTable #awaited { height: auto; }
    GenericTable #log { height: 1fr; border-top: solid $primary; }
    """

    def compose(self) -> ComposeResult:
        yield Part(id="g-status")
        yield Part(id="awaited")
        yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        yield KeysFooter()

    def draw(self) -> None:
        c = self.controller
        _, line = c.definition.progress(seat_state(c))
        t = Text(f"{c.definition.title}: {line}", style="bold")
        t.append(f"\nPlayers: {', '.join(c.names)} (you are {c.names[c.seat]})")
        self.show_part("#g-status", t)

    def dialog(self) -> MoveDialog:
        return MoveDialog(self.controller)

    def end_screen(self) -> Screen[None]:
        return GenericEnd(self.controller, self.log_lines)


class GenericEnd(GameEndScreen):
    """The outcome's breakdown: each seat's score, and the winners."""

    def result(self) -> ComposeResult:
        c = self.controller
        outcome = c.definition.outcome(seat_state(c))
        if outcome is None:
            return
        t = Text("\n".join(outcome.breakdown) + "\n\n")
        winners = ", ".join(c.names[s] for s in outcome.winners)
        t.append(f"Winner: {winners}", style="bold")
        yield Static(t, id="g-result")


__all__ = ["GenericEnd", "GenericTable", "MoveDialog", "seat_state"]
