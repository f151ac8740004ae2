"""The local table: knows every face, answers every table request at once.

Used for offline play against bots, tests and benchmarks. Its chance comes from a seeded
``random.Random`` (so a seed fixes a game), or from a script of known outcomes (so a record can
fix the card order and be replayed exactly). Everything it decided is kept in ``chance`` so the
game record can say what the card order was.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rattus_net.engine.errors import SetupError, TableMisuse
from rattus_net.engine.game import Game
from rattus_net.engine.moves import Move
from rattus_net.engine.table import PublicRandom, Rehandle, Reveal, Shuffle


@dataclass
class Chance:
    """What the table decided: shuffled orders (faces, top first) per pile and random numbers,
    in the order they were asked."""

    shuffles: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    randoms: list[int] = field(default_factory=list)


class ChanceSource(Protocol):
    """Where a seeded table's chance comes from, instead of ``random.Random(seed)``: for
    example what honest peers of the network table would produce from the same seed (so a
    local game and a secure game of one seed are the same game)."""

    def shuffle(self, pile: str, faces: tuple[int, ...]) -> tuple[int, ...]:
        """The shuffled order of ``faces`` (top first)."""
        ...

    def random(self, bound: int, purpose: str) -> int:
        """A number in ``range(bound)``."""
        ...


class LocalTable:
    """Answers table requests with full knowledge of every card.

    ``script_shuffles`` gives, per pile name, queued orders to use instead of shuffling;
    ``script_randoms`` queued random numbers. Scripted values are checked: a scripted order
    must hold exactly the pile's cards."""

    def __init__(
        self,
        seed: int | None = None,
        script_shuffles: dict[str, list[tuple[int, ...]]] | None = None,
        script_randoms: Iterable[int] = (),
        strict: bool = False,
        chance_source: ChanceSource | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.chance_source = chance_source  # replaces the rng when given
        self.face_of: dict[int, int] = {}
        self.script_shuffles = {k: list(v) for k, v in (script_shuffles or {}).items()}
        self.script_randoms = list(script_randoms)
        self.strict = strict  # a script that runs out is an error, not a fallback to the rng
        self.chance = Chance()

    def answer(self, game: Game) -> None:
        """Answer the game's pending table request."""
        game.answer(self.value_for(game))

    def value_for(self, game: Game) -> Any:
        """The answer to the game's pending request (``Game.attach`` calls this inline)."""
        req = game.pending
        if isinstance(req, Reveal):
            fo = self.face_of
            return [fo[h] for h in req.handles]
        if isinstance(req, Shuffle):
            order = self._order(req)
            self.chance.shuffles.append((req.pile, order))
            self.face_of.update(zip(req.handles, order, strict=True))
            return None
        if isinstance(req, PublicRandom):
            if self.script_randoms:
                value = self.script_randoms.pop(0)
            elif self.strict:
                raise SetupError(f"the record gives no random number for the {req.purpose}")
            elif self.chance_source is not None:
                value = self.chance_source.random(req.bound, req.purpose)
            else:
                value = self.rng.randrange(req.bound)
            self.chance.randoms.append(value)
            return value
        if isinstance(req, Rehandle):
            # Which new handle has which face only matters to a peer that cannot see the
            # hand; this table, which sees everything, keeps the hand's order.
            fo, known = self.face_of, game.faces  # supply cards are public in the engine
            faces = [fo[h] if h in fo else known[h] for h in req.old]
            fo.update(zip(req.new, faces, strict=True))
            return faces
        # An Open request never reaches a table that sees every card.
        raise TableMisuse(f"the local table cannot answer {req!r}")

    def _order(self, req: Shuffle) -> tuple[int, ...]:
        queued = self.script_shuffles.get(req.pile)
        if queued:
            order = tuple(queued.pop(0))
            if Counter(order) != Counter(req.faces):
                raise SetupError(
                    f"the given {req.pile} order does not hold exactly the cards of that pile"
                )
            return order
        if self.strict and req.pile != "discard":
            raise SetupError(f"the record gives no {req.pile} order")
        if self.chance_source is not None:
            order = tuple(self.chance_source.shuffle(req.pile, req.faces))
            if Counter(order) != Counter(req.faces):
                raise SetupError(f"the chance source's {req.pile} order is not that pile")
            return order
        order_list = list(req.faces)
        self.rng.shuffle(order_list)
        return tuple(order_list)


Chooser = Callable[[Game, int], Move]


def run(
    game: Game, table: LocalTable, choose: Chooser, until: Callable[[Game], bool] | None = None
) -> Game:
    """Drive ``game`` to its end (or until ``until(game)`` holds): the table answers requests
    and ``choose(game, seat)`` decides for whichever seat must act (the first one listed when
    several may)."""
    while not game.is_over:
        if until is not None and until(game):
            break
        d = game.decision
        if d is None:
            table.answer(game)
        else:
            seat = d.players[0]
            game.apply(seat, choose(game, seat))
    return game


def settle(game: Game, table: LocalTable) -> None:
    """Answer table requests until a player must decide or the game is over."""
    while game.pending is not None and game.decision is None:
        table.answer(game)
