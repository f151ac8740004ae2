"""Every failure a lobby can show reads as one plain sentence: never a traceback, never the
text Python or asyncio wrote for programmers ("Task <Task pending ...> got Future ...").

Each case drives one of the lobby's error paths for real (a port already taken, nobody at an
address, a host that does not hold the key it was joined by) or makes one step of it fail
with such a programmer's text (the advert, opening the table, getting ready, a bot seat,
starting the game), and reads the whole screen."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from net.procs import free_port
from textual.widgets import Static
from tui_helpers import sync, waiting

from rattus_net.net import discovery, play
from rattus_net.net.lobby import HostedTable, TableOptions
from rattus_net.net.lobby.core import LobbyCore
from rattus_net.net.lobbyside import LobbySide
from rattus_net.net.tables import GuestLobby, HostLobby, Lobby
from tui.app import RattusNetApp
from tui.shell.lobby import LobbyScreen

RAW = (
    "Task <Task pending name='Task-56' coro=<Worker._run() running at worker.py:368>> "
    "got Future <Future pending> attached to a different loop"
)
"""What asyncio said when the advert ran on the wrong loop."""

RAW_WORDS = ("Task", "Future", "Traceback", "coro=", "0x")


def raw(*args: object, **kwargs: object) -> Any:
    raise RuntimeError(RAW)


async def araw(*args: object, **kwargs: object) -> Any:
    raise RuntimeError(RAW)


def on_screen(app: RattusNetApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


Case = Callable[[Path, pytest.MonkeyPatch, list[Lobby]], Awaitable[Lobby]]


def host(tmp_path: Path, port: int = 0, *, advertise: bool = False) -> HostLobby:
    return HostLobby(
        "Attic", TableOptions(2), "Hana", port=port, advertise=advertise, root=tmp_path / "h"
    )


async def port_taken(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    taken = socket.socket()
    taken.bind(("0.0.0.0", 0))
    taken.listen()
    keep_open.append(taken)
    return host(tmp_path, taken.getsockname()[1])


async def advert_fails(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    mp.setattr(discovery, "new_zeroconf", raw)  # (and no multicast leaves the machine)
    return host(tmp_path, advertise=True)


async def open_fails(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    mp.setattr(HostedTable, "open", araw)
    return host(tmp_path)


async def nobody_there(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    return GuestLobby(("127.0.0.1", free_port()), "Ugo")


async def wrong_key(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    table = host(tmp_path)
    await table.open()
    keep.append(table)
    return GuestLobby(("127.0.0.1", table.port), "Ugo", expect_fingerprint="0" * 16)


async def table_full(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    table = HostLobby("Attic", TableOptions(2), "Hana", advertise=False, root=tmp_path / "h")
    await table.open()
    keep.append(table)
    other = GuestLobby(("127.0.0.1", table.port), "Ada", root=tmp_path / "a")
    keep.append(other)
    waiter = asyncio.ensure_future(other.wait_start())
    keep_open.append(waiter)
    await waiting(30)(lambda: len(table.state.seats) == 2)
    return GuestLobby(("127.0.0.1", table.port), "Ugo", root=tmp_path / "g")


async def ready_fails(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    mp.setattr(LobbyCore, "set_ready", raw)
    return host(tmp_path)


async def bot_fails(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    mp.setattr(play, "join_game", araw)
    return host(tmp_path)


async def start_fails(tmp_path: Path, mp: pytest.MonkeyPatch, keep: list[Lobby]) -> Lobby:
    mp.setattr(LobbySide, "game", raw)
    return host(tmp_path)


keep_open: list[Any] = []

CASES: dict[str, tuple[Case, str, str]] = {
    # name: (the lobby, the keys pressed once it is open, words the screen must show)
    "port taken": (port_taken, "", "That port is taken by another program"),
    "advert fails": (advert_fails, "", "Not announced on the LAN (An internal error"),
    "open fails": (open_fails, "", "Could not play at this table: An internal error"),
    "nobody at the address": (nobody_there, "", "Could not play at this table: nobody answers at"),
    "a host without the key": (wrong_key, "", "does not hold the advertised key"),
    "a full table": (table_full, "", "full"),
    "ready fails": (ready_fails, "space", "An internal error"),
    "a bot seat fails": (bot_fails, "b", "stopped: An internal error"),
    "the start fails": (start_fails, "b space", "The game could not start: An internal error"),
}


@pytest.mark.parametrize("case", list(CASES))
@sync
async def test_a_lobby_error_is_one_plain_sentence(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, key, words = CASES[case]
    keep: list[Lobby] = []
    app = RattusNetApp()
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = await make(tmp_path, monkeypatch, keep)
            keep.append(lobby)
            app.push_screen(LobbyScreen(lobby))
            until = waiting(60, pilot.pause, why=lambda: on_screen(app))
            if key:
                await until(lambda: "Space: get ready" in on_screen(app))
                for one in key.split():
                    await pilot.press(one)
                    await pilot.pause()
            await until(lambda: words in on_screen(app))
            shown = on_screen(app)
            for word in RAW_WORDS:
                assert word not in shown, shown
    finally:
        for lobby in keep:
            await lobby.close()
        for thing in keep_open:
            if isinstance(thing, socket.socket):
                thing.close()
            else:
                thing.cancel()
        keep_open.clear()
