"""The legal choices of a decision, as compact sequences.

A hand of ten different cards has over a thousand ways to enter a building, so choices are not
listed eagerly: each space knows its size and can produce its ``i``-th choice directly. Identical
cards are one choice (cards are chosen by face). ``len(space)`` and ``space[i]`` let a bot pick
uniformly; iterating lists every legal choice once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, overload

from rattus_net.games.cartus import data as D
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
)

if TYPE_CHECKING:
    from rattus_net.games.cartus.game import Game
    from rattus_net.games.cartus.view import PlayerView


class Multisets:
    """Sub-multisets of ``counts`` (face -> copies) with a size in ``[lo, hi]``, ranked."""

    def __init__(self, counts: dict[int, int], lo: int, hi: int) -> None:
        self.faces = sorted(counts)
        self.counts = [counts[f] for f in self.faces]
        total = sum(self.counts)
        self.lo, self.hi = lo, min(hi, total)
        m = len(self.faces)
        # ways[j][k]: sub-multisets of faces j.. with exactly k cards
        ways = [[0] * (self.hi + 1) for _ in range(m + 1)]
        ways[m][0] = 1
        for j in range(m - 1, -1, -1):
            c = self.counts[j]
            nxt, row = ways[j + 1], ways[j]
            for k in range(self.hi + 1):
                row[k] = sum(nxt[k - t] for t in range(min(c, k) + 1))
        self.ways = ways
        self.by_size = [ways[0][k] if k >= self.lo else 0 for k in range(self.hi + 1)]
        self.size = sum(self.by_size)

    def __len__(self) -> int:
        return self.size

    def get(self, index: int) -> tuple[int, ...]:
        if not 0 <= index < self.size:
            raise IndexError(index)
        k = 0
        while index >= self.by_size[k]:
            index -= self.by_size[k]
            k += 1
        out: list[int] = []
        ways = self.ways
        for j, face in enumerate(self.faces):
            for t in range(min(self.counts[j], k) + 1):
                w = ways[j + 1][k - t]
                if index < w:
                    out.extend([face] * t)
                    k -= t
                    break
                index -= w
        return tuple(out)


class ChoiceSpace(Sequence[Move]):
    """All legal choices of one decision for one seat."""

    def __init__(
        self, kind: DecisionKind, parts: list[tuple[int, tuple[Any, ...]]], size: int
    ) -> None:
        self.kind = kind
        self._parts = parts  # (size of part, generator data)
        self._size = size

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...
    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        for size, part in self._parts:
            if index < size:
                return _make(self.kind, part, index)
            index -= size
        raise IndexError(index)

    def __iter__(self) -> Iterator[Move]:
        for i in range(self._size):
            yield self[i]


def _make(kind: DecisionKind, part: tuple[Any, ...], index: int) -> Move:
    tag = part[0]
    if tag == "supply":
        _, card, combos = part
        return Supply(card, combos[index])
    if tag == "enter":
        _, building, faces, counts = part
        cards: list[int] = []
        for f, c in zip(faces, counts, strict=True):
            index, take = divmod(index, c + 1)
            cards.extend([f] * take)
        return Enter(building, tuple(cards))
    if tag == "pass":
        return PlayPass()
    if tag == "give":
        return Give(part[1].get(index))
    if tag == "discard":
        return Discard(part[1].get(index))
    if tag == "look":
        return Look(part[1][index])
    if tag == "choose":
        return ChoosePlayer(part[1][index])
    if tag == "action":
        return _ACTION_CHOICES[index]
    raise ValueError(tag)


# Taking first: a bot or a test that takes the first legal choice carries the action out.
_ACTION_CHOICES: tuple[Move, Move] = (TakeAction(), DeclineAction())
_POSITIONS = tuple(range(D.NUN_ROW))
_COMBOS = {k: list(combinations(_POSITIONS, k)) for k in range(D.NUN_ROW + 1)}


def hand_counts(game: Game, seat: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    faces = game.faces
    for h in game.hands[seat]:
        f = faces[h]
        counts[f] = counts.get(f, 0) + 1
    return counts


def legal_choices(game: Game, seat: int) -> ChoiceSpace:
    """The legal choices of ``seat`` for the pending decision (empty if it need not act)."""
    d = game.decision
    if d is None or seat not in d.players:
        return ChoiceSpace(DecisionKind.SUPPLY, [], 0)
    kind = d.kind
    parts: list[tuple[int, tuple[Any, ...]]] = []
    if kind is DecisionKind.SUPPLY:
        for i, h in enumerate(game.row):
            combos = _COMBOS[D.face_supply(game.faces[h]).looks]
            parts.append((len(combos), ("supply", i, combos)))
    elif kind is DecisionKind.ENTER:
        counts = hand_counts(game, seat)
        counts.pop(D.GOLD, None)
        counts.pop(D.PASS, None)
        faces = sorted(counts)
        cs = [counts[f] for f in faces]
        size = 1
        for c in cs:
            size *= c + 1
        for i in range(len(game.row)):
            parts.append((size, ("enter", i, faces, cs)))
        if len(game.queue) > 1 and any(game.faces[h] == D.PASS for h in game.hands[seat]):
            parts.append((1, ("pass",)))
    elif kind is DecisionKind.GIVE:
        ms = Multisets(hand_counts(game, seat), d.count, d.count)
        parts.append((len(ms), ("give", ms)))
    elif kind is DecisionKind.DISCARD:
        ms = Multisets(hand_counts(game, seat), 0, d.count)
        parts.append((len(ms), ("discard", ms)))
    elif kind is DecisionKind.LOOK:
        combos = _COMBOS[d.count]
        parts.append((len(combos), ("look", combos)))
    elif kind is DecisionKind.CHOOSE_PLAYER:
        parts.append((len(d.candidates), ("choose", d.candidates)))
    elif kind is DecisionKind.ACTION:
        parts.append((len(_ACTION_CHOICES), ("action",)))
    return ChoiceSpace(kind, parts, sum(p[0] for p in parts))


def is_legal(view: PlayerView, move: Move) -> bool:
    """Whether ``move`` is one of the view's seat's legal choices now.

    Entering is checked against the hand directly, because an ENTER space can hold thousands
    of card combinations; every other space is small enough to list."""
    space = view.legal()
    if len(space) == 0:
        return False
    if space.kind is DecisionKind.ENTER and isinstance(move, Enter):
        if not 0 <= move.building < len(view.row):
            return False
        hand = view.hand
        for f in set(move.cards):
            if f in (D.GOLD, D.PASS) or move.cards.count(f) > hand.count(f):
                return False
        return tuple(sorted(move.cards)) == move.cards
    if isinstance(move, Give | Discard):
        d = view.decision
        assert d is not None
        if len(move.cards) > d.count or (isinstance(move, Give) and len(move.cards) != d.count):
            return False
        hand = view.hand
        return all(move.cards.count(f) <= hand.count(f) for f in set(move.cards))
    return move in list(space)
