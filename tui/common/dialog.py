"""What every game's decision dialogs share: a panel docked at the bottom of the table, keyboard
only, that hands a move to the seat and stays open, saying why, if the rules refuse it.

A game's dialog draws its title, body, hint and help line and builds the move
(:class:`GameDialog`'s hooks); this base lays them out (title, body, the hint a game gives where
the player decides, the refusal and the warning lines, help), plays the move (a move the game
declares a give-up waits for a second Enter, :meth:`GameDialog.second_enter`), and opens the
log (``l``), the rules (``r``) and the keys (``?``/F1) over itself; ``q`` leaves the game from
there as from the table (twice, the first press says what it does). It dismisses with ``True``
once the move was accepted, ``False`` when the player closes it to look at the table (Enter on
the table opens it again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from rattus_net.kit.errors import RattusNetError
from tui.common.behind import over_the_table
from tui.common.footer import KeysFooter
from tui.common.help import open_help
from tui.common.log import LogScreen, LogSeats
from tui.common.parts import Part
from tui.common.rules import RulesScreen
from tui.common.seat import Seat

T = TypeVar("T")

PANEL_KEYS: tuple[Binding, ...] = (
    Binding("l", "full_log", "Log"),
    Binding("r", "rules", "Rules"),
    Binding("q", "leave", "Leave game", show=False),  # (the table's footer shows it)
    Binding("question_mark,f1", "help", "Keys"),
)
"""The keys of every panel over a table, shown in its footer after its own: ``q`` leaves the
game as on the table itself (asking first), listed by ``?`` but not in a footer the panel's
own keys fill."""

DIALOG_KEYS: tuple[Binding, ...] = (
    Binding("enter", "confirm", "Confirm"),
    Binding("escape", "back", "Back"),
    Binding("u", "undo", "Undo"),  # (shown while a step of the turn may be taken back)
    Binding("u", "undo_refused", "Undo", show=False),  # (else: says why not)
)
"""The keys of every decision's dialog, shown first in its footer: a dialog binds them, then
its own (to choose), then :data:`PANEL_KEYS`. ``u Undo`` is shown while there is a step of
the turn to take back; otherwise ``u`` says why there is none."""

LIST_KEYS: tuple[Binding, ...] = (
    Binding("up,left", "cursor(-1)", "Up", show=False),
    Binding("down,right", "cursor(1)", "Down", show=False),
    Binding("pageup", "page(-1)", "Page up", show=False),
    Binding("pagedown", "page(1)", "Page down", show=False),
    Binding("home", "cursor_to(0)", "First row", show=False),
    Binding("end", "cursor_to(-1)", "Last row", show=False),
    *[Binding(str(k), f"digit({k})", str(k), show=False) for k in range(1, 10)],
)
"""The keys of a list to choose one row from (:class:`ListDialog`): a digit reaches the first
nine rows, the arrows, PgUp/PgDn, Home and End every row."""
DIGIT_ROWS = 9
"""Rows a digit reaches (1 to 9); the arrows, PgUp/PgDn, Home and End reach the others."""


def window(count: int, cursor: int, height: int) -> range:
    """The rows of a list of ``count`` to show so that ``cursor`` is visible."""
    if count <= height:
        return range(count)
    start = min(max(0, cursor - height // 2), count - height)
    return range(start, start + height)


class TablePanel(ModalScreen[T], Generic[T]):
    """A panel over a game's table (a decision's dialog, what happened since the last one):
    ``l`` shows the game's log, ``r`` its rules and ``?``/F1 the panel's keys, over it
    (:data:`PANEL_KEYS`, which a panel binds after its own keys)."""

    HELP_NOTE = ""

    def __init__(self, game: str, log_lines: list[str] | None = None) -> None:
        super().__init__()
        self.game = game
        self.log_lines = [] if log_lines is None else log_lines  # the table's log
        self.log_seats = LogSeats()  # its players (the table says)
        self.leave: Callable[[], Awaitable[None]] | None = None
        """The table's ``q`` (set by the table that shows the panel): leave the game."""

    def render(self) -> RenderResult:  # type: ignore[override]  # (a Visual is fine too)
        return over_the_table(self, super().render)  # the table behind, as it was painted

    def heading(self) -> str:
        """What the panel is about, in a few words (its keys' help is titled with it)."""
        return "this panel"

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines, self.log_seats))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game))

    def action_help(self) -> None:
        open_help(self, self.heading(), self.HELP_NOTE)

    async def action_leave(self) -> None:
        if self.leave is not None:
            await self.leave()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``q`` only over a table that can be left (not in a panel shown on its own)."""
        return action != "leave" or self.leave is not None


class GameDialog(TablePanel[bool]):
    """A decision's dialog (see the module's docstring). A game's dialog provides
    :meth:`heading`, :meth:`body` and :meth:`help_line`, binds :data:`DIALOG_KEYS`, its own
    keys and :data:`PANEL_KEYS` (in that order: the footer shows them so), and calls
    :meth:`submit` with the move it built."""

    DEFAULT_CSS = """
    GameDialog {
        align: center bottom;
        background: $background 0%;
    }
    GameDialog > #dialog {
        width: 100%;
        max-width: 100;
        height: auto;
        border: round $accent;
        background: $panel;
        padding: 0 1;
    }
    GameDialog #dlg-title { text-style: bold; }
    GameDialog #dlg-hint { color: $text-muted; }
    GameDialog #dlg-error { color: $error; text-style: bold; }
    GameDialog #dlg-warning { text-style: bold reverse; }
    GameDialog #dlg-help { color: $text-muted; }
    """

    HELP_NOTE = "Digits and arrows choose, Enter confirms."

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat.game_name)
        self.controller = seat
        self.view: Any = seat.view  # (the decision's moment: the table may move on meanwhile)
        self.error = ""
        # what a second Enter would give up (None: nothing asked); any other key forgets it
        self.warning: str | None = None
        self.undoable = bool(seat.definition.turns_of_steps) and seat.undoable
        """A step of the turn may be taken back (it stays so while the dialog is open: only a
        move of the player changes it, and a move closes the dialog)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Part(id="dlg-title")
            yield from self.compose_above()
            yield Part(id="dlg-body")
            yield Part(id="dlg-hint")
            yield Part(id="dlg-error")
            yield Part(id="dlg-warning")
            yield Part(id="dlg-help")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Show the dialog's parts anew; only those whose text changed are painted again (a
        cursor's move changes the body, not the title or the help)."""
        self.query_one("#dlg-title", Part).show(self.title_line())
        self.query_one("#dlg-body", Part).show(self.body())
        hint = self.query_one("#dlg-hint", Part)
        words = self.hint()
        hint.show(words)
        hint.display = bool(words.plain)
        err = self.query_one("#dlg-error", Part)
        err.show(Text(f"Not allowed: {self.error}" if self.error else ""))
        err.display = bool(self.error)
        warn = self.query_one("#dlg-warning", Part)
        warn.show(Text(f"{self.warning} Enter again to confirm." if self.warning else ""))
        warn.display = bool(self.warning)
        self.query_one("#dlg-help", Part).show(Text(self.help_line()))

    # --- what a game's dialog provides --------------------------------------------------------

    def heading(self) -> str:
        """What is decided, in a few words (the title; the keys' help is titled with it)."""
        return "Decide"

    def title_line(self) -> Text:
        return Text(self.heading())

    def compose_above(self) -> ComposeResult:
        """Widgets between the title and the body (what the dialog covers of the table)."""
        yield from ()

    def body(self) -> Text:
        return Text()

    def hint(self) -> Text:
        """What helps to decide here (the game's words: what a choice does and risks, what
        the seat knows); nothing by default. Shown between the body and the help line."""
        return Text()

    def help_line(self) -> str:
        return "Enter confirm  Esc back"

    def second_enter(self, move: object) -> str | None:
        """Why ``move`` gives something up (a warning the player reads before a second Enter
        plays it), or ``None`` when one Enter is enough. The game declares its give-ups here;
        :meth:`submit` asks."""
        return None

    def refused(self) -> None:
        """The rules refused the move just submitted (the dialog stays open)."""

    def held(self) -> None:
        """The move just submitted waits for a second Enter (see :meth:`second_enter`): a
        dialog that walks steps goes back to the step that built it."""

    # --- shared -------------------------------------------------------------------------------

    def submit(self, move: object) -> None:
        """Play the move; the table lets the others play once the dialog is closed. A give-up
        (:meth:`second_enter`) is played only at the second Enter; the first one says what
        would be given up. If the rules refuse it, say why and stay open."""
        words = self.second_enter(move)
        if words is not None and not self.give_up(words):
            self.held()
            self.redraw()
            return
        try:
            self.controller.play(move)
        except RattusNetError as exc:  # IllegalMove, a decision withdrawn: say why, stay open
            self.error = str(exc) or exc.__class__.__name__
            self.refused()
            self.redraw()
            return
        self.close(True)

    def close(self, accepted: bool) -> None:
        self.dismiss(accepted)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``u`` only in a game whose turns can be several steps (as on the table): shown
        while a step may be taken back, else saying why not."""
        if action == "undo":
            return self.undoable
        if action == "undo_refused":
            return bool(self.controller.definition.turns_of_steps) and not self.undoable
        return super().check_action(action, parameters)

    def action_undo(self) -> None:
        """``u``: take back the last step of the player's turn (``rattus_net/kit/undo.py``).
        The dialog closes as if a move was played, and the table asks the decision before
        that step again; a refusal is said in one line and the dialog stays open."""
        try:
            self.controller.undo()
        except RattusNetError as exc:  # UndoRefused, a decision withdrawn
            self.notify(str(exc), severity="warning")
            return
        self.close(True)

    def action_undo_refused(self) -> None:
        """``u`` with no step to take back: says why (the seat's words)."""
        self.action_undo()

    def give_up(self, what: str) -> bool:
        """True when the player confirmed giving up ``what`` (a second Enter); the first
        Enter only says what would be given up."""
        if self.warning == what:
            return True
        self.warning = what
        return False


class ListDialog(GameDialog):
    """A dialog that chooses one row of a list (``rows``): Up/Down (or Left/Right) move the
    cursor, PgUp/PgDn a list's height of rows, Home and End to the first and the last row, a
    digit takes the row of that number (1 to 9); Enter confirms. The list scrolls with the
    cursor, ``LIST_HEIGHT`` rows at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [*DIALOG_KEYS, *LIST_KEYS, *PANEL_KEYS]

    LIST_HEIGHT = 5

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self.cursor = 0

    def rows(self) -> list[str]:
        """The rows to choose from, in words."""
        return []

    def list_text(self) -> Text:
        """The rows that fit, numbered (1 to 9), the cursor's reversed; what is out of sight
        is counted below them, with the keys that reach it."""
        labels = self.rows()
        t = Text()
        shown = window(len(labels), self.cursor, self.LIST_HEIGHT)
        for i in shown:
            sel = i == self.cursor
            key = str(i + 1) if i < DIGIT_ROWS else " "
            t.append(">" if sel else " ", style="bold")
            t.append(f" {key} {labels[i]}", style="reverse" if sel else "")
            t.append("\n")
        more = []
        if shown.start > 0:
            more.append(f"{shown.start} more above")
        if shown.stop < len(labels):
            more.append(f"{len(labels) - shown.stop} more below")
        if more:  # (past the digits' rows: the keys that reach them)
            keys = " (PgUp/PgDn, Home/End)" if len(labels) > DIGIT_ROWS else ""
            t.append(f"   ... {', '.join(more)}{keys}", style="italic")
        t.rstrip()
        return t

    def choose_keys(self) -> str:
        """The keys that choose a row, in words (for the help line): the digits reach only
        the first nine rows, so a longer list names the keys that reach the others."""
        if len(self.rows()) > DIGIT_ROWS:
            return "1-9, arrows, PgUp/PgDn, Home/End"
        return "Up/Down or 1-9"

    def action_cursor(self, delta: int) -> None:
        """One row round the list, or five without going round."""
        count = len(self.rows())
        if count:
            self.cursor = (
                (self.cursor + delta) % count
                if abs(delta) == 1
                else max(0, min(count - 1, self.cursor + delta))
            )
        self.error = ""
        self.warning = None
        self.redraw()

    def action_page(self, pages: int) -> None:
        """A list's height of rows up or down, without going round."""
        self.action_cursor(pages * self.LIST_HEIGHT)

    def action_cursor_to(self, row: int) -> None:
        """To row ``row`` (``-1``: the last)."""
        count = len(self.rows())
        if count:
            self.cursor = row % count
        self.error = ""
        self.warning = None
        self.redraw()

    def action_digit(self, value: int) -> None:
        if 1 <= value <= len(self.rows()):
            self.cursor = value - 1
            self.error = ""
            self.warning = None
            self.redraw()


__all__ = [
    "DIALOG_KEYS",
    "DIGIT_ROWS",
    "LIST_KEYS",
    "PANEL_KEYS",
    "GameDialog",
    "ListDialog",
    "TablePanel",
    "window",
]
