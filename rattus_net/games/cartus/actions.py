"""Rattus Cartus's moves as fixed action numbers (for OpenSpiel: ``rattus_net/openspiel``).

The small spaces are one action per move, numbered once: every ``supply`` (a row card and
the nun-row positions it looks at), every ``look``, ``choose``, ``take``, ``decline`` and
``pass``. The card choices are spelt card by card, because a hand has thousands of
sub-multisets: ``enter 2 Chu4 Joker`` is the actions *enter building 2*, *card Chu4*, *card
Joker*, *end*; ``give`` and ``discard`` are their cards then *end* (the decision says which
of the two it is). Cards come in face order (each face at most as often as the hand holds
it), so each move has exactly one spelling and the spellings are prefix-free.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import ChoiceSpace
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    DeclineAction,
    Discard,
    Enter,
    Give,
    Look,
    Move,
    PlayPass,
    Supply,
    TakeAction,
    format_move,
)
from rattus_net.games.cartus.view import PlayerView

ROW_MAX = 8
"""More row cards than any game lays out (the players plus two, at most seven)."""
MAX_PLAYERS = 5

_LOOKS = [c for k in range(D.NUN_ROW + 1) for c in combinations(range(D.NUN_ROW), k)]

SINGLE: list[Move] = [
    *(Supply(i, looks) for i in range(ROW_MAX) for looks in _LOOKS),
    *(Look(c) for c in _LOOKS if c),
    *(ChoosePlayer(p) for p in range(MAX_PLAYERS)),
    TakeAction(),
    DeclineAction(),
    PlayPass(),
]


class CartusCodec:
    """The action numbers of Rattus Cartus (one alphabet for every configuration)."""

    def __init__(self) -> None:
        self.single = {m: i for i, m in enumerate(SINGLE)}
        self.enter = len(SINGLE)  # enter building b: enter + b
        self.card = self.enter + ROW_MAX  # card of face f: card + f
        self.end = self.card + D.FACE_COUNT
        self.num_actions = self.end + 1

    def spell(self, move: Move) -> tuple[int, ...]:
        if isinstance(move, Enter):
            if not 0 <= move.building < ROW_MAX:
                raise ValueError(f"no action number for building {move.building + 1}")
            return (self.enter + move.building, *self._cards(move.cards))
        if isinstance(move, Give | Discard):
            return self._cards(move.cards)
        return (self.single[move],)

    def _cards(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        return (*(self.card + f for f in sorted(cards)), self.end)

    def next_actions(self, view: PlayerView, prefix: tuple[int, ...]) -> list[int]:
        space = view.legal()
        kind = space.kind
        if kind is DecisionKind.ENTER:
            if not prefix:
                first = [self.enter + b for b in range(len(view.row))]
                if len(space) and isinstance(space[len(space) - 1], PlayPass):
                    first.append(self.single[PlayPass()])
                return sorted(first)
            return self._more_cards(view, prefix[1:], None, {D.GOLD, D.PASS})
        if kind is DecisionKind.GIVE:
            d = view.decision
            assert d is not None
            return self._more_cards(view, prefix, d.count, set(), exact=True)
        if kind is DecisionKind.DISCARD:
            d = view.decision
            assert d is not None
            return self._more_cards(view, prefix, d.count, set())
        return sorted({self.spell(m)[0] for m in space})

    def _more_cards(
        self,
        view: PlayerView,
        chosen: tuple[int, ...],
        limit: int | None,
        barred: set[int],
        exact: bool = False,
    ) -> list[int]:
        """The card actions (and *end*) that may follow the cards ``chosen`` so far."""
        left: dict[int, int] = {}
        for f in view.hand:
            if f not in barred:
                left[f] = left.get(f, 0) + 1
        for a in chosen:
            left[a - self.card] -= 1
        last = chosen[-1] - self.card if chosen else -1
        faces = [f for f in sorted(left) if f >= last and left[f] > 0]
        if exact and limit is not None:
            # only cards after which enough cards (in face order) are left to give them all
            need = min(limit, sum(left.values()) + len(chosen)) - len(chosen)
            faces = [f for f in faces if sum(left[g] for g in faces if g >= f) >= need]
            if need <= 0:
                faces = []
        elif limit is not None and len(chosen) >= limit:
            faces = []
        out = [self.card + f for f in faces]
        if not exact or not faces:
            out.append(self.end)
        return out

    def move_of(self, view: PlayerView, prefix: tuple[int, ...]) -> Move | None:
        if prefix[-1] < self.enter:
            return SINGLE[prefix[-1]]
        if prefix[-1] != self.end:
            return None
        if self.enter <= prefix[0] < self.card:
            cards = tuple(a - self.card for a in prefix[1:-1])
            return Enter(prefix[0] - self.enter, cards)
        cards = tuple(a - self.card for a in prefix[:-1])
        space: ChoiceSpace = view.legal()
        return Give(cards) if space.kind is DecisionKind.GIVE else Discard(cards)

    def action_name(self, action: int) -> str:
        if action < self.enter:
            return format_move(SINGLE[action])
        if action < self.card:
            return f"enter {action - self.enter + 1}"
        if action < self.end:
            return f"card {D.face_code(action - self.card)}"
        return "end"


_CODEC: CartusCodec | None = None


def make_codec(view: Any) -> CartusCodec:
    """The codec (the same for every configuration of Rattus Cartus)."""
    global _CODEC
    if _CODEC is None:
        _CODEC = CartusCodec()
    return _CODEC
