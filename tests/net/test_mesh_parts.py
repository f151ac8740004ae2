"""The mesh is a part of its node, not a base class: two meshes with stand-in owners (no
peer node) link over loopback, hand each other's frames to their owners, and say ``D`` once
the owner's game is over."""

from __future__ import annotations

import asyncio
from pathlib import Path

from waits import until

from protocol.chat import ChatBook
from protocol.params import PeerSecrets
from protocol.seeded import seeded_params
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.net.chat import NodeChat
from rattus_net.net.events import NodeEvents
from rattus_net.net.mesh import Mesh
from rattus_net.net.persist import Journal
from rattus_net.net.seats import Setup
from rattus_net.net.transport import DEFAULT_TRANSPORT, Listener


class Owner:
    """What a node would be told (:class:`~rattus_net.net.mesh.MeshOwner`), written down."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, bytes]] = []
        self.holds: list[tuple[int, int]] = []
        self.done: list[int] = []
        self.said = 0
        self.over = False

    def heard_frame(self, seat: int, frame: bytes) -> None:
        self.frames.append((seat, frame))

    def heard_hold(self, seat: int, have: int) -> None:
        self.holds.append((seat, have))

    def heard_done(self, seat: int) -> None:
        self.done.append(seat)

    def heard_copy(self, seat: int, index: int, frame: bytes) -> None:
        raise AssertionError("no copy was asked for")

    def game_over(self) -> bool:
        return self.over

    def said_done(self) -> None:
        self.said += 1

    def port_moved(self) -> None:
        raise AssertionError("the port was free")


def test_two_meshes_without_a_node_pass_frames_and_say_done(tmp_path: Path) -> None:
    config = GameConfig(players=("Ann", "Bob"), buildings=BuildingSelection.random_cards())
    params, secrets = seeded_params(config, 1, "cartus")

    def mesh(seat: int, owner: Owner) -> Mesh:
        setup = Setup(params, seat, secrets[seat]._master, (("127.0.0.1", 1),) * 2)
        identity = PeerSecrets(setup.master).identity()
        journal = Journal.open(tmp_path / f"seat{seat}" / "journal")
        book = ChatBook(params.game_id(), params.identities, config.players, seat, identity)
        events = NodeEvents(config.players)
        return Mesh(
            owner, setup, identity, journal, NodeChat(book, journal), events, DEFAULT_TRANSPORT
        )

    async def play() -> None:
        ann, bob = Owner(), Owner()
        m0, m1 = mesh(0, ann), mesh(1, bob)
        m0.sent.append(b"ann's first frame")
        m1.sent.extend([b"bob's first frame", b"bob's second frame"])
        listener = Listener(m0.accept, DEFAULT_TRANSPORT)
        m0.listener = listener
        port = await listener.start("127.0.0.1", 0)
        m1.addresses[0] = ("127.0.0.1", port)
        dial = asyncio.create_task(m1.dial(0))  # (seat 1 dials seat 0)
        try:
            await until(lambda: len(ann.frames) == 2 and len(bob.frames) == 1, 20, why="the frames")
            assert ann.frames == [(1, b"bob's first frame"), (1, b"bob's second frame")]
            assert bob.frames == [(0, b"ann's first frame")]
            assert ann.holds == [(1, 0)] and bob.holds == [(0, 0)]  # each said it held none
            assert 0 not in m1.down_since and 1 not in m0.down_since  # linked
            ann.over = True  # Ann's game is over: her D goes out behind her frames
            m0.say_done(m0.links[1])
            await until(lambda: bob.done == [0] and ann.said == 1, 20, why="Ann's D")
            assert m0.told_done == {1}
        finally:
            for m in (m0, m1):
                m.events.closing = True
                m.drop_links()
            dial.cancel()
            await asyncio.gather(dial, return_exceptions=True)
            await listener.close()
            for m in (m0, m1):
                m.journal.close()

    asyncio.run(play())
