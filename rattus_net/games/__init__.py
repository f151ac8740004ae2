"""The games of Rattus Net, one subpackage each; every one registers itself when imported.

The registry (``rattus_net.kit.registry``) imports every subpackage here: a new game is a new
folder, and nothing else names it. (``get_game``, ``GAMES`` and ``DEFAULT_GAME`` are read
here by ``protocol/`` and the network node until they ask the registry themselves.)
"""

from __future__ import annotations

from typing import Any

from rattus_net.kit.registry import game_names, get_game, unnamed_game


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        return game_names()
    if name == "DEFAULT_GAME":
        return unnamed_game().name
    raise AttributeError(name)


__all__ = ["get_game"]
