"""Peer nodes of one process on loopback: the listeners that hand each seat its links, and the
parameters of a two-seat game between Ann and Bob (fresh keys each time)."""

from __future__ import annotations

import os

from protocol.params import GameParams, PeerSecrets
from rattus_net.games.cartus.config import GameConfig
from rattus_net.net.node import PeerNode
from rattus_net.net.transport import Connection, Listener

Address = tuple[str, int]


def ann_and_bob(first_player: int = 0) -> tuple[list[bytes], GameParams]:
    """The two seats' master secrets and the parameters of their Rattus Cartus game."""
    masters = [os.urandom(32) for _ in range(2)]
    identities = tuple(PeerSecrets(m).identity().public for m in masters)
    config = GameConfig(("Ann", "Bob"), first_player=first_player)
    return masters, GameParams(config, identities, os.urandom(32), "cartus")


async def listeners_for(
    nodes: dict[int, PeerNode], seats: int
) -> tuple[list[Listener], tuple[Address, ...]]:
    """A loopback listener for each seat, listening already, that hands its links to
    ``nodes[seat]`` (the node is made afterwards, with the addresses returned)."""
    listeners = []
    for seat in range(seats):

        async def on_link(conn: Connection, seat: int = seat) -> None:
            await nodes[seat].accept(conn)

        listener = Listener(on_link, max_connections=8)
        await listener.start("127.0.0.1", 0)
        listeners.append(listener)
    return listeners, tuple(("127.0.0.1", listener.port) for listener in listeners)
