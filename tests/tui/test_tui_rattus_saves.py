"""Offline Rattus games save themselves as they go (told again in the map's words) and
continue from the menu; and the ``rattus play --game rattus`` command opens the map
(``--text``: the plain-text table). The save format itself: ``tests/kit/test_saves.py``."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import Offline, pressing, rattus_table, showing, sync

from rattus_net.cli import main
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.kit.saves import read_save, save_path
from tui.app import RattusNetApp
from tui.common.gameui import continue_offline
from tui.shell.menu import MenuScreen


def play_some(c: Offline, moves: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if c.is_over:
            return
        space = c.view.legal()
        c.apply(space[rng.randrange(len(space))])


def state(c: Offline) -> tuple[Any, ...]:
    v = c.view
    return (
        v.cubes,
        v.token_counts,
        v.palace,
        v.supply,
        v.holders,
        v.plague,
        v.rat_supply,
        [[t and t.text() for t in v.tokens(r)] for r in range(len(v.regions))],
        v.legal(),
    )


def test_a_saved_game_continues_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    c = rattus_table(players=3, seed=4, bots="heuristic", save_to=path)
    play_some(c, 25)
    saved = read_save(path)
    assert saved is not None and saved.bots == "heuristic" and saved.human_seat == 0
    again = continue_offline(saved, save_to=path)
    assert state(again) == state(c)
    assert again.new_log_lines() == c.new_log_lines()  # the whole log, told again
    play_some(again, 4000, seed=1)  # to the end: the save is removed
    assert again.is_over and not path.exists()


@sync
async def test_the_menu_continues_a_saved_rattus_game() -> None:
    c = rattus_table(players=2, seed=9, bots="heuristic", save_to=save_path("rattus"))
    play_some(c, 8)
    before = state(c)
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (pilot, menu):
        assert menu.items[0] == "continue-rattus"
        dialog = await pressing(pilot, app, RattusDialog, "enter")
        assert state(dialog.controller) == before


def test_play_game_rattus_opens_the_map_in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.app

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tui.app, "run_offline", lambda *a: calls.append(a) or 0)
    tty = io.StringIO()
    tty.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", tty)
    monkeypatch.setattr("sys.stdout", tty)
    assert main(["play", "--game", "rattus", "--players", "4", "--seed", "3"]) == 0
    assert calls and calls[0][:4] == ("rattus", 4, "heuristic", 3)


def test_play_game_rattus_text_keeps_the_plain_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tui.app

    monkeypatch.setattr(tui.app, "run_offline", lambda *a: pytest.fail("the map opened"))
    tty = io.StringIO("quit\n")
    tty.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", tty)
    assert main(["play", "--game", "rattus", "--text", "--players", "2", "--seed", "1"]) == 1
    assert "input ended" in capsys.readouterr().err
