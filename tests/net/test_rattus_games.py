"""Rattus between separate `rattus` processes over loopback: whole games at 2, 3 and 4 peers,
a guest killed with SIGKILL mid-game and resumed, a peer that never comes back blamed after
the stall timeout, and a bot seat a host runs in its own process (as the TUI does) killed and
brought back with it. Random bots, seeded; each game lasts a few seconds."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from protocol.verify import verify_record
from rattus_net.games.rattus.record import RattusRecord

from .procs import (
    GAME_LINE,
    RECORD_LINE,
    assert_fair_game,
    assert_same_fair_records,
    finish,
    host_table,
    host_with_a_bot_seat,
    join_table,
    rattus,
    read_line,
    records_of,
    spawn,
    start_table,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

RATTUS = ("--game", "rattus")


def round_line(n: int) -> re.Pattern[str]:
    return re.compile(rf"^round ({n}) \(rat supply: \d+ tokens\)$")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_separate_processes_play_a_whole_rattus_game(tmp_path: Path, players: int) -> None:
    procs, _ = start_table(tmp_path, players, *RATTUS)
    results = finish(procs, 120)
    assert_fair_game(results, players)
    for _, out, _ in results:
        assert "round 1 (rat supply:" in out
    verdict = verify_record(records_of(results)[0])
    assert isinstance(verdict.engine_record, RattusRecord)  # (replayed as a Rattus game)
    path = RECORD_LINE.search(results[0][1].strip().splitlines()[-1])
    assert path is not None
    verify = subprocess.run(rattus(["verify", path.group(1)]), capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stdout.startswith("FAIR: game "), verify


def test_a_killed_rattus_guest_resumes_and_the_game_completes(tmp_path: Path) -> None:
    procs, _ = start_table(tmp_path, 3, *RATTUS)
    game = {read_line(p, GAME_LINE, 30) for p in procs}.pop()
    victim = 2
    read_line(procs[victim], round_line(2), 60)
    assert procs[victim].poll() is None, "the game ended before the kill"
    os.kill(procs[victim].pid, signal.SIGKILL)
    procs[victim].wait(10)
    time.sleep(0.5)
    procs[victim] = spawn(["resume", f"rattus-{game}"], tmp_path / f"g{victim}")
    results = finish(procs, 120)
    assert "resumed at seat" in results[victim][1], results[victim]  # (seats: join order)
    for i, (_, out, _) in enumerate(results):
        if i != victim:  # the others saw it go and come back
            assert "dropped off the table" in out and "is back at the table." in out, out
    assert_fair_game(results, 3)


def test_a_rattus_peer_that_never_comes_back_is_blamed_in_a_signed_record(
    tmp_path: Path,
) -> None:
    extra = (*RATTUS, "--stall-timeout", "3", "--linger-after-abort", "1")
    procs, _ = start_table(tmp_path, 3, *extra)
    read_line(procs[2], round_line(2), 60)
    os.kill(procs[2].pid, signal.SIGKILL)
    procs[2].wait(10)
    results = finish(procs[:2], 60)
    for rc, out, _ in results:
        assert rc == 1
        assert "aborted" in out and "stalled" in out
        assert "answering for up to 0:01 so that" in out  # for the absent peer to learn it
    records = records_of_aborted(results)
    for record in records:
        verdict = verify_record(record)
        assert not verdict.fair and "stalled" in str(verdict.to_dict())


def records_of_aborted(results: list[tuple[int, str, str]]) -> list[bytes]:
    return [
        Path(out.strip().splitlines()[-1].split("record: ")[1]).read_bytes()
        for _, out, _ in results
    ]


def test_a_hosted_rattus_bot_seat_plays_and_comes_back_with_its_host(tmp_path: Path) -> None:
    data = tmp_path / "h"
    host, port = host_with_a_bot_seat("rattus", data)
    guest = join_table(port, tmp_path / "g", *RATTUS)
    game = {read_line(p, GAME_LINE, 40) for p in (host, guest)}.pop()
    read_line(host, round_line(2), 60)
    os.kill(host.pid, signal.SIGKILL)  # the host and its bot seat are gone
    host.wait(10)
    back = spawn(["resume", game], data)  # the host's seat (its bot's comes along)
    results = finish([back, guest], 120)
    assert "the bot seats this seat hosted are back: 1" in results[0][1], results[0]
    assert "Robo dropped off the table" in results[1][1] and "Robo is back" in results[1][1]
    folders = sorted((data / "games" / game).glob("seat-*/record.rattusnet"))
    assert len(folders) == 2, folders  # the host's seat and its bot's
    records = [*records_of(results), *(f.read_bytes() for f in folders)]
    assert len(set(records)) == 1
    assert_same_fair_records(records[:3], 3)


def test_a_guest_that_wants_another_game_leaves_a_rattus_table_in_one_line(
    tmp_path: Path,
) -> None:
    host, port = host_table("Board", 2, tmp_path / "h", *RATTUS)
    try:
        guest = join_table(port, tmp_path / "g", "--game", "cartus")
        [(rc, out, err)] = finish([guest], 30)
        assert rc == 1 and out == ""
        assert err == "rattus join: table 'Board' plays Rattus, not Rattus Cartus\n"
    finally:
        host.terminate()
        host.communicate(timeout=10)
