"""Whole games between separate `rattus` processes over loopback: plain, killed and resumed,
stalled, and under attack by garbage on the host's port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import struct
import time
from pathlib import Path

import pytest

from protocol.verify import verify_record
from protocol.wire import PROTOCOL_VERSION
from rattus_net.net.transport import MAGIC

from .procs import (
    GAME_LINE,
    assert_fair_game,
    finish,
    read_line,
    spawn,
    start_table,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


@pytest.mark.parametrize("players", [2, 3, 5])
def test_separate_processes_play_a_whole_game(tmp_path: Path, players: int) -> None:
    procs, _ = start_table(tmp_path, players)
    results = finish(procs, 150)
    assert_fair_game(results, players)


def journal_size(data: Path, game: str) -> int:
    paths = list((data / "games" / game).glob("seat-*/journal.bin"))
    return sum(path.stat().st_size for path in paths)


@pytest.mark.parametrize(
    ("victim", "moment"),
    [(0, "round 5"), (2, "round 5"), (1, "setup"), (2, "round 8")],
    ids=["host-mid", "guest-mid", "guest-setup", "guest-late"],
)
def test_a_killed_peer_resumes_and_the_game_completes(
    tmp_path: Path, victim: int, moment: str
) -> None:
    """kill -9 of one of three peers during setup (its journal holds the keys and the first
    shared random numbers, no round has begun), in the middle of the game, or late (round 8
    of 9: the last round can be over, with the victim only lingering for the others' "done",
    by the time a busy test reads its line); `rattus resume` brings it back and the game
    completes for everybody."""
    procs, _ = start_table(tmp_path, 3)
    games = [read_line(p, GAME_LINE, 30) for p in procs]
    assert len(set(games)) == 1
    game = games[0]
    data = tmp_path / ("h" if victim == 0 else f"g{victim}")
    if moment == "setup":
        deadline = time.monotonic() + 60
        while journal_size(data, game) < 3_000:
            assert time.monotonic() < deadline, "the game did not progress"
            time.sleep(0.02)
    else:
        read_line(procs[victim], re.compile(rf"^({moment}) of 9$"), 60)
    assert procs[victim].poll() is None, "the game ended before the kill"
    os.kill(procs[victim].pid, signal.SIGKILL)
    procs[victim].wait(10)
    time.sleep(0.5)
    # (after the kill during setup, a heuristic bot takes the seat over: resume --bot)
    takeover = ["--bot", "heuristic"] if moment == "setup" else []
    procs[victim] = spawn(["resume", game, *takeover], data)
    results = finish(procs, 150)
    assert "resumed at seat" in results[victim][1]
    if moment == "setup":
        assert "round 1 of 9" in results[victim][1]  # the killed peer had not reached a round
    for i, (_, out, _) in enumerate(results):
        if i != victim:  # the others saw it go and come back
            assert "dropped off the table" in out and "is back at the table." in out, out
    assert_fair_game(results, 3)


def test_a_peer_that_never_comes_back_is_blamed_in_a_signed_record(tmp_path: Path) -> None:
    procs, _ = start_table(tmp_path, 3, "--stall-timeout", "3", "--linger-after-abort", "1")
    game = next(read_line(p, GAME_LINE, 30) for p in procs)
    deadline = time.monotonic() + 60
    while journal_size(tmp_path / "g2", game) < 40_000:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(procs[2].pid, signal.SIGKILL)
    results = finish(procs[:2], 60)
    for rc, out, _ in results:
        assert rc == 1
        assert "aborted" in out and "stalled" in out
        assert "answering for up to 0:01 so that" in out  # for the absent peer to learn it
    names = []
    for _, out, _ in results:
        path = out.strip().splitlines()[-1].split("record: ")[1]
        verdict = verify_record(Path(path).read_bytes())
        assert not verdict.fair
        names.append(verdict.to_dict())
    text = str(names)
    assert "stalled" in text


async def attack(port: int, seconds: float) -> None:
    """Random bytes, an oversized frame, half-open links and a bounded flood, for a while."""
    writers = []
    end = time.monotonic() + seconds
    rounds = 0
    while time.monotonic() < end and rounds < 20:
        rounds += 1
        for payload in (
            os.urandom(100),
            struct.pack(">4sH", MAGIC, PROTOCOL_VERSION) + struct.pack(">I", 1 << 30),
            struct.pack(">4sH", MAGIC, PROTOCOL_VERSION) + struct.pack(">I", 5) + b"\xc1" * 5,
            b"",
        ):
            try:
                _, w = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                continue
            w.write(payload)
            writers.append(w)
        for _ in range(5):  # a bounded flood: 5 more connections per round, 100 in all
            with contextlib.suppress(OSError):
                writers.append((await asyncio.open_connection("127.0.0.1", port))[1])
        await asyncio.sleep(0.2)
    for w in writers:
        w.close()


def test_garbage_on_the_hosts_port_does_not_disturb_the_game(tmp_path: Path) -> None:
    procs, port = start_table(tmp_path, 2)
    read_line(procs[0], GAME_LINE, 30)
    asyncio.run(attack(port, 4.0))
    results = finish(procs, 120)
    assert_fair_game(results, 2)
