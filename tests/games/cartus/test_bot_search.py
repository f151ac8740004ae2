"""The searching bot: registered, legal, within budget, deterministic with iteration budgets."""

from __future__ import annotations

import pytest

from rattus_net.bots import ismcts
from rattus_net.bots.arena import play_game
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.bots.search import SearchBot
from rattus_net.games.cartus.choices import is_legal
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.interface import BOT_KINDS, Budget
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle
from rattus_net.kit.registry import get_game

CARTUS = get_game("cartus")


def first_game(n: int) -> GameConfig:
    """The first game's buildings, players P1, P2... (the arena's games here)."""
    return GameConfig(GameConfig.default_names(n))


def test_registered_with_budgets() -> None:
    assert "search" in BOT_KINDS
    bot = make_bot("search", 3, Budget(iterations=5))
    assert isinstance(bot, SearchBot)
    assert bot.iterations == 5


def test_plays_legal_games_quickly() -> None:
    for n in (2, 3):
        bots = [SearchBot(n, iterations=6, horizon=1)] + [
            make_bot("heuristic", s) for s in range(1, n)
        ]
        stats = play_game(CARTUS, bots, 60 + n, first_game(len(bots)), is_legal)
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

    monkeypatch.setattr(ismcts.time, "perf_counter", clock)
    bot = SearchBot(1, seconds=0.25)
    move = bot.choose(PlayerView(game, 0))
    assert is_legal(PlayerView(game, 0), move)
    # One reading at the start, one before each iteration: the 16th reading after the start
    # is the first at 0.25 s, so 15 iterations ran.
    assert bot.last_iterations == 15
