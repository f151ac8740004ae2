"""The limits of a server of sessions: connections per address per minute (a flood from one
address must not crowd out others), new names claimed per address per day
(:class:`ClaimsPerAddress`), and what each visitor's game process may take
(:class:`ProcessLimits`).

The rate limiter is pure bookkeeping with the clock passed in, so it is tested without waiting.
Each address keeps the times of its recent connections (at most ``per_minute`` of them); one
more within the minute is refused. Addresses not seen for a minute are forgotten, so the table
cannot grow without bound under a flood from many addresses. Refusals are counted too (per
address, for the same minute), so that a server can answer the first few in words and simply
drop a flood.
"""

from __future__ import annotations

import os
import resource
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


MIB = 1024 * 1024
DEFAULT_MEMORY_MIB = 512
DEFAULT_NICE = 10


@dataclass(frozen=True, slots=True)
class ProcessLimits:
    """What one visitor's game process may take of the machine the server runs on.

    A game at its menu holds about 50 MiB of data; a local search bot thinks hard and long.
    What keeps the server itself answering is a lower CPU priority for every game (``nice``:
    the server and its other visitors go first; a long game is never cut off, as a CPU-time
    limit would) and a cap on each game's data (``RLIMIT_DATA``: the memory it writes, not the
    address space it merely reserves; a game past it ends with an error, its journal kept).
    ``memory`` 0 means no cap. Core dumps are off: a crashing game does not fill the disk.
    Applied in the child before it runs the game, so the game cannot undo them (the hard
    limit is lowered too; a raised nice cannot be lowered without privileges)."""

    memory: int = DEFAULT_MEMORY_MIB * MIB
    nice: int = DEFAULT_NICE

    def to_json(self) -> dict[str, int]:
        return {"memory": self.memory, "nice": self.nice}

    @classmethod
    def from_json(cls, data: object) -> ProcessLimits:
        if not isinstance(data, dict):
            return cls()
        return cls(
            int(data.get("memory", DEFAULT_MEMORY_MIB * MIB)), int(data.get("nice", DEFAULT_NICE))
        )

    def apply(self) -> None:
        """In the child (one thread: nice is per thread on Linux, inherited by new ones)."""
        if self.memory > 0:
            _, hard = resource.getrlimit(resource.RLIMIT_DATA)
            cap = self.memory if hard == resource.RLIM_INFINITY else min(self.memory, hard)
            resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.nice > os.getpriority(os.PRIO_PROCESS, 0):
            os.setpriority(os.PRIO_PROCESS, 0, min(self.nice, 19))
