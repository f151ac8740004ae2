"""A decryption share encrypted to one peer, with a public proof that it is the right share.

When a card held by peer X (X's decryption share is the only one never published) must be read
by peer W (a Sword or Guard Tower gift, or a second look at a nun-row card), X sends its share
``D = x_X * C1`` ElGamal-encrypted under W's key share ``Y_W``:

    A = k G,   B = D + k Y_W

with a Fiat-Shamir proof of knowledge of ``(x, k)`` such that

    Y_X = x G,   A = k G,   B = x C1 + k Y_W.

Anybody can check the proof (so a bad share is publicly attributable, unlike a share sealed in
an authenticated-encryption box), and only W can compute ``D = B - x_W A``. The proof is the
standard sigma protocol for a linear relation (Camenisch-Stadler), sent in compact
``(c, s1, s2)`` form (96 bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.crypto.group import (
    G,
    Point,
    RandomSource,
    Scalar,
    StatementRandom,
    base_mul,
    hash_to_scalar,
)
from protocol.errors import CryptoError, ProofError

_DOMAIN = b"rattus-net/v1/share-transfer"


@dataclass(frozen=True, slots=True)
class EncryptedShare:
    """``(A, B)`` and the proof ``(c, s1, s2)``; 160 bytes on the wire."""

    a: Point
    b: Point
    challenge: Scalar
    s1: Scalar
    s2: Scalar

    def to_bytes(self) -> bytes:
        return self.a.data + self.b.data + self.challenge.data + self.s1.data + self.s2.data

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> EncryptedShare:
        if not isinstance(data, bytes) or len(data) != 160:
            raise CryptoError(peer, "an encrypted share is 160 bytes", None)
        return cls(
            Point.from_bytes(data[0:32], peer=peer),
            Point.from_bytes(data[32:64], peer=peer),
            Scalar.from_bytes(data[64:96], peer=peer),
            Scalar.from_bytes(data[96:128], peer=peer),
            Scalar.from_bytes(data[128:160], peer=peer),
        )


def _challenge(
    context: bytes, y_x: Point, c1: Point, y_w: Point, a: Point, b: Point, t: tuple[Point, ...]
) -> Scalar:
    return hash_to_scalar(
        _DOMAIN, context, G.data, y_x.data, c1.data, y_w.data, a.data, b.data, *(p.data for p in t)
    )


def encrypt_share(
    secret: Scalar, c1: Point, recipient_key: Point, rand: RandomSource, context: bytes
) -> EncryptedShare:
    """Our share of a ciphertext with first component ``c1``, encrypted to ``recipient_key``."""
    y_x = base_mul(secret)
    # The encryption randomness and the proof nonces, bound to the whole statement.
    rand = StatementRandom(
        rand, _DOMAIN, secret.data, context, y_x.data, c1.data, recipient_key.data
    )
    k = Scalar.random(rand)
    a = base_mul(k)
    b = secret * c1 + k * recipient_key
    w1, w2 = Scalar.random(rand), Scalar.random(rand)
    t = (base_mul(w1), base_mul(w2), w1 * c1 + w2 * recipient_key)
    c = _challenge(context, y_x, c1, recipient_key, a, b, t)
    return EncryptedShare(a, b, c, w1 + c * secret, w2 + c * k)


def verify_encrypted_share(
    sender_key: Point,
    c1: Point,
    recipient_key: Point,
    share: EncryptedShare,
    context: bytes,
    *,
    peer: str,
) -> None:
    """Raise ProofError naming ``peer`` unless ``share`` encrypts ``x_sender * c1`` to the
    recipient."""
    c = share.challenge
    t1 = base_mul(share.s1) - c * sender_key
    t2 = base_mul(share.s2) - c * share.a
    t3 = share.s1 * c1 + share.s2 * recipient_key - c * share.b
    if _challenge(context, sender_key, c1, recipient_key, share.a, share.b, (t1, t2, t3)) != c:
        raise ProofError(peer, "encrypted decryption share does not verify", share.to_bytes())


def decrypt_share(secret: Scalar, share: EncryptedShare) -> Point:
    """Recipient side: ``D = B - x_W A``."""
    return share.b - secret * share.a
