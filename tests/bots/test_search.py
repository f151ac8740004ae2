"""The searching bot: registered, legal, within budget, deterministic with iteration budgets."""

from __future__ import annotations

import time

from rattus_net.bots import BOT_KINDS, make_bot
from rattus_net.bots.arena import is_legal, play_game
from rattus_net.bots.search import SearchBot
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.local import LocalTable, settle
from rattus_net.games.cartus.view import PlayerView


def test_registered_with_budgets() -> None:
    assert "search" in BOT_KINDS
    bot = make_bot("search", 3, iterations=5)
    assert isinstance(bot, SearchBot)
    assert bot.iterations == 5


def test_plays_legal_games_quickly() -> None:
    for n in (2, 3):
        bots = [SearchBot(n, iterations=6, horizon=1)] + [
            make_bot("heuristic", s) for s in range(1, n)
        ]
        stats = play_game(bots, 60 + n, check_legal=True)
        assert stats.game.is_over


def test_iteration_budget_is_deterministic() -> None:
    game = Game(GameConfig(GameConfig.default_names(4), first_player=0))
    settle(game, LocalTable(4))
    a = SearchBot(9, iterations=20, horizon=1)
    b = SearchBot(9, iterations=20, horizon=1)
    view = PlayerView(game, 0)
    assert a.choose(view) == b.choose(view)
    assert a.last_stats == b.last_stats
    assert is_legal(view, a.choose(view))


def test_time_budget_is_respected() -> None:
    game = Game(GameConfig(GameConfig.default_names(4), first_player=0))
    table = LocalTable(5)
    settle(game, table)
    bot = SearchBot(1, seconds=0.2)
    t0 = time.perf_counter()
    bot.choose(PlayerView(game, 0))
    assert time.perf_counter() - t0 < 0.6
