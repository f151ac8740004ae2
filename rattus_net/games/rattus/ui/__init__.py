"""Rattus in the TUI: its map, its step-by-step dialog, its end screen, its words for the log
(outbreaks told step by step) and its rules summary (``rules.md``). The TUI finds it through
the game registry (:mod:`tui.common.gameui`); nothing else imports it."""

from rattus_net.games.rattus.ui.narrate import MapWords
from rattus_net.games.rattus.ui.table import RattusMapScreen
from tui.common.gameui import GameUi
from tui.common.seat import Seat


class RattusUi(GameUi):
    """The map, and the log told as the map tells it."""

    words = MapWords

    def table(self, seat: Seat) -> RattusMapScreen:
        return RattusMapScreen(seat)


UI = RattusUi()
