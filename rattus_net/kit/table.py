"""Requests from a game to the table, the only way chance and hidden faces enter a game.

A game's rules never shuffle, never draw a random number and never decide what a face-down card
or token is. When the rules need one of those, the game stops with one of these requests as its
``pending`` value, and whoever drives the game answers it with ``answer`` (``machine.py``). The
local table (``local.py``) knows every face and answers at once; the network table answers them
with the cryptographic protocol, so that each peer learns only what it is entitled to.

Every pile a game ever shuffles has publicly known faces (Rattus Cartus's fresh population deck
or its face-up discard pile, Rattus's rat tokens), so a ``Shuffle`` carries those faces and the
new handles the game gave the shuffled pieces; after it, nobody knows which handle has which
face.
"""

from __future__ import annotations

from typing import NamedTuple


class Shuffle(NamedTuple):
    """Shuffle a pile of known ``faces`` into the face-down cards ``handles`` (top first).

    ``pile`` names the pile in the game's words (``"population"``, ``"rat supply"``...).
    Answer with ``None``."""

    pile: str
    faces: tuple[int, ...]
    handles: tuple[int, ...]


class Reveal(NamedTuple):
    """Turn up ``handles``: to everybody (``to is None``) or to player ``to`` only.

    Answer with one face per handle; a table that runs for one peer answers ``None`` for each
    face that peer may not learn."""

    handles: tuple[int, ...]
    to: int | None


class PublicRandom(NamedTuple):
    """A fair public random integer in ``range(bound)``; ``purpose`` says what it decides."""

    bound: int
    purpose: str


class Open(NamedTuple):
    """Player ``seat`` laid ``number`` cards face down that this peer could not see (it only
    learnt the count). Answer with the handles of those cards, as committed; the engine checks
    that they are still in his hand and, once turned up, that they may be laid."""

    seat: int
    number: int


class Rehandle(NamedTuple):
    """Mix ``seat``'s hand: its cards ``old`` become the face-down cards ``new``, in an order
    only he knows, so that no handle tells where a card came from. Answer with one face per
    new handle; a table that runs for another peer answers ``None`` for each."""

    seat: int
    old: tuple[int, ...]
    new: tuple[int, ...]


TableRequest = Shuffle | Reveal | PublicRandom | Open | Rehandle
"""Every request is a named tuple (so a tuple), and no game's decision is one: the machine
tells a request from a decision so (``machine.py``)."""
