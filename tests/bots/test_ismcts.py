"""The bots every game shares: the random bot and the information-set search, for each game."""

from __future__ import annotations

import pytest

from rattus_net.bots import ismcts, make_game_bot
from rattus_net.bots.arena import play_game
from rattus_net.bots.random import RandomBot
from rattus_net.kit.local import LocalTable
from rattus_net.kit.registry import game_names, get_game


def _first_turn(name: str, players: int = 3) -> tuple[object, int]:
    """A game of ``name`` where somebody must choose among more than one move."""
    g = get_game(name)
    game = g.new_game(g.configure([f"P{i}" for i in range(players)], {}))
    table = LocalTable(4)
    while True:
        g.settle(game, table)
        seat = game.to_act()[0]
        if len(g.legal(game, seat)) > 1:
            return game, seat
        game.apply(seat, g.legal(game, seat)[0])


@pytest.mark.parametrize("name", game_names())
def test_the_search_is_reproducible_and_compares_every_candidate(name: str) -> None:
    g = get_game(name)
    game, seat = _first_turn(name)
    view = g.view(game, seat)
    a = make_game_bot(name, "search", 7, iterations=12)
    b = make_game_bot(name, "search", 7, iterations=12)
    assert isinstance(a, ismcts.Ismcts)
    move = a.choose(view)
    assert move == b.choose(view) and move in list(g.legal(game, seat))
    assert a.last_iterations == 12
    stats = a.last_stats
    assert len(stats) == len(a.candidates(view)) > 1
    assert sum(visits for _, visits, _ in stats) == 12
    assert all(0.0 <= total <= visits for _, visits, total in stats)  # rewards in [0, 1]
    # the root move chosen is the most visited one
    assert move == max(stats, key=lambda s: (s[1], s[2] / max(1, s[1])))[0]


@pytest.mark.parametrize("name", game_names())
def test_the_search_never_changes_the_real_game(name: str) -> None:
    g = get_game(name)
    game, seat = _first_turn(name)
    before = (len(game.history), len(game.log), game.pending)
    make_game_bot(name, "search", 1, iterations=4).choose(g.view(game, seat))
    assert (len(game.history), len(game.log), game.pending) == before


@pytest.mark.parametrize("name", game_names())
def test_the_random_bot_plays_any_game_to_its_end(name: str) -> None:
    g = get_game(name)
    stats = play_game(g, [RandomBot(s) for s in range(3)], 5)
    assert stats.game.is_over and sum(stats.decisions) == len(stats.game.history)
    again = play_game(g, [RandomBot(s) for s in range(3)], 5)
    assert again.game.history == stats.game.history  # a seed fixes a game
