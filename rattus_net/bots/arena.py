"""Play whole games between bots on a local table (tests, benchmarks, tuning).

Each bot decides from its own :class:`PlayerView` only; the local table knows every face and
answers the game's requests. Simultaneous supplies are asked seat by seat (the first seat the
game lists), which is what every bot sees as a normal decision.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from rattus_net.bots.base import Bot
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import DecisionKind, Discard, Enter, Give, Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable


@dataclass
class GameStats:
    """What a bot game produced: the finished game and the time each seat spent deciding."""

    game: Game
    think: list[float] = field(default_factory=list)  # seconds per seat
    decisions: list[int] = field(default_factory=list)  # decisions per seat


def play_game(
    bots: Sequence[Bot],
    seed: int,
    config: GameConfig | None = None,
    check_legal: bool = False,
) -> GameStats:
    """Play one game to its end, seat ``i`` played by ``bots[i]``, the table seeded ``seed``.

    ``check_legal`` also asserts that every move a bot returns is in its legal choice space
    (slow for big spaces; for tests)."""
    n = len(bots)
    cfg = config or GameConfig(GameConfig.default_names(n))
    game = Game(cfg)
    table = LocalTable(seed)
    views = [PlayerView(game, s) for s in range(n)]
    stats = GameStats(game, [0.0] * n, [0] * n)
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        seat = d.players[0]
        t0 = time.perf_counter()
        move = bots[seat].choose(views[seat])
        stats.think[seat] += time.perf_counter() - t0
        stats.decisions[seat] += 1
        if check_legal:
            assert is_legal(views[seat], move), (seat, move)
        game.apply(seat, move)
    return stats


def is_legal(view: PlayerView, move: Move) -> bool:
    """Whether ``move`` is one of the seat's legal choices now.

    Entering is checked against the hand directly, because an ENTER space can hold thousands of
    card combinations; every other space is small enough to list."""
    space = view.legal()
    if len(space) == 0:
        return False
    if space.kind is DecisionKind.ENTER and isinstance(move, Enter):
        if not 0 <= move.building < len(view.row):
            return False
        hand = view.hand
        for f in set(move.cards):
            if f in (D.GOLD, D.PASS) or move.cards.count(f) > hand.count(f):
                return False
        return tuple(sorted(move.cards)) == move.cards
    if isinstance(move, Give | Discard):
        d = view.decision
        assert d is not None
        if len(move.cards) > d.count or (isinstance(move, Give) and len(move.cards) != d.count):
            return False
        hand = view.hand
        return all(move.cards.count(f) <= hand.count(f) for f in set(move.cards))
    return move in list(space)
