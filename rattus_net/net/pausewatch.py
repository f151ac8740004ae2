"""Noticing that this program was stopped (SIGSTOP, a debugger, a held virtual machine).

A stopped process runs nothing, yet the monotonic clock goes on: woken, a peer would find
every step older than the stall timeout and judge the others on its first tick, before it has
even reconnected. The event loop cannot tell such a pause from its own work (checking a
backlog of proofs takes seconds), so a small thread looks at the clock every quarter second
instead: it needs the processor for microseconds, so it runs on time however busy the loop
is, and a jump between two of its looks is time in which the whole process did not run. The
node asks it (:meth:`PauseWatch.take`) before it judges anybody.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

PAUSED = 5.0
"""Seconds the clock may jump between two looks a quarter of a second apart before it counts
as a pause."""


class PauseWatch:
    """A daemon thread that adds up the pauses it sees, until :meth:`stop`."""

    def __init__(
        self,
        period: float = 0.25,
        threshold: float = PAUSED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.period = period
        self.threshold = threshold
        self._clock = clock
        self._lock = threading.Lock()
        self._gap = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pause-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def take(self) -> float:
        """Seconds this process was stopped since the last call (0 if it was not)."""
        with self._lock:
            gap, self._gap = self._gap, 0.0
        return gap

    def _run(self) -> None:
        last = self._clock()
        while not self._stop.wait(self.period):
            now = self._clock()
            gap = now - last - self.period
            last = now
            if gap > self.threshold:
                with self._lock:
                    self._gap += gap
