"""Moved to ``rattus_net.kit.errors``; kept only until ``protocol/`` imports it from there."""

from rattus_net.kit.errors import CheatDetected, IllegalMove
from rattus_net.kit.errors import RattusNetError as RattusError

__all__ = ["CheatDetected", "IllegalMove", "RattusError"]
