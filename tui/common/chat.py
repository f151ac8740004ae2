"""The chat line at the bottom of a network table and of a lobby: one widget for both.

Idle, it shows the last line said (or how to start). ``c`` or ``/`` (bound by the screen:
:meth:`ChatBar.open`) opens it: the last few lines above a field to type in; Enter sends,
Escape leaves. What it shows comes from a :class:`ChatSource` (the table's
:class:`rattus_net.net.chat.ChatFeed`, the lobby's chat), already made safe to show: every
line is drawn as plain text (never markup), so a peer's line cannot style or drive anything.
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
from rattus_net.net.chat import Said

SHOWN = 5
"""Lines shown above the field while the player types."""


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

    def on_unmount(self) -> None:
        if self.refresh_lines in self.source.listeners:
            self.source.listeners.remove(self.refresh_lines)

    @property
    def typing(self) -> bool:
        return self.has_class("typing")

    def said_text(self, said: Said) -> Text:
        """One line: the seat's name and what it said, or a note, as plain text."""
        if said.seat is None:
            return Text(said.text, style="italic")
        return Text.assemble(self.name_of(said), ": ", Text(said.text))

    def refresh_lines(self) -> None:
        """Show the lines as they stand (the source's listener)."""
        lines = list(self.source.lines)
        shown = lines[-SHOWN:] if self.typing else lines[-1:]
        t = Text(no_wrap=not self.typing, overflow="ellipsis")
        if not shown:
            t.append(f"Chat: nobody said anything yet ({self.hint})", style="dim")
        for i, said in enumerate(shown):
            if i:
                t.append("\n")
            t.append_text(self.said_text(said))
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


__all__ = ["SHOWN", "ChatBar", "ChatSource"]
