"""Per-address limits: connections per minute (a flood from one address must not crowd out
others), and new names claimed per day (:class:`ClaimsPerAddress`).

Pure bookkeeping with the clock passed in, so it is tested without waiting. Each address keeps
the times of its recent connections (at most ``per_minute`` of them); one more within the
minute is refused. Addresses not seen for a minute are forgotten, so the table cannot grow
without bound under a flood from many addresses. Refusals are counted too (per address, for the
same minute), so that a server can answer the first few in words and simply drop a flood.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

WINDOW = 60.0


@dataclass
class RateLimiter:
    per_minute: int
    _seen: dict[str, deque[float]] = field(default_factory=dict)
    _refused: dict[str, int] = field(default_factory=dict)
    _last_sweep: float = 0.0

    def allow(self, address: str, now: float) -> bool:
        """Count a connection from ``address`` at ``now`` (seconds); ``False``: refuse it."""
        if now - self._last_sweep > WINDOW:
            self._sweep(now)
        times = self._seen.setdefault(address, deque())
        while times and now - times[0] >= WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            self._refused[address] = self._refused.get(address, 0) + 1
            return False
        times.append(now)
        return True

    def refused(self, address: str) -> int:
        """How many connections from ``address`` were refused lately (reset every minute or
        so, when quiet addresses are forgotten)."""
        return self._refused.get(address, 0)

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        self._refused.clear()
        for address in [a for a, t in self._seen.items() if not t or now - t[-1] >= WINDOW]:
            del self._seen[address]


CLAIM_WINDOW = 24 * 3600.0


@dataclass
class ClaimsPerAddress:
    """New names claimed per address per day, for a server that lets any key in: without it,
    one address could claim names without end, a fresh key for every few.

    Kept in memory (a restarted server starts counting again); the clock is passed in. Only
    claims that took are noted (:meth:`note`); :meth:`allowed` asks before one is made."""

    per_day: int
    _claims: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._claims.get(address, deque())
        while times and now - times[0] >= CLAIM_WINDOW:
            times.popleft()
        if not times:
            self._claims.pop(address, None)
        return times

    def allowed(self, address: str, now: float) -> bool:
        """Whether ``address`` may claim one more name at ``now`` (seconds)."""
        return len(self._recent(address, now)) < self.per_day

    def note(self, address: str, now: float) -> None:
        """``address`` has just claimed a new name."""
        self._recent(address, now)
        self._claims.setdefault(address, deque()).append(now)
        if len(self._claims) > 10000:  # a flood from many addresses: forget the quietest
            oldest = min(self._claims, key=lambda a: self._claims[a][-1])
            del self._claims[oldest]
