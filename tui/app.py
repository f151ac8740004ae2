"""The Textual app of Rattus Net, and the functions that start it.

``run_menu()`` opens the main menu; ``run_offline(players, bots, seed, buildings)`` goes straight
into a game of Rattus Cartus against bots (what ``rattus play`` does; each game's package has
its own: ``tui.cartus.app``, ``tui.rattus.app``); ``run_lobby(lobby)`` opens the lobby of a
network table (``rattus host`` / ``rattus join`` without ``--bot``); ``run_network_game(node)``
the table of a network game resumed from its journal (``rattus resume``). ``python -m tui.app
[--players N] [--bots KIND] [--seed S] [--buildings SEL]`` runs the menu or an offline game.

The app knows no particular game: the games' screens come from ``tui.games``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from rattus_net.bots import BOT_KINDS
from rattus_net.engine.errors import RattusError, SetupError
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.tables import Lobby
from tui.games import network_table, set_plain, tui_game
from tui.screens import MenuScreen

MIN_WIDTH, MIN_HEIGHT = 80, 24  # every screen is laid out for at least this


class NoTerminal(RattusError):
    """stdin or stdout is not a terminal (``ssh -T``, a pipe): the screen cannot be drawn and
    keys would be read line by line."""

    def __init__(self) -> None:
        super().__init__(
            "Rattus Net needs a terminal: stdin and stdout are not one here "
            "(over SSH, use ssh -t; without the screen, see rattus --help for bot seats)."
        )


def has_terminal() -> bool:
    """A terminal to draw in: stdin and stdout are one, or Textual draws in a browser page
    (``rattus web`` sets its web driver, which speaks over pipes)."""
    from textual import constants

    return (sys.stdin.isatty() and sys.stdout.isatty()) or "web_driver" in (constants.DRIVER or "")


class TooSmallScreen(ModalScreen[None]):
    """Covers everything while the terminal is smaller than 80x24: a clear notice instead of
    a garbled table. It goes away by itself when the terminal is large enough again."""

    DEFAULT_CSS = """
    TooSmallScreen { background: $background; }
    TooSmallScreen #too-small { width: auto; height: auto; text-style: bold; }
    """

    def __init__(self, size: Size) -> None:
        super().__init__()
        self.size_seen = size

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(self.notice(), id="too-small")

    def notice(self) -> Text:
        w, h = self.size_seen.width, self.size_seen.height
        return Text(
            f"Terminal too small: {w}x{h}.\n"
            f"Rattus Net needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window (or make the font smaller).\n"
            "Ctrl+C quits."
        )

    def resized(self, size: Size) -> None:
        self.size_seen = size
        self.query_one("#too-small", Static).update(self.notice())


def too_small(size: Size) -> bool:
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


class RattusApp(App[None]):
    """Main menu first; with ``controller`` (an offline game of Rattus Cartus, or its
    ``options`` to set one up) or ``rattus``
    (one of Rattus), that game against bots on top of it; with ``network``, the table of a
    network game resumed from its journal; with ``lobby``, the lobby of a network table
    (hosted or joined)."""

    TITLE = "Rattus Net"
    CSS_PATH = "rattus.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("question_mark,f1", "help", "Keys"),
    ]

    def __init__(
        self,
        options: Any = None,
        seed: int | None = None,
        controller: Any = None,
        lobby: Lobby | None = None,
        network: NetworkGame | None = None,
        rattus: Any = None,
    ) -> None:
        super().__init__()
        set_plain(self.no_color)
        self.rattus = rattus  # an offline game of Rattus (the board game)
        self.lobby = lobby
        self.network = network  # a network game resumed from its journal
        self.seed = seed if seed is not None else getattr(options, "seed", None)
        self.controller = controller  # an offline game of Rattus Cartus under way
        self.options = options  # (or its OfflineOptions, to set it up when the app starts)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run in the terminal; raises :class:`NoTerminal` without one. The mouse is left to
        the terminal (``mouse=False``): every screen is driven by keys, and text on screen (an
        address, a record's path) can be selected and copied as in any terminal program."""
        if not kwargs.get("headless") and not has_terminal():
            raise NoTerminal
        kwargs.setdefault("mouse", False)
        return super().run(*args, **kwargs)

    def action_help(self) -> None:
        """``?``/F1 on a screen without keys of its own for it: its keys."""
        from tui.help import HelpScreen, open_help

        if not isinstance(self.screen, HelpScreen):
            open_help(self.screen, getattr(self.screen, "HELP_TITLE", "this screen"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P) offers the actions of the screen it was opened on
        (those of its footer: decide, log, rules, leave, play, host...), then quitting."""
        seen: set[str] = set()
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            if binding.action in ("command_palette", "quit"):
                continue
            seen.add(binding.action)
            from tui.help import key_name

            yield SystemCommand(
                binding.description,
                f"{binding.description} (key {key_name(key)})",
                partial(self._run_binding, binding.action, active.node),
            )
        yield SystemCommand("Quit Rattus Net", "Leave the program (Ctrl+C)", self.exit)

    def _run_binding(self, action: str, node: Any) -> None:
        self.call_later(self.run_action, action, node)

    def on_resize(self, event: events.Resize) -> None:
        self.call_later(self.fit, event.size)

    def fit(self, size: Size) -> None:
        """Show the "too small" notice over everything while the terminal is below 80x24,
        and take it away once it is large enough."""
        top = self.screen if self.screen_stack else None
        if too_small(size):
            if isinstance(top, TooSmallScreen):
                top.resized(size)
            else:
                self.push_screen(TooSmallScreen(size))
        else:
            while isinstance(self.screen, TooSmallScreen):
                self.pop_screen()

    def on_mount(self) -> None:
        menu = MenuScreen(self.seed)
        if self.rattus is not None:
            menu.choose_game("rattus")  # back from a game of Rattus, the menu offers it again
        self.push_screen(menu)
        if self.controller is None and self.options is not None:
            self.controller = tui_game("cartus").offline_game(self.options)
        if self.rattus is not None:
            self.push_screen(tui_game("rattus").offline_screen(self.rattus))
        elif self.controller is not None:
            self.push_screen(tui_game("cartus").offline_screen(self.controller))
        elif self.network is not None:
            self.network.start()
            self.push_screen(network_table(self.network))
        elif self.lobby is not None:
            from tui.netscreens import LobbyScreen

            self.push_screen(LobbyScreen(self.lobby))
        self.call_later(self.fit, self.size)


def warm_up() -> None:
    """Draw the menu once, headless, in an empty folder of its own.

    What a server's preloaded parent (``rattus_net.serve.preload``) runs before it forks
    sessions: Textual's caches (parsed stylesheets, styles, rendered text) are then filled once
    and shared by every session instead of built again in each. The folder is empty and then
    removed, and the environment put back, so nothing of it reaches a session but the caches."""
    import asyncio
    import os
    import tempfile

    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="rattus-warm-") as tmp:
        os.environ.update(
            HOME=tmp, RATTUS_DATA_DIR=f"{tmp}/data", RATTUS_CONFIG_DIR=f"{tmp}/config"
        )

        async def draw() -> None:
            async with RattusApp().run_test(size=(100, 30)) as pilot:
                await pilot.pause()

        try:
            asyncio.run(draw())
        finally:
            os.environ.clear()
            os.environ.update(saved)


def run_menu(seed: int | None = None) -> int:
    """Open the main menu; returns an exit status."""
    RattusApp(seed=seed).run()
    return 0


def run_offline(
    players: int = 3, bots: str | None = None, seed: int | None = None, buildings: Any = None
) -> int:
    """Start an offline game of Rattus Cartus against bots straight away (``rattus play``);
    returns an exit status. Raises ``ValueError`` (a ``SetupError`` for bad buildings) for bad
    options, before the screen is taken over."""
    return tui_game("cartus").run_offline(
        players, bots, seed, {} if buildings is None else {"buildings": buildings}
    )


def run_network_game(node: PeerNode) -> int:
    """Open the TUI at the table of a network game resumed from its journal (``rattus
    resume`` of a seat a person played)."""
    RattusApp(network=NetworkGame(node)).run()
    return 0


def run_lobby(lobby: Lobby) -> int:
    """Open the TUI in the lobby of a network table (``rattus host``/``rattus join``)."""
    RattusApp(lobby=lobby).run()
    return 0


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``rattus play``, for the CLI to reuse."""
    parser.add_argument("--players", type=int, default=None, help="2 to 5, you included")
    parser.add_argument("--bots", choices=BOT_KINDS, default=None, help="the bots' kind")
    parser.add_argument("--seed", type=int, default=None, help="fix the cards and the bots")
    parser.add_argument(
        "--buildings",
        default="first-game",
        help="first-game, random-buildings, random-cards, or six buildings",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rattus-tui", description="Rattus Net in a terminal")
    add_play_arguments(parser)
    args = parser.parse_args(argv)
    if args.players is None and args.bots is None:
        return run_menu(args.seed)
    try:
        return run_offline(args.players or 3, args.bots, args.seed, args.buildings)
    except (SetupError, ValueError) as exc:
        parser.error(str(exc))
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
