"""Sigma protocols made non-interactive with Fiat-Shamir: Schnorr and Chaum-Pedersen (DLEQ).

Both proofs are sent in the compact ``(c, s)`` form (64 bytes): the verifier recomputes the
prover's commitments from the response and checks that hashing them gives back the challenge.
This is as sound as sending the commitments and saves space on the wire.

Every challenge hashes a protocol domain label, the caller's ``context`` (game id, step, author
seat... whatever makes the statement unique in the transcript, so a proof cannot be replayed
elsewhere) and *all* public values of the statement (strong Fiat-Shamir, after Bernhard, Pereira
and Warinschi, "How not to prove yourself", 2012).
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

_SCHNORR = b"rattus-net/v1/schnorr"
_DLEQ = b"rattus-net/v1/dleq"


@dataclass(frozen=True, slots=True)
class SigmaProof:
    """A Fiat-Shamir proof ``(challenge, response)``."""

    challenge: Scalar
    response: Scalar

    def to_bytes(self) -> bytes:
        return self.challenge.data + self.response.data

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> SigmaProof:
        if not isinstance(data, bytes) or len(data) != 64:
            raise CryptoError(peer, "a proof is 64 bytes", None)
        return cls(Scalar.from_bytes(data[:32], peer=peer), Scalar.from_bytes(data[32:], peer=peer))


def prove_schnorr(secret: Scalar, rand: RandomSource, context: bytes) -> SigmaProof:
    """Prove knowledge of ``secret`` = log_G(secret * G).

    Used when a peer publishes its ElGamal key share: without it a peer could publish
    ``Y_j - sum(others)`` and own the joint key alone (rogue-key attack).
    """
    public = base_mul(secret)
    k = Scalar.random(StatementRandom(rand, _SCHNORR, secret.data, context, public.data))
    commitment = base_mul(k)
    c = hash_to_scalar(_SCHNORR, context, G.data, public.data, commitment.data)
    return SigmaProof(c, k + c * secret)


def verify_schnorr(public: Point, proof: SigmaProof, context: bytes, *, peer: str) -> None:
    """Check a Schnorr proof for ``public``; raise ProofError naming ``peer`` if it fails."""
    commitment = base_mul(proof.response) - proof.challenge * public
    c = hash_to_scalar(_SCHNORR, context, G.data, public.data, commitment.data)
    if c != proof.challenge:
        raise ProofError(peer, "Schnorr proof of key knowledge does not verify", proof.to_bytes())


def prove_dleq(
    secret: Scalar, base: Point, rand: RandomSource, context: bytes
) -> tuple[Point, SigmaProof]:
    """Return ``D = secret * base`` and a proof that log_G(secret * G) == log_base(D).

    This is what makes a decryption share trustworthy: it shows the share was computed with the
    same key the peer committed to, without revealing the key.
    """
    public = base_mul(secret)
    result = secret * base
    nonces = StatementRandom(rand, _DLEQ, secret.data, context, public.data, base.data, result.data)
    k = Scalar.random(nonces)
    t1 = base_mul(k)
    t2 = k * base
    c = hash_to_scalar(
        _DLEQ, context, G.data, public.data, base.data, result.data, t1.data, t2.data
    )
    return result, SigmaProof(c, k + c * secret)


def verify_dleq(
    public: Point,
    base: Point,
    result: Point,
    proof: SigmaProof,
    context: bytes,
    *,
    peer: str,
) -> None:
    """Check log_G(public) == log_base(result); raise ProofError naming ``peer`` if not."""
    t1 = base_mul(proof.response) - proof.challenge * public
    t2 = proof.response * base - proof.challenge * result
    c = hash_to_scalar(
        _DLEQ, context, G.data, public.data, base.data, result.data, t1.data, t2.data
    )
    if c != proof.challenge:
        raise ProofError(peer, "DLEQ proof of decryption share does not verify", proof.to_bytes())
