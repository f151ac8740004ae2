"""Joining a table over the network: sit, get ready, wait for the start (asyncio)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError
from protocol.wire import decode_message
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby.chat import is_chat
from rattus_net.net.lobby.core import ready_message, sit_message
from rattus_net.net.lobby.host import LOBBY_PURPOSE, authenticate
from rattus_net.net.lobby.values import STARTED, LobbyRefusal, LobbyState
from rattus_net.net.tasks import cancel_and_wait
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    ConnectionClosed,
    PeerFault,
    TransportError,
    TransportLimits,
    Unreachable,
    VersionMismatch,
    connect,
)

JOIN_RETRY = 30.0
"""Seconds a guest keeps trying to get into a table that answered but dropped it before the
link was authenticated (its port full of strangers): with backoff, said each time."""


async def join_table(
    host: str,
    port: int,
    identity: Identity,
    name: str,
    listen_port: int,
    *,
    bot: str | None = None,
    colour: str | None = None,
    expect_fingerprint: str | None = None,
    limits: TransportLimits = DEFAULT_TRANSPORT,
    on_state: Callable[[LobbyState], None] | None = None,
    ready: bool | asyncio.Event = True,
    ready_changed: asyncio.Event | None = None,
    outbox: asyncio.Queue[bytes] | None = None,
    retry_for: float = 0.0,
    say: Callable[[str], None] | None = None,
    on_chat: Callable[[bytes], None] | None = None,
) -> LobbyState:
    """Join the table at ``host:port``, sit, get ready and wait for the start; return the
    roster. Raises LobbyRefusal (refused, wrong host key) or TransportError.

    ``ready`` may be an event a user interface sets when its player says so (then the ready
    message goes out at that moment). Whenever the host un-readies our seat (somebody left,
    the options changed) while we want to be ready, we say so again. ``ready_changed``, if
    given, is set by the interface whenever its player changes his mind (``ready`` set or
    cleared): then we tell the host at once, so a player may take back "ready" before the
    start. Messages put in ``outbox`` (say, :func:`colour_message`) are sent as they come.

    ``retry_for``: for that many seconds, a table that was reached but closed the connection
    or did not finish the handshake (its port full of strangers, say) is tried again, with
    backoff, each time said through ``say`` (see :func:`_enter`). Chat lines the host hands
    on go to ``on_chat`` (put ours in ``outbox``: :meth:`LobbyChat.say`)."""
    conn, hs = await _enter(host, port, identity, expect_fingerprint, limits, retry_for, say)
    try:
        assert hs.remote is not None
        conn.start_keepalive()
        await conn.send(sit_message(name, listen_port, colour, bot))
        me: int | None = None
        state: LobbyState | None = None
        recv: asyncio.Future[bytes] = asyncio.ensure_future(conn.recv())
        try:
            while True:
                waiters: set[asyncio.Future[Any]] = {recv}
                nudge: asyncio.Future[Any] | None = None
                if ready_changed is not None:
                    nudge = asyncio.ensure_future(ready_changed.wait())
                elif isinstance(ready, asyncio.Event) and not ready.is_set():
                    nudge = asyncio.ensure_future(ready.wait())
                if nudge is not None:
                    waiters.add(nudge)
                posted: asyncio.Future[bytes] | None = None
                if outbox is not None:
                    posted = asyncio.ensure_future(outbox.get())
                    waiters.add(posted)
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
                await cancel_and_wait([nudge])
                if posted is not None:
                    if posted.done():
                        await conn.send(posted.result())
                        continue
                    await cancel_and_wait([posted])
                if not recv.done():  # our player just got ready, or took it back
                    if ready_changed is not None:
                        ready_changed.clear()
                    want = _wants_ready(ready)
                    if state is not None and me is not None and state.seats[me].ready != want:
                        await conn.send(ready_message(want))
                    continue
                data = recv.result()
                recv = asyncio.ensure_future(conn.recv())
                if is_chat(data):  # (checked by on_chat: a bad line is a note, not a fault)
                    if on_chat is not None:
                        on_chat(data)
                    continue
                try:
                    state, me = await _guest_step(conn, hs.remote, identity, data, on_state, ready)
                except LobbyRefusal as exc:
                    if me is not None and STARTED in exc.reason:
                        continue  # we hold a seat: the started table is on its way
                    raise
                if state.phase == "playing":
                    return state
        finally:
            await cancel_and_wait([recv])
    except ConnectionClosed as exc:
        raise ConnectionClosed(f"the table closed the connection ({exc.reason})") from None
    finally:
        await conn.close()


async def _enter(
    host: str,
    port: int,
    identity: Identity,
    expect_fingerprint: str | None,
    limits: TransportLimits,
    retry_for: float,
    say: Callable[[str], None] | None,
) -> tuple[Connection, Handshake]:
    """Connect to the table and authenticate the link. A host that answered but dropped us
    before the link was authenticated (strangers filling its port make room from the
    connections that have come least far) is tried again for ``retry_for`` seconds, after
    0.5, 1, 2, 4... seconds; nobody answering at all, another protocol version or a host
    that does not hold the advertised key end at once."""
    deadline = time.monotonic() + retry_for
    delay = 0.5
    expect = {expect_fingerprint} if expect_fingerprint else None
    while True:
        try:
            conn = await connect(host, port, limits)
            try:
                return conn, await authenticate(conn, identity, LOBBY_PURPOSE, expect=expect)
            except TransportError:
                conn.abort()
                raise
        except VersionMismatch as exc:  # (the table says its own words: Listener._refused)
            raise LobbyRefusal(exc.reason) from None
        except Unreachable:
            raise
        except TransportError as exc:
            if expect_fingerprint and "is not expected" in exc.reason:
                raise LobbyRefusal(
                    f"the host at {host}:{port} does not hold the advertised key "
                    f"{expect_fingerprint}"
                ) from None
            reason = exc.reason
            if time.monotonic() + min(delay, 1.0) > deadline:
                raise
        wait = max(0.0, min(delay, deadline - time.monotonic()))
        if say is not None:
            say(
                f"could not get into the table at {host}:{port} ({reason}); trying again in "
                f"{wait:.1f} s"
            )
        await asyncio.sleep(wait)
        delay = min(delay * 2, 8.0)


async def _guest_step(
    conn: Connection,
    remote: PublicIdentity,
    identity: Identity,
    data: bytes,
    on_state: Callable[[LobbyState], None] | None,
    ready: bool | asyncio.Event,
) -> tuple[LobbyState, int | None]:
    """One message from the lobby host: the new state (after saying we are ready, or not,
    if the host has our seat otherwise than we want)."""
    try:
        msg = decode_message(data, peer=remote.fingerprint)
        if msg.kind == "lobby/refuse":
            reason = msg.body.get("reason")
            text = reason if isinstance(reason, str) and reason else "no reason given"
            raise LobbyRefusal(f"the table refused: {text}")
        if msg.kind != "lobby/state":
            raise DecodeError(remote.fingerprint, f"unexpected {msg.kind!r}")
        state = LobbyState.from_wire(msg.body.get("state"), remote.fingerprint)
    except DecodeError as exc:
        raise PeerFault(f"host sent a bad lobby message: {exc.reason}", conn.peer) from None
    if on_state is not None:
        on_state(state)
    me = state.seat_of(identity.fingerprint)
    if state.phase == "playing":
        if me is None:
            raise LobbyRefusal("the game started without us")
        return state, me
    want = _wants_ready(ready)
    if me is not None and state.seats[me].ready != want:
        await conn.send(ready_message(want))
    return state, me


def _wants_ready(ready: bool | asyncio.Event) -> bool:
    return ready.is_set() if isinstance(ready, asyncio.Event) else ready
