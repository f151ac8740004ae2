"""Lobby squatters over loopback: keys that authenticate and never sit cannot hold a table's
port. Unseated links are closed when idle, are at most the free seats plus a small margin,
and the one idle the longest makes room for a newcomer, told why in plain words."""

from __future__ import annotations

import asyncio
import contextlib
import os

from protocol.crypto.identity import Identity
from protocol.wire import decode_message
from rattus_net.net.lobby import HostedTable, TableOptions, authenticate, join_table, ready_message
from rattus_net.net.lobby.host import MADE_ROOM, UNSEATED_MARGIN
from rattus_net.net.transport import Connection, TransportLimits

FAST = TransportLimits(connect_timeout=2.0, idle_timeout=30.0, keepalive=0.5, write_timeout=2.0)


async def squatter(port: int, source: str) -> Connection:
    """An authenticated lobby link from ``source`` with a fresh key, which never sits."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    conn = Connection(reader, writer, FAST)
    await conn.exchange_preamble()
    await authenticate(conn, Identity.generate(os.urandom), "lobby")
    return conn


async def last_words(conn: Connection, within: float) -> list[str] | None:
    """What the host said to ``conn`` before closing it (refusals' reasons), or ``None`` if it
    is still open after ``within`` seconds."""
    said: list[str] = []
    try:
        async with asyncio.timeout(within):
            while True:
                msg = decode_message(await conn.recv())
                if msg.kind == "lobby/refuse":
                    said.append(str(msg.body["reason"]))
    except TimeoutError:
        return None
    except Exception:
        return said


async def open_table(players: int) -> tuple[HostedTable, Identity, int]:
    host = Identity.generate(os.urandom)
    table = HostedTable(host, "Squat", TableOptions(players=players), FAST)
    port = await table.open("127.0.0.1", 0)
    table.core.sit(host.public, "Host", "", port)
    table.core.set_ready(host.fingerprint, True)
    return table, host, port


def test_squatters_from_seven_addresses_do_not_keep_a_real_guest_out() -> None:
    """42 keys from 7 addresses authenticate and never sit (before, they held all 32 of the
    table's connections until their seat deadline, and a real guest was refused): only the
    free seats plus the margin stay, the others are told why they are closed, and the guest
    sits and the game starts."""

    async def main() -> None:
        table, host, port = await open_table(players=2)
        held: list[Connection] = []
        for i in range(42):
            with contextlib.suppress(Exception):
                held.append(await squatter(port, f"127.0.3.{i % 7 + 1}"))
        assert len(held) == 42, "squatters filled the connections: the later ones were refused"
        words = await asyncio.gather(*(last_words(c, 1.0) for c in held))
        still_open = [c for c, w in zip(held, words, strict=True) if w is None]
        assert len(still_open) == table.core.state.free + UNSEATED_MARGIN == 3
        assert all(w == [MADE_ROOM] for w in words if w is not None), words
        guest = Identity.generate(os.urandom)
        started = await join_table(
            "127.0.0.1", port, guest, "Real", 6001, expect_fingerprint=host.fingerprint,
            limits=FAST,
        )  # fmt: skip
        assert [s.name for s in started.seats] == ["Host", "Real"]
        for c in held:
            c.abort()
        await table.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_an_unseated_link_is_closed_after_saying_nothing_for_its_deadline() -> None:
    """The deadline counts from the last lobby message: a silent link goes, one that keeps
    talking (asking to be ready without a seat, refused each time) stays."""

    async def main() -> None:
        table, _, port = await open_table(players=3)
        table.sit_timeout = 0.6
        silent = await squatter(port, "127.0.4.1")
        talking = await squatter(port, "127.0.4.2")
        stop = asyncio.Event()

        async def talk() -> None:
            while not stop.is_set():
                await talking.send(ready_message(True))
                await asyncio.sleep(0.1)

        talker = asyncio.ensure_future(talk())
        assert await last_words(silent, 5.0) == []  # closed, with nothing to say
        # still open well past the deadline, since it talks
        assert await last_words(talking, 3 * table.sit_timeout) is None
        stop.set()
        await talker
        assert await last_words(talking, 5.0) is not None  # quiet now: closed in its turn
        await table.close()

    asyncio.run(asyncio.wait_for(main(), 30))
