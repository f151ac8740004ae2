"""What every game's table does the same way (``tui/common/table.py``), checked on each game's
own table: nothing reads the game while the bots' thread plays it, not even a resize.

(Rattus Cartus's table once redrew itself on a resize while the bots' worker thread changed
the game under it; the Rattus map guarded against it. The table's play is now written once,
for both.)"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import Offline, cartus_table, opened, rattus_table, sync

import tui.common.gameui as gameui
from rattus_net.kit.offline import OfflineTable
from tui.app import RattusNetApp
from tui.common.dialog import GameDialog
from tui.common.gameui import GameUi
from tui.common.generic import GenericEnd, GenericTable, MoveDialog
from tui.common.table import GameTable


class Thinking:
    """Slow bots, by hand: ``advance`` waits in the bots' thread until the test lets it go on,
    and every read of the seat's view made meanwhile is noted."""

    def __init__(self, table: Offline) -> None:
        self.started = threading.Event()
        self.go_on = threading.Event()
        self.reads_meanwhile = 0
        self.reads_after = 0
        real = table.advance
        watch = self

        def advance() -> None:
            watch.started.set()
            assert watch.go_on.wait(30)
            real()

        class Watched(OfflineTable[Any, Any]):
            @property
            def view(self) -> Any:
                if watch.started.is_set() and not watch.go_on.is_set():
                    watch.reads_meanwhile += 1
                elif watch.go_on.is_set():
                    watch.reads_after += 1
                return super().view

        table.advance = advance  # type: ignore[method-assign]
        table.__class__ = Watched


@pytest.mark.parametrize("game", ["cartus", "rattus"])
@sync
async def test_a_resize_while_the_bots_play_in_their_thread_reads_nothing_of_the_game(
    game: str,
) -> None:
    make = cartus_table if game == "cartus" else rattus_table
    table = make(3, 1, "search", advance=False)  # slow bots: they play in a worker thread
    table.bots = {s: table.definition.make_bot("random", s) for s in table.bots}  # (but quick)
    assert not table.quick_bots
    bots = Thinking(table)
    app = RattusNetApp(table=table)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if bots.started.is_set():
                break
        screen = app.screen
        assert isinstance(screen, GameTable) and screen.busy
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.resize_terminal(90, 28)
        await pilot.pause()
        assert bots.reads_meanwhile == 0  # the table kept what it showed
        bots.go_on.set()
        for _ in range(500):
            await pilot.pause(0.02)
            if isinstance(app.screen, GameDialog):
                break
        assert isinstance(app.screen, GameDialog)  # the player's decision, once they are done
        assert not screen.busy and bots.reads_after > 0  # drawn again once they were done


@pytest.mark.slow
@sync
async def test_a_game_without_screens_of_its_own_is_played_on_the_generic_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Any registered game can be played: one without a ``ui`` of its own gets a table that
    lists its legal moves by their text, its log in its own words, and its outcome at the end
    (here Rattus, its own screens set aside)."""
    monkeypatch.setattr(gameui, "_UIS", {"rattus": GameUi()})
    table = rattus_table(2, 3)
    app = RattusNetApp(table=table)
    rng = random.Random(3)
    async with opened(app) as pilot:
        assert any(isinstance(s, GenericTable) for s in app.screen_stack)
        for turn in range(3000):
            screen = app.screen
            if isinstance(screen, GenericEnd):
                break
            if isinstance(screen, MoveDialog):
                legal = table.definition.legal(table.game, 0)
                assert screen.rows() == [table.definition.format_move(m) for m in legal]
                pick = rng.randrange(min(9, len(legal)))
                if turn < 5:  # by the keys, now and then; by the dialog's actions after
                    await pilot.press(str(pick + 1), "enter")
                else:
                    screen.action_digit(pick + 1)
                    screen.action_confirm()
                assert not screen.error, screen.error
            await pilot.pause()
        end = app.screen
        assert isinstance(end, GenericEnd)
        result = str(end.query_one("#g-result", Static).render())
        assert "Winner: " in result and table.names[0] in result
        assert any(line.startswith("New tokens: ") for line in end.log_lines)  # its words


@pytest.mark.parametrize("game", ["cartus", "rattus"])
@sync
async def test_q_over_a_dialog_leaves_the_game_asking_first(game: str) -> None:
    """``q`` works while the decision's dialog is open, as on the table: the first press says
    what leaving does, the second goes back to the menu (the game saved). A q pressed in a
    dialog asks about that moment only: once the move is played, the table asks again."""
    from textual.pilot import Pilot

    from tui.shell.menu import MenuScreen

    async def dialog(pilot: Pilot[None], app: RattusNetApp) -> GameDialog:
        for _ in range(400):
            if isinstance(app.screen, GameDialog) and app.screen.leave is not None:
                return app.screen
            await pilot.pause(0.05)
        raise AssertionError("no dialog opened")

    app = RattusNetApp(seed=3)
    async with opened(app) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        menu.choose_game(game)
        menu.look_for_save()
        await pilot.press("enter")
        first = await dialog(pilot, app)
        shown = {a.binding.description for k, a in first.active_bindings.items() if k == "q"}
        assert shown == {"Leave game"}  # (in the footer, and in the keys' help)
        await pilot.press("q")
        assert app.screen is first
        assert any("Press q again" in n.message for n in app._notifications)
        await pilot.press("escape", "enter")  # the dialog aside and back: it still asks
        again = await dialog(pilot, app)
        await pilot.press("q")
        assert app.screen is again  # (the first q was forgotten with the dialog)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert f"continue-{game}" in app.screen.items
