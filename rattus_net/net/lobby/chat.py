"""Chat in a lobby, before the game (sans-IO): lines signed by the lobby's keys.

A line goes from its author over its lobby link to the host, who hands it on to every guest;
so that a guest can tell who wrote a line the host hands on (the host could not put words
in another's mouth), every line is signed by its author's lobby key (the key its seat is bound
to) over ``"rattus-net/v1/lobby-chat\\0" || inner``, where ``inner`` names the author (key
fingerprint), the table (its host's fingerprint: a line cannot be replayed at another table),
the author's line number and the text. Only seated players' lines count. The limits are the
table's (:mod:`protocol.chat`): :data:`~protocol.chat.MAX_CHARS` characters, a burst of
:data:`~protocol.chat.BURST` then one line a second per author; a bad line is dropped with a
note, never a reason to drop the link: chat is not the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from protocol.chat import HISTORY, MAX_CHARS, ChatMisuse, Rate
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import RemoteProtocolError
from protocol.safetext import safetext
from protocol.wire import WireValue, decode_message, encode_message
from rattus_net.net.chat import Said
from rattus_net.net.lobby.values import LobbyState

SeatKeys = Mapping[str, tuple[int, str, str, PublicIdentity]]
"""The seated players whose lines count: key fingerprint -> (seat, name, colour, key)."""

DOMAIN = b"rattus-net/v1/lobby-chat\x00"
KIND = "lobby/chat"
"""The kind of the lobby message that carries a line (``{"line": signed frame}``)."""


class BadLobbyLine(RemoteProtocolError):
    """A lobby chat line that is not shown (unsigned, of another table, malformed, too long,
    or from somebody without a seat)."""


@dataclass(frozen=True, slots=True)
class LobbyLine:
    """A checked line: its author's key ``fingerprint``, ``number``, ``text`` (as signed)."""

    fingerprint: str
    number: int
    text: str
    frame: bytes


def seat_keys(state: LobbyState) -> dict[str, tuple[int, str, str, PublicIdentity]]:
    """The :data:`SeatKeys` of a lobby's state."""
    return {s.fingerprint: (i, s.name, s.colour, s.public) for i, s in enumerate(state.seats)}


def is_chat(data: bytes) -> bool:
    """``data`` is a lobby message carrying a chat line (cheap: the kind only)."""
    try:
        return decode_message(data).kind == KIND
    except RemoteProtocolError:
        return False


@dataclass
class LobbyChat:
    """The chat of one lobby as one side holds it. ``host`` is the table's host key
    fingerprint; ``clock`` gives the time (seconds) for the rate."""

    host: str
    clock: Callable[[], float] = time.monotonic
    lines: list[Said] = field(default_factory=list)
    fresh: list[Said] = field(default_factory=list)
    """Notes made since whoever shows them last took them (a flood)."""
    _known: set[bytes] = field(default_factory=set)
    _rates: dict[str, Rate] = field(default_factory=dict)
    _next: int = 0

    def say(self, identity: Identity, seat: int, name: str, colour: str, text: str) -> bytes:
        """Our player's line (he sits at ``seat`` as ``name``, in ``colour``): the lobby
        message to send (the line is kept here too). ChatMisuse if it is empty or comes too
        fast."""
        text = text.strip()[:MAX_CHARS].rstrip()
        if not text:
            raise ChatMisuse("nothing to say")
        if not self.rate(identity.fingerprint).take(self.clock()):
            raise ChatMisuse("too many lines at once: wait a second")
        body: dict[str, WireValue] = {
            "a": identity.fingerprint,
            "h": self.host,
            "n": self._next,
            "text": text,
        }
        inner = encode_message("lobby/line", body)
        frame = encode_message("signed", {"m": inner, "s": identity.sign(DOMAIN + inner)})
        self._next += 1
        self._keep(frame, name, colour, text, seat)
        return encode_message(KIND, {"line": frame})

    def receive(
        self,
        data: bytes,
        seats: SeatKeys,
        *,
        link: str | None = None,
    ) -> tuple[Said, bytes] | None:
        """A lobby message carrying a line; ``seats`` maps the seated players' fingerprints to
        (seat, name, colour, key); ``link``: the fingerprint of the guest whose link it came on
        when it must be the author (at the host). The line for the screen and the frame to
        hand on, or None (known already, or past the author's rate: a note says so once).
        BadLobbyLine if it is no good line of a seated player.

        At the host (``link`` given: the link's guest must be the author) the rate is taken
        before the signature is checked, so a flood costs no check past it; a line handed on
        by the host is checked first, since only its signature says whose rate it takes."""
        if link is not None:
            if link not in seats:
                raise BadLobbyLine(link, "a chat line from somebody without a seat")
            if not self._within_rate(link, seats[link][1]):
                return None
            line = read_line(data, self.host, seats, link=link)
            if line.frame in self._known:
                return None
        else:
            line = read_line(data, self.host, seats, link=link)
            if line.frame in self._known or not self._within_rate(
                line.fingerprint, seats[line.fingerprint][1]
            ):
                return None
        seat, name, colour, _ = seats[line.fingerprint]
        return self._keep(line.frame, name, colour, line.text, seat), line.frame

    def _within_rate(self, fingerprint: str, name: str) -> bool:
        """Take one line from the allowance of ``fingerprint`` (seated as ``name``); past it,
        a note says so once."""
        rate = self.rate(fingerprint)
        if not rate.take(self.clock()):
            if not rate.flooding:
                rate.flooding = True
                self.note(f"{name} sends chat lines too fast: some are not shown")
            return False
        rate.flooding = False
        return True

    def note(self, text: str) -> Said:
        said = Said(None, safetext(text))
        self.lines = [*self.lines, said][-HISTORY:]
        self.fresh.append(said)
        return said

    def rate(self, fingerprint: str) -> Rate:
        """The allowance of lines of the player with that key (a bad line takes from it)."""
        return self._rates.setdefault(fingerprint, Rate())

    def _keep(self, frame: bytes, name: str, colour: str, text: str, seat: int | None) -> Said:
        self._known.add(frame)
        said = Said(seat, safetext(text), safetext(name), colour)
        self.lines = [*self.lines, said][-HISTORY:]
        return said


def read_line(
    data: bytes,
    host: str,
    seats: SeatKeys,
    *,
    link: str | None = None,
) -> LobbyLine:
    """Check a lobby chat message (see :meth:`LobbyChat.receive`); BadLobbyLine if it fails."""
    try:
        msg = decode_message(data, peer=link)
        frame = msg.body.get("line")
        if msg.kind != KIND or set(msg.body) != {"line"} or not isinstance(frame, bytes):
            raise BadLobbyLine(link, "not a lobby chat line")
        outer = decode_message(frame, peer=link)
        inner, sig = outer.body.get("m"), outer.body.get("s")
        if outer.kind != "signed" or not isinstance(inner, bytes) or not isinstance(sig, bytes):
            raise BadLobbyLine(link, "a lobby chat line must be signed")
        body = decode_message(inner, peer=link).body
    except BadLobbyLine:
        raise
    except RemoteProtocolError as exc:
        raise BadLobbyLine(link, exc.reason) from None
    author, number, text = body.get("a"), body.get("n"), body.get("text")
    if set(body) != {"a", "h", "n", "text"} or not isinstance(author, str):
        raise BadLobbyLine(link, "a lobby chat line names its author, table, number and text")
    if author not in seats:
        raise BadLobbyLine(link, "a chat line from somebody without a seat")
    if link is not None and author != link:
        raise BadLobbyLine(link, "sent another player's line as its own")
    try:
        seats[author][3].verify(DOMAIN + inner, sig, peer=link)
    except RemoteProtocolError:
        raise BadLobbyLine(link, "a lobby chat line with a wrong signature") from None
    if body["h"] != host:
        raise BadLobbyLine(link, "a chat line of another table")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1 << 40:
        raise BadLobbyLine(link, "a chat line's number must be a small integer")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHARS:
        raise BadLobbyLine(link, f"a chat line's text must be 1 to {MAX_CHARS} characters")
    return LobbyLine(author, number, text, frame)


__all__ = [
    "DOMAIN",
    "KIND",
    "BadLobbyLine",
    "LobbyChat",
    "LobbyLine",
    "SeatKeys",
    "is_chat",
    "read_line",
    "seat_keys",
]
