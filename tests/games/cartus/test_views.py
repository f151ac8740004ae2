"""What each player may know (rules section 8) and simultaneous supplies (ruling 9.1)."""

from __future__ import annotations

import pytest

from rattus_net.games.cartus.data import SWORD, Building
from rattus_net.games.cartus.moves import DecisionKind, Give, Supply
from rattus_net.kit.errors import NotYourTurn

from .helpers import C, K, M, P, R, Scenario, give_special, snapshot

ROW = [Building.CASTLE, Building.PALACE]


def visible_faces(sc: Scenario, viewer: int) -> list[int]:
    """Every card face a view exposes through the public and private properties that
    concern other players (hands known, laid cards, nun row, events' card lists)."""
    v = sc.view(viewer)
    faces: list[int] = []
    for seat, known in v.known_in_hands.items():
        assert seat != viewer
        faces += known
    for e in v.events():
        faces += [f for f in e.data.get("cards", []) if f < 100]  # not building cards
    return faces


def test_a_view_shows_its_own_hand_and_not_the_others() -> None:
    sc = Scenario(3, hands=[[P(0)], [R(4), R(3)], [M(2)]], rows=[ROW])
    v = sc.view(0)
    assert v.hand == sc.hand(0)
    assert v.known_in_hands == {1: [], 2: []}
    assert v.hand_sizes == [5, 5, 5]
    assert visible_faces(sc, 0) == []


def test_cards_taken_openly_from_the_supply_are_known_to_everybody() -> None:
    sc = Scenario(3, hands=[[K(0)]], rows=[ROW])
    sc.round([(0, 0, [K(0)]), (1, 0, []), (2, 1, [])])
    assert sc.view(2).known_in_hands[0] == [SWORD, SWORD]
    assert sc.view(2).known_in_hands[1] == [SWORD]
    assert sc.view(1).known_in_hands[0] == [SWORD, SWORD]


def test_cards_given_are_known_to_giver_and_receiver_only() -> None:
    sc = Scenario(3, hands=[[], [R(0), R(1)]], rows=[ROW])
    give_special(sc.game, 0, SWORD)
    sc.round([(0, 1, [SWORD]), (1, 1, []), (2, 0, [])])
    sc.play(1, Give((R(0), R(1))))
    assert sc.view(1).known_in_hands[0] == [R(0), R(1)]  # the giver knows where they went
    assert sc.view(2).known_in_hands[0] == []
    assert R(0) not in visible_faces(sc, 2)
    gifts1 = [e.data["cards"] for e in sc.view(1).events() if e.kind == "gift"]
    gifts0 = [e.data["cards"] for e in sc.view(0).events() if e.kind == "gift"]
    assert gifts1 == gifts0 == [[R(0), R(1)]]
    assert [e for e in sc.view(2).events() if e.kind == "gift"] == []
    assert [(e.data["count"]) for e in sc.view(2).events() if e.kind == "give"] == [2]


def test_a_view_shows_only_the_nun_row_positions_its_seat_looked_at() -> None:
    sc = Scenario(3, rows=[["Castle/F", "Palace/E"]])
    sc.play(0, Supply(0, (1, 3)))
    sc.play(1, Supply(1, (4,)))
    assert sorted(sc.view(0).nun_row_known) == [1, 3]
    assert sorted(sc.view(1).nun_row_known) == [4]
    assert sc.view(2).nun_row_known == {}
    assert sc.view(0).nun_row_known[3] == sc.game.faces[sc.game.nun_row[3]]


def test_laid_cards_are_shown_only_to_their_owner_before_resolution() -> None:
    sc = Scenario(3, hands=[[C(0), C(1)], [R(2)]], rows=[ROW])
    sc.supplies()
    sc.enter(0, 0, C(0), C(1))
    sc.enter(1, 1, R(2))
    assert sc.view(0).laid == [C(0), C(1)]
    assert sc.view(1).laid == [R(2)]
    # The others see how many, not which.
    assert sc.view(2).occupants == [[(0, 2)], [(1, 1)]]
    assert sc.view(1).occupants == [[(0, 2)], [(1, 1)]]
    assert C(0) not in visible_faces(sc, 1) and C(0) not in visible_faces(sc, 2)
    assert sc.view(2).known_in_hands == {0: [], 1: []}
    # Phase D turns them up for everybody.
    sc.enter(2, 1)
    reveals = {e.player: e.data["cards"] for e in sc.view(2).events() if e.kind == "reveal"}
    assert reveals == {0: [C(0), C(1)], 1: [R(2)], 2: []}


def test_hospital_discards_are_shown_to_everybody_ruling_9_8() -> None:
    from rattus_net.games.cartus.moves import Discard

    sc = Scenario(3, hands=[[], [M(3)]], rows=[[Building.HOSPITAL, Building.PALACE]])
    sc.round([(0, 1, []), (1, 0, []), (2, 1, [])])
    sc.play(1, Discard((M(3),)))
    seen = [e.data["cards"] for e in sc.view(2).events() if e.kind == "hospital"]
    assert seen == [[M(3)]]
    assert M(3) in sc.view(2).discard_pile


def test_simultaneous_supplies_hide_choices_until_all_chose_ruling_9_1() -> None:
    sc = Scenario(3, rows=[["Farm/A", "Castle/F"]], simultaneous_supply=True)
    g = sc.game
    d = g.decision
    assert d is not None and d.kind is DecisionKind.SUPPLY and d.players == (0, 1, 2)
    hands = [list(h) for h in g.hands]
    sc.play(1, Supply(0))
    # Nothing happened yet, and nobody else can see what Bob chose.
    assert [list(h) for h in g.hands] == hands
    assert g.decision is not None and g.decision.players == (0, 2)
    assert sc.view(1).supply_choice == Supply(0)
    for viewer in (0, 2):
        events = sc.view(viewer).events()
        assert [e.kind for e in events if e.kind.startswith("supply")] == ["supply-chosen"]
        assert all("card" not in e.data for e in events if e.kind == "supply-chosen")
    before = snapshot(g)
    with pytest.raises(NotYourTurn):
        g.apply(1, Supply(1, (0, 1)))  # a choice cannot be changed
    assert snapshot(g) == before
    sc.play(2, Supply(1, (0, 1)))
    sc.play(0, Supply(0))
    # All chose: the supplies are carried out in turn order from the starting player.
    done = [(e.player, e.data["card"]) for e in g.log if e.kind == "supply"]
    assert done == [(0, 0), (1, 0), (2, 1)]
    assert [len(h) for h in g.hands] == [9, 9, 5]
    assert g.decision is not None and g.decision.kind is DecisionKind.ENTER
