"""Offline Rattus games save themselves as they go and continue from the menu; and the
``rattus play --game rattus`` command opens the map (``--text``: the plain-text table)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import sync

from rattus_net.cli import main
from rattus_net.games.rattus.loader import default_text
from tui.app import RattusApp
from tui.rattus.controller import RattusOffline, RattusOptions, continued
from tui.rattus.dialogs import RattusDialog
from tui.rattus.saves import rattus_save_path, read_rattus_save
from tui.saves import SaveError
from tui.screens import MenuScreen


def play_some(c: RattusOffline, moves: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if c.is_over:
            return
        space = c.view.legal()
        c.apply(space[rng.randrange(len(space))])


def state(c: RattusOffline) -> tuple[Any, ...]:
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
    c = RattusOffline(RattusOptions(players=3, seed=4, bots="heuristic"), save_to=path)
    play_some(c, 25)
    saved = read_rattus_save(path)
    assert saved is not None and saved.bots == "heuristic" and saved.human_seat == 0
    again = continued(saved, save_to=path)
    assert state(again) == state(c)
    assert again.new_log_lines() == c.new_log_lines()  # the whole log, told again
    play_some(again, 4000, seed=1)  # to the end: the save is removed
    assert again.is_over and not path.exists()


def test_a_users_components_file_is_embedded_in_the_save(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    custom = json.loads(default_text())
    custom["neighbours"]["Anglia"][0]["tag"] = "I"  # a file of one's own
    c = RattusOffline(RattusOptions(players=2, seed=3, custom_components=custom), save_to=path)
    play_some(c, 6)
    body = json.loads(path.read_text())
    assert body["record"]["components"] == custom
    saved = read_rattus_save(path)
    assert saved is not None and state(continued(saved)) == state(c)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not JSON"),
        ('{"kind": "other"}', "another version"),
        ('{"kind": "rattus-board-offline-save", "version": 1, "bots": "x"}', "bad bots"),
        (
            '{"kind": "rattus-board-offline-save", "version": 1, "bots": "random", '
            '"human_seat": 0, "record": {"format": "nope"}}',
            "damaged",
        ),
        (
            '{"kind": "rattus-board-offline-save", "version": 1, "bots": "random", '
            '"human_seat": 0, "record": {"format": "rattus-record", "version": 1, '
            '"game": "rattus", "players": ["A", "B"]}}',
            "played under the old rules",
        ),
    ],
)
def test_a_damaged_save_says_why(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "save.json"
    path.write_text(text)
    with pytest.raises(SaveError, match=words):
        read_rattus_save(path)


@sync
async def test_the_menu_continues_a_saved_rattus_game() -> None:
    c = RattusOffline(RattusOptions(players=2, seed=9), save_to=rattus_save_path())
    play_some(c, 8)
    before = state(c)
    app = RattusApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert menu.items[0] == "continue-rattus"
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        assert state(dialog.controller) == before


def test_play_game_rattus_opens_the_map_in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.rattus.app as rattus_app

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(rattus_app, "run_rattus", lambda *a: calls.append(a) or 0)
    tty = io.StringIO()
    tty.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", tty)
    monkeypatch.setattr("sys.stdout", tty)
    assert main(["play", "--game", "rattus", "--players", "4", "--seed", "3"]) == 0
    assert calls and calls[0][:3] == (4, "heuristic", 3)


def test_play_game_rattus_text_keeps_the_plain_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tui.rattus.app as rattus_app

    monkeypatch.setattr(rattus_app, "run_rattus", lambda *a: pytest.fail("the map opened"))
    tty = io.StringIO("quit\n")
    tty.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdin", tty)
    assert main(["play", "--game", "rattus", "--text", "--players", "2", "--seed", "1"]) == 1
    assert "input ended" in capsys.readouterr().err
