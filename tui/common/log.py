"""The full log of a game: everything that happened, in words, scrollable (``l`` at a table,
in a dialog, on the end screen)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static


class LogScreen(Screen[None]):
    """Everything that happened, in words, scrollable."""

    HELP_TITLE = "the log"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,l", "close", "Back")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield Static(Text("The game so far (Up/Down, PageUp/PageDown scroll)", style="bold"))
        yield RichLog(id="full-log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#full-log", RichLog)
        for line in self.lines:
            log.write(Text(line, style="bold" if line.startswith("Round ") else ""))
        log.focus()

    def action_close(self) -> None:
        self.app.pop_screen()


__all__ = ["LogScreen"]
