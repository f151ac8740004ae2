"""Moved to ``rattus_net.kit.table``; kept only until ``protocol/`` imports it from there."""

from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle, TableRequest

__all__ = ["Open", "PublicRandom", "Rehandle", "Reveal", "Shuffle", "TableRequest"]
