"""Two peers cut off from each other while both keep running each sign a stall claim naming
the other; when the link comes back while they still answer (after an abort), the claim of
the lower seat stands and the other gives way to it: both records hold the same abort, and
the one that gave way keeps it after a restart (journaled). Two nodes over loopback in one
process; the cut: Bob, who dials Ann, loses the link and dials a dead port until it heals."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from protocol.params import GameParams, PeerSecrets
from protocol.record import decode_record, verify_record
from rattus_net.games.cartus.config import GameConfig
from rattus_net.net.node import Outcome, PeerNode, Setup
from rattus_net.net.transport import Connection, Listener

from .procs import free_port

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


async def _cut_and_heal(tmp_path: Path) -> tuple[list[Outcome], list[PeerNode], list[int]]:
    masters = [os.urandom(32) for _ in range(2)]
    identities = tuple(PeerSecrets(m).identity().public for m in masters)
    params = GameParams(GameConfig(("Ann", "Bob")), identities, os.urandom(32))
    nodes: dict[int, PeerNode] = {}
    listeners, ports = [], []
    for seat in range(2):

        async def on_link(conn: Connection, seat: int = seat) -> None:
            await nodes[seat].accept(conn)

        listener = Listener(on_link, max_connections=8)
        ports.append(await listener.start("127.0.0.1", 0))
        listeners.append(listener)
    addresses = tuple(("127.0.0.1", port) for port in ports)
    for seat in range(2):
        setup = Setup(params, seat, masters[seat], addresses, "T", "random", seat + 1)
        nodes[seat] = PeerNode.create(
            setup, tmp_path / f"seat{seat}", stall_timeout=3.0, linger=1.0, abort_linger=20.0
        )
    ann, bob = nodes[0], nodes[1]
    runs = [asyncio.ensure_future(nodes[s].run(listeners[s])) for s in range(2)]
    deadline = time.monotonic() + 60
    while ann.session.step is None or ann.session.step.index < 40:
        assert time.monotonic() < deadline and not ann.session.finished
        await asyncio.sleep(0.02)
    bob.addresses[0] = ("127.0.0.1", free_port())  # the cut: Bob dials nowhere
    for link in list(bob.links.values()):
        link.conn.abort()
    while ann.session.abort is None or bob.session.abort is None:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    claimants = [ann.session.abort.by, bob.session.abort.by]  # type: ignore[union-attr]
    bob.addresses[0] = addresses[0]  # the link comes back while both still answer
    outcomes = await asyncio.wait_for(asyncio.gather(*runs), 40)
    return list(outcomes), [ann, bob], claimants


def test_when_two_stall_claims_meet_the_lower_seats_stands(tmp_path: Path) -> None:
    outcomes, nodes, claimants = asyncio.run(_cut_and_heal(tmp_path))
    assert claimants == [0, 1]  # each alone, each signed its own claim naming the other
    aborts = [decode_record(o.record.read_bytes())[2] for o in outcomes]
    assert aborts[0] is not None and aborts[0] == aborts[1]  # Ann's claim, in both records
    assert all(o.by == "Ann" and o.blamed == "Bob" for o in outcomes)
    for o in outcomes:
        assert verify_record(o.record.read_bytes()).kind == "aborted"
    bob = PeerNode.load(nodes[1].setup.game_id, tmp_path / "seat1")
    assert bob.session.abort is not None and bob.session.abort.frame == aborts[0]
    bob.journal.close()
