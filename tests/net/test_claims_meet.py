"""Two peers cut off from each other while both keep running each sign a stall claim naming
the other; when the link comes back while they still answer (after an abort), the claim of
the lower seat stands and the other gives way to it: both records hold the same abort, and
the one that gave way keeps it after a restart (journaled). Two nodes over loopback in one
process; the cut: Bob, who dials Ann, loses the link and dials a dead port until it heals.

And the same with separate processes (``splits.py``), where frames of one link do not
arrive together: a guest stopped with SIGSTOP, and a link cut by the userspace relay."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from protocol.messages import open_frame
from protocol.record import decode_record
from protocol.verify import verify_record
from rattus_net.net.node import PeerNode
from rattus_net.net.pausewatch import PauseWatch
from rattus_net.net.persist import Journal
from rattus_net.net.seats import Outcome, Setup

from .loopback import ann_and_bob, listeners_for
from .procs import free_port
from .splits import Result, Split, run

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


async def _cut_and_heal(tmp_path: Path) -> tuple[list[Outcome], list[PeerNode], list[int]]:
    masters, params = ann_and_bob()
    nodes: dict[int, PeerNode] = {}
    listeners, addresses = await listeners_for(nodes, 2)
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
    bob.mesh.addresses[0] = ("127.0.0.1", free_port())  # the cut: Bob dials nowhere
    for link in list(bob.mesh.links.values()):
        link.conn.abort()
    while ann.session.abort is None or bob.session.abort is None:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    claimants = [ann.session.abort.by, bob.session.abort.by]  # type: ignore[union-attr]
    bob.mesh.addresses[0] = addresses[0]  # the link comes back while both still answer
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


# --- separate processes: what one process with both nodes could not show ----------------------


def _one_story(result: Result) -> None:
    detail = "\n".join(
        f"--- {o[-1500:]}\n{e[-1500:]}" for o, e in zip(result.outs, result.errs, strict=True)
    )
    assert result.story == "one abort", f"{result.story}: {result.verdicts()}\n{detail}"
    assert result.codes == [1] * result.split.players, detail
    assert set(result.verdicts()) == {"aborted"}
    assert all("Traceback" not in e for e in result.errs), detail


def test_a_guest_stopped_longer_than_the_timeouts_adopts_the_hosts_claim(tmp_path: Path) -> None:
    """The guest's process is stopped (SIGSTOP) for 10 s: the host drops the silent link (2 s)
    and, 3 s later, stops the game with a claim naming the guest. Woken, the guest's clock has
    jumped: it judges nobody, reconnects, hears what the host holds and adopts its abort
    (before, it signed a claim of its own on its first tick, and one of the two peers left
    before the other's claim reached it: two records telling two stories)."""
    result = run(Split("cartus", 2, "stop", 10.0, "guest"), tmp_path)
    _one_story(result)
    assert "was paused for" in result.outs[1]
    (journal,) = (tmp_path / "p1" / "games").glob("*/seat-*/journal.bin")
    with Journal.open(journal, lock=False) as j:
        assert not [r for r in j.records if r[0] == "A"]  # no claim of its own, ever signed
    (abort,) = set(result.aborts)  # the same in both records: the host's
    params = decode_record(result.records[0] or b"")[0]
    assert abort is not None
    assert open_frame(abort, params.game_id(), params.identities, params.players).author == 0


def test_peers_cut_off_both_claim_and_the_claims_meet_in_both_records(tmp_path: Path) -> None:
    """The link between host and guest is cut for 10 s by the relay while both keep running:
    each drops the link (2 s), each signs a claim naming the other (3 s later, the guest 2 s
    after the host). When the link is back, each side sends what the other lacks before it
    says its game is over, and stays until the other has said so too: the host's claim (the
    lower seat) stands in both records."""
    result = run(Split("rattus", 2, "cut", 10.0, "guest"), tmp_path)
    _one_story(result)
    assert "two claims met" in result.outs[1].lower(), result.outs[1][-2000:]


def test_the_pause_watch_sees_a_stopped_process_not_a_busy_one() -> None:
    """The watch's thread looks at the clock every quarter second: a jump of more than 5 s is
    a pause (the clock here is made to jump, as it does for a process stopped and woken);
    a slow look that stays under it is not."""
    now = [0.0]
    gate = threading.Event()

    def clock() -> float:
        gate.set()
        return now[0]

    watch = PauseWatch(period=0.01, threshold=5.0, clock=clock)
    watch.start()
    try:
        gate.wait(2.0)
        now[0] += 3.0  # a busy moment: not a pause
        time.sleep(0.1)
        assert watch.take() == 0.0
        now[0] += 40.0  # stopped for 40 s
        deadline = time.monotonic() + 2.0
        while (gap := watch.take()) == 0.0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert 39.0 < gap < 41.0 and watch.take() == 0.0  # told once
    finally:
        watch.stop()


def test_the_pause_watch_tells_a_pause_before_its_thread_has_looked_again() -> None:
    """Woken, the event loop may ask before the watch's thread has had its next look: the
    asking sees the thread's last look is too old and tells the pause itself, once (the
    thread's next look does not count it again)."""
    now = [0.0]
    looked = threading.Event()
    hold = threading.Event()
    hold.set()

    def clock() -> float:
        if threading.current_thread().name == "pause-watch":
            looked.set()
            hold.wait(5.0)  # (the thread is held here: it has not looked since the pause)
        return now[0]

    watch = PauseWatch(period=0.01, threshold=5.0, clock=clock)
    watch.start()
    try:
        assert looked.wait(2.0)
        hold.clear()  # the thread's next look waits
        looked.clear()
        assert looked.wait(2.0)
        now[0] += 40.0  # stopped for 40 s; the process is woken and the loop asks first
        gap = watch.take()
        assert 39.0 < gap < 41.0
        hold.set()  # the thread looks again: nothing more to tell
        time.sleep(0.1)
        assert watch.take() == 0.0
    finally:
        watch.stop()
        hold.set()
