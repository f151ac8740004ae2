"""The one dialog of every Rattus decision: a step-by-step choice among legal options.

It walks a :class:`~tui.rattus.choices.ChoiceTree`: digits or Up/Down move the cursor, Enter
takes the option, Escape steps back (from the first step it closes the dialog to look at the
map; Enter on the map opens it again). The regions of the option under the cursor are shown
reversed on the map behind (the map cursor). If the engine still rejects the move, its
message is shown and the dialog stays open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.moves import Move
from rattus_net.kit.errors import RattusNetError
from tui.rattus.choices import Choice, ChoiceTree, heading, tree_for
from tui.rattus.controller import RattusController
from tui.rattus.render import seen_text

LIST_HEIGHT = 5  # options shown at once (the rest scrolls with the cursor)


def window(count: int, cursor: int, height: int = LIST_HEIGHT) -> range:
    """The rows of a list of ``count`` to show so that ``cursor`` is visible."""
    if count <= height:
        return range(count)
    start = min(max(0, cursor - height // 2), count - height)
    return range(start, start + height)


class RattusDialog(ModalScreen[bool]):
    """Dismisses with True once the move was accepted, False when closed to look at the map."""

    DEFAULT_CSS = """
    RattusDialog {
        align: center bottom;
        background: $background 0%;
    }
    RattusDialog > #dialog {
        width: 100%;
        max-width: 100;
        height: auto;
        max-height: 12;
        border: round $accent;
        background: $panel;
        padding: 0 1;
    }
    RattusDialog #dlg-title { text-style: bold; }
    RattusDialog #dlg-error { color: $error; text-style: bold; }
    RattusDialog #dlg-help { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "back", "Back"),
        Binding("up,left", "cursor(-1)", "Up", show=False),
        Binding("down,right", "cursor(1)", "Down", show=False),
        Binding("pageup", "cursor(-5)", "Page up", show=False),
        Binding("pagedown", "cursor(5)", "Page down", show=False),
        *[Binding(str(k), f"digit({k})", str(k), show=False) for k in range(1, 10)],
    ]

    def __init__(
        self,
        controller: RattusController,
        on_highlight: Callable[[tuple[int, ...]], None] | None = None,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.view = controller.view
        d = self.view.decision
        assert d is not None
        self.kind: Kind = d.kind
        self.choices: ChoiceTree = tree_for(self.view)
        self.cursor = 0
        self.error = ""
        self.on_highlight = on_highlight

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(id="dlg-title")
            yield Static(id="dlg-body")
            yield Static(id="dlg-error")
            yield Static(id="dlg-help")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    @property
    def options(self) -> list[Choice]:
        return self.choices.options()

    def redraw(self) -> None:
        step = len(self.choices.chosen)
        title = Text(heading(self.view, step), no_wrap=True, overflow="ellipsis")
        if self.choices.chosen:
            crumbs = [c.label.split(":")[0] for c in self.choices.chosen[:1]]
            crumbs += [c.label for c in self.choices.chosen[1:]]
            title.append("\n  chosen: " + " > ".join(crumbs), style="italic")
        self.query_one("#dlg-title", Static).update(title)
        body = Text()
        if self.kind is Kind.SWAP:
            body.append_text(seen_text(self.view))
            body.append("\n")
        opts = self.options
        rows = window(len(opts), self.cursor)
        for i in rows:
            sel = i == self.cursor
            key = str(i + 1) if i < 9 else " "
            body.append(">" if sel else " ", style="bold")
            body.append(f" {key} {opts[i].label}", style="reverse" if sel else "")
            body.append("\n")
        more = []
        if rows.start > 0:
            more.append(f"{rows.start} more above")
        if rows.stop < len(opts):
            more.append(f"{len(opts) - rows.stop} more below")
        if more:
            body.append(f"   ... {', '.join(more)}", style="italic")
        body.rstrip()
        self.query_one("#dlg-body", Static).update(body)
        err = self.query_one("#dlg-error", Static)
        err.update(Text(f"Not allowed: {self.error}" if self.error else ""))
        err.display = bool(self.error)
        back = "Esc back" if self.choices.chosen else "Esc look at the map"
        self.query_one("#dlg-help", Static).update(
            Text(f"Up/Down or 1-9 choose, Enter confirm, {back}")
        )
        if self.on_highlight is not None:
            self.on_highlight(opts[self.cursor].regions if opts else ())

    def submit(self, move: Move) -> None:
        try:
            self.controller.play(move)
        except RattusNetError as exc:  # IllegalMove and friends: say why, stay open
            self.error = str(exc) or exc.__class__.__name__
            self.choices.back()
            self.redraw()
            return
        self._close(True)

    def _close(self, accepted: bool) -> None:
        if self.on_highlight is not None:
            self.on_highlight(())
        self.dismiss(accepted)

    def action_confirm(self) -> None:
        opts = self.options
        if not opts:
            return
        self.error = ""
        move = self.choices.choose(opts[self.cursor])
        if move is not None:
            self.submit(move)
            return
        self.cursor = 0
        self.redraw()

    def action_back(self) -> None:
        self.error = ""
        if self.choices.back():
            self.cursor = 0
            self.redraw()
        else:
            self._close(False)

    def action_cursor(self, delta: int) -> None:
        count = len(self.options)
        if count:
            self.cursor = (
                (self.cursor + delta) % count
                if abs(delta) == 1
                else max(0, min(count - 1, self.cursor + delta))
            )
        self.error = ""
        self.redraw()

    def action_digit(self, value: int) -> None:
        if 1 <= value <= len(self.options):
            self.cursor = value - 1
            self.error = ""
            self.redraw()
