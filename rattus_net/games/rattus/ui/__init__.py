"""Rattus in the TUI: its map, its step-by-step dialog, its end screen, its words for the log
(outbreaks told step by step) and its rules summary (``rules.md``). The TUI finds it through
the game registry (:mod:`tui.common.gameui`); nothing else imports it."""

from rich.console import Group
from rich.text import Text

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.ui.narrate import MapWords
from rattus_net.games.rattus.ui.table import RattusMapScreen
from rattus_net.games.rattus.view import RattusView
from tui.common.gameui import GameUi
from tui.common.seat import Seat


class RattusUi(GameUi):
    """The map, and the log told as the map tells it."""

    words = MapWords

    def table(self, seat: Seat) -> RattusMapScreen:
        return RattusMapScreen(seat)

    def replay_board(self, view: RattusView, width: int, everything: bool = False) -> Group:
        """The map and the panels below it (the faces the seat saw; everything: all)."""
        seen = R.seen_text(view)
        if everything and seen.plain:
            seen = Text("Face down: ", style="bold") + seen[len("You saw: ") :]
        parts = [R.status(view), R.map_text(view, width), R.cards_line(view)]
        return Group(*parts, R.players_text(view, width), seen)


UI = RattusUi()
