"""The gate a resumed node passes before its player decides anything: it waits until every
other peer said what it holds of ours, asks back what they hold beyond its journal, and stops
the game (a signed abort blaming nobody) only if what comes back is a message it signed for
that sequence number and no move of this step (a copy it never signed is dropped)."""

from __future__ import annotations

import asyncio
import hashlib
import time
from pathlib import Path

from recordkit import resign, table

from protocol.session import Session
from protocol.wire import WireValue
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import Setup


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
    mine = len(node.mesh.sent)
    assert mine == 1  # our hello, regenerated from the journal

    async def gate() -> None:
        assert not node.comeback.may_decide()  # nobody said yet what it holds of ours
        node.heard_hold(1, mine)
        assert not node.comeback.may_decide()  # seat 3 has not said
        node.heard_hold(2, mine)
        assert node.comeback.may_decide()  # both hold no more than we have: decide
        node.heard_hold(2, mine + 1)  # seat 3 holds a frame of ours the journal lost
        assert not node.comeback.may_decide() and node.session.abort is None  # (asked; waiting)
        other = Session(params, 1, secrets[1]).take_outgoing()[0]
        node.copies[mine] = {2: other}  # what came back is not our message: dropped
        assert not node.comeback.may_decide() and node.session.abort is None
        assert node.recovery.unbacked == {2} and not node.copies[mine]

        def next_of_ours(kind: str, body: dict[str, WireValue]) -> str:
            body["q"] = 1  # our signature, our next sequence number, yet no move of this step
            return kind

        node.copies[mine] = {2: resign(node.mesh.sent[0], secrets[0], next_of_ours)}
        assert not node.comeback.may_decide()

    asyncio.run(gate())
    abort = node.session.abort
    assert abort is not None and abort.blamed is None and abort.by == 0 and not abort.proven
    assert "lost messages it had sent" in abort.reason
    assert len(node.mesh.sent) == mine + 1  # the signed abort goes out to the others
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
    node.heard_hold(1, len(node.mesh.sent))
    node.mesh.down_since = {2: node.mesh.down_since[2] - 6.0}  # seat 3: gone too long

    async def gate() -> None:
        assert not node.comeback.may_decide()

    asyncio.run(gate())
    abort = node.session.abort
    assert abort is not None and abort.blamed == 2 and not abort.proven
    assert abort.reason.startswith("stalled")
    node.journal.close()


def test_a_resumed_node_that_reaches_nobody_blames_nobody(tmp_path: Path) -> None:
    """Nobody of the game answered since we came back (they may have stopped the game and
    left): no stall claim is signed; after the stall timeout the node ends without a record,
    the game kept resumable."""
    params, _ = table(3, 10)
    setup = Setup(params, 0, _master(10, 0), (("127.0.0.1", 1),) * 3)
    PeerNode.create(setup, tmp_path).journal.close()
    node = PeerNode.load(setup.game_id, tmp_path, stall_timeout=5.0)
    events: list[tuple[str, str]] = []
    node.on_event = lambda kind, seat, detail: events.append((kind, detail))
    node.mesh.down_since = {s: t - 60.0 for s, t in node.mesh.down_since.items()}  # long gone

    async def gate() -> None:
        node.comeback.since = time.monotonic() - 4.0
        assert not node.comeback.may_decide() and not node.comeback.alone()
        assert [k for k, _ in events] == ["alone"]  # said once, with the time left
        assert "nobody else of this game is online" in events[0][1]
        node.comeback.since = time.monotonic() - 6.0
        assert node.comeback.alone()

    asyncio.run(gate())
    assert node.session.abort is None and node.comeback.gave_up
    outcome = node._finish()
    assert outcome.alone and not outcome.finished and outcome.abort is None
    assert not outcome.record.exists()  # nothing written against anybody
    node.journal.close()


def test_our_own_abort_is_journaled_and_back_after_a_restart(tmp_path: Path) -> None:
    """A stall abort comes from the clock, not from the journal's inputs: it is journaled
    before it is sent, so a restarted peer holds the same signed abort and answers with it."""
    params, _ = table(2, 11)
    setup = Setup(params, 0, _master(11, 0), (("127.0.0.1", 1),) * 2)
    node = PeerNode.create(setup, tmp_path)
    node.session.tick(time.monotonic() + 1000.0, {1: time.monotonic()})  # Bob gone too long
    node.flush_outgoing()
    abort = node.session.abort
    assert abort is not None and abort.by == 0 and abort.blamed == 1 and abort.frame
    assert node.mesh.sent[-1] == abort.frame
    node.journal.close()
    again = PeerNode.load(setup.game_id, tmp_path)
    assert again.session.abort is not None and again.session.abort.frame == abort.frame
    assert again.mesh.sent[-1] == abort.frame  # a returning peer gets it from us
    assert again.ending.owed_abort() == [1]
    again.journal.close()


def test_seats_back_in_the_same_process_are_not_the_game(tmp_path: Path) -> None:
    """A host's bot seats answer it at once when it comes back, and know no more than it
    does: hearing from them alone is still reaching nobody (no stall claim)."""
    params, _ = table(3, 14)
    setup = Setup(params, 0, _master(14, 0), (("127.0.0.1", 1),) * 3)
    PeerNode.create(setup, tmp_path).journal.close()
    node = PeerNode.load(setup.game_id, tmp_path, stall_timeout=5.0, together=frozenset({1}))
    node.heard_hold(1, len(node.mesh.sent))  # our bot seat said what it holds
    node.mesh.down_since = {2: node.mesh.down_since[2] - 60.0}  # the remote guest: long gone

    async def gate() -> None:
        node.comeback.since = time.monotonic() - 6.0
        assert not node.comeback.may_decide() and node.comeback.alone()
        node.heard_hold(2, len(node.mesh.sent))  # the remote seat answers: back in the game
        assert not node.comeback.alone()

    asyncio.run(gate())
    assert node.session.abort is None and node.comeback.gave_up
    node.journal.close()
