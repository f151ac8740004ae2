"""Rattus Cartus in the TUI: its table, dialogs, recap of a round and end screen, and its rules
summary (``rules.md``). The TUI finds it through the game registry
(:mod:`tui.common.gameui`); nothing else imports it."""

from rattus_net.games.cartus.ui.table import TableScreen
from tui.common.gameui import GameUi
from tui.common.seat import Seat


class CartusUi(GameUi):
    """Rattus Cartus's table; its log in the game's own table words."""

    def table(self, seat: Seat) -> TableScreen:
        return TableScreen(seat)


UI = CartusUi()
