"""``?`` and F1 show every key of the current screen; the command palette (Ctrl+P) offers the
screen's actions and runs them."""

from __future__ import annotations

from typing import Any

from textual.command import CommandPalette
from tui_helpers import controller_at, opened, pressing, showing, sync

from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.ui.table import TableScreen
from tui.app import RattusNetApp
from tui.common.help import HIDDEN_ACTIONS, SCROLLING, HelpScreen, key_name
from tui.common.log import LogScreen
from tui.common.rules import RulesScreen
from tui.shell.menu import MenuScreen


def _every_key_listed(screen: Any, help_screen: HelpScreen) -> None:
    listed = " ".join(keys for keys, _ in help_screen.keys).split()
    for key, active in screen.active_bindings.items():
        if active.binding.action in HIDDEN_ACTIONS:
            continue  # Tab and Shift+Tab: nothing takes the focus here
        name = key_name(key)
        if name.isdigit():
            assert any("-" in k and k[0].isdigit() for k in listed), listed
        else:
            assert name in listed, (name, listed)


@sync
async def test_help_on_every_screen_lists_all_its_keys() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        checked = []
        # the dialog, the table, the log, the rules, the menu
        for to_screen in ([], ["escape"], ["l"], ["escape", "r"], ["escape", "escape", "q", "q"]):
            await pilot.press(*to_screen)
            await pilot.pause()
            screen = app.screen
            for key in ("question_mark", "f1"):
                await pilot.press(key)
                await pilot.pause()
                help_screen = app.screen
                assert isinstance(help_screen, HelpScreen), (screen, key)
                _every_key_listed(screen, help_screen)
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is screen
            checked.append(type(screen).__name__)
        assert checked == ["EnterDialog", "TableScreen", "LogScreen", "RulesScreen", "MenuScreen"]


@sync
async def test_the_command_palette_offers_and_runs_the_tables_actions() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        table = await pressing(pilot, app, TableScreen, "escape")
        titles = [cmd.title for cmd in app.get_system_commands(table)]
        assert {"Decide", "Log", "Rules", "Leave game", "Quit Rattus Net"} <= set(titles)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Rules")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        assert app.screen is table


@sync
async def test_the_palette_in_the_menu_offers_the_menus_actions() -> None:
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (_pilot, menu):
        titles = {cmd.title for cmd in app.get_system_commands(menu)}
        assert {"Play", "Host", "Join", "Verify", "Rules"} <= titles
        assert not isinstance(app.screen, LogScreen)


@sync
async def test_the_menus_keys_line_fits_at_80_columns() -> None:
    """Every key the menu's footer shows lies inside 80 columns, ``? Keys`` included (the
    Replays row's key once pushed it out)."""
    from textual.widgets._footer import FooterKey

    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen, size=(80, 24)) as (pilot, menu):
        await pilot.pause()
        keys = {k.key: k.region for k in menu.query(FooterKey)}
        palette = keys.pop("ctrl+p")  # (docked at the right end, over what runs under it)
        assert {"p", "h", "j", "v", "e", "r", "q", "question_mark"} <= set(keys), keys
        # (a key's last column is padding: it may lie under the palette's first one)
        assert all(r.width > 0 and r.right - 1 <= palette.x for r in keys.values()), keys


def test_readme_help_texts_and_rules_agree_on_the_stall_timeout_and_q_q() -> None:
    import argparse
    from pathlib import Path

    from rattus_net import cli
    from tui.common.rules import rules_text

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rules = rules_text()
    commands = next(
        a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    for name in ("host", "join", "resume"):
        [stall] = [a for a in commands[name]._actions if "--stall-timeout" in a.option_strings]
        assert stall.default == 300.0 and "default 300" in (stall.help or "")
    for text in (readme, rules):
        assert "5 minutes" in text and "--stall-timeout" in text
        assert "record names who stalled it" in text and "`w`" in text
        assert "`q` `q`" in text or "`q` again" in text


@sync
async def test_help_lists_the_screen_s_own_keys_first_and_scrolling_last() -> None:
    """On the table and in the log, ``?`` starts with the screen's own keys (Enter decide, or
    Esc back), ends with the log's scrolling on one line before the keys of every screen, and
    leaves out Tab and sideways scrolling, which do nothing here."""
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        for to_screen, first in ((["escape"], "Enter"), (["l"], "Esc q l")):
            await pilot.press(*to_screen)
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            keys = [k for k, _ in help_screen.keys]
            assert keys[0] == first
            assert help_screen.keys[-3] == ("Up Down Home End PgUp PgDn", SCROLLING)
            assert [k for k, _ in help_screen.keys].count("Up Down Home End PgUp PgDn") == 1
            assert not {"Tab", "Left", "Right", "Ctrl+Pageup"} & set(" ".join(keys).split())
            await pilot.press("escape")
            await pilot.pause()


def test_the_keys_of_every_screen_say_what_ctrl_c_does_where_the_program_runs() -> None:
    """In a terminal Ctrl+C quits (an offline game saved where the folder is kept); in a
    browser page (``rattus web`` says so) it copies, and q leaves; a guest has nothing saved."""
    from rattus_net.net.served import Served
    from tui.common.help import global_keys

    def ctrl_c(served: Served) -> str:
        return dict(global_keys(served))["Ctrl+C"]

    assert ctrl_c(Served()) == "quit Rattus Net at once (an offline game is saved)"
    assert "saved" not in ctrl_c(Served(kept=False)) and "guest" in ctrl_c(Served(kept=False))
    for served in (Served(in_browser=True), Served(in_browser=True, kept=False)):
        assert ctrl_c(served).startswith("copy the text selected") and "q leaves" in ctrl_c(served)
        assert "quit" not in ctrl_c(served) and "saved" not in ctrl_c(served)


@sync
async def test_in_a_browser_page_ctrl_c_never_quits(monkeypatch: Any) -> None:
    """Whatever reaches the game from the page, Ctrl+C does not end it there (the page keeps
    the key for copying; this is the game's own side of it), and no screen says it quits."""
    from rattus_net.net.served import Served

    for key, value in Served(in_browser=True, kept=False).environment().items():
        monkeypatch.setenv(key, value)
    app = RattusNetApp()
    async with opened(app) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, MenuScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert dict(help_screen.keys)["Ctrl+C"].startswith("copy")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert "quits" not in str(app.screen.query_one("#too-small").render())
