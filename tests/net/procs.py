"""Helpers to run `rattus` peers as separate processes (on loopback or inside a netns lab)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from protocol.verify import verify_record

GAME_LINE = re.compile(r"^game ([0-9a-f]{64}) started")
RECORD_LINE = re.compile(r"record: (\S+)$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env_for(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["RATTUS_DATA_DIR"] = str(data)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def rattus(args: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "rattus_net", *args]


def spawn(args: Sequence[str], data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        rattus(args),
        env=env_for(data),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_line(proc: subprocess.Popen[str], pattern: re.Pattern[str], timeout: float) -> str:
    """Read stdout lines until one matches (the process must print it within ``timeout``)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        m = pattern.search(line.strip())
        if m:
            return m.group(1)
    raise AssertionError(f"no line matching {pattern.pattern}; got {seen}")


def finish(procs: Sequence[subprocess.Popen[str]], timeout: float) -> list[tuple[int, str, str]]:
    """Wait for every process (killing all at the deadline); return (rc, stdout, stderr)."""
    deadline = time.monotonic() + timeout
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            out, err = p.communicate()
            raise AssertionError(
                f"a peer did not finish in time: {out[-500:]} {err[-1500:]}"
            ) from None
        results.append((p.returncode, out, err))
    return results


def records_of(results: Sequence[tuple[int, str, str]]) -> list[bytes]:
    records = []
    for rc, out, err in results:
        assert rc == 0, f"peer failed ({rc}): {out[-500:]} {err[-1500:]}"
        m = RECORD_LINE.search(out.strip().splitlines()[-1])
        assert m, out
        records.append(Path(m.group(1)).read_bytes())
    return records


def assert_same_fair_records(records: Sequence[bytes], players: int) -> None:
    assert len(records) == players
    assert len(set(records)) == 1, "the peers' records differ"
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    assert len(verdict.players) == players
