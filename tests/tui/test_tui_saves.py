"""Offline games are saved as they go and continued from the menu; a damaged save is said
plainly; a killed `rattus play` leaves a save that continues."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest
from net.procs import rattus
from test_tui_cli import Terminal
from test_tui_network import _fits
from textual.widgets import Static
from tui_helpers import keys_for, play_to_end, sync, to_dialog

from rattus_net.games.cartus.view import PlayerView
from rattus_net.report import state_dict
from tui.app import RattusApp
from tui.cartus.controller import OfflineGame, OfflineOptions
from tui.cartus.dialogs import DecisionDialog
from tui.cartus.news import NewsScreen
from tui.cartus.saves import read_save, save_path
from tui.cartus.screens import EndScreen, TableScreen
from tui.saves import SaveError
from tui.screens import MenuScreen


def play_human_turns(game: OfflineGame, turns: int, rng: random.Random) -> None:
    for _ in range(turns):
        space = game.view.legal()
        game.apply(space[rng.randrange(len(space))])


@pytest.mark.parametrize(("players", "bots"), [(2, "random"), (4, "heuristic")])
def test_a_saved_game_continues_exactly_where_it_stopped(
    tmp_path: Path, players: int, bots: str
) -> None:
    path = tmp_path / "save.json"
    game = OfflineGame(OfflineOptions(players=players, bots=bots, seed=7), save_to=path)
    play_human_turns(game, 12, random.Random(1))
    saved = read_save(path)
    assert saved is not None and saved.bots == bots and saved.human_seat == 0
    assert saved.round == game.game.round and saved.rounds == game.game.plan.rounds
    again = OfflineGame.continued(saved, save_to=path)
    # every card, every counter, the decision awaited and the log are the same
    assert state_dict(again.game) == state_dict(game.game)
    assert again.game.decision == game.game.decision
    assert again.new_log_lines() == OfflineGame.continued(saved).new_log_lines()
    assert len(again.view.events(0)) == len(PlayerView(game.game, 0).events(0))
    # and it plays on to the end, when the save goes away
    rng = random.Random(2)
    while not again.is_over:
        play_human_turns(again, 1, rng)
    assert not path.exists()


def test_damaged_or_foreign_saves_are_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    assert read_save(path) is None
    for text, words in (
        ("{not json", "damaged (not JSON)"),
        (json.dumps({"kind": "other"}), "another version"),
        (
            json.dumps(
                {"kind": "rattus-offline-save", "version": 2, "bots": "random",
                 "human_seat": 0, "round": 1, "rounds": 9, "record": {"format": "x"}}
            ),
            "damaged: not a game record",
        ),
        (
            json.dumps({"kind": "rattus-offline-save", "version": 1}),
            "written by another version",  # before the optional actions of ruling 17
        ),
    ):  # fmt: skip
        path.write_text(text)
        with pytest.raises(SaveError, match=re.escape(words)):
            read_save(path)


@pytest.mark.slow
@sync
async def test_leave_a_game_then_continue_it_from_the_menu() -> None:
    app = RattusApp(seed=4)
    rng = random.Random(4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # a new game with the menu's settings
        for _ in range(6):  # a few of the human's decisions
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, DecisionDialog):
                await pilot.press(*keys_for(screen, rng))
            elif isinstance(screen, TableScreen | NewsScreen):
                await pilot.press("enter")
        await to_dialog(pilot, app)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        before = state_dict(table.controller.game)  # type: ignore[attr-defined]
        await pilot.press("escape", "q", "q")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        body = str(menu.query_one("#menu-body", Static).render())
        assert "> Continue the saved game (round " in body and "a new game" in body
        await pilot.press("enter")
        await pilot.pause()
        await to_dialog(pilot, app)
        resumed = app.screen_stack[-2]
        assert isinstance(resumed, TableScreen)
        assert state_dict(resumed.controller.game) == before  # type: ignore[attr-defined]
        await play_to_end(pilot, app, 4)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert "Continue" not in str(app.screen.query_one("#menu-body", Static).render())
        assert not save_path().exists()


@sync
async def test_the_menu_says_when_a_save_cannot_be_continued() -> None:
    save_path().parent.mkdir(parents=True, exist_ok=True)
    save_path().write_text("{not json")
    app = RattusApp(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert "Continue" not in str(menu.query_one("#menu-body", Static).render())
        assert "damaged" in str(menu.query_one("#menu-help", Static).render())


@pytest.mark.slow
def test_a_killed_rattus_play_leaves_a_save_that_continues(tmp_path: Path) -> None:
    env = {**os.environ, "TERM": "xterm-256color", "RATTUS_DATA_DIR": str(tmp_path)}
    term = Terminal(rattus(["play", "--players", "3", "--bots", "random"]), env)
    try:
        term.read_until([b"YOUR TURN"], 30)
        deadline = time.monotonic() + 10  # saved as the human is awaited
        while not (tmp_path / "offline-game.json").exists():
            assert time.monotonic() < deadline, "no save"
            time.sleep(0.02)
        os.kill(term.proc.pid, signal.SIGKILL)
        term.proc.wait(10)
    finally:
        term.close()
    saved = read_save(tmp_path / "offline-game.json")
    assert saved is not None and saved.round == 1 and len(saved.record.players) == 3
    game = OfflineGame.continued(saved)
    assert game.view.my_turn and game.game.round == 1


@sync
async def test_the_menu_with_both_ways_back_fits_80x24() -> None:
    game = OfflineGame(OfflineOptions(players=3, seed=2), save_to=save_path())
    assert save_path().exists() and not game.is_over
    gid = "ab" * 32  # a network game a person played here, stopped in the middle
    (save_path().parent / "games" / gid).mkdir(parents=True)
    (save_path().parent / "games" / gid / "journal.bin").write_bytes(b"")
    meta = {"table": "Kitchen", "seat": 1, "players": ["Hana", "Gus"], "status": "playing",
            "listen": ["127.0.0.1", 7000], "bot": "human"}  # fmt: skip
    (save_path().parent / "games" / gid / "meta.json").write_text(json.dumps(meta))
    app = RattusApp(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        body = str(app.screen.query_one("#menu-body", Static).render())
        assert body.startswith(
            "> Back to the network game (Rattus Cartus at 'Kitchen', you are Gus)"
        )
        assert "  Continue the saved game (round 1 of 9, 3 players)" in body
        _fits(app)


def test_a_game_goes_on_when_it_cannot_be_saved(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    game = OfflineGame(OfflineOptions(players=2, seed=3), save_to=blocker / "save.json")
    assert game.save_problem is not None and "cannot be saved" in game.save_problem
    assert game.save_problem in game.new_log_lines()  # said once, in the log
    play_human_turns(game, 3, random.Random(3))
    assert game.save_problem not in game.new_log_lines()
    assert game.view.my_turn or game.is_over  # and the game goes on
