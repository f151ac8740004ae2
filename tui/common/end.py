"""The end of a game, any game, offline or at a network table.

The game's result (its own widgets: :meth:`GameEndScreen.result`) in a scroll the keys move;
after a network game, how it ended and the verifier's verdict on our signed record (verified
in a thread, the screen shown meanwhile), and in a browser (``rattus web``) the record offered
as a download (``d``): the player's files stay on the server, the record goes to him. A network
game that stopped before its end shows no result, only how it stopped.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from protocol.verdict import Verdict
from rattus_net.kit.errors import RattusNetError
from rattus_net.net.netgame import NetworkGame, problem_text
from rattus_net.paths import RECORD_SUFFIX
from rattus_net.replays import keep_finished
from tui.common.log import LogScreen, LogSeats
from tui.common.replay import ReplayScreen, offline_replay
from tui.common.seat import Seat

VERIFYING = "Verifying the signed record..."


def verdict_text(verdict: Verdict) -> Text:
    """``Verification: FAIR ...``: its first line bold (reversed if not fair), the rest below."""
    head, _, rest = verdict.text().partition("\n")
    t = Text("Verification: ", style="bold")
    t.append(head, style="bold" if verdict.fair else "bold reverse")
    if rest:
        t.append("\n" + rest)
    return t


class GameEndScreen(Screen[None]):
    """The end of a game (see the module's docstring). A game's end screen gives its title
    (``OVER``) and composes its result (:meth:`result`)."""

    HELP_TITLE = "the end of the game"
    # Enter twice: an Enter typed while the bots played the last turn must not skip the result
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,m", "menu", "Main menu"),
        Binding("enter", "enter_menu", "Main menu (twice)", show=False),
        Binding("l", "full_log", "Log"),
        Binding("q", "quit_app", "Quit"),
        Binding("d", "download", "Download the record"),
        Binding("p", "replay", "Replay"),
    ]

    OVER = "GAME OVER"
    """The title of a game played to its end (a game says it in its own words)."""

    def __init__(self, seat: Seat, log_lines: list[str]) -> None:
        super().__init__()
        self.controller = seat
        self.log_lines = log_lines
        self.log_seats = LogSeats()  # its players (the table says)
        self.verdict_text = Text(VERIFYING, style="italic")
        self._enter_armed = False  # an Enter asked whether to go to the menu

    @property
    def played_out(self) -> bool:
        """The game itself ended (rather than stopped): its result can be shown."""
        c = self.controller
        if isinstance(c, NetworkGame):
            return c.has_game and c.stable and bool(c.view.is_over)
        return c.is_over

    def result(self) -> ComposeResult:
        """The game's result: who won, and why (its own widgets)."""
        yield from ()

    def compose(self) -> ComposeResult:
        c = self.controller
        over = self.played_out
        yield Static(Text(self.OVER if over else "THE GAME STOPPED", style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            if isinstance(c, NetworkGame):
                yield Static(Text(c.summary()), id="end-summary")
                yield Static(self.verdict_text, id="verdict")
            if over:
                yield from self.result()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#end-scroll", VerticalScroll).focus()
        c = self.controller
        if not isinstance(c, NetworkGame):
            self._keep()
            return
        if c.outcome is not None:
            self.run_worker(self._verify, thread=True, group="verify")
        else:
            self._show(Text("No record to verify."))

    def _verify(self) -> None:
        c = self.controller
        assert isinstance(c, NetworkGame)
        try:
            verdict = c.verify()
            text = Text("No record.") if verdict is None else verdict_text(verdict)
        except Exception as exc:
            text = Text(f"The record could not be verified: {problem_text(exc)}", style="bold")
        self.app.call_from_thread(self._show, text)

    def _show(self, text: Text) -> None:
        self.verdict_text = text
        if self.is_attached:
            self.query_one("#verdict", Static).update(text)

    def action_menu(self) -> None:
        self.app.clear_notifications()  # ("Enter again" must not linger over the menu)
        self.app.pop_screen()

    def action_enter_menu(self) -> None:
        """Enter goes to the menu as Esc does, on the second press: the first may have been
        typed for the last decision while the game ended."""
        if self._enter_armed:
            self.action_menu()
            return
        self._enter_armed = True
        self.notify("Press Enter again for the main menu (Esc: at once).")

    def on_key(self, event: events.Key) -> None:
        if event.key != "enter":
            self._enter_armed = False  # any other key forgets the question

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines, self.log_seats))

    def _record(self) -> Path | None:
        """The signed record of the network game that ended here, if there is one."""
        c = self.controller
        outcome = c.outcome if isinstance(c, NetworkGame) else None
        if outcome is None or outcome.alone or not outcome.record.is_file():
            return None
        return outcome.record

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "download":
            return self.app.is_web and self._record() is not None
        return True

    def action_download(self) -> None:
        record = self._record()
        if record is None or not self.app.is_web:
            return
        name = f"{record.parent.parent.name[:16]}{RECORD_SUFFIX}"
        self.app.deliver_binary(record, save_filename=name, mime_type="application/json")
        self.notify(f"Your browser downloads the record ({name}).")

    def _keep(self) -> None:
        """A finished game against bots the menu saved is kept beside its save, for replays."""
        c = self.controller
        if isinstance(c, NetworkGame) or c.save_to is None or not c.is_over:
            return
        try:
            record = c.definition.record_of(c.game, c.table, c.values)
            keep_finished(c.definition.name, record, c.save_to.parent)
        except (OSError, RattusNetError) as exc:
            self.notify(f"The game could not be kept for replays: {exc}", severity="warning")

    def action_replay(self) -> None:
        """The game just played in the replay viewer, from its start, as this seat saw it."""
        c = self.controller
        if isinstance(c, NetworkGame):
            record = self._record()
            if record is None:
                self.notify("This game left no record to replay.")
                return
            self.app.push_screen(ReplayScreen(record, viewpoint=c.seat))
            return
        text = c.definition.record_of(c.game, c.table, c.values)
        source = offline_replay(c.definition, text, c.values)
        self.app.push_screen(ReplayScreen(source, viewpoint=c.seat))

    def action_quit_app(self) -> None:
        self.app.exit()


__all__ = ["VERIFYING", "GameEndScreen", "verdict_text"]
