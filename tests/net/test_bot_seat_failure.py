"""A bot seat that fails is said, logged and its game told (the game stops saying why, not
later blaming the seat as a staller); the thread that decides gets a copy of the game."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from pathlib import Path
from typing import Any

import pytest
from recordkit import table

from rattus_net.net.botseats import HostedBots
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import seat_dir
from rattus_net.net.seats import Setup
from rattus_net.paths import JOURNAL_FILE


def _master(seed: int, seat: int) -> bytes:
    return hashlib.sha256(f"rattus-net/v1/selfplay/{seed}/{seat}".encode()).digest()


def _setup(seat: int, hosted_by: int | None = None) -> Setup:
    params, _ = table(2, 5)
    return Setup(params, seat, _master(5, seat), (("127.0.0.1", 1),) * 2, "T", hosted_by=hosted_by)


def test_a_bot_seat_that_cannot_come_back_is_said_and_stops_its_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    host, bot = _setup(0), _setup(1, hosted_by=0)
    for setup in (host, bot):
        PeerNode.create(setup, tmp_path).journal.close()
    gid = host.game_id
    (seat_dir(gid, 1, tmp_path) / JOURNAL_FILE).unlink()  # the bot seat's journal is gone
    node = PeerNode.load(gid, tmp_path, seat=0)
    events: list[tuple[str, int | None, str]] = []
    node.on_event = lambda kind, seat, detail: events.append((kind, seat, detail))
    said: list[str] = []
    with caplog.at_level(logging.ERROR, logger="rattus_net.net.botseats"):
        bots = HostedBots.resume(node, say=said.append)
        assert bots is not None
        [future] = bots.futures
        future.result(30)  # (the failure is handled in the seat's task: nothing raised)
        asyncio.run(bots.close())
    assert said and "seat 2" in said[0] and "not journaled" in said[0]
    assert any("bot seat 2" in r.getMessage() for r in caplog.records)  # logged, traceback kept
    node.take_failures()  # (the node's loop does this at its next turn)
    abort = node.session.abort
    assert abort is not None and abort.blamed == 1 and abort.by == 0
    assert "failed" in abort.reason and "not journaled" in abort.reason  # why, not "stalled"
    assert [e[:2] for e in events if e[0] == "bot-failed"] == [("bot-failed", 1)]
    assert node.faults and "bot stopped" in node.faults[0]
    node.journal.close()


def test_the_deciding_thread_gets_a_copy_of_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    node = PeerNode.create(_setup(0), tmp_path, choose=seen.append)
    live = node.session.game
    assert live is not None
    viewed: list[Any] = []
    view = node.definition.view

    def viewing(game: Any, seat: int) -> Any:
        viewed.append(game)
        return view(game, seat)

    monkeypatch.setattr(node.definition, "view", viewing)

    async def decide() -> None:
        await node._decision(asyncio.get_running_loop())

    asyncio.run(decide())
    assert len(seen) == 1  # the chooser was asked, with a view of...
    [game] = viewed
    assert game is not live and type(game) is type(live)  # ...a clone, never the live game
    node.journal.close()
