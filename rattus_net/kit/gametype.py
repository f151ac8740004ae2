"""What a game is, declared as data: the facts about a game the shared stack asks (as
OpenSpiel's ``GameType`` does for its games), in one value, rather than one flag per feature
spread over the game's definition.

A game's definition sets ``game_type = GameType(...)``; the shared code reads the fields
(``GameDefinition`` gives the most asked ones as properties). A new fact about games is a new
field here, with the default every game so far has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


def _no_words() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class GameType:
    """The facts about a game that the shared stack asks."""

    records_named: bool = True
    """Whether its face-level records (``rattus replay``'s) carry its name (``"game"``). The
    first game's came first and carry none: a face-level record that names no game is its.
    (Network parameters and signed records always name their game.)"""

    network_play: bool = False
    """Whether tables of this game can be hosted and joined on the network. The one switch
    for it: ``rattus host``/``join``, the lobby, the adverts and the TUI's forms and menu all
    ask it (a game turns it on once its network play exists)."""

    network_version: int = 1
    """The version of the game's moves and records at a network table: peers of the same
    game but another version cannot share a table (adverts and the lobby say so)."""

    turns_of_steps: bool = True
    """Whether a player's turn can be several decisions in a row, steps that ``u`` may take
    back (``rattus_net/kit/undo.py``). A game whose every decision is a turn of its own says
    ``False``: its tables offer no undo key, which could never take anything back there."""

    text_table: bool = False
    """Whether it has a plain-text table (``GameDefinition.play_text``) for ``rattus play``
    outside a terminal."""

    step_words: Mapping[str, str] = field(default_factory=_no_words)
    """What a player reads while a step of the network protocol runs, in the game's words,
    by the step's name (``docs/protocol.md``: ``commit-moves``, ``open-moves``,
    ``private-mix``...); ``{things}`` stands for the pieces the table masks. A step the game
    does not name is said in the shared words (``rattus_net/net/netgame.py``)."""

    words: frozenset[str] = frozenset()
    """The game's own words: its pieces, places, classes and actions (lowercase). Shared
    code never uses them (``tests/test_layers.py``): what differs between games comes from
    the games."""
