"""The state of a game of Rattus Cartus, and what changes it: where every card is.

A game of Rattus Cartus runs on the kit's task-stack machine (``rattus_net/kit/machine.py``):
``pending`` is a :class:`Decision`, a table request or ``None`` once the game is over. Cards
are *handles*: integers that stand for a physical card whose face this engine may or may not
know (``faces``; building faces are >= 100), so the same rules run on a peer that knows only
its own secrets. :class:`CartusState` holds the state and the small steps every part of the
rules shares (cards drawn, given, returned, looked at; hands mixed; rats and influence); the
flow of a game is ``game.py``, the resolution of the buildings ``resolve.py`` and the players'
decisions ``rules.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.moves import (
    DecisionKind,
    HandleMove,
    Move,
    Supply,
)
from rattus_net.games.cartus.scoring import Result
from rattus_net.kit.errors import (
    CardNotHeld,
    TableMisuse,
)
from rattus_net.kit.machine import Event, Machine, Task
from rattus_net.kit.table import Rehandle, Reveal, Shuffle


class Phase(Enum):
    SETUP = "setup"
    BUILDINGS = "A: buildings"
    SUPPLY = "B: supplies"
    ENTER = "C: enter buildings"
    RESOLVE = "D: resolve buildings"
    END_ROUND = "E: end of round"
    GAME_OVER = "game over"


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game waits for.

    ``players``: who may decide now (several only for simultaneous supplies).
    ``count``: GIVE the exact number of cards, DISCARD the maximum, LOOK the positions,
    ACTION the cards the action would bring.
    ``to``: GIVE the receiving seat. ``candidates``: CHOOSE_PLAYER the tied seats.
    ``reason``: what asks (``sword``, ``flute``, ``guard tower``, ``hospital``, ``tent``;
    for ACTION ``premium`` or ``standard``).
    ``building``: the row index concerned, if any."""

    kind: DecisionKind
    players: tuple[int, ...]
    count: int = 0
    to: int | None = None
    candidates: tuple[int, ...] = ()
    reason: str = ""
    building: int | None = None


# The two most frequent decisions, made once: decisions are immutable values.
SUPPLY_DECISIONS = tuple(Decision(DecisionKind.SUPPLY, (s,)) for s in range(D.MAX_PLAYERS))
ENTER_DECISIONS = tuple(Decision(DecisionKind.ENTER, (s,)) for s in range(D.MAX_PLAYERS))


class CartusState(Machine[GameConfig, Decision, Result, Move | HandleMove]):
    """Where every card of a game of Rattus Cartus is, and the steps that move them."""

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        n = self.n
        self.plan = D.ROUND_PLAN[n]
        self.round = 0
        self.phase = Phase.SETUP
        self.start_player = 0
        self.first_player = 0  # the starting player of round 1
        self.last_round = False
        # Cards in another player's hand whose face and place a seat knows (supply takes,
        # its own gifts); dropped when the holder lays or gives cards it cannot follow.
        self.tracked: list[set[int]] = [set() for _ in range(n)]
        self.deck: list[int] = []  # population deck, top = last
        self.discard: list[int] = []  # population discard pile, face up, top = last
        self.nun_row: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.supply: dict[int, list[int]] = {f: [] for f in D.SPECIALS}
        self.buildings_in_game: tuple[int, ...] = ()
        self.building_deck: list[int] = []  # top = last
        self.replacement: list[int] = []  # top = last, bottom = index 0
        self.building_discard: list[int] = []
        self.row: list[int] = []
        self.influence = [[0] * n for _ in range(6)]
        self.arrival = [[0] * n for _ in range(6)]  # larger = higher in a stack
        self._arrivals = 0
        self.rats = [D.START_RATS] * n
        self.vp = [0] * n
        # Round state.
        self.entered = [-1] * n  # row index each seat entered this round
        self.entry_order: list[list[int]] = []  # per row index, seats in entry order
        self.entry_seq: list[int] = [-1] * n  # global order of entering this round
        self.laid: list[list[int]] = [[] for _ in range(n)]
        # Cards laid face down that this peer has not seen: only their number is known until
        # the building resolves and the table answers an ``Open`` request.
        self.hidden = [0] * n
        self._opened: set[int] = set()  # seats whose hidden cards were opened this round
        # Seats whose hands gained cards since they were last mixed (see ``_t_mix_hands``).
        self._gained: set[int] = set()
        self.queue: list[int] = []  # phase C: seats that have not entered, next first
        self.supply_choices: list[Supply | None] = [None] * n
        self.premium_2p: int | None = None
        self._replace_tries = 0

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def _reveal(self, handles: list[int] | tuple[int, ...], to: int | None) -> None:
        """Ask the table to turn up handles; the continuation must already be scheduled.

        Cards whose face is public already (supply cards, earlier reveals) need no table."""
        public = self.public
        hidden = tuple(h for h in handles if h not in public)
        if hidden:
            self.pending = Reveal(hidden, to)

    def hand_size(self, seat: int) -> int:
        """Cards in ``seat``'s hand, not counting cards laid face down (which a peer that has
        not seen them still holds as handles until they are opened)."""
        return len(self.hands[seat]) - self.hidden[seat]

    def turn_order(self, first: int | None = None) -> list[int]:
        """Seats clockwise from ``first`` (default: the starting player)."""
        s = self.start_player if first is None else first
        return [(s + i) % self.n for i in range(self.n)]

    def building_at(self, index: int) -> D.Building:
        """The building of row card ``index``."""
        return D.face_building(self.faces[self.row[index]])

    def _take_faces(self, seat: int, faces: tuple[int, ...]) -> list[int]:
        """The handles of ``seat``'s hand with these faces (first matching cards in hand
        order); raises ``CardNotHeld`` without changing anything."""
        hand = self.hands[seat]
        known = self.faces
        taken: list[int] = []
        for face in faces:
            for h in hand:
                if known.get(h) == face and h not in taken:
                    taken.append(h)
                    break
            else:
                raise CardNotHeld(f"{self.name(seat)} does not hold enough {D.face_name(face)}")
        return taken

    def _remove_from_hand(self, seat: int, handles: list[int]) -> None:
        hand = self.hands[seat]
        for h in handles:
            hand.remove(h)

    def _forget_hand(self, seat: int) -> None:
        """Others can no longer follow which of ``seat``'s cards are still in his hand."""
        hand = self.hands[seat]
        for v in range(self.n):
            if v != seat and self.tracked[v]:
                self.tracked[v].difference_update(hand)

    def _lose_rats(self, seat: int, count: int, why: str) -> None:
        lost = min(count, self.rats[seat])  # ruling 9.15: never below zero
        self.rats[seat] -= lost
        if count:
            self.emit("rats", seat, delta=-lost, why=why)

    def _gain_rats(self, seat: int, count: int, why: str) -> None:
        if count:
            self.rats[seat] += count
            self.emit("rats", seat, delta=count, why=why)

    def _gain_influence(self, seat: int, klass: int, amount: int) -> None:
        if amount <= 0:
            return
        self.influence[klass][seat] += amount
        self._arrivals += 1
        self.arrival[klass][seat] = self._arrivals  # the disc goes on top of any stack
        self.emit("influence", seat, klass=klass, delta=amount, total=self.influence[klass][seat])

    def _take_supply(self, seat: int, face: int, count: int) -> None:
        pile = self.supply[face]
        k = min(count, len(pile))  # ruling 9.11: a player takes what is left
        taken = [pile.pop() for _ in range(k)]
        self.hands[seat].extend(taken)
        self._gained.add(seat)
        for v in range(self.n):
            if v != seat:
                self.tracked[v].update(taken)
        self.emit("take", seat, face=face, count=k, wanted=count)

    def _return_card(self, h: int) -> None:
        """A played or discarded card goes to the discard pile or back to its supply pile."""
        f = self.faces[h]
        if f < D.JOKER:
            self.discard.append(h)
        else:
            self.supply[f].append(h)

    def pop_jokers(self, handles: list[int]) -> int:
        """Population and joker cards among ``handles`` (their faces must be known)."""
        faces = self.faces
        return sum(1 for h in handles if faces[h] <= D.JOKER)

    def _t_lose_rats(self, seat: int, count: int, why: str) -> None:
        self._lose_rats(seat, count, why)

    def _t_draw(self, seat: int, count: int) -> None:
        if count <= 0:
            return
        deck = self.deck
        if not deck:
            if not self.discard:
                self.emit("draw", seat, count=0, wanted=count)  # ruling 9.13
                return
            self._then((CartusState._t_draw, (seat, count)))
            self._reshuffle()
            return
        k = min(count, len(deck))
        cards = [deck.pop() for _ in range(k)]
        self.hands[seat].extend(cards)
        self._gained.add(seat)
        self.emit("draw", seat, count=k)
        if k < count:
            self._then((CartusState._t_draw, (seat, count - k)))
        self._reveal(cards, seat)

    def _reshuffle(self) -> None:
        """Shuffle the population discard pile into a new deck."""
        old = self.discard
        faces = tuple(self.faces[h] for h in old)
        for h in old:
            del self.faces[h]
            self.public.discard(h)
        self.discard = []
        handles = self.new_handles(len(faces))
        self.deck = list(reversed(handles))
        self.emit("reshuffle", None, count=len(faces))
        self.pending = Shuffle("discard", faces, handles)

    def _t_look(self, seat: int, positions: tuple[int, ...]) -> None:
        for pos in positions:
            self.emit("look", seat, position=pos)
        self._reveal([self.nun_row[pos] for pos in positions], seat)

    def _transfer(self, giver: int, to: int, handles: list[int], reason: str) -> None:
        self._forget_hand(giver)
        self._remove_from_hand(giver, handles)
        self.hands[to].extend(handles)
        self._gained.add(to)
        self.tracked[giver].update(handles)
        self.tracked[to].difference_update(handles)
        self.emit("give", giver, to=to, count=len(handles), reason=reason)
        if all(h in self.faces for h in handles):
            faces = sorted(self.faces[h] for h in handles)
            self.emit("gift", giver, private_to=giver, to=to, cards=faces)
        # The receiver's hand is mixed as soon as it holds the gift: it may discard at the
        # Hospital of this very building, and the gift's handles would show the giver's cards.
        self._then((CartusState._t_gift_received, (giver, to, tuple(handles))), *self._mixing())
        self._reveal(handles, to)

    def _t_gift_received(self, giver: int, to: int, handles: tuple[int, ...]) -> None:
        if all(h in self.faces for h in handles):
            faces = sorted(self.faces[h] for h in handles)
            self.emit("gift", giver, private_to=to, to=to, cards=faces)

    def _mixing(self) -> list[Task]:
        return [(CartusState._t_mix_hands, ())] if self.config.mix_hands else []

    def _t_mix_hands(self) -> None:
        """Mix every hand that gained cards, so that its cards get new handles in an order
        only its owner knows.

        Without it a handle would tell where a card came from: a Sword taken openly from the
        supply, or a card drawn this round, would be recognisable when it is given away, laid
        or discarded. Hands gain cards in phase B and in the buildings; they are mixed at the
        end of phase B, right after a gift (a Sword or the Guard Tower: the receiver may
        discard at the Hospital of the same building), at the end of each building, and, for a
        hand whose owner's play lay face down when it gained, as soon as that play is opened.
        So nothing is given, laid or discarded from a hand between a gain and its mixing."""
        gained = self._gained
        # A hand with a face-down play pending is mixed once that play is opened.
        self._gained = {seat for seat in gained if self.hidden[seat] != 0}
        self._then(
            *[
                (CartusState._t_mix_hand, (seat,))
                for seat in sorted(gained)
                if self.hidden[seat] == 0 and self.hands[seat]
            ]
        )

    def _t_mix_hand(self, seat: int) -> None:
        old = tuple(self.hands[seat])
        new = self.new_handles(len(old))
        self.hands[seat] = list(new)
        self.pending = Rehandle(seat, old, new)

    def _mixed(self, req: Rehandle, value: object) -> None:
        if not isinstance(value, list | tuple) or len(value) != len(req.new):
            raise TableMisuse("a mixed hand is answered with one face (or None) per new handle")
        faces, public = self.faces, self.public
        for h in req.old:
            faces.pop(h, None)
            public.discard(h)
        for t in self.tracked:
            t.difference_update(req.old)
        for h, f in zip(req.new, value, strict=True):
            if f is not None:
                faces[h] = f
        self.seen[req.seat].update(req.new)

    def all_handles(self) -> list[int]:
        """Every live card handle, zone by zone (for conservation checks)."""
        out = list(self.deck) + list(self.discard) + list(self.nun_row)
        for hand in self.hands:
            out += hand
        for pile in self.supply.values():
            out += pile
        for laid in self.laid:
            out += laid
        return out

    def standing(self, klass: int) -> list[int]:
        """Seats ordered best first on an influence track: higher space first, and on one
        space the lower disc (which got there first) first."""
        inf = self.influence[klass]
        arr = self.arrival[klass]
        return sorted(range(self.n), key=lambda s: (-inf[s], arr[s]))


__all__ = [
    "ENTER_DECISIONS",
    "SUPPLY_DECISIONS",
    "CartusState",
    "Decision",
    "Event",
    "Phase",
    "Task",
]
