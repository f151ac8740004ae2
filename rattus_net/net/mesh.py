"""The mesh of one seat: its authenticated links to the other seats, and its port.

Seat ``i`` dials every seat ``j < i`` and accepts the others, so each pair has exactly one
dialler, which redials (with backoff) whenever the link drops. Every link is authenticated for
this game (:mod:`rattus_net.net.handshake`, purpose ``game/<id>``) and only roster keys are
accepted. Frames on a link are tagged:

* ``H`` "I hold your first n frames", sent first on every new link: the other side sends what
  we lack (``F``, session frames) only once it has heard it (:func:`~rattus_net.net.relink.
  resend_from`);
* ``D`` "my game is over", said on a link only after every frame the other side lacked went
  out ahead of it (:meth:`Mesh.say_done`);
* ``R``/``Y``: a resumed peer asks (``R``) for copies of its own frames, and gets them back
  (``Y``) (:mod:`rattus_net.net.relink`);
* ``P``: a signed note that a seat listens on another port now (its old one was taken);
* ``c``/``C``: chat lines, not the game (:mod:`rattus_net.net.chat`): first the lines a side
  holds (after its ``H``: other authors' as history, ``c``, its own as live lines, ``C``), then
  its own new ones (``C``).

One writer per link sends everything that goes out on it, in order; the reading side hands
what it hears to the node that owns the mesh (:class:`~rattus_net.net.node.PeerNode`)
through the small interface :class:`MeshOwner`. Every task here is owned: the writer by its
link's task group, the dials by the node's (:meth:`PeerNode.run`), the accepted links by the
listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from dataclasses import dataclass, field
from typing import Protocol

from protocol.chat import HISTORY
from protocol.crypto.identity import Identity
from protocol.errors import RemoteProtocolError
from rattus_net.net.chat import NodeChat
from rattus_net.net.events import NodeEvents
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby import authenticate
from rattus_net.net.persist import Journal
from rattus_net.net.relink import Asks, CopyBucket, copies_for, resend_from
from rattus_net.net.seats import Setup
from rattus_net.net.transport import (
    Connection,
    Listener,
    PeerFault,
    Silent,
    TransportError,
    TransportLimits,
    VersionMismatch,
    connect,
)

log = logging.getLogger(__name__)

COUNT = struct.Struct(">I")
_PORT = struct.Struct(">H")
_MOVED = b"rattus-net/v1/moved"
PORT_RETRY = 2.0
"""Seconds a resumed peer tries its old port (the killed process's socket may linger) before
it listens on another one and tells the others."""


@dataclass
class Link:
    """One live link to ``seat`` and what goes out on it."""

    conn: Connection
    seat: int
    sent_upto: int = 0
    heard: bool = False  # its H came: it says what it holds, our frames go out from there
    done: bool = False  # our game is over: say D once every frame it lacked went out
    done_said: bool = False  # our D went out on it, after every frame it lacked
    ask: int | None = None  # an R to send: the index of our own frames we lack
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    bucket: CopyBucket = field(default_factory=lambda: CopyBucket(time.monotonic()))
    chat_sent: int = -1  # the chat lines that went out on it (-1: not yet its history)
    chat_live: int = 0  # lines from here on are new: only ours go out (tag C)


class MeshOwner(Protocol):
    """What the mesh needs from the node that owns it: where what the links hear goes."""

    def heard_frame(self, seat: int, frame: bytes) -> None:
        """A session frame (``F``) from ``seat``."""

    def heard_hold(self, seat: int, have: int) -> None:
        """``seat`` said (``H``) it holds our first ``have`` frames."""

    def heard_done(self, seat: int) -> None:
        """``seat`` said (``D``) its game is over."""

    def heard_copy(self, seat: int, index: int, frame: bytes) -> None:
        """``seat`` sent back (``Y``) our own frame ``index``."""

    def game_over(self) -> bool:
        """Whether our game is over (a new link says ``D`` at once)."""

    def said_done(self) -> None:
        """Our ``D`` reached a peer (the node may be waiting for that to leave)."""

    def port_moved(self) -> None:
        """We listen on another port now (the node writes it where a restart finds it)."""


class Mesh:
    """The links and the port of a seat, owned by its node (:class:`~rattus_net.net.node.
    PeerNode`), which hears what the links say through :class:`MeshOwner`.

    The mesh holds the frames that cross it: ours, in the order they go out on every link
    (:attr:`sent`), and each peer's (:attr:`received`, :attr:`got`); the node appends to them
    as the session makes and accepts frames."""

    def __init__(
        self,
        owner: MeshOwner,
        setup: Setup,
        identity: Identity,
        journal: Journal,
        chat: NodeChat,
        events: NodeEvents,
        limits: TransportLimits,
    ) -> None:
        self.owner = owner
        self.setup = setup
        self.seat = setup.seat
        self.n = setup.params.n
        self.identity = identity
        self.journal = journal
        self.chat = chat
        self.events = events
        self.limits = limits
        self.purpose = f"game/{setup.game_id}"
        self.expect = {
            i.fingerprint for s, i in enumerate(setup.params.identities) if s != setup.seat
        }
        self.links: dict[int, Link] = {}
        self.addresses: list[tuple[str, int]] = list(setup.addresses)
        self.moved: bytes | None = None  # our signed new port, if we had to change it
        self.told: set[int] = set()  # seats that got it
        self.listener: Listener | None = None
        self.sent: list[bytes] = []  # our frames, in the order they go out on every link
        self.got = [0] * self.n  # each seat's frames we hold
        self.received: list[list[bytes]] = [[] for _ in range(self.n)]  # each seat's frames
        self.told_done: set[int] = set()  # seats our D reached, after all they lacked
        self.done_from: set[int] = set()  # seats that said their game is over
        self.asks = Asks()  # when each linked peer was last asked for our lost frames
        # Seats whose link is down, and since when (every other seat until it first connects):
        # the session blames a seat gone too long even while it owes a move.
        start = time.monotonic()
        self.down_since: dict[int, float] = {s: start for s in range(self.n) if s != self.seat}

    # -- the port --------------------------------------------------------------------------

    async def listen(self, port: int) -> None:
        """Listen on our port; if another program holds it, on any free port, and tell the
        others (a signed note, journaled so that a later restart uses the new port)."""
        assert self.listener is not None
        deadline = time.monotonic() + PORT_RETRY
        while True:  # the old process's socket may linger briefly after a kill
            try:
                await self.listener.start(None, port)
                return
            except OSError:
                if time.monotonic() >= deadline:
                    break
                await asyncio.sleep(0.2)
        new = await self.listener.start(None, 0)
        log.info("port %d is taken: listening on %d", port, new)
        self.moved = self.identity.sign(self._moved_message(self.seat, new))
        self.journal.append(["p", new, self.moved])
        self.addresses[self.seat] = (self.addresses[self.seat][0], new)
        self.told.clear()
        self.owner.port_moved()
        self.events.emit("moved", self.seat, f"port {port} was taken: listening on port {new} now")

    def _moved_message(self, seat: int, port: int) -> bytes:
        return _MOVED + bytes.fromhex(self.setup.game_id) + bytes([seat]) + _PORT.pack(port)

    def _moved_frame(self) -> bytes:
        assert self.moved is not None
        return b"P" + _PORT.pack(self.addresses[self.seat][1]) + self.moved

    def _peer_moved(self, seat: int, body: bytes, conn: Connection) -> None:
        """A peer says (signed) that it listens on another port now."""
        if len(body) != _PORT.size + 64:
            raise PeerFault("bad port note", conn.peer)
        (port,) = _PORT.unpack_from(body)
        sig = body[_PORT.size :]
        try:
            self.setup.params.identities[seat].verify(self._moved_message(seat, port), sig)
        except RemoteProtocolError:
            raise PeerFault("port note with a wrong signature", conn.peer) from None
        if port == 0 or self.addresses[seat] == (conn.address, port):
            return
        self.addresses[seat] = (conn.address, port)
        if not self.events.closing:
            self.journal.append(["a", seat, conn.address, port], sync=False)

    # -- the links -------------------------------------------------------------------------

    async def accept(self, conn: Connection, hs: Handshake | None = None) -> None:
        """An incoming link (from our Listener, or the lobby host's shared one)."""
        if hs is None:
            hs = await authenticate(conn, self.identity, None, expect=self.expect)
        if hs.purpose != self.purpose or hs.remote is None:
            raise PeerFault(f"link for {hs.purpose!r}, not this game", conn.peer)
        ids = self.setup.params.identities
        if hs.remote not in ids or ids.index(hs.remote) == self.seat:
            raise PeerFault("key not in the roster", conn.peer)
        seat = ids.index(hs.remote)
        if self.listener is not None:
            self.listener.trust(conn)  # a roster key: a slot strangers cannot take
        conn.start_keepalive()
        await self._serve_link(conn, seat)

    async def dial(self, seat: int, *, once: bool = False) -> None:
        """Keep a link to ``seat`` (we are its dialler), redialling with backoff; with
        ``once``, only until the link has told it our new port (then it dials us)."""
        fp = self.setup.params.identities[seat].fingerprint
        delay = 0.1
        refused = False  # (a peer of another protocol version: said once, dialled on)
        while not self.events.closing and not (once and seat in self.told):
            host, port = self.addresses[seat]  # (a peer that moved told us where)
            try:
                conn = await connect(host, port, self.limits)
                try:
                    await authenticate(conn, self.identity, self.purpose, expect={fp})
                except TransportError:
                    conn.abort()
                    raise
                conn.start_keepalive()
                delay = 0.1
                await self._serve_link(conn, seat)
            except VersionMismatch as exc:  # (it may update and come back: dialled on)
                if not refused:
                    refused = True
                    self.events.emit("version", seat, f"{exc.remote_version} {exc.local_version}")
            except TransportError as exc:
                log.debug("link to seat %d: %s", seat, exc)
            if self.events.closing:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def announce(self, seat: int) -> None:
        """Dial a seat that normally dials us, to tell it our new port."""
        await self.dial(seat, once=True)

    async def _serve_link(self, conn: Connection, seat: int) -> None:
        """One link to ``seat``, in the order that lets neither side end short of a frame.

        Both sides first say what they hold of the other's frames (``H``); each sends the
        other what it lacks only once it has heard that (:meth:`_writer`), and a side whose
        game is over says so (``D``) only after every frame the other lacked has gone out on
        this link. So a peer that hears ``D`` already has, ahead of it on the same link,
        everything the other had to send, a signed abort among them, and nobody counts as
        done before the frames that could change its record have crossed."""
        old = self.links.get(seat)
        if old is not None:
            old.conn.abort()
        link = Link(conn, seat)
        self.links[seat] = link
        self.down_since.pop(seat, None)
        self.events.emit("link-up", seat)
        try:
            async with asyncio.TaskGroup() as group:
                writer = group.create_task(self._writer(link))
                try:
                    await self._read(link)
                except TransportError as exc:
                    if isinstance(exc, PeerFault) and not isinstance(exc, Silent):
                        self.events.fault(seat, exc.reason)  # (a silent one only drops)
                finally:
                    writer.cancel()
        finally:
            if self.links.get(seat) is link:
                del self.links[seat]
                self.asks.forget(seat)
                self.down_since.setdefault(seat, time.monotonic())
                if seat not in self.done_from:
                    self.events.emit("link-down", seat)
            conn.abort()

    async def _read(self, link: Link) -> None:
        """What ``link``'s peer says, handed to the node, until the link fails."""
        conn, seat = link.conn, link.seat
        await conn.send(b"H" + COUNT.pack(self.got[seat]))
        if self.moved is not None:
            await conn.send(self._moved_frame())
            self.told.add(seat)
        if self.owner.game_over():
            self.say_done(link)
        while True:
            data = await conn.recv()
            tag, body = data[:1], data[1:]
            if tag == b"F":
                self.owner.heard_frame(seat, body)
            elif tag == b"H" and len(body) == COUNT.size:
                (have,) = COUNT.unpack(body)
                link.sent_upto = resend_from(have, len(self.sent))
                link.heard = True
                self.owner.heard_hold(seat, have)
                link.wake.set()
            elif tag == b"D":
                self.owner.heard_done(seat)
            elif tag == b"P":
                self._peer_moved(seat, body, conn)
            elif tag == b"R" and len(body) == COUNT.size:
                (start,) = COUNT.unpack(body)  # it lost frames of its own: send them back
                if not link.bucket.may_copy(time.monotonic()):
                    continue  # (asked again too soon: nothing more than the rate allows)
                for index, own in copies_for(self.received[seat], start):
                    await conn.send(b"Y" + COUNT.pack(index) + own)
            elif tag == b"Y" and len(body) > COUNT.size:
                (index,) = COUNT.unpack_from(body)
                self.owner.heard_copy(seat, index, body[COUNT.size :])
            elif tag in (b"C", b"c"):  # (each held to its author's rate: ChatBook)
                self.chat.heard(seat, body, live=tag == b"C")
            else:
                raise PeerFault("unknown frame tag", conn.peer)

    async def _writer(self, link: Link) -> None:
        """Send what goes out on one link: a request for our lost frames (``R``), our frames
        from what the peer holds on (once it has said so: its ``H``), then, once our game is
        over and every frame it lacked went out, our ``D``."""
        with contextlib.suppress(TransportError):
            while True:
                await link.wake.wait()
                link.wake.clear()
                if link.ask is not None:
                    index, link.ask = link.ask, None
                    await link.conn.send(b"R" + COUNT.pack(index))
                while link.heard and link.sent_upto < len(self.sent):
                    await link.conn.send(b"F" + self._outgoing(link, self.sent[link.sent_upto]))
                    link.sent_upto += 1
                if link.heard:
                    await send_chat(self.chat, link)
                if link.done and link.heard and not link.done_said:
                    link.done_said = True
                    await link.conn.send(b"D")
                    self.told_done.add(link.seat)
                    self.owner.said_done()

    def _outgoing(self, link: Link, frame: bytes) -> bytes:
        """The frame that goes out on ``link`` for one of ours: itself (a test's lying peer
        sends another version to one peer here)."""
        return frame

    def say_done(self, link: Link) -> None:
        """Say ``D`` (our game is over) on ``link`` once the peer has said what it holds and
        every frame it lacked has gone out ahead of it."""
        link.done = True
        link.wake.set()

    def ask_copies(self, seats: list[int], index: int) -> None:
        """Ask ``seats`` (linked) to send back our own frame ``index`` and those after it."""
        for seat in seats:
            link = self.links.get(seat)
            if link is not None:
                link.ask = index
                link.wake.set()

    def wake_links(self) -> None:
        for link in self.links.values():
            link.wake.set()

    def drop_links(self) -> None:
        for link in list(self.links.values()):
            link.conn.abort()


async def send_chat(chat: NodeChat, link: Link) -> None:
    """The chat lines that go out on ``link``: at first the last ones we hold (other
    authors' as history, ``c``; ours as live lines, ``C``: a history brings no line of
    the seat that resends it), then our own new ones (``C``)."""
    frames = chat.frames
    if link.chat_sent < 0:
        link.chat_sent = max(0, len(frames) - HISTORY)
        link.chat_live = len(frames)
    while link.chat_sent < len(frames):
        i = link.chat_sent
        link.chat_sent += 1
        if frames[i] in chat.own:
            await link.conn.send(b"C" + frames[i])
        elif i < link.chat_live:
            await link.conn.send(b"c" + frames[i])


__all__ = ["COUNT", "PORT_RETRY", "Link", "Mesh", "MeshOwner", "send_chat"]
