"""Verifiable shuffle of ElGamal ciphertexts: the Terelius-Wikström proof (Verificatum).

A peer permutes and re-masks the deck, ``out[i] = remask(in[pi(i)], r'_i)``, and proves in zero
knowledge, non-interactively (Fiat-Shamir), that it did exactly that. The proof has linear
size and cost (about 5N scalar multiplications to prove and 8N to verify), unlike
cut-and-choose proofs that need dozens of shadow shuffles.

We follow the pseudo-code of Haenni, Locher, Koenig and Dubuis, "Pseudo-Code Algorithms for
Verifiable Re-Encryption Mix-Nets" (FC 2017, Algorithms 8.4 and 8.5), which writes down
Terelius and Wikström, "Proofs of Restricted Shuffles" (AFRICACRYPT 2010) as used in
Verificatum, translated to additive notation and our ciphertext layout ``(C1, C2) = (rG, M+rY)``.
The proof is sent in compact form: the verifier recomputes the prover's first-move values
from the responses and checks that they hash to the challenge. The exact transcript is
documented in docs/protocol-crypto.md.

Soundness rests on the discrete-log assumption and on the commitment generators ``h, h_1..h_N``
being independent of ``G`` (they come from hash-to-point, so nobody knows their logarithms).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from protocol.crypto.elgamal import Ciphertext, remask
from protocol.crypto.group import (
    ONE,
    ZERO,
    G,
    Point,
    RandomSource,
    Scalar,
    StatementRandom,
    base_mul,
    generators,
    hash_to_scalar,
    point_sum,
)
from protocol.errors import CryptoError, DecodeError, LocalProtocolError, ProofError
from protocol.randomness import RandomStream
from protocol.wire import WireValue

_GENERATORS = b"rattus-net/v1/shuffle/generators"
_U_SEED = b"rattus-net/v1/shuffle/u-seed"
_U = b"rattus-net/v1/shuffle/u"
_CHALLENGE = b"rattus-net/v1/shuffle/challenge"
_MASKS = b"rattus-net/v1/shuffle/masks"
_PROOF_NONCES = b"rattus-net/v1/shuffle/proof-nonces"

MAX_DECK = 4096
"""Largest list we shuffle; bounds verifier work on hostile input."""


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """Proof that one list of ciphertexts is a permuted re-masking of another.

    ``commitments`` commit to the permutation, ``chain`` is the commitment chain proving the
    committed matrix is a permutation matrix, then the challenge and responses.
    """

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    challenge: Scalar
    s1: Scalar
    s2: Scalar
    s3: Scalar
    s4: Scalar
    s_hat: tuple[Scalar, ...]
    s_prime: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, WireValue]:
        """Compact wire form: concatenated 32-byte encodings (about 128 bytes per card)."""
        return {
            "c": b"".join(p.data for p in self.commitments),
            "ch": b"".join(p.data for p in self.chain),
            "e": self.challenge.data,
            "s": self.s1.data + self.s2.data + self.s3.data + self.s4.data,
            "sh": b"".join(s.data for s in self.s_hat),
            "sp": b"".join(s.data for s in self.s_prime),
        }

    @classmethod
    def from_wire(cls, value: WireValue, *, peer: str | None = None) -> ShuffleProof:
        """Parse and validate (every point is checked for group membership)."""
        if not isinstance(value, dict) or set(value) != {"c", "ch", "e", "s", "sh", "sp"}:
            raise DecodeError(peer, "shuffle proof must be a map with keys c, ch, e, s, sh, sp")
        fields: dict[str, bytes] = {}
        for key, item in value.items():
            if not isinstance(item, bytes) or len(item) % 32:
                raise DecodeError(peer, f"shuffle proof field {key} must be 32-byte chunks")
            fields[key] = item
        n = len(fields["c"]) // 32
        if not 1 <= n <= MAX_DECK or any(len(fields[k]) != 32 * n for k in ("ch", "sh", "sp")):
            raise DecodeError(peer, "shuffle proof vectors have inconsistent lengths")
        if len(fields["e"]) != 32 or len(fields["s"]) != 128:
            raise DecodeError(peer, "shuffle proof challenge/responses have the wrong size")

        def points(raw: bytes) -> tuple[Point, ...]:
            return tuple(
                Point.from_bytes(raw[i : i + 32], peer=peer) for i in range(0, len(raw), 32)
            )

        def scalars(raw: bytes) -> tuple[Scalar, ...]:
            return tuple(
                Scalar.from_bytes(raw[i : i + 32], peer=peer) for i in range(0, len(raw), 32)
            )

        s1, s2, s3, s4 = scalars(fields["s"])
        return cls(
            commitments=points(fields["c"]),
            chain=points(fields["ch"]),
            challenge=Scalar.from_bytes(fields["e"], peer=peer),
            s1=s1,
            s2=s2,
            s3=s3,
            s4=s4,
            s_hat=scalars(fields["sh"]),
            s_prime=scalars(fields["sp"]),
        )


def random_permutation(n: int, rand: RandomSource) -> list[int]:
    """A uniform permutation of ``range(n)`` (Fisher-Yates with rejection sampling)."""
    perm = list(range(n))
    RandomStream(rand(32)).shuffle(perm)
    return perm


def apply_shuffle(
    deck: Sequence[Ciphertext],
    joint_key: Point,
    permutation: Sequence[int],
    rerandomizers: Sequence[Scalar],
) -> list[Ciphertext]:
    """``out[i] = remask(deck[permutation[i]], rerandomizers[i])``."""
    _check_witness(len(deck), permutation, rerandomizers)
    return [remask(deck[j], joint_key, r) for j, r in zip(permutation, rerandomizers, strict=True)]


def shuffle(
    deck: Sequence[Ciphertext], joint_key: Point, rand: RandomSource, context: bytes
) -> tuple[list[Ciphertext], ShuffleProof]:
    """Shuffle ``deck`` with a fresh secret permutation and masks; return it with its proof.

    ``context`` must make this shuffle unique in the game (game id, pile, step, shuffler), so
    the proof cannot be replayed elsewhere. The permutation and masks are discarded.
    """
    shuffled, proof, _ = shuffle_with_permutation(deck, joint_key, rand, context)
    return shuffled, proof


def shuffle_with_permutation(
    deck: Sequence[Ciphertext], joint_key: Point, rand: RandomSource, context: bytes
) -> tuple[list[Ciphertext], ShuffleProof, list[int]]:
    """:func:`shuffle` (same use of ``rand``), also returning the permutation
    (``shuffled[i]`` re-masks ``deck[permutation[i]]``): a peer mixing its own hand needs it
    to know which new card is which."""
    n = len(deck)
    permutation = random_permutation(n, rand)
    # The masks depend on the input deck too: the same stream over another deck (a peer
    # that re-runs a step after a crash) must not give outputs whose differences link.
    masks = StatementRandom(rand, _MASKS, b"", context, joint_key.data, _cts(deck))
    rerandomizers = [Scalar.random(masks) for _ in range(n)]
    shuffled = apply_shuffle(deck, joint_key, permutation, rerandomizers)
    proof = prove_shuffle(deck, shuffled, joint_key, permutation, rerandomizers, rand, context)
    return shuffled, proof, permutation


def _check_witness(n: int, permutation: Sequence[int], rerandomizers: Sequence[Scalar]) -> None:
    if not 1 <= n <= MAX_DECK:
        raise LocalProtocolError(f"deck size {n} out of range")
    if sorted(permutation) != list(range(n)) or len(rerandomizers) != n:
        raise LocalProtocolError("permutation/rerandomizers do not fit the deck")


def _u_values(
    context: bytes,
    joint_key: Point,
    deck: Sequence[Ciphertext],
    shuffled: Sequence[Ciphertext],
    commitments: Sequence[Point],
) -> tuple[bytes, list[Scalar]]:
    """The challenge vector u: hash of the statement and the permutation commitment."""
    seed = hash_to_scalar(
        _U_SEED,
        context,
        joint_key.data,
        b"".join(ct.to_bytes() for ct in deck),
        b"".join(ct.to_bytes() for ct in shuffled),
        b"".join(p.data for p in commitments),
    ).data
    return seed, [hash_to_scalar(_U, seed, i.to_bytes(4, "big")) for i in range(len(deck))]


def _challenge(
    u_seed: bytes,
    chain: Sequence[Point],
    t1: Point,
    t2: Point,
    t3: Point,
    t4a: Point,
    t4b: Point,
    t_hat: Sequence[Point],
) -> Scalar:
    # u_seed already binds context, key, input, output and permutation commitments.
    return hash_to_scalar(
        _CHALLENGE,
        u_seed,
        b"".join(p.data for p in chain),
        t1.data,
        t2.data,
        t3.data,
        t4a.data,
        t4b.data,
        b"".join(p.data for p in t_hat),
    )


def prove_shuffle(
    deck: Sequence[Ciphertext],
    shuffled: Sequence[Ciphertext],
    joint_key: Point,
    permutation: Sequence[int],
    rerandomizers: Sequence[Scalar],
    rand: RandomSource,
    context: bytes,
) -> ShuffleProof:
    """Prove ``shuffled[i] == remask(deck[permutation[i]], rerandomizers[i])`` for all i.

    Given a false witness this still returns a proof, which then fails verification: that is
    how the tests play a cheater.
    """
    n = len(deck)
    _check_witness(n, permutation, rerandomizers)
    if len(shuffled) != n:
        raise LocalProtocolError("shuffled deck has a different length")
    gens = generators(_GENERATORS, n + 1)
    h, hs = gens[0], gens[1:]
    # Every nonce of the proof is bound to the witness and the whole statement.
    witness = b"".join(j.to_bytes(4, "big") for j in permutation) + b"".join(
        x.data for x in rerandomizers
    )
    rand = StatementRandom(
        rand, _PROOF_NONCES, witness, context, joint_key.data, _cts(deck), _cts(shuffled)
    )

    # Permutation commitment: c[pi(i)] = r[pi(i)] G + h_i.
    r = [Scalar.random(rand) for _ in range(n)]
    commitments: list[Point] = [G] * n
    for i, j in enumerate(permutation):
        commitments[j] = base_mul(r[j]) + hs[i]

    u_seed, u = _u_values(context, joint_key, deck, shuffled, commitments)
    u_perm = [u[j] for j in permutation]  # u'_i = u[pi(i)]

    # Commitment chain: chain_i = r_hat_i G + u'_i chain_{i-1}, chain_{-1} = h.
    r_hat = [Scalar.random(rand) for _ in range(n)]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = base_mul(r_hat[i]) + u_perm[i] * previous
        chain.append(previous)

    w1, w2, w3, w4 = (Scalar.random(rand) for _ in range(4))
    w_hat = [Scalar.random(rand) for _ in range(n)]
    w_prime = [Scalar.random(rand) for _ in range(n)]
    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = base_mul(w3) + point_sum(w * hi for w, hi in zip(w_prime, hs, strict=True))
    t4a = point_sum(w * ct.c2 for w, ct in zip(w_prime, shuffled, strict=True)) - w4 * joint_key
    t4b = point_sum(w * ct.c1 for w, ct in zip(w_prime, shuffled, strict=True)) - base_mul(w4)
    t_hat = [base_mul(w_hat[i]) + w_prime[i] * (chain[i - 1] if i else h) for i in range(n)]
    c = _challenge(u_seed, chain, t1, t2, t3, t4a, t4b, t_hat)

    # v_i = prod_{k > i} u'_k
    v = [ONE] * n
    for i in range(n - 2, -1, -1):
        v[i] = u_perm[i + 1] * v[i + 1]
    r_bar = _sum(r)
    r_chain = _sum(rh * vi for rh, vi in zip(r_hat, v, strict=True))
    r_tilde_c = _sum(rj * uj for rj, uj in zip(r, u, strict=True))
    r_tilde = _sum(ri * ui for ri, ui in zip(rerandomizers, u_perm, strict=True))
    return ShuffleProof(
        commitments=tuple(commitments),
        chain=tuple(chain),
        challenge=c,
        s1=w1 - c * r_bar,
        s2=w2 - c * r_chain,
        s3=w3 - c * r_tilde_c,
        s4=w4 - c * r_tilde,
        s_hat=tuple(wh - c * rh for wh, rh in zip(w_hat, r_hat, strict=True)),
        s_prime=tuple(wp - c * up for wp, up in zip(w_prime, u_perm, strict=True)),
    )


def _cts(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(ct.to_bytes() for ct in deck)


def _sum(values: Iterable[Scalar]) -> Scalar:
    acc = ZERO
    for s in values:
        acc = acc + s
    return acc


def verify_shuffle(
    deck: Sequence[Ciphertext],
    shuffled: Sequence[Ciphertext],
    joint_key: Point,
    proof: ShuffleProof,
    context: bytes,
    *,
    peer: str,
) -> None:
    """Raise ProofError naming ``peer`` unless ``proof`` shows ``shuffled`` is a permuted
    re-masking of ``deck`` under ``joint_key``.

    All points must already be validated group members (they are if they came through
    :meth:`Ciphertext.from_bytes` and :meth:`ShuffleProof.from_wire`).
    """
    n = len(deck)
    if not 1 <= n <= MAX_DECK:
        raise ProofError(peer, f"deck size {n} out of range")
    if len(shuffled) != n:
        raise ProofError(peer, f"shuffle output has {len(shuffled)} cards, input has {n}")
    if not (
        len(proof.commitments) == len(proof.chain) == len(proof.s_hat) == len(proof.s_prime) == n
    ):
        raise ProofError(peer, "shuffle proof vectors do not match the deck size")
    for p in (*proof.commitments, *proof.chain):
        if p.is_identity():
            raise CryptoError(peer, "identity point in shuffle proof")

    gens = generators(_GENERATORS, n + 1)
    h, hs = gens[0], gens[1:]
    u_seed, u = _u_values(context, joint_key, deck, shuffled, proof.commitments)
    c = proof.challenge

    u_prod = ONE
    for uj in u:
        u_prod = u_prod * uj
    c_bar = point_sum(proof.commitments) - point_sum(hs)
    c_hat = proof.chain[-1] - u_prod * h
    c_tilde = point_sum(uj * cj for uj, cj in zip(u, proof.commitments, strict=True))
    e_a = point_sum(uj * ct.c2 for uj, ct in zip(u, deck, strict=True))
    e_b = point_sum(uj * ct.c1 for uj, ct in zip(u, deck, strict=True))

    sp = proof.s_prime
    t1 = c * c_bar + base_mul(proof.s1)
    t2 = c * c_hat + base_mul(proof.s2)
    t3 = c * c_tilde + base_mul(proof.s3) + point_sum(s * hi for s, hi in zip(sp, hs, strict=True))
    t4a = (
        c * e_a
        - proof.s4 * joint_key
        + point_sum(s * ct.c2 for s, ct in zip(sp, shuffled, strict=True))
    )
    t4b = (
        c * e_b
        - base_mul(proof.s4)
        + point_sum(s * ct.c1 for s, ct in zip(sp, shuffled, strict=True))
    )
    t_hat = [
        c * proof.chain[i] + base_mul(proof.s_hat[i]) + sp[i] * (proof.chain[i - 1] if i else h)
        for i in range(n)
    ]
    if _challenge(u_seed, proof.chain, t1, t2, t3, t4a, t4b, t_hat) != c:
        raise ProofError(peer, "shuffle proof does not verify")
