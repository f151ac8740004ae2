"""Commitments, identities and public randomness."""

from __future__ import annotations

import collections

import pytest

from protocol.crypto import commit
from protocol.crypto.group import RandomSource
from protocol.crypto.identity import Identity, PublicIdentity, fingerprint
from protocol.errors import CryptoError, LocalProtocolError, ProofError, RemoteProtocolError
from protocol.randomness import CommitReveal, RandomStream, commitment


def test_commitment_round_trip_and_tampering(rand: RandomSource) -> None:
    salt = commit.new_salt(rand)
    digest = commit.commit(b"cards 3,5", salt, domain=b"face-down")
    commit.check(digest, b"cards 3,5", salt, peer="a", domain=b"face-down")
    other_salt = commit.new_salt(rand)
    for value, s, domain in [
        (b"cards 3,6", salt, b"face-down"),
        (b"cards 3,5", other_salt, b"face-down"),
        (b"cards 3,5", salt, b"other"),
        (b"cards 3,5", salt[:31], b"face-down"),
    ]:
        with pytest.raises(ProofError) as info:
            commit.check(digest, value, s, peer="a", domain=domain)
        assert info.value.peer == "a"
    assert commit.commit(b"x", salt) != commit.commit(b"x", other_salt)  # hiding needs the salt
    with pytest.raises(LocalProtocolError):
        commit.commit(b"x", b"short")


def test_identity_sign_verify(rand: RandomSource) -> None:
    alice = Identity.generate(rand)
    sig = alice.sign(b"move 1")
    alice.public.verify(b"move 1", sig)
    assert len(alice.fingerprint) == 16 and alice.fingerprint == fingerprint(alice.public.sign_key)
    restored = Identity.from_secret(alice.secret_bytes())
    assert restored.public == alice.public
    for msg, s in [
        (b"move 2", sig),
        (b"move 1", sig[:-1] + bytes([sig[-1] ^ 1])),
        (b"move 1", b""),
    ]:
        with pytest.raises(ProofError) as info:
            alice.public.verify(msg, s)
        assert info.value.peer == alice.fingerprint
    with pytest.raises(ProofError) as info:
        Identity.generate(rand).public.verify(b"move 1", sig, peer="seat 2")
    assert info.value.peer == "seat 2"


def test_public_identity_decode(rand: RandomSource) -> None:
    pub = Identity.generate(rand).public
    assert PublicIdentity.from_bytes(pub.sign_key) == pub
    with pytest.raises(CryptoError):
        PublicIdentity.from_bytes(pub.sign_key[:31], peer="x")


def test_commit_reveal_seed() -> None:
    peers = ["a", "b", "c"]
    secrets = {p: bytes([i]) * 32 for i, p in enumerate(peers)}

    def run(order: list[str]) -> bytes:
        cr = CommitReveal(peers, b"round 1")
        for p in order:
            cr.add_commitment(p, commitment(secrets[p], p, b"round 1"))
        assert cr.all_committed
        for p in order:
            assert not cr.complete
            cr.add_reveal(p, secrets[p])
        return cr.seed()

    assert run(peers) == run(["c", "a", "b"])  # arrival order does not matter, seat order does


def test_commit_reveal_blames() -> None:
    cr = CommitReveal(["a", "b"], b"ctx")
    cr.add_commitment("a", commitment(b"A" * 32, "a", b"ctx"))
    with pytest.raises(RemoteProtocolError) as info:
        cr.add_reveal("a", b"A" * 32)  # too early
    assert info.value.peer == "a"
    assert cr.missing() == ["b"]
    cr.add_commitment("b", commitment(b"B" * 32, "b", b"ctx"))
    with pytest.raises(RemoteProtocolError):
        cr.add_commitment("b", b"\x00" * 32)
    with pytest.raises(ProofError) as info:
        cr.add_reveal("b", b"C" * 32)
    assert info.value.peer == "b"
    with pytest.raises(RemoteProtocolError):
        cr.add_reveal("zed", b"A" * 32)
    with pytest.raises(LocalProtocolError):
        cr.seed()


def test_copied_commitment_cannot_be_opened() -> None:
    cr = CommitReveal(["a", "b"], b"ctx")
    digest = commitment(b"A" * 32, "a", b"ctx")
    cr.add_commitment("a", digest)
    cr.add_commitment("b", digest)
    cr.add_reveal("a", b"A" * 32)
    with pytest.raises(ProofError):
        cr.add_reveal("b", b"A" * 32)


def test_random_stream_determinism_and_uniformity() -> None:
    a, b = RandomStream(b"s" * 32), RandomStream(b"s" * 32)
    assert [a.randbelow(1000) for _ in range(50)] == [b.randbelow(1000) for _ in range(50)]
    stream = RandomStream(b"t" * 32)
    counts = collections.Counter(stream.randbelow(3) for _ in range(6000))
    assert set(counts) == {0, 1, 2} and all(1800 < c < 2200 for c in counts.values())
    assert stream.randbelow(1) == 0
    deck = list(range(84))
    stream.shuffle(deck)
    assert sorted(deck) == list(range(84)) and deck != list(range(84))
    assert stream.choice("xyz") in "xyz"
    with pytest.raises(LocalProtocolError):
        stream.randbelow(0)


SMALL_ORDER_OR_NON_CANONICAL = [
    bytes([1]) + bytes(31),  # the identity point: every signature (R = identity, S = 0) fits
    bytes([1]) + bytes(30) + b"\x80",  # the identity with the sign bit set
    bytes(32),  # order 4
    bytes([0xEC]) + b"\xff" * 30 + b"\x7f",  # order 2 (y = -1)
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
    bytes([0xEE]) + b"\xff" * 30 + b"\x7f",  # y = p + 1: a non-canonical encoding of y = 1
]


@pytest.mark.parametrize("key", SMALL_ORDER_OR_NON_CANONICAL)
def test_small_order_and_non_canonical_signing_keys_are_refused(
    rand: RandomSource, key: bytes
) -> None:
    with pytest.raises(CryptoError, match="invalid signing key"):
        PublicIdentity.from_bytes(key, peer="seat 2")


def test_parameters_with_the_identity_point_as_a_key_are_refused(rand: RandomSource) -> None:
    """Seat 2's key is the identity point: anybody could sign "its" messages."""
    from protocol.params import GameParams
    from protocol.seeded import seeded_params
    from rattus_net.games.cartus.config import GameConfig

    params, _ = seeded_params(GameConfig(GameConfig.default_names(2)), 3, "cartus")
    wire = params.to_wire()
    keys = wire["sign_keys"]
    assert isinstance(keys, list)
    keys[1] = bytes([1]) + bytes(31)
    with pytest.raises(CryptoError):
        GameParams.from_wire(wire)
