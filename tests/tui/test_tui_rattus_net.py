"""Rattus tables hosted from the TUI with bot seats (in-process ``HostLobby``, not advertised):
played to the end by pressing keys in the map's dialogs, the end screen with the cubes, the
winner and the verifier's verdict (FAIR); a player gone too long stops the game, and the
Rattus end screen says so with the verdict on the record."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rattus_helpers import keys_for
from tui_helpers import sync, text_of, until

from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import RattusEndScreen, RattusMapScreen
from rattus_net.net.lobby import TableOptions
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.tables import HostLobby
from tui.app import RattusNetApp
from tui.common.recap import RecapScreen

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


async def seat_bots_and_start(
    app: RattusNetApp, lobby: HostLobby, pilot: Any, players: int
) -> None:
    await until(lambda: lobby.hosted is not None)
    for _ in range(players - 1):
        await pilot.press("b")
    await until(lambda: len(lobby.state.seats) == players)
    await pilot.press("space")
    await until(lambda: isinstance(app.screen, RattusMapScreen | RattusDialog | RecapScreen), 120)


async def next_dialog(app: RattusNetApp, pilot: Any) -> RattusDialog:
    """The player's next dialog, going on (Enter) past the recaps before it."""
    await until(lambda: isinstance(app.screen, RattusDialog | RecapScreen), 60)
    while isinstance(app.screen, RecapScreen):
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, RattusDialog | RecapScreen), 60)
    assert isinstance(app.screen, RattusDialog)
    return app.screen


async def play_to_the_end(
    app: RattusNetApp, pilot: Any, seed: int, seconds: float = 300
) -> set[str]:
    """Press keys in every dialog (Enter on every recap) until the end screen;
    returns the kinds of the decisions taken and the waiting lines seen meanwhile."""
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(int(seconds * 20)):
        screen = app.screen
        if isinstance(screen, RattusEndScreen):
            return seen
        if isinstance(screen, RattusDialog):
            seen.add(screen.kind.value)
            await pilot.press(*keys_for(screen, rng))
            assert not screen.error or screen.error.startswith("No decision"), screen.error
        elif isinstance(screen, RecapScreen):  # what happened since the last decision
            seen.add("recap")
            await pilot.press("enter")
        elif isinstance(screen, RattusMapScreen):
            seen.add("line: " + text_of(screen, "#r-awaited"))
            await pilot.pause(0.05)
        else:
            await pilot.pause(0.05)
    raise AssertionError(f"the game did not end: {app.screen}")


async def hosted_game_to_the_end(tmp_path: Path, players: int, seed: int) -> None:
    lobby = HostLobby(
        "Plague", TableOptions(players, game="rattus"), "Hana", advertise=False, root=tmp_path
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots_and_start(app, lobby, pilot, players)
        seen = await play_to_the_end(app, pilot, seed)
        assert {"start", "turn", "recap"} <= seen, seen  # (the recap: from the moves received)
        end = app.screen
        assert isinstance(end, RattusEndScreen)
        c = end.controller
        assert isinstance(c, NetworkGame) and end.played_out
        await until(lambda: bool(end.query("#verdict")))  # (composed)
        await until(lambda: c.verdict is not None, 120)
        await until(lambda: "Verification: FAIR" in text_of(end, "#verdict"), 10)
        assert "GAME OVER" in text_of(end, "#end-title")
        assert "finished.\nRecord:" in text_of(end, "#end-summary")
        scoring = text_of(end, "#r-scoring")
        assert "TOTAL" in scoring and "Winner: " in scoring
        assert all(name in scoring for name in c.names)
        await c.stop()
    await lobby.close()


@sync
async def test_a_hosted_two_player_rattus_table_is_played_to_a_fair_end(tmp_path: Path) -> None:
    await hosted_game_to_the_end(tmp_path, 2, seed=1)


@sync
async def test_a_hosted_four_player_rattus_table_is_played_to_a_fair_end(tmp_path: Path) -> None:
    await hosted_game_to_the_end(tmp_path, 4, seed=2)


@sync
async def test_a_player_gone_too_long_stops_the_rattus_game_and_the_end_screen_says_so(
    tmp_path: Path,
) -> None:
    lobby = HostLobby(
        "Stall",
        TableOptions(2, game="rattus"),
        "Hana",
        advertise=False,
        root=tmp_path,
        stall_timeout=2.0,
    )
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots_and_start(app, lobby, pilot, 2)
        assert lobby.remove_bot()  # the bot's program goes
        seen = await play_to_the_end(app, pilot, seed=3, seconds=120)
        # the map said whom it waited for, and when the game would end without him
        assert any("(Agnes not connected); ends in 0:0" in line for line in seen), seen
        end = app.screen
        assert isinstance(end, RattusEndScreen)
        c = end.controller
        assert c.outcome is not None and not c.outcome.finished and not end.played_out
        await until(lambda: bool(end.query("#end-summary")))
        assert "THE GAME STOPPED" in text_of(end, "#end-title")
        summary = text_of(end, "#end-summary")
        assert "Agnes" in summary and "stalled" in summary and "Record:" in summary
        assert not end.query("#r-scoring")  # (no result: the game did not end)
        await until(lambda: c.verdict is not None, 60)
        await until(lambda: "Verification: " in text_of(end, "#verdict"), 10)
        await c.stop()  # (what leaving the end screen does)
    await lobby.close()


@sync
async def test_back_to_the_network_game_resumes_a_rattus_seat_on_the_map() -> None:
    """The host leaves its Rattus table mid-game (its bot seat goes with it); the menu offers
    "Back to the network game": the seat comes back on the Rattus map, its bot seat too, and
    the game is played to a fair end."""
    from tui.shell.menu import MenuScreen

    lobby = HostLobby("Back", TableOptions(2, game="rattus"), "Hana", advertise=False)
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots_and_start(app, lobby, pilot, 2)
        rng = random.Random(4)
        for _ in range(3):  # a few decisions, then leave
            await pilot.press(*keys_for(await next_dialog(app, pilot), rng))
        await until(lambda: isinstance(app.screen, RattusMapScreen | RattusDialog | RecapScreen))
        for _ in range(6):  # (Escape steps back, from the first step to the map)
            if isinstance(app.screen, RattusDialog | RecapScreen):
                await pilot.press("escape")
        await until(lambda: isinstance(app.screen, RattusMapScreen), 10)
        await pilot.press("q", "q")
        await until(lambda: isinstance(app.screen, MenuScreen), 30)
        menu = app.screen
        assert isinstance(menu, MenuScreen) and menu.unfinished is not None
        assert menu.unfinished.describe() == "Rattus at 'Back', you are Hana"
        assert menu.items[0] == "network"
        await pilot.press("enter")  # "Back to the network game"
        await until(
            lambda: isinstance(app.screen, RattusMapScreen | RattusDialog | RecapScreen), 60
        )
        await play_to_the_end(app, pilot, seed=5)
        end = app.screen
        assert isinstance(end, RattusEndScreen) and end.played_out
        await until(lambda: end.controller.verdict is not None, 120)
        await until(lambda: "Verification: FAIR" in text_of(end, "#verdict"), 10)
        await end.controller.stop()
    await lobby.close()


@sync
async def test_the_rattus_lobby_offers_only_its_own_options(tmp_path: Path) -> None:
    """Buildings and supplies are Rattus Cartus's: a Rattus table's lobby neither lists their
    keys nor changes anything (nor un-readies anybody) when they are pressed."""
    from tui.shell.lobby import LobbyScreen

    lobby = HostLobby("Own", TableOptions(3, game="rattus"), "Hana", advertise=False, root=tmp_path)
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: lobby.hosted is not None)
        await pilot.press("b")
        await until(lambda: len(lobby.state.seats) == 2 and lobby.state.seats[1].ready)
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        body = text_of(screen, "#lobby-body")
        assert "p: players (all get ready again)" in body and "buildings" not in body
        before = lobby.state.options
        await pilot.press("g", "s")
        assert lobby.state.options == before and lobby.state.seats[1].ready
        await pilot.press("p")  # (its own option still changes)
        await until(lambda: lobby.state.options.players == 4)
    await lobby.close()
