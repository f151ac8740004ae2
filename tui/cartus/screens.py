"""Rattus Cartus's screens: the table (offline, or a seat at a network table) and the end of
the game (with the verifier's verdict after a network game)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, RichLog, Static
from textual.worker import Worker, WorkerState

from protocol.record import Verdict
from rattus_net.games.cartus import data as D
from rattus_net.net.netgame import NetworkGame, problem_text
from tui.cartus import render as R
from tui.cartus.controller import GameController
from tui.cartus.decline import take_without_asking, toggle_always_take
from tui.cartus.dialogs import DecisionDialog, dialog_for
from tui.gametable import GameEndScreen, GameTable
from tui.screens import LogScreen, RulesScreen
from tui.verdict import verdict_text

# --- the table ----------------------------------------------------------------------------------


class TableScreen(GameTable[GameController]):
    """The table of a game. Dialogs open by themselves when you must decide.

    Offline, the bots play in a worker thread after each of your moves. At a network table the
    node plays on its own thread (:mod:`rattus_net.net.netgame`) and says when something
    happened (:class:`tui.gametable.GameTable` listens)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "decide", "Decide"),
        Binding("l", "full_log", "Log"),
        Binding("r", "rules", "Rules"),
        Binding("q", "leave", "Leave game"),
        Binding("t", "toggle_always_take", "Always take", show=False),
        Binding("question_mark,f1", "help", "Keys"),
        Binding("w", "wait_longer", "Wait longer", show=False),  # (said on the awaited line)
    ]

    dialog_type = DecisionDialog

    def __init__(self, controller: GameController) -> None:
        super().__init__(controller)
        self.log_lines: list[str] = []
        self._leave_armed = False
        # The player closed the decision's dialog (Escape) to look at the table: it opens
        # again when he asks (Enter), not at the next network event.
        self._looking = False
        self.busy = False  # the bots and the table are playing (in a worker thread)
        # the log index from which the next summary of what happened starts
        self._news_from = controller.view.log_size
        self._news_open = False

    def compose(self) -> ComposeResult:
        view = self.controller.view
        k = D.ROUND_PLAN[view.n].buildings_per_round
        yield Static(id="status")
        yield Static(id="awaited")
        with Horizontal(id="row"):
            for i in range(k):
                yield Static(id=f"building-{i}", classes="building")
        with Horizontal(id="middle"):
            yield Static(id="players")
            yield Static(id="influence")
        yield Static(id="hand")
        yield Static(id="nuns")
        yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self.update_table()
        self.begin_play()

    def redraw_for_network(self) -> None:
        self.update_table()

    def on_resize(self) -> None:
        self.update_table()  # the hand and the status line are laid out for the width

    def on_screen_resume(self) -> None:
        """Back from the log, the rules, the keys or the "too small" notice: a decision that
        came meanwhile opens now."""
        self.call_after_refresh(self.next_step)

    def show_waiting(self) -> None:
        self.query_one("#awaited", Static).update(Text(self.controller.awaited()))

    def let_others_play(self) -> None:
        """Bots may think for a while: they play in a worker thread; the table shows the last
        state and waits (its keys do nothing meanwhile but show the log or the rules).

        Quick bots (the controller's ``quick_bots``: a few milliseconds per decision) play
        right here instead: a thread would cost more than they do (its start, and handing
        Python's lock back and forth while the screen paints: some 25 ms)."""
        self.busy = True
        if getattr(self.controller, "quick_bots", False):
            try:
                self.controller.advance()
            except Exception as exc:  # as from the worker: said on the table, not a crash
                self._others_played(exc)
            else:
                self.call_later(self._others_played, None)  # once the dialog has gone
            return
        self.query_one("#awaited", Static).update(Text("The others are playing...", style="bold"))
        self.run_worker(self.controller.advance, thread=True, exit_on_error=False, group="bots")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bots":
            return
        if event.state is WorkerState.SUCCESS:
            self._others_played(None)
        elif event.state is WorkerState.ERROR:
            self._others_played(event.worker.error)

    def _others_played(self, error: BaseException | None) -> None:
        """The bots and the table are done (or one of them failed, with ``error``)."""
        self.busy = False
        self.update_table()
        if error is None:
            self.next_step()  # same frame: the dialog and the table paint together
        else:
            self.query_one("#awaited", Static).update(
                Text(f"A bot or the table failed: {error}", style="bold reverse")
            )

    def update_table(self) -> None:
        c = self.controller
        if c.network and not getattr(c, "stable", True):
            # the table is between two states (a card on its way): show the news only
            self.query_one("#awaited", Static).update(Text(c.awaited()))
            self._write_log(c.new_log_lines())
            return
        view = c.view
        width = self.app.size.width
        self.query_one("#status", Static).update(R.status(view, width))
        if c.network and not c.my_turn:
            self.query_one("#awaited", Static).update(Text(c.awaited()))
        else:
            self.query_one("#awaited", Static).update(R.awaited(view, c.names))
        for i, widget in enumerate(self.query(".building").results(Static)):
            widget.update(R.building_card(view, i) if i < len(view.row) else Text(""))
        self.query_one("#players", Static).update(R.players(view))
        self.query_one("#influence", Static).update(R.influence(view))
        self.query_one("#hand", Static).update(R.hand(view, width))
        self.query_one("#nuns", Static).update(R.nun_row(view))
        self._write_log(c.new_log_lines())

    def _write_log(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            self.log_lines.append(line)
            style = "bold" if line.startswith(("Round ", "Game over")) else ""
            log.write(Text(line, style=style))

    def next_step(self, asked: bool = False) -> None:
        """Open the dialog if the human must decide (unless he put it aside to look at the
        table and has not ``asked`` for it again), or the end screen once it is over."""
        if self._dialog_open or self._news_open or self.busy or not self.is_current:
            return
        if asked:
            self._looking = False
        c = self.controller
        if (c.is_over or (c.my_turn and not self._looking)) and self._show_news():
            return
        if self.controller.is_over:
            if self.controller.network:
                assert isinstance(self.controller, NetworkGame)
                self.app.switch_screen(NetEndScreen(self.controller, self.log_lines))
            else:
                self.app.switch_screen(EndScreen(self.controller, self.log_lines))
        elif self.controller.my_turn and not self._looking:
            if take_without_asking(self.controller):  # the "always take" setting
                self._dialog_closed(True)
                return
            self._dialog_open = True
            dialog = dialog_for(self.controller)
            dialog.log_lines = self.log_lines
            self.app.push_screen(dialog, self._dialog_closed)

    def _show_news(self) -> bool:
        """Show what happened since the last decision (buildings resolved, a round ended)
        before the next dialog covers the table; True if it is shown (``next_step`` goes on
        when it is closed)."""
        from tui.cartus.news import NewsScreen, is_newsworthy, summary

        c = self.controller
        if getattr(c, "stable", True) is False:
            return False
        view = c.view
        start, self._news_from = self._news_from, view.log_size
        if not is_newsworthy(view, start):
            return False
        self._news_open = True
        self.app.push_screen(
            NewsScreen(
                summary(view, c.names, start, min(100, self.app.size.width) - 5), self.log_lines
            ),
            self._news_closed,
        )
        return True

    def _news_closed(self, _: None) -> None:
        self._news_open = False
        self.call_after_refresh(self.next_step)

    def _dialog_closed(self, accepted: bool | None) -> None:
        self._dialog_open = False
        self._looking = not accepted
        if accepted and self.controller.network:
            self.update_table()  # the node carries on by itself
            self.call_after_refresh(self.next_step)
        elif accepted:
            self.let_others_play()
        else:
            self.update_table()

    def action_decide(self) -> None:
        self._leave_armed = False
        self.next_step(asked=True)

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_toggle_always_take(self) -> None:
        self.notify(toggle_always_take())

    def action_help(self) -> None:
        from tui.help import open_help

        open_help(self, "the table", "Your decision's dialog opens by itself; Esc puts it aside.")

    async def action_leave(self) -> None:
        if not self._leave_armed:
            self._leave_armed = True
            if self.controller.network:
                self.notify("Press q again to leave: the others will see you stall the game.")
            else:
                self.notify(
                    "Press q again to leave this game (it is saved: Continue it from the menu)."
                )
            return
        stop = getattr(self.controller, "stop", None)
        if stop is not None:
            await stop()
        self.app.clear_notifications()  # "press q again" must not linger over the menu
        self.app.pop_screen()


# --- the end ------------------------------------------------------------------------------------


class EndScreen(GameEndScreen[GameController]):
    """The full scoring breakdown and the winner."""

    HELP_TITLE = "the end of the game"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "menu", "Main menu"),
        Binding("l", "full_log", "Log"),
        Binding("q", "quit_app", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text("GAME OVER: the plague reveals the rats", style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(R.scoring(self.controller.view), id="scoring")
        yield Footer()


# --- the end of a network game ------------------------------------------------------------------


class NetEndScreen(EndScreen):
    """How the network game ended, the scoring, and the verifier's verdict on our record."""

    controller: NetworkGame

    def __init__(self, controller: NetworkGame, log_lines: list[str]) -> None:
        super().__init__(controller, log_lines)
        self.verdict_text = Text("Verifying the signed record...", style="italic")

    def compose(self) -> ComposeResult:
        c = self.controller
        over = c.node.session.game is not None and c.view.is_over
        title = "GAME OVER: the plague reveals the rats" if over else "THE GAME STOPPED"
        yield Static(Text(title, style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(Text(c.summary()), id="end-summary")
            yield Static(self.verdict_text, id="verdict")
            if over:
                yield Static(R.scoring(c.view), id="scoring")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        if self.controller.outcome is not None:
            self.run_worker(self._verify, thread=True, group="verify")
        else:
            self.verdict_text = Text("No record to verify.")
            self.query_one("#verdict", Static).update(self.verdict_text)

    def _verify(self) -> None:
        try:
            verdict = self.controller.verify()
            text = Text("No record.") if verdict is None else self._verdict(verdict)
        except Exception as exc:
            text = Text(f"The record could not be verified: {problem_text(exc)}", style="bold")
        self.app.call_from_thread(self._show, text)

    @staticmethod
    def _verdict(verdict: Verdict) -> Text:
        return verdict_text(verdict)

    def _show(self, text: Text) -> None:
        self.verdict_text = text
        if self.is_attached:
            self.query_one("#verdict", Static).update(text)
