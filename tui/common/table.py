"""What every game's table screen does the same way, offline and at a network table.

A game's table (``rattus_net/games/<game>/ui``) draws its own game, builds its own dialogs and
end screen, and may hold the player's attention on what happened before he decides; this base
runs the play around them, so that every game behaves alike:

* **The player's decision.** His dialog opens by itself when he must decide; Escape puts it
  aside to look at the table, Enter opens it again. Before it opens, the game may show what
  happened since his last decision (:meth:`GameTable.pause_before_deciding`: the game's
  :meth:`~GameTable.recap` of the log since then, shown in :mod:`tui.common.recap`). The end
  screen follows the end of the game.
* **The bots, offline.** After the player's move the bots and the table play
  (``OfflineTable.advance``): in a worker thread, the table showing the last state meanwhile,
  or on the screen's own loop for quick bots (a thread costs more than they do). While they
  play in the thread the game changes under the screen, so nothing reads it: not a redraw for
  a resize, nor a widget that renders itself (``busy``).
* **A network table.** The player's node plays on its own thread and says when something
  happened; the table redraws once for a burst of such news, closes a dialog the game no
  longer awaits, and a one-second timer keeps the waiting line's clock going. ``w`` gives the
  players who dropped off more time, and exists only there. While the node holds the game
  between two states (a card on its way), only the waiting line and the log are drawn.
* **Chat, at a network table**: a line at the bottom (:mod:`tui.common.chat`), ``c`` or ``/``
  to type; a line said while a dialog covers the table shows as a notification.
* **The log** shows each player's lines in his seat's colour (:meth:`GameTable.seat_style`),
  here and in the full log (``l``), which can show one player's lines only.
* **The same keys everywhere**: Enter decide, ``u`` take back a step of one's turn (before
  anything is revealed or drawn: ``rattus_net/kit/undo.py``), ``l`` the log, ``r`` the
  rules, ``q`` twice to leave, ``?``/F1 the keys. CPython's full garbage collections are
  kept short while the table is on screen (:class:`rattus_net.net.quietgc.QuietCollector`; a
  network table's driver runs its own).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Static
from textual.worker import Worker, WorkerState

from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.offline import OfflineTable
from rattus_net.net.chat import Said
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.quietgc import QuietCollector
from tui.common.chat import ChatBar
from tui.common.dialog import GameDialog, TablePanel
from tui.common.end import GameEndScreen
from tui.common.footer import KeysFooter
from tui.common.help import open_help
from tui.common.log import SEAT_STYLES, LogScreen, LogSeat, LogSeats, styled
from tui.common.parts import Part
from tui.common.recap import RecapScreen
from tui.common.rules import RulesScreen
from tui.common.seat import Seat
from tui.common.soon import Soon


class GameTable(Screen[None]):
    """A game's table (see the module's docstring). A game's table composes its widgets, with
    a :class:`~tui.common.parts.Part` for the waiting line (``AWAITED``) and a ``RichLog``
    (``LOG``), and provides :meth:`draw`, :meth:`dialog` and :meth:`end_screen`; its
    ``on_mount`` is this one's. The game's pieces are ``Part`` widgets too, each given its
    text by :meth:`show_part`: only those whose text changed are painted again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "decide", "Decide"),
        Binding("l", "full_log", "Log"),
        Binding("r", "rules", "Rules"),
        Binding("u", "undo", "Undo step"),
        Binding("q", "leave", "Leave game"),
        Binding("question_mark,f1", "help", "Keys"),
        Binding("w", "wait_longer", "Wait longer", show=False),  # (said on the waiting line)
        Binding("c,slash", "chat", "Chat"),  # (at a network table only)
    ]

    HELP_TITLE = "the table"
    AWAITED = "#awaited"
    """The waiting line's selector: who must do what now."""
    LOG = "#log"
    """The log's selector."""

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.controller = seat
        self.log_lines: list[str] = []
        self.busy = False
        """The bots and the table are playing (in a worker thread): the game is not read."""
        self._quiet = QuietCollector()  # short collector pauses while the table is played
        self._net_changed = Soon(self, self._net_redraw)  # the node's listener
        self._dialog_open = False
        self._aside_open = False  # something the game shows before the decision
        self.looking = False
        """The player looks at the table (he closed his dialog with Escape, or the game holds
        his attention on what happened): his dialog opens again when he asks (Enter), not at
        the next network event."""
        self._leave_armed = False
        known = not isinstance(seat, NetworkGame) or seat.has_game
        self._since = seat.view.log_size if known else 0
        """Where in the game's log the player last decided (his recap starts there)."""

    # -- what a game's table provides ----------------------------------------------------------

    def draw(self) -> None:
        """Draw the game from ``controller.view`` (all but the waiting line and the log),
        each part with :meth:`show_part`."""
        raise NotImplementedError

    def dialog(self) -> GameDialog | None:
        """The dialog of the player's decision, or ``None`` if the game took it for him (a
        setting of his: the move is played already)."""
        raise NotImplementedError

    def end_screen(self) -> Screen[None]:
        raise NotImplementedError

    def awaited_text(self) -> Text:
        """The waiting line: who must do what now."""
        return Text(self.controller.awaited())

    def line_style(self, line: str) -> str:
        """How a line of the log is shown (over its seat's colour)."""
        return ""

    def chat_name(self, seat: int) -> Text:
        """A seat's name on the chat line (a game's table draws it in the seat's colour)."""
        return Text(self.controller.names[seat], style="bold")

    def seat_style(self, seat: int) -> str:
        """The style of a seat's lines in the log: its colour (none with NO_COLOR: the lines
        name their players)."""
        return "" if self.app.no_color else SEAT_STYLES[seat % len(SEAT_STYLES)]

    @property
    def log_seats(self) -> LogSeats:
        """The players as the log shows them."""
        c = self.controller
        seats = tuple(LogSeat(name, self.seat_style(s)) for s, name in enumerate(c.names))
        return LogSeats(seats, c.seat, self.line_style)

    def recap(self, start: int) -> list[Text]:
        """What happened from the game's log index ``start`` (where the player last decided)
        on, in the game's words: one page to read, or steps to go through; none if nothing
        worth holding him for happened."""
        return []

    def recap_screen(self, pages: list[Text]) -> RecapScreen:
        """The panel that shows the recap's ``pages`` (a game may mark its table meanwhile)."""
        return RecapScreen(self.controller.game_name, pages, self.log_lines)

    def pause_before_deciding(self) -> bool:
        """Hold the player's attention on what happened since his last decision before his
        dialog opens (or the end screen does): ``True`` if the table does so (it shows the
        game's :meth:`recap`, or waits for Enter with ``looking``), ``False`` to go on."""
        if not self.stable:
            return False
        start, self._since = self._since, self.controller.view.log_size
        pages = self.recap(start)
        if not pages:
            return False
        self.show_aside(self.recap_screen(pages))
        return True

    # -- drawing -------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.redraw()
        self.begin_play()

    def on_resize(self) -> None:
        if not self.busy:  # (the game changes in the worker thread meanwhile)
            self.redraw()  # the table is laid out for the width

    @property
    def stable(self) -> bool:
        """Every piece the seat holds is known: a network table may hold the game between two
        states for a moment (a card on its way), when only the log and the waiting line are
        drawn."""
        c = self.controller
        return not isinstance(c, NetworkGame) or c.stable

    def redraw(self) -> list[str]:
        """Draw the table anew and write the new lines of the log; returns them."""
        c = self.controller
        if self.stable:
            self.draw()
        self.show_awaited()
        return self.write_log(c.new_log_lines())

    def show_part(self, selector: str, text: Text) -> bool:
        """Show ``text`` in the part ``selector``, which is painted again only if its text
        changed (``True`` then; a plain ``Static`` there is always painted again)."""
        widget = self.query_one(selector, Static)
        if isinstance(widget, Part):
            return widget.show(text)
        widget.update(text)
        return True

    def show_awaited(self, text: Text | None = None) -> None:
        self.show_part(self.AWAITED, self.awaited_text() if text is None else text)

    def write_log(self, lines: list[str]) -> list[str]:
        """Add ``lines`` to the log, in one write (one layout of the log, not one a line)."""
        if lines:
            seats = self.log_seats
            batch = Text()
            for i, line in enumerate(lines):
                if i:
                    batch.append("\n")
                batch.append_text(styled(line, seats, self.line_style(line)))
            self.query_one(self.LOG, RichLog).write(batch)
            self.log_lines += lines
        return lines

    # -- the play ------------------------------------------------------------------------------

    def begin_play(self) -> None:
        """From ``on_mount``, once the table is drawn: listen to the node at a network table,
        else let the bots play or open the player's decision."""
        c = self.controller
        if isinstance(c, NetworkGame):  # (its driver keeps the collector's pauses short)
            if not self.query(ChatBar):  # (once, however often the table plays on)
                self.mount(ChatBar(c.chat, self._chat_name), before=self.query_one(KeysFooter))
                c.chat.listeners.append(self._chat_heard)
            c.listeners.append(self._net_changed)
            self.set_interval(1.0, self._tick)
            self.call_after_refresh(self.next_step)
            return
        self._quiet.start()
        if c.my_turn or c.is_over:
            self.call_after_refresh(self.next_step)
        else:  # once the table is painted: a widget that draws itself has its picture then
            self.call_after_refresh(self.let_others_play)

    def on_unmount(self) -> None:
        self._quiet.stop()
        c = self.controller
        if isinstance(c, NetworkGame) and self._net_changed in c.listeners:
            c.listeners.remove(self._net_changed)
        if isinstance(c, NetworkGame) and self._chat_heard in c.chat.listeners:
            c.chat.listeners.remove(self._chat_heard)

    def on_screen_resume(self) -> None:
        """Back from the log, the rules, the keys or the "too small" notice: a decision that
        came meanwhile opens now."""
        self.call_after_refresh(self.next_step)

    def next_step(self, asked: bool = False) -> None:
        """Open the dialog if the player must decide (unless he put it aside to look at the
        table and has not ``asked`` for it again), or the end screen once it is over."""
        if self._dialog_open or self._aside_open or self.busy or not self.is_current:
            return
        c = self.controller
        if asked:
            self.looking = False
            self.show_awaited()  # (no more "Enter: decide" behind the dialog)
        deciding = c.my_turn and not self.looking
        if (c.is_over or deciding) and self.pause_before_deciding():
            return
        if c.is_over:
            end = self.end_screen()
            if isinstance(end, GameEndScreen):
                end.log_seats = self.log_seats
            self.app.switch_screen(end)
        elif deciding:
            dialog = self.dialog()
            if dialog is None:  # taken without asking
                self._dialog_closed(True)
                return
            dialog.log_lines = self.log_lines
            dialog.leave = self.action_leave  # (q over the dialog: as on the table)
            dialog.log_seats = self.log_seats
            self._dialog_open = True
            self.app.push_screen(dialog, self._dialog_closed)

    def _dialog_closed(self, accepted: bool | None) -> None:
        self._dialog_open = False
        self._leave_armed = False  # (a q pressed in the dialog asked about that moment only)
        self.looking = not accepted
        if not accepted:
            self.redraw()
            return
        if isinstance(self.controller, NetworkGame):
            self.redraw()  # the node carries on by itself
            self.call_after_refresh(self.next_step)
        else:
            self.let_others_play()

    def show_aside(self, screen: ModalScreen[None]) -> None:
        """Show ``screen`` over the table before the decision; the play goes on once it is
        closed."""
        self._aside_open = True
        if isinstance(screen, TablePanel):
            screen.leave = self.action_leave
            screen.log_seats = self.log_seats
        self.app.push_screen(screen, self._aside_closed)

    def _aside_closed(self, _: None) -> None:
        self._aside_open = False
        self.call_after_refresh(self.next_step)

    # -- offline: the bots' turns --------------------------------------------------------------

    def let_others_play(self) -> None:
        """The bots and the table play until the player must decide again. Bots may think
        for a while: in a worker thread, the table showing the last state and waiting (its
        keys do nothing meanwhile but show the log or the rules). Quick bots (a few
        milliseconds a decision) play right here instead: a thread would cost more than they
        do (its start, and handing Python's lock back and forth while the screen paints)."""
        c = self.controller
        assert isinstance(c, OfflineTable)
        self.busy = True
        if c.quick_bots:
            try:
                c.advance()
            except Exception as exc:  # as from the worker: said on the table, not a crash
                self._others_played(exc)
            else:
                self.call_later(self._others_played, None)  # once the dialog has gone
            return
        self.show_awaited(Text("The others are playing...", style="bold"))
        self.run_worker(c.advance, thread=True, exit_on_error=False, group="bots")

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
        self.redraw()
        if error is None:  # the table shows the moves first, then the next dialog opens
            self.call_after_refresh(self.next_step)
        else:
            self.show_awaited(Text(f"A bot or the table failed: {error}", style="bold reverse"))

    # -- at a network table --------------------------------------------------------------------

    def _net_redraw(self) -> None:
        """The node said something happened (once for a burst of news): redraw."""
        self.redraw()
        dialog = self.app.screen
        if self.controller.is_over and self._dialog_open and isinstance(dialog, GameDialog):
            dialog.dismiss(False)  # the game stopped while the player was choosing
            self.call_after_refresh(self.next_step)
            return
        self.next_step()

    def _tick(self) -> None:
        if not self.controller.my_turn and not self.controller.is_over:
            self.show_awaited()

    def _chat_name(self, said: Said) -> Text:
        c, seat = self.controller, said.seat
        assert seat is not None
        if isinstance(c, NetworkGame) and c.has_game:
            return self.chat_name(seat)
        return Text(c.names[seat], style="bold")

    def _chat_heard(self) -> None:
        """A chat line: shown on the chat line, or, over a dialog, as a notification."""
        c = self.controller
        if self.app.screen is self or not isinstance(c, NetworkGame) or not c.chat.lines:
            return
        said = c.chat.lines[-1]
        who = "" if said.seat is None else f"{c.names[said.seat]}: "
        self.app.notify(who + said.text[:120], title="Chat", markup=False)

    def action_chat(self) -> None:
        """Type a chat line (a network table)."""
        if isinstance(self.controller, NetworkGame):
            self.query_one(ChatBar).open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``w`` (wait longer for a player who dropped off) and chat exist only at a network
        table; ``u`` only in a game whose turns can be several steps."""
        if action in ("wait_longer", "chat"):
            return isinstance(self.controller, NetworkGame)
        if action == "undo":
            return self.controller.definition.turns_of_steps
        return True

    def action_wait_longer(self) -> None:
        """At a network table, give the players who dropped off more time."""
        c = self.controller
        line = c.wait_longer() if isinstance(c, NetworkGame) else None
        if line is not None:
            self.notify(line)

    # -- the keys ------------------------------------------------------------------------------

    def action_decide(self) -> None:
        self._leave_armed = False
        self.next_step(asked=True)

    def action_undo(self) -> None:
        """``u``: take back the last step of the player's turn, while his dialog is put
        aside (the dialog has the same key); a refusal is said in one line."""
        if self.busy:
            self.notify("Nothing to take back: the others are playing.", severity="warning")
            return
        try:
            self.controller.undo()
        except RattusNetError as exc:  # UndoRefused, a decision withdrawn
            self.notify(str(exc), severity="warning")
            return
        self.redraw()

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines, self.log_seats))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.controller.game_name))

    def action_help(self) -> None:
        note = "Your decision's dialog opens by itself; Esc puts it aside."
        open_help(self, self.HELP_TITLE, note)

    async def action_leave(self) -> None:
        c = self.controller
        if not self._leave_armed:
            self._leave_armed = True
            if isinstance(c, NetworkGame):
                self.notify("Press q again to leave: the others will see you stall the game.")
            else:
                saved = " (it is saved: Continue it from the menu)" if c.save_to else ""
                self.notify(f"Press q again to leave this game{saved}.")
            return
        if isinstance(c, NetworkGame):
            await c.stop()
        self.app.clear_notifications()  # "press q again" must not linger over the menu
        while self.app.screen is not self:  # q pressed over a dialog or a panel: it goes too
            self.app.pop_screen()
        self.app.pop_screen()


__all__ = ["GameTable"]
