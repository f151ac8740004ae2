from __future__ import annotations

import pytest

from protocol.crypto import elgamal
from protocol.crypto.group import RandomSource, Scalar, base_mul, hash_to_point
from protocol.crypto.proofs import (
    SigmaProof,
    prove_dleq,
    prove_schnorr,
    verify_dleq,
    verify_schnorr,
)
from protocol.errors import CryptoError, ProofError


def flip(data: bytes, i: int = 0) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1 :]


def test_schnorr_round_trip_and_tampering(rand: RandomSource) -> None:
    x = Scalar.random(rand)
    public = base_mul(x)
    proof = prove_schnorr(x, rand, b"ctx")
    verify_schnorr(public, proof, b"ctx", peer="alice")
    verify_schnorr(public, SigmaProof.from_bytes(proof.to_bytes()), b"ctx", peer="alice")
    other = base_mul(Scalar.random(rand))
    cases = [
        (public, proof, b"other ctx"),
        (other, proof, b"ctx"),
        (public, SigmaProof(proof.challenge, proof.response + Scalar.from_int(1)), b"ctx"),
        (public, SigmaProof(proof.challenge + Scalar.from_int(1), proof.response), b"ctx"),
    ]
    for pub, prf, ctx in cases:
        with pytest.raises(ProofError) as info:
            verify_schnorr(pub, prf, ctx, peer="alice")
        assert info.value.peer == "alice"


def test_key_announcement_rogue_key_is_rejected(rand: RandomSource) -> None:
    _, honest = elgamal.generate_key(rand, b"seat 0")
    elgamal.verify_key(honest, b"seat 0", peer="alice")
    # Mallory announces Y_m = Z - Y_alice without knowing its logarithm, reusing a proof.
    z = base_mul(Scalar.random(rand))
    _, own = elgamal.generate_key(rand, b"seat 1")
    rogue = elgamal.KeyAnnouncement(z - honest.public, own.proof)
    with pytest.raises(ProofError) as info:
        elgamal.verify_key(rogue, b"seat 1", peer="mallory")
    assert info.value.peer == "mallory"
    # A valid proof is bound to its context: it cannot be replayed for another seat.
    with pytest.raises(ProofError):
        elgamal.verify_key(honest, b"seat 1", peer="mallory")


def test_dleq_round_trip_and_tampering(rand: RandomSource) -> None:
    x = Scalar.random(rand)
    public = base_mul(x)
    base = hash_to_point(b"t", b"base")
    result, proof = prove_dleq(x, base, rand, b"ctx")
    assert result == x * base
    verify_dleq(public, base, result, proof, b"ctx", peer="bob")
    wrong_share = Scalar.random(rand) * base
    with pytest.raises(ProofError):
        verify_dleq(public, base, wrong_share, proof, b"ctx", peer="bob")
    # A correct proof for another key or base does not transfer.
    y = Scalar.random(rand)
    forged, forged_proof = prove_dleq(y, base, rand, b"ctx")
    with pytest.raises(ProofError):
        verify_dleq(public, base, forged, forged_proof, b"ctx", peer="bob")
    with pytest.raises(ProofError):
        verify_dleq(public, hash_to_point(b"t", b"other"), result, proof, b"ctx", peer="bob")


def test_sigma_proof_decode_rejects_bad_bytes() -> None:
    for bad in (b"", b"\x00" * 63, b"\xff" * 64):
        with pytest.raises(CryptoError):
            SigmaProof.from_bytes(bad, peer="p")


def test_decryption_share_tampering_and_sealing(rand: RandomSource) -> None:
    keys = [elgamal.generate_key(rand, b"k") for _ in range(2)]
    joint = elgamal.joint_key(a.public for _, a in keys)
    ct = elgamal.mask(elgamal.card_point(7), joint, Scalar.random(rand))
    shares = [elgamal.decryption_share(x, ct, rand, b"card 0") for x, _ in keys]
    for (_, ann), share in zip(keys, shares, strict=True):
        elgamal.verify_share(ann.public, ct, share, b"card 0", peer="p")
    assert elgamal.open_card(ct, [s.share for s in shares], 10) == 7

    # A share made with the wrong key, or a share for a different card, is caught.
    bad = elgamal.DecryptionShare(Scalar.random(rand) * ct.c1, shares[0].proof)
    with pytest.raises(ProofError):
        elgamal.verify_share(keys[0][1].public, ct, bad, b"card 0", peer="p0")
    with pytest.raises(ProofError):
        elgamal.verify_share(keys[1][1].public, ct, shares[0], b"card 0", peer="p1")
    other = elgamal.remask(ct, joint, Scalar.random(rand))
    with pytest.raises(ProofError):
        elgamal.verify_share(keys[0][1].public, other, shares[0], b"card 0", peer="p0")
    # Tampered bytes: either an invalid encoding or a proof that fails.
    raw = shares[0].to_bytes()
    for i in (0, 40, 80):
        with pytest.raises(CryptoError):
            decoded = elgamal.DecryptionShare.from_bytes(flip(raw, i), peer="p0")
            elgamal.verify_share(keys[0][1].public, ct, decoded, b"card 0", peer="p0")


def test_card_points_are_distinct_and_decodable() -> None:
    points = [elgamal.card_point(i) for i in range(84)]
    assert len({p.data for p in points}) == 84
    assert [elgamal.card_index(p, 84) for p in points] == list(range(84))
    with pytest.raises(CryptoError):
        elgamal.card_index(elgamal.card_point(84), 84)


def test_ciphertext_decode(rand: RandomSource) -> None:
    ct = elgamal.mask(elgamal.card_point(1), base_mul(Scalar.random(rand)), Scalar.random(rand))
    assert elgamal.Ciphertext.from_bytes(ct.to_bytes()) == ct
    with pytest.raises(CryptoError):
        elgamal.Ciphertext.from_bytes(ct.to_bytes()[:63])
    with pytest.raises(CryptoError):
        elgamal.Ciphertext.from_bytes(b"\x01" + bytes(31) + ct.c2.data)
