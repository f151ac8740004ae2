"""The screen's loop is never held up by the player's own seat at a network table: its peer
node (which checks every shuffle proof it receives) runs on the program's network thread and
loop, which the app owns (one for the whole program: it outlives each table).

The node's work is made to hold its loop up on purpose (a blocking wait inside its inbox
handling); meanwhile the app must go on: its timer ticks, a key opens the log. Were the node
on the app's loop again, nothing of the app could run until the node let go. The figures
(frame delays) are measured by ``benchmarks/tui.py --hosted 5``.
"""

from __future__ import annotations

import asyncio
import gc
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import keys_for, sync, until

from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.cartus.ui.recap import RecapScreen
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from rattus_net.net.lobby import TableOptions
from rattus_net.net.loopthread import NETWORK_THREAD
from rattus_net.net.netgame import DecisionWithdrawn, NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import HUMAN
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp
from tui.common.log import LogScreen


@sync
async def test_the_app_runs_on_while_the_players_node_is_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (network threads of other tests of this worker still winding down are not this app's)
    earlier = {t for t in threading.enumerate() if t.name == NETWORK_THREAD}
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
    app = RattusNetApp(lobby=lobby)
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
        # the node's work ran on the program's network thread and loop, never the app's
        assert game.runner is app.network and lobby.runner is app.network
        assert threads == {game.runner.thread}
        assert game.runner.thread.name == NETWORK_THREAD
        ours = {t for t in threading.enumerate() if t.name == NETWORK_THREAD} - earlier
        assert ours == {game.runner.thread}  # one network thread for the whole program
        assert threading.current_thread() not in threads
        assert loops == {game.runner.loop} and asyncio.get_running_loop() not in loops
        assert ticks_while_busy[0] >= 3
        # and the game goes on: our decision is asked, and taken across the threads
        await until(lambda: isinstance(app.screen, DecisionDialog), 120)
        assert gc.get_freeze_count() > 0  # (full collections kept short meanwhile)
        await game.stop()
        assert gc.get_freeze_count() == 0
        # the game's own task is over; the program's thread stays for the next table
        assert game.task is not None and game.task.done()
        assert game.runner.thread.is_alive()
    # and it ends with the program (its tasks cancelled and awaited)
    assert not game.runner.thread.is_alive()
    await lobby.close()


async def hosted_game_with_a_bot(
    app: RattusNetApp, lobby: HostLobby, pilot: Any
) -> tuple[NetworkGame, DecisionDialog]:
    """Open the host's table, seat a bot, get ready: the game and our first dialog."""
    await until(lambda: lobby.hosted is not None)
    await pilot.press("b")
    await until(lambda: len(lobby.state.seats) == 2)
    await pilot.press("space")
    await until(lambda: isinstance(app.screen, DecisionDialog), 120)
    dialog = app.screen
    assert isinstance(dialog, DecisionDialog)
    game = dialog.controller
    assert isinstance(game, NetworkGame)
    return game, dialog


def awaited_line(app: RattusNetApp) -> str:
    return str(app.screen.query_one("#awaited", Static).render())


@sync
async def test_a_player_gone_is_shown_with_the_time_left_and_w_waits_longer(
    tmp_path: Path,
) -> None:
    """The bot seat drops off mid-game: the table says who is not connected and when the game
    ends unless he is back; ``w`` gives him five minutes more (the countdown follows)."""
    lobby = HostLobby(
        "Gone", TableOptions(2), "Hana", advertise=False, root=tmp_path, stall_timeout=60.0
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        game, dialog = await hosted_game_with_a_bot(app, lobby, pilot)
        assert lobby.remove_bot()  # the bot's program goes
        await pilot.press(*keys_for(dialog, random.Random(1)))
        # (the next dialogs, if any, until the table waits for the bot)
        for _ in range(600):
            screen = app.screen
            if isinstance(screen, TableScreen) and "not connected" in awaited_line(app):
                break
            if isinstance(screen, DecisionDialog):
                await pilot.press(*keys_for(screen, random.Random(2)))
            elif isinstance(screen, RecapScreen):
                await pilot.press("enter")
            await pilot.pause(0.05)
        line = awaited_line(app)
        assert "(Agnes not connected); ends in 0:" in line and "w: wait longer" in line
        await pilot.press("w")
        notes = [n.message for n in app._notifications]
        assert "Waiting longer: 6 minutes in all for a player who dropped off." in notes
        await until(lambda: "ends in 5:" in awaited_line(app), 10)
        await game.stop()
    await lobby.close()


@sync
async def test_a_player_gone_too_long_stops_the_game_with_a_verified_record(
    tmp_path: Path,
) -> None:
    """Nobody presses ``w``: once the stall timeout has passed, the game stops blaming the
    player who left, and the end screen says so and verifies the record."""
    lobby = HostLobby(
        "Stall", TableOptions(2), "Hana", advertise=False, root=tmp_path, stall_timeout=2.0
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        game, _ = await hosted_game_with_a_bot(app, lobby, pilot)
        assert lobby.remove_bot()
        rng = random.Random(3)
        for _ in range(1200):
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, DecisionDialog):
                await pilot.press(*keys_for(screen, rng))
            elif isinstance(screen, RecapScreen):  # (dialogs open by themselves)
                await pilot.press("enter")
            await pilot.pause(0.05)
        end = app.screen
        assert isinstance(end, EndScreen), (end, game.awaited())
        assert game.outcome is not None and not game.outcome.finished
        await until(lambda: bool(end.query("#end-summary")))  # (composed)
        summary = str(end.query_one("#end-summary", Static).render())
        assert "Agnes" in summary and "stalled" in summary and "Record:" in summary
        await until(lambda: game.verdict is not None)
        assert game.runner is not None
        # the node answers on for a player who comes back and may not know of the abort
        assert game.runner.thread.is_alive()  # type: ignore[union-attr]
        await game.stop()  # (what leaving the end screen does)
        assert game.task is not None and game.task.done()
    assert not game.runner.thread.is_alive()  # (the app's, ended with it)
    await lobby.close()


@sync
async def test_a_game_stopped_while_the_player_chooses_withdraws_the_dialog(
    tmp_path: Path,
) -> None:
    """The game stops (here: our own node stops it, as when a peer's abort arrives) while
    our dialog is open: the dialog closes by itself, a late choice is refused in words
    (never a crash), and the end screen says how the game ended."""
    lobby = HostLobby("Stop", TableOptions(2), "Hana", advertise=False, root=tmp_path)
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        game, dialog = await hosted_game_with_a_bot(app, lobby, pilot)
        assert game.runner is not None
        game.runner.call(game.node.session.stop, "stopped by the test")
        for _ in range(600):
            if isinstance(app.screen, EndScreen):
                break
            if isinstance(app.screen, RecapScreen):
                await pilot.press("enter")
            await pilot.pause(0.05)
        end = app.screen
        assert isinstance(end, EndScreen), (end, game.awaited())
        assert dialog not in app.screen_stack
        await until(lambda: bool(end.query("#end-summary")))  # (composed)
        summary = str(end.query_one("#end-summary", Static).render())
        assert "stopped by the test" in summary
        with pytest.raises(DecisionWithdrawn, match="The game has stopped"):
            game.play(dialog.view.legal()[0])
        await until(lambda: game.verdict is not None)
    await lobby.close()
