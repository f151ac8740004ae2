"""The recovery step of a resumed node cannot be abused (issue 15).

A resumed node whose journal lost a move it had sent asks the others for it (``R``; answered
``Y``): the frame is self-authenticating (its signature), the claims are not. Here a real
node over loopback faces a misbehaving peer that speaks the link protocol by hand:

* it claims (``H``) to hold more of the node's messages and sends back junk: the node does
  not stop the game blaming nobody; it keeps asking, takes the genuine frame from an honest
  peer that holds it, and, when nobody supplies one, ends the game after its stall timeout
  naming the peer whose claim held it up (a stall claim, not a cheat verdict);
* it floods ``R`` requests: it gets no more copies than the rate allows.
"""

from __future__ import annotations

import asyncio
import hashlib
import struct
import time
from pathlib import Path

import pytest
from recordkit import random_chooser, resign, table
from waits import until

from protocol.memnet import MemoryNetwork
from protocol.params import GameParams, PeerSecrets
from rattus_net.net.lobby import authenticate
from rattus_net.net.node import PeerNode
from rattus_net.net.relink import COPY_BURST, COPY_RATE
from rattus_net.net.seats import Setup
from rattus_net.net.transport import Connection, TransportError, connect

from .procs import free_port

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

_COUNT = struct.Struct(">I")
SEED = 12


def _master(seed: int, seat: int) -> bytes:
    return hashlib.sha256(f"rattus-net/v1/selfplay/{seed}/{seat}".encode()).digest()


def _lost_move(tmp: Path) -> tuple[GameParams, list[PeerSecrets], Setup, bytes, int]:
    """A 3-seat game played in memory until seat 1 (index 0) first decides; its journal holds
    everything it received before, not the move it signed (lost). Returns the table, seat 1's
    setup (journal written under ``tmp``), the lost signed move and its index in ``sent``."""
    params, secrets = table(3, SEED)
    net = MemoryNetwork(params, secrets)
    choose = random_chooser(3, SEED)
    got: list[tuple[int, bytes]] = []
    while True:
        if net.links:
            sender, receiver, frame = net.links[0]
            net.deliver_one()
            if receiver == 0:
                got.append((sender, frame))
            continue
        me = net.peers[0]
        if me.needs_decision:
            break
        seat = next(s for s in (1, 2) if net.peers[s].needs_decision)
        game = net.peers[seat].game
        assert game is not None
        net.peers[seat].decide(choose(game, seat), net.now)
        net._collect()
    setup = Setup(params, 0, _master(SEED, 0), (("127.0.0.1", free_port()),) * 3)
    node = PeerNode.create(setup, tmp)
    for sender, frame in got:
        node.journal.append(["r", sender, frame])
    node.journal.close()
    probe = PeerNode.load(setup.game_id, tmp)
    index = len(probe.mesh.sent)  # what the journal regenerates: everything before the move
    assert probe.session.needs_decision
    probe.journal.close()
    game = me.game
    assert game is not None
    me.decide(choose(game, 0), net.now)
    lost = me.take_outgoing()[0]
    return params, secrets, setup, lost, index


class Peer:
    """A peer of the game played by hand over a real link to the node (seat 0)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.frames: list[bytes] = []
        self.asked: list[int] = []
        self.copies = 0

    @classmethod
    async def dial(cls, setup: Setup, secrets: PeerSecrets) -> Peer:
        port = setup.addresses[0][1]
        conn = await connect("127.0.0.1", port)
        fp = setup.params.identities[0].fingerprint
        await authenticate(conn, secrets.identity(), f"game/{setup.game_id}", expect={fp})
        return cls(conn)

    async def read(self, seconds: float, answer: bytes | None = None) -> None:
        """Read what the node sends for ``seconds``; answer each ``R`` with ``Y`` + ``answer``."""
        deadline = time.monotonic() + seconds
        try:
            while (left := deadline - time.monotonic()) > 0:
                try:
                    data = await asyncio.wait_for(self.conn.recv(), left)
                except TimeoutError:
                    return
                tag, body = data[:1], data[1:]
                if tag == b"F":
                    self.frames.append(body)
                elif tag == b"R":
                    (index,) = _COUNT.unpack(body)
                    self.asked.append(index)
                    if answer is not None:
                        await self.conn.send(b"Y" + _COUNT.pack(index) + answer)
                elif tag == b"Y":
                    self.copies += 1
        except TransportError:
            return


def _listening(node: PeerNode) -> bool:
    """The node listens on its port: a peer may dial it."""
    return node.mesh.listener is not None and node.mesh.listener.listening


def _node(setup: Setup, tmp: Path, stall: float) -> PeerNode:
    return PeerNode.load(setup.game_id, tmp, stall_timeout=stall, abort_linger=0.2, linger=0.5)


def test_an_unbacked_claim_cannot_stop_the_game_and_is_named_after_the_stall_timeout(
    tmp_path: Path,
) -> None:
    params, secrets, setup, lost, index = _lost_move(tmp_path)
    junk = resign(lost, secrets[1], lambda kind, body: kind)  # a "copy" signed by the liar
    node = _node(setup, tmp_path, stall=3.0)

    async def play() -> tuple[list[int], str | None]:
        run = asyncio.ensure_future(node.run())
        await until(lambda: _listening(node), 10, why="the node listening")
        liar = await Peer.dial(setup, secrets[1])
        honest = await Peer.dial(setup, secrets[2])
        await liar.conn.send(b"H" + _COUNT.pack(index + 3))  # "I hold 3 more of yours"
        await honest.conn.send(b"H" + _COUNT.pack(index))  # (holds what the node has)
        await asyncio.gather(liar.read(2.5, junk), honest.read(2.5))
        assert node.session.abort is None  # junk is dropped: no abort blaming nobody
        outcome = await asyncio.wait_for(run, 20)
        return liar.asked, outcome.blamed

    asked, blamed = asyncio.run(play())
    assert len(asked) >= 2 and set(asked) == {index}  # it kept asking
    abort = node.session.abort
    assert abort is not None and not abort.proven and abort.by == 0
    assert abort.blamed == 1 and blamed == params.config.players[1]
    assert abort.reason.startswith("stalled:") and "sent back none" in abort.reason
    assert any("never signed" in f for f in node.faults)


def test_an_honest_peer_supplies_the_lost_move_whatever_a_liar_sends(tmp_path: Path) -> None:
    _, secrets, setup, lost, index = _lost_move(tmp_path)
    junk = b"\x00" * 40
    node = _node(setup, tmp_path, stall=30.0)

    async def play() -> None:
        run = asyncio.ensure_future(node.run())
        await until(lambda: _listening(node), 10, why="the node listening")
        liar = await Peer.dial(setup, secrets[1])
        await liar.conn.send(b"H" + _COUNT.pack(index + 1))
        await liar.read(1.0, junk)  # junk first: dropped, the node keeps asking
        assert node.session.abort is None and len(node.mesh.sent) == index
        honest = await Peer.dial(setup, secrets[2])
        await honest.conn.send(b"H" + _COUNT.pack(index + 1))
        await honest.read(1.5, lost)  # the genuine signed move, from any peer holding it
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)

    asyncio.run(play())
    assert node.session.abort is None
    assert node.mesh.sent[index] == lost  # adopted: the very same signed message


def test_copy_requests_are_rate_limited_per_link(tmp_path: Path) -> None:
    _, secrets, setup, _, _ = _lost_move(tmp_path)
    node = _node(setup, tmp_path, stall=30.0)
    held = len(node.mesh.received[1])  # the flooder's own frames the node holds
    assert held > 0

    async def flood() -> tuple[int, float]:
        run = asyncio.ensure_future(node.run())
        await until(lambda: _listening(node), 10, why="the node listening")
        peer = await Peer.dial(setup, secrets[1])
        start = time.monotonic()
        for _ in range(500):
            await peer.conn.send(b"R" + _COUNT.pack(0))
        await peer.read(1.5)
        elapsed = time.monotonic() - start
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        return peer.copies, elapsed

    copies, elapsed = asyncio.run(flood())
    allowed = int(COPY_BURST + elapsed * COPY_RATE) + 1
    assert 0 < copies <= allowed * held, (copies, allowed, held)
    assert copies < 500 * held  # (without the limit, every request would be answered)
