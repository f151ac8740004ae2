"""A userspace TCP relay that impairs links: delay, jitter, loss and outages.

This machine's kernel has no ``sch_netem``, so tests and benchmarks put this relay between
peers instead. TCP never loses or reorders bytes for the application, so the relay imitates
what the application would see of a bad link: every chunk is delivered ``delay`` (plus up to
``jitter``) seconds after it arrived, in order (a late chunk holds back the ones after it, as
TCP does); a "lost" chunk (probability ``loss``) is held back a retransmission timeout
(``rto``, doubled for consecutive losses, as TCP backs off); during an outage nothing is
delivered (and no new connection reaches the target) until the link comes back.

The relay keeps statistics of what it did (:class:`Stats`): a test asserts from them that the
fault was really applied (every chunk delayed at least ``delay``, losses drawn, an outage held
traffic back), so a test of a fault fails if the fault is missing.

Run as a script (in a namespace of its own) for separate processes::

    python -m tests.net.relay --route LISTEN_HOST:PORT=TARGET_HOST:PORT ... \\
        [--delay S] [--jitter S] [--loss P] [--outage-at S --outage S] [--cut-on-signal S]

It prints ``ready`` once listening and, on SIGTERM, its statistics as one JSON line. With
``--cut-on-signal S``, each SIGUSR1 starts an outage of S seconds at once (a test cuts the
link at the moment it chooses: mid-game), said on a line ``cut``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import time
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Fault:
    delay: float = 0.0
    jitter: float = 0.0
    loss: float = 0.0
    rto: float = 0.2
    outage_at: float | None = None  # seconds after the relay starts
    outage: float = 0.0


@dataclass
class Stats:
    connections: int = 0
    chunks: int = 0
    bytes: int = 0
    lost: int = 0
    held_by_outage: int = 0
    min_delay: float = field(default=float("inf"))
    max_delay: float = 0.0


class Relay:
    """Forward ``listen`` ports to targets with ``fault`` applied in both directions."""

    def __init__(self, fault: Fault, seed: int | None = None) -> None:
        self.fault = fault
        self.stats = Stats()
        self.rand = random.Random(seed)
        self.started = time.monotonic()
        self.cuts: list[tuple[float, float]] = []  # outages started by :meth:`cut`
        self._servers: list[asyncio.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def cut(self, seconds: float) -> None:
        """An outage of ``seconds`` from now on."""
        now = time.monotonic()
        self.cuts.append((now, now + seconds))

    def outage_end(self, now: float) -> float | None:
        """When the outage covering ``now`` ends (None: the link is up at ``now``)."""
        for start, end in self.cuts:
            if start <= now < end:
                return end
        f = self.fault
        if f.outage_at is None or f.outage <= 0:
            return None
        start = self.started + f.outage_at
        return start + f.outage if start <= now < start + f.outage else None

    async def add(self, host: str, port: int, target: tuple[str, int]) -> int:
        async def accept(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            self.stats.connections += 1
            end = self.outage_end(time.monotonic())
            if end is not None:  # the cable is out: the connection attempt hangs
                await asyncio.sleep(end - time.monotonic())
            try:
                tr, tw = await asyncio.open_connection(*target)
            except OSError:
                w.close()
                return
            await asyncio.gather(self._pipe(r, tw), self._pipe(tr, w), return_exceptions=True)

        server = await asyncio.start_server(accept, host, port)
        self._servers.append(server)
        return int(server.sockets[0].getsockname()[1])

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, float, bytes]] = asyncio.Queue()
        sender = asyncio.ensure_future(self._deliver(queue, writer))
        last_due = 0.0
        losses = 0
        try:
            while data := await reader.read(65536):
                now = time.monotonic()
                f = self.fault
                due = now + f.delay + (self.rand.uniform(0, f.jitter) if f.jitter else 0.0)
                if f.loss and self.rand.random() < f.loss:
                    losses += 1
                    self.stats.lost += 1
                    due += max(f.rto, 2 * f.delay) * 2 ** min(losses - 1, 4)
                else:
                    losses = 0
                due = max(due, last_due)  # in order, as TCP delivers
                last_due = due
                queue.put_nowait((now, due, data))
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            queue.put_nowait((0.0, 0.0, b""))
            with contextlib.suppress(Exception):
                await sender

    async def _deliver(
        self, queue: asyncio.Queue[tuple[float, float, bytes]], writer: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                arrived, due, data = await queue.get()
                if not data:
                    break
                while True:
                    now = time.monotonic()
                    if now < due:
                        await asyncio.sleep(due - now)
                        continue
                    end = self.outage_end(now)
                    if end is None:
                        break
                    self.stats.held_by_outage += 1
                    await asyncio.sleep(end - now)
                applied = time.monotonic() - arrived
                self.stats.chunks += 1
                self.stats.bytes += len(data)
                self.stats.min_delay = min(self.stats.min_delay, applied)
                self.stats.max_delay = max(self.stats.max_delay, applied)
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def close(self) -> None:
        for server in self._servers:
            server.close()


def _hostport(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


async def _main(args: argparse.Namespace) -> None:
    fault = Fault(args.delay, args.jitter, args.loss, args.rto, args.outage_at, args.outage)
    relay = Relay(fault, args.seed)
    for route in args.route:
        listen, _, target = route.partition("=")
        host, port = _hostport(listen)
        await relay.add(host, port, _hostport(target))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    if args.cut_on_signal:

        def cut() -> None:
            relay.cut(args.cut_on_signal)
            print("cut", flush=True)

        loop.add_signal_handler(signal.SIGUSR1, cut)
    print("ready", flush=True)
    await stop.wait()
    await relay.close()
    print(json.dumps(asdict(relay.stats)), flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--route", action="append", required=True)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--loss", type=float, default=0.0)
    ap.add_argument("--rto", type=float, default=0.2)
    ap.add_argument("--outage-at", type=float, default=None)
    ap.add_argument("--outage", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cut-on-signal", type=float, default=0.0)
    asyncio.run(_main(ap.parse_args()))
