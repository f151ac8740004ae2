"""Transport: framing, preamble, timeouts and a host that survives bad peers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import struct
from collections.abc import AsyncIterator

import pytest

from protocol.wire import PROTOCOL_VERSION
from rattus_net.net.transport import (
    MAGIC,
    Connection,
    ConnectionClosed,
    DropSummary,
    FrameDecoder,
    Listener,
    PeerFault,
    TransportLimits,
    VersionMismatch,
    connect,
    encode_frame,
)

FAST = TransportLimits(
    max_frame=4096, connect_timeout=1.0, idle_timeout=1.0, keepalive=0.2, write_timeout=1.0
)


def test_frame_decoder_splits_and_joins_frames() -> None:
    dec = FrameDecoder(100)
    data = encode_frame(b"abc") + encode_frame(b"") + encode_frame(b"x" * 100)
    out = []
    for i in range(len(data)):  # one byte at a time
        out += dec.feed(data[i : i + 1])
    assert out == [b"abc", b"", b"x" * 100]


def test_frame_decoder_refuses_an_oversized_header_before_the_body() -> None:
    dec = FrameDecoder(100)
    with pytest.raises(PeerFault, match="101 bytes"):
        dec.feed(struct.pack(">I", 101))
    with pytest.raises(ValueError):
        encode_frame(b"x" * 101, 100)


async def echo_listener(faults: list[tuple[str, str]]) -> Listener:
    """A listener on loopback (limits ``FAST``, at most 8 connections) that echoes every
    frame; the faults it blames go to ``faults``."""

    async def echo(conn: Connection) -> None:
        conn.start_keepalive()
        while True:
            await conn.send(await conn.recv())

    listener = Listener(echo, FAST, max_connections=8, on_fault=lambda p, r: faults.append((p, r)))
    await listener.start("127.0.0.1", 0)
    return listener


@contextlib.asynccontextmanager
async def echoing() -> AsyncIterator[tuple[Listener, list[tuple[str, str]]]]:
    """An :func:`echo_listener` and the faults it blamed; closed at the end."""
    faults: list[tuple[str, str]] = []
    listener = await echo_listener(faults)
    try:
        yield listener, faults
    finally:
        await listener.close()


async def raw(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


def run(coro: object) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))  # type: ignore[arg-type]


def test_echo_and_keepalive_keep_an_idle_link_open() -> None:
    async def main() -> None:
        async with echoing() as (listener, faults):
            conn = await connect("127.0.0.1", listener.port, FAST)
            conn.start_keepalive()
            await conn.send(b"hello")
            assert await conn.recv() == b"hello"
            await asyncio.sleep(2.5)  # > idle timeout: only the keepalives keep us alive
            await conn.send(b"still here")
            assert await conn.recv() == b"still here"
            await conn.close()
        assert faults == []

    run(main())


def test_bad_peers_are_dropped_and_blamed_while_a_good_one_carries_on() -> None:
    async def main() -> None:
        async with echoing() as (listener, faults):
            good = await connect("127.0.0.1", listener.port, FAST)
            good.start_keepalive()

            # random bytes instead of a preamble
            _, w1 = await raw(listener.port)
            w1.write(os.urandom(64))
            # a valid preamble, then a frame over the limit
            r2, w2 = await raw(listener.port)
            w2.write(struct.pack(">4sH", MAGIC, PROTOCOL_VERSION) + struct.pack(">I", 10**9))
            # a half-open connection that never says anything
            _, w3 = await raw(listener.port)
            # a frame that trickles in too slowly
            _, w4 = await raw(listener.port)
            w4.write(struct.pack(">4sH", MAGIC, PROTOCOL_VERSION) + struct.pack(">I", 100) + b"x")

            for i in range(6):
                await good.send(b"ping %d" % i)
                assert await good.recv() == b"ping %d" % i
                await asyncio.sleep(0.4)
            reasons = " | ".join(r for _, r in faults)
            assert "bad preamble" in reasons
            assert "limit is 4096" in reasons
            assert "no preamble in time" in reasons
            assert "too slow" in reasons
            # the oversize sender was cut off
            with pytest.raises((asyncio.IncompleteReadError, ConnectionError)):
                await r2.readexactly(6 + 1)
            for w in (w1, w2, w3, w4):
                w.close()
            await good.close()

    run(main())


def test_a_bounded_flood_of_connections_does_not_stop_the_listener() -> None:
    async def main() -> None:
        async with echoing() as (listener, faults):
            writers = []
            for _ in range(40):  # bounded: 40 connections, over the limit of 8
                with_ok = await raw(listener.port)
                writers.append(with_ok[1])
            await asyncio.sleep(0.2)
            # one address's share is 6: each newcomer took the place of the oldest silent one
            assert sum("too many connections" in r for _, r in faults) >= 34
            assert len(listener.active) <= 6
            await asyncio.sleep(1.3)  # the silent ones time out and free their slots
            good = await connect("127.0.0.1", listener.port, FAST)
            await good.send(b"after the flood")
            assert await good.recv() == b"after the flood"
            for w in writers:
                w.close()
            await good.close()

    run(main())


@pytest.mark.parametrize("other", [PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1])
def test_a_version_mismatch_is_a_clear_refusal_on_both_sides(other: int) -> None:
    """A peer of an older version (another lobby form, other link tags) or a newer one is
    refused in words before any of its frames is read: the dialler is told which side must
    update, the listener says whom it refused, once however often that peer dials."""
    must = "update rattus" if other < PROTOCOL_VERSION else "the table's host must update rattus"
    mine = "it must update rattus" if other < PROTOCOL_VERSION else "update rattus here"

    async def main() -> None:
        async with echoing() as (listener, faults):
            said: list[str] = []
            heard = asyncio.Event()
            listener.refusals = lambda line: (said.append(line), heard.set())
            for _ in range(2):
                with pytest.raises(VersionMismatch) as refused:
                    await connect("127.0.0.1", listener.port, FAST, version=other)
                assert refused.value.reason == (
                    f"this table runs protocol {PROTOCOL_VERSION}; yours is {other}: {must}"
                )
            await asyncio.wait_for(heard.wait(), 5)
            async with asyncio.timeout(5):  # the second dial's refusal: counted, not said
                while len(faults) < 2:
                    await asyncio.sleep(0.01)
            assert said == [
                f"refused 127.0.0.1: it runs protocol {other}; "
                f"this table runs {PROTOCOL_VERSION}: {mine}"
            ]

    run(main())


def test_connect_errors_are_one_line() -> None:
    async def main() -> None:
        listener = await echo_listener([])
        port = listener.port
        await listener.close()
        with pytest.raises(ConnectionClosed, match=r"cannot connect to 127\.0\.0\.1:\d+: nobody"):
            await connect("127.0.0.1", port, FAST)
        with pytest.raises(ConnectionClosed, match=r"cannot connect to localhost:.*nobody answers"):
            await connect("localhost", port, FAST)  # IPv6 and IPv4 tried, both refused

    run(main())


async def raw_from(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


def test_one_address_gets_a_few_slots_and_a_full_pool_makes_room_for_a_newcomer() -> None:
    """Per-address limit; silent strangers from many addresses fill the pool, and a player's
    connection still gets in at once (the oldest silent one is dropped for it); from one
    address, silent newcomers take the place of the oldest silent ones, never of a connection
    that has said more (a player behind the same address as a flood)."""

    async def main() -> None:
        async with echoing() as (listener, faults):
            listener.limits = TransportLimits(max_frame=4096, connect_timeout=30, idle_timeout=30)
            same = [await raw_from(listener.port, "127.0.0.2") for _ in range(8)]
            await asyncio.sleep(0.2)
            assert sum("too many connections from 127.0.0.2" in r for _, r in faults) == 2
            assert sum(c.address == "127.0.0.2" for c in listener.active) == 6
            player = Connection(*await raw_from(listener.port, "127.0.0.2"), FAST)
            await player.exchange_preamble()  # (it says who it is: more than the flood does)
            await asyncio.sleep(0.1)
            same += [await raw_from(listener.port, "127.0.0.2") for _ in range(8)]
            await asyncio.sleep(0.2)
            await player.send(b"still here")
            assert await player.recv() == b"still here"  # never the one made to leave
            player.abort()
            others = [await raw_from(listener.port, f"127.0.0.{i}") for i in range(10, 20)]
            await asyncio.sleep(0.2)
            assert len(listener.active) == 8  # the pool is full of silent strangers
            good = await connect("127.0.0.1", listener.port, FAST)
            await good.send(b"in at once")
            assert await good.recv() == b"in at once"
            assert any("(an unauthenticated one)" in r for _, r in faults)
            assert listener.trust(next(c for c in listener.active if c.address == "127.0.0.1"))
            assert len(listener.trusted) == 1  # a trusted link leaves the strangers' pool
            for _, w in same + others:
                w.close()
            await good.close()

    run(main())


def test_dropped_connections_are_told_once_a_minute() -> None:
    drops = DropSummary(period=60)
    assert (
        drops.note(0.0, "a:1", "bad preamble") == "dropped a bad connection from a:1: bad preamble"
    )
    for i in range(311):
        assert drops.note(1.0 + i / 100, f"b:{i}", "too slow") is None
    assert drops.flush() == (
        "dropped 311 bad connections in the last minute (latest b:310: too slow)"
    )
    assert drops.flush() is None
    assert drops.note(70.0, "c:1", "x") is not None and drops.total == 313
