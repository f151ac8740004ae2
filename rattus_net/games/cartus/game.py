"""The rules of Rattus Cartus as a deterministic state machine over card handles.

A game is driven from outside. At every moment ``Game.pending`` is one of

- a :class:`Decision`: one or more players must choose (``Game.apply``);
- a table request (``table.py``): the table must shuffle, turn up a card or draw a public random
  number (``Game.answer``);
- ``None``: the game is over and ``Game.result`` holds the scoring.

Cards are *handles*: integers that stand for a physical card whose face this engine may or may
not know (``Game.faces``). The same engine therefore runs on a peer that knows only its own
secrets. Internally the flow of a round is a stack of small tasks (plain functions and
arguments), which keeps the state copyable for search bots and cheap to advance.

Every public method either succeeds or raises and leaves the state unchanged: validation happens
before the first mutation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from typing import Any, NamedTuple, Protocol

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import GameConfig, SelectionMethod
from rattus_net.games.cartus.errors import CardNotPlayable, PassNotAllowed
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    DeclineAction,
    Discard,
    DiscardHandles,
    Enter,
    EnterHidden,
    Give,
    GiveHandles,
    HandleMove,
    Look,
    Move,
    PassHandle,
    PlayPass,
    Supply,
    TakeAction,
)
from rattus_net.kit.errors import (
    BadChoice,
    CardNotHeld,
    CheatDetected,
    GameOver,
    NotYourTurn,
    TableMisuse,
    WrongCount,
)
from rattus_net.kit.table import (
    Open,
    PublicRandom,
    Rehandle,
    Reveal,
    Shuffle,
    TableRequest,
)


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


# The ways of choosing 5 of a class's 10 building cards (selection "random-cards").
_FIVE_OF_TEN = tuple(combinations(range(2 * D.COPIES_PER_BUILDING), D.BUILDINGS_PER_CLASS_IN_GAME))

# Actions that take cards from a supply pile (ruling 17: they may be declined).
_SUPPLY_TAKEN = {
    D.Building.MARKETPLACE: D.JOKER,
    D.Building.OFFICE: D.PASS,
    D.Building.CASTLE: D.SWORD,
    D.Building.PIED_PIPER: D.FLUTE,
    D.Building.TREASURY: D.GOLD,
}

# The two most frequent decisions, made once: decisions are immutable values.
_SUPPLY_DECISIONS = tuple(Decision(DecisionKind.SUPPLY, (s,)) for s in range(D.MAX_PLAYERS))
_ENTER_DECISIONS = tuple(Decision(DecisionKind.ENTER, (s,)) for s in range(D.MAX_PLAYERS))


class Event(NamedTuple):
    """Something that happened, for logs and bots. ``private_to`` is the only seat that may
    read it (``None``: everybody); ``data`` holds the details (see ``events.py`` for words)."""

    kind: str
    player: int | None
    data: dict[str, Any]
    private_to: int | None = None


Task = tuple[Callable[..., None], tuple[Any, ...]]


class InlineTable(Protocol):
    """A table that answers any request at once (see ``Game.attach``)."""

    def value_for(self, game: Game) -> Any:
        """The answer to ``game.pending``."""
        ...


class Game:
    """One game of Rattus Cartus. See the module docstring for how it is driven."""

    def __init__(self, config: GameConfig) -> None:
        n = len(config.players)
        self.config = config
        self.n = n
        self.plan = D.ROUND_PLAN[n]
        self.round = 0
        self.phase = Phase.SETUP
        self.start_player = 0
        self.first_player = 0  # the starting player of round 1
        self.last_round = False
        # Faces this engine knows, by handle; building faces are >= 100.
        self.faces: dict[int, int] = {}
        self.public: set[int] = set()  # handles whose face everybody has seen
        self.seen: list[set[int]] = [set() for _ in range(n)]  # private faces per seat
        # Cards in another player's hand whose face and place a seat knows (supply takes,
        # its own gifts); dropped when the holder lays or gives cards it cannot follow.
        self.tracked: list[set[int]] = [set() for _ in range(n)]
        self._next_handle = 0
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
        self._random: int = 0
        self.log: list[Event] = []
        self.history: list[tuple[int, Move | HandleMove]] = []
        self.result: Any = None  # scoring.Result once the game is over
        self._stack: list[Task] = []
        self._inline: InlineTable | None = None
        self.pending: Decision | TableRequest | None = None
        self._then(
            (Game._t_select_buildings, ()),
            (Game._t_setup_population, ()),
            (Game._t_setup_buildings, ()),
            (Game._t_first_player, ()),
            (Game._t_round_start, ()),
        )
        self._advance()

    # --- driving ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` when the game waits for the table or is over."""
        p = self.pending
        return p if isinstance(p, Decision) else None

    def to_act(self) -> tuple[int, ...]:
        """The seats that may decide now (empty while the table must answer)."""
        p = self.pending
        return p.players if isinstance(p, Decision) else ()

    def _then(self, *tasks: Task) -> None:
        """Schedule tasks to run in the given order, before anything scheduled earlier."""
        if len(tasks) == 1:
            self._stack.append(tasks[0])
        else:
            self._stack.extend(reversed(tasks))

    def attach(self, table: InlineTable | None) -> None:
        """Let a table that can answer at once (the local table) answer every request inside
        the engine's own loop, so that ``pending`` is only ever a decision or ``None``. Saves
        a round trip per card drawn; a network table, which must wait for peers, is never
        attached."""
        self._inline = table
        self._advance()

    def _advance(self) -> None:
        stack = self._stack
        inline = self._inline
        while True:
            while self.pending is None and stack:
                fn, args = stack.pop()
                fn(self, *args)
            if inline is None or self.pending is None or isinstance(self.pending, Decision):
                return
            self._accept(inline.value_for(self))

    def answer(self, value: Any) -> None:
        """Answer the pending table request (see ``table.py`` for the expected values)."""
        self._accept(value)
        self._advance()

    def _accept(self, value: Any) -> None:
        req = self.pending
        if isinstance(req, Reveal):
            if not isinstance(value, list | tuple) or len(value) != len(req.handles):
                raise TableMisuse("a reveal is answered with one face per handle")
            faces = self.faces
            if req.to is None:
                for h, f in zip(req.handles, value, strict=True):
                    if f is None:
                        raise TableMisuse("a public reveal must give every face")
                    faces[h] = f
                self.public.update(req.handles)
            else:
                for h, f in zip(req.handles, value, strict=True):
                    if f is not None:
                        faces[h] = f
                self.seen[req.to].update(req.handles)
        elif isinstance(req, PublicRandom):
            if not isinstance(value, int) or not 0 <= value < req.bound:
                raise TableMisuse(f"a random number in range({req.bound}) was expected")
            self._random = value
        elif isinstance(req, Shuffle):
            if value is not None:
                raise TableMisuse("a shuffle is answered with None")
        elif isinstance(req, Open):
            self._open_hidden(req, value)
        elif isinstance(req, Rehandle):
            self._mixed(req, value)
        else:
            raise TableMisuse("no table request is pending")
        self.pending = None

    def apply(self, player: int, move: Move | HandleMove) -> None:
        """Apply a player's decision; raises an ``IllegalMove`` and changes nothing if the
        rules forbid it.

        ``move`` names cards by face (a peer that knows the player's hand) or, for a player
        whose hand this peer cannot see, by handle (``moves.HandleMove``)."""
        d = self.pending
        if not isinstance(d, Decision):
            if self.is_over:
                raise GameOver("the game is over")
            raise NotYourTurn("the game is waiting for the table, not for a player")
        if player not in d.players:
            raise NotYourTurn(f"{self._name(player)} is not to decide now")
        kind = d.kind
        if kind is DecisionKind.SUPPLY and isinstance(move, Supply):
            self._apply_supply(d, player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, Enter):
            self._apply_enter(player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, PlayPass):
            self._apply_pass(player)
        elif kind is DecisionKind.GIVE and isinstance(move, Give):
            self._apply_give(d, player, move)
        elif kind is DecisionKind.DISCARD and isinstance(move, Discard):
            self._apply_discard(d, player, move)
        elif kind is DecisionKind.LOOK and isinstance(move, Look):
            self._apply_look(d, player, move)
        elif kind is DecisionKind.CHOOSE_PLAYER and isinstance(move, ChoosePlayer):
            self._apply_choose(d, player, move)
        elif kind is DecisionKind.ACTION and isinstance(move, TakeAction | DeclineAction):
            self._apply_action(d, player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, EnterHidden):
            self._apply_enter_hidden(player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, PassHandle):
            self._apply_pass_handle(player, move.handle)
        elif kind is DecisionKind.GIVE and isinstance(move, GiveHandles):
            self._give_handles(d, player, list(move.handles))
        elif kind is DecisionKind.DISCARD and isinstance(move, DiscardHandles):
            self._discard_handles(d, player, list(move.handles))
        else:
            raise NotYourTurn(f"the game waits for a {kind.value} decision, not {move!r}")
        self.history.append((player, move))
        self._advance()

    # --- helpers ------------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.config.players[seat]

    def _new_handles(self, count: int) -> tuple[int, ...]:
        start = self._next_handle
        self._next_handle += count
        return tuple(range(start, start + count))

    def _emit(
        self, kind: str, player: int | None, private_to: int | None = None, **data: Any
    ) -> None:
        # tuple.__new__ skips the NamedTuple constructor's keyword handling: events are many.
        self.log.append(tuple.__new__(Event, (kind, player, data, private_to)))

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

    def to_handles(self, seat: int, move: Move) -> tuple[Move | HandleMove, tuple[int, ...]]:
        """For a peer that knows ``seat``'s hand: the handle-level move other peers receive,
        and the handles behind it (for ``Enter``: the secret cards to commit to and open
        later). Raises ``IllegalMove`` as ``apply`` would; changes nothing."""
        if isinstance(move, Enter):
            handles = tuple(self.check_enter(seat, move))
            return EnterHidden(move.building, len(handles)), handles
        if isinstance(move, PlayPass):
            h = self.check_pass(seat)
            return PassHandle(h), (h,)
        if isinstance(move, Give):
            handles = tuple(self._take_faces(seat, move.cards))
            return GiveHandles(handles), handles
        if isinstance(move, Discard):
            handles = tuple(self._take_faces(seat, move.cards))
            return DiscardHandles(handles), handles
        return move, ()

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
                raise CardNotHeld(f"{self._name(seat)} does not hold enough {D.face_name(face)}")
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
            self._emit("rats", seat, delta=-lost, why=why)

    def _gain_rats(self, seat: int, count: int, why: str) -> None:
        if count:
            self.rats[seat] += count
            self._emit("rats", seat, delta=count, why=why)

    def _gain_influence(self, seat: int, klass: int, amount: int) -> None:
        if amount <= 0:
            return
        self.influence[klass][seat] += amount
        self._arrivals += 1
        self.arrival[klass][seat] = self._arrivals  # the disc goes on top of any stack
        self._emit("influence", seat, klass=klass, delta=amount, total=self.influence[klass][seat])

    def _take_supply(self, seat: int, face: int, count: int) -> None:
        pile = self.supply[face]
        k = min(count, len(pile))  # ruling 9.11: a player takes what is left
        taken = [pile.pop() for _ in range(k)]
        self.hands[seat].extend(taken)
        self._gained.add(seat)
        for v in range(self.n):
            if v != seat:
                self.tracked[v].update(taken)
        self._emit("take", seat, face=face, count=k, wanted=count)

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

    # --- setup --------------------------------------------------------------------------------

    def _t_select_buildings(self) -> None:
        sel = self.config.buildings
        if sel.method is SelectionMethod.LIST:
            self.buildings_in_game = sel.cards
        elif sel.method is SelectionMethod.FIRST_GAME:
            self.buildings_in_game = tuple(
                sorted(c for b in D.FIRST_GAME for c in D.building_cards(b))
            )
        elif sel.method is SelectionMethod.RANDOM_BUILDINGS:
            # One public random number picks every class's building: one draw, not six, so a
            # network table runs one commit-reveal round for the whole selection.
            self._then(
                (Game._t_ask_random, (2**6, "one building per class")),
                (Game._t_pick_buildings, ()),
            )
        else:
            self._then(
                (Game._t_ask_random, (len(_FIVE_OF_TEN) ** 6, "five building cards per class")),
                (Game._t_pick_cards, ()),
            )

    def _t_ask_random(self, bound: int, purpose: str) -> None:
        self.pending = PublicRandom(bound, purpose)

    def _t_pick_buildings(self) -> None:
        """Bit ``k`` of the random number picks the building of class ``k``."""
        r = self._random
        cards = [c for k in range(6) for c in D.building_cards(k * 2 + ((r >> k) & 1))]
        self.buildings_in_game = tuple(sorted(cards))

    def _t_pick_cards(self) -> None:
        """Digit ``k`` (base 252) of the random number is the rank of class ``k``'s five cards
        among the 252 ways to choose 5 of its 10 cards (5 of each of its two buildings)."""
        r = self._random
        cards: list[int] = []
        for k in range(6):
            r, rank = divmod(r, len(_FIVE_OF_TEN))
            pool = D.building_cards(k * 2) + D.building_cards(k * 2 + 1)
            cards.extend(pool[i] for i in _FIVE_OF_TEN[rank])
        self.buildings_in_game = tuple(sorted(cards))

    def _t_setup_population(self) -> None:
        if self.n == 2 and any(
            D.face_building(c) is D.Building.GUARD_TOWER for c in self.buildings_in_game
        ):
            # The rulebook advises against the Guard Tower with two players: allowed, but said.
            self._emit("warning", None, text=D.TWO_PLAYER_GUARD_TOWER_WARNING)
        faces = D.population_faces()
        handles = self._new_handles(len(faces))
        self.deck = list(reversed(handles))
        self._then((Game._t_deal_start, ()))
        self.pending = Shuffle("population", tuple(faces), handles)

    def _t_deal_start(self) -> None:
        deck = self.deck
        self.nun_row = [deck.pop() for _ in range(D.NUN_ROW)]
        tasks: list[Task] = []
        for seat in range(self.n):
            cards = [deck.pop() for _ in range(D.START_HAND)]
            self.hands[seat] = cards
            tasks.append((Game._t_reveal_private, (tuple(cards), seat)))
        self._then(*tasks)
        for face in D.SPECIALS:
            handles = self._new_handles(D.SUPPLY_COUNTS[face])
            self.supply[face] = list(handles)
            for h in handles:
                self.faces[h] = face
            self.public.update(handles)

    def _t_reveal_private(self, handles: tuple[int, ...], seat: int) -> None:
        self._emit("deal", seat, count=len(handles))
        self._reveal(handles, seat)

    def _t_setup_buildings(self) -> None:
        cards = self.buildings_in_game
        handles = self._new_handles(len(cards))
        r = self.plan.replacement
        self.replacement = list(reversed(handles[:r]))
        self.building_deck = list(reversed(handles[r:]))
        self.pending = Shuffle("buildings", cards, handles)

    def _t_first_player(self) -> None:
        if self.config.first_player is not None:
            self.start_player = self.first_player = self.config.first_player
        else:
            self._then((Game._t_set_first_player, ()))
            self.pending = PublicRandom(self.n, "starting player")

    def _t_set_first_player(self) -> None:
        self.start_player = self.first_player = self._random

    # --- phase A: buildings -------------------------------------------------------------------

    def _t_round_start(self) -> None:
        n = self.n
        self.round += 1
        self.phase = Phase.BUILDINGS
        self.entered = [-1] * n
        self.entry_seq = [-1] * n
        self.laid = [[] for _ in range(n)]
        self.hidden = [0] * n
        self._opened = set()
        self.supply_choices = [None] * n
        self.premium_2p = None
        self._replace_tries = 0
        k = self.plan.buildings_per_round
        self.row = [self.building_deck.pop() for _ in range(k)]
        self.entry_order = [[] for _ in range(k)]
        self.last_round = not self.building_deck
        self._emit("round", None, round=self.round, start=self.start_player, last=self.last_round)
        self._then((Game._t_row_revealed, ()), (Game._t_check_identical, ()))
        self._reveal(self.row, None)

    def _t_row_revealed(self) -> None:
        self._emit("row", None, cards=[self.faces[h] for h in self.row])

    def _t_check_identical(self) -> None:
        row = self.row
        first = D.face_building(self.faces[row[0]])
        if any(D.face_building(self.faces[h]) != first for h in row):
            self._then((Game._t_supply_phase, ()))
            return
        if not self.replacement or self._replace_tries > len(self.replacement):
            # Cannot happen with 5 copies per building, but never loop forever.
            self._then((Game._t_supply_phase, ()))
            return
        self._replace_tries += 1
        old = row[-1]
        new = self.replacement.pop()
        row[-1] = new
        self.replacement.insert(0, old)
        self._then((Game._t_replaced, (old,)), (Game._t_check_identical, ()))
        self._reveal((new,), None)

    def _t_replaced(self, old: int) -> None:
        self._emit("replace", None, old=self.faces[old], new=self.faces[self.row[-1]])

    # --- phase B: supplies --------------------------------------------------------------------

    def _t_supply_phase(self) -> None:
        self.phase = Phase.SUPPLY
        if self.config.simultaneous_supply:
            self.pending = Decision(DecisionKind.SUPPLY, tuple(range(self.n)))
            self._then(*self._mixing(), (Game._t_enter_phase, ()))
        else:
            asks: list[Task] = [(Game._t_ask_supply, (s,)) for s in self.turn_order()]
            self._then(*asks, *self._mixing(), (Game._t_enter_phase, ()))

    def _t_ask_supply(self, seat: int) -> None:
        self.pending = _SUPPLY_DECISIONS[seat]

    def check_supply(self, seat: int, move: Supply) -> D.SupplyAction:
        """Validate a supply choice; returns the card's supply action."""
        if not 0 <= move.card < len(self.row):
            raise BadChoice(f"there is no building card {move.card + 1} in the row")
        action = D.face_supply(self.faces[self.row[move.card]])
        looks = move.looks
        if len(looks) != action.looks:
            raise WrongCount(f"this supply action looks at {action.looks} nun-row card(s)")
        if any(not 0 <= p < D.NUN_ROW for p in looks) or len(set(looks)) != len(looks):
            raise BadChoice("nun-row positions are 1 to 5, each at most once")
        return action

    def _apply_supply(self, d: Decision, seat: int, move: Supply) -> None:
        self.check_supply(seat, move)
        if not self.config.simultaneous_supply:
            self.pending = None
            self._then((Game._t_do_supply, (seat, move)))
            return
        self.supply_choices[seat] = move
        waiting = tuple(s for s in d.players if s != seat)
        self._emit("supply-chosen", seat)
        if waiting:
            self.pending = Decision(DecisionKind.SUPPLY, waiting)
            return
        self.pending = None
        choices = self.supply_choices
        self._then(*[(Game._t_do_supply, (s, choices[s])) for s in self.turn_order()])

    def _t_do_supply(self, seat: int, move: Supply) -> None:
        action = D.face_supply(self.faces[self.row[move.card]])
        self._emit("supply", seat, card=move.card, action=action.code)
        tasks: list[Task] = []
        if action.draw:
            tasks.append((Game._t_draw, (seat, action.draw)))
        if action.rats:
            tasks.append((Game._t_lose_rats, (seat, action.rats, "supply")))
        if move.looks:
            tasks.append((Game._t_look, (seat, move.looks)))
        self._then(*tasks)

    def _t_lose_rats(self, seat: int, count: int, why: str) -> None:
        self._lose_rats(seat, count, why)

    def _t_draw(self, seat: int, count: int) -> None:
        if count <= 0:
            return
        deck = self.deck
        if not deck:
            if not self.discard:
                self._emit("draw", seat, count=0, wanted=count)  # ruling 9.13
                return
            self._then((Game._t_draw, (seat, count)))
            self._reshuffle()
            return
        k = min(count, len(deck))
        cards = [deck.pop() for _ in range(k)]
        self.hands[seat].extend(cards)
        self._gained.add(seat)
        self._emit("draw", seat, count=k)
        if k < count:
            self._then((Game._t_draw, (seat, count - k)))
        self._reveal(cards, seat)

    def _reshuffle(self) -> None:
        """Shuffle the population discard pile into a new deck."""
        old = self.discard
        faces = tuple(self.faces[h] for h in old)
        for h in old:
            del self.faces[h]
            self.public.discard(h)
        self.discard = []
        handles = self._new_handles(len(faces))
        self.deck = list(reversed(handles))
        self._emit("reshuffle", None, count=len(faces))
        self.pending = Shuffle("discard", faces, handles)

    def _t_look(self, seat: int, positions: tuple[int, ...]) -> None:
        for pos in positions:
            self._emit("look", seat, position=pos)
        self._reveal([self.nun_row[pos] for pos in positions], seat)

    # --- phase C: enter buildings -------------------------------------------------------------

    def _t_enter_phase(self) -> None:
        self.phase = Phase.ENTER
        self.queue = self.turn_order()
        self._then((Game._t_ask_enter, ()))

    def _t_ask_enter(self) -> None:
        if self.queue:
            self.pending = _ENTER_DECISIONS[self.queue[0]]
        else:
            self._then((Game._t_resolve_phase, ()))

    def check_enter(self, seat: int, move: Enter) -> list[int]:
        """Validate entering; returns the handles to lay."""
        if not 0 <= move.building < len(self.row):
            raise BadChoice(f"there is no building {move.building + 1} in the row")
        for face in move.cards:
            if face == D.GOLD or face == D.PASS:
                raise CardNotPlayable(f"{D.face_name(face)} cannot be laid face down")
            if not 0 <= face < D.FACE_COUNT:
                raise BadChoice(f"unknown card {face}")
        return self._take_faces(seat, move.cards)

    def _apply_enter(self, seat: int, move: Enter) -> None:
        handles = self.check_enter(seat, move)
        self.pending = None
        self._forget_hand(seat)
        self._remove_from_hand(seat, handles)
        self.laid[seat] = handles
        self._entered(seat, move.building, len(handles))

    def _apply_enter_hidden(self, seat: int, move: EnterHidden) -> None:
        if not 0 <= move.building < len(self.row):
            raise BadChoice(f"there is no building {move.building + 1} in the row")
        if not 0 <= move.count <= self.hand_size(seat):
            raise WrongCount(f"{self._name(seat)} cannot lay {move.count} card(s)")
        self.pending = None
        self._forget_hand(seat)
        self.hidden[seat] = move.count
        self._entered(seat, move.building, move.count)

    def _entered(self, seat: int, building: int, count: int) -> None:
        self.entered[seat] = building
        self.entry_seq[seat] = self.n - len(self.queue)
        self.entry_order[building].append(seat)
        self.queue.pop(0)
        space = len(self.entry_order[building])
        self._emit("enter", seat, building=building, count=count, space=space)
        self._then((Game._t_ask_enter, ()))

    def check_pass(self, seat: int) -> int:
        """Validate a Pass (ruling 9.2); returns the Pass card's handle."""
        if len(self.queue) < 2:
            raise PassNotAllowed("no other player is left to enter: you must enter")
        for h in self.hands[seat]:
            if self.faces.get(h) == D.PASS:
                return h
        raise PassNotAllowed(f"{self._name(seat)} holds no Pass card")

    def _apply_pass(self, seat: int) -> None:
        self._pass_card(seat, self.check_pass(seat))

    def _apply_pass_handle(self, seat: int, h: int) -> None:
        if len(self.queue) < 2:
            raise PassNotAllowed("no other player is left to enter: you must enter")
        if h not in self.hands[seat]:
            raise CardNotHeld(f"{self._name(seat)} does not hold that card")
        if self.faces.get(h, D.PASS) != D.PASS:
            raise PassNotAllowed("that card is not a Pass")
        self._pass_card(seat, h)

    def _pass_card(self, seat: int, h: int) -> None:
        self.pending = None
        self.queue.append(self.queue.pop(0))
        self._emit("pass", seat)
        self._then((Game._t_pass_played, (seat, h)), (Game._t_ask_enter, ()))
        self._reveal((h,), None)  # a Pass is played openly

    def _t_pass_played(self, seat: int, h: int) -> None:
        if self.faces[h] != D.PASS:
            raise CheatDetected(seat, f"{self._name(seat)} played a card that is not a Pass")
        self.hands[seat].remove(h)  # only now: no card is in no place while the table works
        self.supply[D.PASS].append(h)

    # --- phase D: resolve buildings -----------------------------------------------------------

    def _t_resolve_phase(self) -> None:
        self.phase = Phase.RESOLVE
        tasks: list[Task] = [(Game._t_resolve_building, (i,)) for i in range(len(self.row))]
        tasks.append((Game._t_end_round, ()))
        if self.n == 2:
            # Two players: the single premium depends on both players' cards, so all cards
            # are turned up before the first building resolves (project ruling, see docs).
            seats = tuple(s for i in range(len(self.row)) for s in self.entry_order[i])
            self._then(
                *self._open_tasks(seats),
                (Game._t_reveal_laid, (seats,)),
                (Game._t_two_player_premium, ()),
                *tasks,
            )
        else:
            self._then(*tasks)

    def _open_tasks(self, seats: tuple[int, ...]) -> list[Task]:
        """Ask the table for the handles of face-down cards this peer has not seen."""
        return [(Game._t_open, (s,)) for s in seats if self.hidden[s]]

    def _t_open(self, seat: int) -> None:
        if self.hidden[seat]:
            self.pending = Open(seat, self.hidden[seat])

    def _open_hidden(self, req: Open, value: object) -> None:
        """The table opened a hidden play: the cards must be distinct and in the hand."""
        seat = req.seat
        if not isinstance(value, list | tuple) or not all(isinstance(h, int) for h in value):
            raise TableMisuse("an opening is answered with the laid handles")
        handles = list(value)
        hand = self.hands[seat]
        if len(handles) != req.number or len(set(handles)) != len(handles):
            raise CheatDetected(
                seat, f"{self._name(seat)} opened {len(handles)} card(s), not {req.number}"
            )
        if any(h not in hand for h in handles):
            raise CheatDetected(seat, f"{self._name(seat)} opened cards he does not hold")
        self._remove_from_hand(seat, handles)
        self.laid[seat] = handles
        self.hidden[seat] = 0
        self._opened.add(seat)

    def _t_reveal_laid(self, seats: tuple[int, ...]) -> None:
        self._reveal([h for s in seats for h in self.laid[s]], None)

    def _t_two_player_premium(self) -> None:
        counts = [self.pop_jokers(self.laid[s]) for s in range(2)]
        if counts[0] != counts[1]:
            self.premium_2p = 0 if counts[0] > counts[1] else 1
        else:
            self.premium_2p = 0 if self.entry_seq[0] < self.entry_seq[1] else 1

    def _t_resolve_building(self, i: int) -> None:
        seats = tuple(self.entry_order[i])
        self._emit("resolve", None, building=i)
        if not seats:
            return
        self._then(
            *self._open_tasks(seats),
            *self._mixing(),  # hands that gained while their play lay face down
            (Game._t_reveal_laid, (seats,)),
            (Game._t_apply_cards, (i,)),
            (Game._t_sword, (i,)),
            (Game._t_flute, (i,)),
            (Game._t_actions, (i,)),
            (Game._t_discard_played, (i,)),
            *self._mixing(),
        )

    def _t_apply_cards(self, i: int) -> None:
        klass = self.building_at(i) // 2  # the class of a building
        faces = self.faces
        for s in self.entry_order[i]:
            if s in self._opened and any(faces[h] in (D.GOLD, D.PASS) for h in self.laid[s]):
                raise CheatDetected(s, f"{self._name(s)} laid Gold or a Pass face down")
        for s in self.entry_order[i]:
            laid = [faces[h] for h in self.laid[s]]
            self._emit("reveal", s, building=i, cards=sorted(laid))
            influence = sum(1 for f in laid if f <= D.JOKER)
            rats = sum(1 for f in laid if f < D.JOKER and f // 5 != klass)
            self._gain_influence(s, klass, influence)
            self._gain_rats(s, rats, "cards")

    def _majority(self, i: int, face: int) -> tuple[int, list[int]] | None:
        """For Swords or Flutes in building ``i``: the seat with most (first entered wins a
        tie) and the seats with fewest; ``None`` if everybody laid the same number."""
        seats = self.entry_order[i]
        faces = self.faces
        counts = [sum(1 for h in self.laid[s] if faces[h] == face) for s in seats]
        hi, lo = max(counts), min(counts)
        if hi == lo:
            return None
        winner = seats[counts.index(hi)]
        return winner, [s for s, c in zip(seats, counts, strict=True) if c == lo]

    def _t_sword(self, i: int) -> None:
        m = self._majority(i, D.SWORD)
        if m is None:
            return
        winner, fewest = m
        if len(fewest) == 1:
            self._then((Game._t_sword_give, (i, fewest[0], winner)))
        else:
            self.pending = Decision(
                DecisionKind.CHOOSE_PLAYER,
                (winner,),
                candidates=tuple(fewest),
                reason="sword",
                building=i,
            )

    def _t_sword_give(self, i: int, giver: int, winner: int) -> None:
        k = len(self.hands[giver]) // 2  # ruling 9.5: the hand when the Sword resolves
        self._emit("sword", winner, giver=giver, count=k, building=i)
        if k:
            self.pending = Decision(
                DecisionKind.GIVE, (giver,), count=k, to=winner, reason="sword", building=i
            )

    def _t_flute(self, i: int) -> None:
        m = self._majority(i, D.FLUTE)
        if m is None:
            return
        winner, fewest = m
        if len(fewest) == 1:
            self._then((Game._t_flute_rat, (winner, fewest[0])))
        else:
            self.pending = Decision(
                DecisionKind.CHOOSE_PLAYER,
                (winner,),
                candidates=tuple(fewest),
                reason="flute",
                building=i,
            )

    def _t_flute_rat(self, giver: int, receiver: int) -> None:
        moved = 1 if self.rats[giver] > 0 else 0  # ruling 9.6
        self.rats[giver] -= moved
        self.rats[receiver] += moved
        self._emit("flute", giver, receiver=receiver, moved=moved)

    def _apply_choose(self, d: Decision, seat: int, move: ChoosePlayer) -> None:
        if move.player not in d.candidates:
            raise BadChoice("choose one of the tied players")
        self.pending = None
        assert d.building is not None
        if d.reason == "sword":
            self._then((Game._t_sword_give, (d.building, move.player, seat)))
        else:
            self._then((Game._t_flute_rat, (seat, move.player)))

    def premium_seat(self, i: int) -> int | None:
        """Who takes the premium of row building ``i`` (its cards must be turned up)."""
        seats = self.entry_order[i]
        if not seats:
            return None
        if self.n == 2:
            return self.premium_2p if self.premium_2p in seats else None
        counts = [self.pop_jokers(self.laid[s]) for s in seats]
        return seats[counts.index(max(counts))]  # a tie goes to whoever entered first

    def _t_actions(self, i: int) -> None:
        prem = self.premium_seat(i)
        klass = self.building_at(i) // 2  # the class of a building
        if self.last_round:
            if prem is not None:
                self._emit("last-round-premium", prem, building=i)
                self._gain_influence(prem, klass, 1)
            return
        order = [s for s in self.entry_order[i] if s != prem]
        tasks: list[Task] = [(Game._t_action, (i, s, False)) for s in order]
        if prem is not None:
            tasks.insert(0, (Game._t_action, (i, prem, True)))
        self._then(*tasks)

    def _t_action(self, i: int, seat: int, premium: bool) -> None:
        """Offer the action, or carry it out when declining it could never help (ruling 17:
        only actions that bring cards are offered, and only when they would bring some)."""
        offer = self.action_offer(i, seat, premium)
        if offer:
            self.pending = Decision(
                DecisionKind.ACTION,
                (seat,),
                count=offer,
                reason="premium" if premium else "standard",
                building=i,
            )
            return
        self._t_take_action(i, seat, premium)

    def action_offer(self, i: int, seat: int, premium: bool) -> int:
        """How many cards ``seat``'s action in row building ``i`` would bring him if he may
        decline it (ruling 17: population cards, jokers, specials, Gold, the Guard Tower
        premium's gifts); 0 for an action taken without asking. Reads public state only, so
        every peer asks the same question."""
        b = self.building_at(i)
        B = D.Building
        amount = D.PREMIUM_AMOUNT if premium else D.STANDARD_AMOUNT
        left = len(self.deck) + len(self.discard)
        if b is B.FARM:
            return min(D.FARM_DRAW[0 if premium else 1], left)
        if b is B.BREWERY:
            played = self.pop_jokers(self.laid[seat])  # ruling 9.9
            return min(played if premium else played // 2, left)
        face = _SUPPLY_TAKEN.get(b)
        if face is not None:
            return min(amount, len(self.supply[face]))
        if b is B.GUARD_TOWER and premium:
            gift = D.GUARD_TOWER_GIFT
            return sum(min(self.hand_size(s), gift) for s in self._guard_givers(seat))
        return 0

    def _apply_action(self, d: Decision, seat: int, move: TakeAction | DeclineAction) -> None:
        assert d.building is not None
        premium = d.reason == "premium"
        self.pending = None
        if isinstance(move, TakeAction):
            self._then((Game._t_take_action, (d.building, seat, premium)))
        else:
            self._emit("decline", seat, building=d.building, premium=premium, count=d.count)

    def _t_take_action(self, i: int, seat: int, premium: bool) -> None:
        b = self.building_at(i)
        self._emit("action", seat, building=i, premium=premium)
        amount = D.PREMIUM_AMOUNT if premium else D.STANDARD_AMOUNT
        B = D.Building
        if b is B.FARM:
            self._then((Game._t_draw, (seat, D.FARM_DRAW[0 if premium else 1])))
        elif b is B.BREWERY:
            played = self.pop_jokers(self.laid[seat])  # ruling 9.9
            self._then((Game._t_draw, (seat, played if premium else played // 2)))
        elif b is B.MARKETPLACE:
            self._take_supply(seat, D.JOKER, amount)
        elif b is B.OFFICE:
            self._take_supply(seat, D.PASS, amount)
        elif b is B.MONASTERY:
            self._lose_rats(seat, amount, "monastery")
        elif b is B.HOSPITAL:
            if premium:
                self._lose_rats(seat, D.HOSPITAL_PREMIUM_RATS, "hospital")
            limit = D.HOSPITAL_CARD_LIMIT[0 if premium else 1]
            most = min(limit, len(self.hands[seat]), self.rats[seat])  # ruling 9.15
            if most > 0:
                self.pending = Decision(
                    DecisionKind.DISCARD, (seat,), count=most, reason="hospital", building=i
                )
        elif b is B.CASTLE:
            self._take_supply(seat, D.SWORD, amount)
        elif b is B.GUARD_TOWER:
            if premium:
                self._guard_tower(i, seat)
        elif b is B.FORTUNE_TELLER:
            self.pending = Decision(
                DecisionKind.LOOK, (seat,), count=amount, reason="tent", building=i
            )
        elif b is B.PIED_PIPER:
            self._take_supply(seat, D.FLUTE, amount)
        elif b is B.PALACE:
            self.vp[seat] += amount
            self._emit("vp", seat, delta=amount)
        elif b is B.TREASURY:
            self._take_supply(seat, D.GOLD, amount)

    def _guard_tower(self, i: int, seat: int) -> None:
        """Guard Tower premium: sizes are compared before anyone gives (ruling 9.7)."""
        givers = self._guard_givers(seat)
        self._emit("guard-tower", seat, givers=givers, building=i)
        self._then(*[(Game._t_guard_give, (i, s, seat)) for s in givers])

    def _guard_givers(self, seat: int) -> list[int]:
        """Who must give to ``seat``'s Guard Tower premium, in giving order: every player who
        entered no Guard Tower and holds at least as many cards as ``seat``."""
        protected = {
            s
            for s in range(self.n)
            if self.entered[s] >= 0 and self.building_at(self.entered[s]) is D.Building.GUARD_TOWER
        }
        size = self.hand_size(seat)
        return [
            s for s in self.turn_order(seat)[1:] if s not in protected and self.hand_size(s) >= size
        ]

    def _t_guard_give(self, i: int, giver: int, to: int) -> None:
        size = self.hand_size(giver)
        if size == 0:
            return
        if size <= D.GUARD_TOWER_GIFT and self.entered[giver] <= i:
            # He gives all he holds: nothing to choose. (A giver whose face-down cards wait
            # in a later building still chooses, because a peer that cannot see them cannot
            # tell which cards "all the rest" are.)
            self._transfer(giver, to, list(self.hands[giver]), "guard tower")
            return
        self.pending = Decision(
            DecisionKind.GIVE,
            (giver,),
            count=min(size, D.GUARD_TOWER_GIFT),
            to=to,
            reason="guard tower",
            building=i,
        )

    def _apply_give(self, d: Decision, seat: int, move: Give) -> None:
        if len(move.cards) != d.count:
            raise WrongCount(f"give exactly {d.count} card(s)")
        self._give_handles(d, seat, self._take_faces(seat, move.cards))

    def _check_handles(self, seat: int, handles: list[int]) -> None:
        hand = self.hands[seat]
        if len(set(handles)) != len(handles) or any(h not in hand for h in handles):
            raise CardNotHeld(f"{self._name(seat)} does not hold those cards")

    def _give_handles(self, d: Decision, seat: int, handles: list[int]) -> None:
        if len(handles) != d.count:
            raise WrongCount(f"give exactly {d.count} card(s)")
        self._check_handles(seat, handles)
        assert d.to is not None
        self.pending = None
        self._transfer(seat, d.to, handles, d.reason)

    def _transfer(self, giver: int, to: int, handles: list[int], reason: str) -> None:
        self._forget_hand(giver)
        self._remove_from_hand(giver, handles)
        self.hands[to].extend(handles)
        self._gained.add(to)
        self.tracked[giver].update(handles)
        self.tracked[to].difference_update(handles)
        self._emit("give", giver, to=to, count=len(handles), reason=reason)
        if all(h in self.faces for h in handles):
            faces = sorted(self.faces[h] for h in handles)
            self._emit("gift", giver, private_to=giver, to=to, cards=faces)
        # The receiver's hand is mixed as soon as it holds the gift: it may discard at the
        # Hospital of this very building, and the gift's handles would show the giver's cards.
        self._then((Game._t_gift_received, (giver, to, tuple(handles))), *self._mixing())
        self._reveal(handles, to)

    def _t_gift_received(self, giver: int, to: int, handles: tuple[int, ...]) -> None:
        if all(h in self.faces for h in handles):
            faces = sorted(self.faces[h] for h in handles)
            self._emit("gift", giver, private_to=to, to=to, cards=faces)

    def _apply_discard(self, d: Decision, seat: int, move: Discard) -> None:
        if len(move.cards) > d.count:
            raise WrongCount(f"discard at most {d.count} card(s)")
        self._discard_handles(d, seat, self._take_faces(seat, move.cards))

    def _discard_handles(self, d: Decision, seat: int, handles: list[int]) -> None:
        if len(handles) > d.count:
            raise WrongCount(f"discard at most {d.count} card(s)")
        self._check_handles(seat, handles)
        self.pending = None
        if not handles:
            self._emit("hospital", seat, cards=[])
            return
        self._forget_hand(seat)
        self._then((Game._t_hospital_discarded, (seat, tuple(handles))))
        self._reveal(handles, None)  # ruling 9.8: they are turned up

    def _t_hospital_discarded(self, seat: int, handles: tuple[int, ...]) -> None:
        # The cards leave the hand only now, so that while the table turns them up every
        # card is still in exactly one place.
        self._remove_from_hand(seat, list(handles))
        for h in handles:
            self._return_card(h)
        self._emit("hospital", seat, cards=sorted(self.faces[h] for h in handles))
        self._lose_rats(seat, len(handles), "hospital")

    def _apply_look(self, d: Decision, seat: int, move: Look) -> None:
        pos = move.positions
        if len(pos) != d.count:
            raise WrongCount(f"look at exactly {d.count} nun-row card(s)")
        if any(not 0 <= p < D.NUN_ROW for p in pos) or len(set(pos)) != len(pos):
            raise BadChoice("nun-row positions are 1 to 5, each at most once")
        self.pending = None
        self._then((Game._t_look, (seat, pos)))

    def _mixing(self) -> list[Task]:
        return [(Game._t_mix_hands, ())] if self.config.mix_hands else []

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
                (Game._t_mix_hand, (seat,))
                for seat in sorted(gained)
                if self.hidden[seat] == 0 and self.hands[seat]
            ]
        )

    def _t_mix_hand(self, seat: int) -> None:
        old = tuple(self.hands[seat])
        new = self._new_handles(len(old))
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

    def _t_discard_played(self, i: int) -> None:
        for s in self.entry_order[i]:
            for h in self.laid[s]:
                self._return_card(h)
            self.laid[s] = []

    # --- phase E ------------------------------------------------------------------------------

    def _t_end_round(self) -> None:
        self.phase = Phase.END_ROUND
        self.building_discard.extend(self.row)
        self.row = []
        self.entry_order = []
        self.entered = [-1] * self.n
        self.start_player = (self.start_player + 1) % self.n
        self._emit("end-round", None, round=self.round)
        if self.last_round:
            self._then((Game._t_game_end, ()))
        else:
            self._then((Game._t_round_start, ()))

    def _t_game_end(self) -> None:
        hidden = [h for hand in self.hands for h in hand if h not in self.public]
        hidden += [h for h in self.nun_row if h not in self.public]
        self._then((Game._t_score, ()))
        if hidden:
            self._reveal(hidden, None)

    def _t_score(self) -> None:
        from rattus_net.games.cartus.scoring import score

        self.phase = Phase.GAME_OVER
        self.result = score(self)
        self._emit("game-over", None, winners=list(self.result.winners))

    # --- introspection ------------------------------------------------------------------------

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

    def clone(self) -> Game:
        """An independent copy (for search): the same state and pending request. The copy
        has no attached table: the table belongs to the real game."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._inline = None
        g._gained = set(self._gained)
        g.faces = dict(self.faces)
        g.public = set(self.public)
        g.seen = [set(s) for s in self.seen]
        g.tracked = [set(s) for s in self.tracked]
        g.deck = list(self.deck)
        g.discard = list(self.discard)
        g.nun_row = list(self.nun_row)
        g.hands = [list(h) for h in self.hands]
        g.supply = {f: list(p) for f, p in self.supply.items()}
        g.building_deck = list(self.building_deck)
        g.replacement = list(self.replacement)
        g.building_discard = list(self.building_discard)
        g.row = list(self.row)
        g.influence = [list(r) for r in self.influence]
        g.arrival = [list(r) for r in self.arrival]
        g.rats = list(self.rats)
        g.vp = list(self.vp)
        g.entered = list(self.entered)
        g.entry_order = [list(e) for e in self.entry_order]
        g.entry_seq = list(self.entry_seq)
        g.laid = [list(x) for x in self.laid]
        g.hidden = list(self.hidden)
        g._opened = set(self._opened)
        g.queue = list(self.queue)
        g.supply_choices = list(self.supply_choices)
        g.log = list(self.log)
        g.history = list(self.history)
        g._stack = list(self._stack)
        return g
