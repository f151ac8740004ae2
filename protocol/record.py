"""The signed record of a secure game: its file format (``encode_record``, ``decode_record``).

A record is one canonical msgpack map::

    format   "rattus-secure-record"      version  4
    game     the game's name ("cartus", "rattus"), as in the parameters
    params   the agreed GameParams (game, players, options, identities, nonce): hash = game id
    messages every signed frame of the transcript, in processing order
    abort    nil, or the writer's signed abort message (blamed seat, reason, evidence frames)
    chat     (only if anybody chatted) the signed chat lines the writer heard, oldest first:
             not judged by the verifier, which gives the same verdict without them

Nothing in it needs to be trusted: every message is signed by its author and carries the game
id, which hashes the parameters, so changing any byte of the file breaks a signature, the
canonical encoding, a hash chain or the game id. What a record proves is the verifier's
business (``protocol/verify.py``); this module only writes and reads the file, so a session
can write its record without knowing how records are judged.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.params import GameParams
from protocol.safetext import safetext
from protocol.wire import Limits, WireValue, decode_value, encode_value

FORMAT = "rattus-secure-record"
VERSION = 4
"""4: the parameters of every game name it (Rattus Cartus's too), so every game id hashes its
game. 3: the record names the game. 2: actions may be declined (ruling 17), hands are mixed
right after a gift, the identities have no X25519 key. An older record hashes or replays
otherwise, so it is refused, never judged."""
MAX_RECORD_BYTES = 8 << 20
"""The largest record accepted, checked before parsing: a 5-player game's record is about
0.6 MB, so this leaves a margin of more than ten while a crafted file is refused at once."""
RECORD_LIMITS = Limits(max_size=MAX_RECORD_BYTES, max_array_len=1 << 16, max_depth=8)


MAP_HEADS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}
"""The first bytes a record can have: msgpack's map headers (a fixmap, map 16, map 32)."""


class RecordFormatError(ProtocolError):
    """The bytes are not a secure game record."""


def is_text(data: bytes) -> bool:
    """``data`` reads as text (UTF-8 without NUL bytes): a file a person wrote or saved."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return "\0" not in text


def encode_record(
    params: GameParams,
    transcript: Sequence[bytes],
    abort: bytes | None,
    chat: Sequence[bytes] = (),
) -> bytes:
    """The record of a game: its parameters, its transcript (identical at every honest peer),
    the writer's signed abort, if the game was stopped, and the chat lines it heard, if any
    (a record without chat has no ``chat`` field: the same bytes as before chat existed)."""
    value: dict[str, WireValue] = {
        "format": FORMAT,
        "version": VERSION,
        "game": params.game,
        "params": params.to_wire(),
        "messages": list(transcript),
        "abort": abort,
    }
    if chat:
        value["chat"] = list(chat)
    return encode_value(value, RECORD_LIMITS)


def decode_record(data: bytes) -> tuple[GameParams, list[bytes], bytes | None]:
    """Parse a record file; RecordFormatError if it is not one. The size is checked first.
    The chat it may carry is left out (:func:`record_chat` reads it)."""
    params, messages, abort, _ = _decode(data)
    return params, messages, abort


def record_chat(data: bytes) -> list[bytes]:
    """The chat frames a record carries (unchecked: ``protocol.chat.read_chat`` checks each);
    RecordFormatError if it is not a record."""
    return _decode(data)[3]


def _decode(data: bytes) -> tuple[GameParams, list[bytes], bytes | None, list[bytes]]:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordFormatError(
            f"not a secure game record: {len(data)} bytes, more than any game needs "
            f"({MAX_RECORD_BYTES} at most)"
        )
    hint = " (it looks like a plain game record: use rattus replay)" if data[:1] == b"{" else ""
    if not data or data[0] not in MAP_HEADS:  # (what msgpack would say of it means nothing)
        what = "the file is empty" if not data else "it is a text file" if is_text(data) else ""
        what = what or "it does not begin as one (a msgpack map)"
        raise RecordFormatError(f"not a secure game record: {what}{hint}")
    try:
        value = decode_value(data, RECORD_LIMITS)
    except RemoteProtocolError as exc:
        raise RecordFormatError(f"not a secure game record: {exc.reason}{hint}") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordFormatError(f'not a secure game record: "format" must be "{FORMAT}"')
    if value.get("version") != VERSION:
        raise RecordFormatError(
            f"unsupported record version {safetext(value.get('version'))} (this program "
            f"verifies version {VERSION}; version 3 was written before every game's "
            f"parameters named it, version 2 before records named their game, version 1 "
            f"before actions became optional and hands were mixed after gifts: it needs the "
            f"Rattus Net that made it)"
        )
    if set(value) - {"chat"} != {"format", "version", "game", "params", "messages", "abort"}:
        raise RecordFormatError("not a secure game record: unexpected fields")
    chat = value.get("chat", [])
    if not isinstance(chat, list) or not all(isinstance(c, bytes) for c in chat):
        raise RecordFormatError("not a secure game record: chat must be frames")
    messages, abort = value["messages"], value["abort"]
    if not isinstance(messages, list) or not all(isinstance(m, bytes) for m in messages):
        raise RecordFormatError("not a secure game record: messages must be frames")
    if abort is not None and not isinstance(abort, bytes):
        raise RecordFormatError("not a secure game record: abort must be a frame")
    try:
        params = GameParams.from_wire(value["params"])
    except RemoteProtocolError as exc:
        raise RecordFormatError(f"bad game parameters: {safetext(exc.reason)}") from None
    except Exception as exc:  # (a value no check foresaw: said in one line all the same)
        raise RecordFormatError(f"bad game parameters ({type(exc).__name__})") from None
    if value["game"] != params.game:
        raise RecordFormatError("not a secure game record: it names two games")
    frames = [m for m in messages if isinstance(m, bytes)]
    return params, frames, abort, [c for c in chat if isinstance(c, bytes)]
