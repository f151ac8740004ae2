"""Hosting a table over the network: the asyncio adapter around :class:`LobbyCore`.

:class:`HostedTable` listens, authenticates every link (``rattus_net.net.handshake``: the
table's host key is the one whose fingerprint the advert shows, and every seat is bound to a
key), serves the guests' lobby links in order and hands other links (the game's mesh shares
the host's port) to the game. The lobby only decides *who* plays with which options; at the
start it hands every seat the roster and the nonce that fixes the game id.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import time
from collections.abc import Callable

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError, RemoteProtocolError
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby.core import LobbyCore, refuse_message, state_message
from rattus_net.net.lobby.values import STARTED, LobbyRefusal, LobbyState, TableOptions
from rattus_net.net.tasks import cancel_and_wait
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    Listener,
    PeerFault,
    TransportError,
    TransportLimits,
)
from rattus_net.net.transport import HANDSHAKE_FRAME as HANDSHAKE_FRAME

LOBBY_FRAME = 16 * 1024
"""Largest lobby message after authentication (a state of five seats is about 1 KiB)."""

SIT_TIMEOUT = 10.0
"""A lobby link that authenticated but has no seat is closed when it has said nothing for this
long (a real guest asks for a seat the moment it is in)."""

UNSEATED_MARGIN = 2
"""Unseated lobby links allowed beyond the free seats. More would be squatters: keys that
authenticate and never sit, holding the port's connections so that a real guest is refused.
When the pool is full, the unseated link idle the longest makes room for the newcomer."""

MADE_ROOM = "closed to make room for another guest: this link took no seat"

LOBBY_PURPOSE = "lobby"

log = logging.getLogger(__name__)


async def authenticate(
    conn: Connection,
    identity: Identity,
    purpose: str | None,
    *,
    expect: set[str] | None = None,
    timeout: float | None = None,
) -> Handshake:
    """Run the link handshake on ``conn`` (bounded by the connect timeout)."""
    hs = Handshake(identity, purpose, os.urandom, expect=expect)
    conn.frame_limit = min(HANDSHAKE_FRAME, conn.limits.max_frame)  # nothing big before trust

    async def run() -> None:
        await conn.send(hs.hello())
        while not hs.done:
            reply = hs.receive(await conn.recv(), peer=conn.peer)
            conn.stage = 2  # (a peer that speaks the handshake: the last one a flood evicts)
            if reply is not None:
                await conn.send(reply)

    try:
        # (a timeout scope, not wait_for: no inner task whose error nobody collects when a
        # handshake is still open at the end of a game)
        async with asyncio.timeout(timeout or conn.limits.connect_timeout):
            await run()
    except TimeoutError:
        raise PeerFault("did not authenticate in time", conn.peer) from None
    except RemoteProtocolError as exc:
        raise PeerFault(f"failed to authenticate: {exc.reason}", conn.peer) from None
    conn.frame_limit = conn.limits.max_frame
    conn.authenticated = True
    return hs


class HostedTable:
    """A table being hosted: a Listener, the lobby core, and optionally a zeroconf advert.

    Every state change reaches every guest in order (one writer per guest), so the start is
    atomic: a seated guest hears the started table and never a refusal after it.

    ``serve_game(conn, handshake)`` receives links whose purpose is not the lobby (the game
    mesh shares the host's port), so one open port serves everything."""

    def __init__(
        self,
        identity: Identity,
        table: str,
        options: TableOptions,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        *,
        max_connections: int = 32,
    ) -> None:
        self.identity = identity
        self.core = LobbyCore.open(table, identity.public, options)
        self.listener = Listener(self._serve, limits, max_connections=max_connections)
        self.guests: dict[str, _GuestLink] = {}
        self.faults: collections.deque[tuple[str, str]] = collections.deque(maxlen=200)
        self.listener.on_fault = lambda peer, reason: self.faults.append((peer, reason))
        self.sit_timeout = SIT_TIMEOUT
        self.unseated_margin = UNSEATED_MARGIN
        self.started: asyncio.Future[LobbyState] = asyncio.get_running_loop().create_future()
        self.game_links: Callable[[Connection, Handshake], object] | None = None
        self.auto_start = True
        self.core.on_change.append(self._changed)
        self.core.on_chat.append(self._chat)

    async def open(self, host: str | None = None, port: int = 0) -> int:
        return await self.listener.start(host, port)

    @property
    def port(self) -> int:
        return self.listener.port

    def _changed(self, state: LobbyState) -> None:
        if state.phase == "playing" and not self.started.done():
            self.started.set_result(state)
        data = state_message(state)
        for fp, guest in list(self.guests.items()):
            if state.phase == "playing" and state.seat_of(fp) is None:
                guest.post(refuse_message(STARTED))  # no roster for a guest without a seat
                guest.post(None)
            else:
                guest.post(data)  # (in order with everything else said to that guest)
        if self.auto_start and self.core.can_start:
            self.core.start(os.urandom(32))

    def _chat(self, data: bytes | None, said: object) -> None:
        """A chat line (``data``) goes to every seated guest, its author too (who knows it)."""
        if data is None:
            return
        for fp, guest in list(self.guests.items()):
            if self.core.state.seat_of(fp) is not None:
                guest.post(data)

    async def _serve(self, conn: Connection) -> None:
        hs = await authenticate(conn, self.identity, None)
        assert hs.remote is not None
        if hs.purpose != LOBBY_PURPOSE:
            if self.game_links is None:
                raise PeerFault(f"link for {hs.purpose!r} but no game here", conn.peer)
            conn.start_keepalive()
            result = self.game_links(conn, hs)
            if asyncio.iscoroutine(result):
                await result
            return
        await self._serve_guest(conn, hs.remote)

    async def _serve_guest(self, conn: Connection, who: PublicIdentity) -> None:
        """One guest's lobby link. A stranger after the start is told so and nothing else
        (not the roster's addresses and keys); a link without a seat is closed when it has
        said nothing for ``sit_timeout`` seconds, when it must make room (:meth:`_make_room`)
        and at the start; a seated guest is trusted (a connection slot of its own) and, once
        the game has started, only ever hears the started table."""
        fp = who.fingerprint
        state = self.core.state
        if state.phase == "playing" and state.seat_of(fp) is None:
            await conn.send(refuse_message(STARTED))
            await conn.close()
            return
        if fp in self.guests:
            raise PeerFault("a second lobby link with the same key", conn.peer)
        conn.frame_limit = min(LOBBY_FRAME, conn.limits.max_frame)
        self._make_room()
        guest = _GuestLink(conn)
        self.guests[fp] = guest
        conn.start_keepalive()
        try:
            guest.post(state_message(state))
            while True:
                if guest.leaving:  # made room: its reason goes out before the link closes
                    await asyncio.wait({guest.writer}, timeout=conn.limits.write_timeout)
                    return
                seated = self.core.state.seat_of(fp) is not None
                if seated:
                    self.listener.trust(conn)
                wait = None if seated else guest.heard + self.sit_timeout - time.monotonic()
                if wait is not None and wait <= 0:
                    raise PeerFault("did not take a seat in time", conn.peer)
                recv = asyncio.ensure_future(conn.recv())
                done, _ = await asyncio.wait({recv, guest.writer}, timeout=wait,
                                             return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
                if recv not in done:
                    recv.cancel()
                    with contextlib.suppress(BaseException):
                        await recv
                    if guest.writer.done():  # told to go (the game started without it)
                        return
                    continue  # (the deadline is checked above)
                data = recv.result()
                guest.heard = time.monotonic()
                try:
                    self.core.handle(who, conn.address, data)
                except LobbyRefusal as exc:
                    if (
                        self.core.state.phase == "playing"
                        and self.core.state.seat_of(fp) is not None
                    ):
                        # a seated guest's late word: the start is the answer, never a refusal
                        guest.post(state_message(self.core.state))
                    else:
                        guest.post(refuse_message(exc.reason))
                except DecodeError as exc:
                    raise PeerFault(f"bad lobby message: {exc.reason}", conn.peer) from None
        finally:
            await cancel_and_wait([guest.writer])
            if self.guests.get(fp) is guest:
                del self.guests[fp]
            self.core.leave(fp)

    def unseated(self) -> list[_GuestLink]:
        """The lobby links without a seat that are still served (not told to go)."""
        state = self.core.state
        return [g for fp, g in self.guests.items() if state.seat_of(fp) is None and not g.leaving]

    def _make_room(self) -> None:
        """Before a new guest comes in: unseated links may be as many as the free seats plus
        ``unseated_margin``; past that, the one that has said nothing for longest is told why
        and closed, so keys that authenticate and never sit cannot hold the port's connections
        and keep a real guest out (he sits at once and leaves this pool)."""
        waiting = self.unseated()
        room = self.core.state.free + self.unseated_margin
        for victim in sorted(waiting, key=lambda g: g.heard)[: max(0, len(waiting) - room + 1)]:
            victim.leaving = True
            victim.post(refuse_message(MADE_ROOM))
            victim.post(None)
            self.faults.append((victim.conn.peer, MADE_ROOM))

    async def close(self) -> None:
        await self.listener.close()


class _GuestLink:
    """A lobby link seen from the host: everything said to the guest goes through one queue
    and one writer, so a refusal can never overtake the state that started the game."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.heard = time.monotonic()  # the last lobby message from the guest (or its arrival)
        self.leaving = False  # told to go to make room: no longer one of the unseated
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def post(self, data: bytes | None) -> None:
        """Send ``data`` after whatever was posted before (``None``: close the link)."""
        self._queue.put_nowait(data)

    async def _write(self) -> None:
        with contextlib.suppress(TransportError):
            while (data := await self._queue.get()) is not None:
                await self.conn.send(data)
            await self.conn.close()
