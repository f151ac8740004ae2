"""What a peer node tells its user interface, shared by the parts of the node.

The node (:class:`~rattus_net.net.node.PeerNode`) and the parts it owns (the mesh of links,
the game's ending, the comeback) all report through one :class:`NodeEvents`: the user
interface's ``on_event(kind, seat, detail)`` hook, the faults seen so far, and whether the
node is closing (then nothing more is told, journaled or redialled).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

EventHook = Callable[[str, int | None, str], None]
"""``on_event(kind, seat, detail)``: runs on the node's loop, must not block."""


@dataclass
class NodeEvents:
    """The node's news for its user interface, and its closing flag."""

    names: tuple[str, ...]
    on_event: EventHook | None = None
    faults: list[str] = field(default_factory=list)
    closing: bool = False
    """The node is closing: its parts tell nothing more, journal no late news, and stop
    redialling."""

    def emit(self, kind: str, seat: int | None = None, detail: str = "") -> None:
        if self.on_event is not None and not self.closing:
            try:
                self.on_event(kind, seat, detail)
            except Exception:  # a user interface's bug must not stop the game
                log.exception("on_event hook failed")

    def fault(self, seat: int | None, reason: str) -> None:
        """A peer (or somebody unknown: ``None``) misbehaved: kept for the outcome, and told."""
        self.faults.append(f"{self.names[seat] if seat is not None else 'somebody'}: {reason}")
        self.emit("fault", seat, reason)


__all__ = ["EventHook", "NodeEvents"]
