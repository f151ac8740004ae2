"""Bots choose from what their seat may know: hidden differences never change a choice."""

from __future__ import annotations

import random

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.bots import CartusBot as Bot
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.bots.search import SearchBot
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import DecisionKind, Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle


def _game(order: list[int], n: int) -> tuple[Game, LocalTable]:
    game = Game(GameConfig(GameConfig.default_names(n), first_player=0))
    table = LocalTable(8, script_shuffles={"population": [tuple(order)]})
    settle(game, table)
    return game, table


def _variants(n: int, seed: int) -> list[tuple[Game, LocalTable]]:
    """Three games differing only in what seat 0 may not see: as dealt, with a card of seat
    1's hand swapped with the bottom deck card, and with nun-row card 3 (never looked at here)
    swapped with another deep deck card."""
    order = D.population_faces()
    random.Random(seed).shuffle(order)
    hand1 = 5 * 2  # order: 5 nun-row cards, then 5 cards per seat, then the deck
    j = len(order) - 1
    while order[j] == order[hand1]:
        j -= 1
    swapped = list(order)
    swapped[hand1], swapped[j] = swapped[j], swapped[hand1]
    k = len(order) - 3
    while order[k] == order[2]:
        k -= 1
    nun = list(order)
    nun[2], nun[k] = nun[k], nun[2]
    return [_game(o, n) for o in (order, swapped, nun)]


def _play_supplies(variants: list[tuple[Game, LocalTable]]) -> None:
    """Play phase B identically everywhere (each seat takes the first legal supply, which
    looks at positions 1 and 2 at most) to reach seat 0's ENTER decision."""
    for g, table in variants:
        while g.decision is not None and g.decision.kind is DecisionKind.SUPPLY:
            seat = g.decision.players[0]
            g.apply(seat, PlayerView(g, seat).legal()[0])
            settle(g, table)


def _choices(kind: str, games: list[Game], seed: int) -> list[tuple[Move, object]]:
    """Each game's choice, with the search statistics behind it (which would differ even
    where the choice happens not to, if anything hidden leaked into the samples)."""
    out: list[tuple[Move, object]] = []
    for g in games:
        if kind == "search":
            search = SearchBot(seed, iterations=16, horizon=1)
            out.append((search.choose(PlayerView(g, 0)), search.last_stats))
        else:
            bot: Bot = make_bot(kind, seed)
            out.append((bot.choose(PlayerView(g, 0)), None))
    return out


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("n", [2, 4])
def test_same_choice_when_only_hidden_cards_differ(kind: str, n: int) -> None:
    for seed in range(2):
        variants = _variants(n, 40 + seed)
        for stage in ("supply", "enter"):
            if stage == "enter":
                _play_supplies(variants)
            games = [g for g, _ in variants]
            assert games[0].decision is not None and 0 in games[0].to_act()
            assert len({tuple(PlayerView(g, 0).hand) for g in games}) == 1
            assert len({tuple(sorted(PlayerView(g, 0).nun_row_known.items())) for g in games}) == 1
            choices = _choices(kind, games, seed)
            assert choices[0] == choices[1] == choices[2], (kind, n, seed, stage, choices)
