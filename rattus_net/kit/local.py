"""The local table: knows every face, answers every table request at once (any game).

Used for offline play against bots, tests, records and benchmarks. Its chance comes from a
seeded ``random.Random`` (so a seed fixes a game), from a script of known outcomes (so a
record can fix the order of the pieces and be replayed exactly), or from a chance source
(``chance.py``: what the honest peers of a secure game of the same seed would produce).
Everything it decided is kept in ``chance`` so that a game's record can say what the order of
hidden things was.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rattus_net.kit.chance import Chance, ChanceSource
from rattus_net.kit.errors import SetupError, TableMisuse
from rattus_net.kit.play import settle
from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle, TableRequest


@dataclass
class _UndecidedPile:
    index: int  # its entry in ``Chance.shuffles``
    handles: tuple[int, ...]
    left: list[int]  # faces not drawn yet, sorted


class LocalTable:
    """Answers table requests with full knowledge of every face.

    ``script_shuffles`` gives, per pile name, queued orders to use instead of shuffling;
    ``script_randoms`` queued random numbers. Scripted values are checked: a scripted order
    must hold exactly the pile's faces, a scripted number must be in the range asked. With
    ``strict`` a script that runs out is an error instead of a fallback to the seed, but for
    the piles of ``free_piles`` (whose order a script may leave to the seed)."""

    def __init__(
        self,
        seed: int | None = None,
        script_shuffles: Mapping[str, Sequence[tuple[int, ...]]] | None = None,
        script_randoms: Iterable[int] = (),
        strict: bool = False,
        chance_source: ChanceSource | None = None,
        free_piles: frozenset[str] = frozenset(),
    ) -> None:
        self.rng = random.Random(seed)
        self.chance_source = chance_source  # replaces the rng when given
        self.face_of: dict[int, int] = {}
        self.script_shuffles = {k: list(v) for k, v in (script_shuffles or {}).items()}
        self.script_randoms = list(script_randoms)
        self.strict = strict
        self.free_piles = free_piles
        self.chance = Chance()
        self._undecided: dict[int, _UndecidedPile] = {}  # handle not drawn yet -> its pile
        self._game: Any = None  # the game whose request is being answered

    def answer(self, game: Any) -> None:
        """Answer the game's pending table request."""
        game.answer(self.value_for(game))

    def settle(self, game: Any) -> None:
        """Answer requests until a player must decide or the game is over."""
        settle(game, self)

    def value_for(self, game: Any) -> Any:
        """The answer to the game's pending request (``Machine.attach`` calls this inline)."""
        req: TableRequest = game.pending
        self._game = game
        return req.visit(self)

    # --- the answer to each kind of request (``TableAnswers``) ------------------------------

    def reveal(self, req: Reveal) -> list[int]:
        if self._undecided:
            self._draw(req.handles)
        fo = self.face_of
        return [fo[h] for h in req.handles]

    def shuffle(self, req: Shuffle) -> None:
        if self._drawing(req):
            self._lay_undecided(req)
            return
        order = self._order(req)
        self.chance.shuffles.append((req.pile, order))
        self.face_of.update(zip(req.handles, order, strict=True))

    def public_random(self, req: PublicRandom) -> int:
        return self._random(req)

    def rehandle(self, req: Rehandle) -> list[int]:
        # Which new handle has which face only matters to a peer that cannot see the
        # hand; this table, which sees everything, keeps the hand's order.
        fo, known = self.face_of, self._game.faces  # (pieces public from the start: the game's)
        faces = [fo[h] if h in fo else known[h] for h in req.old]
        fo.update(zip(req.new, faces, strict=True))
        return faces

    def open(self, req: Open) -> None:
        # An Open request never reaches a table that sees every card.
        raise TableMisuse(f"the local table cannot answer {req!r}")

    def _random(self, req: PublicRandom) -> int:
        if self.script_randoms:
            value = self.script_randoms.pop(0)
            if not 0 <= value < req.bound:
                raise SetupError(f"the random number for the {req.purpose} is out of range")
        elif self.strict:
            raise SetupError(f"the record gives no random number for the {req.purpose}")
        elif self.chance_source is not None:
            value = self.chance_source.random(req.bound, req.purpose)
        else:
            value = self.rng.randrange(req.bound)
        self.chance.randoms.append(value)
        return value

    def _order(self, req: Shuffle) -> tuple[int, ...]:
        queued = self.script_shuffles.get(req.pile)
        if queued:
            order = tuple(queued.pop(0))
            if Counter(order) != Counter(req.faces):
                raise SetupError(
                    f"the given {req.pile} order does not hold exactly the pieces of that pile"
                )
            return order
        if self.strict and req.pile not in self.free_piles:
            raise SetupError(f"the record gives no {req.pile} order")
        if self.chance_source is not None:
            order = tuple(self.chance_source.shuffle(req.pile, req.faces))
            if Counter(order) != Counter(req.faces):
                raise SetupError(f"the chance source's {req.pile} order is not that pile")
            return order
        order_list = list(req.faces)
        self.rng.shuffle(order_list)
        return tuple(order_list)

    # --- piles drawn piece by piece (a chance source's ``drawn_piles``) -----------------------

    def _drawing(self, req: Shuffle) -> bool:
        """True if the chance source draws this pile piece by piece (and no script orders
        it)."""
        if self.script_shuffles.get(req.pile) or self.chance_source is None:
            return False
        return req.pile in self.chance_source.drawn_piles

    def _lay_undecided(self, req: Shuffle) -> None:
        left = sorted(req.faces)
        # The chance entry is completed as pieces are drawn: those never turned up get the
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
        source = self.chance_source
        assert source is not None
        positions = tuple(pile.handles.index(h) for h in todo)
        faces = tuple(source.draw(name, positions, tuple(pile.left)))
        if len(faces) != len(todo):
            raise SetupError(f"the chance source drew the wrong number of {name} pieces")
        for h, f in zip(todo, faces, strict=True):
            if f not in pile.left:
                raise SetupError(f"the chance source drew a piece not left in the {name} pile")
            pile.left.remove(f)  # keeps the rest sorted
            self.face_of[h] = f
            del self._undecided[h]
        rest = iter(pile.left)
        fo = self.face_of
        order = tuple(fo[h] if h in fo else next(rest) for h in pile.handles)
        self.chance.shuffles[pile.index] = (name, order)
