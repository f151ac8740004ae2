"""Scenario builders for the engine tests.

A scenario fixes every card: the nun row, the starting hands, the top of the population deck and
the building rows of the first rounds. Whatever a test leaves open is filled in a fixed order,
so a scenario is always the same game. The game is driven through its public API only
(``Game.apply`` for moves, a scripted ``LocalTable`` for every table request), except for two
clearly marked setup helpers that stand in for earlier rounds:

- :func:`give_special` moves jokers or special cards from their open supply pile into a hand
  (as a Marketplace, Office, Castle, Pied Piper's Hut or Treasury would);
- :func:`set_rats` sets a player's rat total (as earlier rounds would have).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.data import Building
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import DecisionKind, Enter, Move, Supply, TakeAction
from rattus_net.games.cartus.record import GameRecord
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end, settle

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")

# Class shorthands for population faces: P(2) is a Peasantry card with 2 nuns.
PEA, BOU, CHU, CHI, MAG, ROY = range(6)


def card(klass: int, nuns: int = 0) -> int:
    """A population face."""
    return D.pop_face(klass, nuns)


def P(n: int = 0) -> int:  # short card names read well in scenarios
    return card(PEA, n)


def B(n: int = 0) -> int:
    return card(BOU, n)


def C(n: int = 0) -> int:
    return card(CHU, n)


def K(n: int = 0) -> int:  # Chivalry (knights)
    return card(CHI, n)


def M(n: int = 0) -> int:
    return card(MAG, n)


def R(n: int = 0) -> int:
    return card(ROY, n)


# A nun row with 10 nuns in total, and one with none.
NUN_ROW_10 = (P(4), B(4), C(1), K(1), M(0))
NUN_ROW_0 = (P(0), B(0), C(0), K(0), M(0))

# Supply codes that change nothing physical (looks only), then the mildest others.
_QUIET_CODES = "FEBDCA"


def copy_of(building: Building, code: str) -> int:
    """The face of the copy of ``building`` whose printed supply action is ``code``."""
    return D.building_face(building, D.BUILDING_COPIES[building].index(code))


def _take(pool: Counter[int], face: int, what: str) -> int:
    if pool[face] <= 0:
        raise ValueError(f"scenario uses more {what} {face} than exist")
    pool[face] -= 1
    return face


def _round_robin(cards: list[int], key: Any) -> list[int]:
    """Interleave cards so that neighbours differ by ``key`` where possible."""
    groups: dict[Any, list[int]] = {}
    for c in cards:
        groups.setdefault(key(c), []).append(c)
    out: list[int] = []
    while any(groups.values()):
        for k in sorted(groups, key=lambda k: -len(groups[k])):
            if groups[k]:
                out.append(groups[k].pop(0))
    return out


def population_order(
    n: int,
    nun_row: Sequence[int] = NUN_ROW_10,
    hands: Sequence[Sequence[int]] = (),
    deck: Sequence[int] = (),
) -> tuple[int, ...]:
    """The 84 population faces top first: nun row, 5 cards per seat, the deck top first.

    Missing hand cards and the rest of the deck are filled from the unused cards in a fixed
    order (interleaved by class)."""
    pool: Counter[int] = Counter(D.population_faces())
    row = [_take(pool, f, "population card") for f in nun_row]
    given_hands = [[_take(pool, f, "population card") for f in h] for h in hands]
    top = [_take(pool, f, "population card") for f in deck]
    rest = _round_robin(sorted(pool.elements()), D.face_class)
    if len(row) < D.NUN_ROW:
        row += [rest.pop() for _ in range(D.NUN_ROW - len(row))]
    out = list(row)
    for seat in range(n):
        hand = list(given_hands[seat]) if seat < len(given_hands) else []
        if len(hand) > D.START_HAND:
            raise ValueError("a starting hand holds 5 cards")
        while len(hand) < D.START_HAND:
            hand.append(rest.pop(0))
        out += hand
    out += top + rest
    assert Counter(out) == Counter(D.population_faces())
    return tuple(out)


def _as_face(item: int | Building | str, pool: Counter[int]) -> int:
    if isinstance(item, str):
        return D.parse_building_card(item)
    if isinstance(item, Building):
        for code in _QUIET_CODES:
            if code in D.BUILDING_COPIES[item]:
                face = copy_of(item, code)
                if pool[face] > 0:
                    return face
        raise ValueError(f"no copy of {item.label} left")
    return item


def building_order(
    n: int,
    in_game: Sequence[int],
    rows: Sequence[Sequence[int | Building | str]] = (),
    replacement: Sequence[int | Building | str] = (),
    last_row: Sequence[int | Building | str] = (),
) -> tuple[int, ...]:
    """The 30 building cards top first: the replacement deck (top first), then the rows of
    the first rounds, fillers, and ``last_row`` (the row of the last round) at the bottom.

    Rows are given as faces, ``Farm/A`` codes, or buildings (a quiet copy is picked: one whose
    supply action only looks at the nun row, if there is one)."""
    plan = D.ROUND_PLAN[n]
    pool: Counter[int] = Counter(in_game)
    last = [_take(pool, _as_face(x, pool), "building card") for x in last_row]
    rep = [_take(pool, _as_face(x, pool), "building card") for x in replacement]
    row_cards: list[int] = []
    for r in rows:
        if len(r) != plan.buildings_per_round:
            raise ValueError(f"a row holds {plan.buildings_per_round} buildings")
        row_cards += [_take(pool, _as_face(x, pool), "building card") for x in r]
    rest = _round_robin(sorted(pool.elements()), D.face_building)
    while len(rep) < plan.replacement:
        rep.append(rest.pop())
    return tuple(rep + row_cards + rest + last)


class Scenario:
    """A game with a fixed card order, and short ways to play it."""

    def __init__(
        self,
        n: int = 3,
        *,
        nun_row: Sequence[int] = NUN_ROW_10,
        hands: Sequence[Sequence[int]] = (),
        deck: Sequence[int] = (),
        rows: Sequence[Sequence[int | Building | str]] = (),
        replacement: Sequence[int | Building | str] = (),
        last_row: Sequence[int | Building | str] = (),
        buildings: Sequence[Building] | None = None,
        selection: BuildingSelection | None = None,
        first_player: int | None = 0,
        simultaneous_supply: bool = False,
        plague_survivors: bool = False,
        discard_orders: Sequence[Sequence[int]] = (),
        randoms: Sequence[int] = (),
        take_actions: bool = True,
    ) -> None:
        # Offered actions (ruling 17) are taken at once unless a test wants to decide them.
        self.take_actions = take_actions
        if selection is None:
            chosen = (
                list(buildings)
                if buildings is not None
                else self._buildings_for([*rows, last_row, replacement])
            )
            selection = BuildingSelection.of_buildings(chosen)
        self.config = GameConfig(
            players=NAMES[:n],
            buildings=selection,
            simultaneous_supply=simultaneous_supply,
            first_player=first_player,
            plague_survivors=plague_survivors,
        )
        self.population = population_order(n, nun_row, hands, deck)
        shuffles: dict[str, list[tuple[int, ...]]] = {"population": [self.population]}
        if discard_orders:
            shuffles["discard"] = [tuple(o) for o in discard_orders]
        self.table = LocalTable(
            seed=0,
            script_shuffles=shuffles,
            script_randoms=randoms,
            strict=True,
            free_piles=frozenset({"discard"}),  # (a reshuffle, unless a test orders it)
        )
        self.game = Game(self.config)
        self._rows = rows
        self._replacement = replacement
        self._last_row = last_row
        # The building order can only be made once the game knows its 30 building cards
        # (random selections draw them first), so it is queued when the table is asked.
        self._settle_setup(n)

    @staticmethod
    def _buildings_for(rows: Sequence[Sequence[int | Building | str]]) -> list[Building]:
        """The six buildings of the game: those named in the rows, the first-game set for
        the other classes."""
        chosen = {b.klass: b for b in D.FIRST_GAME}
        for r in rows:
            for x in r:
                b = (
                    x
                    if isinstance(x, Building)
                    else D.face_building(D.parse_building_card(x) if isinstance(x, str) else x)
                )
                chosen[b.klass] = b
        return [chosen[k] for k in D.CLASSES]

    def _settle_setup(self, n: int) -> None:
        g, t = self.game, self.table
        from rattus_net.kit.table import Shuffle

        while g.pending is not None and g.decision is None:
            req = g.pending
            if isinstance(req, Shuffle) and req.pile == "buildings":
                order = building_order(n, req.faces, self._rows, self._replacement, self._last_row)
                t.script_shuffles["buildings"] = [order]
                self.buildings = order
            t.answer(g)

    # --- playing ------------------------------------------------------------------------------

    def play(self, seat: int, move: Move) -> None:
        """Apply a move, then let the table answer until a player must decide (taking every
        offered action if ``take_actions``)."""
        self.game.apply(seat, move)
        self.settle()

    def settle(self) -> None:
        settle(self.game, self.table)
        g = self.game
        while self.take_actions and g.decision is not None:
            d = g.decision
            if d.kind is not DecisionKind.ACTION:
                break
            g.apply(d.players[0], TakeAction())
            settle(g, self.table)

    def view(self, seat: int) -> PlayerView:
        return PlayerView(self.game, seat)

    def quiet_supply_move(self, seat: int) -> Supply:
        """The supply choice that changes least: looks only if the row offers it."""
        g = self.game
        best = None
        for i, h in enumerate(g.row):
            action = D.face_supply(g.faces[h])
            rank = _QUIET_CODES.index(action.code)
            if best is None or rank < best[0]:
                best = (rank, i, action)
        assert best is not None
        _, i, action = best
        return Supply(i, tuple(range(action.looks)))

    def supplies(self, moves: dict[int, Supply] | None = None) -> None:
        """Play phase B: each seat takes ``moves[seat]`` or the quiet supply."""
        g = self.game
        moves = moves or {}
        while g.decision is not None and g.decision.kind is DecisionKind.SUPPLY:
            seat = g.decision.players[0]
            self.play(seat, moves.get(seat, self.quiet_supply_move(seat)))

    def enter(self, seat: int, building: int, *cards: int) -> None:
        self.play(seat, Enter(building, tuple(sorted(cards))))

    def enter_all(self, entries: Sequence[tuple[int, int, Sequence[int]]]) -> None:
        """Play phase C: ``(seat, building, cards)`` in the order given."""
        for seat, building, cards in entries:
            self.enter(seat, building, *cards)

    def round(
        self,
        entries: Sequence[tuple[int, int, Sequence[int]]],
        supplies: dict[int, Supply] | None = None,
    ) -> None:
        """Phase B (quiet), then phase C with ``entries``; stops at the next decision."""
        self.supplies(supplies)
        self.enter_all(entries)

    def hand(self, seat: int) -> list[int]:
        return sorted(self.game.faces[h] for h in self.game.hands[seat])

    def events(self, kind: str) -> list[Any]:
        return [e for e in self.game.log if e.kind == kind]


# --- setup helpers that stand in for earlier rounds ----------------------------------------------


def give_special(game: Game, seat: int, face: int, count: int = 1) -> None:
    """Move ``count`` cards of ``face`` from its open supply pile into ``seat``'s hand.

    Setup only: it stands in for the Marketplace, Office, Castle, Hut or Treasury of an earlier
    round. The cards stay face up to everybody, as cards taken from the supply are."""
    for _ in range(count):
        h = game.supply[face].pop()
        game.hands[seat].append(h)
        for v in range(game.n):
            if v != seat:
                game.tracked[v].add(h)


def set_rats(game: Game, seat: int, rats: int) -> None:
    """Setup only: the rat total that earlier rounds would have left ``seat`` with."""
    game.rats[seat] = rats


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a move could change, as plain values (for "illegal changes nothing")."""
    state = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in ("_stack", "config")}
    state["_stack"] = [(fn.__name__, args) for fn, args in game._stack]
    return state


def run_to_end(sc: Scenario) -> None:
    """Finish the game: quiet supplies, everybody enters building 1 with no cards, every other
    decision takes its first legal choice."""
    while not sc.game.is_over:
        _quiet_step(sc)


def quiet_round(sc: Scenario) -> None:
    """Play a whole round: quiet supplies, everybody enters building 1 with no cards, every
    other decision takes its first legal choice."""
    g = sc.game
    start = g.round
    while not g.is_over and g.round == start:
        _quiet_step(sc)


def play_until_last_round(sc: Scenario) -> None:
    """Play quiet rounds until the last round has started (its supplies not yet chosen)."""
    while not sc.game.last_round:
        quiet_round(sc)


def _quiet_step(sc: Scenario) -> None:
    from rattus_net.games.cartus.choices import legal_choices

    g = sc.game
    d = g.decision
    assert d is not None
    seat = d.players[0]
    if d.kind is DecisionKind.SUPPLY:
        sc.play(seat, sc.quiet_supply_move(seat))
    elif d.kind is DecisionKind.ENTER:
        sc.enter(seat, 0)
    else:
        sc.play(seat, legal_choices(g, seat)[0])


def burn_deck(sc: Scenario, keep: int) -> list[int]:
    """Setup only: move all but the top ``keep`` cards of the population deck to the discard
    pile, face up (as earlier rounds of played cards would have). Returns their faces, in
    pile order (bottom first)."""
    g = sc.game
    moved = g.deck[: len(g.deck) - keep]
    del g.deck[: len(g.deck) - keep]
    for h in moved:
        g.faces[h] = sc.table.face_of[h]
        g.public.add(h)
    g.discard.extend(moved)
    return [g.faces[h] for h in moved]


def deal_deck_to(sc: Scenario, seat: int, keep: int = 0) -> None:
    """Setup only: move all but the top ``keep`` cards of the population deck into ``seat``'s
    hand (as earlier draws would have), so that the deck and discard pile can run dry."""
    g = sc.game
    moved = g.deck[: len(g.deck) - keep]
    del g.deck[: len(g.deck) - keep]
    for h in moved:
        g.faces[h] = sc.table.face_of[h]
        g.seen[seat].add(h)
    g.hands[seat].extend(moved)


def plague_variant_game() -> tuple[Game, LocalTable]:
    """A finished 3-player game of the survivors variant whose nun row shows no nuns: the
    plague kills everybody who kept a rat, and in the variant the fewest rats survive."""
    data = {
        "format": "rattus-record",
        "version": 2,
        "players": ["Ann", "Bob", "Cid"],
        "options": {"plague_survivors": True},
        "seed": 4,
        "cards": {"nun_row": ["Pea0", "Bou0", "Chu0", "Chi0", "Mag0"]},
    }
    game, table = GameRecord.from_dict(data).replay()
    rng = random.Random(4)
    play_to_end(game, table, lambda g, s: rng.choice(list(legal_choices(g, s))))
    return game, table
