"""Moved to ``rattus_net.kit.interface``; kept only until ``protocol/`` imports it from there."""

from typing import Any, TypeAlias

from rattus_net.kit import interface
from rattus_net.kit.interface import OpenedGame, WireError

SecureGame: TypeAlias = interface.SecureGame[Any, Any, Any]

__all__ = ["OpenedGame", "SecureGame", "WireError"]
