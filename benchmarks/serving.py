"""What the SSH and web benchmarks share: a server's whole process tree and its memory.

A session's cost is measured as the growth of the server's total memory: the proportional set
size (PSS: every page shared by k processes counts 1/k in each) summed over the server process
and all its descendants (the preloaded parent, the game processes). Pages the sessions share
with each other or with the parent are then counted once, as the machine pays for them.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path


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


def rss_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def parents() -> dict[int, int]:
    """Every process's parent."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


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
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
