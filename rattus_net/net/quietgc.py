"""Short garbage-collector pauses while a person plays at a network table.

Measured in a TUI-hosted five-player game (``benchmarks/tui.py --hosted 5``): once the
player's node ran off the screen's loop, the longest holds of that loop left were CPython's
full (generation 2) collections, 150 to 470 ms each on this machine. A full collection walks
every tracked object of the process (the screen's widgets and caches, five peers' sessions)
and holds the interpreter meanwhile, whichever thread started it: every thread stops, the
screen's included.

While a table is played, :class:`QuietCollector` moves what has survived so far out of the
collector's reach (``gc.freeze()``) about once a second, after a collection of the young
generations (a few milliseconds). A full collection then only walks what survived since the
last freeze. The price is memory: a reference cycle that becomes garbage after it was frozen
is kept until the table is left; then everything is handed back to the collector
(``gc.unfreeze()``), which reclaims it in its next full pass. A game costs some megabytes
that way (measured: some 15 MB of peak memory for a five-player game with four bot seats
in the process).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading

INTERVAL = 1.0
"""Seconds between two freezes (each after a young collection)."""

_lock = threading.Lock()
_users = 0  # collectors running in this process (two tables in one process: tests)


class QuietCollector:
    """Keeps full collections short from :meth:`start` to :meth:`stop` (on one loop)."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        """Begin (on the running loop, where the freezes happen)."""
        global _users
        if self._task is not None:
            return
        with _lock:
            _users += 1
        gc.freeze()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            gc.collect(1)  # (the young generations only: what is garbage by now goes)
            gc.freeze()

    def stop(self) -> None:
        """End; the last collector of the process gives every object back to the collector."""
        global _users
        task, self._task = self._task, None
        if task is None:
            return
        with contextlib.suppress(RuntimeError):  # (its loop is closed already)
            task.cancel()
        with _lock:
            _users -= 1
            if _users == 0:
                gc.unfreeze()


__all__ = ["INTERVAL", "QuietCollector"]
