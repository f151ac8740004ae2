"""The rules summary of a game, and the screen that shows it.

A game's summary is the ``rules.md`` of its screens' package (``rattus_net/games/<game>/ui``,
found through the registry: :func:`rattus_net.kit.registry.ui_module`) or, for a game without
screens of its own, of its folder (:func:`~rattus_net.kit.registry.game_package`): the
summary is words, which a game played on the generic table has too. A game without one gets
a line that says so.
"""

from __future__ import annotations

from importlib import resources
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from rattus_net.kit.registry import default_game, game_package, games, get_game, ui_module

RULES_FILE = "rules.md"


def rules_text(game: str | None = None) -> str:
    """The rules summary of ``game`` (a registered game's name; the default game's if none),
    in Markdown."""
    definition = default_game() if game is None else get_game(game)
    for module in (ui_module(definition), game_package(definition)):
        if module is not None:
            summary = resources.files(module).joinpath(RULES_FILE)
            if summary.is_file():
                return summary.read_text(encoding="utf-8")
    return f"# {definition.title}\n\nThis game has no rules summary here yet."


class RulesScreen(Screen[None]):
    """The rules summary of one game (the one at hand: the game played, or chosen in the
    menu); ``g`` shows the next game's."""

    HELP_TITLE = "the rules"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("pageup", "page(-1)", "Page up"),
        Binding("pagedown,space", "page(1)", "Page down"),
        Binding("g", "other_game", "Other game's rules"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = default_game().name if game is None else game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Markdown(rules_text(self.game))
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other_game":
            return len(games()) > 1
        return True

    async def action_other_game(self) -> None:
        names = [g.name for g in games()]
        here = names.index(self.game) if self.game in names else -1
        self.game = names[(here + 1) % len(names)]
        await self.query_one(Markdown).update(rules_text(self.game))
        self.query_one("#rules", VerticalScroll).scroll_home(animate=False)

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()

    def action_page(self, direction: int) -> None:
        scroll = self.query_one("#rules", VerticalScroll)
        if direction < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.app.pop_screen()


__all__ = ["RULES_FILE", "RulesScreen", "rules_text"]
