"""The offline save does not hold up the screen: the game hands each state to the save's own
writer thread, once per human decision, and the file only ever moves forward.

Writes are counted and the writing thread is checked; nothing here measures time."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import keys_for, sync, to_dialog

import tui.saves
from tui.app import RattusApp
from tui.cartus.controller import OfflineGame, OfflineOptions
from tui.cartus.saves import read_save
from tui.cartus.screens import TableScreen
from tui.rattus.controller import RattusOffline, RattusOptions
from tui.saves import SaveWriter


class Writes:
    """Stands in for ``tui.saves.write_file``: notes each write and its thread, and can hold
    the writes back (``gate``) to show the game goes on while a save is being written."""

    def __init__(self) -> None:
        self.threads: list[str] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a write has begun
        self.real = tui.saves.write_file

    def __call__(self, path: Path, body: dict[str, Any] | None) -> None:
        self.entered.set()
        self.gate.wait()
        self.threads.append(threading.current_thread().name)
        self.real(path, body)


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Writes]:
    w = Writes()
    monkeypatch.setattr(tui.saves, "write_file", w)
    yield w
    w.gate.set()  # (a failing test must not leave the writer thread waiting)


def _human_decisions(game: OfflineGame | RattusOffline, n: int, rng: random.Random) -> int:
    """Play like the table screen does (``play``, then ``advance``); count the decisions."""
    done = 0
    while done < n and not game.is_over:
        space = game.view.legal()
        game.play(space[rng.randrange(len(space))])
        game.advance()
        game.wait_saved()  # (so that no state is skipped as an older one: exact counts)
        done += 1
    return done


@pytest.mark.parametrize("kind", ["cartus", "rattus"])
def test_the_game_is_saved_once_per_human_decision_by_the_save_thread(
    tmp_path: Path, writes: Writes, kind: str
) -> None:
    path = tmp_path / "save.json"
    game: OfflineGame | RattusOffline
    if kind == "cartus":
        game = OfflineGame(OfflineOptions(players=4, bots="random", seed=5), False, save_to=path)
    else:
        game = RattusOffline(RattusOptions(players=3, bots="random", seed=5), False, save_to=path)
    game.clock = lambda: 0.0  # the bots never take long here: no save while they play
    game.advance()
    game.wait_saved()
    decisions = _human_decisions(game, 8, random.Random(2))
    assert decisions == 8
    assert len(writes.threads) == 1 + decisions  # the start, then once per decision
    assert set(writes.threads) == {"rattus-save-writer"}  # never the thread that plays


def test_the_next_decision_does_not_wait_for_the_disk(tmp_path: Path, writes: Writes) -> None:
    path = tmp_path / "save.json"
    game = OfflineGame(OfflineOptions(players=3, bots="random", seed=6), False, save_to=path)
    game.clock = lambda: 0.0
    writes.gate.clear()  # the disk is stuck
    game.advance()
    assert game.my_turn and writes.threads == []  # awaited again; nothing written yet
    assert writes.entered.wait(30)  # the writer has taken that state (and is stuck with it)
    space = game.view.legal()
    game.play(space[0])
    game.advance()  # the next decision comes while the first save still waits
    assert game.my_turn and writes.threads == []
    writes.gate.set()
    saved = read_save(path)  # reading waits for the writes handed over
    assert saved is not None
    again = OfflineGame.continued(saved)
    assert again.game.decision == game.game.decision  # the newest state, not the first
    assert len(writes.threads) == 2  # the first state, then the newest


def test_an_older_state_never_overwrites_a_newer_one(tmp_path: Path, writes: Writes) -> None:
    path = tmp_path / "save.json"
    writer = SaveWriter(path)
    writes.gate.clear()
    writer.submit({"n": 0})
    assert writes.entered.wait(30)
    for n in range(1, 5):  # handed over while the first is being written
        writer.submit({"n": n})
    writes.gate.set()
    writer.wait()
    assert json.loads(path.read_text()) == {"n": 4}
    assert writer.submitted == 5 and writer.writes == len(writes.threads) == 2
    writer.submit(None)  # the game is over: the save goes
    writer.wait()
    assert not path.exists() and writer.problem is None


def test_slow_bots_save_while_they_play(tmp_path: Path, writes: Writes) -> None:
    """The human's move is not lost with a crash while slow bots think: the game is handed
    to the writer again when the bots have been at it for a while."""
    path = tmp_path / "save.json"
    game = OfflineGame(OfflineOptions(players=4, bots="random", seed=5), False, save_to=path)
    ticks = iter(range(0, 10**6, 10))  # each look at the clock: ten seconds later
    game.clock = lambda: float(next(ticks))
    game.advance()  # three bots play first
    game.wait_saved()
    assert game.saver is not None and game.saver.submitted > 1


@sync
async def test_at_the_table_each_decision_hands_one_save_to_the_save_thread(
    writes: Writes,
) -> None:
    """The table screen (quick bots play on its own loop): one state handed over per
    decision, and every write on the save's thread, never on the screen's."""
    app = RattusApp(seed=4)
    rng = random.Random(4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # a new game with the menu's settings (quick bots)
        await to_dialog(pilot, app)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen) and isinstance(table.controller, OfflineGame)
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
    game = OfflineGame(OfflineOptions(players=3, bots="random", seed=2))
    assert game.quick_bots

    def broken(view: object) -> None:
        raise RuntimeError("bot lost its marbles")

    for bot in game.bots.values():
        monkeypatch.setattr(bot, "choose", broken)
    app = RattusApp(controller=game)
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
