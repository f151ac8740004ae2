"""The parts of a table's screen, each re-rendered only when its own part of the view changed.

A game's table is drawn anew after every move (its own, the bots', a network peer's), but most
of it stays the same: a move changes one seat's panel, the waiting line and the log, not the
building row or the map. A :class:`Part` holds the text it shows and takes a new one only if
it differs, so Textual repaints (and lays out again) only the parts that changed; a part whose
height cannot change is repainted without laying the screen out again. The games supply the
text of each part (their pure render functions); the table (:class:`tui.common.table.GameTable`)
hands each part its new text with ``show_part``.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import RenderResult
from textual.widgets import Static


def same_text(a: Text, b: Text) -> bool:
    """Whether ``a`` and ``b`` look the same: Rich's own ``==`` looks at the characters and
    the spans, not at the style of the whole text (``Text("x", style="bold") == Text("x")``)."""
    return (
        a.plain == b.plain
        and a.spans == b.spans
        and a.style == b.style
        and (a.justify, a.overflow, a.no_wrap, a.end) == (b.justify, b.overflow, b.no_wrap, b.end)
    )


def _line_widths(text: Text) -> list[int]:
    return [cell_len(line) for line in text.plain.split("\n")]


class Part(Static):
    """A piece of a table (the status line, a seat's panel, the map, the waiting line) that
    shows one ``Text`` and is re-rendered only when a different one is shown."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.shown: Text | None = None
        """The text on screen (``None``: nothing shown yet)."""
        self.renders = 0
        """How many times the part took a new text (the others were the same as shown)."""
        self.paints = 0
        """How many times Textual asked the part for its picture (:meth:`render`)."""

    def show(self, text: Text) -> bool:
        """Show ``text`` if it differs from what is shown; ``True`` if it did."""
        old = self.shown
        if old is not None and same_text(text, old):
            return False
        self.shown = text
        self.renders += 1
        self.update(text, layout=old is None or not self._same_height(old, text))
        return True

    def render(self) -> RenderResult:
        self.paints += 1
        return super().render()

    def _same_height(self, old: Text, new: Text) -> bool:
        """Whether ``new`` takes the rows ``old`` took: the same number of lines, none of
        them wider than the part (so none wraps), in a part that does not size itself to
        its text's width."""
        width = self.content_region.width
        if not width or (self.styles.width is not None and self.styles.width.is_auto):
            return False
        before, after = _line_widths(old), _line_widths(new)
        return len(before) == len(after) and max(before + after) <= width


__all__ = ["Part", "same_text"]
