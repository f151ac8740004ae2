"""Chat at a network table: signed lines that are not the game (sans-IO).

A chat line is a *control* message (:data:`~protocol.messages.CHAT`: ``g``, ``a`` and ``x``
only, like an abort) signed by its seat's key, so a line shown under a name was written by
that seat, at this game. It carries no sequence number, transcript hash or step: it is never
part of the lockstep transcript, the session does not process it, and the verifier does not
judge it. A record may carry the lines it heard (``protocol/record.py``, its ``chat`` field),
and its verdict is the same with or without them.

Why a chat line is not evidence: it is signed, but what it says changes nothing in the game,
so a malformed or unwelcome line from a peer is dropped with a note, never an abort; only a
line whose signature checks is shown (a forged one says nothing about its claimed author).

What a peer does with lines (:class:`ChatBook`):

* a line is at most :data:`MAX_CHARS` characters (ours are cut to it; a peer's longer line is
  refused), never empty;
* each seat gets a burst of :data:`BURST` lines, then one line a second (:data:`PER_SECOND`);
  lines past that are dropped, with one note for the flood;
* a line is shown once (the same signed bytes heard twice, from its author and again in the
  history a peer resends on a new link, are one line); each of a seat's lines carries its own
  number, so saying "ok" twice is two lines.

The text stays as its author signed it: whoever shows it makes it safe first
(:func:`protocol.safetext.safetext`), so that no line can drive a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.messages import CHAT, open_frame, sign
from protocol.wire import WireValue

MAX_CHARS = 300
"""The longest chat line, in characters (a line of ours is cut to it, a peer's is refused)."""
BURST = 5
"""Lines a seat may send at once before the rate limit holds its lines back."""
PER_SECOND = 1.0
"""Lines a seat may send each second after its burst."""
HISTORY = 200
"""Lines kept for the record and resent to a peer on a new link (the last ones)."""


class BadChat(RemoteProtocolError):
    """A peer's chat frame that is not shown: unsigned, of another game, malformed or too
    long. Not evidence against the game (chat is not the game): the frame is dropped."""


class ChatMisuse(LocalProtocolError):
    """Our own player's line cannot be sent (empty, too fast, or no seat of ours)."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at the table: ``author`` (a seat), its ``number`` among the author's
    lines, its ``text`` as signed (not yet safe to show), and the signed ``frame``."""

    author: int
    number: int
    text: str
    frame: bytes


def chat_frame(identity: Identity, game_id: bytes, seat: int, number: int, text: str) -> bytes:
    """The signed frame of a line (``text`` as it is: :meth:`ChatBook.say` cuts it)."""
    body: dict[str, WireValue] = {"g": game_id, "a": seat, "x": {"n": number, "text": text}}
    return sign(identity, CHAT, body)


def read_chat(
    frame: bytes,
    game_id: bytes,
    identities: tuple[PublicIdentity, ...],
    names: tuple[str, ...],
    link: str | None = None,
) -> ChatLine:
    """Check a chat frame (signature, game, shape, length); :class:`BadChat` if it fails."""
    try:
        msg = open_frame(frame, game_id, identities, names, link=link)
    except RemoteProtocolError as exc:
        raise BadChat(exc.peer, exc.reason) from None
    who = names[msg.author]
    if msg.kind != CHAT:
        raise BadChat(who, f"a {msg.kind} message where a chat line was expected")
    number, text = msg.payload.get("n"), msg.payload.get("text")
    if set(msg.payload) != {"n", "text"}:
        raise BadChat(who, "a chat line holds a number and a text")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1 << 40:
        raise BadChat(who, "a chat line's number must be a small integer")
    if not isinstance(text, str) or not text.strip():
        raise BadChat(who, "a chat line's text must be a non-empty str")
    if len(text) > MAX_CHARS:
        raise BadChat(who, f"a chat line of {len(text)} characters (at most {MAX_CHARS})")
    return ChatLine(msg.author, number, text, frame)


@dataclass(slots=True)
class Rate:
    """One author's allowance of lines (a token bucket: ``BURST`` at once, then
    ``PER_SECOND``); ``flooding``: lines were dropped since the last one shown (noted once)."""

    tokens: float = float(BURST)
    at: float | None = None
    flooding: bool = False

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(float(BURST), self.tokens + (now - self.at) * PER_SECOND)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class ChatBook:
    """The chat of one table as one peer holds it (sans-IO: time is passed in).

    ``seat``/``identity`` are ours (``None``: an observer, who cannot say anything)."""

    game_id: bytes
    identities: tuple[PublicIdentity, ...]
    names: tuple[str, ...]
    seat: int | None = None
    identity: Identity | None = None
    lines: list[ChatLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was dropped, in words (for the screen; taken by whoever shows them)."""
    _known: set[bytes] = field(default_factory=set)
    _buckets: dict[int, Rate] = field(default_factory=dict)
    _next: int = 0

    @property
    def frames(self) -> list[bytes]:
        """The signed frames of the lines kept (the last :data:`HISTORY`), oldest first."""
        return [line.frame for line in self.lines]

    def say(self, text: str, now: float) -> ChatLine:
        """Our player's line, signed and kept (the caller sends ``.frame`` to every peer):
        cut to :data:`MAX_CHARS`. :class:`ChatMisuse` if it is empty or comes too fast."""
        if self.seat is None or self.identity is None:
            raise ChatMisuse("only a seat at the table can chat")
        text = text.strip()[:MAX_CHARS].rstrip()
        if not text:
            raise ChatMisuse("nothing to say")
        if not self.rate(self.seat).take(now):
            raise ChatMisuse("too many lines at once: wait a second")
        line = ChatLine(
            self.seat,
            self._next,
            text,
            chat_frame(self.identity, self.game_id, self.seat, self._next, text),
        )
        self._add(line)
        return line

    def receive(self, frame: bytes, now: float, link: int | None = None) -> ChatLine | None:
        """A line heard live from ``link``'s peer (who must be its author): the new line, or
        None if it was already known or the author's rate is exceeded (noted once).
        :class:`BadChat` if it is not a good line from that peer."""
        link_name = self.names[link] if link is not None else None
        line = read_chat(frame, self.game_id, self.identities, self.names, link_name)
        if link is not None and line.author != link:
            raise BadChat(link_name, "sent another seat's line as its own")
        if frame in self._known:
            return None
        bucket = self.rate(line.author)
        if not bucket.take(now):
            if not bucket.flooding:
                bucket.flooding = True
                self.notes.append(
                    f"{self.names[line.author]} sends chat lines too fast: some are not shown"
                )
            return None
        bucket.flooding = False
        self._add(line)
        return line

    def keep(self, frame: bytes) -> ChatLine | None:
        """A line from our journal, or from the history a peer resends on a new link (no
        rate: those lines were limited when they were first said). None if known already;
        :class:`BadChat` if it is no good line of this game."""
        line = read_chat(frame, self.game_id, self.identities, self.names)
        if frame in self._known:
            return None
        self._add(line)
        return line

    def keep_all(self, frames: Sequence[bytes]) -> list[ChatLine]:
        """:meth:`keep` for many frames, bad ones left out: the new lines."""
        new: list[ChatLine] = []
        for frame in frames:
            try:
                line = self.keep(frame)
            except BadChat:
                continue
            if line is not None:
                new.append(line)
        return new

    def rate(self, seat: int) -> Rate:
        """``seat``'s allowance of lines (a bad line of its may take from it too)."""
        return self._buckets.setdefault(seat, Rate())

    def _add(self, line: ChatLine) -> None:
        self._known.add(line.frame)
        self.lines.append(line)
        if line.author == self.seat:
            self._next = max(self._next, line.number + 1)
        if len(self.lines) > HISTORY:
            del self.lines[: len(self.lines) - HISTORY]


__all__ = [
    "BURST",
    "HISTORY",
    "MAX_CHARS",
    "PER_SECOND",
    "BadChat",
    "ChatBook",
    "ChatLine",
    "ChatMisuse",
    "Rate",
    "chat_frame",
    "read_chat",
]
