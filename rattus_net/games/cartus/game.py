"""The rules of Rattus Cartus as a deterministic state machine over card handles.

A game is driven from outside. At every moment ``Game.pending`` is one of

- a :class:`Decision`: one or more players must choose (``Game.apply``);
- a table request (``rattus_net/kit/table.py``): the table must shuffle, turn up a card or
  draw a public random number (``Game.answer``);
- ``None``: the game is over and ``Game.result`` holds the scoring.

Cards are *handles*: integers that stand for a physical card whose face this engine may or may
not know (``Game.faces``). The same engine therefore runs on a peer that knows only its own
secrets. Internally the flow of a round is a stack of small tasks (the kit's machine:
``rattus_net/kit/machine.py``), which keeps the state copyable for search bots and cheap to
advance.

Every public method either succeeds or raises and leaves the state unchanged: validation happens
before the first mutation. This module is the flow of a game (setup, and the phases of a
round); ``state.py`` holds the state, ``rules.py`` the players' decisions and ``resolve.py``
the resolution of the buildings (phase D).
"""

from __future__ import annotations

from itertools import combinations

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import GameConfig, SelectionMethod
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.resolve import Resolve
from rattus_net.games.cartus.rules import CartusRules
from rattus_net.games.cartus.state import (
    SUPPLY_DECISIONS,
    CartusState,
    Decision,
    Event,
    Phase,
    Task,
)
from rattus_net.kit.machine import InlineTable
from rattus_net.kit.table import PublicRandom, Shuffle

# The ways of choosing 5 of a class's 10 building cards (selection "random-cards").
_FIVE_OF_TEN = tuple(combinations(range(2 * D.COPIES_PER_BUILDING), D.BUILDINGS_PER_CLASS_IN_GAME))


class Game(CartusRules):
    """One game of Rattus Cartus. See the module docstring for how it is driven."""

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self._start(
            (Game._t_select_buildings, ()),
            (Game._t_setup_population, ()),
            (Game._t_setup_buildings, ()),
            (Game._t_first_player, ()),
            (Game._t_round_start, ()),
        )

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
                (CartusState._t_ask_random, (2**6, "one building per class")),
                (Game._t_pick_buildings, ()),
            )
        else:
            self._then(
                (
                    CartusState._t_ask_random,
                    (len(_FIVE_OF_TEN) ** 6, "five building cards per class"),
                ),
                (Game._t_pick_cards, ()),
            )

    def _t_pick_buildings(self) -> None:
        """Bit ``k`` of the random number picks the building of class ``k``."""
        r = self._random
        cards = [c for k in range(6) for c in D.building_cards(k * 2 + ((r >> k) & 1))]
        self.buildings_in_game = tuple(sorted(cards))

    def _t_pick_cards(self) -> None:
        """Digit ``k`` (base 252) of the random number is the rank of class ``k``'s five cards
        among the 252 ways to choose 5 of its 10 cards (5 of each of its two buildings)."""
        r = self._random
        castle_only = self.config.buildings.method is SelectionMethod.RANDOM_CARDS_NO_GUARD_TOWER
        cards: list[int] = []
        for k in range(6):
            r, rank = divmod(r, len(_FIVE_OF_TEN))
            if castle_only and k == D.Building.CASTLE.klass:  # (its digit is drawn all the same)
                cards.extend(D.building_cards(D.Building.CASTLE))
                continue
            pool = D.building_cards(k * 2) + D.building_cards(k * 2 + 1)
            cards.extend(pool[i] for i in _FIVE_OF_TEN[rank])
        self.buildings_in_game = tuple(sorted(cards))

    def _t_setup_population(self) -> None:
        if self.n == 2 and any(
            D.face_building(c) is D.Building.GUARD_TOWER for c in self.buildings_in_game
        ):
            # The rulebook advises against the Guard Tower with two players: allowed, but said.
            self.emit("warning", None, text=D.TWO_PLAYER_GUARD_TOWER_WARNING)
        faces = D.population_faces()
        handles = self.new_handles(len(faces))
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
            handles = self.new_handles(D.SUPPLY_COUNTS[face])
            self.supply[face] = list(handles)
            for h in handles:
                self.faces[h] = face
            self.public.update(handles)

    def _t_reveal_private(self, handles: tuple[int, ...], seat: int) -> None:
        self.emit("deal", seat, count=len(handles))
        self._reveal(handles, seat)

    def _t_setup_buildings(self) -> None:
        cards = self.buildings_in_game
        handles = self.new_handles(len(cards))
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
        self.emit("round", None, round=self.round, start=self.start_player, last=self.last_round)
        self._then((Game._t_row_revealed, ()), (Game._t_check_identical, ()))
        self._reveal(self.row, None)

    def _t_row_revealed(self) -> None:
        self.emit("row", None, cards=[self.faces[h] for h in self.row])

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
        self.emit("replace", None, old=self.faces[old], new=self.faces[self.row[-1]])

    def _t_supply_phase(self) -> None:
        self.phase = Phase.SUPPLY
        if self.config.simultaneous_supply:
            self.pending = Decision(DecisionKind.SUPPLY, tuple(range(self.n)))
            self._then(*self._mixing(), (Game._t_enter_phase, ()))
        else:
            asks: list[Task] = [(Game._t_ask_supply, (s,)) for s in self.turn_order()]
            self._then(*asks, *self._mixing(), (Game._t_enter_phase, ()))

    def _t_ask_supply(self, seat: int) -> None:
        self.pending = SUPPLY_DECISIONS[seat]

    def _t_enter_phase(self) -> None:
        self.phase = Phase.ENTER
        self.queue = self.turn_order()
        self._then((CartusRules._t_ask_enter, ()), (Game._t_resolve_phase, ()))

    def _t_resolve_phase(self) -> None:
        self.phase = Phase.RESOLVE
        tasks: list[Task] = [(Resolve._t_resolve_building, (i,)) for i in range(len(self.row))]
        tasks.append((Game._t_end_round, ()))
        if self.n == 2:
            # Two players: the single premium depends on both players' cards, so all cards
            # are turned up before the first building resolves (project ruling, see docs).
            seats = tuple(s for i in range(len(self.row)) for s in self.entry_order[i])
            self._then(
                *self._open_tasks(seats),
                (Resolve._t_reveal_laid, (seats,)),
                (Resolve._t_two_player_premium, ()),
                *tasks,
            )
        else:
            self._then(*tasks)

    def _t_end_round(self) -> None:
        self.phase = Phase.END_ROUND
        self.building_discard.extend(self.row)
        self.row = []
        self.entry_order = []
        self.entered = [-1] * self.n
        self.start_player = (self.start_player + 1) % self.n
        self.emit("end-round", None, round=self.round)
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
        self.emit("game-over", None, winners=list(self.result.winners))


__all__ = ["Decision", "Event", "Game", "InlineTable", "Phase"]
