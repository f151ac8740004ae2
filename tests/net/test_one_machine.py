"""Several peers of one game on one machine, one account and one data directory: every seat's
files are its own, a seat's folder is locked while a process plays it, and `rattus resume`
lists and resumes each seat."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from rattus_net.net.persist import Journal, SeatBusy, seat_dir

from .procs import (
    GAME_LINE,
    assert_fair_game,
    env_for,
    finish,
    host_table,
    join_table,
    rattus,
    read_line,
    spawn,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def start_three(data: Path) -> list[subprocess.Popen[str]]:
    host, port = host_table("Shared", 3, data, "--seed", "1")
    return [host, *(join_table(port, data, "--seed", str(i)) for i in (1, 2))]


def test_three_peers_from_one_data_directory_play_and_a_killed_guest_resumes(
    tmp_path: Path,
) -> None:
    data = tmp_path / "shared"
    procs = start_three(data)
    game = {read_line(p, GAME_LINE, 30) for p in procs}.pop()
    read_line(procs[2], re.compile(r"^(round 4) of 9$"), 90)
    # each seat journals in its own folder, locked by its process
    for seat in range(3):
        assert (seat_dir(game, seat, data) / "journal.bin").is_file()
    with pytest.raises(SeatBusy, match="another rattus process is playing this seat"):
        Journal.open(seat_dir(game, 1, data) / "journal.bin")
    os.kill(procs[2].pid, signal.SIGKILL)
    procs[2].wait(10)
    listed = subprocess.run(rattus(["resume"]), env=env_for(data), capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    # listed with the game's name in front, as `resume` takes it too
    lines = [line for line in listed.stdout.splitlines() if line.startswith(f"cartus-{game}")]
    assert len(lines) == 3, listed.stdout  # one line per seat
    assert sum("(being played now)" in line for line in lines) == 2, lines
    [killed] = [line for line in lines if "(being played now)" not in line]
    seat = re.search(r"--seat (\d)", killed)
    assert seat, killed
    # a seat that a process plays cannot be resumed twice
    again = rattus(["resume", game, "--seat", "1", "--bot", "random"])
    busy = subprocess.run(again, env=env_for(data), capture_output=True, text=True, timeout=60)
    assert busy.returncode == 1 and "is in use" in busy.stderr, busy.stderr
    assert "Traceback" not in busy.stderr
    # without --seat, the one unfinished seat nobody plays: the killed guest's
    procs[2] = spawn(["resume", f"cartus-{game}"], data)
    results = finish(procs, 150)
    assert f"resumed at seat {seat.group(1)}" in results[2][1]
    assert_fair_game(results, 3)
    assert len({seat_dir(game, s, data) for s in range(3)}) == 3
    # every seat here is over: `rattus resume GAME` says so with the verdict, as it does for
    # a game of one seat per data directory (not "choose one with --seat N")
    again_over = rattus(["resume", game, "--linger-after-abort", "1"])
    over = subprocess.run(again_over, env=env_for(data), capture_output=True, text=True, timeout=90)
    assert over.returncode == 0, (over.stdout, over.stderr)
    assert f"game {game} is already over" in over.stdout, over.stdout
    assert "verdict: FAIR" in over.stdout and "--seat" not in over.stdout + over.stderr
