"""A journal cut inside a move the peer had already sent (issue 15): the resumed peer must not
decide again and sign a second, different move for that step (the others would record an
equivocation naming an honest player). It learns from the others that they hold more of its
messages than its journal, and stops the game with one clear line and a signed abort that
blames nobody. Separate processes over loopback, the journal cut by the test."""

from __future__ import annotations

import os
import re
import shutil
import signal
import struct
import time
from pathlib import Path

import pytest

from rattus_net.net.node import PeerNode
from rattus_net.net.persist import Journal

from .procs import (
    GAME_LINE,
    assert_fair_game,
    finish,
    read_line,
    spawn,
    start_table,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

_HEADER = struct.Struct(">II")


def record_offsets(path: Path) -> list[int]:
    """Byte offset of each record of a (whole) journal file."""
    data = path.read_bytes()
    offsets, pos = [], 0
    while pos + _HEADER.size <= len(data):
        offsets.append(pos)
        size, _ = _HEADER.unpack_from(data, pos)
        pos += _HEADER.size + size
    return offsets


def frames_held(journal: Path, seat: int) -> int:
    with Journal.open(journal, lock=False) as j:
        return sum(1 for r in j.records if isinstance(r, list) and r[:2] == ["r", seat])


def sent_after_cut(data: Path, game: str, cut: int, scratch: Path) -> int:
    """How many frames the victim regenerates from its journal cut at byte ``cut``."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(data, scratch)
    journal = next((scratch / "games" / game).glob("seat-*/journal.bin"))
    os.truncate(journal, cut)
    node = PeerNode.load(game, scratch)
    try:
        return len(node.mesh.sent)
    finally:
        node.journal.close()


@pytest.mark.parametrize("players", [2, 3])
def test_a_move_cut_from_the_journal_after_it_was_sent_is_recovered_from_the_others(
    tmp_path: Path, players: int
) -> None:
    procs, _ = start_table(tmp_path, players)
    game = read_line(procs[0], GAME_LINE, 30)
    assert read_line(procs[1], GAME_LINE, 30) == game
    read_line(procs[1], re.compile(r"^(round 3) of \d+$"), 60)
    assert procs[1].poll() is None, "the game ended before the kill"
    os.kill(procs[1].pid, signal.SIGKILL)
    procs[1].wait(10)
    victim = tmp_path / "g1"
    (journal,) = (victim / "games" / game).glob("seat-*/journal.bin")
    seat = int(journal.parent.name.removeprefix("seat-")) - 1  # (guests sit in any order)
    host_journal = tmp_path / "h" / "games" / game / "seat-1" / "journal.bin"
    time.sleep(0.3)  # (the host journals what it received in batches)
    held = frames_held(host_journal, seat)
    with Journal.open(journal, lock=False) as j:
        decisions = [i for i, r in enumerate(j.records) if isinstance(r, list) and r[0] == "d"]
    offsets = record_offsets(journal)
    assert decisions, "the victim made no move before the kill"
    # Cut inside the last move the host already holds (the last one, unless the kill came
    # between journaling it and sending it).
    for index in reversed(decisions):
        cut = offsets[index] + 5  # a torn record: its header is not even whole
        if sent_after_cut(victim, game, cut, tmp_path / "scratch") < held:
            break
    else:
        raise AssertionError("the host holds none of the victim's moves")
    os.truncate(journal, cut)

    procs[1] = spawn(["resume", game], victim)
    results = finish(procs, 90)
    out = results[1][1]
    assert "cut or damaged" in out and str(journal) in out, out
    assert "was recovered from the other peers" in out, out
    for _, peer_out, err in results:
        assert "equivocation" not in peer_out + err and "Traceback" not in err, err[-1500:]
    assert_fair_game(results, players)
