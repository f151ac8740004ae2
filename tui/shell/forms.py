"""What the shell's forms share (host a table, join one, verify a record): rows chosen with
Up/Down, the player's name and colour, and his choices remembered for next time.

A text row focuses its input (type, Enter goes on); on an option row nothing is focused, so
Left/Right or +/- change the option. Work that takes time runs on the app's own asyncio loop
(workers) or a thread, never blocking it; every failure the player can cause (a bad address, a
table that is gone, another protocol version, a bad file) becomes one plain line on the screen.
"""

from __future__ import annotations

import contextlib
import getpass
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from rattus_net.kit.options import Option, OptionValue
from rattus_net.net.lobby import SEAT_COLOURS
from rattus_net.net.served import Served
from rattus_net.settings import load_settings, save_settings


def stepped(option: Option, value: OptionValue, delta: int) -> OptionValue:
    """The value ``delta`` steps from ``value`` among those ``option`` offers: its listed values
    in turn (round the list; an unlisted value goes to the first), a bool turned over, an int
    moved by ``delta``; a text option that lists no values stays as it is (it is typed, not
    chosen)."""
    if option.values:
        here = option.values.index(value) if value in option.values else -1
        if here < 0:
            return option.values[0]
        return option.values[(here + delta) % len(option.values)]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + delta
    return value


def chosen_options(options: tuple[Option, ...]) -> tuple[Option, ...]:
    """The options of ``options`` a form lets the player choose with Left/Right (a bool, an
    int, or a text among listed values)."""
    return tuple(o for o in options if o.values or o.kind is not str)


def colour_index(colour: str) -> int:
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


def name_field(name: str, served: Served) -> ComposeResult:
    """The name rows of a form: typed, or shown but fixed when a server says who plays."""
    if served.player:
        yield Static(NAME_FIXED, classes="label")
        yield Input(served.player, id="player", classes="field", disabled=True)
    else:
        yield Static("Your name", classes="label")
        yield Input(name, id="player", classes="field", max_length=24)


def row_line(t: Text, selected: bool, label: str) -> None:
    t.append("> " if selected else "  ", style="bold")
    t.append(label, style="reverse bold" if selected else "")
    t.append("\n")


ROW_KEYS: tuple[Binding, ...] = (
    Binding("up", "cursor(-1)", "Up", show=False),
    Binding("down", "cursor(1)", "Down", show=False),
    Binding("left,minus", "change(-1)", "Less", show=False),
    Binding("right,plus,equals_sign", "change(1)", "More", show=False),
)
"""Up/Down choose a row, Left/Right (or -/+) change its setting: the menu's and the forms'."""


class FormScreen(Screen[None]):
    """Rows chosen with Up/Down; rows named in ``INPUTS`` are text inputs."""

    ROWS: ClassVar[tuple[str, ...]] = ()
    INPUTS: ClassVar[tuple[str, ...]] = ()
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "select", "Select"),
        *ROW_KEYS,
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


__all__ = [
    "NAME_FIXED",
    "ROW_KEYS",
    "FormScreen",
    "chosen_options",
    "colour_index",
    "default_player_name",
    "name_field",
    "remember",
    "row_line",
    "stepped",
]
