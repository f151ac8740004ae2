"""A busy table never holds up the screen: while the table's thread is held, the lobby's
"ready" goes out without waiting for it, and the app keeps ticking until it is let go."""

from __future__ import annotations

import threading
from pathlib import Path

from tui_helpers import sync
from waits import until

from rattus_net.net.lobby import TableOptions
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp
from tui.shell.lobby import LobbyScreen

TICKS = 5
"""Ticks of the app's timer that must pass while the table's thread is held."""


@sync
async def test_the_app_ticks_while_the_table_is_held_and_the_ready_goes_through(
    tmp_path: Path,
) -> None:
    app = RattusNetApp()
    lobby = HostLobby("Attic", TableOptions(2), "Hana", advertise=False, root=tmp_path)
    held = threading.Event()  # the table's thread is held (set there)
    release = threading.Event()  # let it go (set by the app's ticks)
    ticks = {"all": 0, "held": 0}

    def hold() -> None:  # on the table's thread: its loop does nothing else meanwhile
        held.set()
        release.wait(60)  # (a safety net only: the ticks let it go)

    def tick() -> None:  # on the app's loop
        ticks["all"] += 1
        if held.is_set() and not release.is_set():
            ticks["held"] += 1
            if ticks["held"] >= TICKS:
                release.set()

    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LobbyScreen(lobby))
        await until(lambda: lobby.hosted is not None)
        assert lobby.runner is not None
        lobby.runner.call(hold)
        await until(held.is_set)
        app.set_interval(0.01, tick)
        await pilot.press("space")  # ready: handed to the held table's thread
        await until(release.is_set)
        assert ticks["held"] == TICKS  # the app ticked while the table was held
        await until(lobby.my_ready)  # and the ready went through once it was let go
        # (a screen that waited for the table would have given up on it: a line saying so)
        assert all("sat down" in line for line in lobby.news), lobby.news
        await lobby.close()
