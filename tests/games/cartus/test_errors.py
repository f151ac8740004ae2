"""Illegal input raises the precise exception and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.data import GOLD, JOKER, PASS, SWORD, Building
from rattus_net.games.cartus.errors import CardNotPlayable, PassNotAllowed
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    Discard,
    Enter,
    Give,
    Look,
    Move,
    PlayPass,
    Supply,
)
from rattus_net.kit.errors import (
    BadChoice,
    CardNotHeld,
    GameOver,
    IllegalMove,
    NotYourTurn,
    SetupError,
    TableMisuse,
    WrongCount,
)

from .helpers import C, K, P, R, Scenario, give_special, run_to_end, snapshot

ROW = [Building.CASTLE, Building.PALACE]


def refused(sc: Scenario, seat: int, move: Move, error: type[IllegalMove]) -> None:
    """``move`` raises exactly ``error`` and changes nothing."""
    before = snapshot(sc.game)
    with pytest.raises(error):
        sc.game.apply(seat, move)
    assert snapshot(sc.game) == before


def at_enter() -> Scenario:
    sc = Scenario(3, hands=[[P(0), K(0)]], rows=[ROW])
    sc.supplies()
    return sc


def test_out_of_turn() -> None:
    sc = Scenario(3, rows=[ROW])
    refused(sc, 1, Supply(0, (0, 1)), NotYourTurn)
    sc.supplies()
    refused(sc, 2, Enter(0, ()), NotYourTurn)


def test_wrong_kind_of_move() -> None:
    sc = Scenario(3, rows=[ROW])
    refused(sc, 0, Enter(0, ()), NotYourTurn)
    sc.supplies()
    refused(sc, 0, Supply(0, (0, 1)), NotYourTurn)
    refused(sc, 0, Give(()), NotYourTurn)


def test_card_not_held() -> None:
    sc = at_enter()
    refused(sc, 0, Enter(0, (R(4),)), CardNotHeld)
    refused(sc, 0, Enter(0, (P(0), P(0))), CardNotHeld)  # only one such card
    refused(sc, 0, Enter(0, (JOKER,)), CardNotHeld)


@pytest.mark.parametrize("face", [GOLD, PASS])
def test_gold_or_pass_cannot_be_laid(face: int) -> None:
    sc = at_enter()
    give_special(sc.game, 0, face)
    refused(sc, 0, Enter(0, (face,)), CardNotPlayable)
    refused(sc, 0, Enter(0, (P(0), face)), CardNotPlayable)


def test_unknown_building_index() -> None:
    sc = Scenario(3, rows=[ROW])
    refused(sc, 0, Supply(2, ()), BadChoice)
    sc.supplies()
    refused(sc, 0, Enter(2, ()), BadChoice)
    refused(sc, 0, Enter(-1, ()), BadChoice)


def test_bad_nun_row_positions_in_a_supply() -> None:
    sc = Scenario(3, rows=[["Castle/F", "Palace/E"]])
    refused(sc, 0, Supply(0, (0,)), WrongCount)  # F looks at 2
    refused(sc, 0, Supply(0, (0, 5)), BadChoice)
    refused(sc, 0, Supply(0, (3, 3)), BadChoice)
    refused(sc, 0, Supply(1, (-1,)), BadChoice)


def test_bad_nun_row_positions_at_the_tent() -> None:
    sc = Scenario(3, hands=[[C(0)]], rows=[[Building.FORTUNE_TELLER, Building.PALACE]])
    sc.round([(0, 0, []), (1, 1, []), (2, 1, [])])
    assert sc.game.decision is not None and sc.game.decision.kind is DecisionKind.LOOK
    refused(sc, 0, Look((1,)), WrongCount)
    refused(sc, 0, Look((1, 1)), BadChoice)
    refused(sc, 0, Look((1, 7)), BadChoice)


def test_pass_without_a_pass_card_or_with_nobody_left() -> None:
    sc = at_enter()
    refused(sc, 0, PlayPass(), PassNotAllowed)
    give_special(sc.game, 2, PASS)
    sc.enter_all([(0, 0, []), (1, 0, [])])
    refused(sc, 2, PlayPass(), PassNotAllowed)


def test_wrong_give_count() -> None:
    sc = Scenario(3, rows=[ROW])
    give_special(sc.game, 0, SWORD)
    sc.round([(0, 1, [SWORD]), (1, 1, []), (2, 0, [])])
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.GIVE and d.count == 2
    hand = tuple(sc.hand(1))
    refused(sc, 1, Give(hand[:1]), WrongCount)
    refused(sc, 1, Give(hand[:3]), WrongCount)
    refused(sc, 1, Give((JOKER, JOKER)), CardNotHeld)


def test_wrong_number_of_hospital_discards() -> None:
    sc = Scenario(3, rows=[[Building.HOSPITAL, Building.PALACE]])
    sc.round([(0, 1, []), (1, 0, []), (2, 1, [])])
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.DISCARD and d.count == 3
    refused(sc, 1, Discard(tuple(sc.hand(1)[:4])), WrongCount)
    refused(sc, 1, Discard((SWORD,)), CardNotHeld)


def test_choosing_a_player_who_is_not_tied() -> None:
    sc = Scenario(3, rows=[ROW])
    give_special(sc.game, 0, SWORD)
    sc.round([(0, 1, [SWORD]), (1, 1, []), (2, 1, [])])
    d = sc.game.decision
    assert d is not None and d.kind is DecisionKind.CHOOSE_PLAYER
    refused(sc, 0, ChoosePlayer(0), BadChoice)
    refused(sc, 0, ChoosePlayer(4), BadChoice)
    refused(sc, 1, ChoosePlayer(2), NotYourTurn)


def test_a_move_after_the_game_is_over() -> None:
    sc = Scenario(2)
    run_to_end(sc)
    refused(sc, 0, Enter(0, ()), GameOver)
    refused(sc, 1, Supply(0, ()), GameOver)


def test_a_move_while_the_table_must_answer() -> None:
    sc = Scenario(3, hands=[[P(0)]], rows=[ROW])
    sc.supplies()
    sc.enter_all([(0, 0, [P(0)]), (1, 0, [])])
    sc.game.apply(2, Enter(0, ()))  # the table must now turn up the cards
    assert sc.game.decision is None and sc.game.pending is not None
    refused(sc, 0, Give(()), NotYourTurn)


def test_answering_a_table_request_that_was_not_asked() -> None:
    sc = Scenario(3)
    before = snapshot(sc.game)
    with pytest.raises(TableMisuse):
        sc.game.answer(None)
    assert snapshot(sc.game) == before


# --- configuration -------------------------------------------------------------------------------

BAD_SELECTIONS = [
    "",
    "farm",
    "farm,brewery,monastery,castle,tent,palace",  # two Peasantry buildings
    "farm,office,monastery,castle,tent,palace,treasury",
    "farm,office,monastery,castle,tent,moat",
    "Farm/A,Farm/B",
    "Farm/A,Farm/A,Farm/B,Farm/C,Farm/D,Office/A,Office/B,Office/D,Office/E,Office/F,"
    "Monastery/A,Monastery/B,Monastery/C,Monastery/D,Monastery/E,Castle/A,Castle/B,Castle/C,"
    "Castle/E,Castle/F,Tent/A,Tent/C,Tent/D,Tent/E,Tent/F,Palace/A,Palace/C,Palace/D,Palace/E,"
    "Palace/F",  # Farm/A twice
    "Farm/A,Farm/B,Farm/C,Farm/D,Farm/E,Brewery/A,Office/A,Office/B,Office/D,Office/E,"
    "Monastery/A,Monastery/B,Monastery/C,Monastery/D,Monastery/E,Castle/A,Castle/B,Castle/C,"
    "Castle/E,Castle/F,Tent/A,Tent/C,Tent/D,Tent/E,Tent/F,Palace/A,Palace/C,Palace/D,Palace/E,"
    "Palace/F",  # 6 Peasantry, 4 Bourgeoisie
    "Farm/Z",
]


@pytest.mark.parametrize("text", BAD_SELECTIONS)
def test_building_selection_parse_errors(text: str) -> None:
    with pytest.raises(SetupError):
        BuildingSelection.parse(text)


@pytest.mark.parametrize(
    "make",
    [
        lambda: GameConfig(players=("Ann",)),
        lambda: GameConfig(players=("A", "B", "C", "D", "E", "F")),
        lambda: GameConfig(players=("Ann", "Ann")),
        lambda: GameConfig(players=("Ann", " ")),
        lambda: GameConfig(players=("Ann", "Bob"), first_player=2),
        lambda: GameConfig(players=("Ann", "Bob"), first_player=-1),
    ],
)
def test_game_config_errors(make: Callable[[], GameConfig]) -> None:
    with pytest.raises(SetupError):
        make()


def test_a_scripted_card_order_must_hold_the_piles_cards() -> None:
    from rattus_net.games.cartus.game import Game
    from rattus_net.kit.local import LocalTable
    from rattus_net.kit.play import settle

    game = Game(GameConfig(players=("Ann", "Bob"), first_player=0))
    table = LocalTable(script_shuffles={"population": [(0,) * 84]}, strict=True)
    with pytest.raises(SetupError):
        settle(game, table)
