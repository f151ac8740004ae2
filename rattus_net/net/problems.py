"""One plain sentence for a failure a player meets at a network table.

What a lobby, a table or a join form shows when something fails comes from here. An error
class of this project carries a sentence written for the player (its ``str()``); a failure
of the operating system says the system's words for its ``errno``. Anything else (a failure
inside asyncio, zeroconf or Python itself) would show text written for programmers, such as
``Task <Task pending ...> got Future <Future pending> attached to a different loop``: the
player reads that this program met an internal error instead, and the details go to the log.
"""

from __future__ import annotations

import errno
import logging
import os
import re

from rattus_net.net.lobby import LobbyRefusal

log = logging.getLogger(__name__)

OUR_PACKAGES = ("rattus_net", "protocol", "tui")
"""Error classes defined in these packages say what went wrong in the player's words."""

_RAW = re.compile(r"Traceback|<Task|<Future|\bTask\b.*\bFuture\b|coro=<| object at 0x")
"""Signs of a programmer's text (a traceback, asyncio's tasks and futures, an object's
repr) inside an otherwise plain message: such a message is not shown either."""

INTERNAL = "an internal error of this program stopped it"


def ours(exc: BaseException) -> bool:
    """Whether ``exc`` is of an error class this project defines (whose text is a sentence)."""
    return type(exc).__module__.split(".")[0] in OUR_PACKAGES


def problem_text(exc: BaseException) -> str:
    """One plain line for a failure of the network (no traceback, no programmer's text)."""
    if isinstance(exc, LobbyRefusal):
        text = exc.reason
    elif isinstance(exc, ConnectionRefusedError):
        return "nobody answers at that address (is the table open?)"
    elif isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
        text = "that port is taken by another program: choose another one (or any free one)"
    elif isinstance(exc, OSError) and exc.errno:  # (asyncio's strerror quotes a tuple)
        text = f"network error: {os.strerror(exc.errno)}"
    elif isinstance(exc, OSError) and exc.strerror:
        text = f"network error: {exc.strerror}"
    elif ours(exc):
        text = str(exc) or type(exc).__name__
    else:
        text = ""
    if not text or _RAW.search(text):
        log.error("shown to the player as an internal error", exc_info=exc)
        text = f"{INTERNAL} ({type(exc).__name__})"
    if "nobody answers there" in text:  # the transport's words for a refused connection
        where = text.split(": ", 1)[0].removeprefix("cannot connect to ")
        return f"nobody answers at {where} (is the table open?)"
    return text[0].upper() + text[1:]


__all__ = ["INTERNAL", "problem_text"]
