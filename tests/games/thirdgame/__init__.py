"""Nibble, the tests' third game: it lives only here, registered from this folder, and goes
through every path the shipped games do (``test_thirdgame.py``; ``docs/adding-a-game.md``
walks through it).

``game.py`` (the rules: pure), ``view.py`` (what a seat may know), ``bots.py``, ``words.py``
(its log, results and self-play summary), ``record.py`` (its face-level record),
``secure.py`` (the network table's side) and ``definition.py`` (the interface, registered
here), and ``rules.md`` (its rules summary, for the TUI's rules screen). It has no screens:
the TUI plays it on its generic table.
"""

from games.thirdgame.definition import NibbleDefinition
from rattus_net.kit.registry import register

GAME = register(NibbleDefinition())
