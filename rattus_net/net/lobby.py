"""The lobby: open a table, join it, take a seat, set options, get ready, start.

The core (:class:`LobbyCore`) is sans-IO: it holds the table's state and turns the guests'
messages into state changes or refusals, so every rule (seat limits, unique colours, options
only while nobody is ready, start only when every seat is taken and ready) is tested without a
socket. :class:`HostedTable` and :func:`join_table` are the asyncio adapters over the
transport; links are authenticated with :mod:`rattus_net.net.handshake`, so the table's host
key is the one whose fingerprint the advert shows, and every seat is bound to a key.

The lobby only decides *who* plays with which options; at the start it hands every seat the
roster (keys and addresses for the full mesh) and the game id. The game itself runs on the
mesh links that the peer node opens afterwards.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError, RemoteProtocolError
from protocol.wire import WireValue, decode_message, encode_message
from rattus_net.bots import BOT_KINDS
from rattus_net.engine.cells import cells
from rattus_net.games import DEFAULT_GAME, GAMES, GameDefinition, get_game
from rattus_net.games.base import TableOptionError
from rattus_net.net.handshake import Handshake
from rattus_net.net.handshake import field as body_field
from rattus_net.net.names import MAX_NAME, BadName, check_name
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    ConnectionClosed,
    Listener,
    PeerFault,
    TransportError,
    TransportLimits,
    Unreachable,
    VersionMismatch,
    connect,
)
from rattus_net.net.transport import HANDSHAKE_FRAME as HANDSHAKE_FRAME

JOIN_RETRY = 30.0
"""Seconds a guest keeps trying to get into a table that answered but dropped it before the
link was authenticated (its port full of strangers): with backoff, said each time."""
LOBBY_FRAME = 16 * 1024
"""Largest lobby message after authentication (a state of five seats is about 1 KiB)."""

SIT_TIMEOUT = 10.0
"""A lobby link that authenticated but has no seat after this long is closed."""

STARTED = "the game at this table has started"

log = logging.getLogger(__name__)

LOBBY_PURPOSE = "lobby"


class LobbyRefusal(Exception):
    """A lobby request was refused; ``reason`` is a one-line explanation for the user."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def clean_name(name: str, what: str = "player name") -> str:
    """``name`` checked by the one rule for names; LobbyRefusal saying what is wrong."""
    try:
        return check_name(name, what)
    except BadName as exc:
        raise LobbyRefusal(str(exc)) from None


def _wire_name(value: str, what: str, peer: str | None) -> str:
    """A name received from a peer: the same rule, a DecodeError (blame) if broken."""
    try:
        return check_name(value, what, exact=True)
    except BadName as exc:
        raise DecodeError(peer, str(exc)) from None


class NotNetworked(LobbyRefusal):
    """A game whose tables cannot be hosted or joined on the network (yet): its definition's
    ``network_play`` flag is off. The one place that says so, for the CLI and the TUI."""

    def __init__(self, game: GameDefinition) -> None:
        self.game = game
        others = " and ".join(g.title for g in network_games()) or "no game"
        super().__init__(
            f"{game.title} cannot be played on the network yet (network tables play {others} "
            f"for now); play it against bots: rattus play --game {game.name}"
        )


def network_games() -> tuple[GameDefinition, ...]:
    """The games whose tables can be hosted and joined, in the order of ``GAMES``."""
    return tuple(g for g in map(get_game, GAMES) if g.network_play)


def network_game(name: str) -> GameDefinition:
    """The game called ``name`` if it can be played at a network table; NotNetworked if its
    network play does not exist yet, LobbyRefusal if there is no such game."""
    try:
        game = get_game(name)
    except ValueError as exc:
        raise LobbyRefusal(str(exc)) from None
    if not game.network_play:
        raise NotNetworked(game)
    return game


SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")
"""The disc colours a seat sits with at a network table, in the order they are offered: the
lobby's, whatever the game (the five of Rattus Cartus's discs, whose configuration checks a
seat's colour against its own list; a Rattus table's seats take them too)."""

MAX_GAME_NAME = 32
"""Longest game name read from a peer (ours are a few letters; a longer one is not a game)."""


CARTUS_BUILDINGS = "random-cards"
"""The building selection of a table by default (a Rattus Cartus option)."""

OPTION_DEFAULTS: dict[str, Any] = {"buildings": CARTUS_BUILDINGS, "simultaneous_supply": False}
"""Every game option a lobby carries, by name, with its default: a game plays those it names
(``GameDefinition.table_options``) and checks their values; at a table of another game an
option is set back to its default."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Options of a table; the host may change them until somebody is ready. ``game`` names
    the game played (``rattus_net.games``); ``buildings`` and ``simultaneous_supply`` are
    Rattus Cartus's options: :meth:`check` sets an option back to its default at a table of a
    game that does not play it (``GameDefinition.table_options``: a Rattus table plays the
    shipped components, and has no other option) and lets the game check the others."""

    players: int = 3
    buildings: str = CARTUS_BUILDINGS
    simultaneous_supply: bool = False
    game: str = DEFAULT_GAME

    def check(self) -> TableOptions:
        game = network_game(self.game)
        if not game.min_players <= self.players <= game.max_players:
            raise LobbyRefusal(
                f"{game.title} is for {game.min_players} to {game.max_players} players"
            )
        unplayed = {k: v for k, v in OPTION_DEFAULTS.items() if k not in game.table_options}
        checked = self  # (another game's options are ignored: back to their defaults)
        if any(getattr(self, k) != v for k, v in unplayed.items()):
            checked = replace(self, **unplayed)
        try:
            game.check_table_options(checked.game_options())
        except TableOptionError as exc:
            raise LobbyRefusal(str(exc)) from None
        return checked

    def game_options(self) -> dict[str, Any]:
        """The game options of the table, by name (see ``OPTION_DEFAULTS``)."""
        return {k: getattr(self, k) for k in OPTION_DEFAULTS}

    @property
    def cartus_options(self) -> bool:
        """Whether a Rattus Cartus option is set away from its default (the command line
        refuses them for another game in one line)."""
        return self.buildings != CARTUS_BUILDINGS or self.simultaneous_supply

    @property
    def definition(self) -> GameDefinition:
        return get_game(self.game)

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "players": self.players,
            "buildings": self.buildings,
            "simultaneous": self.simultaneous_supply,
            "game": self.game,
            "game_version": self.definition.network_version,
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> TableOptions:
        """Options a host sent. A host of an older version names no game: Rattus Cartus,
        version 1. Another game, or another version of ours, is refused in one line."""
        if not isinstance(value, dict):
            raise DecodeError(peer, "options must be a map")
        players = body_field(value, "players", int, peer=peer)
        buildings = body_field(value, "buildings", str, peer=peer, max_len=2000)
        simultaneous = body_field(value, "simultaneous", bool, peer=peer)
        assert isinstance(players, int) and isinstance(buildings, str)
        name = value.get("game", DEFAULT_GAME)
        version = value.get("game_version", 1)
        if not isinstance(name, str) or len(name) > MAX_GAME_NAME:
            raise DecodeError(peer, "the game must be a short name")
        if not isinstance(version, int) or isinstance(version, bool):
            raise DecodeError(peer, "the game version must be a number")
        if name not in GAMES:
            raise DecodeError(peer, f"the table plays a game this program does not know ({name!r})")
        game = get_game(name)
        if version != game.network_version:
            raise DecodeError(
                peer,
                f"the table plays {game.title} version {version}; this program plays version "
                f"{game.network_version}",
            )
        try:
            return cls(players, buildings, bool(simultaneous), name).check()
        except LobbyRefusal as exc:
            raise DecodeError(peer, exc.reason) from None


@dataclass(frozen=True, slots=True)
class Seat:
    """One taken seat: who sits there (key), how to reach it for the game mesh, and status."""

    name: str
    colour: str
    sign_key: bytes
    host: str
    port: int
    bot: str | None = None
    ready: bool = False

    @property
    def fingerprint(self) -> str:
        return PublicIdentity(self.sign_key).fingerprint

    @property
    def public(self) -> PublicIdentity:
        return PublicIdentity(self.sign_key)

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "name": self.name,
            "colour": self.colour,
            "sign": self.sign_key,
            "host": self.host,
            "port": self.port,
            "bot": self.bot,
            "ready": self.ready,
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> Seat:
        if not isinstance(value, dict):
            raise DecodeError(peer, "a seat must be a map")
        name = body_field(value, "name", str, peer=peer, max_len=MAX_NAME * 4)
        colour = body_field(value, "colour", str, peer=peer)
        sign = body_field(value, "sign", bytes, peer=peer)
        host = body_field(value, "host", str, peer=peer, max_len=64)
        port = body_field(value, "port", int, peer=peer)
        ready = body_field(value, "ready", bool, peer=peer)
        bot = value.get("bot")
        assert isinstance(name, str) and isinstance(colour, str) and isinstance(host, str)
        assert isinstance(sign, bytes) and isinstance(port, int)
        if bot is not None and bot not in BOT_KINDS:
            raise DecodeError(peer, "unknown bot kind")
        if colour not in SEAT_COLOURS or not 0 < port < 65536:
            raise DecodeError(peer, "bad colour or port")
        PublicIdentity.from_bytes(sign, peer=peer)
        name = _wire_name(name, "player name", peer)
        return cls(name, colour, sign, host, port, bot, bool(ready))


@dataclass(frozen=True, slots=True)
class LobbyState:
    """Everything a guest sees of the lobby; at the start it is the game's roster."""

    table: str
    host_fingerprint: str
    options: TableOptions
    seats: tuple[Seat, ...] = ()
    phase: str = "open"  # open, full, playing
    nonce: bytes = b""
    """Fresh 32 bytes drawn by the host at the start; with the roster it fixes the game id."""

    @property
    def free(self) -> int:
        return self.options.players - len(self.seats)

    def seat_of(self, fingerprint: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.fingerprint == fingerprint:
                return i
        return None

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "table": self.table,
            "host": self.host_fingerprint,
            "options": self.options.to_wire(),
            "seats": [s.to_wire() for s in self.seats],
            "phase": self.phase,
            "nonce": self.nonce,
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> LobbyState:
        if not isinstance(value, dict):
            raise DecodeError(peer, "lobby state must be a map")
        table = body_field(value, "table", str, peer=peer)
        host = body_field(value, "host", str, peer=peer)
        seats = body_field(value, "seats", list, peer=peer, max_len=5)
        phase = body_field(value, "phase", str, peer=peer)
        nonce = body_field(value, "nonce", bytes, peer=peer, max_len=32)
        assert isinstance(table, str) and isinstance(host, str) and isinstance(seats, list)
        assert isinstance(phase, str) and isinstance(nonce, bytes)
        if phase not in ("open", "full", "playing"):
            raise DecodeError(peer, "unknown lobby phase")
        return cls(
            _wire_name(table, "table name", peer),
            host,
            TableOptions.from_wire(value.get("options"), peer),
            tuple(Seat.from_wire(s, peer) for s in seats),
            phase,
            nonce,
        )


def _phase(state: LobbyState) -> str:
    if state.phase == "playing":
        return "playing"
    return "full" if state.free <= 0 else "open"


@dataclass
class LobbyCore:
    """Sans-IO lobby of one table, run by its host. Methods raise LobbyRefusal."""

    state: LobbyState
    changes: int = 0
    on_change: list[Callable[[LobbyState], None]] = field(default_factory=list)

    @classmethod
    def open(cls, table: str, host: PublicIdentity, options: TableOptions) -> LobbyCore:
        """A new table; LobbyRefusal if its name or options are not fit."""
        return cls(LobbyState(clean_name(table, "table name"), host.fingerprint, options.check()))

    def _set(self, state: LobbyState) -> LobbyState:
        self.state = replace(state, phase=_phase(state))
        self.changes += 1
        for hook in self.on_change:
            hook(self.state)
        return self.state

    def _require_open(self) -> None:
        if self.state.phase == "playing":
            raise LobbyRefusal(STARTED)

    def sit(
        self,
        who: PublicIdentity,
        name: str,
        host: str,
        port: int,
        *,
        colour: str | None = None,
        bot: str | None = None,
    ) -> Seat:
        """Seat ``who`` (at the first free seat); a colour already taken is replaced by a
        free one, a name already taken gets a number."""
        self._require_open()
        if self.state.seat_of(who.fingerprint) is not None:
            raise LobbyRefusal("this key already has a seat at the table")
        if self.state.free <= 0:
            raise LobbyRefusal("the table is full")
        if bot is not None and bot not in BOT_KINDS:
            raise LobbyRefusal(f"unknown bot {bot!r}")
        if not 0 < port < 65536:
            raise LobbyRefusal("bad port")
        taken_colours = {s.colour for s in self.state.seats}
        if colour not in SEAT_COLOURS or colour in taken_colours:
            colour = next(c for c in SEAT_COLOURS if c not in taken_colours)
        base = clean_name(name)
        names = {s.name for s in self.state.seats}
        final, n = base, 2
        while final in names:
            cut = base
            while len(cut) + 3 > MAX_NAME or cells(cut) + 3 > MAX_NAME:
                cut = cut[:-1]  # (room for "-2" in characters and in terminal cells)
            final, n = f"{cut.rstrip()}-{n}", n + 1
        seat = Seat(final, colour, who.sign_key, host, port, bot)
        self._set(replace(self.state, seats=(*self.state.seats, seat)))
        return seat

    def leave(self, fingerprint: str) -> None:
        i = self.state.seat_of(fingerprint)
        if i is None or self.state.phase == "playing":
            return
        seats = self.state.seats[:i] + self.state.seats[i + 1 :]
        # somebody left: nobody should start a game they did not agree to with these people
        self._set(replace(self.state, seats=tuple(replace(s, ready=False) for s in seats)))

    def set_ready(self, fingerprint: str, ready: bool) -> None:
        self._require_open()
        i = self.state.seat_of(fingerprint)
        if i is None:
            raise LobbyRefusal("take a seat before getting ready")
        seats = list(self.state.seats)
        seats[i] = replace(seats[i], ready=ready)
        self._set(replace(self.state, seats=tuple(seats)))

    def set_colour(self, fingerprint: str, colour: str) -> bool:
        """Change a seat's disc colour to a free one; ``False`` (nothing changes) if somebody
        else took it meanwhile. Readiness is kept: a colour changes nothing in the game."""
        self._require_open()
        i = self.state.seat_of(fingerprint)
        if i is None:
            raise LobbyRefusal("take a seat before choosing a colour")
        if colour not in SEAT_COLOURS:
            raise LobbyRefusal(f"no colour {colour!r} (one of {', '.join(SEAT_COLOURS)})")
        if any(s.colour == colour for j, s in enumerate(self.state.seats) if j != i):
            return False
        seats = list(self.state.seats)
        seats[i] = replace(seats[i], colour=colour)
        self._set(replace(self.state, seats=tuple(seats)))
        return True

    def set_options(self, options: TableOptions) -> None:
        """Change the options (host only); everybody must confirm again by getting ready."""
        self._require_open()
        options = options.check()
        if options.players < len(self.state.seats):
            raise LobbyRefusal(f"{len(self.state.seats)} players are already seated")
        seats = tuple(replace(s, ready=False) for s in self.state.seats)
        self._set(replace(self.state, options=options, seats=seats))

    @property
    def can_start(self) -> bool:
        s = self.state
        return s.phase != "playing" and s.free == 0 and all(seat.ready for seat in s.seats)

    def start(self, nonce: bytes) -> LobbyState:
        if not self.can_start:
            raise LobbyRefusal("every seat must be taken and ready before the start")
        if len(nonce) != 32:
            raise ValueError("the start nonce is 32 bytes")
        return self._set(replace(self.state, phase="playing", nonce=nonce))

    def handle(self, who: PublicIdentity, host: str, data: bytes) -> None:
        """Apply one message from the guest ``who`` (whose observed address is ``host``).
        Raises DecodeError (blame) or LobbyRefusal (tell the guest)."""
        peer = who.fingerprint
        msg = decode_message(data, peer=peer)
        body = msg.body
        if msg.kind == "lobby/sit":
            # (a long name gets a clear refusal from sit(), not a drop: bounded by the frame)
            name = body_field(body, "name", str, peer=peer, max_len=4000)
            port = body_field(body, "port", int, peer=peer)
            colour = body.get("colour")
            bot = body.get("bot")
            assert isinstance(name, str) and isinstance(port, int)
            if not (colour is None or isinstance(colour, str)) or not (
                bot is None or isinstance(bot, str)
            ):
                raise DecodeError(peer, "colour and bot must be str or nil")
            self.sit(who, name, host, port, colour=colour, bot=bot)
        elif msg.kind == "lobby/ready":
            ready = body_field(body, "ready", bool, peer=peer)
            self.set_ready(peer, bool(ready))
        elif msg.kind == "lobby/colour":
            colour = body_field(body, "colour", str, peer=peer, max_len=20)
            if colour not in SEAT_COLOURS:
                raise DecodeError(peer, f"no colour {colour!r}")
            self.set_colour(peer, str(colour))  # a colour taken meanwhile: the state says so
        elif msg.kind == "lobby/leave":
            self.leave(peer)
        else:
            raise DecodeError(peer, f"unexpected lobby message {msg.kind!r}")


# -- messages ----------------------------------------------------------------------------------


def state_message(state: LobbyState) -> bytes:
    return encode_message("lobby/state", {"state": state.to_wire()})


def refuse_message(reason: str) -> bytes:
    return encode_message("lobby/refuse", {"reason": reason[:300]})


def sit_message(name: str, port: int, colour: str | None = None, bot: str | None = None) -> bytes:
    return encode_message("lobby/sit", {"name": name, "port": port, "colour": colour, "bot": bot})


def ready_message(ready: bool = True) -> bytes:
    return encode_message("lobby/ready", {"ready": ready})


def colour_message(colour: str) -> bytes:
    return encode_message("lobby/colour", {"colour": colour})


# -- asyncio adapters --------------------------------------------------------------------------


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
        self.started: asyncio.Future[LobbyState] = asyncio.get_running_loop().create_future()
        self.game_links: Callable[[Connection, Handshake], object] | None = None
        self.auto_start = True
        self.core.on_change.append(self._changed)

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
        (not the roster's addresses and keys); a link without a seat is closed after
        ``sit_timeout`` seconds and at the start; a seated guest is trusted (a connection slot
        of its own) and, once the game has started, only ever hears the started table."""
        fp = who.fingerprint
        state = self.core.state
        if state.phase == "playing" and state.seat_of(fp) is None:
            await conn.send(refuse_message(STARTED))
            await conn.close()
            return
        if fp in self.guests:
            raise PeerFault("a second lobby link with the same key", conn.peer)
        conn.frame_limit = min(LOBBY_FRAME, conn.limits.max_frame)
        guest = _GuestLink(conn)
        self.guests[fp] = guest
        conn.start_keepalive()
        deadline = time.monotonic() + self.sit_timeout
        try:
            guest.post(state_message(state))
            while True:
                seated = self.core.state.seat_of(fp) is not None
                if seated:
                    self.listener.trust(conn)
                wait = None if seated else deadline - time.monotonic()
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
            guest.writer.cancel()
            if self.guests.get(fp) is guest:
                del self.guests[fp]
            self.core.leave(fp)

    async def close(self) -> None:
        await self.listener.close()


class _GuestLink:
    """A lobby link seen from the host: everything said to the guest goes through one queue
    and one writer, so a refusal can never overtake the state that started the game."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
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
    backoff, each time said through ``say`` (see :func:`_enter`)."""
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
                if nudge is not None:
                    nudge.cancel()
                if posted is not None:
                    if posted.done():
                        await conn.send(posted.result())
                        continue
                    posted.cancel()
                if not recv.done():  # our player just got ready, or took it back
                    if ready_changed is not None:
                        ready_changed.clear()
                    want = _wants_ready(ready)
                    if state is not None and me is not None and state.seats[me].ready != want:
                        await conn.send(ready_message(want))
                    continue
                data = recv.result()
                recv = asyncio.ensure_future(conn.recv())
                try:
                    state, me = await _guest_step(conn, hs.remote, identity, data, on_state, ready)
                except LobbyRefusal as exc:
                    if me is not None and STARTED in exc.reason:
                        continue  # we hold a seat: the started table is on its way
                    raise
                if state.phase == "playing":
                    return state
        finally:
            recv.cancel()
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
        except (Unreachable, VersionMismatch):
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
