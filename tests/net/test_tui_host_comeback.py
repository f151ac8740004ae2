"""The TUI host who quits and comes back, as a whole Textual session in separate processes.

The real `rattus` TUI hosts a 3-seat table in a tmux pane (its own tmux server, its own data
and config directories) with one bot seat (``b``), and a headless guest (`rattus join --bot`)
fills the last seat. Mid-game the host leaves the table (``q q``), and its process is then
killed (SIGKILL) at the menu. A new `rattus` opens the menu, the player chooses "Back to the
network game", the bot seat comes back with it, and the game finishes: every seat's record is
identical and verifies FAIR.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ssh.sshlib import Pane, keys_for_screen

from .procs import GAME_LINE, assert_same_fair_records, env_for, finish, free_port, read_line

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
    pytest.mark.slow,  # processes and a whole game
]


def _rattus_pane(home: Path, *args: str) -> Pane:
    env = [f"RATTUS_DATA_DIR={home / 'data'}", f"RATTUS_CONFIG_DIR={home / 'config'}"]
    return Pane(["env", *env, sys.executable, "-m", "rattus_net", *args], cols=100, rows=30)


def _play_until(pane: Pane, pattern: str, seconds: float, decisions: int = 10**6) -> int:
    """Take the host's decisions (the first legal one of each dialog) until ``pattern`` is on
    the screen or ``decisions`` were taken; returns how many were taken."""
    rx = re.compile(pattern)
    deadline = time.monotonic() + seconds
    taken = 0
    while taken < decisions:
        screen = pane.screen()
        if rx.search(screen):
            return taken
        assert time.monotonic() < deadline, f"{pattern!r} never came; the screen:\n{screen}"
        keys = keys_for_screen(screen)
        if keys is None:
            time.sleep(0.05)
            continue
        pane.send(*keys)
        if keys != ["Enter"] or "YOUR TURN" not in screen:
            taken += 1
        pane.wait_change(screen, 3)
    return taken


def _leave_the_table(pane: Pane) -> None:
    """``q q`` at the table (closing what covers it first): back at the menu, which offers
    "Back to the network game"."""
    deadline = time.monotonic() + 20
    while "Back to the network game" not in (screen := pane.screen()):
        assert time.monotonic() < deadline, f"never left the table; the screen:\n{screen}"
        if "Leave game" in screen:  # the table itself (its footer)
            pane.send("q")
            pane.send("q")
        elif "Enter go on" in screen:
            pane.send("Enter")
        else:  # a decision's dialog: put it aside to look at the table
            pane.send("Escape")
        pane.wait_change(screen, 3)


def test_the_tui_host_quits_is_killed_comes_back_and_the_game_finishes(tmp_path: Path) -> None:
    port = free_port()
    host = _rattus_pane(
        tmp_path / "host", "host", "--name", "Back", "--players", "3", "--port", str(port),
        "--no-advertise", "--player", "Ann", "--stall-timeout", "60",
    )  # fmt: skip
    guest: subprocess.Popen[str] | None = None
    again: Pane | None = None
    try:
        host.wait_for(r"Add bot", 30)
        guest = subprocess.Popen(
            [sys.executable, "-m", "rattus_net", "join", f"127.0.0.1:{port}", "--bot", "random",
             "--seed", "2", "--stall-timeout", "60"],
            env=env_for(tmp_path / "guest"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        host.wait_for(r"random \(a bot.*\) sat down", 20)  # the guest
        host.send("b")  # a bot seat, in the host's process
        host.wait_for(r"(?s)sat down.*sat down", 20)
        host.send("Space")  # ready: the table starts
        game = read_line(guest, GAME_LINE, 60)
        _play_until(host, r"Round 2", 60, decisions=3)
        _leave_the_table(host)
        os.kill(host.pid, 9)  # and the program dies at the menu
        host.close()
        again = _rattus_pane(tmp_path / "host")
        again.wait_for(r"Back to the network game", 30)
        again.send("Enter")
        _play_until(again, r"Verification: ", 120)
        assert "Verification: FAIR" in again.screen(), again.screen()
        [(rc, out, err)] = finish([guest], 60)
        assert rc == 0, (out, err)
        # the guest saw the host and its bot seat drop off and come back
        assert "Ann dropped off the table" in out and "Ann is back at the table." in out, out
        assert out.count("is back at the table.") >= 2, out
    finally:
        for pane in (host, again):
            if pane is not None:
                pane.close()
        if guest is not None and guest.poll() is None:
            guest.kill()
    guest_record = Path(out.strip().splitlines()[-1].split("record: ")[1]).read_bytes()
    seats = sorted((tmp_path / "host" / "data" / "games" / game).glob("seat-*/record.rattusnet"))
    assert len(seats) == 2, seats  # the host's seat and its bot's
    assert_same_fair_records([guest_record, *(s.read_bytes() for s in seats)], 3)
