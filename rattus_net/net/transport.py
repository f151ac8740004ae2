"""TCP transport: length-prefixed frames with a size limit, timeouts and keepalive.

The protocol layer is sans-IO (bytes in, bytes out), so all this module does is move whole
frames between two processes and decide, without reading any payload, when a connection is
bad enough to drop:

* **Framing.** A frame is a 4-byte big-endian length and that many bytes. The length is checked
  against :attr:`TransportLimits.max_frame` *before* anything is allocated, so an oversized
  frame costs us four bytes of reading. A zero-length frame is a keepalive and is never handed
  to the caller.
* **Preamble.** Each side first sends ``MAGIC`` and its build's protocol version (6 bytes
  that will never change shape), on every link (lobby, game mesh, resume), so a peer of
  another version is refused with words on both sides (:class:`VersionMismatch`) instead of a
  message it cannot decode, and a random byte stream (a port scanner, a browser) is dropped
  at once.
* **Timeouts.** Connecting and the preamble are bounded by ``connect_timeout``; every frame must
  arrive complete within ``idle_timeout`` (keepalives count), so a silent peer, a half-open
  connection or a peer trickling one byte a second is dropped; a peer that does not read what we
  send is dropped after ``write_timeout``.
* **Blame.** Faults the remote caused raise :class:`PeerFault` (it should be blamed and
  logged); a plain end of the connection raises :class:`ConnectionClosed`. Callers never see
  another exception type from :meth:`Connection.recv`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from protocol.wire import DEFAULT_LIMITS, PROTOCOL_VERSION
from rattus_net.net.served import listen_host

log = logging.getLogger(__name__)

MAGIC = b"RATN"
"""First bytes of every connection: says "this is Rattus Net", whatever the version."""

HANDSHAKE_FRAME = 1024
"""Largest frame before a link is authenticated: a hello (two keys, a nonce, a purpose) or a
signature is a few hundred bytes, so a stranger can never make us read or decode more."""

SUMMARY_PERIOD = 60.0
"""Dropped connections are told as one line per minute (a flood must not flood the log)."""

_PREAMBLE = struct.Struct(">4sH")
_HEADER = struct.Struct(">I")


class TransportError(Exception):
    """Base class of the transport's errors; ``reason`` is one human-readable line."""

    def __init__(self, reason: str, peer: str | None = None) -> None:
        self.reason = reason
        self.peer = peer
        super().__init__(f"{peer}: {reason}" if peer else reason)


class ConnectionClosed(TransportError):
    """The connection ended (closed by either side, reset, or the network went away)."""


class Unreachable(ConnectionClosed):
    """Nobody answers at that address (refused, unreachable, no answer in time): no
    connection was made at all."""


class PeerFault(TransportError):
    """The remote misbehaved at the transport level: garbage, an oversized frame, silence or
    slowness. The peer is dropped and should be blamed."""


class Silent(PeerFault):
    """Nothing (not even a keepalive) came within the idle timeout: a stranger that holds a
    connection open, or a link whose other side went away without closing it (a cut cable,
    a stopped process). A game link only drops and is dialled again: nobody is blamed."""


class VersionMismatch(PeerFault):
    """The remote speaks another protocol version: the link is refused at its first bytes.

    Both sides read both numbers from the preambles, so each says a plain sentence without
    another message: the side that dialled (``dialled``, a player coming to a table) is told
    that it was refused and which side must update (:attr:`reason`), the side that listened
    says whom it refused (:meth:`refusing_words`)."""

    def __init__(
        self,
        remote_version: int,
        peer: str | None = None,
        *,
        local_version: int = PROTOCOL_VERSION,
        dialled: bool = True,
    ) -> None:
        self.remote_version = remote_version
        self.local_version = local_version
        self.dialled = dialled
        reason = (
            refused_words(remote_version, local_version)
            if dialled
            else refusing_words(peer or "a peer", remote_version, local_version)
        )
        super().__init__(reason, peer)


def refused_words(theirs: int, ours: int) -> str:
    """What the refused side (it dialled a table of protocol ``theirs``) is told."""
    who = "update rattus" if theirs > ours else "the table's host must update rattus"
    return f"this table runs protocol {theirs}; yours is {ours}: {who}"


def refusing_words(peer: str, theirs: int, ours: int) -> str:
    """What the refusing side (it listens with protocol ``ours``) says of a dialler."""
    who = "it must update rattus" if theirs < ours else "update rattus here"
    return f"refused {peer}: it runs protocol {theirs}; this table runs {ours}: {who}"


@dataclass(frozen=True, slots=True)
class TransportLimits:
    """Sizes and timeouts of one connection (seconds). Defaults suit a LAN game.

    ``max_frame`` leaves room above the wire codec's own limit for the envelope a session adds
    around a message (signature, hashes), and no more.
    """

    max_frame: int = DEFAULT_LIMITS.max_size + 4096
    connect_timeout: float = 5.0
    idle_timeout: float = 30.0
    keepalive: float = 5.0
    write_timeout: float = 15.0


DEFAULT_TRANSPORT = TransportLimits()


def encode_frame(payload: bytes, max_frame: int = DEFAULT_TRANSPORT.max_frame) -> bytes:
    """Length-prefix ``payload``; refuse (ValueError, our bug) to build a frame peers drop."""
    if len(payload) > max_frame:
        raise ValueError(f"frame of {len(payload)} bytes exceeds the limit of {max_frame}")
    return _HEADER.pack(len(payload)) + payload


class FrameDecoder:
    """Sans-IO frame splitter: feed bytes, get whole frames; used by tests and fuzzing, and the
    reference for what :meth:`Connection.recv` accepts."""

    def __init__(self, max_frame: int = DEFAULT_TRANSPORT.max_frame) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Frames completed by ``data`` (keepalives included, as ``b""``).

        Raises PeerFault as soon as a header announces more than ``max_frame`` bytes."""
        self._buf += data
        frames: list[bytes] = []
        while len(self._buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buf)
            if size > self.max_frame:
                raise PeerFault(f"frame of {size} bytes announced, limit {self.max_frame}")
            if len(self._buf) < _HEADER.size + size:
                break
            frames.append(bytes(self._buf[_HEADER.size : _HEADER.size + size]))
            del self._buf[: _HEADER.size + size]
        return frames


def _peer_label(writer: asyncio.StreamWriter) -> str:
    addr = writer.get_extra_info("peername")
    if isinstance(addr, tuple) and len(addr) >= 2:
        host = str(addr[0])
        return f"[{host}]:{addr[1]}" if ":" in host else f"{host}:{addr[1]}"
    return "unknown peer"


class Connection:
    """One framed, preambled TCP connection. Build with :func:`connect` or :func:`serve`."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        limits: TransportLimits = DEFAULT_TRANSPORT,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.limits = limits
        self.peer = _peer_label(writer)
        self._send_lock = asyncio.Lock()
        self._keepalive: asyncio.Task[None] | None = None
        self.closed = False
        self.frame_limit = limits.max_frame
        self.opened = time.monotonic()
        self.stage = 0
        """How far a connection not yet trusted has come: 0 nothing, 1 its preamble, 2 the
        first message of the link handshake (the listener makes room from the lowest)."""
        self.authenticated = False  # set once the link handshake is through
        """Largest frame accepted now: :data:`HANDSHAKE_FRAME` until the link is
        authenticated (see :meth:`authenticated`)."""

    @property
    def address(self) -> str:
        """The remote IP address (without the port)."""
        return self.peer.rsplit(":", 1)[0].strip("[]")

    # -- setup -----------------------------------------------------------------------------

    async def exchange_preamble(
        self, version: int = PROTOCOL_VERSION, *, dialled: bool = True
    ) -> None:
        """Send our magic and version, check theirs (both within ``connect_timeout``);
        ``dialled``: we opened the connection (it says who refused whom on a mismatch)."""
        self._writer.write(_PREAMBLE.pack(MAGIC, version))
        try:
            async with asyncio.timeout(self.limits.connect_timeout):
                data = await self._reader.readexactly(_PREAMBLE.size)
                await self._writer.drain()
        except TimeoutError:
            raise PeerFault("no preamble in time", self.peer) from None
        except asyncio.IncompleteReadError:
            raise ConnectionClosed("closed before its preamble", self.peer) from None
        except OSError as exc:
            raise ConnectionClosed(f"connection lost: {exc}", self.peer) from None
        magic, remote = _PREAMBLE.unpack(data)
        if magic != MAGIC:
            raise PeerFault("not a Rattus Net peer (bad preamble)", self.peer)
        if remote != version:
            raise VersionMismatch(remote, self.peer, local_version=version, dialled=dialled)
        self.stage = max(self.stage, 1)

    def start_keepalive(self) -> None:
        """Send an empty frame every ``keepalive`` seconds so the other side's idle timer is
        fed while the game waits for a slow human."""
        if self._keepalive is None and self.limits.keepalive > 0:
            self._keepalive = asyncio.get_running_loop().create_task(self._keep_alive())

    async def _keep_alive(self) -> None:
        with contextlib.suppress(TransportError, asyncio.CancelledError):
            while not self.closed:
                await asyncio.sleep(self.limits.keepalive)
                await self._send_raw(_HEADER.pack(0))

    # -- traffic ---------------------------------------------------------------------------

    async def send(self, payload: bytes) -> None:
        """Send one frame; ConnectionClosed if the link is gone, PeerFault if the peer does not
        read for ``write_timeout``."""
        await self._send_raw(encode_frame(payload, self.limits.max_frame))

    async def _send_raw(self, data: bytes) -> None:
        if self.closed:
            raise ConnectionClosed("connection already closed", self.peer)
        async with self._send_lock:
            try:
                self._writer.write(data)
                async with asyncio.timeout(self.limits.write_timeout):
                    await self._writer.drain()
            except TimeoutError:
                self.abort()
                raise PeerFault("does not read what we send", self.peer) from None
            except (OSError, RuntimeError) as exc:
                self.abort()
                raise ConnectionClosed(f"connection lost: {exc}", self.peer) from None

    async def recv(self) -> bytes:
        """The next non-empty frame. Raises only ConnectionClosed or PeerFault."""
        while True:
            try:
                async with asyncio.timeout(self.limits.idle_timeout):
                    frame = await self._read_frame()
            except TimeoutError:
                self.abort()
                raise Silent(
                    f"silent or too slow for {self.limits.idle_timeout:g} s", self.peer
                ) from None
            except asyncio.IncompleteReadError:
                self.abort()
                raise ConnectionClosed("closed by the other side", self.peer) from None
            except OSError as exc:
                self.abort()
                raise ConnectionClosed(f"connection lost: {exc}", self.peer) from None
            if frame:
                return frame

    async def _read_frame(self) -> bytes:
        header = await self._reader.readexactly(_HEADER.size)
        (size,) = _HEADER.unpack(header)
        if size > self.frame_limit:
            self.abort()
            raise PeerFault(
                f"sent a frame of {size} bytes, the limit is {self.frame_limit}", self.peer
            )
        if size == 0:
            return b""
        return await self._reader.readexactly(size)

    # -- teardown --------------------------------------------------------------------------

    def abort(self) -> None:
        """Close at once without waiting (the peer may not be reading)."""
        if self._keepalive is not None and self._keepalive is not asyncio.current_task():
            self._keepalive.cancel()
        if not self.closed:
            self.closed = True
            transport = self._writer.transport
            with contextlib.suppress(Exception):
                transport.abort()

    async def close(self) -> None:
        """Flush what we sent (briefly) and close."""
        if self.closed:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.drain(), 1.0)
        if self._keepalive is not None:
            self._keepalive.cancel()
        self.closed = True
        with contextlib.suppress(Exception):
            self._writer.close()
            await asyncio.wait_for(self._writer.wait_closed(), 1.0)


async def connect(
    host: str, port: int, limits: TransportLimits = DEFAULT_TRANSPORT, *, version: int | None = None
) -> Connection:
    """Open a connection to ``host:port`` and exchange preambles, all within the connect
    timeout. Raises ConnectionClosed (refused, unreachable, timed out) or PeerFault."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=64 * 1024), limits.connect_timeout
        )
    except TimeoutError:
        raise Unreachable(f"no answer from {host}:{port} in time") from None
    except OSError as exc:
        text = exc.strerror or str(exc)
        if isinstance(exc, ConnectionRefusedError) or "Connect call failed" in text:
            # (several addresses tried, all refused: asyncio says "Multiple exceptions")
            text = "nobody answers there (is the table open?)"
        raise Unreachable(f"cannot connect to {host}:{port}: {text}") from None
    conn = Connection(reader, writer, limits)
    try:
        await conn.exchange_preamble(PROTOCOL_VERSION if version is None else version)
    except TransportError:
        conn.abort()
        raise
    return conn


Handler = Callable[[Connection], Awaitable[None]]
FaultHook = Callable[[str, str], None]


class DropSummary:
    """Sans-IO: turns dropped connections into at most one line per ``period`` seconds.

    The first drop after a quiet period is told at once; the ones after it are counted and
    told together when the period is over (:meth:`flush`), with the latest reason."""

    def __init__(self, period: float = SUMMARY_PERIOD) -> None:
        self.period = period
        self.total = 0
        self._count = 0
        self._latest = ""
        self._window_end: float | None = None

    def note(self, now: float, peer: str, reason: str) -> str | None:
        """Count one drop; the line to say now, if any."""
        self.total += 1
        if self._window_end is None or now >= self._window_end:
            self._window_end = now + self.period
            self._count = 0
            return f"dropped a bad connection from {peer}: {reason}"
        self._count += 1
        self._latest = f"{peer}: {reason}"
        return None

    def flush(self) -> str | None:
        """The summary of the drops counted since the last line (None if there were none)."""
        count, self._count = self._count, 0
        self._window_end = None
        if count == 0:
            return None
        plural = "connection" if count == 1 else "connections"
        return f"dropped {count} bad {plural} in the last minute (latest {self._latest})"


class Listener:
    """A TCP server handing preambled connections to ``handler``, one task each.

    It protects the host: at most ``max_connections`` connections at once that are not yet
    trusted, of which at most ``max_per_address`` from one address; when either pool is full,
    the connection not yet authenticated that has come least far (sent nothing, then only its
    preamble), the oldest of those, makes room for the newcomer, so that strangers holding
    idle connections, even from a player's own address, never keep the player out (a real
    peer gets past its preamble and authenticates in milliseconds); a connection the handler
    trusts (:meth:`trust`: an authenticated roster key of the
    game mesh, a seated guest) moves to a pool of its own (``max_trusted``), so strangers
    filling the port never keep a player out. The preamble must arrive within the connect
    timeout, and whatever a handler raises is logged, never propagated, so one bad peer cannot
    stop the table. ``on_fault(peer, reason)`` is told of every dropped peer (for blame and
    tests); ``say`` gets one line a minute at most about them (default: the log). A peer of
    another protocol version is refused in words (:func:`refusing_words`), said through
    ``refusals`` (default: ``say``) once per address and version.
    """

    def __init__(
        self,
        handler: Handler,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        *,
        max_connections: int = 32,
        max_per_address: int = 6,
        max_trusted: int = 16,
        on_fault: FaultHook | None = None,
        say: Callable[[str], None] | None = None,
        version: int = PROTOCOL_VERSION,
    ) -> None:
        self.handler = handler
        self.version = version
        self.refusals: Callable[[str], None] | None = None
        self._refused_versions: set[tuple[str, int]] = set()
        self.limits = limits
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.max_trusted = max_trusted
        self.on_fault = on_fault
        self.say = say
        self.active: set[Connection] = set()
        self.trusted: set[Connection] = set()
        self.refused = 0
        self.drops = DropSummary()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._flush: asyncio.TimerHandle | None = None

    async def start(self, host: str | None = None, port: int = 0) -> int:
        """Listen on ``host:port`` (port 0: any free port; no host: every address, or the one
        a server running this game allows, :func:`.served.listen_host`); return the port."""
        if host is None:
            host = listen_host()
        self._server = await asyncio.start_server(self._accept, host, port, limit=64 * 1024)
        sock = self._server.sockets[0]
        return int(sock.getsockname()[1])

    @property
    def listening(self) -> bool:
        """Started: peers may dial it now (a test waits for this rather than sleeping)."""
        return self._server is not None

    @property
    def port(self) -> int:
        assert self._server is not None, "not started"
        return int(self._server.sockets[0].getsockname()[1])

    def _say(self, line: str) -> None:
        if self.say is not None:
            self.say(line)
        else:
            log.warning("%s", line)

    def _fault(self, peer: str, reason: str) -> None:
        log.debug("dropped %s: %s", peer, reason)
        if self.on_fault is not None:
            self.on_fault(peer, reason)
        line = self.drops.note(time.monotonic(), peer, reason)
        if line is not None:
            self._say(line)
            if self._flush is None:
                self._flush = asyncio.get_running_loop().call_later(
                    self.drops.period, self._flush_drops
                )

    def _flush_drops(self) -> None:
        self._flush = None
        line = self.drops.flush()
        if line is not None:
            self._say(line)

    def _refused(self, conn: Connection, exc: VersionMismatch) -> None:
        """A dialler of another protocol version: said in words, once per address and
        version (a peer redialling every second is said once), never summed up as a fault."""
        log.info("%s", exc.reason)
        if self.on_fault is not None:
            self.on_fault(conn.peer, exc.reason)
        key = (conn.address, exc.remote_version)
        if key in self._refused_versions:
            return
        if len(self._refused_versions) >= 256:  # (bounded: a flood of addresses)
            self._refused_versions.clear()
        self._refused_versions.add(key)
        line = refusing_words(conn.address, exc.remote_version, exc.local_version)
        if self.refusals is not None:
            self.refusals(line)
        else:
            self._say(line)

    def trust(self, conn: Connection) -> bool:
        """Move ``conn`` (authenticated, wanted) out of the strangers' pool into its own;
        False (and nothing moves) if that pool is full too."""
        if conn in self.trusted:
            return True
        if len(self.trusted) >= self.max_trusted:
            return False
        self.active.discard(conn)
        self.trusted.add(conn)
        return True

    def _admit(self, conn: Connection) -> str | None:
        """Why ``conn`` cannot come in now (None: it can). When one address's share or the
        strangers' pool is full, the connection still not authenticated that has come least
        far, the oldest of those, makes room (a flood of silent connections, even from the
        address of a player, cannot keep the player out)."""
        same = [c for c in self.active if c.address == conn.address]
        if len(same) >= self.max_per_address and not self._make_room(same, conn.address):
            return f"too many connections from {conn.address}"
        if len(self.active) >= self.max_connections and not self._make_room(self.active, ""):
            return "too many connections"
        return None

    def _make_room(self, pool: Iterable[Connection], where: str) -> bool:
        waiting = [c for c in pool if not c.authenticated]
        if not waiting:
            return False
        victim = min(waiting, key=lambda c: (c.stage, c.opened))
        victim.abort()
        self.active.discard(victim)
        whose = f" from {where}" if where else ""
        self._fault(victim.peer, f"too many connections{whose} (an unauthenticated one)")
        return True

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(reader, writer, self.limits)
        refusal = self._admit(conn)
        if refusal is not None:
            self.refused += 1
            conn.abort()
            self._fault(conn.peer, refusal)
            return
        self.active.add(conn)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await conn.exchange_preamble(self.version, dialled=False)
            await self.handler(conn)
        except VersionMismatch as exc:
            self._refused(conn, exc)
        except PeerFault as exc:
            self._fault(conn.peer, exc.reason)
        except ConnectionClosed:
            pass
        except asyncio.CancelledError:
            pass  # the listener is closing (re-raising makes asyncio's stream callback log it)
        except Exception as exc:  # a bug in a handler must not stop the listener
            log.exception("handler failed for %s", conn.peer)
            self._fault(conn.peer, f"internal error: {type(exc).__name__}")
        finally:
            self.active.discard(conn)
            self.trusted.discard(conn)
            if task is not None:
                self._tasks.discard(task)
            conn.abort()

    async def close(self) -> None:
        """Stop listening and drop every connection (and say the drops not told yet)."""
        if self._server is not None:
            self._server.close()
        if self._flush is not None:
            self._flush.cancel()
            self._flush_drops()
        for conn in list(self.active | self.trusted):
            conn.abort()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # let each handler see its cancellation and end before the loop does
            await asyncio.wait(tasks, timeout=2.0)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
