"""The program's network thread, as a screen finds it on its app.

The TUI app owns the one network thread of the process (``RattusNetApp.network``: made at
the first need, ended when the app ends) and every table a screen opens runs there: a lobby
is handed it (:meth:`~rattus_net.net.lobbyside.LobbySide.adopt`), a resumed game gets it at
its start. An app without one (a test's bare app) leaves each table to a thread of its own.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from rattus_net.net.loopthread import LoopThread


@runtime_checkable
class NetworkOwner(Protocol):
    """An app that owns the program's network thread."""

    @property
    def network(self) -> LoopThread: ...


def network_of(app: object) -> LoopThread | None:
    """The network thread ``app`` owns, or None."""
    return app.network if isinstance(app, NetworkOwner) else None


__all__ = ["NetworkOwner", "network_of"]
