"""TUI benchmark: time to the first rendered table, time to apply a decision and repaint, and
how long the screen's loop is held up during a TUI-hosted network game with bot seats.

Run: ``.venv/bin/python benchmarks/tui.py [--players N] [--bots KIND] [--decisions K]
[--hosted N] [--idle SECONDS] [--only-idle] [--cpu]``; ``--idle`` also measures the CPU an
idle hosted network game uses (nobody acting).
Prints figures; asserts nothing. Uses ``App.run_test`` (headless, 80x24). Both games are
played in the same run (Rattus Cartus, then Rattus with at most 4 players), the human's
choices seeded, and the figures of both are printed, then together.

Two ways of timing a decision are printed:

* **Pilot round trip** (the old figure): from ``pilot.press`` to the next screen, including the
  Pilot's own waits for the app to be idle (even a cursor key costs tens of ms that way).
* **In-app** (the real figure): from the moment the app receives the key event that applies the
  move (``App.on_event``) to the end of the compositor refresh that paints the result
  (``Screen._compositor_refresh``, Textual's own paint step: layout, render, diff). "The move
  painted" is the first paint showing the table (its own, or a panel's over it) once the table
  drew the game anew after the key; "next dialog" is the paint of what the player sees next
  (his next dialog, the recap of what happened, the end), so it includes the bots' thinking.
  A Rattus map that waits for Enter after an outbreak is not counted there. Headless, the
  bytes are not written to a terminal; at 80x24 that is a few kilobytes per paint. On a
  machine others load too, ``--cpu`` counts the CPU time of the screen's thread instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tui"))

from textual import events
from textual.screen import Screen
from tui_helpers import cartus_table, keys_for

from rattus_net.bots import BOT_KINDS
from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.cartus.ui.recap import RecapScreen
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from tui.app import RattusNetApp
from tui.common.table import GameTable

CLOCK: list[Callable[[], float]] = [time.perf_counter]
"""The clock of the in-app figures: wall time, or with ``--cpu`` the CPU time of the screen's
thread (``time.thread_time``: steadier on a machine others load too; quick bots play on that
thread, so they are counted, but not the bots of a worker thread)."""
PAINTS: list[tuple[float, Screen[Any]]] = []
DRAWS: list[float] = []  # when a table drew the game anew (GameTable.redraw)
# paints that show the table: its own, or a dialog's or the recap's over it (modal screens)
OVER_TABLE = (TableScreen, DecisionDialog, RecapScreen)
_refresh = Screen._compositor_refresh
_redraw = GameTable.redraw


def _timed_refresh(self: Screen[Any]) -> None:
    _refresh(self)
    if self is self.app.screen:
        PAINTS.append((CLOCK[0](), self))


def _timed_redraw(self: GameTable) -> list[str]:
    DRAWS.append(CLOCK[0]())
    return _redraw(self)


Screen._compositor_refresh = _timed_refresh  # type: ignore[method-assign]
GameTable.redraw = _timed_redraw  # type: ignore[method-assign]


@dataclass(frozen=True)
class Bench:
    """What the benchmark needs of a game's screens."""

    title: str
    table: Callable[[int, int, str], Any]  # (players, seed, bots) -> an offline table
    dialog: type[Screen[Any]]
    over_table: tuple[type[Screen[Any]], ...]  # screens that show the table (painted over it)
    next_seen: tuple[type[Screen[Any]], ...]  # what the player sees next: dialog, recap, end
    end: type[Screen[Any]]
    keys: Callable[[Any, random.Random], list[str]]


def _benches() -> list[Bench]:
    from rattus_helpers import keys_for as rattus_keys
    from tui_helpers import rattus_table

    from rattus_net.games.rattus.ui.dialog import RattusDialog
    from rattus_net.games.rattus.ui.table import RattusEndScreen, RattusMapScreen

    return [
        Bench(
            "Rattus Cartus",
            lambda n, seed, bots: cartus_table(n, seed, bots, advance=False),
            DecisionDialog,
            OVER_TABLE,
            (DecisionDialog, EndScreen, RecapScreen),
            EndScreen,
            keys_for,
        ),
        Bench(
            "Rattus",
            lambda n, seed, bots: rattus_table(min(n, 4), seed, bots, advance=False),
            RattusDialog,
            (RattusMapScreen, RattusDialog),
            (RattusDialog, RattusEndScreen),
            RattusEndScreen,
            rattus_keys,
        ),
    ]


class TimedApp(RattusNetApp):
    """Notes when each key event reaches the app."""

    CSS_PATH = str(Path(__file__).resolve().parents[1] / "tui" / "rattus_net.tcss")
    key_times: list[float]

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.key_times.append(CLOCK[0]())
        await super().on_event(event)


def first_paint(after: float, kind: Any, not_screen: object = None) -> float | None:
    for t, screen in PAINTS:
        if t > after and isinstance(screen, kind) and screen is not not_screen:
            return t - after
    return None


def ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"median {statistics.median(values) * 1000:.1f} ms, "
        f"p90 {sorted(values)[int(len(values) * 0.9)] * 1000:.1f} ms, "
        f"max {max(values) * 1000:.1f} ms (n={len(values)})"
    )


def first_draw(after: float) -> float:
    """The first time a table drew the game anew after ``after`` (or ``after``)."""
    return next((t for t in DRAWS if t > after), after)


def p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)] if values else float("nan")


async def measure(bench: Bench, players: int, bots: str, decisions: int, seed: int) -> Figures:
    """Play ``decisions`` of the human's decisions by keys; figures in seconds."""
    t0 = CLOCK[0]()
    app = TimedApp(table=bench.table(players, seed, bots))
    app.key_times = []
    fig = Figures(bench.title)
    waiting = (bench.dialog, bench.end, *bench.next_seen)
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, waiting):
            await pilot.pause()
        await pilot.pause()
        fig.first = CLOCK[0]() - t0
        fig.painted = first_paint(t0, bench.over_table)
        rng = random.Random(seed)
        while len(fig.steps) < decisions and not isinstance(app.screen, bench.end):
            screen = app.screen
            if not isinstance(screen, bench.dialog):
                await pilot.press("enter")  # a recap read, or the map looked at
                await pilot.pause()
                continue
            keys = bench.keys(screen, rng)
            await pilot.press(*keys[:-1])  # choosing inside the dialog is not measured
            t = CLOCK[0]()
            await pilot.press(keys[-1])  # the key that applies the move (or a dialog's step)
            if app.screen is screen:
                await pilot.pause()
            if app.screen is screen:
                continue  # the next step of the same decision (Rattus)
            while app.screen is screen:
                await pilot.pause()
            await pilot.pause()  # the next screen (table or dialog) has painted
            fig.steps.append(CLOCK[0]() - t)
            key = app.key_times[-1]
            # the move painted: the first paint showing the table once it drew the move
            a = first_paint(first_draw(key), bench.over_table, not_screen=screen)
            if a is not None:
                fig.applied.append(a + first_draw(key) - key)
            for _ in range(200):
                if isinstance(app.screen, waiting) or getattr(app.screen, "looking", False):
                    break
                await pilot.pause()
            await pilot.pause()
            # the next thing the player sees: his next dialog, or first the summary of what
            # happened meanwhile (a map waiting for Enter after an outbreak is not counted)
            n = first_paint(key, bench.next_seen, not_screen=screen)
            if n is not None:
                fig.next_decision.append(n)
    return fig


@dataclass
class Figures:
    """One game's figures (seconds)."""

    title: str
    first: float = 0.0
    painted: float | None = None
    steps: list[float] = field(default_factory=list)
    applied: list[float] = field(default_factory=list)
    next_decision: list[float] = field(default_factory=list)

    def show(self, players: int, bots: str) -> None:
        print(f"{self.title}: players={players} bots={bots}")
        print(f"  app start to first rendered table (Pilot): {self.first * 1000:8.1f} ms")
        if self.painted is not None:
            print(f"  app start to the table's first paint (in-app): {self.painted * 1000:8.1f} ms")
        print(f"  Pilot round trip per decision: {ms(self.steps)}")
        print(f"  in-app, key to the move painted on the table: {ms(self.applied)}")
        print(f"  in-app, key to the next dialog painted (bots included): {ms(self.next_decision)}")


def engine_only(players: int, bots: str, seed: int) -> None:
    """The same game without the UI: what the engine and the bots cost per human decision."""
    c = cartus_table(players=players, bots=bots, seed=seed)
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


async def cold_child() -> None:
    """In a fresh process: run the app until the table's first paint, then exit."""
    app = TimedApp(table=cartus_table(4, 1, "random", advance=False))
    app.key_times = []
    async with app.run_test(size=(80, 24)) as pilot:
        while not any(isinstance(s, OVER_TABLE) for _, s in PAINTS):
            await pilot.pause(0.001)
        while not isinstance(app.screen, DecisionDialog):  # (not quitting mid-way through)
            await pilot.pause(0.01)


def cold_start() -> None:
    """A new Python process, imports included, to the table's first paint (best of 3)."""
    import subprocess

    times = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--cold-child"], check=True)
        times.append(time.perf_counter() - t)
    best = min(times) * 1000
    print(f"  new process to the table's first paint (imports included): {best:.0f} ms")


@contextlib.asynccontextmanager
async def hosted_table(name: str, players: int) -> AsyncIterator[tuple[RattusNetApp, Any]]:
    """A Rattus Cartus network table hosted by the app (at 80x24), its other seats filled with
    bot seats, not started yet."""
    import tempfile

    from rattus_net.net.lobby import TableOptions
    from rattus_net.net.tables import HostLobby

    root = Path(tempfile.mkdtemp(prefix="rattus-bench-"))
    options = TableOptions.of("cartus", players, buildings="first-game")
    lobby = HostLobby(name, options, "Hana", advertise=False, root=root)
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        while lobby.hosted is None:
            await pilot.pause(0.05)
        await pilot.press(*["b"] * (players - 1))
        while len(lobby.state.seats) < players:
            await pilot.pause(0.05)
        yield app, pilot


async def hosted_lag(players: int, seed: int) -> None:
    """How long the screen's loop is blocked while a TUI-hosted network game runs: the human
    seat (driven by keys) and ``players - 1`` bot seats in this process, over loopback. A
    ticker asks for 5 ms sleeps; lateness is time the screen could not react to a key."""
    from tui_helpers import play_network_to_end

    late: list[float] = []

    async def ticker() -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            late.append(time.perf_counter() - t - 0.005)

    async with hosted_table("Bench", players) as (app, pilot):
        ticking = asyncio.get_running_loop().create_task(ticker())
        started = time.perf_counter()
        await pilot.press("space")
        await play_network_to_end([(app, pilot)], random.Random(seed), 900)
        took = time.perf_counter() - started
        ticking.cancel()
    late.sort()
    over = sum(x > 0.1 for x in late)
    over50 = sum(x > 0.05 for x in late)
    print(
        f"  hosted network game, {players} players ({players - 1} bot seats in this process): "
        f"{took:.1f} s; screen loop late by p50 {late[len(late) // 2] * 1000:.1f} ms, "
        f"p99 {late[int(len(late) * 0.99)] * 1000:.0f} ms, max {late[-1] * 1000:.0f} ms "
        f"({over50} of {len(late)} ticks over 50 ms, {over} over 100 ms)"
    )


async def idle_cpu(players: int, seconds: float) -> None:
    """CPU used by this process (the screen, the node, the bot seats' thread) while a hosted
    network game waits for the human's decision and nobody acts."""
    async with hosted_table("Idle", players) as (app, pilot):
        await pilot.press("space")
        while not isinstance(app.screen, DecisionDialog):
            await pilot.pause(0.1)
        await asyncio.sleep(1.0)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        app.exit()
    print(
        f"  idle hosted network game, {players} players, nobody acting for {wall:.0f} s: "
        f"{100 * cpu / wall:.2f}% of a core"
    )


def main() -> None:
    import os
    import tempfile

    # offline games save themselves as they go: not into the user's own data directory
    os.environ.setdefault("RATTUS_DATA_DIR", tempfile.mkdtemp(prefix="rattus-bench-"))
    if "--cold-child" in sys.argv:
        asyncio.run(cold_child())
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", choices=BOT_KINDS, default="random")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--hosted", type=int, default=5, help="players at the hosted network table (0: skip)"
    )
    parser.add_argument(
        "--idle", type=float, default=10.0, help="seconds of an idle network game (0: skip)"
    )
    parser.add_argument("--only-idle", action="store_true", help="measure the idle game only")
    parser.add_argument(
        "--cpu", action="store_true", help="in-app figures in the screen thread's CPU time"
    )
    args = parser.parse_args()
    if args.idle:
        asyncio.run(idle_cpu(max(2, args.hosted or 3), args.idle))
    if args.only_idle:
        return
    if args.cpu:
        CLOCK[0] = time.thread_time
        print("(in-app figures in CPU time of the screen's thread, not wall time)")
    figures = [
        asyncio.run(measure(bench, args.players, args.bots, args.decisions, args.seed))
        for bench in _benches()
    ]
    for f in figures:
        f.show(args.players, args.bots)
    print(
        f"  both games: key to the move painted p90 "
        f"{p90([a for f in figures for a in f.applied]) * 1000:.1f} ms (target 16), "
        f"key to the next dialog painted p90 "
        f"{p90([a for f in figures for a in f.next_decision]) * 1000:.1f} ms (target 50)"
    )
    engine_only(args.players, args.bots, args.seed)
    cold_start()
    if args.hosted:
        asyncio.run(hosted_lag(args.hosted, args.seed))


if __name__ == "__main__":
    main()
