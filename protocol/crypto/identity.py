"""Peer identities: Ed25519 signatures and X25519 sealed boxes (``cryptography``).

A peer is its Ed25519 public key; every message it sends is signed over the exact bytes sent
(see :mod:`protocol.wire` for why bytes are canonical). A separate X25519 key, announced in the
peer's signed hello, receives the parts of messages meant only for that peer (decryption shares
of a private draw, transferred cards).

Sealing is ECIES-style: a fresh ephemeral X25519 key per message, HKDF-SHA256 over the shared
secret bound to both public keys and the caller's context, ChaCha20-Poly1305 with the context
as associated data. The sealed box does not authenticate the sender by itself: it travels
inside a message the sender signed, and the payloads we seal carry their own proofs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl import bindings as _sodium

from protocol.crypto.group import RandomSource, frame
from protocol.errors import CryptoError, LocalProtocolError, ProofError

_SEAL_INFO = b"rattus-net/v1/seal"
_RAW = serialization.Encoding.Raw
_RAW_PUB = serialization.PublicFormat.Raw
_RAW_PRIV = serialization.PrivateFormat.Raw
_NO_ENC = serialization.NoEncryption()

SIGNATURE_BYTES = 64
SEAL_OVERHEAD = 32 + 16
"""Bytes a sealed box adds to its plaintext: ephemeral public key and Poly1305 tag."""


def fingerprint(sign_key: bytes) -> str:
    """Short human-comparable id of a peer: first 16 hex digits of SHA-256 of its public key."""
    return hashlib.sha256(sign_key).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class PublicIdentity:
    """What others know of a peer: its Ed25519 verification key and X25519 box key (raw)."""

    sign_key: bytes
    box_key: bytes

    @classmethod
    def from_bytes(
        cls, sign_key: bytes, box_key: bytes, *, peer: str | None = None
    ) -> PublicIdentity:
        """Validate received raw keys (32 bytes each, parseable)."""
        if not (isinstance(sign_key, bytes) and isinstance(box_key, bytes)):
            raise CryptoError(peer, "keys must be bytes")
        if len(sign_key) != 32 or len(box_key) != 32:
            raise CryptoError(peer, "keys must be 32 bytes")
        if not _sodium.crypto_core_ed25519_is_valid_point(sign_key):
            # A small-order key (the identity point among them) accepts forged signatures
            # over any message; a non-canonical encoding is a second name for one key.
            raise CryptoError(peer, "invalid signing key: not a canonical point of prime order")
        try:
            Ed25519PublicKey.from_public_bytes(sign_key)
            X25519PublicKey.from_public_bytes(box_key)
        except ValueError as exc:
            raise CryptoError(peer, f"invalid public key: {exc}") from exc
        return cls(sign_key, box_key)

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
    """A peer's own secret keys: create with :meth:`generate`, restore with :meth:`from_secret`."""

    __slots__ = ("_box", "_sign", "public")

    def __init__(self, sign_seed: bytes, box_secret: bytes) -> None:
        if len(sign_seed) != 32 or len(box_secret) != 32:
            raise LocalProtocolError("identity secrets are two 32-byte strings")
        self._sign = Ed25519PrivateKey.from_private_bytes(sign_seed)
        self._box = X25519PrivateKey.from_private_bytes(box_secret)
        self.public = PublicIdentity(
            self._sign.public_key().public_bytes(_RAW, _RAW_PUB),
            self._box.public_key().public_bytes(_RAW, _RAW_PUB),
        )

    @classmethod
    def generate(cls, rand: RandomSource) -> Identity:
        return cls(rand(32), rand(32))

    @classmethod
    def from_secret(cls, secret: bytes) -> Identity:
        """Restore from :meth:`secret_bytes` (for persistence across a crash)."""
        if len(secret) != 64:
            raise LocalProtocolError("identity secret is 64 bytes")
        return cls(secret[:32], secret[32:])

    def secret_bytes(self) -> bytes:
        return self._sign.private_bytes(_RAW, _RAW_PRIV, _NO_ENC) + self._box.private_bytes(
            _RAW, _RAW_PRIV, _NO_ENC
        )

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    def sign(self, message: bytes) -> bytes:
        """Ed25519 signature (deterministic) over exactly ``message``."""
        return self._sign.sign(message)

    def open(self, sealed: bytes, context: bytes, *, peer: str | None = None) -> bytes:
        """Open a box sealed to us with :func:`seal`; CryptoError (naming ``peer``) if invalid."""
        return open_sealed(self._box, sealed, context, peer=peer)


def _derive(shared: bytes, eph_pub: bytes, recipient_pub: bytes, context: bytes) -> bytes:
    hkdf = HKDF(
        algorithm=hashes.SHA256(),
        length=32 + 12,
        salt=None,
        info=_SEAL_INFO + frame(eph_pub, recipient_pub, context),
    )
    return hkdf.derive(shared)


def seal(recipient_box_key: bytes, plaintext: bytes, rand: RandomSource, context: bytes) -> bytes:
    """Encrypt ``plaintext`` so only the holder of ``recipient_box_key`` can read it.

    ``context`` (e.g. game id, message kind, sender and recipient seats) is authenticated: a box
    cannot be moved to another place in the transcript without failing to open.
    """
    try:
        recipient = X25519PublicKey.from_public_bytes(recipient_box_key)
        eph = X25519PrivateKey.from_private_bytes(rand(32))
        shared = eph.exchange(recipient)
    except ValueError as exc:
        raise LocalProtocolError(f"cannot seal to this key: {exc}") from exc
    eph_pub = eph.public_key().public_bytes(_RAW, _RAW_PUB)
    okm = _derive(shared, eph_pub, recipient_box_key, context)
    return eph_pub + ChaCha20Poly1305(okm[:32]).encrypt(okm[32:], plaintext, frame(context))


def open_sealed(
    box: X25519PrivateKey, sealed: bytes, context: bytes, *, peer: str | None = None
) -> bytes:
    """Inverse of :func:`seal` given the recipient's private key."""
    if not isinstance(sealed, bytes) or len(sealed) < SEAL_OVERHEAD:
        raise CryptoError(peer, "sealed box too short", None)
    eph_pub = sealed[:32]
    try:
        shared = box.exchange(X25519PublicKey.from_public_bytes(eph_pub))
    except ValueError as exc:
        raise CryptoError(peer, "sealed box has an invalid ephemeral key", sealed) from exc
    recipient_pub = box.public_key().public_bytes(_RAW, _RAW_PUB)
    okm = _derive(shared, eph_pub, recipient_pub, context)
    try:
        return ChaCha20Poly1305(okm[:32]).decrypt(okm[32:], sealed[32:], frame(context))
    except InvalidTag:
        raise CryptoError(
            peer, "sealed box does not open (wrong key, context or tampered)", sealed
        ) from None
