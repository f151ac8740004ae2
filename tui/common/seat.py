"""The seat a person plays in the TUI: against bots on this machine
(:class:`rattus_net.kit.offline.OfflineTable`) or at a network table
(:class:`rattus_net.net.netgame.NetworkGame`). Both offer the screens the same face: the
seat's ``view``, ``names``, ``my_turn``, ``is_over``, ``play(move)``, ``advance()``,
``new_log_lines()``, ``awaited()`` and the game's ``definition``; the table screens ask
``network`` for what only one of them does (the bots' turns offline, the node's news, the
verdict on the record and ``w`` at a network table)."""

from __future__ import annotations

from typing import Any, TypeAlias

from rattus_net.kit.offline import OfflineTable
from rattus_net.net.netgame import NetworkGame

Seat: TypeAlias = OfflineTable[Any, Any] | NetworkGame

__all__ = ["Seat"]
