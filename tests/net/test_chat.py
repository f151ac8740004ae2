"""Chat over the mesh: three peer nodes of one process on loopback, whose players all think
forever (the game waits; chat is not the game). A line reaches every peer, a hostile line is
kept as signed but shown escaped, a flood is cut with one note, a forged line is dropped with
a note (never an abort), and a peer that crashed and resumed sees every line: those it
journaled, and those said while it was away."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from waits import until

from protocol.chat import BURST, chat_frame
from protocol.params import GameParams, PeerSecrets
from protocol.record import record_chat
from rattus_net.games.cartus.config import GameConfig
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import Setup

from .loopback import listeners_for

pytestmark = pytest.mark.slow  # peer nodes over loopback

NAMES = ("Ann", "Bob", "Cy")


async def _think_forever(view: Any) -> Any:
    await asyncio.Event().wait()


def _texts(node: PeerNode) -> list[str]:
    return [s.text for s in node.chat.said if s.seat is not None]


async def _chat(tmp_path: Path) -> None:
    masters = [os.urandom(32) for _ in NAMES]
    ids = tuple(PeerSecrets(m).identity().public for m in masters)
    params = GameParams(GameConfig(NAMES), ids, os.urandom(32), "cartus")
    nodes: dict[int, PeerNode] = {}
    listeners, addresses = await listeners_for(nodes, 3)
    setups = [Setup(params, s, masters[s], addresses, "T", "random", 1) for s in range(3)]
    for s in range(3):
        nodes[s] = PeerNode.create(
            setups[s], tmp_path / f"seat{s}", choose_async=_think_forever, linger=0.5
        )
    runs = {s: asyncio.ensure_future(nodes[s].run(listeners[s])) for s in range(3)}
    try:
        await until(
            lambda: all(len(nodes[s].mesh.links) == 2 for s in range(3)), 30, why="the mesh"
        )
        ann, bob, cy = nodes[0], nodes[1], nodes[2]

        # A line reaches every peer, under its author's seat.
        ann.chat.say("good luck all")
        await until(
            lambda: all("good luck all" in _texts(n) for n in (bob, cy)), 30, why="the line"
        )
        assert [s.seat for s in bob.chat.said] == [0]

        # A hostile line: kept as signed, shown escaped (nothing that drives a terminal).
        hostile = "\x1b[2J\x1b]0;pwned\x07\u202eevil\r" + "z" * 1000
        bob.chat.say(hostile)
        await until(lambda: len(_texts(cy)) == 2, 30, why="the hostile line")
        shown = _texts(cy)[1]
        assert "\x1b" not in shown and "\u202e" not in shown and "\r" not in shown
        assert shown.startswith("\\x1b[2J\\x1b]0;pwned\\x07\\u202eevil\\x0d")
        assert cy.chat.book.lines[-1].text == hostile.strip()[:300]

        # A line Cy forges as Bob's: dropped with a note, the game goes on.
        me = PeerSecrets(masters[2]).identity()
        gid = cy.session.game_id
        await cy.mesh.links[0].conn.send(b"C" + chat_frame(me, gid, 1, 7, "Bob: I resign"))
        # A flood from Cy: Ann shows a burst of it (less the forged line), and one note.
        flood = [chat_frame(me, gid, 2, 100 + i, f"spam {i}") for i in range(BURST + 15)]
        for frame in flood:
            await cy.mesh.links[0].conn.send(b"C" + frame)
        await until(lambda: sum("not shown" in s.text for s in ann.chat.said) == 2, 30, why="notes")
        assert sum(t.startswith("spam") for t in _texts(ann)) == BURST - 1
        assert "Bob: I resign" not in _texts(ann)
        assert ann.session.abort is None

        # Bob crashes; Ann speaks while he is away; Bob resumes and sees everything.
        runs[1].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runs[1]
        ann.chat.say("are you there, Bob?")
        await until(lambda: "are you there, Bob?" in _texts(cy), 30, why="the line to Cy")
        back = PeerNode.load(setups[1].game_id, tmp_path / "seat1", choose_async=_think_forever)
        assert _texts(back)[:2] == ["good luck all", _texts(cy)[1]]  # from its journal
        nodes[1] = back
        runs[1] = asyncio.ensure_future(back.run())
        await until(lambda: "are you there, Bob?" in _texts(back), 30, why="the missed line")
        assert _texts(back).count("good luck all") == 1  # resent lines are not shown twice

        # Ann's record carries the chat; the game is untouched by it.
        assert ann.session.abort is None
        record = ann.session.record_bytes(ann.chat.record())
        assert len(record_chat(record)) == len(ann.chat.book.lines) >= BURST + 2
    finally:
        for run in runs.values():
            run.cancel()
        await asyncio.gather(*runs.values(), return_exceptions=True)


def test_chat_reaches_every_peer_is_limited_and_survives_a_crash(tmp_path: Path) -> None:
    asyncio.run(_chat(tmp_path))
