"""The Rattus map screen (offline against bots, or a seat at a network table) and its end
screen.

The map screen shows the board and opens the decision dialog by itself when the human must
decide. Offline, the bots play in a worker thread after each of the human's moves. At a
network table the node plays on its own thread (:mod:`rattus_net.net.netgame`) and calls back
on the app's loop when something happened; a one-second timer keeps the waiting line's clock
going ("waiting for Bob", "Shuffling: 2 of 4 peers done", the countdown of a player who
dropped off, ``w`` waits longer). When an outbreak happened since the human last decided, the
map stays up with the log (the outbreak told step by step) until he presses Enter, so he
always sees what happened before deciding.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static
from textual.worker import Worker, WorkerState

from rattus_net.net.netgame import problem_text
from tui.gametable import GameEndScreen, GameTable
from tui.rattus import render as R
from tui.rattus.controller import RattusController
from tui.rattus.dialogs import RattusDialog
from tui.rattus.netcontroller import RattusNetwork
from tui.screens import LogScreen, RulesScreen
from tui.verdict import VERIFYING, verdict_text

TALL = 34  # terminal rows from which region boxes get a third line
END_LINE = "The game ends after"  # the log's line once the turn that ended the game is over


class MapWidget(Widget):
    """The map, drawn for the widget's width; ``highlight``: regions under a dialog's cursor."""

    DEFAULT_CSS = """
    MapWidget { height: auto; width: 100%; }
    """

    def __init__(self, controller: RattusController) -> None:
        super().__init__(id="r-map")
        self.controller = controller
        self.highlight: tuple[int, ...] = ()
        self.frozen = False  # the bots are playing in a thread: show the last map drawn
        self._last: Text | None = None

    def render(self) -> Text:
        if self.frozen and self._last is not None:
            return self._last
        tall = self.app.size.height >= TALL
        self._last = R.map_text(self.controller.view, self.size.width or 80, tall, self.highlight)
        return self._last


def style_of(line: str) -> str:
    if line.startswith("--"):
        return "bold"
    if line.startswith("Outbreak") or line.startswith("The plague breaks out"):
        return "bold reverse"
    if line.startswith((END_LINE, "Final round")):
        return "bold"
    if line.startswith("    "):
        return "bold"
    if line.startswith("You saw"):
        return "italic"
    return ""


class RattusMapScreen(GameTable[RattusController]):
    """The map of an offline Rattus game."""

    DEFAULT_CSS = """
    RattusMapScreen #r-status { height: 1; background: $boost; }
    RattusMapScreen #r-log {
        height: 1fr;
        min-height: 3;
        border-top: solid $primary;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "decide", "Decide"),
        Binding("l", "full_log", "Log"),
        Binding("r", "rules", "Rules"),
        Binding("q", "leave", "Leave game"),
        Binding("w", "wait_longer", "Wait longer", show=False),  # (said on the waiting line)
    ]

    dialog_type = RattusDialog

    def __init__(self, controller: RattusController) -> None:
        super().__init__(controller)
        self.log_lines: list[str] = []
        self._looking = False
        self._leave_armed = False
        self.busy = False
        self._struck: tuple[int, ...] = ()  # (network) outbreaks since the last decision

    def compose(self) -> ComposeResult:
        yield Static(id="r-status")
        yield MapWidget(self.controller)
        yield Static(id="r-cards")
        yield Static(id="r-players")
        yield Static(id="r-seen")
        yield Static(id="r-awaited")
        yield RichLog(id="r-log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self.update_map()
        self.begin_play()

    def on_resize(self) -> None:
        if not self.busy:  # the game changes in the worker thread meanwhile
            self.update_map()

    # -- at a network table ----------------------------------------------------------------

    def redraw_for_network(self) -> None:
        self._struck += self.struck_regions(self.update_map())

    def on_screen_resume(self) -> None:
        """Back from the log or the rules: a decision that came meanwhile opens now."""
        if self.controller.network:
            self.call_after_refresh(self.next_step)

    def show_waiting(self) -> None:
        self.show_awaited()

    # -- offline: the bots' turns ----------------------------------------------------------

    def let_others_play(self) -> None:
        self.busy = True
        self.query_one(MapWidget).frozen = True
        self.query_one("#r-awaited", Static).update(Text("The others are playing...", style="bold"))
        self.run_worker(self.controller.advance, thread=True, exit_on_error=False, group="bots")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bots":
            return
        if event.state is WorkerState.SUCCESS:
            self.busy = False
            self.query_one(MapWidget).frozen = False
            news = self.update_map()
            struck = self.struck_regions(news)
            if struck and not self.controller.is_over:
                self._looking = True  # read what happened first; Enter decides
                self.set_highlight(struck)  # where the plague struck, on the map
                self.show_awaited()
            self.next_step()
        elif event.state is WorkerState.ERROR:
            self.busy = False
            self.query_one(MapWidget).frozen = False
            self.update_map()
            self.query_one("#r-awaited", Static).update(
                Text(f"A bot or the table failed: {event.worker.error}", style="bold reverse")
            )

    def struck_regions(self, lines: list[str]) -> tuple[int, ...]:
        """The regions of the outbreaks told in ``lines`` (indexes in play)."""
        regions = self.controller.view.regions
        out = []
        for line in lines:
            if line.startswith("Outbreak in "):
                name = line.removeprefix("Outbreak in ").rstrip(":")
                if name in regions:
                    out.append(regions.index(name))
        return tuple(out)

    def set_highlight(self, regions: tuple[int, ...]) -> None:
        m = self.query_one(MapWidget)
        m.highlight = regions
        m.refresh()

    def update_map(self) -> list[str]:
        """Redraw everything; returns the new log lines."""
        view = self.controller.view
        width = self.app.size.width
        self.query_one("#r-status", Static).update(R.status(view))
        self.query_one(MapWidget).refresh(layout=True)
        self.query_one("#r-cards", Static).update(R.cards_line(view))
        self.query_one("#r-players", Static).update(R.players_text(view, width))
        seen = R.seen_text(view)
        seen_widget = self.query_one("#r-seen", Static)
        seen_widget.update(seen)
        seen_widget.display = bool(seen.plain)
        self.show_awaited()
        lines = self.controller.new_log_lines()
        log = self.query_one("#r-log", RichLog)
        for line in lines:
            self.log_lines.append(line)
            log.write(Text(line, style=style_of(line)))
        return lines

    def show_awaited(self) -> None:
        c = self.controller
        t = Text()
        if c.my_turn:
            t.append("YOUR TURN", style="bold reverse")
            t.append(" " + c.awaited().removeprefix("Your turn:"), style="bold")
            if self._looking:
                t.append("  Enter: decide", style="bold")
                if self.query_one(MapWidget).highlight:
                    t.append("  (reversed: where the plague struck)")
        else:
            t.append(c.awaited())
        self.query_one("#r-awaited", Static).update(t)

    def next_step(self, asked: bool = False) -> None:
        if self._dialog_open or self.busy or not self.is_current:
            return
        if asked:
            self._looking = False
            self._struck = ()
        c = self.controller
        if c.network and c.my_turn and self._struck and not asked and not c.is_over:
            self._looking = True  # read what happened first (as offline); Enter decides
            self.set_highlight(self._struck)
            self._struck = ()
            self.show_awaited()
            return
        if self.controller.is_over:
            if isinstance(c, RattusNetwork):
                self.app.switch_screen(RattusNetEndScreen(c, self.log_lines))
            else:
                self.app.switch_screen(RattusEndScreen(self.controller, self.log_lines))
        elif self.controller.my_turn and not self._looking:
            self._dialog_open = True
            self.app.push_screen(
                RattusDialog(self.controller, self.set_highlight), self._dialog_closed
            )

    def _dialog_closed(self, accepted: bool | None) -> None:
        self._dialog_open = False
        self._looking = not accepted
        if accepted and self.controller.network:
            self._struck = ()
            self.update_map()  # the node carries on by itself
            self.call_after_refresh(self.next_step)
        elif accepted:
            self.let_others_play()
        else:
            self.update_map()

    def action_decide(self) -> None:
        self._leave_armed = False
        self.next_step(asked=True)

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen("rattus"))

    async def action_leave(self) -> None:
        if not self._leave_armed:
            self._leave_armed = True
            if self.controller.network:
                self.notify("Press q again to leave: the others will see you stall the game.")
                return
            saved = " (it is saved: Continue it from the menu)" if self.controller.save_to else ""
            self.notify(f"Press q again to leave this game{saved}.")
            return
        if isinstance(self.controller, RattusNetwork):
            await self.controller.stop()
            self.app.clear_notifications()  # "press q again" must not linger over the menu
        self.app.pop_screen()


class RattusEndScreen(GameEndScreen[RattusController]):
    """Cubes per player region by region and in the palace, why the game ended, the final
    round's order, the winner, the tie-break; then the end of the game told step by step."""

    DEFAULT_CSS = """
    RattusEndScreen #end-scroll { height: 1fr; }
    """

    # Not Enter: an Enter typed while the bots played the last turn must not skip the result.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,m", "menu", "Main menu"),
        Binding("l", "full_log", "Log"),
        Binding("q", "quit_app", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        yield Static(Text("GAME OVER: the plague has passed", style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(R.end_text(self.controller.view), id="r-scoring")
            yield Static(self.final_outbreak(), id="r-final")
        yield Footer()

    def final_outbreak(self) -> Text:
        """How the game ended, below the result: the last turn (its spread and outbreak, which
        a player who ended the game did not see on the map), the final round and the final
        outbreak, region by region, token by token."""
        lines = self.log_lines
        end = next((i for i, line in enumerate(lines) if line.startswith(END_LINE)), None)
        if end is None:
            return Text("")
        start = max((i for i in range(end) if lines[i].startswith("-- ")), default=end)
        t = Text("\nThe last turn, the final round, the final outbreak (Up/Down scroll):\n")
        t.stylize("bold")
        for line in lines[start:]:
            if not line.startswith("Game over"):
                t.append(line + "\n", style=style_of(line))
        t.rstrip()
        return t


class RattusNetEndScreen(RattusEndScreen):
    """How the network game ended, the result if it was played to the end (cubes, winner,
    tie-break), and the verifier's verdict on our record (verified in a thread)."""

    controller: RattusNetwork

    def __init__(self, controller: RattusNetwork, log_lines: list[str]) -> None:
        super().__init__(controller, log_lines)
        self.verdict_text = Text(VERIFYING, style="italic")

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        c = self.controller
        over = c.game_over
        title = "GAME OVER: the plague has passed" if over else "THE GAME STOPPED"
        yield Static(Text(title, style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(Text(c.summary()), id="end-summary")
            yield Static(self.verdict_text, id="verdict")
            if over:
                yield Static(R.end_text(c.view), id="r-scoring")
                yield Static(self.final_outbreak(), id="r-final")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        if self.controller.outcome is not None:
            self.run_worker(self._verify, thread=True, group="verify")
        else:
            self._show(Text("No record to verify."))

    def _verify(self) -> None:
        try:
            verdict = self.controller.verify()
            text = Text("No record.") if verdict is None else verdict_text(verdict)
        except Exception as exc:
            text = Text(f"The record could not be verified: {problem_text(exc)}", style="bold")
        self.app.call_from_thread(self._show, text)

    def _show(self, text: Text) -> None:
        self.verdict_text = text
        if self.is_attached:
            self.query_one("#verdict", Static).update(text)
