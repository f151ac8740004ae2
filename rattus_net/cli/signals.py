"""Signals, handled only where the program starts.

A signal belongs to the whole process, so library modules install no handler: they offer
what a handler calls (:func:`rattus_net.net.discovery.say_goodbyes` withdraws the process's
LAN adverts; a lingering headless game hands over ``node.leave``, :data:`.news.Lingering`),
and the entry points here install the handlers around what they run:

* :func:`goodbyes_on_signals`: around a TUI (the menu, ``rattus host``/``join``/``resume``
  at a screen, each served session): SIGTERM or SIGHUP (a terminal window closed, ``kill``)
  first withdraws the adverts, then ends the process as the signal would have;
* :func:`leave_on_interrupt`: a headless game over and lingering for the others leaves on
  Ctrl+C (its record is written) instead of being interrupted.

(The headless commands' SIGTERM and SIGHUP: ``_until_signal`` in
:mod:`rattus_net.cli.network`; the servers': :mod:`rattus_net.serve.running`.)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType

GOODBYE_WAIT = 3.0
"""Seconds a signal waits for the adverts' goodbyes before it ends the process."""

_ENDING = (signal.SIGTERM, signal.SIGHUP)
_DISCOVERY = "rattus_net.net.discovery"


def _goodbye_then_end(signum: int, frame: FrameType | None) -> None:
    if _DISCOVERY in sys.modules:  # (never imported: no advert is out, nothing to load now)
        from rattus_net.net.discovery import say_goodbyes

        say_goodbyes(GOODBYE_WAIT)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


@contextlib.contextmanager
def goodbyes_on_signals() -> Iterator[None]:
    """While the block runs: SIGTERM or SIGHUP withdraws every LAN advert of the process (a
    goodbye every browser hears at once), then ends it as it would have. The handlers are
    put back after the block; off the main thread (a test's), nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, _goodbye_then_end) for sig in _ENDING}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def leave_on_interrupt(leave: Callable[[], None]) -> None:
    """From now on Ctrl+C (SIGINT) calls ``leave`` on the running loop (a headless game over
    and lingering: it leaves, its record written, rather than being interrupted)."""
    with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, leave)


__all__ = ["GOODBYE_WAIT", "goodbyes_on_signals", "leave_on_interrupt"]
