"""The offline save does not hold up the screen: at the table, the game hands each state to the
save's own writer thread, once per human decision (the writer itself:
``tests/kit/test_saves.py``); a quick bot that fails is said on the table.

Writes are counted and the writing thread is checked; nothing here measures time."""

from __future__ import annotations

import random

import pytest
from savewrites import Writes
from textual.widgets import Static
from tui_helpers import cartus_table, keys_for, opened, sync, to_dialog

from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.kit.offline import OfflineTable
from tui.app import RattusNetApp


@sync
async def test_at_the_table_each_decision_hands_one_save_to_the_save_thread(
    writes: Writes,
) -> None:
    """The table screen (quick bots play on its own loop): one state handed over per
    decision, and every write on the save's thread, never on the screen's."""
    app = RattusNetApp(seed=4)
    rng = random.Random(4)
    async with opened(app) as pilot:
        await pilot.press("p")  # a new game with the menu's settings (quick bots)
        await to_dialog(pilot, app)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen) and isinstance(table.controller, OfflineTable)
        assert table.controller.quick_bots
        saver = table.controller.saver
        assert saver is not None
        before = saver.submitted
        for _ in range(5):
            dialog = await to_dialog(pilot, app)
            await pilot.press(*keys_for(dialog, rng))
        await to_dialog(pilot, app)
        saver.wait()
        assert saver.submitted - before == 5
        assert writes.threads and set(writes.threads) == {"rattus-save-writer"}


@sync
async def test_a_quick_bot_that_fails_is_said_on_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cartus_table(players=3, bots="random", seed=2)
    assert game.quick_bots

    def broken(view: object) -> None:
        raise RuntimeError("bot lost its marbles")

    for bot in game.bots.values():
        monkeypatch.setattr(bot, "choose", broken)
    app = RattusNetApp(table=game)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await to_dialog(pilot, app)
        await pilot.press(*keys_for(dialog, random.Random(1)))
        for _ in range(100):
            await pilot.pause(0.02)
            awaited = str(app.screen.query_one("#awaited", Static).render())
            if "failed" in awaited:
                break
        assert isinstance(app.screen, TableScreen)
        assert "A bot or the table failed: bot lost its marbles" in awaited
