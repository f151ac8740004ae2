"""Rattus Cartus, the card game (2 to 5 players): its rules, data, records, views and bots.

``game.py`` (the flow of a game), ``data.py`` (cards, buildings, the round plan), ``moves.py``
(moves and their text), ``view.py`` (what a seat may know), ``local.py`` (the local table),
``record.py``, ``report.py``, ``secure.py`` (the network table's form) and ``definition.py``
(the game interface, registered here). See ``docs/engine.md``.
"""

from rattus_net.games.cartus.definition import CartusGame
from rattus_net.kit.registry import register

GAME = register(CartusGame())
