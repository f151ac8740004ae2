"""What happened since the player's last decision, shown before his next dialog covers it.

Every game's table keeps where in the game's log the player last decided
(:meth:`tui.common.table.GameTable.pause_before_deciding`); when he must decide again (or the
game is over) it asks the game for a recap of what happened since (``recap``: pages of text,
none if nothing is worth one) and shows it here, docked at the bottom like a dialog, the
table above it. One page is read at once (it scrolls); several are steps the player goes
through one by one (the end of a game told step by step), the game marking on the table what
each step is about (``on_page``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tui.common.dialog import PANEL_KEYS, TablePanel
from tui.common.footer import KeysFooter

TITLE = "What happened since your last decision"


class RecapScreen(TablePanel[None]):
    """The recap's pages, docked at the bottom. Enter (or Space) goes on: to the next page,
    after the last to the decision; Backspace goes back a page, Escape past the last.
    ``l``, ``r`` and ``?`` work here as in the dialogs."""

    DEFAULT_CSS = """
    RecapScreen {
        align: center bottom;
        background: $background 0%;
    }
    RecapScreen > #recap {
        width: 100%;
        max-width: 100;
        height: auto;
        max-height: 100%;
        border: round $accent;
        background: $panel;
        padding: 0 1;
    }
    RecapScreen #recap-title { text-style: bold; }
    RecapScreen #recap-scroll { height: auto; max-height: 1fr; }
    RecapScreen #recap-help { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "next", "Go on"),
        Binding("backspace", "back", "Back a step", show=False),
        Binding("escape", "close", "Skip"),
        *PANEL_KEYS,
    ]

    def __init__(
        self,
        game: str,
        text: Text | Sequence[Text],
        log_lines: list[str],
        *,
        title: str = TITLE,
        on_page: Callable[[int], None] | None = None,
        height: int | None = None,
    ) -> None:
        """``text``: one page, or the pages; ``on_page`` is told the page shown (its
        index; ``-1`` once the recap is closed); ``height`` caps the panel (in lines: the
        table above it stays in sight)."""
        super().__init__(game, log_lines)
        self.pages = [text] if isinstance(text, Text) else list(text)
        self.recap_title = title
        self.page = 0
        self.on_page = on_page
        self.height = height

    @property
    def text(self) -> Text:
        """The page shown."""
        return self.pages[self.page]

    def heading(self) -> str:
        return "what happened"

    def compose(self) -> ComposeResult:
        with Vertical(id="recap"):
            yield Static(id="recap-title")
            with VerticalScroll(id="recap-scroll"):
                yield Static(self.text, id="recap-body")
            yield Static(id="recap-help")
        yield KeysFooter()

    def on_mount(self) -> None:
        if self.height is not None:  # (the title, the help line and the border: 4 lines)
            self.query_one("#recap", Vertical).styles.max_height = self.height
            self.query_one("#recap-scroll").styles.max_height = max(2, self.height - 4)
        self.show_page()
        self.query_one("#recap-scroll", VerticalScroll).focus()

    def show_page(self) -> None:
        many = len(self.pages) > 1
        title = self.recap_title + (f" (step {self.page + 1} of {len(self.pages)})" if many else "")
        self.query_one("#recap-title", Static).update(Text(title))
        self.query_one("#recap-body", Static).update(self.text)
        self.query_one("#recap-scroll", VerticalScroll).scroll_home(animate=False)
        last = self.page == len(self.pages) - 1
        if not many:
            help_line = "Enter go on, Up/Down scroll, l log, r rules, ? keys"
        elif not last:  # (l, r and ? are in the footer)
            help_line = "Enter next step, Backspace back, Esc skip the steps, Up/Down scroll"
        else:
            help_line = "Enter go on, Backspace back, Up/Down scroll, l log, r rules, ? keys"
        self.query_one("#recap-help", Static).update(Text(help_line))
        if self.on_page is not None:
            self.on_page(self.page)

    def action_next(self) -> None:
        if self.page + 1 < len(self.pages):
            self.page += 1
            self.show_page()
        else:
            self.action_close()

    def action_back(self) -> None:
        if self.page:
            self.page -= 1
            self.show_page()

    def action_close(self) -> None:
        if self.on_page is not None:
            self.on_page(-1)
        self.dismiss(None)


__all__ = ["TITLE", "RecapScreen"]
