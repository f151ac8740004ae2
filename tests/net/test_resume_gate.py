"""The gate a resumed node passes before its player decides anything: it waits until every
other peer said what it holds of ours, asks back what they hold beyond its journal, and stops
the game (a signed abort blaming nobody) if what comes back is not its own message."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from recordkit import table

from protocol.session import Session
from rattus_net.net.node import PeerNode, Setup


def _master(seed: int, seat: int) -> bytes:
    return hashlib.sha256(f"rattus-net/v1/selfplay/{seed}/{seat}".encode()).digest()


def test_a_resumed_node_waits_for_every_peer_and_stops_rather_than_sign_twice(
    tmp_path: Path,
) -> None:
    params, secrets = table(3, 8)
    setup = Setup(params, 0, _master(8, 0), (("127.0.0.1", 1),) * 3)
    PeerNode.create(setup, tmp_path).journal.close()
    node = PeerNode.load(setup.game_id, tmp_path)
    events: list[tuple[str, str]] = []
    node.on_event = lambda kind, seat, detail: events.append((kind, detail))
    mine = len(node.sent)
    assert mine == 1  # our hello, regenerated from the journal

    async def gate() -> None:
        assert not node._may_decide()  # nobody said yet what it holds of ours
        node.held[1] = mine
        assert not node._may_decide()  # seat 3 has not said
        node.held[2] = mine
        assert node._may_decide()  # both hold no more than we have: decide
        node.held[2] = mine + 1  # seat 3 holds a frame of ours the journal lost
        assert not node._may_decide() and node.session.abort is None  # (asked; waiting)
        other = Session(params, 1, secrets[1]).take_outgoing()[0]
        node.copies[mine] = {2: other}  # what came back is not our message
        assert not node._may_decide()

    asyncio.run(gate())
    abort = node.session.abort
    assert abort is not None and abort.blamed is None and abort.by == 0 and not abort.proven
    assert "lost messages it had sent" in abort.reason
    assert len(node.sent) == mine + 1  # the signed abort goes out to the others
    kinds = [k for k, _ in events]
    assert "journal" in kinds
    line = next(d for k, d in events if k == "journal")
    assert str(node.journal.path) in line and "lost messages you had sent" in line
    node.journal.close()


def test_a_resumed_node_does_not_wait_forever_for_a_peer_that_left(tmp_path: Path) -> None:
    """The others may have ended the game and left before we came back: waiting to hear what
    they hold of ours ends, like any stall, blaming the absent peer (a claim, not proven)."""
    params, _ = table(3, 9)
    setup = Setup(params, 0, _master(9, 0), (("127.0.0.1", 1),) * 3)
    PeerNode.create(setup, tmp_path).journal.close()
    node = PeerNode.load(setup.game_id, tmp_path, stall_timeout=5.0)
    node.held[1] = len(node.sent)
    node.down_since = {2: node.down_since[2] - 6.0}  # seat 3: gone longer than the timeout

    async def gate() -> None:
        assert not node._may_decide()

    asyncio.run(gate())
    abort = node.session.abort
    assert abort is not None and abort.blamed == 2 and not abort.proven
    assert abort.reason.startswith("stalled")
    node.journal.close()
