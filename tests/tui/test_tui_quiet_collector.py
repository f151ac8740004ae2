"""An offline table keeps the garbage collector's full passes short, as a network table does.

Full (generation 2) collections of the whole process held the screen for 60 to 210 ms each
during an offline game (some ten per thirty decisions, measured with ``gc.callbacks``). While
a table is on screen, what survives is frozen out of the collector's reach
(:class:`rattus_net.net.quietgc.QuietCollector`); leaving the table gives everything back."""

from __future__ import annotations

import gc

from tui_helpers import cartus_table, opened, rattus_table, sync

from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.games.rattus.ui.table import RattusMapScreen
from tui.app import RattusNetApp
from tui.shell.menu import MenuScreen


@sync
async def test_the_cartus_table_freezes_survivors_and_leaving_gives_them_back() -> None:
    app = RattusNetApp(table=cartus_table(players=3, seed=4, advance=False))
    async with opened(app) as pilot:
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        assert table._quiet.running and gc.get_freeze_count() > 0
        for _ in range(2):  # q q: leave the game (it is saved)
            await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not table._quiet.running and gc.get_freeze_count() == 0


@sync
async def test_the_rattus_map_freezes_survivors_and_leaving_gives_them_back() -> None:
    app = RattusNetApp(table=rattus_table(players=2, seed=4, bots="random"))
    async with opened(app) as pilot:
        board = next(s for s in app.screen_stack if isinstance(s, RattusMapScreen))
        assert board._quiet.running and gc.get_freeze_count() > 0
        for _ in range(2):
            await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not board._quiet.running and gc.get_freeze_count() == 0
