"""The flow of a round: building row, supplies, entering and passing, the population deck."""

from __future__ import annotations

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.data import PASS, Building
from rattus_net.games.cartus.errors import PassNotAllowed
from rattus_net.games.cartus.moves import DecisionKind, Enter, PlayPass, Supply

from .helpers import (
    P,
    R,
    Scenario,
    burn_deck,
    copy_of,
    deal_deck_to,
    give_special,
)

FARM = Building.FARM
CASTLE = Building.CASTLE
PALACE = Building.PALACE


def row_codes(sc: Scenario) -> list[str]:
    return [D.building_card_code(sc.game.faces[h]) for h in sc.game.row]


# --- phase A ---------------------------------------------------------------------------------


def test_identical_row_replaces_the_last_card_from_the_replacement_deck_repeatedly() -> None:
    sc = Scenario(
        3,
        rows=[["Farm/A", "Farm/B"]],
        replacement=["Farm/C", "Castle/F", "Palace/F"],
    )
    g = sc.game
    assert row_codes(sc) == ["Farm/A", "Castle/F"]
    # Each replaced card went to the bottom of the replacement deck (index 0), in turn.
    bottom = [D.building_card_code(g.faces[h]) for h in g.replacement[:2]]
    assert bottom == ["Farm/C", "Farm/B"]
    top = sc.table.face_of[g.replacement[-1]]  # face down: only the table knows it
    assert D.building_card_code(top) == "Palace/F"
    assert len(g.replacement) == D.ROUND_PLAN[3].replacement
    replaces = [(e.data["old"], e.data["new"]) for e in sc.events("replace")]
    assert replaces == [
        (copy_of(FARM, "B"), copy_of(FARM, "C")),
        (copy_of(FARM, "C"), copy_of(CASTLE, "F")),
    ]


def test_identical_row_of_three_needs_only_one_different_building() -> None:
    sc = Scenario(4, rows=[["Farm/A", "Farm/B", "Farm/C"]], replacement=["Castle/F"])
    assert row_codes(sc) == ["Farm/A", "Farm/B", "Castle/F"]


def test_different_row_is_left_alone() -> None:
    sc = Scenario(3, rows=[["Farm/A", "Castle/A"]], replacement=["Farm/C"])
    assert row_codes(sc) == ["Farm/A", "Castle/A"]
    assert sc.events("replace") == []


# --- phase B -----------------------------------------------------------------------------------


def test_supplies_clockwise_from_the_starting_player() -> None:
    sc = Scenario(4, first_player=2)
    order = []
    while sc.game.decision is not None and sc.game.decision.kind is DecisionKind.SUPPLY:
        seat = sc.game.decision.players[0]
        order.append(seat)
        sc.play(seat, sc.quiet_supply_move(seat))
    assert order == [2, 3, 0, 1]
    assert sc.game.decision is not None and sc.game.decision.players == (2,)  # phase C too


def test_supply_action_draws_discards_rats_and_looks() -> None:
    deck = [R(0), R(1)]
    sc = Scenario(3, rows=[["Farm/C", "Castle/E"]], deck=deck)
    g = sc.game
    sc.play(0, Supply(0))  # draw 2, discard 1 rat
    assert R(0) in sc.hand(0) and R(1) in sc.hand(0) and g.rats[0] == 9
    sc.play(1, Supply(1, (4,)))  # discard 1 rat, look at 1
    assert g.rats[1] == 9 and sorted(sc.view(1).nun_row_known) == [4]


def test_several_players_may_pick_the_same_card() -> None:
    sc = Scenario(3, rows=[["Farm/A", "Castle/F"]])
    for seat in range(3):
        sc.play(seat, Supply(0))
    assert [len(h) for h in sc.game.hands] == [9, 9, 9]


def test_starting_player_passes_to_the_left_each_round() -> None:
    from .helpers import quiet_round

    sc = Scenario(3, first_player=1)
    starts = []
    for _ in range(4):
        starts.append(sc.game.start_player)
        quiet_round(sc)
    assert starts == [1, 2, 0, 1]


# --- phase C: entering and passing ---------------------------------------------------------------


def test_entry_spaces_follow_entry_order_and_the_building_may_differ_from_the_supply() -> None:
    sc = Scenario(3, rows=[[FARM, CASTLE]])
    sc.supplies({0: Supply(1, (0, 1)), 1: Supply(1, (0, 1)), 2: Supply(1, (0, 1))})
    sc.enter_all([(0, 0, []), (1, 1, []), (2, 0, [])])
    spaces = [(e.player, e.data["building"], e.data["space"]) for e in sc.events("enter")]
    assert spaces == [(0, 0, 1), (1, 1, 1), (2, 0, 2)]


def test_a_pass_moves_the_turn_on_and_comes_back() -> None:
    sc = Scenario(4, rows=[[FARM, CASTLE, PALACE]])
    g = sc.game
    give_special(g, 0, PASS, 2)
    sc.supplies()
    sc.play(0, PlayPass())
    assert g.decision is not None and g.decision.players == (1,)
    assert len(g.supply[PASS]) == 12 - 2 + 1  # the Pass returned to its supply pile
    assert sc.hand(0).count(PASS) == 1
    sc.enter(1, 1)
    sc.enter(2, 1)
    assert g.decision is not None and g.decision.players == (3,)
    sc.enter(3, 1)
    # Everybody else has entered: Ann's turn comes back and she must enter (ruling 9.2).
    assert g.decision is not None and g.decision.players == (0,)
    assert PlayPass() not in list(legal_choices(g, 0))
    with pytest.raises(PassNotAllowed):
        g.apply(0, PlayPass())
    sc.enter(0, 1)
    entries = [(e.player, e.data["space"]) for e in sc.events("enter")]
    assert entries == [(1, 1), (2, 2), (3, 3), (0, 4)]


def test_a_pass_comes_back_before_players_who_passed_later() -> None:
    sc = Scenario(3, rows=[[FARM, CASTLE]])
    g = sc.game
    give_special(g, 0, PASS)
    give_special(g, 1, PASS)
    sc.supplies()
    sc.play(0, PlayPass())  # queue: Bob, Cid, Ann
    sc.play(1, PlayPass())  # queue: Cid, Ann, Bob
    assert g.decision is not None and g.decision.players == (2,)
    sc.enter(2, 1)
    assert g.decision is not None and g.decision.players == (0,)
    sc.enter(0, 1)
    sc.enter(1, 1)
    assert [e.player for e in sc.events("enter")] == [2, 0, 1]


def test_a_pass_needs_a_pass_card() -> None:
    sc = Scenario(3, rows=[[FARM, CASTLE]])
    sc.supplies()
    assert PlayPass() not in list(legal_choices(sc.game, 0))
    with pytest.raises(PassNotAllowed):
        sc.game.apply(0, PlayPass())


def test_a_player_with_no_cards_may_enter_with_none_ruling_9_3() -> None:
    sc = Scenario(3, rows=[[FARM, PALACE], [CASTLE, PALACE]])
    g = sc.game
    sc.supplies()
    sc.enter_all([(0, 1, sc.hand(0)), (1, 0, []), (2, 0, [])])  # Ann lays her whole hand
    assert g.hands[0] == []
    sc.supplies()  # round 2 starts with Bob; Ann enters last
    sc.enter_all([(1, 0, []), (2, 0, [])])
    assert g.decision is not None and g.decision.players == (0,)
    assert list(legal_choices(g, 0)) == [Enter(0, ()), Enter(1, ())]
    sc.play(0, Enter(1, ()))
    assert g.vp[0] == 2 + 2  # alone in the Palace twice


# --- the population deck -------------------------------------------------------------------------


def test_empty_deck_is_refilled_by_shuffling_the_discard_pile() -> None:
    sc = Scenario(3, hands=[[P(0)]], rows=[[FARM, CASTLE]], deck=[R(0), R(1)])
    g = sc.game
    pile = burn_deck(sc, keep=2)  # the deck holds R(0), R(1) only
    new_order = tuple(reversed(pile))  # the order the table will give the new deck, top first
    sc.table.script_shuffles["discard"] = [new_order]
    sc.supplies()
    hand = [c for c in sc.hand(0) if c != P(0)]
    sc.enter_all([(0, 0, [P(0)]), (1, 1, []), (2, 1, [])])
    # Ann's Farm premium draws the last 2 cards of the deck, then the discard pile becomes the
    # new deck and she draws its top 2.
    assert [e.data["count"] for e in sc.events("reshuffle")] == [len(pile)]
    assert sc.hand(0) == sorted([*hand, R(0), R(1), new_order[0], new_order[1]])
    assert len(g.deck) == len(pile) - 2
    assert [g.faces[h] for h in g.discard] == [P(0)]  # laid after the reshuffle


def test_draw_from_empty_deck_and_empty_discard_gives_nothing_ruling_9_13() -> None:
    sc = Scenario(3, hands=[[P(0)]], rows=[[FARM, CASTLE]])
    g = sc.game
    deal_deck_to(sc, 2)
    assert g.deck == [] and g.discard == []
    sc.supplies()
    sc.enter_all([(0, 0, [P(0)]), (1, 0, []), (2, 1, [])])
    # P(0) went to the discard pile only after the actions: both draws found nothing.
    assert len(g.hands[0]) == 4 and len(g.hands[1]) == 5
    draws = [(e.player, e.data["count"], e.data.get("wanted")) for e in sc.events("draw")]
    assert draws == [(0, 0, 4), (1, 0, 2)]
    assert [g.faces[h] for h in g.discard] == [P(0)]
