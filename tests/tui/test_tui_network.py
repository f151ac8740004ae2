"""Network play through the TUI: two apps at one loopback table, bot seats, the lobby, the join
and host forms, the verify screen, plain messages for user mistakes, layout at 80x24.

Everything runs on loopback; zeroconf is off (``advertise=False``, ``discover=False``) except
where a test says otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_helpers import play_network_to_end, pushed, sync
from waits import until

from rattus_net.games.cartus.ui.table import EndScreen
from rattus_net.kit.registry import get_game
from rattus_net.net.discovery import TableAdvert
from rattus_net.net.lobby import TableOptions
from rattus_net.net.tables import GuestLobby, HostLobby, address_text
from rattus_net.replays import recent_games
from rattus_net.selfplay import play_secure_game
from tui.app import RattusNetApp
from tui.shell.host import HostScreen
from tui.shell.join import JoinScreen
from tui.shell.lobby import LobbyScreen
from tui.shell.menu import MenuScreen
from tui.shell.verify import VerifyScreen, verify_file


def text_of(app: App[None], selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@dataclass
class TwoApps:
    lobby: HostLobby
    host: RattusNetApp
    hp: Pilot[None]
    guest_lobby: GuestLobby
    guest: RattusNetApp
    gp: Pilot[None]


@contextlib.asynccontextmanager
async def host_guest_and_bot(tmp_path: Path, options: TableOptions) -> AsyncIterator[TwoApps]:
    """A host's app (Hana) and a guest's app (Gus) in the host's lobby over loopback, with a
    bot the host seated (b)."""
    lobby = HostLobby("Loopback", options, "Hana", advertise=False, root=tmp_path / "h")
    host = RattusNetApp(lobby=lobby)
    try:
        async with host.run_test(size=(80, 24)) as hp:
            await until(lambda: lobby.hosted is not None)
            guest_lobby = GuestLobby(("127.0.0.1", lobby.port), "Gus", root=tmp_path / "g")
            guest = RattusNetApp(lobby=guest_lobby)
            async with guest.run_test(size=(80, 24)) as gp:
                await until(lambda: guest_lobby.state is not None)
                await hp.press("b")  # a bot in the free seat
                await until(lambda: len(lobby.state.seats) == 3)
                yield TwoApps(lobby, host, hp, guest_lobby, guest, gp)
    finally:
        # A test that ends in the lobby closes it as a player leaving would: the bot seats'
        # thread ends with it, rather than live on into the next test of this process.
        await lobby.close()


@pytest.mark.slow
@sync
async def test_two_apps_host_and_join_a_loopback_game_to_the_end(tmp_path: Path) -> None:
    """Two RattusNetApp instances in this process, on one asyncio loop, play a whole 3-player
    network game over loopback: the host's app (seat 1, human, driven by its Pilot), the guest's
    app (seat 2, human, driven by its Pilot) and a bot seat the host adds from the lobby (an
    in-process peer). Every decision of the two humans goes through dialogs and key presses;
    the game runs to the end, both end screens show the verifier's FAIR verdict on their own
    record, and the two records are identical. The lobby is checked on the way (seats, names,
    colours, who is ready, the start only when everybody is)."""
    others = set(bot_threads())  # (bot seats of other tests in this process, still ending)
    async with host_guest_and_bot(
        tmp_path, TableOptions.of("cartus", 3, buildings="first-game", simultaneous_supply=True)
    ) as t:
        host, hp, guest, gp = t.host, t.hp, t.guest, t.gp
        await hp.pause()
        body = text_of(host, "#lobby-body")
        assert "Hana" in body and "Gus" in body and "Agnes" in body
        assert "red" in body and "blue" in body and "green" in body
        assert "(you)" in body and "bot:" in body and "not ready" in body
        await hp.press("space")
        await hp.pause(0.3)
        assert isinstance(host.screen, LobbyScreen)  # the guest is not ready yet
        await gp.press("space")
        kinds = await play_network_to_end([(host, hp), (guest, gp)], random.Random(3))
        assert {"supply", "enter"} <= kinds
        for app in (host, guest):
            end = app.screen
            assert isinstance(end, EndScreen)
            await until(lambda end=end: end.controller.verdict is not None, 60)
            await app.workers.wait_for_complete()
            await asyncio.sleep(0.1)
            assert end.controller.verdict is not None and end.controller.verdict.fair
            assert "Verification: FAIR" in str(end.verdict_text)
            lines = end.log_lines
            assert any("is connected" in line for line in lines)
            assert lines[-1].startswith("Game over")
        h_out, g_out = (a.screen.controller.outcome for a in (host, guest))  # type: ignore[attr-defined]
        assert h_out is not None and g_out is not None and h_out.finished
        assert h_out.record.read_bytes() == g_out.record.read_bytes()
        # the end screen's verification was kept by the record's hash: the recent games (the
        # host's seat and his bot's, one record) name who won from it
        recent = recent_games(tmp_path / "h")
        assert recent and all("(verified)" in r.result for r in recent), recent
        await gp.press("escape")  # back to the menu
        await gp.pause()
        assert isinstance(guest.screen, MenuScreen)
        # the bot seat finished its game on its own thread, and the thread has ended
        await until(lambda: not set(bot_threads()) - others, 60)


def bot_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "rattus-bot-seats" and t.is_alive()]


@sync
async def test_bot_seats_play_off_the_screen_loop_and_leave_with_the_host(
    tmp_path: Path,
) -> None:
    """Bot seats are peers on their own loop in a background thread (their cryptography must
    not freeze the screen): added with b, taken off with x, all gone when the host leaves."""
    others = set(bot_threads())  # (bot seats of other tests in this process, still ending)
    lobby = HostLobby("Loopback", TableOptions(4), "Hana", advertise=False, root=tmp_path / "h")
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: lobby.hosted is not None)
        await pilot.press("b", "b")
        await until(lambda: len(lobby.state.seats) == 3)
        assert [s.bot is not None for s in lobby.state.seats] == [False, True, True]
        [thread] = [t for t in bot_threads() if t not in others]
        assert thread is not threading.current_thread()
        await pilot.press("x")  # the last bot leaves the table
        await until(lambda: len(lobby.state.seats) == 2)
        assert [s.name for s in lobby.state.seats] == ["Hana", "Agnes"]
        await pilot.press("escape")
        await until(lambda: lobby.closed and not set(bot_threads()) - others)
        assert isinstance(app.screen, MenuScreen)


@sync
async def test_join_a_closed_port_says_so_plainly() -> None:
    app = RattusNetApp(lobby=GuestLobby(("127.0.0.1", 1), "Gus"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: bool(getattr(app.screen, "problem", "")))
        await pilot.pause()
        body = text_of(app, "#lobby-body")
        assert "Could not play at this table: nobody answers" in body
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


@sync
async def test_join_form_checks_the_address() -> None:
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pushed(pilot, JoinScreen("Gus", discover=False))
        await pilot.press("down", "down")  # past the colour row to the address row
        await pilot.press("enter")  # nothing typed
        await pilot.pause()
        assert text_of(app, "#form-message").startswith("The address is empty: type the host's")
        await pilot.press(*"nowhere", "enter")
        await pilot.pause()
        assert "'nowhere' is not HOST:PORT" in text_of(app, "#form-message")
        # a steady cursor: nothing repaints while the player does nothing
        assert not any(field.cursor_blink for field in app.screen.query(Input))
        assert isinstance(app.screen, JoinScreen)


@sync
async def test_join_form_offers_the_colour_and_a_guest_may_take_back_ready(
    tmp_path: Path,
) -> None:
    """The join form's colour reaches the table (the first free one if taken), and Space in
    the lobby toggles the guest's ready until the game starts."""
    lobby = HostLobby(
        "Loopback", TableOptions(3), "Hana", colour="blue", advertise=False, root=tmp_path / "h"
    )
    host = RattusNetApp(lobby=lobby)
    async with host.run_test(size=(80, 24)):
        await until(lambda: lobby.hosted is not None)
        guest = RattusNetApp()
        async with guest.run_test(size=(80, 24)) as gp:
            guest.push_screen(JoinScreen("Gus", discover=False))
            await gp.pause()
            assert "Colour   < red >" in text_of(guest, "#colour-row")  # the first colour
            await gp.press("down", "right", "right", "right", "right")  # purple
            assert "Colour   < purple >" in text_of(guest, "#colour-row")
            await gp.press("down", *f"127.0.0.1:{lobby.port}", "enter")
            await until(lambda: len(lobby.state.seats) == 2)
            assert [(s.name, s.colour) for s in lobby.state.seats] == [
                ("Hana", "blue"),
                ("Gus", "purple"),
            ]
            screen = guest.screen
            assert isinstance(screen, LobbyScreen)
            await until(lambda: screen.lobby.state is not None)

            def guest_ready() -> bool:
                return lobby.state.seats[1].ready

            await gp.press("space")
            await until(guest_ready)
            await until(lambda: "Space: not ready" in text_of(guest, "#lobby-body"))
            await gp.press("space")  # taken back
            await until(lambda: not guest_ready())
            await until(lambda: "Space: get ready" in text_of(guest, "#lobby-body"))
            await gp.press("space", "space", "space")  # ready, not, ready again
            await until(guest_ready)
            assert isinstance(host.screen, LobbyScreen) and lobby.state.phase == "open"
            await gp.press("escape")
            await until(lambda: len(lobby.state.seats) == 1)


class StartedLobby(GuestLobby):
    """A table joined by address whose game starts at once, already played to its end (the
    screens after the join form are those of any network game; the network is not)."""

    async def wait_start(self) -> Any:
        return None

    def game(self, state: Any) -> Any:
        from tui_helpers import cartus_table

        from rattus_net.kit.play import play_to_end

        table = cartus_table(2, seed=2)
        definition = table.definition
        bots = [definition.make_bot("random", s) for s in range(2)]
        play_to_end(table.game, table.table, lambda g, s: bots[s].choose(definition.view(g, s)))
        table.start = lambda: None  # type: ignore[attr-defined]
        return table


@sync
async def test_esc_on_the_end_of_a_game_joined_from_the_form_goes_to_the_menu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Menu, join form, lobby, table, end screen: the table takes the lobby's and the form's
    place, so Esc at the end leads to the menu (it used to open the join form again)."""
    import tui.shell.join

    monkeypatch.setattr(tui.shell.join, "GuestLobby", StartedLobby)
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pushed(pilot, JoinScreen("Gus", discover=False))
        await pilot.press("down", "down", *"127.0.0.1:7000", "enter")
        await until(lambda: isinstance(app.screen, EndScreen))
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["MenuScreen", "EndScreen"]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def test_address_text() -> None:
    assert address_text(" 10.0.0.5:7000 ") == ("10.0.0.5", 7000)
    assert address_text("[::1]:7000") == ("::1", 7000)
    for bad in ("", "host", "host:x", "host:0", "host:70000"):
        with pytest.raises(ValueError):
            address_text(bad)


@sync
async def test_join_list_follows_the_adverts() -> None:
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await pushed(pilot, JoinScreen("Gus", discover=False))
        a = TableAdvert(
            "Kitchen", "ab" * 8, 1, 2, "open", host="10.0.0.5", port=7000, game="cartus"
        )
        b = TableAdvert(
            "Old", "cd" * 8, 2, 1, "open", version=99, host="10.0.0.6", port=7001, game="cartus"
        )
        screen.tables_changed({"a": a, "b": b})
        await pilot.pause()
        body = text_of(app, "#form-body")
        assert "Kitchen" in body and "10.0.0.5:7000" in body and "OTHER VERSION" in body
        await pilot.press("down", "down", "down", "down", "enter")  # the incompatible table
        await pilot.pause()
        assert "protocol version 99" in text_of(app, "#form-message")
        screen.tables_changed({"a": a})
        await pilot.pause()
        assert "Old" not in text_of(app, "#form-body")


@sync
async def test_host_form_opens_a_lobby(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.shell.host as ns

    made: list[HostLobby] = []

    class QuietHost(HostLobby):
        def __init__(self, *a: object, **kw: object) -> None:
            kw["advertise"] = False
            super().__init__(*a, **kw)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(ns, "HostLobby", QuietHost)
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HostScreen)
        assert "Colour         < red >" in text_of(app, "#form-body")  # the first colour
        assert "Game           < Rattus Cartus >" in text_of(app, "#form-body")
        await pilot.press("down", "down", "down", "right", "right")  # green discs
        assert "Colour         < green >" in text_of(app, "#form-body")
        await pilot.press("down", "right", "right")  # 5 players
        await pilot.press("down", "down", "right")  # simultaneous supplies
        await pilot.press("down", "enter")
        await until(lambda: bool(made) and made[0].hosted is not None)
        await pilot.pause()
        assert made[0].options == TableOptions.of(
            "cartus", 5, buildings="random-cards", simultaneous_supply=True
        )
        assert made[0].state.seats[0].colour == "green"
        assert "5 players, random cards, supplies simultaneous" in text_of(app, "#lobby-body")
        assert "green" in text_of(app, "#lobby-body")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert made[0].closed


@sync
async def test_verify_screen_gives_the_verdict(tmp_path: Path) -> None:
    record = tmp_path / "game.rattusnet"
    record.write_bytes(play_secure_game(get_game("cartus"), 2, 5, ["random"], {}).record)
    garbage = tmp_path / "garbage.rattusnet"
    garbage.write_bytes(b"not a record")
    assert verify_file(record)[0] is True
    assert verify_file(garbage)[0] is None
    assert verify_file(tmp_path / "missing")[1].endswith("no such file")
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VerifyScreen)
        field = app.screen.query_one("#path")
        field.value = str(record)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(lambda: "FAIR" in text_of(app, "#form-body"), 30)
        assert "seat 1:" in text_of(app, "#form-body")
        field.value = str(garbage)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(lambda: "garbage.rattusnet:" in text_of(app, "#form-body"), 30)
        assert "Traceback" not in text_of(app, "#form-body")


def _fits(app: App[None]) -> None:
    screen = app.screen
    assert (screen.region.width, screen.region.height) == (80, 24)
    for widget in screen.query("*"):
        if not widget.display:
            continue
        r = widget.region
        assert r.x >= 0 and r.y >= 0 and r.right <= 80 and r.bottom <= 24, (widget, r)
        if isinstance(widget, Static) and widget.id:
            assert r.height >= widget.virtual_size.height or widget.id == "lobby-news", widget


@pytest.mark.parametrize("which", ["host", "join", "lobby", "host-lobby", "verify"])
@sync
async def test_network_screens_fit_80x24(which: str, tmp_path: Path) -> None:
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        if which == "host-lobby":  # the host's lobby says more: a full table of five
            lobby = HostLobby("Kitchen", TableOptions(5), "Hana", advertise=False, root=tmp_path)
            app.push_screen(LobbyScreen(lobby))
            await until(lambda: lobby.hosted is not None)
            await pilot.press("b", "b", "b", "b")
            await until(lambda: len(lobby.state.seats) == 5)
            await pilot.press("g")
            await until(lambda: all(s.ready for s in lobby.state.seats[1:]))
        elif which == "host":
            app.push_screen(HostScreen("Hana"))
        elif which == "join":
            screen = await pushed(pilot, JoinScreen("Gus", discover=False))
            screen.tables_changed(
                {
                    str(i): TableAdvert(
                        f"Table {i}", f"{i:016x}", 1, 4, "open", host="10.0.0.5", game="cartus"
                    )
                    for i in range(5)
                }
            )
        elif which == "lobby":
            app.push_screen(LobbyScreen(FixedLobby()))
        else:
            app.push_screen(VerifyScreen("/nowhere/record.rattusnet"))
        await pilot.pause()
        await pilot.pause()
        _fits(app)
        if which == "host-lobby":
            body = text_of(app, "#lobby-body")
            assert "p: players, g: buildings, s: supplies" in body and "Seat 5" in body
            await pilot.press("escape")


class FixedLobby(GuestLobby):
    """A guest lobby with a fixed 5-seat state that never connects (snapshots, layout)."""

    def __init__(self) -> None:
        from rattus_net.net.lobby import LobbyState, Seat

        super().__init__(("10.0.0.5", 7000), "Gus")
        names: list[tuple[str, str, str | None, bool]] = [
            ("Hana", "red", None, True),
            ("Gus", "blue", None, False),
        ]
        names += [("Agnes", "green", "heuristic", True)]
        seats = []
        for i, (name, colour, bot, ready) in enumerate(names):
            key = bytes([i + 1]) * 32
            seats.append(Seat(name, colour, key, "10.0.0.5", 7000 + i, bot, ready))
        self.state = LobbyState("Kitchen table", "00" * 8, TableOptions(5), tuple(seats))
        self.news = ["Gus sat down.", "Agnes sat down."]

    async def wait_start(self):  # type: ignore[no-untyped-def]
        await asyncio.Event().wait()


def test_network_events_in_words() -> None:
    """Links going and coming back, a fault, a stall: the lines the log shows (a stand-in node;
    the real node's hooks are exercised by the two-app game above)."""
    from types import SimpleNamespace

    from rattus_net.kit.undo import TurnSteps
    from rattus_net.net.netgame import NetworkGame

    session = SimpleNamespace(
        finished=False, abort=None, step=None, game=None, public=SimpleNamespace(log=[])
    )
    node = SimpleNamespace(
        seat=0,
        names=("You", "Bob", "Cy"),
        n=3,
        session=session,
        mesh=SimpleNamespace(links={}),
        comeback=SimpleNamespace(resumed=False),
        choose_async=None,
        stall_timeout=300.0,
        setup=SimpleNamespace(params=SimpleNamespace(game="cartus")),
        chat=SimpleNamespace(said=(), on_change=None),  # (nobody chats)
        turn=SimpleNamespace(shown=lambda g: g, steps=TurnSteps(0)),  # (no step held)
    )
    game = NetworkGame(node)  # type: ignore[arg-type]
    game._event("link-up", 1, "")
    game._event("link-down", 1, "")
    game._event("link-up", 1, "")
    game._event("fault", 2, "bad shuffle proof")
    assert game.new_log_lines() == [
        "Bob is connected.",
        "Bob dropped off the table; waiting for a return.",
        "Bob is back at the table.",
        "Cy sent something invalid: bad shuffle proof.",
    ]
    session.step = SimpleNamespace(
        kind="shuffle", senders=(1,), index=4, started=time.monotonic() - 12, info={"stage": 1}
    )
    session._has_message = lambda seat, step: False
    game._event("progress", None, "")  # (the node's tick: the waiting line is refreshed)
    assert game.awaited().startswith("Shuffling: 1 of 3 peers done (Bob is shuffling)")
    assert "(Bob not connected)" in game.awaited() and game.awaited().endswith("(12 s)")


@sync
async def test_options_and_colours_change_in_the_lobby(tmp_path: Path) -> None:
    """p, g and s change the players, the buildings and the supplies; every seat is un-readied:
    a bot gets ready again by itself, a human guest is asked to confirm. c changes a player's
    colour to the next free one, host or guest."""
    async with host_guest_and_bot(
        tmp_path, TableOptions.of("cartus", 3, buildings="first-game", simultaneous_supply=False)
    ) as t:
        lobby, host, hp, guest, guest_lobby, gp = (
            t.lobby, t.host, t.hp, t.guest, t.guest_lobby, t.gp
        )  # fmt: skip
        await until(lambda: "Agnes sat down in green." in guest_lobby.news)
        assert "You sat down in blue." in guest_lobby.news  # not "Gus sat down."
        await gp.press("space")
        await until(lambda: all(s.ready for s in lobby.state.seats[1:]))

        await hp.press("p")  # 3 -> 4 players
        await until(lambda: guest_lobby.state.options.players == 4)  # type: ignore[union-attr]
        assert lobby.state.options == TableOptions.of(
            "cartus", 4, buildings="first-game", simultaneous_supply=False
        )
        await until(lambda: lobby.state.seats[2].ready)  # the bot, again
        assert not lobby.state.seats[1].ready and not guest_lobby.wants_ready()
        await gp.pause()
        assert "Space: get ready again" in text_of(guest, "#lobby-news")
        assert "4 players, first game, supplies in turn" in text_of(guest, "#lobby-body")

        await hp.press("p")  # 4 -> 5
        await hp.press("p")  # 5 -> 3: fewer than 3 cannot seat the three already here
        await hp.press("g", "s")
        await until(
            lambda: (
                guest_lobby.state.options  # type: ignore[union-attr]
                == TableOptions.of(
                    "cartus", 3, buildings="random-buildings", simultaneous_supply=True
                )
            ),
        )
        await hp.pause()
        assert "3 players, random buildings, supplies simultaneous" in text_of(host, "#lobby-body")
        await gp.press("space")  # the guest confirms
        await until(lambda: lobby.state.seats[1].ready)
        # c: the next colour nobody else has (Hana red, Gus blue, the bot green)
        await gp.press("c")
        await until(lambda: lobby.state.seats[1].colour == "yellow")
        assert lobby.state.seats[1].ready  # a colour changes nothing in the game
        await hp.press("c", "c")  # red -> blue (now free) -> purple
        await until(lambda: lobby.state.seats[0].colour == "purple")
        await until(lambda: "purple" in text_of(guest, "#lobby-body"))
        await gp.press("p")  # not the guest's to change
        await gp.pause()
        assert lobby.state.options.players == 3
        await gp.press("escape")


@sync
async def test_host_and_guest_chat_in_the_lobby(tmp_path: Path) -> None:
    """/ opens the lobby's chat line: a line typed by the guest reaches the host's lobby and
    back, under the author's name; Escape leaves the line, and then leaves the lobby."""
    async with host_guest_and_bot(tmp_path, TableOptions.of("cartus", 3)) as t:
        await t.gp.press("slash", *["space" if c == " " else c for c in "hi Hana"], "enter")
        await until(lambda: any(s.text == "hi Hana" for s in t.lobby.chat.lines))
        said = t.lobby.chat.lines[-1]
        assert said.name == "Gus" and said.colour == "blue" and said.seat == 1
        await t.hp.press("slash", *["space" if c == " " else c for c in "welcome"], "enter")
        await until(lambda: "welcome" in [s.text for s in t.guest_lobby.chat.lines])
        await t.gp.pause()
        shown = text_of(t.guest, "#chat-lines")
        assert "Gus: hi Hana" in shown and "Hana: welcome" in shown
        assert len(t.lobby.state.seats) == 3  # the bot seat heard the lines and stayed
        await t.gp.press("escape")  # leaves the chat line, not the lobby
        assert isinstance(t.guest.screen, LobbyScreen)
        await t.hp.press("escape")
        assert isinstance(t.host.screen, LobbyScreen)
