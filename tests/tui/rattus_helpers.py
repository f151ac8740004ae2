"""Shared helpers of the Rattus TUI tests: games brought to a decision, a pilot driver."""

from __future__ import annotations

import random
from typing import Any

from textual.pilot import Pilot
from tui_helpers import Offline, played_until, rattus_table

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import RattusEndScreen, RattusMapScreen
from tui.app import RattusNetApp
from tui.common.recap import RecapScreen


def rattus_at(kind: Kind | None, players: int = 3, seed: int = 0, bots: str = "random") -> Offline:
    """A game where the human (seat 0) must take a decision of ``kind`` (``None``: the game
    is over); the human's earlier moves are random but seeded."""

    def wanted(view: Any) -> bool:
        return view.decision is not None and view.decision.kind is kind

    return played_until(
        lambda s: rattus_table(players, s, bots),
        None if kind is None else wanted,
        seed,
        f"a {kind} decision",
    )


def keys_for(dialog: RattusDialog, rng: random.Random) -> list[str]:
    """Keys that choose a seeded random option of the dialog's current step and confirm it:
    a digit for the first nine, the arrow keys beyond."""
    options = dialog.options
    count = len(options)
    assert count, "a dialog step without options"
    i = rng.randrange(count)
    if not dialog.choices.chosen and rng.random() < 0.7:  # mostly: place, then the plague
        labels = [o.label for o in options]
        for top in ("Move the plague", "Place cubes"):
            first = next((j for j, label in enumerate(labels) if label.startswith(top)), None)
            if first is not None:
                i = first
                break
    if i == 0 or rng.random() < 0.4:  # Enter alone takes the option under the cursor
        return ["enter"]
    if i < 9:
        return [str(i + 1), "enter"]
    return ["down"] * i + ["enter"]


async def play_rattus_to_end(
    pilot: Pilot[None], app: RattusNetApp, seed: int, keys: bool = True
) -> set[str]:
    """Drive the open Rattus game through its dialogs to the end screen; returns the kinds
    of the decisions the human took. ``keys``: by key presses; else by the dialog's own
    actions (the same code the keys run, without the pilot's per-key wait)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(4000):
        screen = app.screen
        if isinstance(screen, RattusEndScreen):
            return seen
        if isinstance(screen, RattusDialog):
            seen.add(screen.kind.value)
            chosen = keys_for(screen, rng)
            if keys:
                await pilot.press(*chosen)
            else:
                for key in chosen:
                    if key == "enter":
                        screen.action_confirm()
                    elif key == "down":
                        screen.action_cursor(1)
                    else:
                        screen.action_digit(int(key))
                if app.screen is not screen:
                    await pilot.pause()
            assert not screen.error, screen.error
        elif isinstance(screen, RecapScreen):  # what happened since the last decision
            seen.add("recap")
            await pilot.press("enter")
        elif isinstance(screen, RattusMapScreen):
            await pilot.press("enter")
            await pilot.pause()  # the bots play in a worker thread
    raise AssertionError("the game did not end")
