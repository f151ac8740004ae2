"""Rattus, the board game (2 to 4 players): components, rules engine, views, records.

``game.py`` (the flow of a game), ``rules.py`` (checking, performing and listing moves),
``moves.py`` (moves and their text), ``view.py`` (what a seat may know), ``components.py`` and
``loader.py`` (the data file), ``local.py`` (the local table), ``record.py``, ``report.py``
and ``definition.py`` (the game interface). See ``docs/rattus-engine.md``.
"""
