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
Popen = subprocess.Popen[str]
RECORD_LINE = re.compile(r"record: (\S+)$")
OPEN_LINE = re.compile(r"open on port (\d+)")


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


def spawn(args: Sequence[str], data: Path) -> Popen:
    return subprocess.Popen(
        rattus(args),
        env=env_for(data),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def host_table(name: str, players: int, data: Path, *extra: str) -> tuple[Popen, int]:
    """A `rattus host` with a random bot on a free loopback port, not advertised, once it
    listens; returns it and its port."""
    port = free_port()
    host = spawn(
        ["host", "--name", name, "--players", str(players), "--port", str(port),
         "--bot", "random", "--no-advertise", *extra],
        data,
    )  # fmt: skip
    assert read_line(host, OPEN_LINE, 20) == str(port)
    return host, port


def join_table(port: int, data: Path, *extra: str) -> Popen:
    """A `rattus join` with a random bot to the table on loopback ``port``."""
    return spawn(["join", f"127.0.0.1:{port}", "--bot", "random", *extra], data)


def start_table(tmp: Path, players: int, *extra: str) -> tuple[list[Popen], int]:
    """A whole table of seeded random bots, each in a data directory of its own under ``tmp``:
    the host first, then its guests; returns them and the host's port."""
    host, port = host_table("Table", players, tmp / "h", "--seed", "1", *extra)
    guests = [join_table(port, tmp / f"g{i}", "--seed", str(i), *extra) for i in range(1, players)]
    return [host, *guests], port


HOST_WITH_A_BOT = """
import asyncio, sys
from rattus_net.net import play
from rattus_net.net.botseats import BotSeats
from rattus_net.net.lobby import TableOptions

async def main(port, game):
    bots = BotSeats()  # a bot seat in this process, as a TUI host runs it
    async def bot():
        await asyncio.sleep(1.0)
        await play.join_game(("127.0.0.1", port), bot="random", name="Robo",
                             say=lambda line: None, hosted_by=0)
    bots.start(bot())
    outcome = await play.host_game("Bots", TableOptions(3, game=game), bot="random",
                                   port=port, advertise=False,
                                   say=lambda line: print(line, flush=True))
    print(play.describe(outcome), flush=True)

asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
"""


def host_with_a_bot_seat(game: str, data: Path) -> tuple[Popen, int]:
    """A process that hosts a table of three of ``game`` and runs one bot seat itself (as a
    TUI host does), once it listens; returns it and its port."""
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-c", HOST_WITH_A_BOT, str(port), game],
        env=env_for(data),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert read_line(host, OPEN_LINE, 20) == str(port)
    return host, port


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


def assert_fair_game(results: Sequence[tuple[int, str, str]], players: int) -> None:
    """Every peer of ``results`` ended well, with one and the same fair record."""
    assert_same_fair_records(records_of(results), players)
