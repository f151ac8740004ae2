"""Shared helpers of the TUI tests: games brought to a given decision, a pilot driver."""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from waits import Until as Until
from waits import until as until
from waits import waiting as waiting

from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.ui.decline import DeclineDialog
from rattus_net.games.cartus.ui.dialogs import (
    CardsDialog,
    ChoosePlayerDialog,
    DecisionDialog,
    EnterDialog,
    LookDialog,
    SupplyDialog,
)
from rattus_net.games.cartus.ui.recap import RecapScreen
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from rattus_net.kit.offline import OfflineSetup, OfflineTable
from tui.app import RattusNetApp
from tui.common.gameui import new_offline
from tui.shell.menu import MenuScreen

P = ParamSpec("P")
S = TypeVar("S", bound=Screen[Any])
Offline = OfflineTable[Any, Any]


def cartus_table(
    players: int = 3,
    seed: int | None = None,
    bots: str = "random",
    buildings: BuildingSelection | str = "first-game",
    *,
    save_to: Path | None = None,
    advance: bool = True,
) -> Offline:
    """A game of Rattus Cartus against bots as the TUI plays it (the human at seat 0)."""
    text = buildings if isinstance(buildings, str) else buildings.describe()
    setup = OfflineSetup("cartus", players, bots, seed, {"buildings": text})
    return new_offline(setup, save_to=save_to, advance=advance)


def rattus_table(
    players: int = 3,
    seed: int | None = None,
    bots: str = "random",
    components: Path | None = None,
    *,
    save_to: Path | None = None,
    advance: bool = True,
) -> Offline:
    """A game of Rattus against bots as the TUI plays it (the human at seat 0; ``components``:
    a components file of the player's own)."""
    values = {"components": str(components)} if components is not None else {}
    setup = OfflineSetup("rattus", players, bots, seed, values)
    return new_offline(setup, save_to=save_to, advance=advance)


def played_until(
    make: Callable[[int], Offline], wanted: Callable[[Any], bool] | None, seed: int, what: str
) -> Offline:
    """A game (``make(seed)``) where the human's moves are random but seeded, stopped once
    ``wanted(view)`` holds (``None``: at its end); the next seeds are tried (a few hundred) if
    a game never gets there."""
    for s in range(seed, seed + 400):
        c = make(s)
        rng = random.Random(s)
        while not c.is_over:
            if wanted is not None and wanted(c.view):
                return c
            space = c.view.legal()
            c.apply(space[rng.randrange(len(space))])
        if wanted is None:
            return c
    raise AssertionError(f"no game reached {what}")


def controller_at(
    kind: DecisionKind | None,
    players: int = 4,
    seed: int = 1,
    rounds: int = 0,
    buildings: BuildingSelection | None = None,
    reason: str | None = None,
) -> Offline:
    """A game of Rattus Cartus where the human (seat 0) must take a decision of ``kind``
    (``None``: the game is over), at round ``rounds`` or later."""

    def make(s: int) -> Offline:
        return cartus_table(players, s, buildings=buildings or "first-game")

    def wanted(view: Any) -> bool:
        d = view.decision
        return bool(
            d is not None
            and d.kind is kind
            and view.round >= rounds
            and (reason is None or d.reason == reason)
        )

    return played_until(make, None if kind is None else wanted, seed, f"a {kind} decision")


def keys_for(dialog: DecisionDialog, rng: random.Random) -> list[str]:
    """Key presses that make a legal (simple, seeded) choice in ``dialog``."""
    view = dialog.view
    if isinstance(dialog, SupplyDialog):
        card = rng.randrange(len(view.row))
        keys = [str(card + 1), "enter"]  # a digit chooses, Enter confirms
        return [*keys, "enter"] if dialog.looks(card) else keys
    if isinstance(dialog, EnterDialog):
        if dialog.passable and rng.random() < 0.3:
            return ["p", "enter", "enter"]  # a Pass gives up entering now: asked twice
        keys = [str(rng.randrange(len(view.row)) + 1), "enter"]
        if dialog.picker.faces:
            keys += ["1"]  # one card of the first kind
            if len(dialog.picker.faces) > 1 and rng.random() < 0.5:
                keys += ["down", "plus"]
            return [*keys, "enter"]
        return [*keys, "enter", "enter"]  # no card to lay: confirmed twice
    if isinstance(dialog, CardsDialog):
        keys = []
        left = dialog.decision.count if dialog.exact else rng.randrange(dialog.decision.count + 1)
        if left == 0:
            return ["enter", "enter"]  # discarding none gives something up: asked twice
        for f in dialog.picker.faces:
            if left <= 0:
                break
            take = min(left, dialog.picker.held[f])
            left -= take
            keys += [str(take), "down"]
        return [*keys, "enter"]
    if isinstance(dialog, DeclineDialog):  # take (Enter), or decline (d twice) now and then
        return ["d", "d"] if rng.random() < 0.3 else ["enter"]
    if isinstance(dialog, LookDialog | ChoosePlayerDialog):
        return ["down", "enter"] if isinstance(dialog, ChoosePlayerDialog) else ["enter"]
    raise AssertionError(dialog)


async def play_to_end(pilot: Pilot[None], app: RattusNetApp, seed: int = 0) -> set[str]:
    """Drive the open game through its dialogs until the end screen; returns the dialog kinds
    seen."""
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(3000):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return seen
        if isinstance(screen, DecisionDialog):
            seen.add(screen.decision.kind.value)
            await pilot.press(*keys_for(screen, rng))
            assert not screen.error or screen.is_current is False, screen.error
        elif isinstance(screen, TableScreen | RecapScreen):
            await pilot.press("enter")
        await pilot.pause()
    raise AssertionError("the game did not end")


async def pressing(pilot: Pilot[None], app: RattusNetApp, kind: type[S], *keys: str) -> S:
    """Press ``keys``, let the app settle, and return the screen that shows then, which must
    be a ``kind``."""
    await pilot.press(*keys)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, kind), screen
    return screen


async def back_to_menu(pilot: Pilot[None], app: RattusNetApp) -> MenuScreen:
    """Leave the game on screen as a player does (Escape, then q twice: the game is saved)
    and return the menu that shows."""
    return await pressing(pilot, app, MenuScreen, "escape", "q", "q")


async def pushed(pilot: Pilot[None], screen: S) -> S:
    """``screen`` shown over what the app shows, drawn."""
    pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


def text_of(screen: Screen[Any], selector: str) -> str:
    """The text the :class:`Static` ``selector`` of ``screen`` shows."""
    return str(screen.query_one(selector, Static).render())


async def to_dialog(pilot: Pilot[None], app: RattusNetApp) -> DecisionDialog:
    """Wait for the next decision's dialog, going on past a summary of what happened."""
    for _ in range(2000):
        screen = app.screen
        if isinstance(screen, DecisionDialog):
            return screen
        if isinstance(screen, RecapScreen):
            await pilot.press("enter")
        await pilot.pause(0.05)
    raise AssertionError("no dialog opened")


@asynccontextmanager
async def opened(app: RattusNetApp, size: tuple[int, int] = (80, 24)) -> AsyncIterator[Pilot[None]]:
    """``app`` running headless in a terminal of ``size`` (80x24: the smallest one we promise
    to draw well), its first screen drawn."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield pilot


@asynccontextmanager
async def showing(
    app: RattusNetApp, kind: type[S], size: tuple[int, int] = (80, 24)
) -> AsyncIterator[tuple[Pilot[None], S]]:
    """:func:`opened`, and the first screen, which must be a ``kind``."""
    async with opened(app, size) as pilot:
        screen = app.screen
        assert isinstance(screen, kind), screen
        yield pilot, screen


def plays_of(table: Offline) -> list[object]:
    """The moves the player sends from now on, kept in the returned list instead of played
    (the test then sees exactly what one key sent)."""
    played: list[object] = []
    table.play = played.append  # type: ignore[method-assign]
    return played


def sync(fn: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """Run an async test with asyncio.run (no async pytest plugin is needed)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


async def play_network_to_end(
    players: list[tuple[RattusNetApp, Pilot[None]]], rng: random.Random, seconds: float = 240
) -> set[str]:
    """Drive network apps (each with its pilot) through their dialogs until every one shows
    its network end screen; returns the dialog kinds seen."""

    kinds: set[str] = set()
    deadline = time.monotonic() + seconds
    while not all(isinstance(app.screen, EndScreen) for app, _ in players):
        if time.monotonic() > deadline:
            raise AssertionError("the network game did not end")
        for app, pilot in players:
            screen = app.screen
            if isinstance(screen, DecisionDialog):
                kinds.add(screen.decision.kind.value)
                await pilot.press(*keys_for(screen, rng))
            elif isinstance(screen, TableScreen | RecapScreen):
                await pilot.press("enter")
            await pilot.pause(0.02)
    return kinds
