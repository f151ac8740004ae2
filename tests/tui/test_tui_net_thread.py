"""The screen's loop is never held up by the player's own seat at a network table: its peer
node (which checks every shuffle proof it receives) runs on the table's own thread and loop.

The node's work is made to hold its loop up on purpose (a blocking wait inside its inbox
handling); meanwhile the app must go on: its timer ticks, a key opens the log. Were the node
on the app's loop again, nothing of the app could run until the node let go. The figures
(frame delays) are measured by ``benchmarks/tui.py --hosted 5``.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import sync

from rattus_net.net.lobby import TableOptions
from rattus_net.net.netgame import TABLE_THREAD, NetworkGame
from rattus_net.net.node import HUMAN, PeerNode
from rattus_net.net.tables import HostLobby
from tui.app import RattusApp
from tui.dialogs import DecisionDialog
from tui.screens import LogScreen, TableScreen


async def until(cond: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds * 20)):
        if cond():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


@sync
async def test_the_app_runs_on_while_the_players_node_is_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = threading.Event()  # the human's node is inside its (blocking) work
    release = threading.Event()
    threads: set[threading.Thread] = set()
    loops: set[asyncio.AbstractEventLoop] = set()
    ticks_while_busy: list[int] = []
    ticks = 0
    drain = PeerNode._drain_inbox

    async def held_up(self: PeerNode) -> None:
        if self.setup.bot == HUMAN:
            threads.add(threading.current_thread())
            loops.add(asyncio.get_running_loop())
            if not release.is_set():
                before = ticks
                busy.set()
                release.wait(10)  # session work that holds its loop up (blocking)
                busy.clear()
                ticks_while_busy.append(ticks - before)
        await drain(self)

    monkeypatch.setattr(PeerNode, "_drain_inbox", held_up)
    lobby = HostLobby("Busy", TableOptions(2), "Hana", advertise=False, root=tmp_path)
    app = RattusApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:

        def tick() -> None:
            nonlocal ticks
            ticks += 1

        app.set_interval(0.02, tick)
        await until(lambda: lobby.hosted is not None)
        await pilot.press("b")
        await until(lambda: len(lobby.state.seats) == 2)
        await pilot.press("space")
        # the node is held up: the app still switches to the table, and a key still works
        await until(lambda: busy.is_set() and isinstance(app.screen, TableScreen))
        table = app.screen
        assert isinstance(table, TableScreen)
        game = table.controller
        assert isinstance(game, NetworkGame) and game.runner is not None
        seen = ticks
        await until(lambda: ticks >= seen + 3)
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen)
        assert busy.is_set()  # (all of that while the node had not let go)
        release.set()
        await until(lambda: ticks_while_busy)
        await pilot.press("escape")
        # the node's work ran on the table's thread and loop, never the app's
        assert threads == {game.runner.thread}
        assert game.runner.thread.name == TABLE_THREAD
        assert threading.current_thread() not in threads
        assert loops == {game.runner.loop} and asyncio.get_running_loop() not in loops
        assert ticks_while_busy[0] >= 3
        # and the game goes on: our decision is asked, and taken across the threads
        await until(lambda: isinstance(app.screen, DecisionDialog), 120)
        await game.stop()
        await until(lambda: not game.runner.thread.is_alive())  # type: ignore[union-attr]
    await lobby.close()
