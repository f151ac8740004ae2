"""Peer identities: Ed25519 signatures (``cryptography``).

A peer is its Ed25519 public key; every message it sends is signed over the exact bytes sent
(see :mod:`protocol.wire` for why bytes are canonical). Nothing is encrypted to a peer's
identity: a card meant for one peer travels as a decryption share encrypted under its ElGamal
key share with a public proof (:mod:`protocol.crypto.transfer`), which, unlike a sealed box,
lets everybody check it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl import bindings as _sodium

from protocol.crypto.group import RandomSource
from protocol.errors import CryptoError, LocalProtocolError, ProofError

_RAW = serialization.Encoding.Raw
_RAW_PUB = serialization.PublicFormat.Raw
_RAW_PRIV = serialization.PrivateFormat.Raw
_NO_ENC = serialization.NoEncryption()

SIGNATURE_BYTES = 64


def fingerprint(sign_key: bytes) -> str:
    """Short human-comparable id of a peer: first 16 hex digits of SHA-256 of its public key."""
    return hashlib.sha256(sign_key).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class PublicIdentity:
    """What others know of a peer: its Ed25519 verification key (raw)."""

    sign_key: bytes

    @classmethod
    def from_bytes(cls, sign_key: bytes, *, peer: str | None = None) -> PublicIdentity:
        """Validate a received raw key: 32 bytes, a canonical point of prime order."""
        if not isinstance(sign_key, bytes):
            raise CryptoError(peer, "keys must be bytes")
        if len(sign_key) != 32:
            raise CryptoError(peer, "keys must be 32 bytes")
        if not _sodium.crypto_core_ed25519_is_valid_point(sign_key):
            # A small-order key (the identity point among them) accepts forged signatures
            # over any message; a non-canonical encoding is a second name for one key.
            raise CryptoError(peer, "invalid signing key: not a canonical point of prime order")
        try:
            Ed25519PublicKey.from_public_bytes(sign_key)
        except ValueError as exc:
            raise CryptoError(peer, f"invalid public key: {exc}") from exc
        return cls(sign_key)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.sign_key)

    def verify(self, message: bytes, signature: bytes, *, peer: str | None = None) -> None:
        """Check ``signature`` over exactly ``message``; raise ProofError naming the signer.

        ``peer`` defaults to this identity's fingerprint.
        """
        who = peer if peer is not None else self.fingerprint
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
            raise ProofError(who, "signature must be 64 bytes", message)
        try:
            Ed25519PublicKey.from_public_bytes(self.sign_key).verify(signature, message)
        except InvalidSignature:
            raise ProofError(who, "bad signature", message) from None


class Identity:
    """A peer's own secret key: create with :meth:`generate`, restore with :meth:`from_secret`."""

    __slots__ = ("_sign", "public")

    def __init__(self, sign_seed: bytes) -> None:
        if len(sign_seed) != 32:
            raise LocalProtocolError("an identity secret is 32 bytes")
        self._sign = Ed25519PrivateKey.from_private_bytes(sign_seed)
        self.public = PublicIdentity(self._sign.public_key().public_bytes(_RAW, _RAW_PUB))

    @classmethod
    def generate(cls, rand: RandomSource) -> Identity:
        return cls(rand(32))

    @classmethod
    def from_secret(cls, secret: bytes) -> Identity:
        """Restore from :meth:`secret_bytes` (for persistence across a crash)."""
        return cls(secret)

    def secret_bytes(self) -> bytes:
        return self._sign.private_bytes(_RAW, _RAW_PRIV, _NO_ENC)

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    def sign(self, message: bytes) -> bytes:
        """Ed25519 signature (deterministic) over exactly ``message``."""
        return self._sign.sign(message)
