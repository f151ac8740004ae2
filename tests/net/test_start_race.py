"""The start is atomic for every seated guest, even over slow links: guests reach the host's
lobby through a userspace relay that delays every chunk (30 and 100 ms one way), and every
seated guest starts the game with the host (no "the game at this table has started")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.crypto.identity import Identity
from protocol.wire import decode_message
from rattus_net.net.lobby import (
    HostedTable,
    LobbyState,
    TableOptions,
    authenticate,
    ready_message,
    sit_message,
)
from rattus_net.net.transport import TransportLimits, connect, encode_frame

from .procs import (
    GAME_LINE,
    assert_fair_game,
    finish,
    free_port,
    host_table,
    join_table,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

FAST = TransportLimits(connect_timeout=2.0, idle_timeout=5.0, keepalive=0.5, write_timeout=2.0)
ROOT = Path(__file__).resolve().parents[2]


def relay(listen: int, target: int, delay: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.net.relay", "--route",
         f"127.0.0.1:{listen}=127.0.0.1:{target}", "--delay", str(delay)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def relay_stats(proc: subprocess.Popen[str]) -> dict[str, float]:
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    return dict(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize("delays", [(0.1, 0.03), (0.03, 0.1)], ids=["100-30ms", "30-100ms"])
def test_every_seated_guest_starts_over_delayed_links(
    tmp_path: Path, delays: tuple[float, float]
) -> None:
    host, port = host_table("Slow", 3, tmp_path, "--seed", "1")
    relays, guests = [], []
    for i, delay in enumerate(delays, start=1):
        front = free_port()
        relays.append(relay(front, port, delay))
        guests.append(join_table(front, tmp_path, "--seed", str(i)))
    procs = [host, *guests]
    results = finish(procs, 150)
    for _, out, err in results:
        assert "has started" not in err, err
        assert any(GAME_LINE.search(line) for line in out.splitlines()), out
    assert_fair_game(results, 3)
    for proc, delay in zip(relays, delays, strict=True):
        stats = relay_stats(proc)  # the fault was applied: every lobby chunk came late
        assert stats["chunks"] > 3 and stats["min_delay"] >= delay, stats


def test_a_late_ready_never_overtakes_the_start() -> None:
    """The race made deterministic, over real sockets: the last guest's two "ready" messages
    (it saw two states where it was not ready yet) arrive in one TCP segment; the first starts
    the game, the second comes after the start. The guest hears the started table first, and
    never a refusal."""

    async def main() -> None:
        host = Identity.generate(os.urandom)
        table = HostedTable(host, "Race", TableOptions(players=2), FAST)
        port = await table.open("127.0.0.1", 0)
        table.core.sit(host.public, "Host", "", port)
        table.core.set_ready(host.fingerprint, True)
        guest = Identity.generate(os.urandom)
        conn = await connect("127.0.0.1", port, FAST)
        await authenticate(conn, guest, "lobby")
        await conn.send(sit_message("Gus", 4000))
        kinds = []
        while True:  # until our seat is in the state
            msg = decode_message(await conn.recv())
            state = LobbyState.from_wire(msg.body["state"])
            if state.seat_of(guest.fingerprint) is not None:
                break
        twice = encode_frame(ready_message(True)) * 2
        conn._writer.write(twice)  # one segment: both frames are read at once by the host
        playing = False
        with contextlib.suppress(TimeoutError):
            while True:  # everything the host says for a second after the start
                msg = decode_message(await asyncio.wait_for(conn.recv(), 2.0 if playing else 5.0))
                kinds.append(msg.kind)
                if msg.kind == "lobby/state":
                    playing = LobbyState.from_wire(msg.body["state"]).phase == "playing"
        assert playing, kinds
        assert "lobby/refuse" not in kinds, kinds
        assert table.started.done()
        conn.abort()
        await table.close()

    asyncio.run(main())
