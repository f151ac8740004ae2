"""Canonical, bounded msgpack encoding of protocol messages.

Why these rules:

* **Canonical.** Signatures, transcript hashes and commitments are taken over the exact bytes
  sent, so one value must have exactly one encoding: map keys are sorted, integers and lengths
  use msgpack's shortest form (what ``msgpack.Packer`` emits), ``str`` and ``bytes`` are distinct
  types. :func:`decode_value` re-encodes what it decoded and rejects the input if the bytes
  differ, so duplicate keys, unsorted maps or padded integers cannot make two byte strings that
  mean the same message (malleability).
* **Bounded.** Bytes come from the network, so every size is limited before anything is
  allocated (msgpack.Unpacker limits), and a walk checks nesting depth and types afterwards.
* **Small type set.** Only nil, bool, int (msgpack range), str, bytes, arrays and maps with
  ``str`` keys. No floats (the game needs none, and they have several encodings and NaNs), no
  extension types (a decoder hook surface we do not want).
* **Never another exception.** Whatever the input, :func:`decode_value` and
  :func:`decode_message` raise only :class:`~protocol.errors.DecodeError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]

from protocol.errors import DecodeError, LocalProtocolError
from rattus_net.kit.interface import WireValue as WireValue  # tuples come back as lists

PROTOCOL_VERSION = 4
"""The build's protocol version, said first on every link (the transport's preamble) and in
the table adverts; a peer of another version is refused in words. 4: chat lines travel on the
lobby link and the game's mesh links under tags of their own (an older build dropped those
links without a word). 3: the lobby's table options are the game's own (``{"players",
"game", "game_version", "options"}``) and every game's parameters name it (so Rattus Cartus's
game ids changed). 2: adverts, tables and game ids name the game."""

MESSAGE_VERSION = 3
"""The version carried inside every message (the envelope's ``v``), which says what a
message means. It moves only when a message's meaning does (version 4 of the protocol changed
only the links), because it is inside the transcript every later message signs over: a game
journaled by an earlier build of the same message version resumes byte for byte, and its
records verify as they were written."""

READ_VERSIONS = frozenset({MESSAGE_VERSION})
"""Message versions read (a message of another is refused)."""


_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds applied to every decoded (and, symmetrically, encoded) value.

    The defaults fit the largest message the game needs (a shuffle proof of an 84-card deck is
    about 20 KiB) with a wide margin, while keeping a hostile frame cheap to reject.
    """

    max_size: int = 1 << 20
    max_depth: int = 16
    max_array_len: int = 4096
    max_map_len: int = 256
    max_bin_len: int = 1 << 16
    max_str_len: int = 1 << 14


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Message:
    """A decoded envelope: message ``version``, message ``kind`` and its ``body`` map."""

    kind: str
    body: dict[str, WireValue] = field(default_factory=dict)
    version: int = MESSAGE_VERSION


def _check_encodable(value: object, depth: int, limits: Limits) -> WireValue:
    """Validate ``value`` and return it with maps rebuilt in sorted key order.

    Runs before packing so that we never emit something our peers would reject, and so the
    key order (hence the bytes) does not depend on how the caller built its dicts.
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise LocalProtocolError(f"integer out of msgpack range: {value}")
        return value
    if isinstance(value, str):
        if len(value.encode("utf-8")) > limits.max_str_len:
            raise LocalProtocolError("str too long")
        return value
    if isinstance(value, bytes):
        if len(value) > limits.max_bin_len:
            raise LocalProtocolError("bytes too long")
        return value
    if isinstance(value, list | tuple):
        if depth >= limits.max_depth:
            raise LocalProtocolError("nesting too deep")
        if len(value) > limits.max_array_len:
            raise LocalProtocolError("array too long")
        return [_check_encodable(item, depth + 1, limits) for item in value]
    if isinstance(value, dict):
        if depth >= limits.max_depth:
            raise LocalProtocolError("nesting too deep")
        if len(value) > limits.max_map_len:
            raise LocalProtocolError("map too long")
        for key in value:
            if not isinstance(key, str):
                raise LocalProtocolError(f"map key must be str, not {type(key).__name__}")
            if len(key.encode("utf-8")) > limits.max_str_len:
                raise LocalProtocolError("map key too long")
        return {key: _check_encodable(value[key], depth + 1, limits) for key in sorted(value)}
    raise LocalProtocolError(f"type not allowed on the wire: {type(value).__name__}")


def encode_value(value: WireValue, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """Encode ``value`` canonically; raise LocalProtocolError if it is not a valid wire value."""
    checked = _check_encodable(value, 0, limits)
    data: bytes = msgpack.packb(checked, use_bin_type=True)
    if len(data) > limits.max_size:
        raise LocalProtocolError(f"encoded value too large: {len(data)} bytes")
    return data


def _check_decoded(value: Any, depth: int, limits: Limits) -> None:
    """Walk a freshly unpacked object: depth and allowed types (defence in depth)."""
    if value is None or isinstance(value, bool | int | str | bytes):
        return
    if isinstance(value, list):
        if depth >= limits.max_depth:
            raise DecodeError(None, "nesting too deep")
        for item in value:
            _check_decoded(item, depth + 1, limits)
        return
    if isinstance(value, dict):
        if depth >= limits.max_depth:
            raise DecodeError(None, "nesting too deep")
        for key, item in value.items():
            if not isinstance(key, str):
                raise DecodeError(None, "map key is not a str")
            _check_decoded(item, depth + 1, limits)
        return
    raise DecodeError(None, f"type not allowed on the wire: {type(value).__name__}")


def _refuse_ext(code: int, data: bytes) -> object:
    raise DecodeError(None, f"extension type {code} not allowed")


def decode_value(
    data: bytes, limits: Limits = DEFAULT_LIMITS, *, peer: str | None = None
) -> WireValue:
    """Decode one canonical wire value from ``data`` (exactly one, no trailing bytes).

    Raises only :class:`DecodeError` (naming ``peer`` if given), whatever ``data`` holds.
    """
    try:
        return _decode_value(data, limits)
    except DecodeError as exc:
        raise DecodeError(peer, exc.reason, _evidence(data, limits)) from None
    except Exception as exc:
        # msgpack's exception set is not closed (ValueError, StackError, UnicodeDecodeError,
        # FormatError, TypeError...), and the contract is "only DecodeError", so catch all.
        reason = f"malformed msgpack: {type(exc).__name__}"
        raise DecodeError(peer, reason, _evidence(data, limits)) from exc


def _evidence(data: object, limits: Limits) -> bytes | None:
    """The offending bytes, if they are bytes and not absurdly large."""
    if isinstance(data, bytes | bytearray | memoryview) and len(data) <= limits.max_size:
        return bytes(data)
    return None


def _decode_value(data: bytes, limits: Limits) -> WireValue:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise DecodeError(None, "input is not bytes")
    if len(data) > limits.max_size:
        raise DecodeError(None, f"message too large: {len(data)} bytes")
    if len(data) == 0:
        raise DecodeError(None, "empty message")
    unpacker = msgpack.Unpacker(
        raw=False,
        use_list=True,
        strict_map_key=True,
        max_buffer_size=max(limits.max_size, 1),
        max_bin_len=limits.max_bin_len,
        max_str_len=limits.max_str_len,
        max_array_len=limits.max_array_len,
        max_map_len=limits.max_map_len,
        max_ext_len=0,
        ext_hook=_refuse_ext,
    )
    unpacker.feed(bytes(data))
    try:
        value = unpacker.unpack()
    except msgpack.OutOfData:
        raise DecodeError(None, "truncated message") from None
    if unpacker.tell() != len(data):
        raise DecodeError(None, "trailing bytes after message")
    _check_decoded(value, 0, limits)
    if msgpack.packb(_check_encodable(value, 0, limits), use_bin_type=True) != bytes(data):
        raise DecodeError(None, "non-canonical encoding")
    # _check_decoded proved that value is a WireValue
    return value  # type: ignore[no-any-return]


def encode_message(
    kind: str, body: Mapping[str, WireValue], limits: Limits = DEFAULT_LIMITS
) -> bytes:
    """Encode an envelope ``{"v": MESSAGE_VERSION, "k": kind, "b": body}`` canonically."""
    if not kind:
        raise LocalProtocolError("message kind must be a non-empty str")
    return encode_value({"v": MESSAGE_VERSION, "k": kind, "b": dict(body)}, limits)


def decode_message(
    data: bytes, limits: Limits = DEFAULT_LIMITS, *, peer: str | None = None
) -> Message:
    """Decode an envelope made by :func:`encode_message`; reject other versions and shapes."""
    value = decode_value(data, limits, peer=peer)
    evidence = bytes(data)
    if not isinstance(value, dict) or set(value) != {"v", "k", "b"}:
        raise DecodeError(peer, "envelope must be a map with keys v, k, b", evidence)
    version, kind, body = value["v"], value["k"], value["b"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise DecodeError(peer, "version must be an int", evidence)
    if version not in READ_VERSIONS:
        raise DecodeError(peer, f"unsupported protocol version {version}", evidence)
    if not isinstance(kind, str) or not kind:
        raise DecodeError(peer, "kind must be a non-empty str", evidence)
    if not isinstance(body, dict):
        raise DecodeError(peer, "body must be a map", evidence)
    return Message(kind=kind, body=body, version=version)
