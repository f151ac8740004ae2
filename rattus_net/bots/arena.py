"""Play whole games between bots on a local table, any game (tests, benchmarks, tuning).

Each bot decides from its own seat's view only; the local table knows every face and answers
the game's requests. A decision several seats take at once is asked seat by seat (the first
seat the game lists), which is what every bot sees as a normal decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rattus_net.kit.interface import AnyGame, Bot
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


@dataclass
class GameStats:
    """What a bot game produced: the finished game and the time each seat spent deciding."""

    game: Any
    think: list[float] = field(default_factory=list)  # seconds per seat
    decisions: list[int] = field(default_factory=list)  # decisions per seat


def play_game(
    game: AnyGame,
    bots: Sequence[Bot[Any, Any]],
    seed: int,
    config: Any = None,
    check_legal: Callable[[Any, Any], bool] | None = None,
) -> GameStats:
    """Play one game of ``game`` to its end, seat ``i`` played by ``bots[i]``, the table
    seeded ``seed``; ``config`` (default: the players ``P1``, ``P2``... with the game's
    default options). ``check_legal(view, move)`` asserts every move a bot returns."""
    n = len(bots)
    cfg = config or game.configure([f"P{i + 1}" for i in range(n)], {})
    state = game.new_game(cfg)
    views = [game.view(state, s) for s in range(n)]
    stats = GameStats(state, [0.0] * n, [0] * n)

    def choose(_: Any, seat: int) -> Any:
        t0 = time.perf_counter()
        move = bots[seat].choose(views[seat])
        stats.think[seat] += time.perf_counter() - t0
        stats.decisions[seat] += 1
        if check_legal is not None:
            assert check_legal(views[seat], move), (seat, move)
        return move

    play_to_end(state, LocalTable(seed), choose)
    return stats
