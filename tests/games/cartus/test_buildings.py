"""Every building's premium and standard action (rules section 4)."""

from __future__ import annotations

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.data import GOLD, JOKER, PASS, SWORD, Building
from rattus_net.games.cartus.moves import DecisionKind, Discard, Give, Look

from .helpers import (
    B,
    C,
    K,
    M,
    P,
    R,
    Scenario,
    give_special,
    set_rats,
)

FARM = Building.FARM
CASTLE = Building.CASTLE
PALACE = Building.PALACE


def test_farm_premium_draws_4_then_standards_draw_2_in_entry_order() -> None:
    deck = [R(0), R(1), R(2), R(3), M(0), M(1), M(2), M(3)]
    sc = Scenario(3, hands=[[P(0)], [P(1), P(2)], [P(3)]], deck=deck, rows=[[FARM, CASTLE]])
    # Ann enters first with 1 card, Bob second with 2 (premium), Cid third with none.
    sc.round([(0, 0, [P(0)]), (1, 0, [P(1), P(2)]), (2, 0, [])])
    hands = [sc.hand(s) for s in range(3)]
    assert all(c in hands[1] for c in (R(0), R(1), R(2), R(3)))  # premium acts first: top 4
    assert M(0) in hands[0] and M(1) in hands[0]  # then Ann, first standard in entry order
    assert M(2) in hands[2] and M(3) in hands[2]
    assert [len(h) for h in hands] == [4 + 2, 3 + 4, 5 + 2]


def test_brewery_draws_per_card_played_and_standard_rounds_down() -> None:
    sc = Scenario(
        3,
        hands=[[P(0), P(1), P(2)], [P(3), P(4)], [P(4)]],
        rows=[[Building.BREWERY, CASTLE]],
    )
    give_special(sc.game, 1, JOKER)
    # Ann 3 cards (premium: 3 draws); Bob 2 + a joker = 3, tie goes to Ann, standard 3 // 2 = 1;
    # Cid 1 card: 1 // 2 = 0.
    sc.round([(0, 0, [P(0), P(1), P(2)]), (1, 0, [P(3), P(4), JOKER]), (2, 0, [P(4)])])
    assert [len(sc.game.hands[s]) for s in range(3)] == [2 + 3, 3 + 1, 4 + 0]


def test_brewery_premium_counts_only_population_and_jokers() -> None:
    sc = Scenario(3, hands=[[P(0)], [], []], rows=[[Building.BREWERY, CASTLE]])
    give_special(sc.game, 0, SWORD, 2)
    sc.round([(0, 0, [P(0), SWORD, SWORD]), (1, 1, []), (2, 1, [])])
    assert len(sc.game.hands[0]) == 4 + 1


@pytest.mark.parametrize(
    ("building", "card", "entered_with"),
    [
        (Building.MARKETPLACE, JOKER, B(0)),
        (Building.OFFICE, PASS, B(0)),
        (CASTLE, SWORD, K(0)),
        (Building.PIED_PIPER, D.FLUTE, M(0)),
        (Building.TREASURY, GOLD, R(0)),
    ],
    ids=["marketplace", "office", "castle", "pied piper", "treasury"],
)
def test_buildings_that_take_cards_from_a_supply(
    building: Building, card: int, entered_with: int
) -> None:
    """The premium takes 2 of the building's cards, the standard 1, from its supply pile."""
    other = PALACE if building is CASTLE else CASTLE
    sc = Scenario(3, hands=[[entered_with]], rows=[[building, other]])
    before = len(sc.game.supply[card])
    sc.round([(0, 0, [entered_with]), (1, 0, []), (2, 1, [])])
    assert sc.hand(0).count(card) == 2
    assert sc.hand(1).count(card) == 1
    assert len(sc.game.supply[card]) == before - 3


def test_monastery_discards_rats() -> None:
    sc = Scenario(3, hands=[[C(0)]], rows=[[Building.MONASTERY, CASTLE]])
    sc.round([(0, 0, [C(0)]), (1, 0, []), (2, 1, [])])
    assert sc.game.rats == [10 - 2, 10 - 1, 10]


def test_hospital_premium_discards_a_rat_first_then_up_to_3_cards() -> None:
    sc = Scenario(3, hands=[[C(0), P(0), B(0), K(0), M(0)]], rows=[[Building.HOSPITAL, CASTLE]])
    g = sc.game
    give_special(g, 0, JOKER)
    sc.round([(0, 0, [C(0)]), (1, 0, []), (2, 1, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.DISCARD and d.players == (0,)
    assert g.rats[0] == 9  # the premium rat is already gone
    assert d.count == 3
    discard_before = len(g.discard)
    sc.play(0, Discard((P(0), JOKER)))
    assert g.rats[0] == 9 - 2
    # Ruling 9.8: the population card goes face up to the discard pile, the joker to its supply.
    assert [g.faces[h] for h in g.discard[discard_before:]] == [P(0)]
    assert len(g.supply[JOKER]) == 15
    # Bob's standard: up to 2 cards.
    d = g.decision
    assert d is not None and d.kind is DecisionKind.DISCARD and d.players == (1,)
    assert d.count == 2
    sc.play(1, Discard(()))
    assert g.rats[1] == 10


def test_hospital_premium_limit_counts_rats_left_after_the_premium_rat() -> None:
    # Ruling 9.15: at most as many hand cards as rats left. With 3 rats, the premium rat
    # leaves 2, so only 2 cards may go.
    sc = Scenario(3, hands=[[C(0)]], rows=[[Building.HOSPITAL, CASTLE]])
    set_rats(sc.game, 0, 3)
    sc.round([(0, 0, [C(0)]), (1, 1, []), (2, 1, [])])
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.DISCARD and d.count == 2


def test_hospital_with_one_rat_asks_no_discard_after_the_premium_rat() -> None:
    sc = Scenario(3, hands=[[C(0)]], rows=[[Building.HOSPITAL, CASTLE]])
    set_rats(sc.game, 0, 1)
    sc.round([(0, 0, [C(0)]), (1, 1, []), (2, 1, [])])
    assert sc.game.rats[0] == 0
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.SUPPLY  # the next round began


def test_hospital_limit_is_the_hand_size_when_smaller() -> None:
    sc = Scenario(3, hands=[[], [C(0), C(1), C(2), C(3)]], rows=[[Building.HOSPITAL, CASTLE]])
    sc.round([(0, 1, []), (1, 0, [C(0), C(1), C(2), C(3)]), (2, 1, [])])
    d = sc.game.decision
    # Bob alone in the Hospital: premium, 1 card left in hand.
    assert d is not None and d.players == (1,) and d.count == 1


def test_fortune_teller_looks_at_the_nun_row() -> None:
    sc = Scenario(3, hands=[[M(0)]], rows=[[Building.FORTUNE_TELLER, PALACE]])
    g = sc.game
    sc.round([(0, 0, [M(0)]), (1, 0, []), (2, 1, [])])
    assert sorted(sc.view(0).nun_row_known) == [0, 1]  # from the supply action (looks 1, 2)
    d = g.decision
    assert d is not None and d.kind is DecisionKind.LOOK and d.players == (0,) and d.count == 2
    sc.play(0, Look((3, 4)))
    assert sorted(sc.view(0).nun_row_known) == [0, 1, 3, 4]
    d = g.decision
    assert d is not None and d.kind is DecisionKind.LOOK and d.players == (1,) and d.count == 1
    sc.play(1, Look((2,)))
    assert sorted(sc.view(1).nun_row_known) == [0, 1, 2]
    assert g.faces[g.nun_row[2]] == sc.view(1).nun_row_known[2]


def test_palace_gives_vp_tokens() -> None:
    sc = Scenario(3, hands=[[R(0)]], rows=[[PALACE, CASTLE]])
    sc.round([(0, 0, [R(0)]), (1, 0, []), (2, 1, [])])
    assert sc.game.vp == [2, 1, 0]


def test_supply_piles_are_limited_ruling_9_11() -> None:
    sc = Scenario(3, hands=[[K(0)]], rows=[[CASTLE, PALACE]])
    give_special(sc.game, 2, SWORD, 11)  # one Sword left in the supply
    sc.round([(0, 0, [K(0)]), (1, 0, []), (2, 1, [])])
    assert sc.hand(0).count(SWORD) == 1
    assert sc.hand(1).count(SWORD) == 0
    takes = sc.events("take")
    assert [(e.player, e.data["count"], e.data["wanted"]) for e in takes] == [(0, 1, 2), (1, 0, 1)]


# --- Guard Tower -------------------------------------------------------------------------------

GT = Building.GUARD_TOWER
GT_ROW = [GT, PALACE, Building.MONASTERY]  # Palace and Monastery leave hands alone


def test_guard_tower_takes_3_cards_from_unprotected_players_with_as_many_cards() -> None:
    sc = Scenario(4, hands=[[K(0), K(1)], [], [], [R(0), R(1), R(2)]], rows=[GT_ROW])
    g = sc.game
    # Ann: premium, keeps 3 cards. Bob: 5 cards, gives. Cid: in the Guard Tower, protected.
    # Dee: 2 cards left, fewer than Ann, keeps them.
    sc.round([(0, 0, [K(0), K(1)]), (1, 1, []), (2, 0, []), (3, 2, [R(0), R(1), R(2)])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.GIVE
    assert (d.players, d.count, d.to, d.reason) == ((1,), 3, 0, "guard tower")
    given = tuple(sc.hand(1)[:3])
    sc.play(1, Give(given))
    assert len(g.hands[0]) == 6 and len(g.hands[1]) == 2
    assert len(g.hands[2]) == 5 and len(g.hands[3]) == 2
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY


def give_all_when_asked(sc: Scenario) -> None:
    """A giver with fewer than 3 cards gives them all. The engine may still ask him to confirm
    (it does when his own building has not resolved yet, for peers that cannot see his cards),
    but then the count is all of his cards."""
    g = sc.game
    while g.decision is not None and g.decision.kind is DecisionKind.GIVE:
        seat = g.decision.players[0]
        assert g.decision.count == len(g.hands[seat]) < 3
        sc.play(seat, Give(tuple(sc.hand(seat))))


def test_guard_tower_giver_with_fewer_than_3_cards_gives_all_of_them() -> None:
    sc = Scenario(4, rows=[GT_ROW])
    g = sc.game
    hand0, hand1, hand3 = sc.hand(0), sc.hand(1), sc.hand(3)
    # Ann lays all 5: hand 0. Bob keeps 2, Dee keeps 0: both hold at least as many as Ann.
    sc.round([(0, 0, hand0), (1, 1, hand1[:3]), (2, 0, []), (3, 2, hand3)])
    give_all_when_asked(sc)
    assert sorted(g.faces[h] for h in g.hands[0]) == hand1[3:]
    assert g.hands[1] == [] and g.hands[3] == []
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY


def test_guard_tower_givers_give_in_turn_order_from_the_premium_players_left() -> None:
    sc = Scenario(4, rows=[GT_ROW])
    g = sc.game
    hand2 = sc.hand(2)
    sc.round([(0, 1, []), (1, 2, []), (2, 0, hand2), (3, 1, [])])
    order = []
    while g.decision is not None and g.decision.kind is DecisionKind.GIVE:
        seat = g.decision.players[0]
        order.append(seat)
        assert g.decision.to == 2
        sc.play(seat, Give(tuple(sc.hand(seat)[:3])))
    assert order == [3, 0, 1]
    assert len(g.hands[2]) == 9


def test_guard_tower_compares_hand_sizes_before_anyone_gives_ruling_9_7() -> None:
    sc = Scenario(4, rows=[GT_ROW])
    g = sc.game
    h0, h2 = sc.hand(0), sc.hand(2)
    # Ann keeps 2. Bob holds 5 and gives 3; Cid holds 2 and must give too, although Ann holds 5
    # by the time it is Cid's turn. Dee is protected by the Guard Tower.
    sc.round([(0, 0, h0[:3]), (1, 1, []), (2, 2, h2[:3]), (3, 0, [])])
    d = g.decision
    assert d is not None and d.players == (1,) and d.count == 3
    sc.play(1, Give(tuple(sc.hand(1)[:3])))
    give_all_when_asked(sc)
    assert len(g.hands[2]) == 0
    assert len(g.hands[0]) == 2 + 3 + 2
    assert len(g.hands[3]) == 5


def test_guard_tower_protection_comes_from_any_guard_tower() -> None:
    # Two Guard Towers in the row: each premium player is protected from the other's.
    row = ["GuardTower/A", "GuardTower/F", PALACE]
    sc = Scenario(4, rows=[row])
    g = sc.game
    h0, h1 = sc.hand(0), sc.hand(1)
    sc.round([(0, 0, h0[:1]), (1, 1, h1), (2, 2, []), (3, 2, [])])
    # Guard Tower 1 (Ann, 4 cards): Cid and Dee hold 5 each and give 3; Bob (0 cards) is
    # protected anyway.
    for giver in (2, 3):
        d = g.decision
        assert d is not None and d.players == (giver,) and d.to == 0
        sc.play(giver, Give(tuple(sc.hand(giver)[:3])))
    give_all_when_asked(sc)
    # Guard Tower 2 (Bob, 0 cards): Cid and Dee give their last 2 each; Ann, holding 10 cards
    # but standing in a Guard Tower, gives nothing.
    assert len(g.hands[0]) == 4 + 6
    assert len(g.hands[1]) == 4
    assert g.hands[2] == [] and g.hands[3] == []


def test_guard_tower_standard_takes_nothing() -> None:
    sc = Scenario(4, rows=[GT_ROW])
    g = sc.game
    sc.round([(0, 0, []), (1, 0, []), (2, 1, sc.hand(2)), (3, 1, sc.hand(3))])
    # Ann (premium, 5 cards) takes from nobody: Bob is protected, Cid and Dee hold 0.
    assert [len(h) for h in g.hands] == [5, 5, 0, 0]
