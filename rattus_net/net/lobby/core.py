"""The lobby's core, sans-IO: seats, readiness, colours, options and the start, as rules.

:class:`LobbyCore` holds the table's state and turns the guests' messages into state changes
or refusals, so every rule (seat limits, unique colours, options only while nobody is ready,
start only when every seat is taken and ready) is tested without a socket. The messages the
lobby speaks are built here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from protocol.chat import ChatMisuse
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError
from protocol.wire import decode_message, encode_message
from rattus_net.kit.cells import cells
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.net.chat import Said
from rattus_net.net.handshake import field as body_field
from rattus_net.net.lobby.chat import KIND as CHAT_KIND
from rattus_net.net.lobby.chat import BadLobbyLine, LobbyChat, seat_keys
from rattus_net.net.lobby.values import (
    SEAT_COLOURS,
    STARTED,
    LobbyRefusal,
    LobbyState,
    Seat,
    TableOptions,
    _phase,
    clean_name,
)
from rattus_net.net.names import MAX_NAME


@dataclass
class LobbyCore:
    """Sans-IO lobby of one table, run by its host. Methods raise LobbyRefusal."""

    state: LobbyState
    changes: int = 0
    on_change: list[Callable[[LobbyState], None]] = field(default_factory=list)
    chat: LobbyChat | None = None
    on_chat: list[Callable[[bytes | None, Said], None]] = field(default_factory=list)
    """Told of each chat line (the lobby message to hand on to every guest) and each note
    (no message)."""

    @classmethod
    def open(cls, table: str, host: PublicIdentity, options: TableOptions) -> LobbyCore:
        """A new table; LobbyRefusal if its name or options are not fit."""
        state = LobbyState(clean_name(table, "table name"), host.fingerprint, options.check())
        return cls(state, chat=LobbyChat(host.fingerprint))

    # -- chat (not the table: a bad line is dropped with a note) ---------------------------

    def say(self, identity: Identity, text: str) -> None:
        """The host's own line (ChatMisuse if it cannot be sent: no seat, empty, too fast)."""
        i = self.state.seat_of(identity.fingerprint)
        if i is None or self.chat is None:
            raise ChatMisuse("take a seat before chatting")
        seat = self.state.seats[i]
        data = self.chat.say(identity, i, seat.name, seat.colour, text)
        self._chat(data, self.chat.lines[-1])

    def heard_chat(self, who: str, data: bytes) -> None:
        """A line from the guest ``who`` (its key fingerprint): handed on, or noted."""
        if self.chat is None:
            return
        try:
            got = self.chat.receive(data, seat_keys(self.state), link=who)
        except BadLobbyLine as exc:
            i = self.state.seat_of(who)
            if i is not None:  # (the line took from his rate already: a flood stays quiet)
                name = self.state.seats[i].name
                self.chat.note(f"{name}'s chat line is not shown ({exc.reason})")
            got = None
        for note in self.chat.fresh:
            self._chat(None, note)
        self.chat.fresh.clear()
        if got is not None:
            self._chat(data, got[0])

    def _chat(self, data: bytes | None, said: Said) -> None:
        for hook in self.on_chat:
            hook(data, said)

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
        elif msg.kind == CHAT_KIND:
            self.heard_chat(peer, data)
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
