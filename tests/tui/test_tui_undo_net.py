"""``u`` at a network table: a Rattus table hosted from the TUI with a bot seat, played to the
end by keys, the host taking back a step of each of his turns that holds one. The step goes
back without a frame leaving his peer, the dialog asks again, and the game ends FAIR."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rattus_helpers import keys_for
from test_tui_rattus_net import seat_bots_and_start
from tui_helpers import sync, text_of, until

from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import RattusEndScreen, RattusMapScreen
from rattus_net.net.lobby import TableOptions
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp
from tui.common.recap import RecapScreen

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


async def play_taking_back(app: RattusNetApp, pilot: Any, seed: int) -> int:
    """Keys in every dialog until the end screen; ``u`` once a turn on a step held. Returns
    how many steps were taken back."""
    rng = random.Random(seed)
    undone = 0
    last = -1  # frames sent when a step was last taken back (once a turn)
    for _ in range(6000):
        screen = app.screen
        if isinstance(screen, RattusEndScreen):
            return undone
        if isinstance(screen, RattusDialog):
            c = screen.controller
            assert isinstance(c, NetworkGame)
            held, sent = c.snapshot.held, len(c.node.mesh.sent)
            if held and sent != last and c.my_turn:
                last = sent
                await pilot.press("u")
                await until(
                    lambda old=screen: (
                        isinstance(app.screen, RattusDialog) and app.screen is not old
                    )
                )
                assert c.snapshot.held == held[:-1]  # the step is gone from the game shown
                assert len(c.node.mesh.sent) == sent  # and nothing left the peer meanwhile
                table = app.screen_stack[-2]
                assert isinstance(table, RattusMapScreen)
                assert any(line.startswith("Step taken back: ") for line in table.log_lines)
                undone += 1
                continue
            await pilot.press(*keys_for(screen, rng))
            assert not screen.error or screen.error.startswith("No decision"), screen.error
        elif isinstance(screen, RecapScreen):
            await pilot.press("escape")  # (what happened since: skipped)
        elif isinstance(screen, RattusMapScreen):
            if screen.looking:
                await pilot.press("enter")
            await pilot.pause(0.05)
        else:
            await pilot.pause(0.05)
    raise AssertionError(f"the game did not end: {app.screen}")


@sync
async def test_u_at_a_network_table_takes_back_a_step_never_sent(tmp_path: Path) -> None:
    lobby = HostLobby(
        "Plague", TableOptions(2, game="rattus"), "Hana", advertise=False, root=tmp_path
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots_and_start(app, lobby, pilot, 2)
        undone = await play_taking_back(app, pilot, 3)
        assert undone >= 2
        end = app.screen
        assert isinstance(end, RattusEndScreen)
        c = end.controller
        assert isinstance(c, NetworkGame)
        await until(lambda: bool(end.query("#verdict")))
        await until(lambda: c.verdict is not None, 120)
        await until(lambda: "Verification: FAIR" in text_of(end, "#verdict"), 10)
        await c.stop()
    await lobby.close()
