"""The games of the Rattus family behind one interface (``base.py``), by name.

``get_game("rattus")`` or ``get_game("cartus")``; ``GAMES`` lists the names, the default
(Rattus Cartus) first. A record without a ``"game"`` field is a Rattus Cartus record.
"""

from __future__ import annotations

from rattus_net.games.base import GameDefinition, GameState, Outcome

GAMES = ("cartus", "rattus")
DEFAULT_GAME = "cartus"


def get_game(name: str) -> GameDefinition:
    """The game called ``name`` (one of ``GAMES``); ``ValueError`` for any other name."""
    if name == "cartus":
        from rattus_net.games.cartus.definition import CartusGame

        return CartusGame()
    if name == "rattus":
        from rattus_net.games.rattus.definition import RattusDefinition

        return RattusDefinition()
    raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")


__all__ = ["DEFAULT_GAME", "GAMES", "GameDefinition", "GameState", "Outcome", "get_game"]
