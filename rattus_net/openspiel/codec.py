"""Fixed action numbers for a game's moves (what OpenSpiel needs), found beside each game.

OpenSpiel numbers every move of a game once and for all (``num_distinct_actions``): an action
number must mean the same move wherever it is legal. A move of Rattus Net is a value object
whose space can be large and parametric (Rattus Cartus enters a building with any
sub-multiset of its hand), so a move is *spelt* as a short sequence of actions from a small
fixed alphabet: each action of the sequence is a decision of its own in OpenSpiel, and the
move is played once its spelling is complete. Spellings are prefix-free, so a complete
spelling names exactly one move.

A game supplies its spelling as a module ``actions`` in its package (the way it supplies its
screens as ``ui``), with ``make_codec(view)``: a :class:`MoveCodec` for games of the
configuration the seat view ``view`` belongs to. The alphabet is fixed by the game's data and
that configuration's components; a game without an ``actions`` module cannot be loaded into
OpenSpiel (:class:`NoActionCodec` says so), since only the game knows its move space.

This module is pure: it imports neither OpenSpiel nor a game.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Protocol

from rattus_net.kit.interface import AnyGame
from rattus_net.kit.registry import game_package


class NoActionCodec(LookupError):
    """The game has no ``actions`` module, so no fixed action numbers."""


class MoveCodec(Protocol):
    """How one game's moves are spelt as action numbers in ``range(num_actions)``."""

    num_actions: int

    def spell(self, move: Any) -> tuple[int, ...]:
        """The actions that spell ``move`` (a complete, prefix-free spelling)."""
        ...

    def next_actions(self, view: Any, prefix: tuple[int, ...]) -> list[int]:
        """The actions that may follow ``prefix`` (sorted) for the view's seat, which must
        act: those that begin or continue the spelling of one of its legal moves."""
        ...

    def move_of(self, view: Any, prefix: tuple[int, ...]) -> Any | None:
        """The move ``prefix`` spells completely, or ``None`` while it is incomplete."""
        ...

    def action_name(self, action: int) -> str:
        """The action in words (``enter 2``, ``card Chu4``)."""
        ...


def codec_module(game: AnyGame) -> str | None:
    """The name of ``game``'s ``actions`` module, or ``None`` if it has none."""
    package = game_package(game)
    if package is None:
        return None
    name = f"{package}.actions"
    return name if importlib.util.find_spec(name) is not None else None


def make_codec(game: AnyGame, view: Any) -> MoveCodec:
    """The move codec ``game`` supplies for the configuration ``view`` belongs to."""
    name = codec_module(game)
    if name is None:
        raise NoActionCodec(
            f"{game.title} has no action numbers for OpenSpiel (no 'actions' module beside it)"
        )
    codec: MoveCodec = importlib.import_module(name).make_codec(view)
    return codec
