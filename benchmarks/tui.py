"""TUI benchmark: time to the first rendered table, and time to apply a decision and repaint.

Run: ``.venv/bin/python benchmarks/tui.py [--players N] [--bots KIND] [--decisions K]``.
Prints figures; asserts nothing. Uses ``App.run_test`` (headless, 80x24).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tui"))

from tui_helpers import keys_for

from rattus_net.bots import BOT_KINDS
from tui.app import RattusApp
from tui.controller import OfflineGame, OfflineOptions
from tui.dialogs import DecisionDialog
from tui.screens import EndScreen, TableScreen


async def measure(players: int, bots: str, decisions: int, seed: int) -> None:
    options = OfflineOptions(players=players, bots=bots, seed=seed)
    t0 = time.perf_counter()
    app = RattusApp(options)
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, DecisionDialog | TableScreen):
            await pilot.pause()
        await pilot.pause()
        first = time.perf_counter() - t0
        rng = random.Random(seed)
        steps: list[float] = []
        while len(steps) < decisions and not isinstance(app.screen, EndScreen):
            screen = app.screen
            if not isinstance(screen, DecisionDialog):
                await pilot.press("enter")
                await pilot.pause()
                continue
            keys = keys_for(screen, rng)
            await pilot.press(*keys[:-1])  # choosing inside the dialog is not measured
            t = time.perf_counter()
            await pilot.press(keys[-1])  # the key that applies the move
            while app.screen is screen:
                await pilot.pause()
            await pilot.pause()  # the next screen (table or dialog) has painted
            steps.append(time.perf_counter() - t)
    print(f"players={players} bots={bots}")
    print(f"  start to first rendered table: {first * 1000:8.1f} ms")
    if steps:
        print(
            f"  apply a decision and repaint ({len(steps)} decisions, bots' turns included): "
            f"median {statistics.median(steps) * 1000:.1f} ms, "
            f"max {max(steps) * 1000:.1f} ms"
        )


def engine_only(players: int, bots: str, seed: int) -> None:
    """The same game without the UI: what the engine and the bots cost per human decision."""
    c = OfflineGame(OfflineOptions(players=players, bots=bots, seed=seed))
    rng = random.Random(seed)
    times = []
    while not c.is_over:
        space = c.view.legal()
        move = space[rng.randrange(len(space))]
        t = time.perf_counter()
        c.apply(move)
        c.new_log_lines()
        times.append(time.perf_counter() - t)
    print(
        f"  engine + bots only, per human decision: median "
        f"{statistics.median(times) * 1000:.2f} ms over {len(times)} decisions"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", choices=BOT_KINDS, default="random")
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(measure(args.players, args.bots, args.decisions, args.seed))
    engine_only(args.players, args.bots, args.seed)


if __name__ == "__main__":
    main()
