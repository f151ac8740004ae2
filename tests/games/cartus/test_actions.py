"""Optional actions (rules 3 D b, rulings 17-18): a player may decline an action that takes
cards and the Guard Tower premium; other actions are taken without asking; nothing is asked in
the last round; a declined action is a move in the record."""

from __future__ import annotations

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.data import SWORD, Building
from rattus_net.games.cartus.moves import (
    DecisionKind,
    DeclineAction,
    Give,
    Move,
    TakeAction,
    format_move,
    parse_move,
)
from rattus_net.games.cartus.narrate import Narrator, decision_words
from rattus_net.games.cartus.record import GameRecord
from rattus_net.kit.errors import NotYourTurn

from .helpers import K, P, Scenario, give_special, play_until_last_round

FARM, CASTLE, PALACE = Building.FARM, Building.CASTLE, Building.PALACE
MONASTERY, GT = Building.MONASTERY, Building.GUARD_TOWER


def test_take_and_decline_have_a_text_form() -> None:
    for move in (TakeAction(), DeclineAction()):
        assert parse_move(format_move(move)) == move
    assert format_move(DeclineAction()) == "decline"


def test_a_card_action_is_offered_and_declining_takes_nothing() -> None:
    sc = Scenario(3, rows=[[FARM, PALACE]], take_actions=False)
    g = sc.game
    sc.round([(0, 0, [sc.hand(0)[0]]), (1, 1, []), (2, 1, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.ACTION
    assert (d.players, d.count, d.reason, d.building) == ((0,), 4, "premium", 0)
    assert list(legal_choices(g, 0)) == [TakeAction(), DeclineAction()]  # taking first
    assert decision_words(d, g.config.players, [g.faces[h] for h in g.row]) == (
        "take or decline the premium action at the Farm (4 cards)."
    )
    deck = len(g.deck)
    sc.play(0, DeclineAction())
    assert len(g.hands[0]) == 4 and len(g.deck) == deck
    assert g.history[-1] == (0, DeclineAction())
    (event,) = sc.events("decline")
    assert event.player == 0 and event.data == {"building": 0, "premium": True, "count": 4}
    text = Narrator(g.config.players, viewer=1)
    words = [text(e) for e in g.log]
    assert "Ann declines the premium action of the Farm (4 cards not taken)." in words
    assert not [e for e in sc.events("action") if e.player == 0]


def test_taking_an_offered_action_carries_it_out() -> None:
    sc = Scenario(3, rows=[[CASTLE, PALACE]], take_actions=False)
    g = sc.game
    sc.round([(0, 1, []), (1, 0, []), (2, 0, [])])
    for seat, swords in ((1, 2), (2, 1)):  # the premium first, then the standard
        d = g.decision
        assert d is not None and d.kind is DecisionKind.ACTION and d.players == (seat,)
        assert d.count == swords
        sc.play(seat, TakeAction())
        assert sc.hand(seat).count(SWORD) == swords


@pytest.mark.parametrize(
    "row",
    [[MONASTERY, PALACE], [Building.FORTUNE_TELLER, PALACE], [Building.HOSPITAL, PALACE]],
)
def test_actions_that_never_hurt_are_taken_without_asking(row: list[Building]) -> None:
    """Discarding rats, looking at the nun row and VP tokens are never declined; the
    Hospital's discards are "up to" already (ruling 17)."""
    sc = Scenario(3, rows=[row], take_actions=False)
    g = sc.game
    sc.round([(0, 0, []), (1, 0, []), (2, 1, [])])
    kinds = []
    while g.decision is not None and g.decision.kind is not DecisionKind.SUPPLY:
        kinds.append(g.decision.kind)
        sc.play(g.decision.players[0], legal_choices(g, g.decision.players[0])[0])
    assert DecisionKind.ACTION not in kinds
    assert g.vp[2] == D.PREMIUM_AMOUNT  # the Palace's premium, taken without asking


def test_nothing_to_take_asks_nothing() -> None:
    sc = Scenario(3, rows=[[CASTLE, PALACE]], take_actions=False)
    g = sc.game
    give_special(g, 2, SWORD, len(g.supply[SWORD]))  # the Sword pile is empty
    sc.round([(0, 0, []), (1, 1, []), (2, 1, [])])
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY
    assert [e.data["count"] for e in sc.events("take")] == [0]


def test_the_guard_tower_premium_may_be_declined_its_standard_is_not_asked() -> None:
    sc = Scenario(4, hands=[[K(0), K(1)]], rows=[[GT, PALACE, MONASTERY]], take_actions=False)
    g = sc.game
    # Ann: premium with 3 cards left; Bob (5 cards) and Dee (5 cards) would give 3 each; Cid
    # stands in the Guard Tower too: his standard action is not asked.
    sc.round([(0, 0, [K(0), K(1)]), (1, 1, []), (2, 0, []), (3, 2, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.ACTION
    assert (d.players, d.count, d.reason) == ((0,), 6, "premium")
    sc.play(0, DeclineAction())
    assert [len(h) for h in g.hands] == [3, 5, 5, 5]
    assert not sc.events("guard-tower")
    assert g.decision is not None and g.decision.kind is DecisionKind.SUPPLY


def test_a_declining_player_only_may_decline() -> None:
    sc = Scenario(3, rows=[[FARM, PALACE]], take_actions=False)
    sc.round([(0, 0, []), (1, 1, []), (2, 1, [])])
    with pytest.raises(NotYourTurn):
        sc.game.apply(1, DeclineAction())
    with pytest.raises(NotYourTurn):  # not an answer to a supply or entering decision
        sc.game.apply(0, Give(()))


def test_nothing_is_declined_in_the_last_round_ruling_18() -> None:
    sc = Scenario(3, last_row=[FARM, CASTLE])
    play_until_last_round(sc)
    sc.take_actions = False
    g = sc.game
    while not g.is_over:
        d = g.decision
        assert d is not None and d.kind is not DecisionKind.ACTION
        seat = d.players[0]
        if d.kind is DecisionKind.ENTER:
            sc.enter(seat, 0, *sc.hand(seat)[:1])
        else:
            sc.play(seat, legal_choices(g, seat)[0])
    assert sc.events("last-round-premium")


def _declining_game(decline: bool) -> Scenario:
    """Round 1: Ann alone in the Farm (premium: draw 4), Bob's Castle premium gives him 2
    Swords. Round 2: Bob lays a Sword where Ann lays nothing, so Ann gives half her hand.
    Then quiet rounds to the end. Ann declines the Farm's draw if ``decline``."""
    sc = Scenario(3, hands=[[P(0)]], rows=[[FARM, CASTLE], [PALACE, MONASTERY]])
    sc.take_actions = False
    g = sc.game
    sc.round([(0, 0, [P(0)]), (1, 1, []), (2, 1, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.ACTION and d.players == (0,) and d.count == 4
    sc.play(0, DeclineAction() if decline else TakeAction())
    sc.take_actions = True
    sc.settle()
    assert sc.hand(1).count(SWORD) == 2
    # Round 2 starts with Bob.
    sc.round([(1, 0, [SWORD]), (2, 1, []), (0, 0, [])])
    d = g.decision
    assert d is not None and d.kind is DecisionKind.GIVE and d.reason == "sword"
    assert d.players == (0,) and d.to == 1
    sc.play(0, Give(tuple(sc.hand(0)[: d.count])))
    while not g.is_over:
        seat = g.decision.players[0] if g.decision is not None else 0
        if g.decision is not None and g.decision.kind is DecisionKind.ENTER:
            sc.enter(seat, 0)
        else:
            sc.play(seat, legal_choices(g, seat)[0])
    return sc


def test_declining_a_farm_draw_avoids_a_swords_half_hand_gift_and_replays() -> None:
    declined, taken = _declining_game(True), _declining_game(False)
    gifts = [[e.data["count"] for e in sc.events("sword")] for sc in (declined, taken)]
    assert gifts == [[2], [4]]  # half of 4 cards, not half of 8
    game, table = declined.game, declined.table
    record = GameRecord.from_game(game, table)
    text = record.dumps()
    assert '"Ann: decline"' in text
    again, _ = GameRecord.loads(text).replay()
    assert again.history == game.history
    assert again.result == game.result
    assert [e.data["count"] for e in again.log if e.kind == "sword"] == [2]
    moves: list[Move] = [m for _, m in again.history]
    assert moves.count(DeclineAction()) == 1
