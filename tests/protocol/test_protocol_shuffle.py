from __future__ import annotations

import dataclasses

import pytest

from protocol.crypto import elgamal
from protocol.crypto.elgamal import Ciphertext
from protocol.crypto.group import ONE, Point, RandomSource, Scalar, base_mul
from protocol.crypto.shuffle import (
    ShuffleProof,
    apply_shuffle,
    prove_shuffle,
    random_permutation,
    shuffle,
    verify_shuffle,
)
from protocol.errors import CryptoError, DecodeError, ProofError, RemoteProtocolError

N = 6
CTX = b"game 1/deck/shuffle by seat 0"


@pytest.fixture
def setup(rand: RandomSource) -> tuple[Point, list[Ciphertext]]:
    key = base_mul(Scalar.random(rand))
    return key, elgamal.initial_deck(N, key, b"game 1")


def assert_rejected(
    deck: list[Ciphertext], out: list[Ciphertext], key: Point, proof: ShuffleProof, ctx: bytes = CTX
) -> None:
    with pytest.raises(ProofError) as info:
        verify_shuffle(deck, out, key, proof, ctx, peer="mallory")
    assert info.value.peer == "mallory"


def test_honest_shuffle_verifies_and_round_trips(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    out, proof = shuffle(deck, key, rand, CTX)
    verify_shuffle(deck, out, key, proof, CTX, peer="alice")
    assert ShuffleProof.from_wire(proof.to_wire(), peer="alice") == proof
    assert len({ct.to_bytes() for ct in out} & {ct.to_bytes() for ct in deck}) == 0
    # One-element deck and the identity permutation are valid edge cases.
    out1, proof1 = shuffle(deck[:1], key, rand, CTX)
    verify_shuffle(deck[:1], out1, key, proof1, CTX, peer="alice")


def test_known_permutation_moves_cards(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    x = Scalar.random(rand)
    key = base_mul(x)
    deck = elgamal.initial_deck(N, key, b"g")
    perm = [3, 1, 5, 0, 2, 4]
    rs = [Scalar.random(rand) for _ in range(N)]
    out = apply_shuffle(deck, key, perm, rs)
    verify_shuffle(
        deck, out, key, prove_shuffle(deck, out, key, perm, rs, rand, CTX), CTX, peer="a"
    )
    faces = [elgamal.open_card(ct, [elgamal.own_share(x, ct)], N) for ct in out]
    assert faces == perm


def test_replaced_card_is_detected(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    out, proof = shuffle(deck, key, rand, CTX)
    forged = list(out)
    forged[2] = elgamal.mask(elgamal.card_point(N + 10), key, Scalar.random(rand))
    assert_rejected(deck, forged, key, proof)
    # A cheater who proves with its real witness over the forged output fails too.
    perm = random_permutation(N, rand)
    rs = [Scalar.random(rand) for _ in range(N)]
    cheat = apply_shuffle(deck, key, perm, rs)
    cheat[0] = elgamal.mask(
        elgamal.card_point(0), key, Scalar.random(rand)
    )  # a second copy of card 0
    assert_rejected(deck, cheat, key, prove_shuffle(deck, cheat, key, perm, rs, rand, CTX))


def test_duplicated_card_is_detected(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    perm = random_permutation(N, rand)
    rs = [Scalar.random(rand) for _ in range(N)]
    out = apply_shuffle(deck, key, perm, rs)
    dup = list(out)
    dup[1] = elgamal.remask(deck[perm[0]], key, rs[1])  # input perm[0] appears twice
    assert_rejected(deck, dup, key, prove_shuffle(deck, dup, key, perm, rs, rand, CTX))
    honest_proof = prove_shuffle(deck, out, key, perm, rs, rand, CTX)
    assert_rejected(deck, dup, key, honest_proof)


def test_dropped_card_is_detected(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    out, proof = shuffle(deck, key, rand, CTX)
    assert_rejected(deck, out[:-1], key, proof)
    # A full proof for a shorter deck does not pass for this deck either.
    short_out, short_proof = shuffle(deck[:-1], key, rand, CTX)
    assert_rejected(deck, short_out, key, short_proof)
    assert_rejected(deck, [*short_out, short_out[0]], key, short_proof)


def test_unchanged_input_with_proof_for_other_permutation(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    perm = [1, 0, 2, 3, 4, 5]
    rs = [Scalar.random(rand) for _ in range(N)]
    assert_rejected(
        deck, list(deck), key, prove_shuffle(deck, list(deck), key, perm, rs, rand, CTX)
    )
    _, proof = shuffle(deck, key, rand, CTX)
    assert_rejected(deck, list(deck), key, proof)


def test_swapped_outputs_wrong_key_wrong_context(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    out, proof = shuffle(deck, key, rand, CTX)
    swapped = [out[1], out[0], *out[2:]]
    assert_rejected(deck, swapped, key, proof)
    assert_rejected(deck, out, key, proof, ctx=b"another step")
    other_key = base_mul(Scalar.random(rand))
    assert_rejected(deck, out, other_key, proof)
    # Re-masking under a key the cheater controls instead of the joint key is caught.
    perm = random_permutation(N, rand)
    rs = [Scalar.random(rand) for _ in range(N)]
    bad = apply_shuffle(deck, other_key, perm, rs)
    assert_rejected(deck, bad, key, prove_shuffle(deck, bad, key, perm, rs, rand, CTX))


@pytest.mark.parametrize(
    "field", ["challenge", "s1", "s2", "s3", "s4", "s_hat", "s_prime", "commitments", "chain"]
)
def test_tampered_proof_fields(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]], field: str
) -> None:
    key, deck = setup
    out, proof = shuffle(deck, key, rand, CTX)
    value = getattr(proof, field)
    if isinstance(value, Scalar):
        new: object = value + ONE
    elif isinstance(value[0], Scalar):
        new = (value[0] + ONE, *value[1:])
    else:
        new = (*value[:-1], value[-1] + base_mul(ONE))
    assert_rejected(deck, out, key, dataclasses.replace(proof, **{field: new}))


def test_proof_wire_decode_rejects_malformed(
    rand: RandomSource, setup: tuple[Point, list[Ciphertext]]
) -> None:
    key, deck = setup
    _, proof = shuffle(deck, key, rand, CTX)
    wire = proof.to_wire()
    bad_values: list[object] = [
        [],
        {k: v for k, v in wire.items() if k != "e"},
        {**wire, "c": b""},
        {**wire, "ch": wire["ch"][:-32]},  # type: ignore[index]
        {**wire, "s": wire["s"][:-1]},  # type: ignore[index]
        {**wire, "sp": "text"},
    ]
    for value in bad_values:
        with pytest.raises(DecodeError):
            ShuffleProof.from_wire(value, peer="m")  # type: ignore[arg-type]
    with pytest.raises(CryptoError):
        ShuffleProof.from_wire({**wire, "c": b"\x01" + bytes(31) + wire["c"][32:]}, peer="m")  # type: ignore[index]
    with pytest.raises(RemoteProtocolError):
        ShuffleProof.from_wire({**wire, "e": b"\xff" * 32}, peer="m")


def test_full_size_deck_84_cards(rand: RandomSource) -> None:
    key = base_mul(Scalar.random(rand))
    deck = elgamal.initial_deck(84, key, b"g")
    out, proof = shuffle(deck, key, rand, CTX)
    verify_shuffle(deck, out, key, proof, CTX, peer="a")
    forged = [*out[:-1], out[0]]
    assert_rejected(deck, forged, key, proof)
