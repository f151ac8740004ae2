"""One call for a burst of news: a network node or a lobby tells of each change from its own
thread (through the screen's loop); one redraw, soon, does for all of them."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen


class Soon:
    """Calls ``fn`` once, soon, on ``screen``'s loop, however often it is called meanwhile;
    not at all once the screen is gone. Hand the object itself to whoever tells of changes
    (it is the listener; remove it the same way)."""

    def __init__(self, screen: Screen[None], fn: Callable[[], object]) -> None:
        self.screen = screen
        self.fn = fn
        self.pending = False

    def __call__(self) -> None:
        if not self.pending:
            self.pending = True
            self.screen.call_later(self._run)

    def _run(self) -> None:
        self.pending = False
        if self.screen.is_attached:
            self.fn()


__all__ = ["Soon"]
