"""Offline games are saved as they go and continued from the menu; a damaged save is said
plainly in the menu; a killed `rattus play` leaves a save that continues. (The save format and
the offline table itself: ``tests/kit/test_saves.py``, ``tests/kit/test_offline.py``.)"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
from net.procs import rattus
from net.terminal import Terminal
from test_tui_network import _fits
from textual.widgets import Static
from tui_helpers import (
    Offline,
    back_to_menu,
    cartus_table,
    keys_for,
    opened,
    play_to_end,
    showing,
    sync,
    text_of,
    to_dialog,
)

from rattus_net.games.cartus.report import state_dict
from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.cartus.ui.recap import RecapScreen
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from rattus_net.kit.saves import read_save, save_path
from tui.app import RattusNetApp
from tui.common.gameui import continue_offline
from tui.shell.menu import MenuScreen


def play_human_turns(game: Offline, turns: int, rng: random.Random) -> None:
    for _ in range(turns):
        space = game.view.legal()
        game.apply(space[rng.randrange(len(space))])


@pytest.mark.slow
@sync
async def test_leave_a_game_then_continue_it_from_the_menu() -> None:
    app = RattusNetApp(seed=4)
    rng = random.Random(4)
    async with opened(app) as pilot:
        await pilot.press("p")  # a new game with the menu's settings
        for _ in range(6):  # a few of the human's decisions
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, DecisionDialog):
                await pilot.press(*keys_for(screen, rng))
            elif isinstance(screen, TableScreen | RecapScreen):
                await pilot.press("enter")
        await to_dialog(pilot, app)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        before = state_dict(table.controller.game)  # type: ignore[attr-defined]
        menu = await back_to_menu(pilot, app)
        body = text_of(menu, "#menu-body")
        assert "> Continue the saved game of Rattus Cartus (round " in body and "a new game" in body
        await pilot.press("enter")
        await pilot.pause()
        await to_dialog(pilot, app)
        resumed = app.screen_stack[-2]
        assert isinstance(resumed, TableScreen)
        assert state_dict(resumed.controller.game) == before  # type: ignore[attr-defined]
        await play_to_end(pilot, app, 4)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("enter")  # typed ahead: does not skip the result
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert "Continue" not in str(app.screen.query_one("#menu-body", Static).render())
        assert not save_path("cartus").exists()


@sync
async def test_the_menu_says_when_a_save_cannot_be_continued() -> None:
    save_path("cartus").parent.mkdir(parents=True, exist_ok=True)
    save_path("cartus").write_text("{not json")
    app = RattusNetApp(seed=4)
    async with showing(app, MenuScreen) as (_pilot, menu):
        assert "Continue" not in text_of(menu, "#menu-body")
        assert "damaged" in text_of(menu, "#menu-help")


@pytest.mark.slow
def test_a_killed_rattus_play_leaves_a_save_that_continues(tmp_path: Path) -> None:
    env = {**os.environ, "TERM": "xterm-256color", "RATTUS_DATA_DIR": str(tmp_path)}
    term = Terminal(rattus(["play", "--players", "3", "--bots", "random"]), env)
    try:
        term.read_until([b"YOUR TURN"], 30)
        deadline = time.monotonic() + 10  # saved as the human is awaited
        while not (tmp_path / "offline-cartus.json").exists():
            assert time.monotonic() < deadline, "no save"
            time.sleep(0.02)
        os.kill(term.proc.pid, signal.SIGKILL)
        term.proc.wait(10)
    finally:
        term.close()
    saved = read_save(tmp_path / "offline-cartus.json")
    assert saved is not None and saved.progress == "round 1 of 9" and len(saved.names) == 3
    game = continue_offline(saved)
    assert game.view.my_turn and game.game.round == 1


@sync
async def test_the_menu_with_both_ways_back_fits_80x24() -> None:
    game = cartus_table(players=3, seed=2, save_to=save_path("cartus"))
    assert save_path("cartus").exists() and not game.is_over
    gid = "ab" * 32  # a network game a person played here, stopped in the middle
    seat = save_path("cartus").parent / "games" / gid / "seat-2"
    seat.mkdir(parents=True)
    (seat / "journal.bin").write_bytes(b"")
    meta = {"table": "Kitchen", "seat": 1, "players": ["Hana", "Gus"], "status": "playing",
            "listen": ["127.0.0.1", 7000], "bot": "human", "game": "cartus"}  # fmt: skip
    (seat / "meta.json").write_text(json.dumps(meta))
    app = RattusNetApp(seed=4)
    async with opened(app):
        body = str(app.screen.query_one("#menu-body", Static).render())
        assert body.startswith(
            "> Back to the network game (Rattus Cartus at 'Kitchen', you are Gus)"
        )
        assert "  Continue the saved game of Rattus Cartus (round 1 of 9, 3 players)" in body
        _fits(app)
