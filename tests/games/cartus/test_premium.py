"""Who takes the premium, in what order actions happen, the two-player single premium and the
last round (rules 3.D.b)."""

from __future__ import annotations

from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.data import FLUTE, JOKER, PASS, SWORD, Building, Klass
from rattus_net.games.cartus.moves import DecisionKind, Enter, Move, PlayPass

from .helpers import (
    K,
    P,
    R,
    Scenario,
    give_special,
    play_until_last_round,
    quiet_round,
    set_rats,
)

CASTLE = Building.CASTLE
PALACE = Building.PALACE
FARM = Building.FARM
CHI = Klass.CHIVALRY


def swords(sc: Scenario) -> list[int]:
    return [sc.hand(s).count(SWORD) for s in range(sc.game.n)]


def test_premium_goes_to_most_population_and_joker_cards() -> None:
    sc = Scenario(3, hands=[[K(0)], [K(1)], []], rows=[[CASTLE, PALACE]])
    give_special(sc.game, 1, JOKER)
    sc.round([(0, 0, [K(0)]), (1, 0, [K(1), JOKER]), (2, 1, [])])
    assert swords(sc) == [1, 2, 0]


def test_premium_tie_goes_to_whoever_entered_first() -> None:
    sc = Scenario(3, hands=[[K(0), K(1)], [K(2), K(3)], []], rows=[[CASTLE, PALACE]])
    sc.round([(0, 0, [K(0), K(1)]), (1, 0, [K(2), K(3)]), (2, 1, [])])
    assert swords(sc) == [2, 1, 0]


def test_premium_tie_goes_to_first_entered_not_to_the_starting_player() -> None:
    sc = Scenario(3, hands=[[K(0)], [K(1)], [K(2)]], rows=[[CASTLE, PALACE]], first_player=1)
    # Turn order Bob, Cid, Ann: Cid enters the Castle before Ann.
    sc.supplies()
    sc.enter_all([(1, 1, []), (2, 0, [K(2)]), (0, 0, [K(0)])])
    assert swords(sc) == [1, 0, 2]


def test_swords_and_flutes_do_not_count_for_the_premium() -> None:
    sc = Scenario(3, hands=[[K(0)], [K(1), K(2)], []], rows=[[CASTLE, PALACE]])
    give_special(sc.game, 0, SWORD, 2)
    give_special(sc.game, 0, FLUTE, 2)
    sc.round([(0, 0, [K(0), SWORD, SWORD, FLUTE, FLUTE]), (1, 0, [K(1), K(2)]), (2, 1, [])])
    # Ann's Swords take one of Bob's 3 cards (no Sword among them).
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.GIVE and d.players == (1,)
    sc.play(1, first_choice(sc, 1))
    # Bob played 2 population cards against Ann's 1 (and 4 Swords and Flutes): premium.
    assert swords(sc) == [1, 2, 0]
    assert [(e.player, e.data["premium"]) for e in sc.events("action")][:2] == [
        (1, True),
        (0, False),
    ]


def first_choice(sc: Scenario, seat: int) -> Move:
    return legal_choices(sc.game, seat)[0]


def test_alone_with_zero_cards_takes_the_premium() -> None:
    sc = Scenario(3, rows=[[CASTLE, PALACE]])
    sc.round([(0, 0, []), (1, 1, []), (2, 1, [])])
    assert swords(sc) == [2, 0, 0]
    assert sc.game.vp == [0, 2, 1]  # nobody played a card: the first in takes the premium


def test_actions_premium_first_then_entry_order() -> None:
    sc = Scenario(3, hands=[[P(0)], [P(1), P(2)], []], rows=[[FARM, CASTLE]])
    sc.round([(0, 0, [P(0)]), (1, 0, [P(1), P(2)]), (2, 0, [])])
    actions = [(e.player, e.data["premium"]) for e in sc.events("action")]
    assert actions == [(1, True), (0, False), (2, False)]


# --- two players ---------------------------------------------------------------------------------


def test_two_players_single_premium_goes_to_more_cards_wherever_played() -> None:
    sc = Scenario(2, hands=[[K(0)], [R(0), R(1)]], rows=[[CASTLE, PALACE]])
    sc.round([(0, 0, [K(0)]), (1, 1, [R(0), R(1)])])
    # Ann is alone in the Castle, but Bob played more cards: Ann takes only the standard.
    assert swords(sc) == [1, 0]
    assert sc.game.vp == [0, 2]


def test_two_players_single_premium_tie_goes_to_who_entered_first() -> None:
    sc = Scenario(2, hands=[[K(0)], [R(0)]], rows=[[CASTLE, PALACE]], first_player=1)
    sc.round([(1, 1, [R(0)]), (0, 0, [K(0)])])
    assert swords(sc) == [1, 0]
    assert sc.game.vp == [0, 2]


def test_two_players_tie_after_a_pass_goes_to_who_entered_first() -> None:
    sc = Scenario(2, hands=[[K(0)], [R(0)]], rows=[[CASTLE, PALACE]])
    give_special(sc.game, 0, PASS)
    sc.supplies()
    sc.play(0, PlayPass())
    sc.enter_all([(1, 1, [R(0)]), (0, 0, [K(0)])])
    assert swords(sc) == [1, 0]
    assert sc.game.vp == [0, 2]


def test_two_players_in_one_building_premium_and_standard() -> None:
    sc = Scenario(2, hands=[[K(0)], [K(1), K(2)]], rows=[[CASTLE, PALACE]])
    sc.round([(0, 0, [K(0)]), (1, 0, [K(1), K(2)])])
    assert swords(sc) == [1, 2]


def test_two_players_all_cards_are_turned_up_before_the_first_building() -> None:
    sc = Scenario(2, hands=[[K(0)], [R(0), R(1)]], rows=[[CASTLE, PALACE]])
    g = sc.game
    sc.supplies()
    sc.enter_all([(0, 0, [K(0)])])
    g.apply(1, Enter(1, (R(0), R(1))))
    # The table's first request of phase D turns up both buildings' cards at once.
    req = g.pending
    assert req is not None and g.decision is None
    assert set(req.handles) == set(g.laid[0]) | set(g.laid[1])  # type: ignore[union-attr]
    assert req.to is None  # type: ignore[union-attr]


# --- last round ----------------------------------------------------------------------------------


def test_last_round_no_actions_premium_player_gains_one_influence() -> None:
    sc = Scenario(3, hands=[], last_row=[CASTLE, PALACE])
    play_until_last_round(sc)
    g = sc.game
    assert g.round == 9 and g.last_round
    assert g.start_player == 2  # the starting-player card passed left every round
    hand0, hand1 = sc.hand(0), sc.hand(1)
    before = [row[:] for row in g.influence]
    swords_before, vp_before = swords(sc), list(g.vp)
    played0 = [c for c in hand0 if c < JOKER][:2]
    played1 = [c for c in hand1 if c < JOKER][:1]
    assert len(played0) == 2 and len(played1) == 1
    sc.round([(2, 1, []), (0, 0, played0), (1, 0, played1)])
    assert g.is_over
    assert swords(sc)[:2] == swords_before[:2]  # no Castle action
    assert g.vp == vp_before  # no Palace action for Cid, alone there
    assert g.influence[CHI][0] == before[CHI][0] + len(played0) + 1
    assert g.influence[CHI][1] == before[CHI][1] + len(played1)
    assert g.influence[Klass.ROYALTY][2] == before[Klass.ROYALTY][2] + 1
    assert [e.player for e in sc.events("last-round-premium")] == [0, 2]


def test_last_round_swords_and_flutes_still_apply() -> None:
    sc = Scenario(3, last_row=[CASTLE, PALACE])
    play_until_last_round(sc)
    g = sc.game
    give_special(g, 0, SWORD)
    give_special(g, 1, FLUTE)
    set_rats(g, 0, 4)
    set_rats(g, 1, 4)
    sc.supplies()
    rats_before = g.rats[:]
    sc.enter_all([(2, 1, []), (0, 0, [SWORD]), (1, 0, [FLUTE])])
    # Ann laid the most Swords: Bob gives half his hand.
    d = g.decision
    assert d is not None and d.kind is DecisionKind.GIVE and d.players == (1,) and d.to == 0
    sc.play(1, first_choice(sc, 1))
    # Bob laid the most Flutes: Ann receives one of his rats.
    assert g.rats[0] == rats_before[0] + 1 and g.rats[1] == rats_before[1] - 1
    assert g.is_over


def test_two_players_last_round_only_the_single_premium_player_gains_influence() -> None:
    sc = Scenario(2, last_row=[CASTLE, PALACE])
    play_until_last_round(sc)
    g = sc.game
    assert g.round == 10
    before = [row[:] for row in g.influence]
    card0 = [c for c in sc.hand(0) if c < JOKER][:1]
    card1 = [c for c in sc.hand(1) if c < JOKER][:2]
    assert len(card0) == 1 and len(card1) == 2
    sc.round([(1, 1, card1), (0, 0, card0)])
    assert g.is_over
    # Bob has the single premium (2 cards against 1); Ann, alone in the Castle, gains nothing
    # more than her card.
    assert g.influence[CHI][0] == before[CHI][0] + 1
    assert g.influence[Klass.ROYALTY][1] == before[Klass.ROYALTY][1] + 2 + 1


def test_the_game_ends_after_the_last_round_of_the_plan() -> None:
    for n, rounds in ((2, 10), (3, 9), (4, 8), (5, 8)):
        sc = Scenario(n)
        while not sc.game.is_over:
            quiet_round(sc)
        assert sc.game.round == rounds
        assert sc.game.result is not None
        assert sc.game.building_deck == []
