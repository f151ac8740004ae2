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

*Control* messages (``evidence``, ``abort``) carry ``g``, ``a`` and ``x`` only: they are not part
of the game's transcript and may be sent at any time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError
from protocol.wire import DEFAULT_LIMITS, Limits, WireValue, decode_message, encode_message
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DeclineAction,
    DiscardHandles,
    EnterHidden,
    GiveHandles,
    HandleMove,
    Look,
    Move,
    PassHandle,
    Supply,
    TakeAction,
)

SIG_DOMAIN = b"rattus-net/v1/message\x00"
ZERO_HASH = bytes(32)

HELLO = "hello"
RAND_COMMIT = "rand-commit"
RAND_REVEAL = "rand-reveal"
SHUFFLE = "shuffle"
SHARES = "shares"
OPEN = "open"
MOVE = "move"
SUPPLY_COMMIT = "supply-commit"
SUPPLY_OPEN = "supply-open"
KEYS = "keys"
MIX = "mix"
CHAINED_KINDS = frozenset(
    {
        HELLO,
        RAND_COMMIT,
        RAND_REVEAL,
        SHUFFLE,
        SHARES,
        OPEN,
        MOVE,
        SUPPLY_COMMIT,
        SUPPLY_OPEN,
        KEYS,
        MIX,
    }
)
EVIDENCE = "evidence"
ABORT = "abort"
CONTROL_KINDS = frozenset({EVIDENCE, ABORT})


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
    inner = encode_message(kind, body)
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
    if msg.kind in CONTROL_KINDS:
        if set(body) != {"g", "a", "x"}:
            raise DecodeError(author, "bad control message header", frame)
        return Signed(frame, inner, msg.kind, a, h, payload)
    if msg.kind not in CHAINED_KINDS:
        raise DecodeError(author, f"unknown message kind {msg.kind!r}", frame)
    if set(body) != {"g", "a", "q", "p", "t", "h", "s", "x"}:
        raise DecodeError(author, "bad message header", frame)
    seen = body["s"]
    if not isinstance(seen, list) or len(seen) != n:
        raise DecodeError(author, "seen must list one hash per seat", frame)
    return Signed(
        frame,
        inner,
        msg.kind,
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


# --- moves on the wire ------------------------------------------------------------------------

WireMove = Move | HandleMove


def move_to_wire(move: WireMove, commitment: bytes | None = None) -> dict[str, WireValue]:
    """The public form of a move: what every peer receives (handles, never hidden faces)."""
    match move:
        case Supply(card, looks):
            return {"t": "supply", "c": card, "l": list(looks)}
        case EnterHidden(building, count):
            if commitment is None:
                raise ValueError("entering needs the commitment to the laid handles")
            return {"t": "enter", "b": building, "n": count, "c": commitment}
        case PassHandle(handle):
            return {"t": "pass", "h": handle}
        case GiveHandles(handles):
            return {"t": "give", "h": list(handles)}
        case DiscardHandles(handles):
            return {"t": "discard", "h": list(handles)}
        case Look(positions):
            return {"t": "look", "p": list(positions)}
        case ChoosePlayer(player):
            return {"t": "choose", "p": player}
        case TakeAction():
            return {"t": "take"}
        case DeclineAction():
            return {"t": "decline"}
    raise ValueError(f"this move has no wire form: {move!r}")


def _ints(value: WireValue, what: str, peer: str, limit: int = 64) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > limit:
        raise DecodeError(peer, f"{what} must be a short list of integers")
    return tuple(_int(v, what, 0, 1 << 20, peer) for v in value)


def move_from_wire(value: WireValue, peer: str) -> tuple[WireMove, bytes | None]:
    """Parse a wire move (and the commitment of an ``enter``); DecodeError naming ``peer``."""
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise DecodeError(peer, "a move is a map with a type")
    t = value["t"]
    keys = {
        "supply": {"t", "c", "l"},
        "enter": {"t", "b", "n", "c"},
        "pass": {"t", "h"},
        "give": {"t", "h"},
        "discard": {"t", "h"},
        "look": {"t", "p"},
        "choose": {"t", "p"},
        "take": {"t"},
        "decline": {"t"},
    }.get(str(t))
    if keys is None or set(value) != keys:
        raise DecodeError(peer, f"malformed {t!r} move")
    if t == "supply":
        return Supply(_int(value["c"], "card", 0, 64, peer), _ints(value["l"], "looks", peer)), None
    if t == "enter":
        move = EnterHidden(
            _int(value["b"], "building", 0, 64, peer), _int(value["n"], "count", 0, 200, peer)
        )
        return move, _bytes(value["c"], "commitment", 32, peer)
    if t == "pass":
        return PassHandle(_int(value["h"], "handle", 0, 1 << 20, peer)), None
    if t == "give":
        return GiveHandles(_ints(value["h"], "handles", peer, 200)), None
    if t == "discard":
        return DiscardHandles(_ints(value["h"], "handles", peer, 200)), None
    if t == "look":
        return Look(_ints(value["p"], "positions", peer)), None
    if t == "take":
        return TakeAction(), None
    if t == "decline":
        return DeclineAction(), None
    return ChoosePlayer(_int(value["p"], "player", 0, 64, peer)), None
