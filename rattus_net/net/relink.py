"""What a link asks and resends once it (re)connects: sans-IO, the clock passed in.

Each side of a new link first says (``H``) how many of the other's frames it holds; the other
sends from there (:func:`resend_from`). A resumed peer that lacks frames of its own asks a
peer that holds them to send them back (``R``), at most once every :data:`ASK_AGAIN` seconds
per link (:class:`Asks`); a peer asked answers with the copies it holds (:func:`copies_for`),
no more often than a token bucket allows (:class:`CopyBucket`), so a peer asking again and
again costs no more work or memory. The mesh (:mod:`rattus_net.net.mesh`) does the I/O; what
a resumed peer may send itself is :mod:`rattus_net.net.recovery`'s business.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from rattus_net.net.recovery import MAX_COPIES

COPY_RATE = 1.0
"""``R`` requests answered per second on one link (a burst of :data:`COPY_BURST`)."""
COPY_BURST = 2.0
ASK_AGAIN = 2.0
"""Seconds before a resumed peer asks a peer again for a frame of its own it still lacks."""


def resend_from(have: int, sent: int) -> int:
    """Where our frames go out from on a link whose peer says it holds ``have`` of the
    ``sent`` we made (a peer claiming more than we made gets nothing it already has)."""
    return max(0, min(have, sent))


def copies_for(frames: Sequence[bytes], start: int) -> list[tuple[int, bytes]]:
    """The copies that answer an ``R`` for ``start``: the asker's own frames we hold from
    there, by index, at most :data:`~rattus_net.net.recovery.MAX_COPIES` of them."""
    if start < 0:
        return []
    return [(start + i, frame) for i, frame in enumerate(frames[start : start + MAX_COPIES])]


@dataclass
class CopyBucket:
    """The ``R`` requests one link may make (a token bucket refilled at :data:`COPY_RATE`)."""

    refilled: float
    tokens: float = COPY_BURST

    def may_copy(self, now: float) -> bool:
        """Whether a request made at ``now`` is answered (and takes a token)."""
        self.tokens = min(COPY_BURST, self.tokens + max(0.0, now - self.refilled) * COPY_RATE)
        self.refilled = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


@dataclass
class Asks:
    """When to ask each peer again (``R``) for the frame of ours we lack."""

    asked: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Per seat: the index asked last, and when."""

    def due(
        self, index: int, holders: Collection[int], linked: Collection[int], now: float
    ) -> list[int]:
        """The seats to ask now for our frame ``index``: those that claim to hold it, are
        linked, and were not asked for it within :data:`ASK_AGAIN` seconds."""
        seats = []
        for seat in sorted(holders):
            if seat not in linked:
                continue
            last = self.asked.get(seat)
            if last is not None and last[0] == index and now - last[1] < ASK_AGAIN:
                continue
            self.asked[seat] = (index, now)
            seats.append(seat)
        return seats

    def forget(self, seat: int) -> None:
        """``seat``'s link went down: a new link asks it at once."""
        self.asked.pop(seat, None)


__all__ = [
    "ASK_AGAIN",
    "COPY_BURST",
    "COPY_RATE",
    "Asks",
    "CopyBucket",
    "copies_for",
    "resend_from",
]
