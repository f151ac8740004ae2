"""A node keeps listening while its player thinks.

Two peer nodes in one process over loopback. Bob's player never answers; Ann's node gives up
on him after its stall timeout and aborts with a signed record. Bob's node, still waiting for
its player, must see that abort at once and end the game, instead of noticing only after a
decision that will never come.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path

import pytest

from protocol.params import GameParams, PeerSecrets
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.net.node import Outcome, PeerNode, Setup
from rattus_net.net.transport import Connection, Listener

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


async def _ann_and_thinking_bob(
    tmp_path: Path, ann_stall: float, bob_stall: float
) -> tuple[list[PeerNode], list[Listener], asyncio.Event]:
    """Two peer nodes on loopback listeners; Bob's player, once asked, thinks forever (the
    returned event is set when he starts). Bob moves first."""
    masters = [os.urandom(32) for _ in range(2)]
    identities = tuple(PeerSecrets(m).identity().public for m in masters)
    params = GameParams(
        GameConfig(("Ann", "Bob"), first_player=1), identities, os.urandom(32), "cartus"
    )
    nodes: dict[int, PeerNode] = {}
    listeners = []
    ports = []
    for seat in range(2):

        async def on_link(conn: Connection, seat: int = seat) -> None:
            await nodes[seat].accept(conn)

        listener = Listener(on_link, max_connections=8)
        ports.append(await listener.start("127.0.0.1", 0))
        listeners.append(listener)
    addresses = tuple(("127.0.0.1", port) for port in ports)
    thinking = asyncio.Event()

    async def bob_thinks_forever(view: PlayerView) -> Move:
        thinking.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    for seat, stall in ((0, ann_stall), (1, bob_stall)):
        setup = Setup(params, seat, masters[seat], addresses, "T", "random", 1)
        kw = {"choose_async": bob_thinks_forever} if seat == 1 else {}
        root = tmp_path / f"seat{seat}"
        nodes[seat] = PeerNode.create(
            setup, root, stall_timeout=stall, linger=1.0, abort_linger=1.0, **kw
        )
    return [nodes[0], nodes[1]], listeners, thinking


async def _two_nodes(tmp_path: Path) -> tuple[Outcome, Outcome, bool]:
    nodes, listeners, thinking = await _ann_and_thinking_bob(tmp_path, 2.0, 600.0)
    nodes[0].session.decision_timeout = 2.0  # Ann gives Bob's player two seconds, not ten minutes
    runs = [asyncio.ensure_future(nodes[s].run(listeners[s])) for s in range(2)]
    ann, bob = await asyncio.wait_for(asyncio.gather(*runs), 30)
    return ann, bob, thinking.is_set()


def test_an_abort_reaches_a_node_whose_player_is_still_thinking(tmp_path: Path) -> None:
    ann, bob, bob_was_thinking = asyncio.run(_two_nodes(tmp_path))
    assert bob_was_thinking
    assert ann.abort is not None and ann.blamed == "Bob"
    assert bob.abort is not None  # seen while Bob's player was thinking
    assert not bob.finished


async def _bob_crashes_owing_a_move(tmp_path: Path) -> tuple[Outcome, float]:
    # Ann allows protocol steps 2 s and, as for people, ten minutes to decide.
    nodes, listeners, thinking = await _ann_and_thinking_bob(tmp_path, 2.0, 2.0)
    ann_run = asyncio.ensure_future(nodes[0].run(listeners[0]))
    bob_run = asyncio.ensure_future(nodes[1].run(listeners[1]))
    await asyncio.wait_for(thinking.wait(), 30)
    # Bob's process dies while his move is awaited: his links and his listener go away.
    bob_run.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await bob_run
    gone = time.monotonic()
    ann = await asyncio.wait_for(ann_run, 30)
    return ann, time.monotonic() - gone


def test_a_peer_gone_while_it_owes_a_move_is_blamed_after_the_stall_timeout(
    tmp_path: Path,
) -> None:
    ann, waited = asyncio.run(_bob_crashes_owing_a_move(tmp_path))
    assert ann.abort is not None and ann.blamed == "Bob"
    assert "gone" in ann.abort
    assert waited < 15  # the stall timeout (2 s) from the drop, not the 10-minute thinking time
