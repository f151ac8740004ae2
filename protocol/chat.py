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
  lines past that are dropped, with one note for the flood. The rate is taken *before* the
  signature is checked (a check costs far more than a look-up): a seat that floods its link
  costs one check a line only up to its rate;
* a line is shown once (the same signed bytes heard twice, from its author and again in the
  history a peer resends on a new link, are one line); each of a seat's lines carries its own
  number, so saying "ok" twice is two lines;
* the history a peer resends on a new link (:meth:`ChatBook.resent`) brings only lines of
  *other* authors (its own lines it sends live, under their author's rate), and each of them
  counts against its author's rate: the allowance an author did not use while the link was
  away (up to :data:`HISTORY` lines) lets what was said meanwhile through, and no more. So a
  seat cannot pass new lines of its own as history, however often it reconnects;
* each author keeps at most :data:`PER_AUTHOR` lines in one game: a seat that fills its share
  (at its rate, over a long game) silences itself only, never the others.

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
"""Lines kept for the record and resent to a peer on a new link (the last ones); also the
most lines of one author a resent history may bring at once (what it said while away)."""
PER_AUTHOR = 1000
"""Lines one author may say in one game (kept, shown, journaled); past them its lines are
dropped, with one note, and the other seats chat on."""


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
    """One allowance of lines (a token bucket refilled at ``per_second``): a live line may
    take from at most :data:`BURST` saved tokens, a resent line (what was said while a link
    was away) from up to :data:`HISTORY`. A fresh allowance holds :data:`HISTORY` (a peer
    that starts, or resumes, has missed what was said before). ``flooding``: lines were
    dropped since the last one taken (noted once)."""

    tokens: float = float(HISTORY)
    at: float | None = None
    flooding: bool = False
    per_second: float = PER_SECOND

    def take(self, now: float, cap: int = BURST) -> bool:
        """Take one line at ``now`` if the allowance, saved up to ``cap`` tokens, holds it."""
        gained = 0.0 if self.at is None else max(0.0, now - self.at) * self.per_second
        self.tokens = min(float(cap), self.tokens + gained)
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
    _resends: dict[int, Rate] = field(default_factory=dict)
    _count: dict[int, int] = field(default_factory=dict)
    _full: set[int] = field(default_factory=set)
    _next: int = 0

    @property
    def frames(self) -> list[bytes]:
        """The signed frames of the lines kept (the last :data:`HISTORY`), oldest first."""
        return [line.frame for line in self.lines]

    def say(self, text: str, now: float) -> ChatLine:
        """Our player's line, signed and kept (the caller sends ``.frame`` to every peer):
        cut to :data:`MAX_CHARS`. :class:`ChatMisuse` if it is empty, comes too fast, or we
        said all the lines one game keeps."""
        if self.seat is None or self.identity is None:
            raise ChatMisuse("only a seat at the table can chat")
        text = text.strip()[:MAX_CHARS].rstrip()
        if not text:
            raise ChatMisuse("nothing to say")
        if self.count(self.seat) >= PER_AUTHOR:
            raise ChatMisuse(f"you said the {PER_AUTHOR} lines one game keeps")
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
        None if it was already known, its author said all it may, or the author's rate is
        exceeded (noted once). The rate is taken before the signature is checked, so a flood
        costs no check past it. :class:`BadChat` if it is not a good line from that peer."""
        if frame in self._known:
            return None
        if link is not None and not self._allowed(link, now, BURST):
            return None
        link_name = self.names[link] if link is not None else None
        line = read_chat(frame, self.game_id, self.identities, self.names, link_name)
        if link is not None and line.author != link:
            raise BadChat(link_name, "sent another seat's line as its own")
        if link is None and not self._allowed(line.author, now, BURST):
            return None
        self._add(line)
        return line

    def resent(self, frame: bytes, now: float, link: int) -> ChatLine | None:
        """A line of the history ``link``'s peer resends on a new link: a line of another
        author (its own come live: :meth:`receive`), counted against that author's rate with
        what it saved while away (:class:`Rate`). None if known already, past the rate, or
        past what the link may resend at once (its checks are limited before the signature
        is: :data:`HISTORY` lines, then what the seats may say meanwhile). :class:`BadChat`
        if it is no good line of another seat of this game."""
        if frame in self._known:
            return None
        resends = self._resends.setdefault(link, Rate(per_second=PER_SECOND * len(self.names)))
        if not resends.take(now, HISTORY):
            return None
        line = read_chat(frame, self.game_id, self.identities, self.names, self.names[link])
        if line.author == link:
            raise BadChat(self.names[link], "resent a line of its own as history")
        if not self._allowed(line.author, now, HISTORY):
            return None
        self._add(line)
        return line

    def keep(self, frame: bytes) -> ChatLine | None:
        """A line from our journal or a record (no rate: those lines were limited when they
        were heard). None if known already, or its author said all it may;
        :class:`BadChat` if it is no good line of this game."""
        if frame in self._known:
            return None
        line = read_chat(frame, self.game_id, self.identities, self.names)
        if self.count(line.author) >= PER_AUTHOR:
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

    def count(self, seat: int) -> int:
        """The lines of ``seat`` kept in this game (at most :data:`PER_AUTHOR`)."""
        return self._count.get(seat, 0)

    def _allowed(self, author: int, now: float, cap: int) -> bool:
        """One more line of ``author`` may be kept now (its share and its rate); a note, once
        for each flood, when it may not."""
        name = self.names[author]
        if self.count(author) >= PER_AUTHOR:
            if author not in self._full:
                self._full.add(author)
                self.notes.append(f"{name} said the {PER_AUTHOR} lines one game keeps")
            return False
        bucket = self.rate(author)
        if not bucket.take(now, cap):
            if not bucket.flooding:
                bucket.flooding = True
                self.notes.append(f"{name} sends chat lines too fast: some are not shown")
            return False
        bucket.flooding = False
        return True

    def _add(self, line: ChatLine) -> None:
        self._known.add(line.frame)
        self._count[line.author] = self.count(line.author) + 1
        self.lines.append(line)
        if line.author == self.seat:
            self._next = max(self._next, line.number + 1)
        if len(self.lines) > HISTORY:
            del self.lines[: len(self.lines) - HISTORY]


__all__ = [
    "BURST",
    "HISTORY",
    "MAX_CHARS",
    "PER_AUTHOR",
    "PER_SECOND",
    "BadChat",
    "ChatBook",
    "ChatLine",
    "ChatMisuse",
    "Rate",
    "chat_frame",
    "read_chat",
]
