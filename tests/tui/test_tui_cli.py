"""`rattus host` and `rattus join` without `--bot` open the TUI in the table's lobby.

Two layers are checked. In process, the CLI's own argument handling builds the lobby and the
app (``RattusNetApp.run`` is replaced by a Pilot run), and a whole game is played against a
headless peer in another process. In a real pseudo-terminal, the installed command draws the
lobby and quits cleanly on Ctrl+C.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from net.procs import finish, free_port, host_table, rattus, records_of, spawn
from net.terminal import Terminal
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import keys_for, play_network_to_end, showing

from rattus_net import cli
from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.cartus.ui.recap import RecapScreen
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from rattus_net.net.netgame import NetworkGame
from tui.app import RattusNetApp
from tui.shell.lobby import LobbyScreen
from tui.shell.menu import MenuScreen

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def run_app_with(
    monkeypatch: pytest.MonkeyPatch, drive: Callable[[RattusNetApp], Awaitable[None]]
) -> list[RattusNetApp]:
    """Make ``RattusNetApp.run`` run the app headless under ``drive`` (which gets the app and
    plays it through its Pilot); returns the list the started apps are put in."""
    started: list[RattusNetApp] = []

    def run(self: RattusNetApp) -> None:
        started.append(self)
        asyncio.run(drive(self))

    monkeypatch.setattr(RattusNetApp, "run", run)
    return started


async def play_from_lobby(app: RattusNetApp, seats: int) -> tuple[str, str, bytes]:
    """In the app's lobby: wait for ``seats`` seats, get ready, play to the end screen and its
    verdict; returns the lobby's text as it was before the start, the end screen's scoring
    and the app's record."""
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = time.monotonic() + 30
        while not (
            isinstance(app.screen, LobbyScreen)
            and app.lobby is not None
            and app.lobby.state is not None
            and len(app.lobby.state.seats) == seats
        ):
            assert time.monotonic() < deadline, "the lobby did not fill"
            await pilot.pause(0.05)
        await pilot.pause()
        lobby_text = "\n".join(
            str(app.screen.query_one(part, Static).render())
            for part in ("#lobby-title", "#lobby-body")
        )
        await pilot.press("space")
        end = await play_to_a_fair_end(app, pilot, 5)
        assert end.controller.outcome is not None
        record = end.controller.outcome.record.read_bytes()
        scoring = str(end.query_one("#scoring", Static).render())
        app.exit()
    return lobby_text, scoring, record


async def play_to_a_fair_end(app: RattusNetApp, pilot: Pilot[None], seed: int) -> EndScreen:
    """Play the app's network game through its dialogs to the end screen, whose verifier must
    find the record fair and written."""
    await play_network_to_end([(app, pilot)], random.Random(seed))
    end = app.screen
    assert isinstance(end, EndScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert end.controller.verdict is not None and end.controller.verdict.fair
    assert end.controller.outcome is not None
    return end


def test_join_without_bot_plays_a_whole_game_in_the_tui(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    host, port = host_table("Attic", 2, tmp_path / "h", "--player", "Hana", "--seed", "4")
    seen: list[tuple[str, str, bytes]] = []

    async def drive(app: RattusNetApp) -> None:
        seen.append(await play_from_lobby(app, 2))

    started = run_app_with(monkeypatch, drive)
    rc = cli.main(["join", f"127.0.0.1:{port}", "--player", "Gus", "--colour", "purple"])
    assert rc == 0 and len(started) == 1
    [(lobby_text, scoring, record)] = seen
    assert "Attic" in lobby_text and "Hana" in lobby_text and "Gus" in lobby_text
    assert "purple" in lobby_text  # the --colour option reached the table
    assert "R Hana" in scoring and "P Gus" in scoring  # and the game shows it
    [(host_rc, host_out, host_err)] = finish([host], 60)
    assert host_rc == 0, host_err
    assert records_of([(host_rc, host_out, host_err)]) == [record]


def test_host_without_bot_plays_a_whole_game_in_the_tui(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    port = free_port()
    guests: list[subprocess.Popen[str]] = []
    seen: list[tuple[str, str, bytes]] = []

    async def drive(app: RattusNetApp) -> None:
        # the table is open once the app runs: a headless guest joins it
        guests.append(
            spawn(["join", f"127.0.0.1:{port}", "--bot", "heuristic", "--seed", "2"], tmp_path)
        )
        seen.append(await play_from_lobby(app, 2))

    started = run_app_with(monkeypatch, drive)
    rc = cli.main(
        ["host", "--name", "Cellar", "--players", "2", "--player", "Hana", "--colour", "green",
         "--port", str(port), "--no-advertise", "--buildings", "random-buildings"]
    )  # fmt: skip
    assert rc == 0 and len(started) == 1
    [(lobby_text, scoring, record)] = seen
    assert "Cellar" in lobby_text and "green" in lobby_text
    assert "G Hana" in scoring  # the host's colour at the table
    assert "random buildings" in lobby_text
    [(guest_rc, guest_out, guest_err)] = finish(guests, 60)
    assert guest_rc == 0, guest_err
    assert records_of([(guest_rc, guest_out, guest_err)]) == [record]


def test_user_mistakes_are_one_line_errors_before_the_terminal_is_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = run_app_with(monkeypatch, lambda app: asyncio.sleep(0))
    assert cli.main(["host", "--name", "Attic", "--players", "7"]) == 2
    assert cli.main(["join", "127.0.0.1:5", "--table", "Attic"]) == 2
    assert cli.main(["join", "--table", "Nowhere", "--wait", "0.3"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no table 'Nowhere' found" in err
    assert not started


def test_rattus_host_draws_the_lobby_in_a_real_terminal(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "TERM": "xterm-256color", "RATTUS_DATA_DIR": str(tmp_path / "d")}
    term = Terminal(
        rattus(["host", "--name", "Attic", "--players", "3", "--player", "Hana",
                "--port", str(port), "--no-advertise"]),
        env,
    )  # fmt: skip
    try:
        term.read_until([b"Attic", b"Hana", str(port).encode(), b"Add bot"], 30)
        os.write(term.master, b"\x03")  # Ctrl+C
        assert term.proc.wait(timeout=15) == 0
        term.read_until([], 0)
        assert b"Traceback" not in term.output
    finally:
        term.close()


def crash_in_round_3(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> tuple[subprocess.Popen[str], str]:
    """A headless host (Hana, a random bot) and Gus, a person in the TUI joined with `rattus
    join`, play until round 3; then Gus's program stops dead (its journal is closed, its node
    cancelled: the host sees the link drop). Returns the host's process and the game id."""
    host, port = host_table("Attic", 2, tmp_path / "h", "--player", "Hana")
    games: list[str] = []

    async def until_round_3(app: RattusNetApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while not isinstance(app.screen, LobbyScreen) or app.lobby.state is None:  # type: ignore[union-attr]
                await pilot.pause(0.05)
            await pilot.press("space")
            rng = random.Random(8)
            while True:
                screen = app.screen
                if isinstance(screen, DecisionDialog):
                    if screen.view.round >= 3:
                        break
                    await pilot.press(*keys_for(screen, rng))
                elif isinstance(screen, TableScreen | RecapScreen):
                    await pilot.press("enter")
                await pilot.pause(0.02)
            controller = screen.controller
            assert isinstance(controller, NetworkGame)
            games.append(controller.game_id)
            assert controller.runner is not None and controller.task is not None
            # the program is gone: nothing more is written (closed on the node's own thread)
            await asyncio.wrap_future(controller.runner.ask(controller.node.journal.close))
            controller.task.cancel()
            app.exit()

    run_app_with(monkeypatch, until_round_3)
    assert cli.main(["join", f"127.0.0.1:{port}", "--player", "Gus"]) == 0
    [game_id] = games
    return host, game_id


async def play_on_to_the_end(app: RattusNetApp, pilot: Pilot[None]) -> tuple[list[str], bytes]:
    """From the table of a resumed game to its end: the log and the (fair) record."""
    while not isinstance(app.screen, TableScreen | DecisionDialog):
        await pilot.pause(0.05)
    end = await play_to_a_fair_end(app, pilot, 9)
    assert end.controller.outcome is not None
    return end.log_lines, end.controller.outcome.record.read_bytes()


def check_the_return(host: subprocess.Popen[str], log: list[str], record: bytes) -> None:
    assert any(line.startswith("Round 1 begins") for line in log)  # the log from the start
    assert "Hana is connected." in log  # the resumed program's own link to the host
    [(host_rc, host_out, host_err)] = finish([host], 60)
    assert "dropped off the table" in host_out and "is back at the table" in host_out
    assert records_of([(host_rc, host_out, host_err)]) == [record]


def test_a_persons_seat_resumes_in_the_tui_after_a_crash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person at a network table loses the program mid-game; `rattus resume GAME_ID`
    reopens the TUI at the table with the log so far, the person plays on to the end, and
    both records are the same and fair."""
    host, game_id = crash_in_round_3(monkeypatch, tmp_path)
    capsys.readouterr()
    assert cli.main(["resume"]) == 0  # without an id: the unfinished games
    listed = capsys.readouterr().out
    assert f"cartus-{game_id}  Rattus Cartus at table 'Attic', seat of Gus, 2 players" in listed
    seen: list[tuple[list[str], bytes]] = []

    async def to_the_end(app: RattusNetApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            seen.append(await play_on_to_the_end(app, pilot))
            app.exit()

    run_app_with(monkeypatch, to_the_end)
    assert cli.main(["resume", f"cartus-{game_id}"]) == 0  # the id as listed
    [(log, record)] = seen
    check_the_return(host, log, record)
    capsys.readouterr()
    assert cli.main(["resume"]) == 0
    assert "no unfinished network game" in capsys.readouterr().out


def test_the_menu_takes_a_person_back_to_an_unfinished_network_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same crash; this time the person just starts `rattus` again: the menu's first item
    is the way back to the table."""
    host, _ = crash_in_round_3(monkeypatch, tmp_path)
    seen: list[tuple[list[str], bytes]] = []

    async def from_the_menu(app: RattusNetApp) -> None:
        async with showing(app, MenuScreen) as (pilot, menu):
            body = str(menu.query_one("#menu-body", Static).render())
            assert "> Back to the network game (Rattus Cartus at 'Attic', you are Gus)" in body
            await pilot.press("enter")
            seen.append(await play_on_to_the_end(app, pilot))
            await pilot.press("escape")  # back to the menu: nothing left to go back to
            await pilot.pause()
            body = str(app.screen.query_one("#menu-body", Static).render())
            assert "network game" not in body
            app.exit()

    run_app_with(monkeypatch, from_the_menu)
    assert cli.main([]) == 0
    [(log, record)] = seen
    check_the_return(host, log, record)
