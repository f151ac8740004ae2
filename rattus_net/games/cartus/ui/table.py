"""Rattus Cartus's table (offline, or a seat at a network table) and the end of the game.

The play around it (the dialogs opening by themselves, the bots' turns, the network's news,
the keys) is every game's: :class:`tui.common.table.GameTable`. Here is what is Rattus
Cartus's: the building row, the players, the influence, the hand and the nun row; the recap of
what happened before the player's next decision (:mod:`.recap`); the "always take" setting,
which takes an offered action without asking (:mod:`.decline`); the scoring at the end.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import RichLog, Static

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.ui.decline import (
    DeclineDialog,
    take_without_asking,
    toggle_always_take,
)
from rattus_net.games.cartus.ui.dialogs import DIALOGS, DecisionDialog
from rattus_net.games.cartus.ui.recap import recap, worth_a_recap
from rattus_net.games.cartus.view import PlayerView
from tui.common.end import GameEndScreen
from tui.common.footer import KeysFooter
from tui.common.parts import Part
from tui.common.seat import Seat
from tui.common.table import GameTable


def dialog_for(seat: Seat) -> DecisionDialog:
    """The dialog of the decision ``seat`` must take."""
    view: PlayerView = seat.view
    d = view.decision
    assert d is not None
    if d.kind is DecisionKind.ACTION:  # taking or declining an action: its own module
        return DeclineDialog(seat)
    return DIALOGS[d.kind](seat)


class TableScreen(GameTable):
    """The table of a game of Rattus Cartus."""

    DEFAULT_CSS = """
    TableScreen #status { height: 1; background: $boost; }
    TableScreen #awaited { height: auto; }
    TableScreen #row { height: auto; }
    TableScreen .building { width: 1fr; height: auto; padding: 0 1 0 0; }
    TableScreen #middle { height: auto; margin-top: 1; }
    TableScreen #players { width: 1fr; height: auto; }
    TableScreen #influence { width: 1fr; height: auto; }
    TableScreen #hand { height: auto; }
    TableScreen #nuns { height: auto; }
    TableScreen #log {
        height: 1fr;
        min-height: 3;
        border-top: solid $primary;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "toggle_always_take", "Always take", show=False),
    ]

    def compose(self) -> ComposeResult:
        view: PlayerView = self.controller.view
        k = D.ROUND_PLAN[view.n].buildings_per_round
        yield Part(id="status")
        yield Part(id="awaited")
        with Horizontal(id="row"):
            for i in range(k):
                yield Part(id=f"building-{i}", classes="building")
        with Horizontal(id="middle"):
            yield Part(id="players")
            yield Part(id="influence")
        yield Part(id="hand")
        yield Part(id="nuns")
        yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        R.set_plain(self.app.no_color)  # (seats told apart by letter and name only)
        super().on_mount()

    def draw(self) -> None:
        view: PlayerView = self.controller.view
        width = self.app.size.width
        self.show_part("#status", R.status(view, width))
        split = R.split_headings(view, width)  # (a name that wraps: the cards stay level)
        for i, widget in enumerate(self.query(".building").results(Part)):
            widget.show(R.building_card(view, i, split) if i < len(view.row) else Text(""))
        self.show_part("#players", R.players(view))
        self.show_part("#influence", R.influence(view))
        self.show_part("#hand", R.hand(view, width))
        self.show_part("#nuns", R.nun_row(view))

    def chat_name(self, seat: int) -> Text:
        view: PlayerView = self.controller.view
        return Text(
            f"{R.letter(view, seat)} {self.controller.names[seat]}", R.seat_style(view, seat)
        )

    def awaited_text(self) -> Text:
        c = self.controller
        if c.network and (not c.my_turn or not self.stable):
            return Text(c.awaited())
        return R.awaited(c.view, c.names)

    def line_style(self, line: str) -> str:
        return "bold" if line.startswith(("Round ", "Game over")) else ""

    def dialog(self) -> DecisionDialog | None:
        if take_without_asking(self.controller):  # the "always take" setting
            return None
        return dialog_for(self.controller)

    def end_screen(self) -> Screen[None]:
        return EndScreen(self.controller, self.log_lines)

    def seat_style(self, seat: int) -> str:
        return "" if self.app.no_color else R.seat_style(self.controller.view, seat)

    def recap(self, start: int) -> list[Text]:
        """What happened since the last decision (buildings resolved, a round ended), before
        the next dialog covers the table."""
        c = self.controller
        view: PlayerView = c.view
        if not worth_a_recap(view, start):
            return []
        width = min(100, self.app.size.width) - 5
        return [recap(view, c.names, start, width)]

    def action_toggle_always_take(self) -> None:
        self.notify(toggle_always_take())


class EndScreen(GameEndScreen):
    """The full scoring breakdown and the winner."""

    OVER = "GAME OVER: the plague reveals the rats"

    def result(self) -> ComposeResult:
        yield Static(R.scoring(self.controller.view), id="scoring")


__all__ = ["EndScreen", "TableScreen", "dialog_for"]
