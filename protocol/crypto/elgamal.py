"""ElGamal over the Ed25519 prime-order group, as used for mental poker (Barnett-Smart 2003).

* Each peer i holds a secret ``x_i`` and publishes ``Y_i = x_i G`` with a Schnorr proof of
  knowledge (stops rogue-key attacks). The joint key is ``Y = sum(Y_i)``; nobody knows its
  secret ``x = sum(x_i)``, so a card can only be opened with every peer's help.
* A card face is a point ``M``; card ``i`` is ``hash_to_point("rattus card", i)``, a fixed point
  nobody knows the logarithm of. It is never the identity, which libsodium would refuse.
* A masked card is ``(C1, C2) = (rG, M + rY)``. Re-masking adds ``(r'G, r'Y)``; the shuffle
  (:mod:`protocol.crypto.shuffle`) permutes and re-masks with a proof.
* Peer i's decryption share of ``(C1, C2)`` is ``D_i = x_i C1`` with a DLEQ proof that
  ``log_G(Y_i) == log_C1(D_i)``. With all shares, ``M = C2 - sum(D_i)``, looked up in a table.
* A *private* draw or peek: the other peers publish their shares (with proofs); what is left
  is a ciphertext under the one player's key share alone (see ``protocol.crypto.transfer``
  for a card whose only missing share is another peer's).
* The deck never starts unmasked (``(identity, M)`` is not a valid wire value): the initial
  deck is masked with public, hash-derived randomness that anyone can recompute, and the first
  shuffle re-masks it with secret randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from protocol.crypto.group import (
    Point,
    RandomSource,
    Scalar,
    base_mul,
    hash_to_point,
    hash_to_scalar,
    point_sum,
)
from protocol.crypto.proofs import (
    SigmaProof,
    prove_dleq,
    prove_schnorr,
    verify_dleq,
    verify_schnorr,
)
from protocol.errors import CryptoError, LocalProtocolError

_CARD_DOMAIN = b"rattus card"
_INITIAL_MASK = b"rattus-net/v1/initial-mask"


# --- card encoding ------------------------------------------------------------------------------


def card_point(index: int) -> Point:
    """The fixed group element that stands for card ``index`` (0-based)."""
    if not 0 <= index < 2**32:
        raise LocalProtocolError(f"card index out of range: {index}")
    return _card_point(index)


@lru_cache(maxsize=1024)
def _card_point(index: int) -> Point:
    return hash_to_point(_CARD_DOMAIN, index.to_bytes(4, "big"))


@lru_cache(maxsize=16)
def _card_table(deck_size: int) -> dict[bytes, int]:
    return {card_point(i).data: i for i in range(deck_size)}


def card_index(point: Point, deck_size: int) -> int:
    """Map a decrypted point back to its card index; CryptoError if it is no card of the deck."""
    index = _card_table(deck_size).get(point.data)
    if index is None:
        raise CryptoError(None, "decrypted point is not a card of this deck", point.data)
    return index


# --- ciphertexts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """A masked card ``(C1, C2) = (rG, M + rY)``; 64 bytes on the wire."""

    c1: Point
    c2: Point

    def to_bytes(self) -> bytes:
        return self.c1.data + self.c2.data

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> Ciphertext:
        """Decode a received ciphertext, checking both points are group members."""
        if not isinstance(data, bytes) or len(data) != 64:
            raise CryptoError(peer, "a ciphertext is 64 bytes", None)
        return cls(Point.from_bytes(data[:32], peer=peer), Point.from_bytes(data[32:], peer=peer))


def mask(message: Point, joint_key: Point, r: Scalar) -> Ciphertext:
    """Encrypt point ``message`` under ``joint_key`` with randomness ``r``."""
    return Ciphertext(base_mul(r), message + r * joint_key)


def remask(ct: Ciphertext, joint_key: Point, r: Scalar) -> Ciphertext:
    """Re-randomise ``ct``: same plaintext, unlinkable ciphertext (without the proof)."""
    return Ciphertext(ct.c1 + base_mul(r), ct.c2 + r * joint_key)


def initial_deck(deck_size: int, joint_key: Point, context: bytes) -> list[Ciphertext]:
    """The public starting deck: card i at position i, masked with public randomness.

    The randomness is ``hash_to_scalar(initial-mask, context, i)`` so every peer computes the
    same list and no one must trust its sender; secrecy comes from the shuffles that follow.
    """
    return [
        mask(card_point(i), joint_key, hash_to_scalar(_INITIAL_MASK, context, i.to_bytes(4, "big")))
        for i in range(deck_size)
    ]


# --- keys -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyAnnouncement:
    """A peer's public key share with its proof of knowledge of the secret."""

    public: Point
    proof: SigmaProof

    def to_bytes(self) -> bytes:
        return self.public.data + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> KeyAnnouncement:
        if not isinstance(data, bytes) or len(data) != 96:
            raise CryptoError(peer, "a key announcement is 96 bytes", None)
        return cls(
            Point.from_bytes(data[:32], peer=peer), SigmaProof.from_bytes(data[32:], peer=peer)
        )


def generate_key(rand: RandomSource, context: bytes) -> tuple[Scalar, KeyAnnouncement]:
    """A fresh secret key share and its announcement (bind ``context`` to game and seat)."""
    secret = Scalar.random(rand)
    return secret, KeyAnnouncement(base_mul(secret), prove_schnorr(secret, rand, context))


def verify_key(announcement: KeyAnnouncement, context: bytes, *, peer: str) -> None:
    """Raise ProofError naming ``peer`` unless the announcement proves knowledge of its key."""
    verify_schnorr(announcement.public, announcement.proof, context, peer=peer)


def joint_key(publics: Iterable[Point]) -> Point:
    """The joint public key: the sum of every peer's (verified) key share."""
    keys = list(publics)
    if not keys:
        raise LocalProtocolError("joint key of no peers")
    return point_sum(keys)


# --- decryption shares ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """``D_i = x_i C1`` and the DLEQ proof that it used the key behind ``Y_i``; 96 bytes."""

    share: Point
    proof: SigmaProof

    def to_bytes(self) -> bytes:
        return self.share.data + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> DecryptionShare:
        if not isinstance(data, bytes) or len(data) != 96:
            raise CryptoError(peer, "a decryption share is 96 bytes", None)
        return cls(
            Point.from_bytes(data[:32], peer=peer), SigmaProof.from_bytes(data[32:], peer=peer)
        )


def decryption_share(
    secret: Scalar, ct: Ciphertext, rand: RandomSource, context: bytes
) -> DecryptionShare:
    """Our share of ``ct`` with its proof. ``context`` should name the card handle and us."""
    share, proof = prove_dleq(secret, ct.c1, rand, context)
    return DecryptionShare(share, proof)


def verify_share(
    public: Point, ct: Ciphertext, share: DecryptionShare, context: bytes, *, peer: str
) -> None:
    """Raise ProofError naming ``peer`` unless ``share`` is ``x_peer * C1`` for key ``public``."""
    verify_dleq(public, ct.c1, share.share, share.proof, context, peer=peer)


def own_share(secret: Scalar, ct: Ciphertext) -> Point:
    """Our share without a proof: for our own private draws, where nobody needs to check it."""
    return secret * ct.c1


def unmask(ct: Ciphertext, shares: Sequence[Point]) -> Point:
    """``C2 - sum(shares)``: the card point once every peer's share is in."""
    return ct.c2 - point_sum(shares)


def open_card(ct: Ciphertext, shares: Sequence[Point], deck_size: int) -> int:
    """Combine all peers' (verified) shares and return the card index."""
    return card_index(unmask(ct, shares), deck_size)
