"""What the SSH and web benchmarks share: a server's whole process tree and its memory.

A session's cost is measured as the growth of the server's total memory: the proportional set
size (PSS: every page shared by k processes counts 1/k in each) summed over the server process
and all its descendants (the preloaded parent, the game processes). Pages the sessions share
with each other or with the parent are then counted once, as the machine pays for them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ssh.sshlib import parents, terminate  # the SSH tests' reading of /proc


def start_server(argv: list[str]) -> tuple[subprocess.Popen[str], int]:
    """Start ``rattus ...`` (serve or web) and return it with the port it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rattus_net", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on \S+ port (\d+)", line)
        if m:
            return proc, int(m.group(1))
    raise SystemExit("the server did not start")


def pss_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def arguments(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The command line of a serving benchmark: ``parser``'s own options and those every
    serving benchmark takes (sessions timed, the sessions open when memory is measured, the
    server's modes)."""
    parser.add_argument("--starts", type=int, default=10, help="sessions timed to the menu")
    parser.add_argument("--levels", default="1,8,32", help="sessions open when memory is measured")
    parser.add_argument("--modes", default="fresh,preload", help="fresh, preload (or both)")
    args = parser.parse_args()
    args.levels = [int(n) for n in args.levels.split(",")]
    return args


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants."""
    of = parents()
    found = [pid]
    for p in found:
        found += [c for c, parent in of.items() if parent == p]
    return found


def tree_pss_kib(pid: int) -> int:
    return sum(pss_kib(p) for p in tree(pid))


def settle(pid: int, seconds: float = 8.0) -> int:
    """The tree's PSS once it stops changing much (sessions finish starting, caches fill)."""
    last = tree_pss_kib(pid)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = tree_pss_kib(pid)
        if abs(now - last) < 256:
            return now
        last = now
    return last


def stop(proc: subprocess.Popen[str]) -> None:
    terminate(proc, 30)
