"""Rattus Cartus in the TUI: its table, dialogs, recap of a round and end screen, and its rules
summary (``rules.md``). The TUI finds it through the game registry
(:mod:`tui.common.gameui`); nothing else imports it."""

from rich.console import Group
from rich.table import Table
from rich.text import Text

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.games.cartus.view import PlayerView
from tui.common.gameui import GameUi
from tui.common.seat import Seat


class CartusUi(GameUi):
    """Rattus Cartus's table; its log in the game's own table words."""

    def table(self, seat: Seat) -> TableScreen:
        return TableScreen(seat)

    def replay_board(self, view: PlayerView, width: int, everything: bool = False) -> Group:
        """The table's own panels: the row, the players and influence, the nun row (the hand
        is the seat's secret: :meth:`replay_secrets`)."""
        row = Table.grid(expand=True, padding=(0, 1, 0, 0))
        for _ in view.row:
            row.add_column(ratio=1)
        row.add_row(*(R.building_card(view, i) for i in range(len(view.row))))
        middle = Table.grid(expand=True, padding=(0, 2, 0, 0))
        middle.add_column()
        middle.add_column(ratio=1)
        middle.add_row(R.players(view), R.influence(view))
        nuns = R.nun_row(view)
        if everything:  # (nobody's rats against the row: it is nobody's view)
            nuns = nuns[: nuns.plain.find("   seen")]
        return Group(R.status(view, width), row, middle, nuns)

    def replay_secrets(self, view: PlayerView, width: int) -> Text:
        return R.hand(view, width)


UI = CartusUi()
