"""Swords and Flutes (rules section 6, rulings 9.4 to 9.6 and 9.16), and influence stacking."""

from __future__ import annotations

import pytest

from rattus_net.games.cartus.data import FLUTE, SWORD, Building, Klass
from rattus_net.games.cartus.moves import ChoosePlayer, DecisionKind, Give
from rattus_net.kit.errors import BadChoice

from .helpers import K, P, R, Scenario, give_special, set_rats

# Palace and Monastery actions leave hands alone, so hand sizes show only the Sword.
ROW = [Building.PALACE, Building.MONASTERY]
ROW4 = [Building.GUARD_TOWER, Building.PALACE, Building.MONASTERY]


def test_fewest_swords_gives_half_his_hand_rounded_down_to_most() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 0, SWORD, 2)
    give_special(g, 1, SWORD, 1)
    sc.supplies()
    sc.enter_all([(0, 0, [SWORD, SWORD]), (1, 0, [SWORD]), (2, 0, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.GIVE
    assert (d.players, d.count, d.to, d.reason) == ((2,), 2, 0, "sword")  # 5 // 2
    cards = tuple(sc.hand(2)[:2])
    sc.play(2, Give(cards))
    assert len(g.hands[2]) == 3 and len(g.hands[0]) == 5 + 2


def test_sword_counts_the_hand_when_it_resolves_ruling_9_5() -> None:
    # Building 1 is a Guard Tower: Cid's premium takes 3 of Bob's cards before the Sword in
    # building 2 resolves; Bob then gives half of the 2 cards he holds, not of 5.
    sc = Scenario(4, rows=[ROW4])
    g = sc.game
    give_special(g, 0, SWORD)
    sc.supplies()
    sc.enter_all([(0, 1, [SWORD]), (1, 1, []), (2, 0, sc.hand(2)[:2]), (3, 0, [])])
    d = g.decision
    assert d is not None and d.reason == "guard tower" and d.players == (0,)
    sc.play(0, Give(tuple(sc.hand(0)[:3])))
    d = g.decision
    assert d is not None and d.reason == "guard tower" and d.players == (1,)
    sc.play(1, Give(tuple(sc.hand(1)[:3])))
    d = g.decision
    assert d is not None and d.reason == "sword" and d.players == (1,) and d.count == 1


def test_sword_tie_for_most_goes_to_who_entered_first() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 1, SWORD)
    give_special(g, 2, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, []), (1, 0, [SWORD]), (2, 0, [SWORD])])
    d = g.decision
    assert d is not None and d.players == (0,) and d.to == 1


def test_sword_tie_for_fewest_the_winner_chooses() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 1, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, []), (1, 0, [SWORD]), (2, 0, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.CHOOSE_PLAYER
    assert (d.players, d.candidates, d.reason) == ((1,), (0, 2), "sword")
    with pytest.raises(BadChoice):
        g.apply(1, ChoosePlayer(1))
    sc.play(1, ChoosePlayer(2))
    d = g.decision
    assert d is not None and d.kind is DecisionKind.GIVE and d.players == (2,) and d.to == 1


def test_sword_all_equal_nothing_happens() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    for s in range(3):
        give_special(g, s, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, [SWORD]), (1, 0, [SWORD]), (2, 0, [SWORD])])
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY
    assert sc.events("sword") == []
    assert [len(h) for h in g.hands] == [5, 5, 5]


def test_sword_alone_in_a_building_does_nothing() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 0, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, [SWORD]), (1, 1, []), (2, 1, [])])
    assert sc.events("sword") == []


def test_sword_loser_with_one_card_gives_nothing() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 0, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, [SWORD]), (1, 0, sc.hand(1)[:4]), (2, 1, [])])
    assert [e.data["count"] for e in sc.events("sword")] == [0]
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY


@pytest.mark.parametrize(
    ("flutes", "spaces", "rats", "moved"),
    [
        # the fewest receives one rat from the most (Palace premium and standards bring none)
        ((2, 1, 0), (0, 0, 0), [9, 10, 11], [1]),
        ((1, 1, 0), (0, 0, 0), [9, 10, 11], [1]),  # a tie for the most: the first entered gives
        ((1, 1, 0), (0, 0, 1), [10, 10, 8], []),  # all equal: nothing (Cid: Monastery premium)
    ],
    ids=["fewest-from-most", "tie-for-most-first-entered", "all-equal"],
)
def test_flute_moves_one_rat_from_most_to_fewest(
    flutes: tuple[int, int, int], spaces: tuple[int, int, int], rats: list[int], moved: list[int]
) -> None:
    sc = Scenario(3, rows=[ROW])
    for seat, count in enumerate(flutes):
        if count:
            give_special(sc.game, seat, FLUTE, count)
    sc.supplies()
    sc.enter_all([(seat, spaces[seat], [FLUTE] * flutes[seat]) for seat in range(3)])
    assert sc.game.rats == rats
    assert [e.data["moved"] for e in sc.events("flute")] == moved


def test_flute_tie_for_fewest_the_winner_chooses() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 2, FLUTE)
    sc.supplies()
    sc.enter_all([(0, 0, []), (1, 0, []), (2, 0, [FLUTE])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.CHOOSE_PLAYER
    assert (d.players, d.candidates, d.reason) == ((2,), (0, 1), "flute")
    sc.play(2, ChoosePlayer(1))
    assert g.rats == [10, 11, 9]


def test_flute_giver_without_rats_moves_nothing_ruling_9_6() -> None:
    sc = Scenario(3, rows=[ROW])
    g = sc.game
    give_special(g, 0, FLUTE)
    set_rats(g, 0, 0)
    sc.supplies()
    sc.enter_all([(0, 0, [FLUTE]), (1, 0, []), (2, 1, [])])
    assert g.rats[:2] == [0, 10]
    assert [e.data["moved"] for e in sc.events("flute")] == [0]


def test_cards_then_sword_then_flute_within_a_building_ruling_9_4() -> None:
    # Ann has no rats; her off-class card brings one before the Flute, so the Flute moves it.
    sc = Scenario(3, hands=[[P(0)]], rows=[ROW])
    g = sc.game
    give_special(g, 0, FLUTE)
    give_special(g, 0, SWORD)
    set_rats(g, 0, 0)
    sc.supplies()
    sc.enter_all([(0, 0, [P(0), SWORD, FLUTE]), (1, 0, []), (2, 1, [])])
    d = g.decision
    assert d is not None and d.reason == "sword"
    kinds = [e.kind for e in g.log if e.kind in ("influence", "rats", "sword", "flute")]
    assert kinds[-3:] == ["influence", "rats", "sword"]  # no Flute before the Sword's gift
    sc.play(1, Give(tuple(sc.hand(1)[:2])))
    assert [e.data["moved"] for e in sc.events("flute")] == [1]
    assert g.rats[:2] == [0, 11]


def test_sword_gift_is_asked_before_anything_else_ruling_9_16() -> None:
    sc = Scenario(3, rows=[[Building.HOSPITAL, Building.PALACE]])
    g = sc.game
    give_special(g, 0, SWORD)
    sc.supplies()
    sc.enter_all([(0, 0, [SWORD]), (1, 0, []), (2, 1, [])])
    d = g.decision
    # Only Bob's Sword gift is asked; the Hospital discards come after it.
    assert d is not None and d.kind is DecisionKind.GIVE and d.players == (1,)
    sc.play(1, Give(tuple(sc.hand(1)[:2])))
    d = g.decision
    assert d is not None and d.kind is DecisionKind.DISCARD and d.players == (0,)


# --- influence stacking --------------------------------------------------------------------------


def test_influence_ties_rank_the_lower_disc_first() -> None:
    sc = Scenario(3, hands=[[K(0), K(1)], [K(2), K(3)], []], rows=[[Building.CASTLE, ROW[0]]])
    g = sc.game
    sc.round([(0, 0, [K(0), K(1)]), (1, 0, [K(2), K(3)]), (2, 1, [])])
    # Both on space 2 of the Chivalry track; Ann got there first, so her disc is lower.
    assert g.influence[Klass.CHIVALRY][:2] == [2, 2]
    assert g.standing(Klass.CHIVALRY)[:2] == [0, 1]


def test_a_disc_moving_onto_an_occupied_space_goes_on_top() -> None:
    sc = Scenario(
        3,
        hands=[[K(0), R(0)], [K(2), K(3)], []],
        rows=[[Building.CASTLE, ROW[0]], [Building.CASTLE, ROW[0]]],
    )
    g = sc.game
    # Round 1: Ann reaches 1, Bob reaches 2.
    sc.round([(0, 0, [K(0)]), (1, 0, [K(2), K(3)]), (2, 1, [])])
    assert g.influence[Klass.CHIVALRY][:2] == [1, 2]
    # Round 2 (Bob starts): Ann moves up to 2, on top of Bob's disc, so Bob still ranks first.
    sc.supplies()
    sc.enter_all([(1, 1, []), (2, 1, []), (0, 0, [R(0)])])
    assert g.influence[Klass.CHIVALRY][:2] == [2, 2]
    assert g.standing(Klass.CHIVALRY)[:2] == [1, 0]
