"""Replays from the menu: the player's recent games (both games: date, players, result) and
any record file typed, opened in the replay viewer (:mod:`tui.common.replay`).

Up/Down picks one of the recent games (its file is filled in), Enter opens the file in the
field; a path that is not a file, or a file that is not a record, says why in one line. Under
``rattus serve`` only the player's own folder is listed and opened (:mod:`tui.shell.paths`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from protocol.safetext import safetext
from rattus_net.kit.replay import EVERYTHING
from rattus_net.replays import RecentGame, recent_games
from tui.common.replay import ReplayScreen
from tui.shell.forms import FormScreen
from tui.shell.paths import FileAccess, PathRefused


def game_line(game: RecentGame, width: int = 76) -> str:
    """``2026-12-02 01:10  Rattus         won by Agnes  (You, Agnes, Bertram)``, cut to
    ``width`` (the players last: the longest part)."""
    players = ", ".join(safetext(p) for p in game.players)
    line = f"{game.date}  {game.title:<13} {safetext(game.result)}  ({players})"
    return line if len(line) <= width else line[: width - 3] + "..."


class ReplaysScreen(FormScreen):
    """The player's recent games and a path field (see the module's docstring)."""

    ROWS = ("path",)
    INPUTS = ("path",)

    def __init__(self) -> None:
        super().__init__()
        self.access = FileAccess.from_environment()
        self.games: list[RecentGame] = []
        self.loaded = False
        """The recent games are read (each record is replayed to say how it ended: in a
        worker thread, the screen up meanwhile)."""
        self.picked = -1
        self.problem = ""

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self._read, thread=True, group="recent")

    def _read(self) -> None:
        found = [g for g in recent_games() if self.access.allows(g.path)]
        self.app.call_from_thread(self._show, found)

    def _show(self, games: list[RecentGame]) -> None:
        self.games, self.loaded = games, True
        self.redraw()

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("REPLAYS", style="bold"), id="form-title")
            yield Static("Open a file (a game record or a save)", classes="label")
            yield Input("", id="path", classes="field", placeholder="path of a record file")
            with VerticalScroll(id="verify-scroll"):
                yield Static(id="form-body")
        yield Footer()

    def redraw(self) -> None:
        t = Text()
        if self.problem:
            t.append(self.problem + "\n", style="bold reverse")
        if not self.loaded:
            t.append("Reading your recent games...", style="italic")
        elif not self.games:
            t.append("No games to replay yet: finished and saved games are listed here.")
        else:
            t.append("Your recent games, newest first (Up/Down picks one, Enter opens):")
        for i, game in enumerate(self.games):
            mark = "> " if i == self.picked else "  "
            line = game_line(game, self.app.size.width - 8)
            t.append(f"\n{mark}{line}", style="reverse" if i == self.picked else "")
        self.query_one("#form-body", Static).update(t)

    def action_cursor(self, delta: int) -> None:
        if not self.games:
            super().action_cursor(delta)
            return
        self.picked = (self.picked + delta) % len(self.games)
        field = self.query_one("#path", Input)
        field.value = self.access.shown(self.games[self.picked].path)
        field.cursor_position = len(field.value)
        self.redraw()

    def action_select(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        self.problem = ""
        if not text:
            self.problem = "Pick a game (Up/Down) or type the path of a record file first."
            self.redraw()
            return
        try:
            path = self.access.resolve(text)
        except PathRefused as exc:
            self.problem = safetext(str(exc))
            self.redraw()
            return
        if not path.is_file():
            what = "is a directory, not a record" if path.is_dir() else "no such file"
            self.problem = safetext(f"{text}: {what}")
            self.redraw()
            return
        self.redraw()
        # a game of the list: as its player saw it, where the file says who he was
        listed = [g for g in self.games if g.path == path]
        seat = listed[0].seat if listed else None
        self.app.push_screen(ReplayScreen(path, viewpoint=EVERYTHING if seat is None else seat))


__all__ = ["ReplaysScreen", "game_line"]
