"""Rattus Net: the card game Rattus Cartus, played peer to peer in a terminal."""

__version__ = "0.1.0"
