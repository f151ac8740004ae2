"""Nothing lost, nothing surprising: the player's choices remembered (rattus_net.settings), a
saved game never silently replaced, no stale notice after ``q q``, ``q`` in the menu asks
when a game is unfinished."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import back_to_menu, opened, pushed, showing, sync, text_of, to_dialog

from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.kit.saves import read_save, save_path
from rattus_net.paths import config_dir, settings_path
from rattus_net.settings import Settings, load_settings, read_settings, save_settings
from tui.app import RattusNetApp
from tui.shell.menu import MenuScreen


def test_settings_round_trip_in_the_config_dir(tmp_path: Path, monkeypatch: object) -> None:
    assert load_settings() == Settings()  # no file yet: the defaults
    s = Settings(name="Hana", colour="green", bots="random", players=5, always_take=True)
    save_settings(s)
    assert settings_path().parent == config_dir() and settings_path().exists()
    assert load_settings() == s
    assert read_settings() == (s, None)


def test_a_damaged_or_foreign_settings_file_is_ignored_with_a_note() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in ("{not json", "[1, 2]", "\x00\xff", '"text"'):
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        settings, note = read_settings()
        assert settings == Settings()
        assert note is not None and "ignored" in note
    # wrong types and unknown keys: those keys only are left at their defaults
    path.write_text(json.dumps({"name": 7, "players": True, "bots": "random", "new": 1}))
    assert read_settings() == (Settings(bots="random"), None)


def test_each_game_s_options_are_kept_under_its_name_and_read_back_through_its_options() -> None:
    s = Settings().with_options("cartus", {"buildings": "first-game"})
    s = s.with_options("cartus", {"simultaneous_supply": True}).with_options("rattus", {})
    save_settings(s)
    kept = load_settings()
    assert kept.options("cartus") == {"buildings": "first-game", "simultaneous_supply": True}
    assert kept.options("rattus") == {} and kept.options("chess") == {}
    # a value the game no longer takes, an option it no longer has: forgotten on reading
    games = {"cartus": {"buildings": "farm,moon", "simultaneous_supply": "yes", "speed": 3}}
    settings_path().write_text(json.dumps({"players": 4, "games": games}))
    assert read_settings() == (Settings(players=4, games=games), None)
    assert load_settings().options("cartus") == {}


@sync
async def test_the_menu_remembers_the_last_game_options() -> None:
    app = RattusNetApp(seed=5)
    async with opened(app) as pilot:
        await pilot.press("down", "down", "right", "right", "down", "left")
        await pilot.press("down", "right", "right")
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        chosen = (menu.players, menu.bot_kind, menu.choices["buildings"])
        assert chosen[0] == 5 and chosen[2] == "random-cards"
        await pilot.press("enter")
        await to_dialog(pilot, app)
    assert load_settings().players == 5
    app = RattusNetApp(seed=5)
    async with showing(app, MenuScreen) as (pilot, menu):
        assert (menu.players, menu.bot_kind, menu.choices["buildings"]) == chosen


@sync
async def test_the_menu_remembers_the_chosen_game() -> None:
    """The game chosen on the menu's Game row is the one it offers next time, even without a
    game played; the name the host form kept meanwhile is not lost."""
    app = RattusNetApp(seed=5)
    async with showing(app, MenuScreen) as (pilot, menu):
        first = menu.chosen.name
        save_settings(replace(load_settings(), name="Hana"))  # (as the host form does)
        await pilot.press("down", "right")  # the Game row, the next game
        other = menu.chosen.name
        assert other != first
    assert load_settings().game == other and load_settings().name == "Hana"
    app = RattusNetApp(seed=5)
    async with showing(app, MenuScreen) as (pilot, menu):
        assert menu.chosen.name == other
        assert f"Rules of {menu.chosen.title}" in text_of(menu, "#menu-body")


@sync
async def test_a_damaged_settings_file_is_a_note_in_the_menu() -> None:
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("{oops")
    app = RattusNetApp(seed=5)
    async with opened(app):
        menu = app.screen
        assert isinstance(menu, MenuScreen) and menu.players == 3
        assert "damaged" in text_of(menu, "#menu-help")


@asynccontextmanager
async def a_game_left() -> AsyncIterator[tuple[RattusNetApp, Pilot[None], MenuScreen]]:
    """The app back at its menu after a game against bots was begun and left (saved)."""
    app = RattusNetApp(seed=4)
    async with opened(app) as pilot:
        await pilot.press("p")
        await to_dialog(pilot, app)
        yield app, pilot, await back_to_menu(pilot, app)


@sync
async def test_a_new_game_never_silently_replaces_a_saved_one() -> None:
    async with a_game_left() as (app, pilot, menu):
        saved = read_save(save_path("cartus"))
        assert saved is not None
        help_text = text_of(menu, "#menu-help")
        assert "replaces" not in help_text and "Press" not in help_text  # no stale notice
        assert not list(app._notifications)  # nor "press q again" over the menu
        await pilot.press("p")  # a new game: asked first
        await pilot.pause()
        assert app.screen is menu
        assert "replaces the saved one" in text_of(menu, "#menu-help")
        await pilot.press("down")  # another key: the question is forgotten
        await pilot.press("p")
        await pilot.pause()
        assert app.screen is menu
        assert read_save(save_path("cartus")) == saved
        await pilot.press("enter")  # asked twice: a new game
        await pilot.pause()
        assert any(isinstance(s, TableScreen) for s in app.screen_stack)


@sync
async def test_q_in_the_menu_asks_when_a_game_is_unfinished() -> None:
    async with a_game_left() as (app, pilot, menu):
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and app.screen is menu
        assert "press q again" in text_of(menu, "#menu-help")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and read_save(save_path("cartus")) is not None


@sync
async def test_without_a_saved_game_q_quits_at_once() -> None:
    app = RattusNetApp(seed=4)
    async with opened(app) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


@sync
async def test_the_host_and_join_forms_start_from_the_last_name_and_colour() -> None:
    from tui.shell.host import HostScreen
    from tui.shell.join import JoinScreen

    kept = Settings(name="Hana", colour="yellow", players=4)
    save_settings(kept.with_options("cartus", {"buildings": "random-buildings"}))
    app = RattusNetApp(seed=1)
    async with opened(app) as pilot:
        host = await pushed(pilot, HostScreen())
        assert host.query_one("#player", Input).value == "Hana"
        assert (host.colour, host.players, host.option_values()["buildings"]) == (
            3,
            4,
            "random-buildings",
        )
        app.pop_screen()
        join = await pushed(pilot, JoinScreen(discover=False))
        assert join.query_one("#player", Input).value == "Hana" and join.colour == 3
