"""The game interface: both games behind one registry, driven the same way to their end."""

from __future__ import annotations

import random

import pytest

from rattus_net.games import GAMES, get_game


def test_the_registry_names_both_games() -> None:
    assert GAMES == ("cartus", "rattus")
    assert [get_game(g).name for g in GAMES] == list(GAMES)
    assert get_game("rattus").max_players == 4 and get_game("cartus").max_players == 5
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_a_game_plays_to_its_end_through_the_interface(name: str, players: int) -> None:
    g = get_game(name)
    game = g.new_game([f"P{i}" for i in range(players)])
    table = g.local_table(3)
    rng = random.Random(players)
    steps = 0
    while True:
        g.settle(game, table)
        if game.is_over:
            break
        (seat,) = game.to_act()[:1]
        moves = g.legal(game, seat)
        move = moves[rng.randrange(len(moves))]
        assert g.parse_move(g.format_move(move)) == move  # a parse/print pair
        assert g.view(game, seat).seat == seat
        game.apply(seat, move)
        steps += 1
    outcome = g.outcome(game)
    assert outcome is not None and outcome.winners and len(outcome.scores) == players
    assert outcome.breakdown and steps > 10
    with pytest.raises(Exception, match="over"):
        game.apply(0, move)


@pytest.mark.parametrize("name", GAMES)
def test_bad_move_text_is_a_value_error(name: str) -> None:
    with pytest.raises(ValueError, match="not a move"):
        get_game(name).parse_move("fly to the moon")


def test_cartus_options_pass_through_the_adapter() -> None:
    from rattus_net.engine.errors import SetupError

    g = get_game("cartus")
    game = g.new_game(["A", "B", "C"], {"buildings": "random-cards", "simultaneous_supply": True})
    assert game.config.simultaneous_supply and game.config.buildings.describe() == "random-cards"
    with pytest.raises(SetupError, match="unknown Rattus Cartus option"):
        g.new_game(["A", "B"], {"speed": 3})
