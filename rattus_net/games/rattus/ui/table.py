"""The Rattus map (offline against bots, or a seat at a network table) and its end screen.

The play around it (the dialog opening by itself, the bots' turns, the network's news and
waiting line, the keys) is every game's: :class:`tui.common.table.GameTable`. Here is what is
Rattus's: the map, the class cards, the players and what the Witch saw; and when an outbreak
happened since the player last decided, the map stays up with the log (the outbreak told step
by step, the regions struck shown reversed) until he presses Enter, so he always sees what
happened before deciding.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import RichLog, Static

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.view import RattusView
from tui.common.end import GameEndScreen
from tui.common.footer import KeysFooter
from tui.common.parts import Part
from tui.common.table import GameTable

TALL = 34  # terminal rows from which region boxes get a third line
END_LINE = "The game ends after"  # the log's line once the turn that ended the game is over


class MapWidget(Part):
    """The map, drawn for the widget's width by its table (:meth:`RattusMapScreen.show_map`);
    ``highlight``: regions under a dialog's cursor. It shows the text it was given, so it
    never reads the game itself (while the bots play in a thread, it shows the last map)."""

    DEFAULT_CSS = """
    MapWidget { height: auto; width: 100%; }
    """

    def __init__(self) -> None:
        super().__init__(id="r-map")
        self.highlight: tuple[int, ...] = ()
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
        regions of ``highlight`` reversed; painted again only if it changed."""
        m = self.query_one(MapWidget)
        m.drawn_for = m.size.width or self.app.size.width
        tall = self.app.size.height >= TALL
        m.show(R.map_text(self.controller.view, m.drawn_for, tall, m.highlight))

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
            if self.query_one(MapWidget).highlight:
                t.append("  (reversed: where the plague struck)")
        return t

    def line_style(self, line: str) -> str:
        return style_of(line)

    def pause_before_deciding(self) -> bool:
        """After an outbreak, the map shows where the plague struck and waits for Enter."""
        struck = self.struck_regions(self.fresh)
        self.fresh.clear()
        if not struck or self.controller.is_over:
            return False
        self.looking = True  # read what happened first; Enter decides
        self.set_highlight(struck)
        self.show_awaited()
        return True

    def struck_regions(self, lines: list[str]) -> tuple[int, ...]:
        """The regions of the outbreaks told in ``lines`` (indexes in play)."""
        regions = self.controller.view.regions
        out = []
        for line in lines:
            if line.startswith("Outbreak in "):
                name = line.removeprefix("Outbreak in ").rstrip(":")
                if name in regions:
                    out.append(regions.index(name))
        return tuple(out)

    def set_highlight(self, regions: tuple[int, ...]) -> None:
        self.query_one(MapWidget).highlight = regions
        if not self.busy:  # (the game changes in the worker thread meanwhile)
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
