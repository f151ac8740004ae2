"""Bots take or decline an offered action (ruling 17) from their view: the heuristic declines
cards that a big hand would lose to a Sword or a Guard Tower premium, and takes them otherwise;
the random bot picks either; the search bot compares both."""

from __future__ import annotations

from rattus_net.bots.random import RandomBot
from rattus_net.games.cartus.bots.heuristic import HeuristicBot
from rattus_net.games.cartus.bots.search import SearchBot
from rattus_net.games.cartus.data import SWORD, Building
from rattus_net.games.cartus.moves import DecisionKind, DeclineAction, TakeAction

from .helpers import Scenario, deal_deck_to

FARM, CASTLE, GT = Building.FARM, Building.CASTLE, Building.GUARD_TOWER


def _take_others(sc: Scenario, me: int) -> None:
    """Take every action offered to another seat, until ``me`` is asked."""
    g = sc.game
    while g.decision is not None and g.decision.kind is DecisionKind.ACTION:
        seat = g.decision.players[0]
        if seat == me:
            return
        sc.play(seat, TakeAction())


def _farm_then_guard_tower(bob_lays: int) -> Scenario:
    """Ann alone in the Farm (premium: draw 4) with 4 cards left; Bob enters the Guard Tower
    (which resolves after the Farm) laying ``bob_lays`` of his 5 cards; Cid stays out of it."""
    sc = Scenario(4, rows=[[FARM, GT, Building.PALACE]], take_actions=False)
    bob = sc.hand(1)[:bob_lays]
    sc.round([(0, 0, sc.hand(0)[:1]), (1, 1, bob), (2, 2, []), (3, 2, [])])
    _take_others(sc, 0)
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.ACTION and d.players == (0,)
    return sc


def test_heuristic_declines_a_draw_that_a_later_guard_tower_would_take() -> None:
    # Bob keeps 5 cards: Ann (4) gives him nothing now, but 4 more cards would make her give 3.
    sc = _farm_then_guard_tower(0)
    assert HeuristicBot(1).choose(sc.view(0)) == DeclineAction()
    # Bob keeps 1 card: Ann gives 3 of her choice anyway, so the draw costs her nothing there.
    sc = _farm_then_guard_tower(4)
    assert HeuristicBot(1).choose(sc.view(0)) == TakeAction()


def _castle_then_farm(big_hand: bool, swords: bool) -> Scenario:
    """Bob and Cid enter the Castle (Swords for both if ``swords``) or stay out of Ann's way;
    Ann is alone in the Farm, which resolves second, with a big hand or not."""
    sc = Scenario(3, rows=[[CASTLE, FARM]], take_actions=False)
    if big_hand:
        deal_deck_to(sc, 0, keep=len(sc.game.deck) - 8)  # as earlier draws would have
    castle = 0 if swords else 1
    sc.round([(0, 1, sc.hand(0)[:1]), (1, castle, []), (2, castle, [])])
    _take_others(sc, 0)
    if swords:
        assert sc.hand(1).count(SWORD) + sc.hand(2).count(SWORD) == 3
    return sc


def test_heuristic_declines_cards_that_a_big_hand_facing_swords_would_lose() -> None:
    assert HeuristicBot(2).choose(_castle_then_farm(True, True).view(0)) == DeclineAction()
    assert HeuristicBot(2).choose(_castle_then_farm(False, False).view(0)) == TakeAction()
    assert HeuristicBot(2).choose(_castle_then_farm(True, False).view(0)) == TakeAction()


def test_random_bot_picks_both_and_search_compares_both() -> None:
    sc = _farm_then_guard_tower(0)
    view = sc.view(0)
    picks = {RandomBot(seed).choose(view) for seed in range(16)}
    assert picks == {TakeAction(), DeclineAction()}
    search = SearchBot(3, iterations=8, horizon=1)
    assert set(search.candidates(view)) == {TakeAction(), DeclineAction()}
    assert search.choose(view) in (TakeAction(), DeclineAction())
    assert sum(visits for _, visits, _ in search.last_stats) == 8
