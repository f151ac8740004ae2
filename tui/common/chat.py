"""The chat line at the bottom of a network table and of a lobby: one widget for both.

Idle, it shows the last line said (or how to start). ``c`` or ``/`` (bound by the screen:
:meth:`ChatBar.open`) opens it: the last few lines above a field to type in; Enter sends,
Escape leaves. What it shows comes from a :class:`ChatSource` (the table's
:class:`rattus_net.net.chat.ChatFeed`, the lobby's chat), already made safe to show: every
line is drawn as plain text (never markup), so a peer's line cannot style or drive anything.

Nor lay the chat out: the bar wraps each line itself, by terminal cells, and every row after a
line's first is indented (:data:`INDENT`), so nothing a peer writes starts a row at the left
edge, where a line reads as said by whoever it names ("P1: I resign, gg"); a line takes at
most :data:`ROWS_PER_LINE` rows (one when idle), cut with ``…``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from protocol.chat import MAX_CHARS
from rattus_net.kit.cells import cells, char_cells
from rattus_net.net.chat import Said

SHOWN = 5
"""Lines shown above the field while the player types (as many of the last ones as fit
:data:`ROWS`)."""
ROWS = 6
"""Rows the lines take at most while the player types (the newest lines kept)."""
ROWS_PER_LINE = 3
"""Rows one line takes at most while the player types (the rest cut with ``…``)."""
INDENT = 4
"""Cells the rows after a line's first are indented by."""


def wrap_cells(text: str, first: int, rest: int, rows: int) -> list[str]:
    """``text`` (safe, one line) in at most ``rows`` rows: the first at most ``first`` cells
    wide, the others ``rest``; broken after a space when the row holds one, and the last row
    cut with ``…`` when more is left. A combining mark stays with its letter."""
    out: list[str] = []
    start = 0
    while start < len(text) and len(out) < rows:
        room = max(1, first if not out else rest)
        end, used, after_space = start, 0, 0
        while end < len(text) and used + char_cells(text[end]) <= room:
            used += char_cells(text[end])
            end += 1
            if text[end - 1] == " ":
                after_space = end
        if end == len(text):
            out.append(text[start:])
            break
        if len(out) + 1 == rows:  # the last row: cut, with … marking it
            row = text[start:end]
            while row and cells(row) > room - 1:
                row = row[:-1]
            out.append(row + "…")
            break
        if after_space > start:
            end = after_space
        end = max(end, start + 1)  # (a letter wider than the row: it goes all the same)
        out.append(text[start:end].rstrip(" "))
        start = end
        while start < len(text) and text[start] == " ":
            start += 1
    return out


class ChatSource(Protocol):
    """What the chat line shows and sends (a table's feed, a lobby's chat)."""

    @property
    def lines(self) -> Sequence[Said]: ...

    @property
    def listeners(self) -> list[Callable[[], None]]: ...

    async def say(self, text: str) -> str | None:
        """Send a line; None once sent, else one line saying why not."""
        ...


class ChatBar(Vertical):
    """The chat line (see the module's docstring). ``name_of(line)`` draws the name of a
    line's author (in its seat's colour and letter, by the game's table or the lobby)."""

    DEFAULT_CSS = """
    ChatBar { height: auto; max-height: 8; }
    ChatBar > #chat-lines { height: auto; }
    ChatBar > #chat-input { height: 1; border: none; padding: 0 1; display: none; }
    ChatBar.typing > #chat-input { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back", show=False)]

    def __init__(
        self, source: ChatSource, name_of: Callable[[Said], Text], *, hint: str = "c: chat"
    ) -> None:
        super().__init__(id="chat")
        self.source = source
        self.name_of = name_of
        self.hint = hint
        self.problem = ""

    def compose(self) -> ComposeResult:
        yield Static(id="chat-lines")
        field = Input(
            placeholder="Say something (Enter: send, Esc: back)",
            max_length=MAX_CHARS,
            id="chat-input",
        )
        field.can_focus = False  # (only while open: the screen's keys stay the screen's)
        yield field

    def on_mount(self) -> None:
        self.source.listeners.append(self.refresh_lines)
        self.refresh_lines()

    def on_resize(self) -> None:
        self.refresh_lines()  # (the rows are wrapped here, by the width)

    def on_unmount(self) -> None:
        if self.refresh_lines in self.source.listeners:
            self.source.listeners.remove(self.refresh_lines)

    @property
    def typing(self) -> bool:
        return self.has_class("typing")

    def said_text(self, said: Said, width: int, rows: int) -> Text:
        """One line in at most ``rows`` rows of ``width`` cells: the seat's name and what it
        said, or a note, as plain text; the rows after the first indented."""
        head = Text() if said.seat is None else Text.assemble(self.name_of(said), ": ")
        body = wrap_cells(said.text, width - head.cell_len, width - INDENT, rows)
        t = head.copy()
        style = "italic" if said.seat is None else ""
        for i, row in enumerate(body):
            if i:
                t.append("\n" + " " * INDENT)
            t.append(row, style=style)
        return t

    @property
    def width(self) -> int:
        """The cells a row of lines has (80 before the first layout)."""
        return self.query_one("#chat-lines", Static).size.width or self.size.width or 80

    def refresh_lines(self) -> None:
        """Show the lines as they stand (the source's listener)."""
        lines = list(self.source.lines)
        width = self.width
        rows: list[Text] = []
        if self.typing:  # the newest lines that fit ROWS, each in at most ROWS_PER_LINE
            used = 0
            for said in reversed(lines[-SHOWN:]):
                text = self.said_text(said, width, min(ROWS_PER_LINE, ROWS - used))
                used += len(text.plain.split("\n"))
                rows.insert(0, text)
                if used >= ROWS:
                    break
        else:
            rows = [self.said_text(said, width, 1) for said in lines[-1:]]
        t = Text(no_wrap=True, overflow="crop")  # (wrapped here: never at the left edge)
        if not rows:
            t.append(f"Chat: nobody said anything yet ({self.hint})", style="dim")
        for i, row in enumerate(rows):
            if i:
                t.append("\n")
            t.append_text(row)
        if self.problem:
            t.append(f"\n{self.problem}", style="bold")
        self.query_one("#chat-lines", Static).update(t)

    def open(self) -> None:
        """Start typing a line."""
        self.add_class("typing")
        field = self.query_one("#chat-input", Input)
        field.can_focus = True
        field.focus()
        self.refresh_lines()

    def action_close(self) -> None:
        """Leave the line (what was typed stays for next time)."""
        self.remove_class("typing")
        field = self.query_one("#chat-input", Input)
        field.can_focus = False
        self.problem = ""
        self.screen.set_focus(None)
        self.refresh_lines()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        if not text.strip():
            self.action_close()
            return
        problem = await self.source.say(text)
        self.problem = problem or ""
        if problem is None:
            event.input.value = ""
        self.refresh_lines()


__all__ = ["INDENT", "ROWS", "ROWS_PER_LINE", "SHOWN", "ChatBar", "ChatSource", "wrap_cells"]
