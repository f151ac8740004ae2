"""The prime-order group: the order-L subgroup of Ed25519, via libsodium (PyNaCl).

Why this group: libsodium's constant-time Ed25519 arithmetic costs about 0.13 ms per scalar
multiplication here, 30 to 250 times faster than pure-Python big integers, and its
``crypto_core_ed25519_is_valid_point`` gives a cheap, complete membership test (canonical
encoding, on the curve, not of small order, in the prime-order subgroup).

Conventions:

* :class:`Scalar` is an integer modulo L, stored as 32 little-endian canonical bytes.
* :class:`Point` is a 32-byte canonical encoding of a point of the order-L subgroup. Points
  built here from valid points are valid by construction; points received from a peer must go
  through :meth:`Point.from_bytes`, which checks membership and raises
  :class:`~protocol.errors.CryptoError`.
* libsodium refuses the identity as a scalar-multiplication input and as a result, so
  :func:`Scalar.__mul__` handles the identity and the zero scalar itself (they can appear inside
  proof verification equations built from hostile values); the identity is never *accepted*
  from the wire.
* Every scalar multiplication is counted in :data:`OPS` so benchmarks can report costs in a
  machine-independent unit.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import overload

from nacl import bindings as _sodium
from nacl.exceptions import RuntimeError as _SodiumRuntimeError

from protocol.errors import CryptoError, LocalProtocolError

RandomSource = Callable[[int], bytes]
"""``rand(n)`` returns ``n`` uniformly random bytes (``os.urandom`` has this signature)."""

L = 2**252 + 27742317777372353535851937790883648493
"""Order of the prime-order subgroup of Ed25519."""

_SCALAR_BYTES = 32
_POINT_BYTES = 32


@dataclass(slots=True)
class OpCounter:
    """Counts of expensive group operations since the last :meth:`reset` (for benchmarks)."""

    scalarmults: int = 0
    """Variable-base scalar multiplications (about 0.13 ms each with libsodium)."""
    base_scalarmults: int = 0
    """Fixed-base multiplications by the generator G (precomputed tables, about 5x cheaper)."""
    point_checks: int = 0
    """Group-membership checks of received points."""

    def reset(self) -> None:
        self.scalarmults = 0
        self.base_scalarmults = 0
        self.point_checks = 0

    @property
    def total_scalarmults(self) -> int:
        return self.scalarmults + self.base_scalarmults


OPS = OpCounter()
"""Process-wide operation counter. Only benchmarks read it; nothing depends on its value."""


@dataclass(frozen=True, slots=True)
class Scalar:
    """An integer modulo L, as 32 canonical little-endian bytes (immutable)."""

    data: bytes

    def __post_init__(self) -> None:
        if len(self.data) != _SCALAR_BYTES:
            raise LocalProtocolError("a scalar is 32 bytes")

    @classmethod
    def from_int(cls, value: int) -> Scalar:
        return cls((value % L).to_bytes(_SCALAR_BYTES, "little"))

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> Scalar:
        """Decode a received scalar; non-canonical encodings (>= L) are rejected."""
        if not isinstance(data, bytes) or len(data) != _SCALAR_BYTES:
            raise CryptoError(peer, "scalar must be 32 bytes", _as_evidence(data))
        if int.from_bytes(data, "little") >= L:
            raise CryptoError(peer, "non-canonical scalar", data)
        return cls(data)

    @classmethod
    def random(cls, rand: RandomSource) -> Scalar:
        """A uniform non-zero scalar: 64 random bytes reduced mod L (bias below 2^-250)."""
        while True:
            raw = rand(64)
            if len(raw) != 64:
                raise LocalProtocolError("random source returned the wrong number of bytes")
            s = cls(_sodium.crypto_core_ed25519_scalar_reduce(raw))
            if not s.is_zero():
                return s

    def to_int(self) -> int:
        return int.from_bytes(self.data, "little")

    def is_zero(self) -> bool:
        return self.data == _ZERO_BYTES

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar(_sodium.crypto_core_ed25519_scalar_add(self.data, other.data))

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar(_sodium.crypto_core_ed25519_scalar_sub(self.data, other.data))

    def __neg__(self) -> Scalar:
        return Scalar(_sodium.crypto_core_ed25519_scalar_negate(self.data))

    @overload
    def __mul__(self, other: Scalar) -> Scalar: ...
    @overload
    def __mul__(self, other: Point) -> Point: ...
    def __mul__(self, other: Scalar | Point) -> Scalar | Point:
        if isinstance(other, Scalar):
            return Scalar(_sodium.crypto_core_ed25519_scalar_mul(self.data, other.data))
        return _scalarmult(self, other)

    def invert(self) -> Scalar:
        if self.is_zero():
            raise LocalProtocolError("zero has no inverse")
        return Scalar(_sodium.crypto_core_ed25519_scalar_invert(self.data))

    def __repr__(self) -> str:
        return f"Scalar({self.data.hex()[:16]}...)"


_ZERO_BYTES = bytes(32)
ZERO = Scalar(_ZERO_BYTES)
ONE = Scalar.from_int(1)


@dataclass(frozen=True, slots=True)
class Point:
    """A point of the prime-order subgroup, as its 32-byte canonical encoding (immutable).

    Equality is byte equality, which is point equality because libsodium only produces, and
    :meth:`from_bytes` only accepts, canonical encodings.
    """

    data: bytes

    def __post_init__(self) -> None:
        if len(self.data) != _POINT_BYTES:
            raise LocalProtocolError("a point is 32 bytes")

    @classmethod
    def from_bytes(cls, data: bytes, *, peer: str | None = None) -> Point:
        """Decode a received point, checking it is a valid non-identity group element."""
        if not isinstance(data, bytes) or len(data) != _POINT_BYTES:
            raise CryptoError(peer, "point must be 32 bytes", _as_evidence(data))
        OPS.point_checks += 1
        if not _sodium.crypto_core_ed25519_is_valid_point(data):
            raise CryptoError(peer, "not a point of the prime-order group", data)
        return cls(data)

    def is_identity(self) -> bool:
        return self.data == _IDENTITY_BYTES

    def __add__(self, other: Point) -> Point:
        return Point(_sodium.crypto_core_ed25519_add(self.data, other.data))

    def __sub__(self, other: Point) -> Point:
        return Point(_sodium.crypto_core_ed25519_sub(self.data, other.data))

    def __neg__(self) -> Point:
        return IDENTITY - self

    def __repr__(self) -> str:
        return f"Point({self.data.hex()[:16]}...)"


def _as_evidence(data: object) -> bytes | None:
    return bytes(data) if isinstance(data, bytes | bytearray) and len(data) <= 1024 else None


_IDENTITY_BYTES = b"\x01" + bytes(31)
IDENTITY = Point(_IDENTITY_BYTES)
"""The neutral element. Never valid on the wire; appears only inside computations."""

G = Point(_sodium.crypto_scalarmult_ed25519_base_noclamp(ONE.data))
"""The standard Ed25519 base point, generator of the prime-order subgroup."""


def _scalarmult(s: Scalar, p: Point) -> Point:
    if s.is_zero() or p.is_identity():
        return IDENTITY
    if p.data == G.data:
        return base_mul(s)
    OPS.scalarmults += 1
    try:
        return Point(_sodium.crypto_scalarmult_ed25519_noclamp(s.data, p.data))
    except _SodiumRuntimeError as exc:  # only an invalid point can get here: our own bug
        raise LocalProtocolError("scalar multiplication of an unchecked point") from exc


def base_mul(s: Scalar) -> Point:
    """``s * G`` with libsodium's fixed-base tables (cheaper than a variable-base multiply)."""
    if s.is_zero():
        return IDENTITY
    OPS.base_scalarmults += 1
    return Point(_sodium.crypto_scalarmult_ed25519_base_noclamp(s.data))


def point_sum(points: Iterable[Point]) -> Point:
    """Sum of points (the identity for an empty iterable)."""
    acc = IDENTITY
    for p in points:
        acc = acc + p
    return acc


# --- hashing into the group, with domain separation --------------------------------------------

_H2S_PREFIX = b"rattus-net/v1/hash-to-scalar\x00"
_H2P_PREFIX = b"rattus-net/v1/hash-to-point\x00"


def frame(*parts: bytes) -> bytes:
    """Unambiguous concatenation: each part is prefixed by its 8-byte big-endian length.

    Used for every hash input in the protocol, so no two different tuples of byte strings can
    hash the same way by shifting bytes between neighbouring parts.
    """
    return b"".join(len(p).to_bytes(8, "big") + p for p in parts)


def hash_to_scalar(domain: bytes, *parts: bytes) -> Scalar:
    """A scalar from SHA-512(prefix, domain, parts) reduced mod L (uniform up to 2^-250)."""
    digest = hashlib.sha512(_H2S_PREFIX + frame(domain, *parts)).digest()
    return Scalar(_sodium.crypto_core_ed25519_scalar_reduce(digest))


def hash_to_point(domain: bytes, *parts: bytes) -> Point:
    """A point with unknown discrete logarithm: Elligator 2 (libsodium ``from_uniform``).

    ``from_uniform`` clears the cofactor, so the result lies in the prime-order subgroup. A
    counter is appended and incremented in the (astronomically unlikely) case the result is the
    identity or otherwise invalid, so the function is total and deterministic.
    """
    counter = 0
    while True:
        digest = hashlib.sha512(
            _H2P_PREFIX + frame(domain, *parts, counter.to_bytes(4, "big"))
        ).digest()
        candidate = _sodium.crypto_core_ed25519_from_uniform(digest[:32])
        if _sodium.crypto_core_ed25519_is_valid_point(candidate):
            return Point(candidate)
        counter += 1  # pragma: no cover


@lru_cache(maxsize=64)
def generators(domain: bytes, count: int) -> tuple[Point, ...]:
    """``count`` independent generators for Pedersen-style commitments, cached per domain."""
    return tuple(hash_to_point(domain, i.to_bytes(4, "big")) for i in range(count))


_NONCE = b"rattus-net/v1/statement-nonce"


class StatementRandom:
    """Nonces bound to the full statement, in the manner of deterministic signatures.

    A RandomSource whose bytes are HMAC-SHA512 blocks under ``SHA-512(frame(label, secret,
    context, public inputs..., 32 bytes of the caller's source))``. The same secret, context
    and inputs give the same nonces (a peer that re-runs a step after a crash sends the same
    proof again); any different input gives unrelated nonces. So no two proofs for different
    statements ever share a nonce, which is what would let two colluders who feed a
    restarted peer different inputs solve ``s = k + c x`` for its secret key ``x``."""

    __slots__ = ("_block", "_buf", "_key")

    def __init__(
        self, rand: RandomSource, label: bytes, secret: bytes, context: bytes, *publics: bytes
    ) -> None:
        self._key = hashlib.sha512(
            frame(_NONCE, label, secret, context, *publics, rand(32))
        ).digest()
        self._block = 0
        self._buf = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += hmac.new(self._key, self._block.to_bytes(8, "big"), "sha512").digest()
            self._block += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out
