"""The heuristic bot: legal, fast, and clearly better than random play."""

from __future__ import annotations

import pytest

from rattus_net.bots.arena import play_game
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.bots.heuristic import HeuristicBot
from rattus_net.games.cartus.choices import is_legal
from rattus_net.games.cartus.config import GameConfig
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.registry import get_game

CARTUS = get_game("cartus")


def first_game(n: int) -> GameConfig:
    """The first game's buildings, players P1, P2... (the arena's games here)."""
    return GameConfig(GameConfig.default_names(n))


def test_registered() -> None:
    assert "heuristic" in BOT_KINDS
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_only_legal_moves(n: int) -> None:
    for g in range(6):
        bots = [make_bot("heuristic" if s % 2 == 0 else "random", g * 7 + s) for s in range(n)]
        stats = play_game(CARTUS, bots, 500 + g * n, first_game(len(bots)), is_legal)
        assert stats.game.is_over


def test_all_heuristic_table_is_legal() -> None:
    """Whole games of heuristic bots, every move checked legal. Their speed (time per
    decision) is measured by ``benchmarks/bots.py --matchups heuristic-random-4``, not here:
    a wall-clock bound fails on a loaded machine."""
    for g in range(4):
        bots = [make_bot("heuristic", g * 5 + s) for s in range(4)]
        stats = play_game(CARTUS, bots, 900 + g, first_game(len(bots)), is_legal)
        assert stats.game.is_over
        assert sum(stats.decisions) > 0


def _tournament(n: int, games: int) -> tuple[float, float, float]:
    """One heuristic seat (rotating) against random bots: its win share, its death rate and
    the random seats' death rate."""
    wins = 0.0
    deaths = 0
    random_deaths = 0
    for g in range(games):
        hseat = g % n
        bots = [make_bot("heuristic" if s == hseat else "random", 31 * g + s) for s in range(n)]
        result = play_game(CARTUS, bots, 7000 + g, first_game(len(bots))).game.result
        if hseat in result.winners:
            wins += 1.0 / len(result.winners)
        deaths += result.dead[hseat]
        random_deaths += sum(result.dead[s] for s in range(n) if s != hseat)
    return wins / games, deaths / games, random_deaths / (games * (n - 1))


def test_beats_random_four_players() -> None:
    # Measured: about 95% wins and almost no deaths, random seats die ~85% of the time.
    win, death, random_death = _tournament(4, 40)
    assert win > 0.6
    assert death < random_death


def test_beats_random_two_players() -> None:
    win, death, random_death = _tournament(2, 30)
    assert win > 0.75
    assert death < random_death
