"""The network screens: host a table, join one, the lobby, verify a record, the network end.

Forms are rows chosen with Up/Down. A text row focuses its input (type, Enter goes on); on an
option row nothing is focused, so Left/Right or +/- change the option. Network work runs on
the app's own asyncio loop (workers), never blocking it; every failure the player can cause
(a bad address, a table that is gone, another protocol version, a bad file) becomes one plain
line on the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from protocol.errors import ProtocolError
from protocol.record import verify_record
from protocol.safetext import safetext
from protocol.wire import PROTOCOL_VERSION
from rattus_net.bots import BOT_KINDS, BOT_LEVELS
from rattus_net.engine.cells import fit, pad
from rattus_net.net.discovery import TableAdvert, TableBrowser, local_addresses, new_zeroconf
from rattus_net.net.lobby import SEAT_COLOURS, LobbyRefusal, LobbyState, TableOptions, network_game
from rattus_net.net.persist import list_games
from rattus_net.net.served import Served
from rattus_net.net.servertables import server_tables
from rattus_net.net.tables import (
    GuestLobby,
    HostLobby,
    Lobby,
    address_text,
    building_words,
    join_by_advert,
    options_words,
    problem_text,
)
from rattus_net.settings import load_settings, save_settings
from tui.games import TUI_GAMES, TuiGame, network_games, network_table, tui_game
from tui.offline import default_bot_kind
from tui.paths import FileAccess, PathRefused

BUILDINGS = ("first-game", "random-buildings", "random-cards")
OPTION_ROWS = {"buildings": "buildings", "supplies": "simultaneous"}  # lobby key -> form row
OPTION_KEYS = {"buildings": "g: buildings", "simultaneous": "s: supplies"}
_GAME_ROWS = frozenset(r for g in TUI_GAMES for r in g.table_options)
"""Host form rows that belong to one game or another (shown while it is chosen)."""


def _colour_index(colour: str) -> int:
    return SEAT_COLOURS.index(colour) if colour in SEAT_COLOURS else 0


def remember(**changes: Any) -> None:
    """Keep the player's choices for next time (rattus_net.settings); a config dir that
    cannot be written only costs the convenience."""
    with contextlib.suppress(OSError):
        save_settings(replace(load_settings(), **changes))


def default_player_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name or "Player").capitalize()[:24]


NAME_FIXED = "Your name (your login on this server)"


def _name_field(name: str, served: Served) -> ComposeResult:
    """The name rows of a form: typed, or shown but fixed when a server says who plays."""
    if served.player:
        yield Static(NAME_FIXED, classes="label")
        yield Input(served.player, id="player", classes="field", disabled=True)
    else:
        yield Static("Your name", classes="label")
        yield Input(name, id="player", classes="field", max_length=24)


def _row(t: Text, selected: bool, label: str) -> None:
    t.append("> " if selected else "  ", style="bold")
    t.append(label, style="reverse bold" if selected else "")
    t.append("\n")


class FormScreen(Screen[None]):
    """Rows chosen with Up/Down; rows named in ``INPUTS`` are text inputs."""

    ROWS: ClassVar[tuple[str, ...]] = ()
    INPUTS: ClassVar[tuple[str, ...]] = ()
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "select", "Select"),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("left,minus", "change(-1)", "Less", show=False),
        Binding("right,plus,equals_sign", "change(1)", "More", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.message = ""

    @property
    def rows(self) -> tuple[str, ...]:
        """The rows shown now (a form whose rows depend on a choice overrides it)."""
        return self.ROWS

    def row_count(self) -> int:
        return len(self.rows)

    @property
    def row(self) -> str:
        return self.rows[self.cursor] if self.cursor < len(self.rows) else ""

    def on_mount(self) -> None:
        for field in self.query(Input):
            # a steady cursor: no repaint twice a second over SSH while the player types
            # nothing (and screenshots that do not depend on the moment)
            field.cursor_blink = False
        self.focus_row()
        self.redraw()

    def focus_row(self) -> None:
        if self.row in self.INPUTS:
            self.query_one(f"#{self.row}", Input).focus()
        else:
            self.set_focus(None)

    def redraw(self) -> None:
        raise NotImplementedError

    def say(self, message: str) -> None:
        self.message = message
        self.redraw()

    def show_form(self, body: Text) -> None:
        """Paint the form's rows and its message line."""
        self.query_one("#form-body", Static).update(body)
        self.query_one("#form-message", Static).update(Text(self.message, style="bold"))

    def action_cursor(self, delta: int) -> None:
        self.cursor = (self.cursor + delta) % max(1, self.row_count())
        self.focus_row()
        self.redraw()

    def action_change(self, delta: int) -> None:
        self.change(delta)
        self.redraw()

    def change(self, delta: int) -> None:
        pass

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_select()

    def action_select(self) -> None:
        raise NotImplementedError

    def action_back(self) -> None:
        self.app.pop_screen()


# --- host ---------------------------------------------------------------------------------------


class HostScreen(FormScreen):
    """Open a table: its name, yours, the game, your colour, the players, and the game's own
    options (Rattus Cartus: the buildings, supplies).

    Every game is offered; one whose tables cannot be played on the network yet (its
    ``network_play`` flag is off) says so when chosen, and cannot be opened."""

    ROWS = ("table", "player", "game", "colour", "players", "buildings", "simultaneous", "open")
    INPUTS = ("table", "player")

    def __init__(self, player: str | None = None, game: str | None = None) -> None:
        super().__init__()
        last = load_settings()  # the player's last choices
        self.served = Served.from_environment()
        self.player = self.served.player or player or last.name or default_player_name()
        self.colour = _colour_index(last.colour)
        # the game asked for if it can be played on the network, else the first that can
        playable = [g.name for g in network_games()]
        name = game if game in playable else (playable or [TUI_GAMES[0].name])[0]
        self.game = [g.name for g in TUI_GAMES].index(name)
        top, low = self.chosen.max_players, self.chosen.min_players
        self.players = min(top, max(low, last.players))
        self.buildings = BUILDINGS.index(last.buildings) if last.buildings in BUILDINGS else 2
        self.simultaneous = last.simultaneous_supply

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("HOST A TABLE", style="bold"), id="form-title")
            yield Static("Table name", classes="label")
            yield Input(f"{self.player}'s table", id="table", classes="field", max_length=40)
            yield from _name_field(self.player, self.served)
            yield Static(id="form-body")
            yield Static(id="form-message")
        yield Footer()

    @property
    def chosen(self) -> TuiGame:
        return TUI_GAMES[self.game % len(TUI_GAMES)]

    @property
    def rows(self) -> tuple[str, ...]:
        """The game's own option rows only for the game chosen."""
        own = set(self.chosen.table_options)
        fixed = {"player"} if self.served.player else set()
        return tuple(r for r in self.ROWS if (r in own or r not in _GAME_ROWS) and r not in fixed)

    def options(self) -> TableOptions:
        return TableOptions(
            self.players, BUILDINGS[self.buildings], self.simultaneous, self.chosen.name
        )

    def redraw(self) -> None:
        labels = {
            "game": f"Game           < {self.chosen.title} >",
            "colour": f"Colour         < {SEAT_COLOURS[self.colour]} >",
            "players": f"Players        < {self.players} >  (you, and guests or bots)",
            "buildings": f"Buildings      < {building_words(BUILDINGS[self.buildings])} >",
            "simultaneous": "Supplies       < "
            + ("simultaneous" if self.simultaneous else "in turn")
            + " >",
            "open": "Open the table",
        }
        t = Text()
        for i, row in enumerate(self.rows):
            if row in labels:
                _row(t, i == self.cursor, labels[row])
        t.append(
            "\nUp/Down: choose a row; Left/Right or +/-: change it; Enter on a name: next row.\n"
            "Seats nobody takes can be filled with bots in the lobby.",
            style="italic",
        )
        self.show_form(t)

    def change(self, delta: int) -> None:
        if self.row == "game":
            self.game = (self.game + delta) % len(TUI_GAMES)
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players))
            self.message = self._not_networked() or ""
        elif self.row == "colour":
            self.colour = (self.colour + delta) % len(SEAT_COLOURS)
        elif self.row == "players":
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players + delta))
        elif self.row == "buildings":
            self.buildings = (self.buildings + delta) % len(BUILDINGS)
        elif self.row == "simultaneous":
            self.simultaneous = not self.simultaneous

    def action_select(self) -> None:
        if self.row in self.INPUTS:
            self.action_cursor(1)
            return
        table = self.query_one("#table", Input).value.strip()
        player = self.served.player or self.query_one("#player", Input).value.strip()
        if not table or not player:
            self.say("A table needs a name, and so do you.")
            return
        refused = self._not_networked()
        if refused is not None:
            self.say(refused)
            return
        remember(
            name=load_settings().name if self.served.player else player,
            colour=SEAT_COLOURS[self.colour],
            players=self.players,
            buildings=BUILDINGS[self.buildings],
            simultaneous_supply=self.simultaneous,
        )
        lobby = HostLobby(table, self.options(), player, colour=SEAT_COLOURS[self.colour])
        self.app.switch_screen(LobbyScreen(lobby))

    def _not_networked(self) -> str | None:
        """Why the chosen game's tables cannot be opened (its network play flag is off: the
        same one-line reason as ``rattus host --game``), or ``None``."""
        try:
            network_game(self.chosen.name)
        except LobbyRefusal as exc:
            return exc.reason
        return None


# --- join ---------------------------------------------------------------------------------------


class JoinScreen(FormScreen):
    """The tables announced on the LAN (live), or a HOST:PORT typed by hand.

    A served player (``rattus serve``/``rattus web``) joins under his login, and only the
    tables announced on the LAN or hosted on the same server (listed live too), unless the
    server lets him type an address (``--allow-join-address``)."""

    ROWS = ("player", "colour", "address")
    INPUTS = ("player", "address")

    def __init__(self, player: str | None = None, *, discover: bool = True) -> None:
        super().__init__()
        last = load_settings()  # the player's last choices
        self.served = Served.from_environment()
        self.player = self.served.player or player or last.name or default_player_name()
        self.lan: dict[str, TableAdvert] = {}  # by fingerprint
        self.here: dict[str, TableAdvert] = {}  # hosted on this server
        self.discover = discover
        self.colour = _colour_index(last.colour)
        self.tables: list[TableAdvert] = []
        self.discovery_note = "Looking for tables on the local network..."
        self._browser: TableBrowser | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("JOIN A TABLE", style="bold"), id="form-title")
            yield from _name_field(self.player, self.served)
            yield Static(id="colour-row")
            if self.served.join_by_address:
                yield Static("Address typed by hand (HOST:PORT), then Enter", classes="label")
                yield Input("", id="address", classes="field", placeholder="192.168.1.5:7000")
            yield Static(id="form-body")
            yield Static(id="form-message")
        yield Footer()

    @property
    def rows(self) -> tuple[str, ...]:
        """A served player's name is fixed, and he may type no address unless allowed."""
        hidden = set()
        if self.served.player:
            hidden.add("player")
        if not self.served.join_by_address:
            hidden.add("address")
        return tuple(r for r in self.ROWS if r not in hidden)

    def on_mount(self) -> None:
        super().on_mount()
        if self.discover:
            self.run_worker(self._browse(), group="browse", exit_on_error=False)
        else:
            self.discovery_note = "Discovery is off."
        listing = server_tables()
        if listing is not None:
            self.set_interval(1.0, lambda: self._server_tables(listing.tables()))
            self._server_tables(listing.tables())

    def _server_tables(self, found: list[TableAdvert]) -> None:
        here = {a.fingerprint: a for a in found}
        if here != self.here:
            self.here = here
            self._merge()

    async def _browse(self) -> None:
        try:
            aiozc = new_zeroconf()
            self._browser = TableBrowser(aiozc, self.tables_changed)
            await self._browser.start()
            self.discovery_note = "Tables on the local network (live):"
        except Exception as exc:
            self.discovery_note = f"No LAN discovery here ({problem_text(exc)})."
            self._browser = None
        self.redraw()
        try:
            await asyncio.Event().wait()  # until the screen goes away
        finally:
            if self._browser is not None:
                await self._browser.close()
                await self._browser.aiozc.async_close()

    def tables_changed(self, tables: dict[str, TableAdvert]) -> None:
        self.lan = {a.fingerprint: a for a in tables.values()}
        self._merge()

    def _merge(self) -> None:
        """The tables on the LAN and those hosted on this server, each once."""
        every = {**self.lan, **self.here}
        self.tables = sorted(every.values(), key=lambda a: (a.name, a.fingerprint))
        self.cursor = min(self.cursor, self.row_count() - 1)
        if self.is_mounted:
            self.redraw()

    def row_count(self) -> int:
        return len(self.rows) + len(self.tables)

    def redraw(self) -> None:
        c = Text()
        _row(c, self.row == "colour", f"Colour   < {SEAT_COLOURS[self.colour]} >")
        self.query_one("#colour-row", Static).update(c)
        t = Text(self.discovery_note + "\n", style="bold")
        if not self.tables:
            t.append("  (none yet: they appear here as they open)\n")
        for i, a in enumerate(self.tables):
            seats = f"{a.seats_taken}/{a.seats_taken + a.seats_free}"
            game = fit(safetext(a.game_title), 13)
            label = f"{fit(safetext(a.name), 16)} {game} {a.address:<21} {seats}"
            if a.compatible:
                label += f" {a.state:<7}"
            elif a.version == PROTOCOL_VERSION and a.incompatibility is not None:
                label += " NOT PLAYABLE HERE"  # a game (or its version) this program lacks
            else:
                label += " OTHER VERSION"
            _row(t, self.cursor == len(self.rows) + i, label)
        t.append(
            "Up/Down: choose; Left/Right: colour; Enter: join the table or the address."
            if self.served.join_by_address
            else "Up/Down: choose; Left/Right: colour; Enter: join the table.\n"
            "On this server you join tables listed here (announced on the LAN or hosted\n"
            "on this server), not typed addresses.",
            style="italic",
        )
        self.show_form(t)

    def change(self, delta: int) -> None:
        if self.row == "colour":
            self.colour = (self.colour + delta) % len(SEAT_COLOURS)

    def action_select(self) -> None:
        player = self.served.player or self.query_one("#player", Input).value.strip()
        if not player:
            self.say("Type your name first.")
            return
        if self.row in ("player", "colour"):
            self.action_cursor(1)
            return
        colour = SEAT_COLOURS[self.colour]
        remember(name=load_settings().name if self.served.player else player, colour=colour)
        try:
            if self.row == "address":
                address = address_text(self.query_one("#address", Input).value)
                lobby = GuestLobby(address, player, colour=colour)
            else:
                advert = self.tables[self.cursor - len(self.rows)]
                why = advert.why_not()  # another game, or another version of one
                if why is not None:
                    self.say(safetext(why))
                    return
                lobby = join_by_advert(advert, player, colour)
        except Exception as exc:
            self.say(problem_text(exc))
            return
        self.message = ""
        self.app.push_screen(LobbyScreen(lobby))


# --- lobby --------------------------------------------------------------------------------------


class LobbyScreen(Screen[None]):
    """Seats, names, colours, who is ready, the options; the game starts when all are ready."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,r", "ready", "Ready"),
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("k", "bot_kind", "Bot kind"),
        Binding("c", "colour", "Colour", show=False),
        Binding("p", "option('players')", "Players", show=False),
        Binding("g", "option('buildings')", "Buildings", show=False),
        Binding("s", "option('supplies')", "Supplies", show=False),
        Binding("escape,q", "leave", "Leave"),
    ]

    def __init__(self, lobby: Lobby, *, auto_bots: int = 0) -> None:
        super().__init__()
        self.lobby = lobby
        last = load_settings().bots  # the bot level chosen last time
        self.bot_kind = last if last in BOT_KINDS else default_bot_kind()
        self.auto_bots = auto_bots
        self.problem = ""
        self.connected = False
        self.starting = False
        self._redraw_pending = False

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        yield Static(id="lobby-body")
        yield Static(id="lobby-news")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add_bot", "remove_bot", "bot_kind", "option"):
            return self.lobby.is_host
        return True

    def on_mount(self) -> None:
        self.lobby.listeners.append(self._changed)
        self.redraw()
        self.run_worker(self._run(), group="lobby", exit_on_error=False)

    def on_unmount(self) -> None:
        if self._changed in self.lobby.listeners:
            self.lobby.listeners.remove(self._changed)

    def _changed(self) -> None:
        if not self._redraw_pending:
            self._redraw_pending = True
            self.call_later(self._redraw_now)

    def _redraw_now(self) -> None:
        self._redraw_pending = False
        if self.is_attached:
            self.redraw()

    async def _run(self) -> None:
        lobby = self.lobby
        try:
            if isinstance(lobby, HostLobby):
                await lobby.open()
                self.connected = True
                self.redraw()
                for _ in range(self.auto_bots):
                    lobby.add_bot(self.bot_kind)
            else:
                self.connected = False
            wait = lobby.wait_start()
            if isinstance(lobby, GuestLobby):
                self.connected = True
            state = await wait
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.problem = problem_text(exc)
            self.connected = False
            await lobby.close()
            self.redraw()
            return
        self.starting = True
        try:
            game = lobby.game(state)
        except Exception as exc:
            self.problem = f"The game could not start: {problem_text(exc)}"
            await lobby.close()
            self.redraw()
            return
        game.start()
        self.app.switch_screen(network_table(game))

    def redraw(self) -> None:
        lobby = self.lobby
        state: LobbyState | None = None
        if isinstance(lobby, HostLobby):
            state = lobby.state if lobby.hosted is not None else None
        else:
            state = lobby.state
        title = Text(f"LOBBY: {safetext(lobby.table)}", style="bold")
        if isinstance(lobby, HostLobby) and lobby.hosted is not None:
            addrs = ", ".join(f"{a}:{lobby.port}" for a in local_addresses()[:2])
            title.append(f"\nYou host it. Others join at {addrs}")
        elif isinstance(lobby, GuestLobby):
            title.append(f"\nHost {lobby.address[0]}:{lobby.address[1]}")
        self.query_one("#lobby-title", Static).update(title)
        t = Text()
        if self.problem:
            t.append(f"Could not play at this table: {self.problem}\n", style="bold reverse")
            t.append("Escape: back.\n")
        elif state is None:
            t.append("Connecting...\n")
        else:
            t.append(f"Game: {state.options.definition.title}\n")
            t.append(f"Options: {options_words(state.options)}\n\n")
            for i in range(state.options.players):
                t.append(f"  Seat {i + 1}  ")
                if i >= len(state.seats):
                    t.append("(free)\n", style="dim")
                    continue
                s = state.seats[i]
                t.append(pad(safetext(s.name), 24), style="bold")
                t.append(f" {s.colour:<7}", style=s.colour)
                t.append(" READY   " if s.ready else " not ready", style="bold" if s.ready else "")
                who = []
                if s.fingerprint == lobby.fingerprint:
                    who.append("you")
                if s.bot:
                    who.append(f"bot: {BOT_LEVELS.get(s.bot, s.bot)}")
                if who:
                    t.append(f"  ({', '.join(who)})")
                t.append("\n")
            t.append("\n")
            if self.starting or state.phase == "playing":
                t.append("Everyone is ready: the game starts...\n", style="bold")
            else:
                me = lobby.my_ready()
                t.append(
                    "You are ready; waiting for the others (Space: not ready).\n"
                    if me
                    else "Space: get ready. The game starts when every seat is taken and ready.\n",
                    style="bold",
                )
                if lobby.is_host:
                    own = self._own_options(state.options.game)
                    keys = ", ".join(["p: players", *(OPTION_KEYS[o] for o in own)])
                    t.append(
                        f"b: add a bot ({BOT_LEVELS[self.bot_kind]}, k changes), "
                        "x: remove the last bot. c: your colour.\n"
                        f"{keys} (all get ready again).\n"
                    )
                else:
                    t.append("c: another colour.\n")
        self.query_one("#lobby-body", Static).update(t)
        news = lobby.news[-5:]
        self.query_one("#lobby-news", Static).update(Text("\n".join(news), style="italic"))

    def action_ready(self) -> None:
        if self.problem or not self.connected or self.starting:
            return
        try:
            self.lobby.set_ready(not self.lobby.wants_ready())
        except Exception as exc:
            self.lobby.news.append(problem_text(exc))
        self.redraw()

    def action_add_bot(self) -> None:
        if not isinstance(self.lobby, HostLobby) or self.lobby.hosted is None:
            return
        try:
            name = self.lobby.add_bot(self.bot_kind)
            self.lobby.news.append(f"Seating the bot {name}...")
        except Exception as exc:
            self.lobby.news.append(problem_text(exc))
        self.redraw()

    def action_remove_bot(self) -> None:
        if isinstance(self.lobby, HostLobby) and not self.lobby.remove_bot():
            self.lobby.news.append("There is no bot to remove.")
        self.redraw()

    def action_colour(self) -> None:
        """The next disc colour nobody else sits with."""
        lobby = self.lobby
        state = lobby.state if not isinstance(lobby, HostLobby) or lobby.hosted else None
        if state is None or self.starting or state.phase == "playing":
            return
        me = state.seat_of(lobby.fingerprint)
        if me is None:
            return
        others = {s.colour for j, s in enumerate(state.seats) if j != me}
        mine = state.seats[me].colour
        start = SEAT_COLOURS.index(mine) if mine in SEAT_COLOURS else -1
        free = [SEAT_COLOURS[(start + k) % len(SEAT_COLOURS)] for k in range(1, len(SEAT_COLOURS))]
        choice = next((c for c in free if c not in others), None)
        if choice is None:
            lobby.news.append("Every other colour is taken.")
        else:
            try:
                lobby.set_colour(choice)
            except Exception as exc:
                lobby.news.append(problem_text(exc))
        self.redraw()

    @staticmethod
    def _own_options(game: str) -> tuple[str, ...]:
        """The host form's rows of ``game``'s own options (none for an unknown game)."""
        try:
            return tui_game(game).table_options
        except KeyError:
            return ()

    def action_option(self, which: str) -> None:
        """The host changes one table option: the next player count that fits the seated
        players, the next building selection, or supplies in turn / simultaneous."""
        lobby = self.lobby
        if not isinstance(lobby, HostLobby) or lobby.hosted is None or self.starting:
            return
        now = lobby.state.options
        if which != "players" and OPTION_ROWS[which] not in self._own_options(now.game):
            return  # (an option of another game: Rattus has no buildings)
        if which == "players":
            low = max(len(lobby.state.seats), now.definition.min_players)
            fitting = list(range(low, now.definition.max_players + 1))
            new = replace(now, players=fitting[(fitting.index(now.players) + 1) % len(fitting)])
        elif which == "buildings":
            i = BUILDINGS.index(now.buildings) if now.buildings in BUILDINGS else -1
            new = replace(now, buildings=BUILDINGS[(i + 1) % len(BUILDINGS)])
        else:
            new = replace(now, simultaneous_supply=not now.simultaneous_supply)
        try:
            lobby.set_options(new)
        except Exception as exc:
            lobby.news.append(problem_text(exc))
        self.redraw()

    def action_bot_kind(self) -> None:
        i = BOT_KINDS.index(self.bot_kind) if self.bot_kind in BOT_KINDS else 0
        self.bot_kind = BOT_KINDS[(i + 1) % len(BOT_KINDS)]
        remember(bots=self.bot_kind)
        self.redraw()

    async def action_leave(self) -> None:
        if self.starting:
            return
        for worker in self.workers:
            worker.cancel()
        await self.lobby.close()
        self.app.pop_screen()


# --- verify -------------------------------------------------------------------------------------


def recent_records() -> list[Path]:
    """Records of finished or aborted games in the data directory, newest first."""
    try:
        games = list_games()
    except Exception:
        return []
    paths = [Path(str(meta.get("dir"))) / "record.rattus" for _, meta in games]
    found = [p for p in paths if p.is_file()]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def verify_file(path: Path, shown: str | None = None) -> tuple[bool | None, str]:
    """The verdict on a record file (as ``rattus verify`` prints it); ``None`` if the file
    cannot be read or is not a record. Messages name the file ``shown`` (default: ``path``)."""
    name = str(path) if shown is None else shown
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, f"{name}: no such file"
    except IsADirectoryError:
        return None, f"{name}: is a directory, not a game record"
    except OSError as exc:
        return None, f"{name}: {exc.strerror or exc}"
    try:
        verdict = verify_record(data)
    except ProtocolError as exc:
        return None, f"{name}: {exc}"
    return verdict.fair, verdict.text()


MAX_LISTED = 8
"""Records of his own a confined player is offered in the verify dialog (newest first)."""


class VerifyScreen(FormScreen):
    """Check a signed game record: the same verifier and report as ``rattus verify``.

    Under ``rattus serve`` (``RATTUS_FILES_ROOT`` set, see ``tui.paths``) only files in the
    player's own folder are opened: the dialog says which folder, takes paths from it, and
    lists his own records (Up/Down fills one in)."""

    ROWS = ("path",)
    INPUTS = ("path",)

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.access = FileAccess.from_environment()
        recent = recent_records() if path is None or self.access.confined else []
        if self.access.confined:
            recent = [p for p in recent if self._inside(p)]
        self.records = [self.access.shown(p) for p in recent]
        if path is None:
            path = self.records[0] if self.records else ""
        self.initial = path
        self.picked = -1
        self.report = self._intro()

    def _inside(self, path: Path) -> bool:
        try:
            self.access.resolve(str(path))
        except PathRefused:
            return False
        return True

    def _intro(self) -> Text:
        t = Text("Type the path of a record (record.rattus) and press Enter.", style="italic")
        if self.access.confined:
            listed = self.records[:MAX_LISTED]
            if not listed:
                t.append("\nYou have no game records here yet.")
            else:
                t.append("\nYour records, newest first (Up/Down fills one in):")
            for shown in listed:
                t.append(f"\n  {shown}")
        return t

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("VERIFY A GAME RECORD", style="bold"), id="form-title")
            if self.access.confined:
                yield Static(
                    Text(f"Your folder: {self.access.root} (paths are taken from it)"),
                    id="verify-folder",
                )
            yield Static("Record file (your newest game's record is filled in)", classes="label")
            yield Input(self.initial, id="path", classes="field")
            with VerticalScroll(id="verify-scroll"):
                yield Static(id="form-body")
        yield Footer()

    def redraw(self) -> None:
        self.query_one("#form-body", Static).update(self.report)

    def action_cursor(self, delta: int) -> None:
        if not self.records:
            super().action_cursor(delta)
            return
        listed = self.records[:MAX_LISTED]
        self.picked = (self.picked + delta) % len(listed)
        field = self.query_one("#path", Input)
        field.value = listed[self.picked]
        field.cursor_position = len(field.value)

    def action_select(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self.report = Text("Type the path of a record file first.", style="bold")
            self.redraw()
            return
        try:
            path = self.access.resolve(text)
        except PathRefused as exc:
            self.report = Text(str(exc), style="bold reverse")
            self.redraw()
            return
        self.report = Text("Verifying (every shuffle and every share is checked)...")
        self.redraw()
        shown = self.access.shown(path)
        self.run_worker(lambda: self._verify(path, shown), thread=True, group="verify")

    def _verify(self, path: Path, shown: str) -> None:
        fair, report = verify_file(path, shown)
        self.app.call_from_thread(self._show, fair, report)

    def _show(self, fair: bool | None, report: str) -> None:
        style = "bold" if fair else "bold reverse"
        head, _, rest = report.partition("\n")
        t = Text(head, style=style)
        if rest:
            t.append("\n" + rest)
        self.report = t
        self.redraw()
