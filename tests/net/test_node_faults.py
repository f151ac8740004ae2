"""A frame the session accepted is journaled even when a message processed after it fails;
the fault is blamed on that message's author, not on the link that delivered the valid
frame; a resumed node replays the journal to the same state."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from recordkit import resign, table

from protocol.session import Session
from protocol.wire import WireValue
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import Setup


def _master(seed: int, seat: int) -> bytes:
    return hashlib.sha256(f"rattus-net/v1/selfplay/{seed}/{seat}".encode()).digest()


def test_a_later_bad_message_is_blamed_on_its_author_and_the_valid_frame_is_journaled(
    tmp_path: Path,
) -> None:
    params, secrets = table(3, 8)
    setup = Setup(params, 0, _master(8, 0), (("127.0.0.1", 1),) * 3)
    node = PeerNode.create(setup, tmp_path)
    hello1 = Session(params, 1, secrets[1]).take_outgoing()[0]
    hello2 = Session(params, 2, secrets[2]).take_outgoing()[0]

    def bad_proof(kind: str, body: dict[str, WireValue]) -> str:
        x = body["x"]
        assert isinstance(x, dict) and isinstance(x["k"], bytes)
        k = bytearray(x["k"])
        k[40] ^= 1  # the Schnorr proof of its key share no longer holds
        body["x"] = {"k": bytes(k)}
        return kind

    bad2 = resign(hello2, secrets[2], bad_proof)

    async def deliver() -> None:
        await node.inbox.put((2, bad2))  # seat 2's signed hello with a bad proof waits...
        await node.inbox.put((1, hello1))  # ...until seat 1's valid hello completes the step
        await node._drain_inbox()

    asyncio.run(deliver())
    session = node.session
    assert session.abort is not None and session.abort.blamed == 2 and session.abort.proven
    assert node.faults and all(f.startswith("P3") for f in node.faults), node.faults
    assert node.mesh.got == [0, 1, 1]  # both frames are in the journal
    abort = session.abort
    node.journal.close()

    resumed = PeerNode.load(setup.game_id, tmp_path)
    assert resumed.session.abort == abort
    assert resumed.mesh.got == [0, 1, 1]
    resumed.journal.close()
