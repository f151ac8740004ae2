"""A network game in which nobody acts does not redraw the table: the node's twice-a-second
"progress" while a player thinks changes nothing on screen (it kept an idle game at 5-10% of a
core). Speed itself is measured by ``benchmarks/tui.py --idle``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tui_helpers import sync

from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.net.lobby import TableOptions
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp


@sync
async def test_an_idle_network_game_does_not_redraw_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = HostLobby(
        "Idle",
        TableOptions.of("cartus", 2, buildings="first-game", simultaneous_supply=False),
        "Hana",
        advertise=False,
        root=tmp_path,
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        while lobby.hosted is None:
            await pilot.pause(0.05)
        await pilot.press("b")
        while lobby.state is None or len(lobby.state.seats) < 2:
            await pilot.pause(0.05)
        await pilot.press("space")
        for _ in range(600):
            if isinstance(app.screen, DecisionDialog):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, DecisionDialog)
        redraws = 0
        redraw = TableScreen.redraw

        def counted(self: TableScreen) -> list[str]:
            nonlocal redraws
            redraws += 1
            return redraw(self)

        monkeypatch.setattr(TableScreen, "redraw", counted)
        await asyncio.sleep(2.0)  # the node says "progress" every 0.5 s meanwhile
        assert redraws == 0
        assert isinstance(app.screen, DecisionDialog)
        game = app.screen.controller
        stop = getattr(game, "stop", None)
        if stop is not None:
            await stop()
        await lobby.close()
