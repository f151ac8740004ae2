"""Public randomness nobody controls, and a deterministic stream drawn from it.

Commit-reveal among N peers: every peer commits to a 32-byte secret, and only once all
commitments are in does anyone reveal. The seed is a hash of all reveals in seat order, so it
is uniform as long as one peer is honest, and no peer can choose it: by the time a peer sees
the others' secrets, its own is fixed. (The last revealer can still *abort* after seeing the
result; the session layer treats a missing reveal as a stall and blames that peer.)

:class:`RandomStream` turns a seed into any number of unbiased draws, identically on every
peer, so public chance (starting player, random buildings) is replayable from the record.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from protocol.errors import LocalProtocolError, ProofError, RemoteProtocolError

SECRET_BYTES = 32
_COMMIT_DOMAIN = b"rattus-net/v1/randomness/commit"
_SEED_DOMAIN = b"rattus-net/v1/randomness/seed"
_STREAM_DOMAIN = b"rattus-net/v1/randomness/stream"

T = TypeVar("T")


def _frame(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(8, "big") + p for p in parts)


def commitment(secret: bytes, peer: str, context: bytes) -> bytes:
    """SHA-256 commitment to a peer's secret, bound to the peer and the round's context.

    Binding the peer name means a peer cannot copy another's commitment and then its reveal.
    The secret is 32 uniform bytes, so the hash hides it without a separate salt.
    """
    return hashlib.sha256(_COMMIT_DOMAIN + _frame(context, peer.encode("utf-8"), secret)).digest()


class CommitReveal:
    """Sans-IO state of one commit-reveal round among ``peers`` (in seat order).

    Feed it the commitments and reveals as they arrive; :meth:`seed` is available once every
    peer has revealed. Misbehaviour raises a RemoteProtocolError naming the peer.
    """

    def __init__(self, peers: Sequence[str], context: bytes) -> None:
        if not peers or len(set(peers)) != len(peers):
            raise LocalProtocolError("peers must be a non-empty list of distinct names")
        self.peers = tuple(peers)
        self.context = context
        self._commitments: dict[str, bytes] = {}
        self._reveals: dict[str, bytes] = {}

    def add_commitment(self, peer: str, digest: bytes) -> None:
        self._check_peer(peer)
        if not isinstance(digest, bytes) or len(digest) != 32:
            raise RemoteProtocolError(peer, "commitment must be 32 bytes")
        if peer in self._commitments:
            if self._commitments[peer] == digest:
                return  # an idempotent retransmission is harmless
            raise RemoteProtocolError(peer, "second, different commitment", digest)
        self._commitments[peer] = digest

    @property
    def all_committed(self) -> bool:
        """True once every peer has committed: only then may anyone reveal."""
        return len(self._commitments) == len(self.peers)

    def add_reveal(self, peer: str, secret: bytes) -> None:
        self._check_peer(peer)
        if not self.all_committed:
            raise RemoteProtocolError(peer, "revealed before every peer had committed")
        if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
            raise ProofError(peer, "reveal must be 32 bytes")
        if not hmac.compare_digest(commitment(secret, peer, self.context), self._commitments[peer]):
            raise ProofError(peer, "reveal does not match its commitment", secret)
        self._reveals[peer] = secret

    @property
    def complete(self) -> bool:
        return len(self._reveals) == len(self.peers)

    def missing(self) -> list[str]:
        """Peers we still wait for (commitments first, then reveals): whom to blame on a stall."""
        if not self.all_committed:
            return [p for p in self.peers if p not in self._commitments]
        return [p for p in self.peers if p not in self._reveals]

    def seed(self) -> bytes:
        if not self.complete:
            raise LocalProtocolError(f"seed not ready; waiting for {self.missing()}")
        parts = [self.context]
        for peer in self.peers:
            parts += [peer.encode("utf-8"), self._reveals[peer]]
        return hashlib.sha256(_SEED_DOMAIN + _frame(*parts)).digest()

    def _check_peer(self, peer: str) -> None:
        if peer not in self.peers:
            raise RemoteProtocolError(peer, "not a participant of this randomness round")


class RandomStream:
    """Deterministic random stream: HMAC-SHA256(seed, domain || counter) blocks.

    Every peer holding the seed draws the same values in the same order. Not for secrets that
    must stay private from seed holders (use a RandomSource for those).
    """

    def __init__(self, seed: bytes) -> None:
        if len(seed) < 16:
            raise LocalProtocolError("seed too short")
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def randbytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(
                self._seed, _STREAM_DOMAIN + self._counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def __call__(self, n: int) -> bytes:
        """So a stream can serve as a RandomSource (deterministic tests, derived secrets)."""
        return self.randbytes(n)

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise LocalProtocolError("randbelow needs n > 0")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.randbytes(nbytes), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place, driven by :meth:`randbelow`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise LocalProtocolError("choice from an empty sequence")
        return items[self.randbelow(len(items))]


def draw_without_replacement(
    stream: RandomStream, pool: Sequence[T], count: int
) -> tuple[list[T], list[T]]:
    """``count`` items drawn uniformly without replacement from ``pool`` (in draw order), and
    the items left (in ``pool`` order): the first ``count`` steps of a Fisher-Yates shuffle.
    The building deck is drawn this way from a commit-reveal seed, card by card as it is
    turned up; ``pool`` must be in a canonical order (sorted) so every peer draws the same."""
    if not 0 <= count <= len(pool):
        raise LocalProtocolError(f"cannot draw {count} of {len(pool)} items")
    left = list(pool)
    drawn = [left.pop(stream.randbelow(len(left))) for _ in range(count)]
    return drawn, left
