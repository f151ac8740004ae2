"""A peer that comes back after the others stopped the game learns it, and honest peers never
end with contradicting records (separate processes, real sockets on loopback).

Three peers; one is killed mid-game; the other two wait their (short) stall timeout and stop
the game with one signed abort naming it. The killed peer is then resumed:

* while a peer that stopped the game still answers (it lingers after an abort, announced;
  Ctrl+C takes the other one away at once, its record written): the resumed peer adopts that
  very signed abort, says so, and every record holds the same abort;
* after every other peer has left: it writes no claim of its own (nobody reached, nobody
  blamed), says that nobody else of the game is online, exits 3 and keeps the game resumable;
  resumed again once a peer holding the abort is back (here: that peer's ``rattus resume``,
  which lingers answering with it), it adopts it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from protocol.record import decode_record
from protocol.verify import verify_record

from .procs import (
    GAME_LINE,
    RECORD_LINE,
    env_for,
    finish,
    host_table,
    join_table,
    rattus,
    read_line,
    spawn,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

STALL = ["--stall-timeout", "2"]


def _table(tmp: Path, linger: tuple[str, str, str]) -> tuple[list[subprocess.Popen[str]], str]:
    """Host and two guests (seeded random bots, a 2 s stall timeout); ``linger``: each one's
    ``--linger-after-abort``. Returns the processes and the game id."""
    host, port = host_table("Abort", 3, tmp / "p0", "--seed", "1", *STALL,
                            "--linger-after-abort", linger[0])  # fmt: skip
    procs = [host]
    for i in (1, 2):
        linger_i = ("--linger-after-abort", linger[i])
        procs.append(join_table(port, tmp / f"p{i}", "--seed", str(i), *STALL, *linger_i))
    game = {read_line(p, GAME_LINE, 40) for p in procs}
    assert len(game) == 1
    return procs, game.pop()


def _kill_at_round_two(proc: subprocess.Popen[str]) -> None:
    read_line(proc, re.compile(r"^(round 2) of 9$"), 60)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _abort_of(out: str) -> bytes:
    m = RECORD_LINE.search(out.strip().splitlines()[-1])
    assert m, out
    _, _, abort = decode_record(Path(m.group(1)).read_bytes())
    assert abort is not None, out
    return abort


def _resume(tmp: Path, game: str, seat: int, *extra: str) -> subprocess.Popen[str]:
    return spawn(["resume", game, *STALL, *extra], tmp / f"p{seat}")


def test_a_peer_back_after_the_abort_adopts_it_from_a_peer_still_answering(
    tmp_path: Path,
) -> None:
    procs, game = _table(tmp_path, ("60", "60", "60"))
    _kill_at_round_two(procs[2])
    # both answer with the abort for a minute; Ctrl+C takes the guest away at once
    read_line(procs[0], re.compile(r"(answering for up to 1:00)"), 40)
    read_line(procs[1], re.compile(r"(answering for up to 1:00)"), 40)
    procs[1].send_signal(signal.SIGINT)
    [(rc1, out1, err1)] = finish([procs[1]], 10)
    assert rc1 == 1 and "aborted" in out1 and "interrupted" not in err1, (out1, err1)
    back = _resume(tmp_path, game, 2, "--linger-after-abort", "0.5")
    (rc0, out0, err0), (rc2, out2, err2) = finish([procs[0], back], 60)
    assert rc0 == 1 and rc2 == 1, (out0, err0, out2, err2)
    assert "is already over" not in out2  # it learnt it on the way, from the host
    abort = _abort_of(out0)
    assert _abort_of(out2) == abort == _abort_of(out1)  # one signed decision, every record
    # shown to the returning player: who stopped the game and whom it names
    last = out2.strip().splitlines()[-1]
    assert "aborted (stopped by" in last and "stalled" in last, out2
    record = RECORD_LINE.search(last)
    assert record is not None
    assert verify_record(Path(record.group(1)).read_bytes()).kind == "aborted"


def test_a_peer_back_when_everybody_left_blames_nobody_and_learns_the_abort_later(
    tmp_path: Path,
) -> None:
    procs, game = _table(tmp_path, ("0.5", "0.5", "0.5"))
    _kill_at_round_two(procs[2])
    results = finish(procs[:2], 40)
    assert all(rc == 1 for rc, _, _ in results), results
    abort = _abort_of(results[0][1])
    assert _abort_of(results[1][1]) == abort
    alone = _resume(tmp_path, game, 2)
    [(rc, out, err)] = finish([alone], 40)
    assert rc == 3, (out, err)
    assert "nobody else of this game is online" in out.lower()
    assert "nobody else of the game could be reached" in out and "nobody is blamed" in out
    seat = tmp_path / "p2" / "games" / game
    assert not list(seat.glob("seat-*/record.rattusnet"))  # no claim written against anybody
    listed = subprocess.run(
        rattus(["resume"]),
        env=env_for(tmp_path / "p2"),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert game in listed.stdout  # still resumable
    # the host comes back (its game is over: it answers with its abort for a while) ...
    host = spawn(["resume", game, "--linger-after-abort", "30"], tmp_path / "p0")
    read_line(host, re.compile(r"(is already over: stopped by)"), 30)  # its own abort, journaled
    read_line(host, re.compile(r"(answering for up to 0:30)"), 30)
    again = _resume(tmp_path, game, 2, "--linger-after-abort", "0.5")
    (rc2, out2, err2), (rc0, out0, _) = finish([again, host], 60)
    assert rc2 == 1 and rc0 == 1, (out2, err2)
    assert _abort_of(out2) == abort == _abort_of(out0)  # ... the returning peer adopts it
