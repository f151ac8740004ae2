"""The keys line at the bottom of a game's screens, composed only when its keys changed.

Textual's ``Footer`` builds its keys after the screen's first paint, then builds them all
again whenever the screen's bindings might have changed (a screen over it closed, the focus
moved), even when they are the same: at a table that is a layout and a paint more for every
dialog opened and closed; and each of its keys has its style worked out twice as it appears
(compact, then not). :class:`KeysFooter` shows its keys from the first paint, styles each
once, and builds them again only if the keys to show (or whether they are enabled) changed.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KeysShown = tuple[tuple[str, str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> KeysShown:
    """The keys a footer of ``screen`` shows: key, words, action, enabled, tooltip."""
    return tuple(
        (binding.key, binding.description, binding.action, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class KeysFooter(Footer):
    """Textual's footer (see the module's docstring), composed again only when it would
    show other keys."""

    def __init__(self) -> None:
        super().__init__()
        self.set_reactive(Footer._bindings_ready, True)  # the keys from the first paint
        self.composed = 0
        """How many times its keys were built."""
        self._shown: KeysShown | None = None

    def compose(self) -> ComposeResult:
        self._shown = shown_keys(self.screen)
        self.composed += 1
        for widget in super().compose():
            # a key is born compact and made as compact as the footer (not the palette's
            # key, which stays compact): its style worked out twice
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen and shown_keys(screen) == self._shown:
            return
        super().bindings_changed(screen)


__all__ = ["KeysFooter", "shown_keys"]
