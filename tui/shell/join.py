"""The join form: the tables announced on the LAN (live), those hosted on the same server, or
an address typed by hand; any game this program plays (another game, or another version of
one, is listed but refused in one line)."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from protocol.safetext import safetext
from protocol.wire import PROTOCOL_VERSION
from rattus_net.kit.cells import fit
from rattus_net.net.discovery import TableAdvert, TableBrowser, new_zeroconf
from rattus_net.net.lobby import SEAT_COLOURS
from rattus_net.net.served import Served
from rattus_net.net.servertables import server_tables
from rattus_net.net.tables import GuestLobby, address_text, join_by_advert, problem_text
from rattus_net.settings import load_settings
from tui.shell.forms import (
    FormScreen,
    colour_index,
    default_player_name,
    name_field,
    remember,
    row_line,
)
from tui.shell.lobby import LobbyScreen


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
        self.colour = colour_index(last.colour)
        self.tables: list[TableAdvert] = []
        self.discovery_note = "Looking for tables on the local network..."
        self._browser: TableBrowser | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("JOIN A TABLE", style="bold"), id="form-title")
            yield from name_field(self.player, self.served)
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
        row_line(c, self.row == "colour", f"Colour   < {SEAT_COLOURS[self.colour]} >")
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
            row_line(t, self.cursor == len(self.rows) + i, label)
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


__all__ = ["JoinScreen"]
