"""A resumed peer cannot be framed (issue 23).

A peer whose journal was rolled back (an older copy put back: the case every resumed peer is
treated as) comes back, and a malicious peer sends it a second, valid version of a message it
had sent everybody before (``framing.py``). Answering it at once, the resumed peer would sign
a second message for a sequence number it had used, and an honest peer would hold the proof of
an equivocation naming it. Instead it sends nothing it made until every peer has said what it
holds, re-sends only byte-identical copies of what it had signed, and on a mismatch shows the
messages that differ and stops blaming nobody: the honest peer, holding the other version,
proves that the malicious peer equivocated. In memory (the sans-IO recovery step), and with
separate processes (the malicious peer a real node that sends its second version to the
resumed peer only).
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.errors import RemoteProtocolError
from protocol.faults import ProvenFault
from protocol.messages import SHUFFLE, open_frame
from protocol.params import GameParams
from protocol.verdict import CHEATER
from protocol.verify import verify_record
from rattus_net.net.persist import Journal
from rattus_net.net.recovery import DECIDE, Recovery
from rattus_net.net.seats import Setup

from .framing import HONEST, LIAR, RESUMED, framing
from .procs import (
    GAME_LINE,
    env_for,
    finish,
    read_line,
    spawn,
    start_table,
)
from .splits import ROOT
from .test_cut_journal import record_offsets


def test_answering_the_second_version_at_once_would_frame_the_honest_peer() -> None:
    """Without the recovery step: the resumed peer's next message, made from the second
    version, reaches the honest peer as a second message of one sequence number."""
    f = framing()
    back = f.resumed()
    back.take_outgoing()
    back.receive(f.second, 0.0, link=LIAR)
    (shares,) = back.take_outgoing()
    honest = copy.deepcopy(f.net.peers[HONEST])
    with pytest.raises(ProvenFault) as caught:
        honest.receive(shares, 0.0, link=RESUMED)
    assert caught.value.seat == RESUMED  # framed
    assert honest.abort is not None and honest.abort.blamed == RESUMED and honest.abort.proven


@pytest.mark.parametrize("liar_says", ["the truth", "nothing", "more"])
def test_a_resumed_peer_fed_a_second_version_stops_and_the_equivocator_is_proven(
    liar_says: str,
) -> None:
    f = framing()
    back = f.resumed()
    rec = Recovery(back, lambda: (), resumed=True, sent=back.take_outgoing())
    mine = len(rec.sent)
    held = len(f.sent_to[HONEST])
    assert mine < held  # the honest peer holds messages of ours the journal lost
    # The liar's version comes first: made into a message of ours, and held back.
    back.receive(f.second, 0.0, link=LIAR)
    rec.produce(back.take_outgoing(), 0.0)
    assert rec.pending and len(rec.sent) == mine and rec.want is None  # (nobody said yet)
    assert rec.decision(0.0) is None
    rec.hold(HONEST, held)
    rec.release(0.0)
    assert rec.pending and len(rec.sent) == mine  # the liar has not said what it holds
    liar = {"the truth": len(f.sent_to[LIAR]), "nothing": 0, "more": held + 5}[liar_says]
    rec.hold(LIAR, liar)
    rec.release(0.0)
    assert len(rec.sent) == mine and rec.want is not None and rec.want[0] == mine
    assert HONEST in rec.want[1]  # ask the honest peer for our own frame back
    if liar_says != "nothing":  # the liar sends back what it likes: junk is dropped
        rec.copy(LIAR, mine, f.second)
        rec.release(0.5)
        assert back.abort is None and LIAR in rec.unbacked
    for i, frame in enumerate(f.sent_to[HONEST][mine : mine + 64]):
        rec.copy(HONEST, mine + i, frame)
    rec.release(1.0)
    abort = back.abort
    assert abort is not None and abort.blamed is None and not abort.proven
    assert "lost messages it had sent" in abort.reason
    assert any(kind == "journal" and "nobody is blamed" in line for kind, _, line in rec.events)
    rec.produce(back.take_outgoing(), 1.0)
    out = rec.sent[mine:]
    assert [f.kind(x) for x in out] == ["evidence", "abort"]  # never a message of the game
    honest = f.net.peers[HONEST]
    for frame in out:
        with contextlib.suppress(RemoteProtocolError):
            honest.receive(frame, 1.0, link=RESUMED)
    assert honest.abort is not None and honest.abort.proven
    assert honest.abort.blamed == LIAR  # the equivocator, proven by its two versions
    verdict = verify_record(honest.record_bytes())
    assert verdict.kind == CHEATER and verdict.cheater == LIAR, verdict.text()
    # The resumed peer meeting that abort takes the proof in place of its stop (see the node).
    theirs = back.read_abort(honest.abort.frame or b"")
    assert theirs is not None and theirs.proven and theirs.blamed == LIAR
    assert back.take_abort(honest.abort.frame or b"")
    assert verify_record(back.record_bytes()).cheater == LIAR


def test_honest_peers_resending_the_same_messages_let_the_resumed_peer_go_on() -> None:
    """The same rolled-back peer fed the first version again (every peer honest): what it
    makes is byte for byte what it had sent, so it goes out once matched, and past what the
    others hold it sends freely."""
    f = framing()
    back = f.resumed()
    rec = Recovery(back, lambda: (), resumed=True, sent=back.take_outgoing())
    mine = len(rec.sent)
    rec.hold(HONEST, len(f.sent_to[HONEST]))
    rec.hold(LIAR, len(f.sent_to[LIAR]))
    back.receive(f.first, 0.0, link=LIAR)
    rec.produce(back.take_outgoing(), 0.0)
    assert len(rec.sent) == mine and rec.pending
    for i, frame in enumerate(f.sent_to[HONEST][mine : mine + 64]):
        rec.copy(HONEST, mine + i, frame)
    rec.release(0.0)
    assert back.abort is None and not rec.pending
    assert rec.sent == f.sent_to[HONEST][: len(rec.sent)]  # the very same bytes
    assert rec.decision(0.0) in (DECIDE, None)


# --- over processes ---------------------------------------------------------------------------


def _seat_of(data: Path, game: str) -> tuple[int, Path]:
    (journal,) = (data / "games" / game).glob("seat-*/journal.bin")
    return int(journal.parent.name.removeprefix("seat-")) - 1, journal


def _roll_back(journal: Path, liar: int, params: GameParams) -> None:
    """Put back an older copy of the journal: the one it was just before the liar's first
    shuffle arrived (cut at that record: the file looks whole)."""
    offsets = record_offsets(journal)
    with Journal.open(journal, lock=False) as j:
        records = list(j.records)
    gid, ids, names = params.game_id(), params.identities, params.players
    for i, rec in enumerate(records):
        ours = isinstance(rec, list) and rec[:2] == ["r", liar] and isinstance(rec[2], bytes)
        if ours and open_frame(rec[2], gid, ids, names).kind == SHUFFLE:
            os.truncate(journal, offsets[i])
            return
    raise AssertionError("the liar's shuffle is not in the journal")


@pytest.mark.slow
def test_over_processes_the_equivocator_is_named_or_nobody_never_the_resumed_peer(
    tmp_path: Path,
) -> None:
    timing = ("--stall-timeout", "60", "--linger-after-abort", "20")
    procs, _ = start_table(tmp_path, 3, *timing)
    game = read_line(procs[0], GAME_LINE, 30)
    read_line(procs[0], re.compile(r"^(round 2) of \d+$"), 90)
    for guest in procs[1:]:  # the resumed peer and the one that will lie, both killed
        os.kill(guest.pid, signal.SIGKILL)
        guest.wait(10)
    (back, journal), (liar, _) = (_seat_of(tmp_path / f"g{i}", game) for i in (1, 2))
    with Journal.open(journal, lock=False) as j:
        params = Setup.from_wire(j.records[0][1]).params  # type: ignore[index]
    _roll_back(journal, liar, params)
    lying = subprocess.Popen(
        [sys.executable, "-m", "tests.net.equivocator", game, "--victim", str(back + 1),
         *timing],
        cwd=ROOT, env=env_for(tmp_path / "g2"), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    read_line(lying, re.compile(r"^(.+) is connected\.$"), 60)  # linked to the host
    resumed = spawn(["resume", game, *timing], tmp_path / "g1")
    results = finish([procs[0], resumed, lying], 120)
    detail = "\n".join(f"--- rc {rc}\n{out[-1500:]}\n{err[-1500:]}" for rc, out, err in results)
    assert "equivocated" in results[2][1], detail
    assert all("Traceback" not in err for _, _, err in results), detail
    named = []
    for data in ("h", "g1", "g2"):
        (record,) = (tmp_path / data / "games" / game).glob("seat-*/record.rattusnet")
        verdict = verify_record(record.read_bytes())
        claimed = verdict.seats[1:] if verdict.kind == "aborted" else verdict.seats
        assert back not in claimed, f"{data}: {verdict.text()}\n{detail}"  # never the resumed
        named.append((verdict.kind, verdict.cheater))
    assert named[0] == (CHEATER, liar), (named, detail)  # proven, whoever showed it first
    # The resumed peer stopped blaming nobody (what it was sent differs from what it had
    # sent), or proved it itself (the liar's next message does not chain to its second one).
    out = results[1][1]
    assert "nobody is blamed" in out or named[1] == (CHEATER, liar), detail
