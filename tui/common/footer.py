"""The keys line at the bottom of a game's screens: one widget, drawn again only when its keys
changed.

Textual's ``Footer`` is a container of one widget per key (and builds them all again whenever
the screen's bindings might have changed, even when they are the same). A decision's dialog is
a new screen each time, so its footer's eight or so widgets were composed, styled, laid out
and painted for every dialog: a third of the time from the key that plays a move to the next
dialog painted (``benchmarks/tui.py``). :class:`KeysFooter` draws the same line (the keys in
Textual's footer colours, ``^p palette`` at the right end) as one piece of text, builds it
again only if the keys to show (or whether they are enabled) changed, and plays a key that is
clicked, as Textual's footer does.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.screen import Screen
from textual.widget import Widget

KeysShown = tuple[tuple[str, str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> KeysShown:
    """The keys a footer of ``screen`` shows: key, words, action, enabled, tooltip."""
    return tuple(
        (binding.key, binding.description, binding.action, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class ShownKey(NamedTuple):
    """A key on the line: what pressing it is (``key``), what it says, where it lies."""

    key: str
    display: str
    description: str
    action: str
    enabled: bool
    start: int  # its first column on the line
    end: int  # the column after it


class KeysFooter(Widget, can_focus=False):
    """The keys of the screen, one line docked at the bottom (see the module's docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--palette",
    }
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    KeysFooter > .keys-footer--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeysFooter > .keys-footer--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeysFooter > .keys-footer--palette {
        color: $foreground 20%;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.builds = 0
        """How many times its keys were worked out anew (not when they were the same)."""
        self.keys: list[ShownKey] = []
        """The keys on the line, in order (the command palette's last)."""
        self._shown: KeysShown | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self._build()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen and shown_keys(screen) != self._shown:
            self._build()
            self.refresh()

    def _build(self) -> None:
        """Work out the keys shown and where each lies (one per action, as Textual's footer;
        the command palette's key kept for the right end)."""
        screen = self.screen
        self._shown = shown_keys(screen)
        self.builds += 1
        palette = self.app.COMMAND_PALETTE_BINDING if self.app.ENABLE_COMMAND_PALETTE else ""
        keys: list[ShownKey] = []
        seen: set[str] = set()
        column = 0
        last: ShownKey | None = None
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if key == palette:
                display = self.app.get_key_display(binding)
                last = ShownKey(key, display, binding.description, binding.action, True, 0, 0)
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            display = self.app.get_key_display(binding)
            width = cell_len(f" {display} {binding.description} ")
            keys.append(
                ShownKey(
                    key,
                    display,
                    binding.description,
                    binding.action,
                    active.enabled,
                    column,
                    column + width,
                )
            )
            column += width
        if last is not None:
            keys.append(last)
        self.keys = keys

    def render(self) -> RenderResult:
        """The keys from the left (`` key words ``), the palette's at the right end."""
        key_style = self.get_component_rich_style("keys-footer--key")
        words_style = self.get_component_rich_style("keys-footer--description")
        line = Text(no_wrap=True, overflow="crop", end="")
        palette: Text | None = None
        for shown in self.keys:
            if shown.key == self.app.COMMAND_PALETTE_BINDING:
                bar = self.get_component_rich_style("keys-footer--palette")
                palette = Text.assemble(
                    ("▏", bar), (shown.display, key_style), (f" {shown.description} ", words_style)
                )
                continue
            piece = Text.assemble(
                (f" {shown.display} ", key_style), (f"{shown.description} ", words_style)
            )
            if not shown.enabled:
                piece.stylize("dim")
            line.append_text(piece)
        width = self.size.width
        if palette is not None and width:
            room = width - palette.cell_len
            if line.cell_len < room:
                line.append(" " * (room - line.cell_len))
                line.append_text(palette)
        return line

    def key_at(self, x: int) -> ShownKey | None:
        """The key drawn at column ``x``."""
        for shown in self.keys:
            if shown.key == self.app.COMMAND_PALETTE_BINDING:
                palette_width = cell_len(f"▏{shown.display} {shown.description} ")
                if x >= self.size.width - palette_width:
                    return shown
            elif shown.start <= x < shown.end:
                return shown
        return None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click on a key presses it (a key not allowed now rings the bell)."""
        shown = self.key_at(event.x)
        if shown is None:
            return
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()


__all__ = ["KeysFooter", "ShownKey", "shown_keys"]
