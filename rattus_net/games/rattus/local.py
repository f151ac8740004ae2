"""The local table for Rattus: knows every token face, answers every request at once.

Like ``rattus_net.games.cartus.local.LocalTable`` for Rattus Cartus (offline play, tests,
benchmarks): chance comes from a seeded ``random.Random`` or from a script (a record's token
order and random numbers), and everything decided is kept in ``chance`` for the record.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from rattus_net.games.rattus.game import RattusGame
from rattus_net.games.rattus.moves import Move
from rattus_net.kit.chance import Chance, ChanceSource
from rattus_net.kit.errors import SetupError, TableMisuse
from rattus_net.kit.table import PublicRandom, Reveal, Shuffle


class RattusTable:
    """Answers a Rattus game's table requests with full knowledge of every token.

    ``script_shuffles``: per pile (``"start tokens"``, ``"rat supply"``) an order of faces to
    use instead of shuffling; ``script_randoms``: queued public random numbers. With
    ``strict`` a script that runs out is an error instead of a fallback to the seed.
    ``chance_source`` replaces the seeded generator (the seeded secure game's chance:
    ``protocol/seeded.py``), so a local game and a secure game of one seed are the same."""

    def __init__(
        self,
        seed: int | None = None,
        script_shuffles: dict[str, tuple[int, ...]] | None = None,
        script_randoms: Iterable[int] = (),
        strict: bool = False,
        chance_source: ChanceSource | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.chance_source = chance_source
        self.face_of: dict[int, int] = {}
        self.script_shuffles = dict(script_shuffles or {})
        self.script_randoms = list(script_randoms)
        self.strict = strict
        self.chance = Chance()

    def value_for(self, game: RattusGame) -> Any:
        req = game.pending
        if isinstance(req, Reveal):
            return [self.face_of[h] for h in req.handles]
        if isinstance(req, Shuffle):
            order = self.script_shuffles.pop(req.pile, None)
            if order is None and self.strict:
                raise SetupError(f"the record gives no order for the {req.pile}")
            if order is None and self.chance_source is not None:
                order = tuple(self.chance_source.shuffle(req.pile, req.faces))
            if order is None:
                shuffled = list(req.faces)
                self.rng.shuffle(shuffled)
                order = tuple(shuffled)
            elif Counter(order) != Counter(req.faces):
                raise SetupError(f"the given {req.pile} order does not hold exactly its tokens")
            self.chance.shuffles.append((req.pile, order))
            self.face_of.update(zip(req.handles, order, strict=True))
            return None
        if isinstance(req, PublicRandom):
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
        raise TableMisuse(f"the local table cannot answer {req!r}")

    def answer(self, game: RattusGame) -> None:
        game.answer(self.value_for(game))

    def settle(self, game: RattusGame) -> None:
        """Answer requests until a player must decide or the game is over."""
        while game.pending is not None and game.decision is None:
            self.answer(game)


def run(
    game: RattusGame,
    table: RattusTable,
    choose: Callable[[RattusGame, int], Move],
    until: Callable[[RattusGame], bool] | None = None,
) -> RattusGame:
    """Drive ``game`` to its end (or until ``until(game)``): the table answers requests and
    ``choose(game, seat)`` decides."""
    while not game.is_over:
        if until is not None and until(game):
            break
        d = game.decision
        if d is None:
            table.answer(game)
        else:
            game.apply(d.player, choose(game, d.player))
    return game
