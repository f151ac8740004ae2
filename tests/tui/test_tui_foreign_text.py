"""Names and texts from other peers (or from a record or a save) are shown literally.

Textual parses console markup in plain strings (``Static("...")``, ``update("...")``), so a
player named ``[red]Bob`` would colour the screen and ``[@click=app.quit]q[/]`` would make a
click quit the app. The TUI never hands such a string to a markup-parsing widget: every
foreign string goes through :func:`protocol.safetext.safetext` (the controllers' ``names``,
``R.safe_names``) and reaches the screen inside a rich ``Text``, which is never parsed. These
tests seat players with such names, play through the screens, and check that the literal
text is on screen, that no click action and no escape character got through.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.app import App
from textual.content import Content
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import RichLog, Static
from tui_helpers import (
    Offline,
    cartus_table,
    controller_at,
    keys_for,
    pushed,
    rattus_table,
    sync,
)

import rattus_net.games.cartus.ui.render as R
import rattus_net.kit.offline as offline
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.ui.dialogs import ChoosePlayerDialog, DecisionDialog
from rattus_net.games.cartus.ui.table import EndScreen
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.narrate import Narrator, clean
from rattus_net.games.rattus.ui.table import RattusEndScreen
from rattus_net.net.discovery import TableAdvert
from rattus_net.net.lobby import LobbyState, Seat, TableOptions
from rattus_net.net.tables import GuestLobby
from tui.app import RattusNetApp
from tui.common.log import LogScreen
from tui.shell.join import JoinScreen
from tui.shell.lobby import LobbyScreen

# Each is a valid network name (printable, at most 24 characters) but console markup.
HOSTILE = ("[red]Rotbart[/]", "[@click=app.quit]Quitter", "[reverse]Umkehr", "[b]Fett[/b]")
WORDS = ("Rotbart", "Quitter", "Umkehr", "Fett")
ESCAPE_NAME = "\x1b[2J\x1b]0;x\x07Esc"  # from a record or a save: never valid on the network


def visible(app: App[None]) -> dict[str, str]:
    """The plain text of every Static and log line of every screen on the stack, by widget
    (``screen#id``); fails if any span carries a click action or meta data."""
    shown: dict[str, str] = {}
    for screen in app.screen_stack:
        for widget in screen.query(Static):
            v = widget.visual
            assert isinstance(v, Content), (widget, type(v))
            for span in v.spans:
                assert "@" not in str(span.style) and "click" not in str(span.style), span
            shown[f"{type(screen).__name__}#{widget.id}"] = v.plain
        for log in screen.query(RichLog):
            text = []
            for strip in log.lines:
                for seg in strip:
                    assert seg.style is None or not seg.style.meta, seg
                text.append(strip.text)
            shown[f"{type(screen).__name__}#{log.id}"] = "\n".join(text)
    return shown


def literal_in(shown: dict[str, str]) -> set[str]:
    """Where a hostile name shows; fails where one shows with its markup taken away or with an
    escape character."""
    where = set()
    for key, plain in shown.items():
        assert "\x1b" not in plain and "\x07" not in plain, (key, plain)
        for name, word in zip(HOSTILE, WORDS, strict=True):
            # the word never shows without its brackets (a truncated name keeps its start)
            with_markup = name[: name.index(word) + len(word)]
            assert plain.count(word) == plain.count(with_markup), (key, plain)
            if name[:6] in plain:  # (the map's players column cuts names at 8 characters)
                where.add(key)
    return where


@pytest.fixture
def hostile_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline, "BOT_NAMES", HOSTILE)


async def drive(
    app: RattusNetApp, pilot: Pilot[None], steps: int, end: type[Screen[None]]
) -> set[str]:
    """Go on through dialogs (seeded choices) and summaries for ``steps`` steps or to the
    ``end`` screen, checking every screen on the way; where the names showed."""
    import rattus_helpers as RH

    rng = random.Random(1)
    where: set[str] = set()
    for _ in range(steps):
        where |= literal_in(visible(app))
        screen = app.screen
        if isinstance(screen, end):
            break
        if isinstance(screen, DecisionDialog):
            await pilot.press(*keys_for(screen, rng))
        elif isinstance(screen, RattusDialog):
            await pilot.press(*RH.keys_for(screen, rng))
        else:
            await pilot.press("enter")
        await pilot.pause()
    assert app.is_running  # nothing quit it
    return where


@asynccontextmanager
async def names_shown(
    start: Offline, at_end: Offline, end: type[Screen[None]]
) -> AsyncIterator[tuple[RattusNetApp, Pilot[None], set[str]]]:
    """A game's first decisions (``start``, a game at its start) and a game at its ``end``
    screen (``at_end``), at 100x40, every screen checked: the second app, still running at its
    end screen, and where the names showed."""
    app = RattusNetApp(table=start)
    async with app.run_test(size=(100, 40)) as pilot:
        where = await drive(app, pilot, 12, end)
    app = RattusNetApp(table=at_end)
    async with app.run_test(size=(100, 40)) as pilot:
        where |= await drive(app, pilot, 20, end)
        assert isinstance(app.screen, end)
        yield app, pilot, where


@pytest.mark.usefixtures("hostile_bots")
@sync
async def test_cartus_game_shows_markup_names_literally() -> None:
    """Five players, four bots named with markup: the table, the dialogs, the summary of what
    happened, the log, the full log and the end screen show the names as typed."""
    start, at_end = cartus_table(players=5, seed=3), controller_at(None, players=5, seed=3)
    async with names_shown(start, at_end, EndScreen) as (app, pilot, where):
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        where |= literal_in(visible(app))
    expected = {
        "TableScreen#players",
        "TableScreen#log",
        "RecapScreen#recap-body",
        "EndScreen#scoring",
        "LogScreen#full-log",
    }
    assert expected <= where, where


@pytest.mark.usefixtures("hostile_bots")
@sync
async def test_rattus_game_shows_markup_names_literally() -> None:
    """Four players of Rattus, three bots named with markup: the map's players, the dialogs,
    the log and the end screen show the names as typed."""
    from rattus_helpers import rattus_at

    start = rattus_table(players=4, seed=3, bots="random")
    expected = {
        "RattusMapScreen#r-players",
        "RattusMapScreen#r-log",
        "RattusDialog#dlg-body",
        "RattusEndScreen#r-scoring",
    }
    at_end = rattus_at(None, players=4, seed=3)
    async with names_shown(start, at_end, RattusEndScreen) as (_, _, where):
        assert expected <= where, where


class HostileLobby(GuestLobby):
    """A guest lobby that never connects, with a markup table name and markup names seated."""

    def __init__(self) -> None:
        super().__init__(("10.0.0.5", 7000), HOSTILE[0])
        colours = ("red", "blue", "green", "yellow")
        seats = tuple(
            Seat(name, colour, bytes([i + 1]) * 32, "10.0.0.5", 7000 + i, None, i % 2 == 0)
            for i, (name, colour) in enumerate(zip(HOSTILE, colours, strict=True))
        )
        self.state = LobbyState("[reverse]Umkehr[/]", "00" * 8, TableOptions(5), seats)
        self.news = [f"{HOSTILE[1]} sat down."]

    async def wait_start(self):  # type: ignore[no-untyped-def]
        import asyncio

        await asyncio.Event().wait()


@sync
async def test_lobby_and_join_list_show_markup_names_literally() -> None:
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pushed(pilot, LobbyScreen(HostileLobby()))
        await pilot.pause()
        shown = visible(app)
        where = literal_in(shown)
        assert {"LobbyScreen#lobby-title", "LobbyScreen#lobby-body"} <= where, shown
        assert all(name in shown["LobbyScreen#lobby-body"] for name in HOSTILE)
        assert "[@click=app.quit]Quitter sat down." in shown["LobbyScreen#lobby-news"]
        await pilot.press("escape")
        await pilot.pause()
        join = await pushed(pilot, JoinScreen("Gus", discover=False))
        join.tables_changed(
            {
                "a": TableAdvert(
                    HOSTILE[0], "ab" * 8, 1, 2, "open", host="10.0.0.5", port=7000, game="cartus"
                )
            }
        )
        await pilot.pause()
        shown = visible(app)
        assert "JoinScreen#form-body" in literal_in(shown)
        assert HOSTILE[0] in shown["JoinScreen#form-body"]
        assert app.is_running


# --- the places that showed a name as it was, before it went through safetext -------------


def test_offline_controllers_show_names_through_safetext(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A save can hold any name: the offline tables give the TUI the names made safe."""
    monkeypatch.setattr(offline, "BOT_NAMES", (ESCAPE_NAME, "B", "C"))
    cartus = cartus_table(players=3, seed=1, advance=False)
    rattus = rattus_table(players=3, seed=1, bots="random", advance=False)
    for c in (cartus, rattus):
        assert c.names[1] == "\\x1b[2J\\x1b]0;x\\x07Esc"


def test_rattus_names_are_made_visible_like_everywhere_else() -> None:
    """The Rattus screens use the same safetext as the rest (an escape shows as ``\\x1b``,
    not as a ``?`` that hides what it was)."""
    assert clean(ESCAPE_NAME) == "\\x1b[2J\\x1b]0;x\\x07Esc"
    narrator = Narrator(("Ann", ESCAPE_NAME), 0)
    assert narrator.who(1) == "\\x1b[2J\\x1b]0;x\\x07Esc"


@pytest.fixture
def escaped_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    names = tuple(f"{ESCAPE_NAME}{i}" for i in range(5))
    monkeypatch.setattr(offline, "BOT_NAMES", names)


@pytest.mark.usefixtures("escaped_bots")
def test_winner_line_shows_the_names_through_safetext() -> None:
    """The end screen's winner line took the names from the view as they were."""
    for seed in range(1, 40):  # a game a bot won
        c = controller_at(None, players=5, seed=seed)
        r = c.view.result
        if r is not None and r.winners and 0 not in r.winners:
            break
    else:
        raise AssertionError("no bot won")
    shown = R.verdict(c.view).plain
    assert "\\x1b[2J" in shown and "\x1b" not in shown and "\x07" not in shown


@pytest.mark.usefixtures("escaped_bots")
@sync
async def test_choose_player_dialog_shows_names_through_safetext() -> None:
    """The Sword or Flute tie's list of players took the names from the view as they were."""
    c = controller_at(DecisionKind.CHOOSE_PLAYER, players=5)
    app = RattusNetApp(table=c)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            if isinstance(app.screen, ChoosePlayerDialog):
                break
            await pilot.pause(0.05)
        shown = visible(app)["ChoosePlayerDialog#dlg-body"]
        assert "\\x1b[2J" in shown and "\x1b" not in shown
