"""The Rattus map (offline against bots, or a seat at a network table) and its end screen.

The play around it (the dialog opening by itself, the bots' turns, the network's news and
waiting line, the keys) is every game's: :class:`tui.common.table.GameTable`. Here is what is
Rattus's: the map, the class cards, the players and what the Witch saw; and before the
player decides, what happened since his last decision (:mod:`.summary`), in a panel below the
map, the regions that changed marked on it; the end of the game told step by step.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import RichLog, Static

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.ui.board import Board
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.summary import Recap, recap
from rattus_net.games.rattus.view import RattusView
from tui.common.end import GameEndScreen
from tui.common.footer import KeysFooter
from tui.common.parts import Part
from tui.common.recap import TITLE, RecapScreen
from tui.common.seat import Seat
from tui.common.table import GameTable

TALL = 34  # terminal rows from which region boxes get a third line
END_LINE = "The game ends after"  # the log's line once the turn that ended the game is over


class MapWidget(Part):
    """The map, drawn for the widget's width by its table (:meth:`RattusMapScreen.show_map`);
    ``highlight``: regions under a dialog's cursor (or a recap's step), ``changed``: regions
    marked as changed since the player last decided, ``board``: the map of an earlier moment
    to draw instead of the game now (a step of the end of the game). It shows the text it was
    given, so it never reads the game itself (while the bots play in a thread, it shows the
    last map)."""

    DEFAULT_CSS = """
    MapWidget { height: auto; width: 100%; }
    """

    def __init__(self) -> None:
        super().__init__(id="r-map")
        self.highlight: tuple[int, ...] = ()
        self.changed: tuple[int, ...] = ()
        self.board: Board | None = None
        self.drawn_for = 0
        """The width the map on screen was drawn for."""

    def on_resize(self) -> None:
        screen = self.screen
        if (
            self.size.width != self.drawn_for
            and isinstance(screen, RattusMapScreen)
            and not screen.busy
            and screen.stable
        ):
            screen.show_map()  # laid out anew: the map fits the new width


def style_of(line: str) -> str:
    if line.startswith("--"):
        return "bold"
    if line.startswith("Outbreak") or line.startswith("The plague breaks out"):
        return "bold reverse"
    if line.startswith((END_LINE, "Final round")):
        return "bold"
    if line.startswith("    "):
        return "bold"
    if line.startswith("You saw"):
        return "italic"
    return ""


class RattusMapScreen(GameTable):
    """The map of a game of Rattus."""

    DEFAULT_CSS = """
    RattusMapScreen #r-status { height: 1; background: $boost; }
    RattusMapScreen #r-log {
        height: 1fr;
        min-height: 3;
        border-top: solid $primary;
        scrollbar-size-vertical: 1;
    }
    """

    AWAITED = "#r-awaited"
    LOG = "#r-log"

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self._recap: Recap | None = None  # the last recap shown

    def compose(self) -> ComposeResult:
        yield Part(id="r-status")
        yield MapWidget()
        yield Part(id="r-cards")
        yield Part(id="r-players")
        yield Part(id="r-seen")
        yield Part(id="r-awaited")
        yield RichLog(id="r-log", wrap=True, markup=False, auto_scroll=True)
        yield KeysFooter()

    def draw(self) -> None:
        view: RattusView = self.controller.view
        width = self.app.size.width
        self.show_part("#r-status", R.status(view))
        self.show_map()
        self.show_part("#r-cards", R.cards_line(view))
        self.show_part("#r-players", R.players_text(view, width))
        seen = R.seen_text(view)
        self.show_part("#r-seen", seen)
        self.query_one("#r-seen").display = bool(seen.plain)

    def show_map(self) -> None:
        """Draw the map for the map's width (the screen's before it is laid out), with the
        regions of ``highlight`` reversed (of the moment ``board`` if one is given); painted
        again only if it changed."""
        m = self.query_one(MapWidget)
        m.drawn_for = m.size.width or self.app.size.width
        tall = self.app.size.height >= TALL
        shown = self.controller.view if m.board is None else m.board
        m.show(R.map_text(shown, m.drawn_for, tall, m.highlight, m.changed))

    def chat_name(self, seat: int) -> Text:
        return R.player_label(self.controller.view, seat)

    def awaited_text(self) -> Text:
        c = self.controller
        t = Text()
        if not c.my_turn:
            t.append(c.awaited())
            return t
        t.append("YOUR TURN", style="bold reverse")
        t.append(" " + c.awaited().removeprefix("Your turn:"), style="bold")
        if self.looking:
            t.append("  Enter: decide", style="bold")
        return t

    def line_style(self, line: str) -> str:
        return style_of(line)

    def seat_style(self, seat: int) -> str:
        return "" if self.app.no_color else R.colour(seat)

    def recap(self, start: int) -> list[Text]:
        """What happened since the player last decided (:mod:`.summary`); the map's marks of
        the last recap stay until something happened since."""
        c = self.controller
        if start < c.view.log_size:
            self.set_changed(())
        self._recap = recap(c.view, c.names, start, self.seat_style, style_of)
        return [] if self._recap is None else self._recap.pages

    def recap_screen(self, pages: list[Text]) -> RecapScreen:
        """Below the map (which stays in sight), the changed regions marked on it, or each
        step's regions reversed."""
        told = self._recap
        assert told is not None
        map_bottom = self.query_one(MapWidget).region.bottom
        room = max(6, self.app.size.height - map_bottom - 1)  # (the footer's line)

        def on_page(page: int) -> None:
            if told.by_step:
                boards = told.boards
                self.query_one(MapWidget).board = (
                    boards[page] if boards is not None and page >= 0 else None
                )  # (each step on the map as it was then; the game now once closed)
                self.set_highlight(tuple(told.regions[page]) if page >= 0 else ())
            else:
                self.set_changed(tuple(told.changed))

        title = "How the game ended" if told.by_step and self.controller.is_over else TITLE
        return RecapScreen(
            self.controller.game_name,
            pages,
            self.log_lines,
            on_page=on_page,
            height=room,
            title=title,
        )

    def set_changed(self, regions: tuple[int, ...]) -> None:
        self.query_one(MapWidget).changed = regions
        if not self.busy:  # (the game changes in the worker thread meanwhile)
            self.show_map()

    def set_highlight(self, regions: tuple[int, ...], draw: bool = True) -> None:
        """Reverse ``regions`` on the map; ``draw=False`` leaves drawing the map to the
        table's next redraw."""
        self.query_one(MapWidget).highlight = regions
        if draw and not self.busy:  # (the game changes in the worker thread meanwhile)
            self.show_map()

    def dialog(self) -> RattusDialog:
        return RattusDialog(self.controller, self.set_highlight)

    def end_screen(self) -> Screen[None]:
        return RattusEndScreen(self.controller, self.log_lines)


class RattusEndScreen(GameEndScreen):
    """Cubes per player region by region and in the palace, why the game ended, the final
    round's order, the winner, the tie-break; then the end of the game told step by step."""

    DEFAULT_CSS = """
    RattusEndScreen #end-scroll { height: 1fr; }
    """

    OVER = "GAME OVER: the plague has passed"

    def result(self) -> ComposeResult:
        yield Static(R.end_text(self.controller.view), id="r-scoring")
        yield Static(self.final_outbreak(), id="r-final")

    def final_outbreak(self) -> Text:
        """How the game ended, below the result: the last turn (its spread and outbreak, which
        a player who ended the game did not see on the map), the final round and the final
        outbreak, region by region, token by token."""
        lines = self.log_lines
        end = next((i for i, line in enumerate(lines) if line.startswith(END_LINE)), None)
        if end is None:
            return Text("")
        start = max((i for i in range(end) if lines[i].startswith("-- ")), default=end)
        t = Text("\nThe last turn, the final round, the final outbreak (Up/Down scroll):\n")
        t.stylize("bold")
        for line in lines[start:]:
            if not line.startswith("Game over"):
                t.append(line + "\n", style=style_of(line))
        t.rstrip()
        return t


__all__ = ["MapWidget", "RattusEndScreen", "RattusMapScreen", "style_of"]
