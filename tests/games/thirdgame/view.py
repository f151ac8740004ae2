"""What one seat may know of a game of Nibble: its own cards, everybody's card count, the
deck's size, the round; every hand once the game is over. And samples of a game consistent
with it, for the search bot."""

from __future__ import annotations

import random

from games.thirdgame.game import CARDS, LIMIT, Move, NibbleGame, Result, Turn
from rattus_net.kit.local import LocalTable
from rattus_net.kit.view import SeatView


class NibbleView(SeatView[Turn, Result]):
    """The game as ``seat`` sees it (the kit's view adds names, decision, end and log)."""

    __slots__ = ()
    _game: NibbleGame

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's own cards (faces)."""
        g = self._game
        return tuple(g.faces[h] for h in g.hands[self.seat])

    @property
    def counts(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(hand) for hand in self._game.hands)

    @property
    def deck(self) -> int:
        """Cards left in the deck."""
        return len(self._game.deck)

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def limit(self) -> int:
        return LIMIT

    def legal(self) -> list[Move]:
        return self._game.legal(self.seat)


def determinize(view: NibbleView, rng: random.Random) -> tuple[NibbleGame, LocalTable]:
    """A full game ``view``'s seat cannot tell from the real one (for the search bot): every
    card but its own (and those turned up) dealt again from the values it has not seen, and a
    table that knows the sample's faces."""
    real = view._game  # (a view's own game: the seat's engine, read for its handles only)
    sample = real.clone()
    known = set(real.hands[view.seat]) | real.public
    every = [*real.deck, *(h for hand in real.hands for h in hand)]
    hidden = [h for h in every if h not in known]
    pool = [c for c in CARDS if c not in {real.faces[h] for h in known}]
    rng.shuffle(pool)
    sample.faces = {h: real.faces[h] for h in known} | dict(zip(hidden, pool, strict=True))
    table = LocalTable(rng.randrange(1 << 30))
    table.face_of.update(sample.faces)
    return sample, table
