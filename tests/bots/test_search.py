"""The searching bot: registered, legal, within budget, deterministic with iteration budgets."""

from __future__ import annotations

import pytest

from rattus_net.bots import BOT_KINDS, make_bot, search
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


def test_time_budget_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops searching once its budget of seconds is spent, read off a clock that the
    test advances by 1/64 s per reading (exact in binary): no wall clock, so a loaded machine
    cannot fail it."""
    game = Game(GameConfig(GameConfig.default_names(4), first_player=0))
    table = LocalTable(5)
    settle(game, table)
    now = [0.0]

    def clock() -> float:
        now[0] += 1 / 64
        return now[0]

    monkeypatch.setattr(search.time, "perf_counter", clock)
    bot = SearchBot(1, seconds=0.25)
    move = bot.choose(PlayerView(game, 0))
    assert is_legal(PlayerView(game, 0), move)
    # One reading at the start, one before each iteration: the 16th reading after the start
    # is the first at 0.25 s, so 15 iterations ran.
    assert bot.last_iterations == 15
