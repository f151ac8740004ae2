"""The host form: open a table on the network, of any game.

Its rows are the table's name and the player's, the game, his colour, the players, then the
chosen game's own table options (those its options schema gives a lobby key:
``rattus_net/kit/options.py``), each changed with Left/Right; a game without table options has
none. The values start where the player left them (per game) and are remembered again.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from rattus_net.kit.interface import AnyGame
from rattus_net.kit.options import Option, OptionValue
from rattus_net.kit.registry import games, network_games
from rattus_net.net.lobby import SEAT_COLOURS, LobbyRefusal, TableOptions, network_game
from rattus_net.net.served import Served
from rattus_net.net.tables import HostLobby
from rattus_net.settings import load_settings, save_settings
from tui.shell.forms import (
    FormScreen,
    chosen_options,
    colour_index,
    default_player_name,
    name_field,
    remember,
    row_line,
    stepped,
)
from tui.shell.lobby import LobbyScreen

LABEL_WIDTH = 15


def table_options(game: AnyGame) -> tuple[Option, ...]:
    """The options of ``game`` a host chooses for his table (in its schema's order)."""
    return chosen_options(game.options.table)


class HostScreen(FormScreen):
    """Open a table: its name, yours, the game, your colour, the players, and the game's own
    table options.

    Every game is offered; one whose tables cannot be played on the network yet (its
    ``network_play`` flag is off) says so when chosen, and cannot be opened."""

    ROWS = ("table", "player", "game", "colour", "players", "open")
    INPUTS = ("table", "player")

    def __init__(self, player: str | None = None, game: str | None = None) -> None:
        super().__init__()
        last = load_settings()  # the player's last choices
        self.served = Served.from_environment()
        self.player = self.served.player or player or last.name or default_player_name()
        self.colour = colour_index(last.colour)
        self.games = games()
        # the game asked for if it can be played on the network, else the first that can
        playable = [g.name for g in network_games()]
        name = game if game in playable else (playable or [self.games[0].name])[0]
        self.game = [g.name for g in self.games].index(name)
        top, low = self.chosen.max_players, self.chosen.min_players
        self.players = min(top, max(low, last.players))
        # each game's table options: its defaults for a table, then what was kept
        self.values: dict[str, dict[str, OptionValue]] = {}
        for g in self.games:
            kept = last.options(g.name)
            self.values[g.name] = {
                o.name: kept.get(o.name, o.default_for("host")) for o in table_options(g)
            }

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("HOST A TABLE", style="bold"), id="form-title")
            yield Static("Table name", classes="label")
            yield Input(f"{self.player}'s table", id="table", classes="field", max_length=40)
            yield from name_field(self.player, self.served)
            yield Static(id="form-body")
            yield Static(id="form-message")
        yield Footer()

    @property
    def chosen(self) -> AnyGame:
        return self.games[self.game % len(self.games)]

    @property
    def rows(self) -> tuple[str, ...]:
        """The chosen game's own option rows before "open"; no name row when it is fixed."""
        own = tuple(o.name for o in table_options(self.chosen))
        fixed = {"player"} if self.served.player else set()
        rows = tuple(r for r in self.ROWS if r not in fixed)
        return rows[:-1] + own + rows[-1:]

    def _option(self, row: str) -> Option | None:
        return next((o for o in table_options(self.chosen) if o.name == row), None)

    def option_values(self) -> dict[str, OptionValue]:
        """The chosen game's own table options, as its rows set them."""
        return dict(self.values[self.chosen.name])

    def options(self) -> TableOptions:
        return TableOptions(self.players, self.chosen.name, self.option_values())

    def redraw(self) -> None:
        labels = {
            "game": f"{'Game':<{LABEL_WIDTH}}< {self.chosen.title} >",
            "colour": f"{'Colour':<{LABEL_WIDTH}}< {SEAT_COLOURS[self.colour]} >",
            "players": f"{'Players':<{LABEL_WIDTH}}< {self.players} >  (you, and guests or bots)",
            "open": "Open the table",
        }
        values = self.values[self.chosen.name]
        for o in table_options(self.chosen):
            labels[o.name] = f"{o.label or o.name:<{LABEL_WIDTH}}< {o.words(values[o.name])} >"
        t = Text()
        for i, row in enumerate(self.rows):
            if row in labels:
                row_line(t, i == self.cursor, labels[row])
        t.append(
            "\nUp/Down: choose a row; Left/Right or +/-: change it; Enter on a name: next row.\n"
            "Seats nobody takes can be filled with bots in the lobby.",
            style="italic",
        )
        self.show_form(t)

    def change(self, delta: int) -> None:
        option = self._option(self.row)
        if self.row == "game":
            self.game = (self.game + delta) % len(self.games)
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players))
            self.message = self._not_networked() or ""
        elif self.row == "colour":
            self.colour = (self.colour + delta) % len(SEAT_COLOURS)
        elif self.row == "players":
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players + delta))
        elif option is not None:
            values = self.values[self.chosen.name]
            values[option.name] = stepped(option, values[option.name], delta)

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
        )
        with contextlib.suppress(OSError):
            save_settings(load_settings().with_options(self.chosen.name, self.option_values()))
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


__all__ = ["HostScreen", "table_options"]
