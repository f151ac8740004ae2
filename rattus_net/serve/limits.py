"""Connections per address per minute: a flood from one address must not crowd out others.

Pure bookkeeping with the clock passed in, so it is tested without waiting. Each address keeps
the times of its recent connections (at most ``per_minute`` of them); one more within the
minute is refused. Addresses not seen for a minute are forgotten, so the table cannot grow
without bound under a flood from many addresses.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

WINDOW = 60.0


@dataclass
class RateLimiter:
    per_minute: int
    _seen: dict[str, deque[float]] = field(default_factory=dict)
    _last_sweep: float = 0.0

    def allow(self, address: str, now: float) -> bool:
        """Count a connection from ``address`` at ``now`` (seconds); ``False``: refuse it."""
        if now - self._last_sweep > WINDOW:
            self._sweep(now)
        times = self._seen.setdefault(address, deque())
        while times and now - times[0] >= WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        for address in [a for a, t in self._seen.items() if not t or now - t[-1] >= WINDOW]:
            del self._seen[address]
