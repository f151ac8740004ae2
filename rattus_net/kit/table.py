"""Requests from a game to the table, the only way chance and hidden faces enter a game.

A game's rules never shuffle, never draw a random number and never decide what a face-down card
or token is. When the rules need one of those, the game stops with one of these requests as its
``pending`` value, and whoever drives the game answers it with ``answer`` (``machine.py``). The
local table (``local.py``) knows every face and answers at once; the network table answers them
with the cryptographic protocol (``protocol/requests.py``), so that each peer learns only what
it is entitled to.

The requests are an open set of typed values, each kind a class of its own that says, in one
place, everything the kit does with it: what the engine takes as its answer (:meth:`take`),
why a step played before it can no longer be taken back (:attr:`why_final`, for
``undo.py``), and which method of a table answers it (:meth:`visit`: every table, local,
network, audit or sampling, is a :class:`TableAnswers`). A game that needs a new kind of
chance adds a class here and a method to :class:`TableAnswers`; the type checker then names
every table that must learn to answer it. Nobody tells one kind from another by ``isinstance``
or by shape, and a game's decision is anything that is not a ``TableRequest``.

Every pile a game ever shuffles has publicly known faces (a fresh deck, a face-up discard pile,
a bag of tokens), so a ``Shuffle`` carries those faces and the new handles the game gave the
shuffled pieces; after it, nobody knows which handle has which face.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rattus_net.kit.errors import TableMisuse

if TYPE_CHECKING:
    from rattus_net.kit.machine import Machine

    AnyMachine = Machine[Any, Any, Any, Any]

T_co = TypeVar("T_co", covariant=True)


class TableAnswers(Protocol[T_co]):
    """A table: one method per kind of request, each giving what the table does with it
    (``T_co``: the answer, or whatever its driver wants back). :meth:`TableRequest.visit`
    calls the one for the request's kind."""

    def shuffle(self, req: Shuffle) -> T_co: ...

    def reveal(self, req: Reveal) -> T_co: ...

    def public_random(self, req: PublicRandom) -> T_co: ...

    def open(self, req: Open) -> T_co: ...

    def rehandle(self, req: Rehandle) -> T_co: ...


class TableRequest(ABC):
    """What every kind of request says about itself (a subclass for each kind, frozen)."""

    __slots__ = ()

    @abstractmethod
    def visit(self, table: TableAnswers[T_co]) -> T_co:
        """``table``'s method for this kind of request, called with it."""
        raise NotImplementedError

    @abstractmethod
    def take(self, game: AnyMachine, value: object) -> None:
        """Give ``game`` the table's answer ``value``: check it (``TableMisuse``, nothing
        changed) and keep what it tells the engine."""
        raise NotImplementedError

    @property
    @abstractmethod
    def why_final(self) -> str:
        """Why the steps played before this request cannot be taken back, in the player's
        words ("a pile was shuffled since")."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Shuffle(TableRequest):
    """Shuffle a pile of known ``faces`` into the face-down cards ``handles`` (top first).

    ``pile`` names the pile in the game's words (``"population"``, ``"rat supply"``...).
    Answer with ``None``."""

    pile: str
    faces: tuple[int, ...]
    handles: tuple[int, ...]

    def visit(self, table: TableAnswers[T_co]) -> T_co:
        return table.shuffle(self)

    def take(self, game: AnyMachine, value: object) -> None:
        if value is not None:
            raise TableMisuse("a shuffle is answered with None")

    @property
    def why_final(self) -> str:
        return "a pile was shuffled since"


@dataclass(frozen=True, slots=True)
class Reveal(TableRequest):
    """Turn up ``handles``: to everybody (``to is None``) or to player ``to`` only.

    Answer with one face per handle; a table that runs for one peer answers ``None`` for each
    face that peer may not learn."""

    handles: tuple[int, ...]
    to: int | None

    def visit(self, table: TableAnswers[T_co]) -> T_co:
        return table.reveal(self)

    def take(self, game: AnyMachine, value: object) -> None:
        if not isinstance(value, list | tuple) or len(value) != len(self.handles):
            raise TableMisuse("a reveal is answered with one face per handle")
        allowed = game.face_range
        if allowed is not None and any(f is not None and f not in allowed for f in value):
            raise TableMisuse("a face out of range")
        faces = game.faces
        if self.to is None:
            if any(f is None for f in value):
                raise TableMisuse("a public reveal must give every face")
            faces.update(zip(self.handles, value, strict=True))
            game.public.update(self.handles)
        else:
            for h, f in zip(self.handles, value, strict=True):
                if f is not None:
                    faces[h] = f
            game.seen[self.to].update(self.handles)

    @property
    def why_final(self) -> str:
        if self.to is None:
            return "something was turned up since"
        return "a hidden piece was looked at since"


@dataclass(frozen=True, slots=True)
class PublicRandom(TableRequest):
    """A fair public random integer in ``range(bound)``; ``purpose`` says what it decides."""

    bound: int
    purpose: str

    def visit(self, table: TableAnswers[T_co]) -> T_co:
        return table.public_random(self)

    def take(self, game: AnyMachine, value: object) -> None:
        if not isinstance(value, int) or not 0 <= value < self.bound:
            raise TableMisuse(f"a random number in range({self.bound}) was expected")
        game._random = value

    @property
    def why_final(self) -> str:
        return "a random number was drawn since"


@dataclass(frozen=True, slots=True)
class Open(TableRequest):
    """Player ``seat`` laid ``number`` cards face down that this peer could not see (it only
    learnt the count). Answer with the handles of those cards, as committed; the engine checks
    that they are still in his hand and, once turned up, that they may be laid."""

    seat: int
    number: int

    def visit(self, table: TableAnswers[T_co]) -> T_co:
        return table.open(self)

    def take(self, game: AnyMachine, value: object) -> None:
        game._open_hidden(self, value)

    @property
    def why_final(self) -> str:
        return "face-down pieces were opened since"


@dataclass(frozen=True, slots=True)
class Rehandle(TableRequest):
    """Mix ``seat``'s hand: its cards ``old`` become the face-down cards ``new``, in an order
    only he knows, so that no handle tells where a card came from. Answer with one face per
    new handle; a table that runs for another peer answers ``None`` for each."""

    seat: int
    old: tuple[int, ...]
    new: tuple[int, ...]

    def visit(self, table: TableAnswers[T_co]) -> T_co:
        return table.rehandle(self)

    def take(self, game: AnyMachine, value: object) -> None:
        game._mixed(self, value)

    @property
    def why_final(self) -> str:
        return "face-down pieces were mixed since"
