"""Chat at a network table between two TUI peers, each in a process of its own, over loopback:
the host's app here (driven by its Pilot), Gus's app in a child process (tests/tui/chatpeer.py,
driven by its own Pilot). Each sees the other's line under the author's name; a hostile line
(escape sequences, control and bidi characters, 5000 characters) is shown escaped and cut.
And the chat line itself: c or / opens it, Esc leaves it, NO_COLOR keeps the names readable."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chatpeer import at_the_table, keys
from textual.widgets import Static
from tui_helpers import sync, waiting

from protocol.chat import MAX_CHARS
from rattus_net.net.lobby import TableOptions
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp
from tui.common.chat import ChatBar

PEER = Path(__file__).with_name("chatpeer.py")


@pytest.mark.slow
@sync
async def test_two_tui_peers_in_two_processes_chat_and_a_hostile_line_is_shown_escaped(
    tmp_path: Path,
) -> None:
    options = TableOptions.of("cartus", 2, buildings="first-game")
    lobby = HostLobby("Chat", options, "Hana", advertise=False, root=tmp_path / "h")
    app = RattusNetApp(lobby=lobby)
    tests = os.pathsep.join(filter(None, [str(PEER.parent.parent), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "RATTUS_DATA_DIR": str(tmp_path / "g"), "PYTHONUNBUFFERED": "1"}
    env["PYTHONPATH"] = tests  # (tests/waits.py, as pytest's pythonpath gives the tests)
    peer: subprocess.Popen[str] | None = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:

            def peer_alive() -> None:
                assert peer is None or peer.poll() is None, peer and peer.stderr.read()  # type: ignore[union-attr]

            until = waiting(90, pause=lambda: pilot.pause(0.05), watch=peer_alive)

            await until(lambda: lobby.hosted is not None)
            peer = subprocess.Popen(
                [sys.executable, str(PEER), str(lobby.port)],
                env=env,
                cwd=PEER.parent,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            await until(lambda: len(lobby.state.seats) == 2)
            await pilot.press("space")
            table = await at_the_table(app, pilot, until)
            assert isinstance(table.controller, NetworkGame)
            chat = table.controller.chat
            await until(lambda: sum(s.seat == 1 for s in chat.lines) == 2)
            await pilot.press("slash", *keys("hello Gus"))
            await pilot.press("enter")
            bar = table.query_one(ChatBar)
            await pilot.pause()
            shown = str(table.query_one("#chat-lines", Static).render())
            assert "Gus: hi from Gus" in shown
            assert "\\x1b[2J\\x1b]0;owned\\x07\\u202eevil\\x0d\\x0aWWW" in shown
            assert "\x1b" not in shown and "\u202e" not in shown and "\r" not in shown
            hostile = [s.text for s in chat.lines if s.seat == 1][1]
            assert hostile.count("W") == MAX_CHARS - len("\x1b[2J\x1b]0;owned\x07\u202eevil\r\n")
            assert "Hana: hello Gus" in shown
            await pilot.press("escape")
            assert not bar.typing
            out, err = await asyncio.to_thread(peer.communicate, timeout=60)
            assert peer.returncode == 0, err[-2000:]
            seen = json.loads(out.strip().splitlines()[-1])
            assert seen["problem"] is None  # the hostile line went out (cut to the limit)
            assert [0, "hello Gus"] in seen["said"]
            assert "Hana: hello Gus" in seen["shown"] and "\x1b" not in seen["shown"]
            await table.controller.stop()
    finally:
        if peer is not None and peer.poll() is None:
            peer.kill()
            peer.communicate()
        await lobby.close()
