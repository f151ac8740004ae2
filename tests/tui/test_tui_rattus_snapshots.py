"""SVG snapshots of the Rattus map in each phase and its dialogs (fixed seeds and sizes).

Regenerate after a deliberate change with ``pytest tests/tui --snapshot-update`` and look at
the SVG files in ``tests/tui/__snapshots__``.
"""

from __future__ import annotations

from typing import Any

import pytest
from rattus_helpers import rattus_at
from tui_helpers import rattus_table

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.choices import tree_for
from rattus_net.games.rattus.ui.dialog import RattusDialog
from tui.app import RattusNetApp
from tui.common.recap import RecapScreen

SIZE = (80, 24)
LARGE = (120, 40)


def test_map_setup_dialog(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.START, players=4, seed=2))
    assert snap_compare(app, press=["3"], terminal_size=SIZE)


def test_map_play_2p(snap_compare: Any) -> None:
    """The map alone (Escape puts the dialog aside): 2 players, 4 regions greyed."""
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=2, seed=1))
    assert snap_compare(app, press=["escape"], terminal_size=SIZE)


def test_map_play_3p(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=3, seed=4))
    assert snap_compare(app, press=["escape"], terminal_size=SIZE)


def test_dialog_turn_place(snap_compare: Any) -> None:
    """Placing cubes: only regions with tokens are offered, the cursor's region reversed."""
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=4, seed=3))
    assert snap_compare(app, press=["2", "enter", "down"], terminal_size=SIZE)


def test_dialog_plague_move(snap_compare: Any) -> None:
    """After placing: the plague's destinations (the dialog opens again by itself)."""
    c = rattus_at(Kind.TURN, players=4, seed=3)
    top = [o.label for o in tree_for(c.view).options()]
    place = top.index("Place cubes") + 1

    async def run_before(pilot: Any) -> None:
        await pilot.press(str(place), "enter", "enter")
        while not (isinstance(pilot.app.screen, RattusDialog) and c.view.placed):
            await pilot.pause()
        labels = [o.label for o in pilot.app.screen.options]
        plague = next(i for i, label in enumerate(labels) if label.startswith("Move the plague"))
        await pilot.press(str(plague + 1), "enter")

    app = RattusNetApp(table=c)
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_dialog_witch_swap(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.SWAP, players=2, seed=0))
    assert snap_compare(app, terminal_size=SIZE)


def test_dialog_spread(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.SPREAD, players=3, seed=1))
    assert snap_compare(app, terminal_size=SIZE)


def test_dialog_turn_up(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.TURN_UP, players=2, seed=0))
    assert snap_compare(app, terminal_size=SIZE)


def test_dialog_final_round(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(Kind.FINAL, players=4, seed=2))
    assert snap_compare(app, terminal_size=SIZE)


def test_end_screen(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(None, players=4, seed=1))
    assert snap_compare(app, terminal_size=SIZE)


def test_map_large_terminal(snap_compare: Any) -> None:
    """More room: wider boxes, a third line per region with the faces the Witch saw."""
    app = RattusNetApp(table=rattus_at(Kind.SWAP, players=4, seed=17))
    assert snap_compare(app, press=["escape"], terminal_size=LARGE)


def test_end_screen_large(snap_compare: Any) -> None:
    app = RattusNetApp(table=rattus_at(None, players=3, seed=2))
    assert snap_compare(app, terminal_size=LARGE)


def test_map_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=4, seed=5))
    assert snap_compare(app, press=["escape"], terminal_size=SIZE)


def test_rules_rattus(snap_compare: Any) -> None:
    """r on the map: the rules of Rattus."""
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=2, seed=1))
    assert snap_compare(app, press=["escape", "r"], terminal_size=SIZE)


async def _to_an_outbreak_recap(pilot: Any) -> None:
    """Play on (the first option of each dialog) until the recap tells an outbreak."""
    for _ in range(600):
        screen = pilot.app.screen
        if isinstance(screen, RecapScreen):
            if "Outbreak in " in str(screen.text):
                return
            screen.action_next()
        elif isinstance(screen, RattusDialog):
            screen.action_confirm()
        await pilot.pause()
    raise AssertionError("no outbreak told")


def test_since_your_turn(snap_compare: Any) -> None:
    """What happened since your last decision, below the map, the changed regions marked."""
    app = RattusNetApp(table=rattus_table(players=3, seed=6, advance=False))
    assert snap_compare(app, run_before=_to_an_outbreak_recap, terminal_size=SIZE)


def test_since_your_turn_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = RattusNetApp(table=rattus_table(players=3, seed=6, advance=False))
    assert snap_compare(app, run_before=_to_an_outbreak_recap, terminal_size=SIZE)


def test_log_by_player(snap_compare: Any) -> None:
    """The full log, the second seat's lines only."""
    app = RattusNetApp(table=rattus_at(Kind.FINAL, players=4, seed=2))
    assert snap_compare(app, press=["escape", "l", "2"], terminal_size=SIZE)
