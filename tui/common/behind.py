"""What a panel over the table (a dialog, a recap) shows behind itself: the table, as the
table's own paint left it.

A Textual screen with a see-through background draws the screen under it by rendering that
screen as Rich segments and splitting them into lines again, every time any of it must be
repainted: a dialog's first paint, and every change of the table behind it (the Rattus map
marks the regions under the dialog's cursor at each key). That cost more than all the rest of
a dialog's paint. :class:`Behind` hands over the lines the table's compositor already holds,
without their mouse and link data (as Textual does: the table behind takes no clicks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.segment import Segment
from textual._context import visible_screen_stack  # (how Textual tells a screen what is under it)
from textual.app import RenderResult
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


def _clean(strip: Strip) -> Strip:
    return Strip(
        [
            Segment(text, None if style is None else style.clear_meta_and_links(), control)
            for text, style, control in strip
        ],
        strip.cell_length,
    )


class Behind(Visual):
    """The lines of ``screen`` as its compositor holds them, cut to the panel's size."""

    def __init__(self, screen: Screen[object]) -> None:
        self.screen = screen

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        size = Size(width, self.screen.size.height if height is None else height)
        return [_clean(strip) for strip in self.screen._compositor.render_strips(size)]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.screen.size.height


def over_the_table(panel: Screen[Any], otherwise: Callable[[], RenderableType]) -> RenderResult:
    """What ``panel`` (a screen with a see-through background) shows behind its widgets: the
    screen under it (:class:`Behind`), or what Textual would show (``otherwise``: the panel's
    own ``Screen.render``) when its background is not fully see-through or nothing is under it."""
    stack = visible_screen_stack.get(None)
    if not stack or stack[-1] is panel or panel.styles.background.a > 0:
        return otherwise()
    under = stack.pop()  # (as Textual's own: a screen over this one gets the next one down)
    return Behind(under)


__all__ = ["Behind", "over_the_table"]
