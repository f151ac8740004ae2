"""The game interface: every registered game driven the same way to its end."""

from __future__ import annotations

import random

import pytest

from rattus_net.kit.errors import MoveSyntaxError, SetupError
from rattus_net.kit.registry import game_names, get_game
from rattus_net.kit.table import TableRequest

GAMES = game_names()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_a_game_plays_to_its_end_through_the_interface(name: str, players: int) -> None:
    g = get_game(name)
    game = g.new_game(g.configure([f"P{i}" for i in range(players)], {}))
    table = g.local_table(3)
    rng = random.Random(players)
    steps = 0
    while True:
        g.settle(game, table)
        if game.is_over:
            break
        (seat,) = game.to_act()[:1]
        assert not isinstance(game.pending, TableRequest)  # (a decision is not a request)
        moves = g.legal(game, seat)
        move = moves[rng.randrange(len(moves))]
        assert g.parse_move(g.format_move(move)) == move  # a parse/print pair
        assert g.view(game, seat).seat == seat
        game.apply(seat, move)
        steps += 1
    outcome = g.outcome(game)
    assert outcome is not None and outcome.winners and len(outcome.scores) == players
    assert outcome.breakdown and steps > 10
    assert g.progress(game)[0] > 0
    with pytest.raises(Exception, match="over"):
        game.apply(0, move)


@pytest.mark.parametrize("name", GAMES)
def test_bad_move_text_is_a_syntax_error_not_a_rule_violation(name: str) -> None:
    with pytest.raises(MoveSyntaxError, match="not a move") as caught:
        get_game(name).parse_move("fly to the moon")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_s_bots_play_it(name: str) -> None:
    g = get_game(name)
    game = g.new_game(g.configure(["A", "B", "C"], {}))
    table = g.local_table(5)
    bots = [g.make_bot(kind, seat) for seat, kind in enumerate(g.bot_kinds[:2] * 2)]
    while True:
        g.settle(game, table)
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(g.view(game, seat)))
    assert g.outcome(game) is not None


def test_cartus_options_pass_through_the_interface() -> None:
    g = get_game("cartus")
    config = g.configure(
        ["A", "B", "C"], {"buildings": "random-cards", "simultaneous_supply": True}
    )
    assert config.simultaneous_supply and config.buildings.describe() == "random-cards"
    with pytest.raises(SetupError, match="unknown option"):
        g.configure(["A", "B"], {"speed": 3})
    with pytest.raises(SetupError, match="unknown building"):
        g.configure(["A", "B"], {"buildings": "farm,moon"})
    with pytest.raises(SetupError, match="must be a bool"):
        g.configure(["A", "B"], {"simultaneous_supply": 1})
