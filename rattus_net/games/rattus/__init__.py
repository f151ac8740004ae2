"""Rattus, the board game (2 to 4 players): components, rules, views, records and bots.

``game.py`` (the flow of a game), ``rules.py`` (checking, performing and listing moves),
``moves.py`` (moves and their text), ``view.py`` (what a seat may know), ``components.py`` and
``loader.py`` (the data file), ``local.py`` (the local table), ``record.py``, ``report.py``,
``terminal.py`` (the plain-text table) and ``definition.py`` (the game interface, registered
here). See ``docs/rattus-engine.md``.
"""

from rattus_net.games.rattus.definition import RattusDefinition
from rattus_net.kit.registry import register

GAME = register(RattusDefinition())
