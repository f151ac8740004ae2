"""Salted hash commitments (face-down plays, any value to be opened later).

``commit = SHA-256(prefix || frame(domain, salt, value))`` with a fresh 32-byte random salt.
The salt makes the commitment hiding even when the value comes from a small set (a choice
among a few card handles could otherwise be found by trying them all); SHA-256 makes it
binding. The ``domain`` separates uses (e.g. ``b"face-down/" + game id + round``), so a
commitment made for one purpose can never be opened as another.
"""

from __future__ import annotations

import hashlib
import hmac

from protocol.crypto.group import RandomSource, frame
from protocol.errors import LocalProtocolError, ProofError

SALT_BYTES = 32
_PREFIX = b"rattus-net/v1/commit\x00"


def new_salt(rand: RandomSource) -> bytes:
    salt = rand(SALT_BYTES)
    if len(salt) != SALT_BYTES:
        raise LocalProtocolError("random source returned the wrong number of bytes")
    return salt


def commit(value: bytes, salt: bytes, *, domain: bytes = b"") -> bytes:
    """The 32-byte commitment to ``value`` under ``salt`` (which must be 32 fresh bytes)."""
    if len(salt) != SALT_BYTES:
        raise LocalProtocolError("salt must be 32 bytes")
    return hashlib.sha256(_PREFIX + frame(domain, salt, value)).digest()


def check(digest: bytes, value: bytes, salt: bytes, *, peer: str, domain: bytes = b"") -> None:
    """Raise ProofError naming ``peer`` unless ``(value, salt)`` opens ``digest``."""
    if not isinstance(salt, bytes) or len(salt) != SALT_BYTES:
        raise ProofError(peer, "opening has a salt that is not 32 bytes")
    if not isinstance(value, bytes):
        raise ProofError(peer, "opened value is not bytes")
    if not isinstance(digest, bytes) or not hmac.compare_digest(
        commit(value, salt, domain=domain), digest
    ):
        raise ProofError(peer, "opening does not match the commitment", value)
