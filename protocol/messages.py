"""Signed messages: the envelope every peer sends, and the wire form of moves.

A frame on the wire is ``encode_message("signed", {"m": inner, "s": sig})`` where ``inner`` is
itself a canonical message ``{v, k, b}`` and ``sig`` is the author's Ed25519 signature over
``"rattus-net/v1/message\\0" || inner``: the signature covers the exact bytes, and because the
encoding is canonical those bytes are the only encoding of the message.

The body of a *chained* message (every message of the game proper) is::

    g  game id (32 bytes)          a  author seat
    q  author's sequence number     p  hash of the author's previous message (zeros at q = 0)
    t  protocol step index          h  transcript hash before this step
    s  per-author hash of the last message the author had processed from each seat
    x  the payload (depends on the kind)

*Control* messages (``evidence``, ``abort``, ``chat``) carry ``g``, ``a`` and ``x`` only: they are
not part of the game's transcript and may be sent at any time (a chat line is not the game at
all: see ``protocol/chat.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError
from protocol.wire import DEFAULT_LIMITS, Limits, WireValue, decode_message, encode_message
from rattus_net.kit.interface import AnySecureGame, WireError

SIG_DOMAIN = b"rattus-net/v1/message\x00"
ZERO_HASH = bytes(32)

HELLO = "hello"
RAND_COMMIT = "rand-commit"
RAND_REVEAL = "rand-reveal"
SHUFFLE = "shuffle"
SHARES = "shares"
OPEN = "open"
MOVE = "move"
COMMIT_MOVES = "commit-moves"
"""Every seat that decides at once commits to its move (a hash), seeing no other's first."""
OPEN_MOVES = "open-moves"
"""Then each opens its committed move (the move and the commitment's salt)."""
KEYS = "keys"
PRIVATE_MIX = "private-mix"
"""A seat mixes its own cards (re-masked in an order only it knows, with a shuffle proof)."""
CHAINED_KINDS = frozenset(
    {
        HELLO,
        RAND_COMMIT,
        RAND_REVEAL,
        SHUFFLE,
        SHARES,
        OPEN,
        MOVE,
        COMMIT_MOVES,
        OPEN_MOVES,
        KEYS,
        PRIVATE_MIX,
    }
)

OLD_KIND_NAMES = {"supply-commit": COMMIT_MOVES, "supply-open": OPEN_MOVES, "mix": PRIVATE_MIX}
"""Kinds under the names the first game gave them (Rattus Cartus's simultaneous choice of
supplies, its mixed hands) -> their names now. Every signed record and journal written so far
uses the old names: :func:`open_frame` reads them as the new ones, and the signature still
covers the exact bytes received."""
WRITES_OLD_KIND_NAMES = True
"""Whether :func:`sign` writes the old names. It does: the names are inside the transcript
every later message signs over, so a game journaled by an older build resumes only if its
messages are written again byte for byte (``tests/replay/test_old_records.py``); the new
names are the code's, the wire keeps the first ones."""
_WRITTEN_KIND = {new: old for old, new in OLD_KIND_NAMES.items()} if WRITES_OLD_KIND_NAMES else {}
COMMITMENT_DOMAIN = b"supply"
"""The domain of a committed move's hash (with the game id, step and seat): the first game's
word, kept because every commitment signed so far is made in it."""

EVIDENCE = "evidence"
ABORT = "abort"
CHAT = "chat"
CONTROL_KINDS = frozenset({EVIDENCE, ABORT, CHAT})


def digest(inner: bytes) -> bytes:
    """The hash of a message: SHA-256 of its signed inner bytes."""
    return hashlib.sha256(inner).digest()


@dataclass(frozen=True, slots=True)
class Signed:
    """A received (or sent) message whose signature has been checked."""

    frame: bytes
    inner: bytes
    kind: str
    author: int
    hash: bytes
    payload: dict[str, WireValue]
    seq: int = -1
    prev: bytes = ZERO_HASH
    step: int = -1
    th: bytes = ZERO_HASH
    seen: tuple[bytes, ...] = ()

    @property
    def chained(self) -> bool:
        return self.kind in CHAINED_KINDS


def sign(identity: Identity, kind: str, body: dict[str, WireValue]) -> bytes:
    """The frame of a new message signed by ``identity``."""
    inner = encode_message(_WRITTEN_KIND.get(kind, kind), body)
    return encode_message("signed", {"m": inner, "s": identity.sign(SIG_DOMAIN + inner)})


def _int(value: WireValue, what: str, low: int, high: int, peer: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DecodeError(peer, f"{what} must be an integer in [{low}, {high}]")
    return value


def _bytes(value: WireValue, what: str, size: int, peer: str | None) -> bytes:
    if not isinstance(value, bytes) or len(value) != size:
        raise DecodeError(peer, f"{what} must be {size} bytes")
    return value


def open_frame(
    frame: bytes,
    game_id: bytes,
    identities: tuple[PublicIdentity, ...],
    names: tuple[str, ...],
    limits: Limits = DEFAULT_LIMITS,
    *,
    link: str | None = None,
) -> Signed:
    """Decode a frame and check its signature and header; raise RemoteProtocolError.

    ``link`` names whoever handed us the bytes (blamed for undecodable or forged frames);
    errors about a correctly signed message name its author."""
    outer = decode_message(frame, limits, peer=link)
    if outer.kind != "signed" or set(outer.body) != {"m", "s"}:
        raise DecodeError(link, "not a signed frame", frame)
    inner, sig = outer.body["m"], outer.body["s"]
    if not isinstance(inner, bytes) or not isinstance(sig, bytes):
        raise DecodeError(link, "signed frame fields must be bytes", frame)
    msg = decode_message(inner, limits, peer=link)
    body = msg.body
    n = len(identities)
    a = body.get("a")
    if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < n:
        raise DecodeError(link, "author must be a seat", frame)
    author = names[a]
    blame_forgery = link if link is not None else author
    identities[a].verify(SIG_DOMAIN + inner, sig, peer=blame_forgery)
    if body.get("g") != game_id:
        raise DecodeError(author, "message of another game", frame)
    payload = body.get("x")
    if not isinstance(payload, dict):
        raise DecodeError(author, "payload must be a map", frame)
    h = digest(inner)
    kind = OLD_KIND_NAMES.get(msg.kind, msg.kind)
    if kind in CONTROL_KINDS:
        if set(body) != {"g", "a", "x"}:
            raise DecodeError(author, "bad control message header", frame)
        return Signed(frame, inner, kind, a, h, payload)
    if kind not in CHAINED_KINDS:
        raise DecodeError(author, f"unknown message kind {kind!r}", frame)
    if set(body) != {"g", "a", "q", "p", "t", "h", "s", "x"}:
        raise DecodeError(author, "bad message header", frame)
    seen = body["s"]
    if not isinstance(seen, list) or len(seen) != n:
        raise DecodeError(author, "seen must list one hash per seat", frame)
    return Signed(
        frame,
        inner,
        kind,
        a,
        h,
        payload,
        seq=_int(body["q"], "sequence number", 0, 1 << 40, author),
        prev=_bytes(body["p"], "previous hash", 32, author),
        step=_int(body["t"], "step", 0, 1 << 40, author),
        th=_bytes(body["h"], "transcript hash", 32, author),
        seen=tuple(_bytes(x, "seen hash", 32, author) for x in seen),
    )


def check_equivocation(m1: Signed, m2: Signed) -> bool:
    """True if two correctly signed chained messages prove their author equivocated."""
    return (
        m1.chained
        and m2.chained
        and m1.author == m2.author
        and m1.seq == m2.seq
        and m1.inner != m2.inner
    )


def check_fork(m1: Signed, m2: Signed) -> bool:
    """True if two correctly signed chained messages prove that their author signed two
    messages for one place of its chain: the same sequence number twice (an equivocation), or
    a message whose previous hash is not the message before it (it signed another one)."""
    return check_equivocation(m1, m2) or (
        m1.chained
        and m2.chained
        and m1.author == m2.author
        and m2.seq == m1.seq + 1
        and m2.prev != m1.hash
    )


# --- moves on the wire ------------------------------------------------------------------------


def move_to_wire(move: Any, commitment: bytes | None, game: AnySecureGame) -> dict[str, WireValue]:
    """The public form of a move: what every peer receives (handles, never hidden faces).
    ``game``: the game's secure interface."""
    return game.move_to_wire(move, commitment)


def move_from_wire(value: WireValue, peer: str, game: AnySecureGame) -> tuple[Any, bytes | None]:
    """Parse a wire move (and the commitment of its hidden part); DecodeError naming ``peer``,
    whatever the game's parser raised (a move is a peer's bytes: it can never crash us)."""
    try:
        return game.move_from_wire(value)
    except WireError as exc:
        raise DecodeError(peer, str(exc)) from None
    except Exception as exc:  # (a parser's own ValueError, RecursionError...: still bad input)
        raise DecodeError(peer, f"unreadable move ({type(exc).__name__})") from None
