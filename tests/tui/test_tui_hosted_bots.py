"""A TUI host's bot seats journal beside its own seat (hosted_by its seat), and a host that
comes back to its table (NetworkGame over a resumed node) brings them back too."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tui_helpers import sync, until

from rattus_net.net.botseats import hosted_seats
from rattus_net.net.lobby import TableOptions
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import is_locked, read_meta, seat_dir
from rattus_net.net.tables import HostLobby


def bot_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "rattus-bot-seats" and t.is_alive()]


@sync
async def test_a_host_back_at_its_table_brings_its_bot_seats_back(tmp_path: Path) -> None:
    lobby = HostLobby("Attic", TableOptions(2), "Hana", advertise=False, root=tmp_path)
    await lobby.open()
    lobby.add_bot("random")
    await until(lambda: len(lobby.state.seats) == 2)
    lobby.set_ready(True)
    state = await asyncio.wait_for(lobby.wait_start(), 30)
    game = lobby.game(state)  # our seat's journal; the bot's game starts on its thread
    gid = game.game_id
    await until(lambda: (seat_dir(gid, 1, tmp_path) / "meta.json").exists())
    assert read_meta(seat_dir(gid, 1, tmp_path))["hosted_by"] == 0
    assert lobby._bots is not None
    thread = lobby._bots.thread
    await lobby.close(bots=True)  # the host's program goes, and its bot seat with it
    game.node.journal.close()
    await until(lambda: not thread.is_alive())
    node = PeerNode.load(gid, tmp_path)  # (the host's seat: the other is its bot's)
    assert node.seat == 0 and hosted_seats(node) == [1]
    before = set(bot_threads())
    back = NetworkGame(node)
    assert back.cleanup is not None
    [again] = set(bot_threads()) - before  # the bot seat plays on, in a thread of its own
    await until(lambda: is_locked(seat_dir(gid, 1, tmp_path)))  # reloaded and played
    result = back.cleanup(bots=True)
    if asyncio.iscoroutine(result):
        await result
    node.journal.close()
    await until(lambda: not again.is_alive())
