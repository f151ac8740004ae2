"""The help screen (``?`` or F1): every key of the screen it was opened from.

The keys are read from that screen's own bindings (and the app's), so a key added to a screen
shows up in its help without anyone remembering to write it down; keys that share one action
(``0``-``9``, ``up``/``down``) are shown on one line. A screen may say in its own words what a
shared action does there (``KEY_WORDS``: a game's dialogs). The screen's own keys come first,
then the app's, and last, on one line, the keys with which a widget of the screen (the log, a
text) scrolls; sideways scrolling and moving the focus, which mean nothing here, are left out.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from rattus_net.net.served import Served

# What a key does when its binding's description is too short to say it.
DESCRIPTIONS: dict[str, str] = {
    "digit": "choose a row or set a count",
    "cursor": "move the cursor",
    "change": "fewer / more (a count or a setting)",
    "toggle_item": "toggle the item under the cursor",
    "command_palette": "the command palette: every action of this screen by name",
}

HELP_KEYS = "question_mark,f1"  # the keys that open this screen, everywhere


def key_name(app_key: str) -> str:
    """``question_mark`` -> ``?``, ``ctrl+p`` -> ``Ctrl+P``: keys as a person types them."""
    names = {
        "question_mark": "?",
        "enter": "Enter",
        "escape": "Esc",
        "space": "Space",
        "up": "Up",
        "down": "Down",
        "left": "Left",
        "right": "Right",
        "minus": "-",
        "plus": "+",
        "equals_sign": "=",
        "pageup": "PgUp",
        "pagedown": "PgDn",
        "tab": "Tab",
        "shift+tab": "Shift+Tab",
        "f1": "F1",
        "home": "Home",
        "end": "End",
    }
    if app_key in names:
        return names[app_key]
    if "+" in app_key:
        return "+".join(part.capitalize() for part in app_key.split("+"))
    return app_key


# Textual's own bindings that mean nothing here (nothing takes the focus by Tab, and Ctrl+C
# quits: the app's priority binding wins over the screen's "copy")
HIDDEN_ACTIONS = frozenset(
    {
        *("focus_next", "focus_previous", "app.focus_next", "app.focus_previous"),
        *("copy_text", "screen.copy_text"),
        # nothing scrolls sideways (the text is wrapped to the width)
        *("scroll_left", "scroll_right", "page_left", "page_right"),
    }
)
SCROLLING = "scroll up and down"
"""What a widget's own keys (Up, Down, PgUp, PgDn, Home, End) do: one line, the last."""


def global_keys(served: Served) -> list[tuple[str, str]]:
    """The keys there whatever the screen, as they work where the program runs: in a browser
    page (``rattus web``) Ctrl+C copies (the page keeps it from the game) and q leaves, asked
    first; in a terminal Ctrl+C quits at once. An offline game is saved only where the
    player's folder is kept (not a guest's)."""
    if served.in_browser:
        ctrl_c = "copy the text selected with Shift and the mouse (q leaves, asked first)"
    elif served.kept:
        ctrl_c = "quit Rattus Net at once (an offline game is saved)"
    else:
        ctrl_c = "quit Rattus Net at once (nothing is kept: you play as a guest)"
    return [("Ctrl+P", DESCRIPTIONS["command_palette"]), ("Ctrl+C", ctrl_c)]


def quit_key(served: Served) -> str | None:
    """The key that quits at once where the program runs: Ctrl+C in a terminal; none in a
    browser page, where Ctrl+C copies (q leaves, asked first, on every screen)."""
    return None if served.in_browser else "Ctrl+C"


def screen_keys(screen: Screen[Any], served: Served | None = None) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding active on ``screen``, grouped by action: the
    screen's own first, then the app's, then its widgets' scrolling on one line, then the
    keys of every screen (as they work where the program runs: ``served``, by default what
    the environment says)."""
    groups: dict[str, tuple[list[str], str]] = {}
    words = {**DESCRIPTIONS, **getattr(screen, "KEY_WORDS", {})}
    active_bindings = screen.active_bindings.items()

    def rank(item: tuple[str, Any]) -> int:
        node = item[1].node
        return 0 if node is screen else 1 if node is screen.app else 2

    for key, active in sorted(active_bindings, key=rank):  # (stable: each keeps its order)
        binding = active.binding
        if binding.action in HIDDEN_ACTIONS or key in ("ctrl+c", "ctrl+p") or not active.enabled:
            continue
        action = binding.action.split("(", 1)[0]
        description = words.get(action) or binding.description or action
        group = (
            f"{action}:{binding.description}"
            if action not in DESCRIPTIONS or action == "command_palette"
            else action
        )
        if rank((key, active)) == 2:  # a widget's keys: the log's or a text's scrolling
            group = description = SCROLLING
        keys, _ = groups.setdefault(group, ([], description))
        name = key_name(key)
        if name not in keys:
            keys.append(name)
    out = []
    for keys, description in groups.values():
        digits = [k for k in keys if k.isdigit()]
        if len(digits) > 2:
            keys = [k for k in keys if not k.isdigit()] + [f"{min(digits)}-{max(digits)}"]
        out.append((" ".join(keys), description))
    return out + global_keys(served if served is not None else Served.from_environment())


class HelpScreen(Screen[None]):
    """The keys of one screen, with what they do; any of Esc, q, ? or F1 goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(f"escape,q,{HELP_KEYS}", "close", "Back"),
    ]

    def __init__(self, title: str, keys: list[tuple[str, str]], note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.keys = keys
        self.note = note

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Static(self.body(), id="help-body")
        yield Footer()

    def body(self) -> Text:
        t = Text(f"Keys: {self.title_text}\n\n", style="bold")
        width = max((len(k) for k, _ in self.keys), default=0)
        width = min(width, 24)
        for keys, what in self.keys:
            t.append(f"  {keys:<{width}}", style="bold")
            t.append(f"  {what}\n")
        if self.note:
            t.append("\n" + self.note + "\n", style="italic")
        return t

    def on_mount(self) -> None:
        self.query_one("#help-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.app.pop_screen()


def open_help(screen: Screen[Any], title: str, note: str = "") -> None:
    """Show the keys of ``screen`` (the current one) on a help screen."""
    screen.app.push_screen(HelpScreen(title, screen_keys(screen), note))
