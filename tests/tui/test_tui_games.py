"""Several games in the TUI shell: the registry, the host form's game, each table's game in the
table list and the lobby, and the menu's Host and Join rows, all following each game's
``network_play`` flag (on for both games; the tests of a game whose flag is off turn Rattus's
off)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tui_network import FixedLobby, _fits
from textual.pilot import Pilot
from tui_helpers import pushed, showing, sync, text_of

from rattus_net.games.rattus.definition import RattusDefinition
from rattus_net.kit.registry import game_names, get_game, network_games
from rattus_net.net.discovery import TableAdvert
from tui.app import RattusNetApp
from tui.common.gameui import game_ui
from tui.shell.host import HostScreen, table_options
from tui.shell.join import JoinScreen
from tui.shell.lobby import LobbyScreen, lobby_options
from tui.shell.menu import MenuScreen
from tui.shell.resume import UnfinishedNetworkGame

NOT_YET = "Rattus cannot be played on the network yet"


@pytest.fixture
def rattus_off_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose network play does not exist (Rattus's flag turned off, as it was before
    Rattus tables existed): the forms and the menu refuse it in words."""
    monkeypatch.setattr(RattusDefinition, "network_play", False)


def test_each_game_s_screens_and_options_come_through_the_registry() -> None:
    """The shell asks the registry for the games, each game's screens come from its folder,
    and the host form's rows and the lobby's keys from its options schema."""
    assert game_names() == ("cartus", "rattus")
    assert [type(game_ui(name)).__name__ for name in game_names()] == ["CartusUi", "RattusUi"]
    assert [g.name for g in network_games()] == ["cartus", "rattus"]
    rows = [o.name for o in table_options(get_game("cartus"))]
    assert rows == ["buildings", "simultaneous_supply"]
    assert table_options(get_game("rattus")) == ()
    assert [o.key for o in lobby_options("cartus")] == ["g", "s"]
    assert lobby_options("rattus") == () and lobby_options("chess") == ()


def test_the_unfinished_network_game_names_its_game() -> None:
    assert UnfinishedNetworkGame("ab" * 8, "Attic", "Gus", 2, "cartus").describe() == (
        "Rattus Cartus at 'Attic', you are Gus"
    )
    assert UnfinishedNetworkGame("ab" * 8, "Attic", "Gus", 2, "rattus").describe() == (
        "Rattus at 'Attic', you are Gus"
    )


@sync
async def test_the_host_form_chooses_the_game_and_says_rattus_is_not_on_the_network_yet(
    rattus_off_the_network: None,
) -> None:
    app = RattusNetApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        host = await pushed(pilot, HostScreen("Hana"))
        assert host.chosen.name == "cartus" and "buildings" in host.rows
        await pilot.press("down", "down")
        assert host.row == "game"
        await pilot.press("right")  # Rattus
        assert host.chosen.name == "rattus" and host.players <= 4
        assert host.rows == ("table", "player", "game", "colour", "players", "open")
        assert "Game           < Rattus >" in text_of(host, "#form-body")
        assert text_of(host, "#form-message").startswith(NOT_YET)
        _fits(app)  # the message line too
        host.say("")
        await pilot.press("down", "down", "down", "enter")  # "Open the table": refused
        assert host.row == "open" and app.screen is host
        assert text_of(host, "#form-message").startswith(NOT_YET)
        await pilot.press("up", "up", "up", "left")  # back to Rattus Cartus
        assert host.chosen.name == "cartus" and "buildings" in host.rows
        assert text_of(host, "#form-message") == ""
        assert host.options().game == "cartus"


@sync
async def test_the_menu_says_which_games_the_network_plays_and_opens_the_host_form_on_one(
    rattus_off_the_network: None,
) -> None:
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (pilot, menu):
        menu.choose_game("rattus")
        menu.look_for_save()
        body = text_of(menu, "#menu-body")
        assert "Host a table on the network (Rattus Cartus only)" in body
        assert "Join a table on the network (Rattus Cartus only)" in body
        await pilot.press("h")
        await pilot.pause()
        host = app.screen
        assert isinstance(host, HostScreen) and host.chosen.name == "cartus"


@sync
async def test_with_the_flag_on_rattus_tables_are_offered_everywhere() -> None:
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (pilot, menu):
        menu.choose_game("rattus")
        menu.look_for_save()
        assert "only)" not in text_of(menu, "#menu-body")
        await pilot.press("h")
        await pilot.pause()
        host = app.screen
        assert isinstance(host, HostScreen) and host.chosen.name == "rattus"
        assert host.options().check().game == "rattus"
        assert text_of(host, "#form-message") == ""
        await pilot.press("escape")
        join = await pushed(pilot, JoinScreen("Gus", discover=False))
        board = TableAdvert("Board", "12" * 8, 1, 1, "open", game="rattus", game_version=2)
        join.tables_changed({"r": board})
        assert "Board            Rattus        " in text_of(join, "#form-body")
        assert "1/2 open" in text_of(join, "#form-body")


@sync
async def test_the_table_list_shows_each_game_and_refuses_one_not_played_here(
    rattus_off_the_network: None,
) -> None:
    app = RattusNetApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        join = await pushed(pilot, JoinScreen("Gus", discover=False))
        join.tables_changed(
            {
                "a": TableAdvert(
                    "Kitchen", "ab" * 8, 1, 2, "open", host="10.0.0.5", port=7000, game="cartus"
                ),
                "b": TableAdvert(
                    "Board", "cd" * 8, 1, 3, "open", host="10.0.0.6", port=7001, game="rattus"
                ),
                "c": TableAdvert(
                    "Chess", "ef" * 8, 1, 1, "open", host="10.0.0.7", port=7002, game="chess"
                ),
            }
        )
        await pilot.pause()
        body = text_of(join, "#form-body")
        assert "Kitchen          Rattus Cartus 10.0.0.5:7000         1/3 open" in body
        assert "Board            Rattus        10.0.0.6:7001         1/4 NOT PLAYABLE HERE" in body
        assert "Chess            chess         10.0.0.7:7002         1/2 NOT PLAYABLE HERE" in body
        _fits(app)
        join.cursor = len(join.ROWS)  # Board, the first by name
        join.focus_row()
        await pilot.press("enter")
        assert app.screen is join
        assert text_of(join, "#form-message") == (
            "table 'Board' plays Rattus, which cannot be played on the network yet"
        )


@sync
async def test_the_lobby_shows_the_table_s_game() -> None:
    app = RattusNetApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pushed(pilot, LobbyScreen(FixedLobby()))
        assert "Game: Rattus Cartus\nOptions: 5 players" in text_of(app.screen, "#lobby-body")


@sync
async def test_the_menu_and_the_lobby_offer_the_bots_the_game_has(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game may offer fewer bots than the kit's three (``bot_kinds``): the menu's bots row
    and the host's bot kind in the lobby go round those only."""
    from rattus_net.net.lobby import TableOptions
    from rattus_net.net.tables import HostLobby

    monkeypatch.setattr(RattusDefinition, "bot_kinds", ("random", "heuristic"))

    async def offered(pilot: Pilot[None], menu: MenuScreen, game: str) -> set[str]:
        """The bot kinds the menu's bots row goes round for ``game`` (four steps right)."""
        menu.choose_game(game)
        menu.look_for_save()
        menu.cursor = menu.items.index("bots")
        seen = set()
        for _ in range(4):
            await pilot.press("right")
            seen.add(menu.bot_kind)
        return seen

    async with showing(RattusNetApp(seed=1), MenuScreen) as (pilot, menu):
        assert await offered(pilot, menu, "rattus") == {"random", "heuristic"}
        # Rattus Cartus offers all three
        assert await offered(pilot, menu, "cartus") == {"random", "heuristic", "search"}
        while menu.bot_kind != "search":
            await pilot.press("right")
        menu.choose_game("rattus")  # a kind it does not offer: its default instead
        assert menu.bot_kind == "heuristic"
        lobby = HostLobby("Loop", TableOptions.of("rattus", 2), "Hana", advertise=False,
                          root=tmp_path)  # fmt: skip
        screen = await pushed(pilot, LobbyScreen(lobby))
        kinds = set()
        for _ in range(4):
            await pilot.press("k")
            kinds.add(screen.bot_kind)
        assert kinds == {"random", "heuristic"}
        await pilot.press("escape")
        await pilot.pause()


@sync
async def test_the_game_row_comes_first_and_turns_the_same_way_in_the_menu_and_the_host_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With three games (the tests' Nibble too), Right goes to the same next game in the menu
    and on the host form, and Left back; in both the game is the first setting, so its row
    stays where it is while the game's own option rows come and go below it."""
    from rattus_net.kit import registry

    registry.games()  # (the shipped games found first)
    # (a copy of the registry: Nibble, registered as its package is imported, stays in it)
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    from games.thirdgame.definition import NibbleDefinition

    registry.register(NibbleDefinition())
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (pilot, menu):
        assert menu.items[:2] == ("play", "game")
        await pilot.press("down")
        menu_games = []
        for key in ("right", "right", "right", "left"):
            await pilot.press(key)
            menu_games.append(menu.chosen.name)
            assert menu.items[menu.cursor] == "game" and menu.cursor == 1
            assert text_of(menu, "#menu-body").splitlines()[1].startswith(">   Game ")
        host = await pushed(pilot, HostScreen("Hana", game="cartus"))
        assert host.rows[2:4] == ("game", "colour")
        await pilot.press("down", "down")
        host_games = []
        for key in ("right", "right", "right", "left"):
            await pilot.press(key)
            host_games.append(host.chosen.name)
    assert menu_games == host_games == ["rattus", "nibble", "cartus", "nibble"]
