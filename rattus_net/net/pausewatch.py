"""Noticing that this program was stopped (SIGSTOP, a debugger, a held virtual machine).

A stopped process runs nothing, yet the monotonic clock goes on: woken, a peer would find
every step older than the stall timeout and judge the others on its first tick, before it has
even reconnected. The event loop cannot tell such a pause from its own work (checking a
backlog of proofs takes seconds), so a small thread looks at the clock every quarter second
instead: it needs the processor for microseconds, so it runs on time however busy the loop
is, and a jump between two of its looks is time in which the whole process did not run. The
node asks it (:meth:`PauseWatch.take`) before it judges anybody; and since, woken, the loop
may ask before the thread has had its next look, the asking looks too: a last look of the
thread older than the threshold is a pause just ended.
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
        self._last = clock()  # the last look (the thread's, or the one of take() that saw a pause)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pause-watch", daemon=True)

    def start(self) -> None:
        with self._lock:
            self._last = self._clock()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def take(self) -> float:
        """Seconds this process was stopped since the last call (0 if it was not)."""
        with self._lock:
            if self._thread.is_alive() and not self._stop.is_set():  # (else nobody looks)
                self._look(self._clock(), moved_on=False)
            gap, self._gap = self._gap, 0.0
        return gap

    def _look(self, now: float, moved_on: bool) -> None:
        """Count the time since the last look as a pause if it is longer than the threshold
        (the caller holds the lock). The thread's look always moves the last look on; the
        asker's only when it counts a pause (so the thread does not count it again)."""
        gap = now - self._last - self.period
        if gap > self.threshold:
            self._gap += gap
            moved_on = True
        if moved_on and now > self._last:  # (a look read before the asker's is not newer)
            self._last = now

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            now = self._clock()  # (read outside the lock: an asker never waits for it)
            with self._lock:
                self._look(now, moved_on=True)
