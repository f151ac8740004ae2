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
from dataclasses import dataclass
from typing import Any

from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move
from rattus_net.kit.chance import Chance, ChanceSource
from rattus_net.kit.errors import SetupError, TableMisuse
from rattus_net.kit.table import PublicRandom, Rehandle, Reveal, Shuffle


@dataclass
class _UndecidedPile:
    index: int  # its entry in ``Chance.shuffles``
    handles: tuple[int, ...]
    left: list[int]  # faces not drawn yet, sorted


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
        self._undecided: dict[int, _UndecidedPile] = {}  # handle not drawn yet -> its pile

    def answer(self, game: Game) -> None:
        """Answer the game's pending table request."""
        game.answer(self.value_for(game))

    def value_for(self, game: Game) -> Any:
        """The answer to the game's pending request (``Game.attach`` calls this inline)."""
        req = game.pending
        if isinstance(req, Reveal):
            if self._undecided:
                self._draw(req.handles)
            fo = self.face_of
            return [fo[h] for h in req.handles]
        if isinstance(req, Shuffle):
            if self._drawing(req):
                self._lay_undecided(req)
                return None
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

    def _drawing(self, req: Shuffle) -> bool:
        """True if the chance source draws this pile card by card (and no script orders it)."""
        if self.script_shuffles.get(req.pile):
            return False
        return req.pile in getattr(self.chance_source, "drawn_piles", ())

    def _lay_undecided(self, req: Shuffle) -> None:
        left = sorted(req.faces)
        # The chance entry is completed as cards are drawn: the cards never turned up get the
        # faces left, in sorted order (their order was never decided).
        pile = _UndecidedPile(len(self.chance.shuffles), req.handles, left)
        self.chance.shuffles.append((req.pile, tuple(left)))
        for h in req.handles:
            self._undecided[h] = pile

    def _draw(self, handles: tuple[int, ...]) -> None:
        todo = [h for h in handles if h in self._undecided]
        if not todo:
            return
        pile = self._undecided[todo[0]]
        if any(self._undecided[h] is not pile for h in todo):
            raise TableMisuse("one reveal draws from two undecided piles")
        name = self.chance.shuffles[pile.index][0]
        source: Any = self.chance_source
        positions = tuple(pile.handles.index(h) for h in todo)
        faces = tuple(source.draw(name, positions, tuple(pile.left)))
        if len(faces) != len(todo):
            raise SetupError(f"the chance source drew the wrong number of {name} cards")
        for h, f in zip(todo, faces, strict=True):
            if f not in pile.left:
                raise SetupError(f"the chance source drew a card not left in the {name} pile")
            pile.left.remove(f)  # keeps the rest sorted
            self.face_of[h] = f
            del self._undecided[h]
        rest = iter(pile.left)
        fo = self.face_of
        order = tuple(fo[h] if h in fo else next(rest) for h in pile.handles)
        self.chance.shuffles[pile.index] = (name, order)

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
