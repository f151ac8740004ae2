"""Setup (rules section 2): building selection, dealing, the starting player (ruling 9.14)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection, GameConfig, SelectionMethod
from rattus_net.games.cartus.data import Building
from rattus_net.games.cartus.game import Game
from rattus_net.kit.local import LocalTable
from rattus_net.kit.table import PublicRandom

from .helpers import NAMES, NUN_ROW_10, Scenario


def buildings_of(cards: tuple[int, ...]) -> Counter[Building]:
    return Counter(D.face_building(c) for c in cards)


def assert_five_per_class(cards: tuple[int, ...]) -> None:
    assert len(cards) == 30 and len(set(cards)) == 30
    assert Counter(D.face_building(c).klass for c in cards) == dict.fromkeys(D.CLASSES, 5)


def test_first_game_selection() -> None:
    sc = Scenario(3, selection=BuildingSelection.first_game())
    cards = sc.game.buildings_in_game
    assert_five_per_class(cards)
    assert buildings_of(cards) == dict.fromkeys(D.FIRST_GAME, 5)
    assert set(D.FIRST_GAME) == {
        Building.FARM,
        Building.MARKETPLACE,
        Building.MONASTERY,
        Building.CASTLE,
        Building.PALACE,
        Building.FORTUNE_TELLER,
    }


def test_explicit_list_of_six_buildings() -> None:
    sel = BuildingSelection.parse("farm, Office ,hospital,GuardTower,Pied Piper's Hut,treasury")
    assert sel.method is SelectionMethod.LIST
    wanted = [
        Building.FARM,
        Building.OFFICE,
        Building.HOSPITAL,
        Building.GUARD_TOWER,
        Building.PIED_PIPER,
        Building.TREASURY,
    ]
    assert buildings_of(sel.cards) == dict.fromkeys(wanted, 5)
    sc = Scenario(4, selection=sel)
    assert sc.game.buildings_in_game == sel.cards


def test_explicit_30_cards() -> None:
    cards = (
        [D.building_face(Building.FARM, c) for c in range(3)]
        + [D.building_face(Building.BREWERY, c) for c in range(2)]
        + D.building_cards(Building.OFFICE)
        + D.building_cards(Building.HOSPITAL)
        + [D.building_face(Building.CASTLE, 0), D.building_face(Building.GUARD_TOWER, 0)]
        + [D.building_face(Building.CASTLE, c) for c in range(1, 4)]
        + D.building_cards(Building.PIED_PIPER)
        + D.building_cards(Building.PALACE)
    )
    text = ",".join(D.building_card_code(c) for c in cards)
    sel = BuildingSelection.parse(text)
    assert sel == BuildingSelection.of_cards(cards)
    assert sel.cards == tuple(sorted(cards))
    assert BuildingSelection.parse(sel.describe()) == sel
    sc = Scenario(2, selection=sel)
    assert sc.game.buildings_in_game == tuple(sorted(cards))


def test_random_buildings_one_building_per_class_all_five_copies() -> None:
    # One public random number; bit k picks class k's building (here 1, 0, 1, 0, 1, 1).
    bits = [1, 0, 1, 0, 1, 1]
    value = sum(b << k for k, b in enumerate(bits))
    sc = Scenario(3, selection=BuildingSelection.random_buildings(), randoms=[value])
    cards = sc.game.buildings_in_game
    assert_five_per_class(cards)
    assert buildings_of(cards) == dict.fromkeys(
        [
            Building.BREWERY,
            Building.MARKETPLACE,
            Building.HOSPITAL,
            Building.CASTLE,
            Building.PIED_PIPER,
            Building.TREASURY,
        ],
        5,
    )


def test_random_cards_five_of_the_ten_cards_per_class() -> None:
    # One public random number; digit k (base 252) ranks class k's choice of 5 of its 10
    # cards (5 of the first building, then 5 of the second): here cards 0, 1, 2, 3 and 9.
    rank = list(combinations(range(10), 5)).index((0, 1, 2, 3, 9))
    value = sum(rank * 252**k for k in range(6))
    sc = Scenario(3, selection=BuildingSelection.random_cards(), randoms=[value])
    cards = sc.game.buildings_in_game
    assert_five_per_class(cards)
    for klass in range(6):
        first, second = Building(klass * 2), Building(klass * 2 + 1)
        mine = sorted(c for c in cards if D.face_building(c).klass == klass)
        assert mine == sorted([*D.building_cards(first)[:4], D.building_cards(second)[4]])


def test_random_selections_ask_the_table_for_public_random_numbers() -> None:
    cases = (
        (BuildingSelection.random_buildings(), [64]),
        (BuildingSelection.random_cards(), [252**6]),
    )
    for sel, bounds in cases:
        game = Game(GameConfig(players=NAMES[:3], buildings=sel, first_player=0))
        asked = []
        table = LocalTable(seed=7)
        while game.decision is None:
            if isinstance(game.pending, PublicRandom):
                asked.append(game.pending.bound)
            table.answer(game)
        assert asked == bounds  # one public random number for the whole selection
        assert_five_per_class(game.buildings_in_game)


def test_random_starting_player_ruling_9_14() -> None:
    sc = Scenario(4, first_player=None, randoms=[2])
    assert sc.game.start_player == 2
    assert sc.table.chance.randoms == [2]
    assert sc.game.decision is not None and sc.game.decision.players == (2,)


def test_named_starting_player_asks_no_random_number() -> None:
    sc = Scenario(4, first_player=3)
    assert sc.table.chance.randoms == []
    assert sc.game.start_player == 3


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal(n: int) -> None:
    sc = Scenario(n)
    g = sc.game
    plan = D.ROUND_PLAN[n]
    assert [sc.table.face_of[h] for h in g.nun_row] == list(NUN_ROW_10)
    for seat in range(n):
        assert len(g.hands[seat]) == 5
        assert sc.hand(seat) == sorted(sc.population[5 + 5 * seat : 10 + 5 * seat])
    assert len(g.deck) == 84 - 5 - 5 * n
    assert g.rats == [10] * n and g.vp == [0] * n
    assert {f: len(p) for f, p in g.supply.items()} == D.SUPPLY_COUNTS
    assert len(g.replacement) == plan.replacement
    assert len(g.row) == plan.buildings_per_round
    assert len(g.building_deck) == 30 - plan.replacement - plan.buildings_per_round
    assert g.influence == [[0] * n for _ in range(6)]
    assert plan.rounds * plan.buildings_per_round == 30 - plan.replacement


def test_components() -> None:
    faces = D.population_faces()
    assert len(faces) == 84
    assert Counter(D.face_class(f) for f in faces) == dict.fromkeys(range(6), 14)
    nuns = Counter(D.face_nuns(f) for f in faces)
    assert nuns == {4: 24, 3: 12, 2: 12, 1: 12, 0: 24}
    assert len(D.special_faces()) == 66
    assert sum(D.SUPPLY_COUNTS[f] for f in (D.SWORD, D.FLUTE, D.PASS, D.GOLD)) == 51
    for b in Building:
        actions = [D.face_supply(c) for c in D.building_cards(b)]
        assert len({a.code for a in actions}) == 5
        assert all(a.draw + 2 * a.rats + 2 * a.looks == 4 for a in actions)


def test_disc_colours_by_seat() -> None:
    """Colours only show the table: the lobby's choice, else the colours in seat order."""
    from rattus_net.games.cartus.view import PlayerView
    from rattus_net.kit.errors import SetupError

    names = ("Ann", "Bob", "Cid")
    plain = Game(GameConfig(names))
    assert PlayerView(plain, 0).colours == ("red", "blue", "green")
    chosen = Game(GameConfig(names, colours=("purple", "red", "yellow")))
    assert PlayerView(chosen, 2).colours == ("purple", "red", "yellow")
    for bad in (("red", "blue"), ("red", "red", "blue"), ("red", "blue", "pink")):
        with pytest.raises(SetupError, match="colours"):
            GameConfig(names, colours=bad)


def test_the_default_buildings_leave_out_the_guard_tower_with_two_players() -> None:
    """The rulebook advises against the Guard Tower with two players (rules section 4): the
    default random cards of a two-player table or game against bots give Chivalry the
    Castle's five cards, the same random number drawn; other player counts are unchanged, and
    a list naming the Guard Tower is still played (with the warning)."""
    from rattus_net.games.cartus.definition import CartusGame
    from rattus_net.games.cartus.secure import CartusSecure

    rank = list(combinations(range(10), 5)).index((0, 1, 2, 3, 9))
    value = sum(rank * 252**k for k in range(6))  # (random cards would mix the Guard Tower in)
    cartus = CartusGame()
    for config in (
        cartus.configure(NAMES[:2], {}),
        cartus.network_config(NAMES[:2], ("red", "blue"), {"buildings": "random-cards"}),
    ):
        assert config.buildings.method is SelectionMethod.RANDOM_CARDS_NO_GUARD_TOWER
        wire = CartusSecure().config_to_wire(config)
        assert CartusSecure().config_from_wire(wire).buildings == config.buildings
        sc = Scenario(2, selection=config.buildings, randoms=[value])
        cards = sc.game.buildings_in_game
        assert_five_per_class(cards)
        assert buildings_of(cards)[Building.CASTLE] == 5
        assert Building.GUARD_TOWER not in buildings_of(cards)
        assert buildings_of(cards)[Building.FARM] == 4  # (the other classes as random cards)
        assert not any(e.kind == "warning" for e in sc.game.log)
    for n in (3, 4, 5):
        assert cartus.configure(NAMES[:n], {}).buildings == BuildingSelection.random_cards()
    listed = cartus.configure(
        NAMES[:2], {"buildings": "farm,office,hospital,guardtower,tent,palace"}
    )
    assert Building.GUARD_TOWER in buildings_of(listed.buildings.cards)
    assert cartus.configure(NAMES[:2], {"buildings": "first-game"}).buildings.method is (
        SelectionMethod.FIRST_GAME
    )
