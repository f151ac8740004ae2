"""An offline table keeps the garbage collector's full passes short, as a network table does.

Full (generation 2) collections of the whole process held the screen for 60 to 210 ms each
during an offline game (some ten per thirty decisions, measured with ``gc.callbacks``). While
a table is on screen, what survives is frozen out of the collector's reach
(:class:`rattus_net.net.quietgc.QuietCollector`); leaving the table gives everything back."""

from __future__ import annotations

import gc

from tui_helpers import sync

from tui.app import RattusApp
from tui.cartus.controller import OfflineOptions
from tui.cartus.screens import TableScreen
from tui.rattus.controller import RattusOffline, RattusOptions
from tui.rattus.screens import RattusMapScreen
from tui.screens import MenuScreen


@sync
async def test_the_cartus_table_freezes_survivors_and_leaving_gives_them_back() -> None:
    app = RattusApp(OfflineOptions(players=3, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        assert table._quiet.running and gc.get_freeze_count() > 0
        for _ in range(2):  # q q: leave the game (it is saved)
            await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not table._quiet.running and gc.get_freeze_count() == 0


@sync
async def test_the_rattus_map_freezes_survivors_and_leaving_gives_them_back() -> None:
    app = RattusApp(rattus=RattusOffline(RattusOptions(players=2, seed=4, bots="random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, RattusMapScreen))
        assert board._quiet.running and gc.get_freeze_count() > 0
        for _ in range(2):
            await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not board._quiet.running and gc.get_freeze_count() == 0
