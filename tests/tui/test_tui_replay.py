"""The replay viewer (tui/common/replay.py): stepping through a Rattus Cartus and a Rattus
record, viewpoints, first/last, jumps; the menu's Replays; the end screen's Replay."""

from __future__ import annotations

import io
import itertools
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from recordkit import random_chooser
from rich.console import Console
from textual.widgets import Input
from tui_helpers import opened, sync, text_of

from protocol.memnet import MemoryNetwork
from protocol.seeded import seeded_params
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.kit.registry import get_game
from rattus_net.kit.replay import EVERYTHING, Replay
from rattus_net.replays import REPLAYS_DIR
from rattus_net.selfplay import play_game
from tui.app import RattusNetApp
from tui.common.replay import JumpPrompt, ReplayScreen, parse_jump
from tui.shell.menu import MenuScreen
from tui.shell.replays import ReplaysScreen


@lru_cache(maxsize=4)
def record_text(name: str, players: int = 3, seed: int = 4) -> str:
    game = get_game(name)
    played = play_game(game, players, seed, ["heuristic"], {})
    return game.record_of(played.game, played.table, {})


def record_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(record_text(name))
    return path


def board_of(screen: ReplayScreen) -> str:
    """The table the viewer draws, as plain text."""
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(screen.board())
    return console.export_text()


async def viewer(pilot: Any, path: Path, **how: Any) -> tuple[ReplayScreen, Replay]:
    """The viewer opened on ``path``, its record read."""
    pilot.app.push_screen(ReplayScreen(path, **how))
    screen = await loaded(pilot)
    assert screen.replay is not None
    return screen, screen.replay


async def listed(pilot: Any, screen: ReplaysScreen) -> None:
    """Wait for the menu's Replays to have read the recent games."""
    for _ in range(200):
        if screen.loaded:
            break
        await pilot.pause(0.05)
    await pilot.pause()
    assert screen.loaded


async def loaded(pilot: Any) -> ReplayScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    for _ in range(200):
        if screen.replay is not None or screen.problem is not None:
            break
        await pilot.pause(0.05)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("name", ["cartus", "rattus"])
@sync
async def test_the_viewer_steps_forward_and_back(name: str, tmp_path: Path) -> None:
    path = record_file(tmp_path, name)
    app = RattusNetApp()
    async with opened(app) as pilot:
        app.push_screen(ReplayScreen(path))
        screen = await loaded(pilot)
        replay = screen.replay
        assert replay is not None and screen.index == 0
        assert "step 0/" in text_of(screen, "#rp-status")
        await pilot.press("right", "right", "right")
        assert screen.index == 3
        log = text_of(screen, "#rp-log")
        assert replay.steps[3].text in log
        for line in replay.lines(EVERYTHING)[3]:
            assert line in log
        await pilot.press("left")
        assert screen.index == 2
        await pilot.press("end")
        assert screen.index == replay.last and "step" in text_of(screen, "#rp-status")
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("pagedown", "pagedown")
        assert replay.steps[screen.index].turn == 2
        await pilot.press("pageup")
        assert replay.steps[screen.index].turn == 1
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


@sync
async def test_viewpoints_show_a_seats_secrets_or_everything(tmp_path: Path) -> None:
    path = record_file(tmp_path, "cartus")
    app = RattusNetApp()
    async with opened(app) as pilot:
        screen, replay = await viewer(pilot, path)
        await pilot.press("right")
        board = board_of(screen)
        names = replay.names
        assert all(f"{n}: Hand" in board for n in names)  # every seat's hand, by name
        assert "with everything" in text_of(screen, "#rp-status")
        await pilot.press("v")
        assert screen.viewpoint == 0
        assert f"as {names[0]} saw it" in text_of(screen, "#rp-status")
        board = board_of(screen)
        assert "Nun row: 1:? " in board and f"{names[1]}: Hand" not in board
        assert screen.you is None  # (opened with everything: nobody's replay)
        assert not any("You" in line for line in replay.lines(0, screen.words())[1])
        await pilot.press("v", "v", "v")  # seats 1, 2, then everything again
        assert screen.viewpoint == EVERYTHING
        assert "Nun row: 1:?" not in board_of(screen)
        await pilot.pause()
        # the status line says whose view it is: no notification stacks over the log
        assert not pilot.app.screen.query("Toast")


def told_first(screen: ReplayScreen) -> str:
    """The first line the log tells at the viewer's step, below its heading."""
    return text_of(screen, "#rp-log").split("\n")[1]


@sync
async def test_only_the_seat_the_owner_played_is_you(tmp_path: Path) -> None:
    """A replay of seat 0's game, seen as seat 1: seat 1's moves are told with its name;
    seen as seat 0 again, they are "you"."""
    path = record_file(tmp_path, "cartus")
    async with opened(RattusNetApp()) as pilot:
        screen, replay = await viewer(pilot, path, viewpoint=0)
        names = replay.names
        mine = next(s.index for s in replay.steps if s.seat == 0)
        theirs = next(s.index for s in replay.steps if s.seat == 1)
        screen.go(mine)
        assert told_first(screen).startswith("You ")
        await pilot.press("v")
        assert screen.viewpoint == 1 and f"as {names[1]} saw it" in text_of(screen, "#rp-status")
        screen.go(theirs)
        assert told_first(screen).startswith(f"{names[1]} ")
        screen.go(mine)
        assert told_first(screen).startswith("You ")  # the owner's seat, whoever is seen


@pytest.mark.parametrize(("name", "seed", "players"), [("cartus", 109, 3), ("rattus", 2, 3)])
@sync
async def test_the_last_step_says_the_tie_break(
    name: str, seed: int, players: int, tmp_path: Path
) -> None:
    """A game whose tie for the win was broken: at its last step, first below the step's
    move, who won and what decided it; before, not."""
    path = tmp_path / "tie.json"
    path.write_text(record_text(name, players, seed))
    async with opened(RattusNetApp()) as pilot:
        screen, replay = await viewer(pilot, path)
        await pilot.press("end")
        assert screen.index == replay.last
        assert "tied on" in told_first(screen) + text_of(screen, "#rp-log").split("\n")[2]
        await pilot.press("left")
        assert "tied on" not in text_of(screen, "#rp-log")


@sync
async def test_the_viewer_s_keys_fit_80_columns(tmp_path: Path) -> None:
    path = record_file(tmp_path, "rattus")
    async with opened(RattusNetApp()) as pilot:
        await viewer(pilot, path)
        keys = sorted(pilot.app.screen.query("FooterKey"), key=lambda key: key.region.x)
        assert keys and all(0 < key.region.right <= 80 for key in keys)
        # none hides another (Textual's palette key lies over the keys it has no room for)
        assert all(a.region.right <= b.region.x for a, b in itertools.pairwise(keys))
        every = {"left", "right", "pageup", "pagedown", "home", "end", "j", "v", "escape"}
        assert every | {"question_mark"} <= {key.key for key in keys}


@sync
async def test_jump_to_a_round_or_a_turn(tmp_path: Path) -> None:
    path = record_file(tmp_path, "rattus")
    app = RattusNetApp()
    async with opened(app) as pilot:
        screen, replay = await viewer(pilot, path)
        await pilot.press("j")
        assert isinstance(app.screen, JumpPrompt)
        await pilot.press("r", "9", "9", "enter")
        assert isinstance(app.screen, JumpPrompt)  # no round 99: said, and the prompt stays
        assert "no round 99" in text_of(app.screen, "#jump-error")
        await pilot.press(*["backspace"] * 3, "r", "3", "enter")
        assert app.screen is screen and screen.index == replay.find_round(3)
        await pilot.press("j", "t", "1", "0", "enter")
        assert replay.steps[screen.index].turn == 10
        await pilot.press("j", "escape")
        assert app.screen is screen


def test_jump_words() -> None:
    from rattus_net.kit.replay import replay_record

    replay = replay_record(get_game("rattus"), record_text("rattus"), {})
    assert parse_jump("12", replay) == replay.find_turn(12)
    assert parse_jump(" T 12 ", replay) == replay.find_turn(12)
    assert parse_jump("s5", replay) == 5
    for bad in ("", "x3", "r", f"s{replay.last + 1}", "t100000"):
        with pytest.raises(ValueError):
            parse_jump(bad, replay)


@sync
async def test_a_bad_file_says_why_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("not json at all")
    app = RattusNetApp()
    async with opened(app) as pilot:
        app.push_screen(ReplayScreen(path))
        screen = await loaded(pilot)
        status = text_of(screen, "#rp-status")
        assert "cannot be replayed" in status and "not JSON" in status
        await pilot.press("right", "v", "j")  # nothing to move: no crash
        assert app.screen is screen


@sync
async def test_the_menu_lists_recent_games_and_opens_one(
    tmp_path: Path, _own_data_dir: Path
) -> None:
    kept = _own_data_dir / REPLAYS_DIR
    kept.mkdir()
    (kept / "rattus-20261201-120000.json").write_text(record_text("rattus"))
    app = RattusNetApp()
    async with opened(app) as pilot:
        await pilot.press("e")
        assert isinstance(app.screen, ReplaysScreen)
        await listed(pilot, app.screen)
        body = text_of(app.screen, "#form-body")
        assert "Rattus" in body and "won by" in body and "heuristic-1" in body
        await pilot.press("enter")  # nothing picked yet: said
        assert "Pick a game" in text_of(app.screen, "#form-body")
        await pilot.press("down", "enter")
        screen = await loaded(pilot)
        assert screen.replay is not None and screen.replay.definition.name == "rattus"
        await pilot.press("escape")
        assert isinstance(app.screen, ReplaysScreen)
        # a path typed that is no file
        app.screen.query_one("#path", Input).value = str(tmp_path / "nothing.json")
        await pilot.press("enter")
        assert "no such file" in text_of(app.screen, "#form-body")
        assert isinstance(app.screen, ReplaysScreen)


@sync
async def test_a_network_record_in_the_viewer(tmp_path: Path) -> None:
    config = GameConfig(GameConfig.default_names(2), BuildingSelection.random_cards())
    net = MemoryNetwork(*seeded_params(config, 3, "cartus"), timeout=5.0)
    net.run(random_chooser(2, 3))
    path = tmp_path / "record.rattusnet"
    path.write_bytes(net.peers[0].record_bytes())
    app = RattusNetApp()
    async with opened(app) as pilot:
        app.push_screen(ReplayScreen(path, viewpoint=1))
        screen = await loaded(pilot)
        assert screen.replay is not None and screen.viewpoint == 1
        await pilot.press("end")
        told = screen.replay.lines(1)[screen.index]
        assert any("Game over" in line for line in told)
        if len(told) > 6:  # a long step: the rest one key away
            assert f"({len(told)} lines; l: the whole log)" in text_of(screen, "#rp-log")
        await pilot.press("v")
        assert screen.viewpoint == EVERYTHING
        board = board_of(screen)
        assert "P1: Hand" in board and "P2: Hand" in board


def test_snapshot_of_the_viewer(snap_compare: Any, tmp_path: Path) -> None:
    path = record_file(tmp_path, "rattus")

    async def run_before(pilot: Any) -> None:
        pilot.app.push_screen(ReplayScreen(path, viewpoint=0))
        await loaded(pilot)
        await pilot.press(*["pagedown"] * 6)

    assert snap_compare(RattusNetApp(seed=1), run_before=run_before, terminal_size=(80, 24))


def test_rattus_replay_opens_the_viewer_in_a_terminal_and_prints_when_piped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    import tui.app
    from rattus_net.cli import main

    path = record_file(tmp_path, "rattus")
    opened_with: list[Any] = []
    monkeypatch.setattr(tui.app, "run_replay", lambda r: opened_with.append(r) or 0)
    assert main(["replay", str(path)]) == 0  # piped (pytest's stdout): the text as before
    assert "Winner:" in capsys.readouterr().out and not opened_with
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert main(["replay", str(path), "--json"]) == 0  # --json: printed even in a terminal
    assert not opened_with
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0  # a terminal: the viewer, on the whole game
    assert len(opened_with) == 1 and opened_with[0].steps[-1].state.is_over
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["replay", str(bad)]) == 1  # a bad record: one line, no screen
    assert "not a game record" in capsys.readouterr().err and len(opened_with) == 1


@sync
async def test_the_end_screen_replays_the_game_just_played() -> None:
    from tui_helpers import cartus_table

    from rattus_net.kit.play import play_to_end

    table = cartus_table(3, seed=2)
    definition = table.definition
    bots = [definition.make_bot("random", s) for s in range(3)]
    play_to_end(table.game, table.table, lambda g, s: bots[s].choose(definition.view(g, s)))
    app = RattusNetApp(table=table)
    async with opened(app) as pilot:
        for _ in range(50):
            if type(app.screen).__name__ == "EndScreen":
                break
            await pilot.pause(0.05)
        assert type(app.screen).__name__ == "EndScreen"
        await pilot.press("p")
        screen = await loaded(pilot)
        assert screen.replay is not None and screen.viewpoint == table.seat
        assert screen.index == 0 and screen.replay.steps[-1].state.is_over


def test_snapshot_of_a_cartus_replay_no_color(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    path = record_file(tmp_path, "cartus")

    async def run_before(pilot: Any) -> None:
        pilot.app.push_screen(ReplayScreen(path))
        await loaded(pilot)
        await pilot.press(*["pagedown"] * 7)

    assert snap_compare(RattusNetApp(seed=1), run_before=run_before, terminal_size=(80, 24))


@sync
async def test_a_served_player_replays_only_his_own_files(
    tmp_path: Path, _own_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rattus_net.paths import ENV_FILES_ROOT
    from tui.shell.paths import OUTSIDE

    kept = _own_data_dir / REPLAYS_DIR
    kept.mkdir()
    (kept / "rattus-20261201-120000.json").write_text(record_text("rattus"))
    outside = record_file(tmp_path, "cartus")
    monkeypatch.setenv(ENV_FILES_ROOT, str(_own_data_dir))
    app = RattusNetApp()
    async with opened(app) as pilot:
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, ReplaysScreen)
        await listed(pilot, screen)
        assert len(screen.games) == 1
        await pilot.press("down")
        assert (
            screen.query_one("#path", Input).value == f"{REPLAYS_DIR}/rattus-20261201-120000.json"
        )
        screen.query_one("#path", Input).value = str(outside)
        await pilot.press("enter")
        assert app.screen is screen and OUTSIDE in text_of(screen, "#form-body")


def test_rattus_replay_of_a_save_in_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    import tui.app
    from rattus_net.cli import main
    from rattus_net.kit.saves import save_body, write_file

    game = get_game("cartus")
    record = game.read_record(record_text("cartus"), {})
    half, table = record.replay(12)
    body = save_body(game, half, table, names=("You", "A", "B"), bots="random",
                     human_seat=0, values={})  # fmt: skip
    path = tmp_path / "offline-cartus.json"
    write_file(path, body)
    opened_with: list[Replay] = []
    monkeypatch.setattr(tui.app, "run_replay", lambda r: opened_with.append(r) or 0)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert main(["replay", str(path)]) == 0
    [replay] = opened_with
    assert replay.last == 12 and not replay.steps[-1].state.is_over
