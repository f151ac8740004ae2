from __future__ import annotations

import pytest
from nacl import bindings as sodium

from protocol.crypto import group
from protocol.crypto.group import IDENTITY, OPS, G, L, Point, Scalar
from protocol.errors import CryptoError, LocalProtocolError

P = 2**255 - 19
ORDER_TWO = (P - 1).to_bytes(32, "little")  # (0, -1), a small-order point


def test_scalar_arithmetic_matches_integers(rand: group.RandomSource) -> None:
    a, b = Scalar.random(rand), Scalar.random(rand)
    assert (a + b).to_int() == (a.to_int() + b.to_int()) % L
    assert (a - b).to_int() == (a.to_int() - b.to_int()) % L
    assert (a * b).to_int() == (a.to_int() * b.to_int()) % L
    assert (a * a.invert()).to_int() == 1
    assert (-a + a).is_zero()
    with pytest.raises(LocalProtocolError):
        group.ZERO.invert()


def test_point_arithmetic(rand: group.RandomSource) -> None:
    a, b = Scalar.random(rand), Scalar.random(rand)
    assert a * G + b * G == (a + b) * G
    assert a * (b * G) == (a * b) * G
    assert (a * G) - (a * G) == IDENTITY
    assert a * IDENTITY == IDENTITY
    assert group.ZERO * G == IDENTITY
    assert -(a * G) + a * G == IDENTITY
    assert Point.from_bytes((a * G).data) == a * G


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (IDENTITY.data, "identity"),
        (ORDER_TWO, "small order"),
        ((P + 1).to_bytes(32, "little"), "non-canonical"),
        (b"\x00" * 31, "short"),
        (b"\x00" * 33, "long"),
        (bytes([2]) + bytes(31), "not on curve"),
    ],
)
def test_point_decode_rejects(data: bytes, why: str) -> None:
    with pytest.raises(CryptoError) as info:
        Point.from_bytes(data, peer="mallory")
    assert info.value.peer == "mallory"


def test_point_decode_rejects_mixed_order_point() -> None:
    mixed = sodium.crypto_core_ed25519_add(G.data, ORDER_TWO)
    with pytest.raises(CryptoError):
        Point.from_bytes(mixed)


def test_scalar_decode_rejects_non_canonical() -> None:
    assert Scalar.from_bytes((L - 1).to_bytes(32, "little")).to_int() == L - 1
    for bad in (L.to_bytes(32, "little"), b"\xff" * 32, b"\x01" * 31):
        with pytest.raises(CryptoError):
            Scalar.from_bytes(bad, peer="p")


def test_hash_to_point_and_scalar_domain_separation() -> None:
    p1 = group.hash_to_point(b"a", b"x")
    assert p1 == group.hash_to_point(b"a", b"x")
    assert Point.from_bytes(p1.data) == p1
    assert p1 != group.hash_to_point(b"b", b"x")
    assert group.hash_to_point(b"a", b"xy") != group.hash_to_point(b"ax", b"y")
    assert group.hash_to_scalar(b"a", b"x") != group.hash_to_scalar(b"a", b"x", b"")
    gens = group.generators(b"test", 5)
    assert len(set(gens)) == 5 and G not in gens


def test_operation_counter(rand: group.RandomSource) -> None:
    s = Scalar.random(rand)
    h = group.hash_to_point(b"c", b"")
    OPS.reset()
    _ = s * h
    _ = s * G  # multiplying the base point uses the fixed-base path
    assert (OPS.scalarmults, OPS.base_scalarmults, OPS.total_scalarmults) == (1, 1, 2)
