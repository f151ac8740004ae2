"""The Textual app of Rattus Net, and the functions that start it.

``run_menu()`` opens the main menu; ``run_offline(game, players, bots, seed, values)`` goes
straight into a game against bots (what ``rattus play`` does); ``run_lobby(lobby)`` opens the
lobby of a network table (``rattus host`` / ``rattus join`` without ``--bot``);
``run_network_game(node)`` the table of a network game resumed from its journal (``rattus
resume``).

The app knows no particular game: the shell's screens (``tui/shell``: menu, forms, lobby,
verify) take every game from the registry, and each game's table from its own screens
(``tui/common/gameui.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
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

from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.offline import OfflineSetup, default_bot_kind
from rattus_net.kit.registry import games, get_game
from rattus_net.kit.replay import Replay
from rattus_net.kit.saves import save_path
from rattus_net.net.loopthread import NETWORK_THREAD, LoopThread
from rattus_net.net.netgame import NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.served import Served
from rattus_net.net.tables import Lobby
from rattus_net.paths import ENV_CONFIG_DIR, ENV_DATA_DIR
from tui.common.gameui import game_ui, new_offline, table_screen
from tui.common.glyphs import enter_key
from tui.common.help import HelpScreen, key_name, open_help, quit_key
from tui.common.replay import ReplayScreen
from tui.common.seat import Seat
from tui.shell.lobby import LobbyScreen
from tui.shell.menu import MenuScreen

MIN_WIDTH, MIN_HEIGHT = 80, 24  # every screen is laid out for at least this


class NoTerminal(RattusNetError):
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

    def __init__(self, size: Size, quit_key: str | None = "Ctrl+C") -> None:
        super().__init__()
        self.size_seen = size
        self.quit_key = quit_key

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(self.notice(), id="too-small")

    def notice(self) -> Text:
        w, h = self.size_seen.width, self.size_seen.height
        return Text(
            f"Terminal too small: {w}x{h}.\n"
            f"Rattus Net needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window (or make the font smaller)."
            + (f"\n{self.quit_key} quits." if self.quit_key else "")
        )

    def resized(self, size: Size) -> None:
        self.size_seen = size
        self.query_one("#too-small", Static).update(self.notice())


def too_small(size: Size) -> bool:
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


class RattusNetApp(App[None]):
    """The main menu first; with ``table`` (a seat: a game against bots set up already, or a
    network game resumed from its journal), that game's table on top of it, the menu offering
    its game when the player is back; with ``lobby``, the lobby of a network table (hosted or
    joined)."""

    TITLE = "Rattus Net"
    CSS_PATH = "rattus_net.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("question_mark,f1", "help", "Keys"),
    ]

    def __init__(
        self,
        seed: int | None = None,
        table: Seat | None = None,
        lobby: Lobby | None = None,
        replay: Replay | None = None,
    ) -> None:
        super().__init__()
        # No tooltips: the mouse is left to the terminal (see run), so none could show, and
        # without them every screen (a dialog is one, each time) has a widget less to build.
        self._disable_tooltips = True
        self.seed = seed
        self.table = table
        self.lobby = lobby
        self.replay = replay
        self.quit_key = quit_key(Served.from_environment())
        self._network: LoopThread | None = None

    @property
    def network(self) -> LoopThread:
        """The program's one network thread (every table's lobby, advert and game run
        there): made at the first need, ended (its tasks cancelled and awaited) when the app
        ends (:meth:`on_unmount`)."""
        if self._network is None:
            self._network = LoopThread(NETWORK_THREAD)
        return self._network

    async def on_unmount(self) -> None:
        network, self._network = self._network, None
        if network is not None:
            await network.stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key quits at once where none is meant to (a browser page: Ctrl+C copies)."""
        if action == "quit" and self.quit_key is None:
            return False
        return super().check_action(action, parameters)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run in the terminal; raises :class:`NoTerminal` without one. The mouse is left to
        the terminal (``mouse=False``): every screen is driven by keys, and text on screen (an
        address, a record's path) can be selected and copied as in any terminal program."""
        if not kwargs.get("headless") and not has_terminal():
            raise NoTerminal
        kwargs.setdefault("mouse", False)
        return super().run(*args, **kwargs)

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it, in glyphs the terminal's font has (``Enter`` for
        ``⏎`` on the Linux console)."""
        return enter_key(super().get_key_display(binding))

    def action_help(self) -> None:
        """``?``/F1 on a screen without keys of its own for it: its keys."""
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
            yield SystemCommand(
                binding.description,
                f"{binding.description} (key {key_name(key)})",
                partial(self._run_binding, binding.action, active.node),
            )
        key = f" ({self.quit_key})" if self.quit_key else ""
        yield SystemCommand("Quit Rattus Net", f"Leave the program{key}", self.exit)

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
                self.push_screen(TooSmallScreen(size, self.quit_key))
        else:
            while isinstance(self.screen, TooSmallScreen):
                self.pop_screen()

    def on_mount(self) -> None:
        menu = MenuScreen(self.seed)
        self.push_screen(menu)
        if self.table is not None:
            menu.choose_game(self.table.game_name)  # back from the game, the menu offers it
            if isinstance(self.table, NetworkGame):
                self.table.start(self.network)
            self.push_screen(table_screen(self.table))
        elif self.lobby is not None:
            self.push_screen(LobbyScreen(self.lobby))
        elif self.replay is not None:
            replay = self.replay
            self.push_screen(ReplayScreen(lambda: replay))
        self.call_later(self.fit, self.size)


def warm_up() -> None:
    """Draw the menu once, headless, in an empty folder of its own.

    What a server's preloaded parent (``rattus_net.serve.preload``) runs before it forks
    sessions: Textual's caches (styles, colours, rendered text) are then filled once
    and shared by every session instead of built again in each. The folder is empty and then
    removed, and the environment put back, so nothing of it reaches a session but the caches.
    Every game's screens are imported first (found through the registry), so that sessions
    share them too."""
    import asyncio
    import os
    import tempfile

    for game in games():
        game_ui(game)
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="rattus-warm-") as tmp:
        os.environ.update(
            {"HOME": tmp, ENV_DATA_DIR: f"{tmp}/data", ENV_CONFIG_DIR: f"{tmp}/config"}
        )

        async def draw() -> None:
            async with RattusNetApp().run_test(size=(100, 30)) as pilot:
                await pilot.pause()

        try:
            asyncio.run(draw())
        finally:
            os.environ.clear()
            os.environ.update(saved)
    forget_drawn_app()


def forget_drawn_app() -> None:
    """Empty the caches Textual keeps on methods, keyed by the object each was called on.

    Once an app has ended they keep what it was made of alive (its colour filter, its widgets'
    style caches and every line they drew), and no other app can hit them: after the warm-up,
    every session forked from the preloaded parent would carry those leftovers and write its
    first entries in among them (about 0.3 MiB more private memory per session in
    ``benchmarks/ssh.py``). Caches keyed by values (styles, colours, text) are kept: sessions
    hit those. A Textual without one of these caches has nothing to empty there."""
    from textual._styles_cache import StylesCache
    from textual.filter import ANSIToTruecolor

    for owner, method in ((ANSIToTruecolor, "truecolor_style"), (StylesCache, "get_inner_outer")):
        clear = getattr(getattr(owner, method, None), "cache_clear", None)
        if callable(clear):
            clear()


def run_menu(seed: int | None = None) -> int:
    """Open the main menu; returns an exit status."""
    RattusNetApp(seed=seed).run()
    return 0


def run_offline(
    game: str, players: int = 3, bots: str | None = None, seed: int | None = None,
    values: Mapping[str, Any] | None = None,
) -> int:  # fmt: skip
    """Start an offline game of ``game`` against bots straight away (``rattus play``; its
    option values ``values``); returns an exit status. Raises ``ValueError`` (a
    ``SetupError``) for bad options, before the screen is taken over."""
    kinds = get_game(game).bot_kinds
    setup = OfflineSetup(game, players, bots or default_bot_kind(kinds), seed, values or {})
    table = new_offline(setup, save_to=save_path(game))  # checks the options first
    RattusNetApp(table=table).run()
    return 0


def run_replay(replay: Replay) -> int:
    """Open the TUI on the replay viewer (``rattus replay`` in a terminal); Esc leads to
    the main menu."""
    RattusNetApp(replay=replay).run()
    return 0


def run_network_game(node: PeerNode) -> int:
    """Open the TUI at the table of a network game resumed from its journal (``rattus
    resume`` of a seat a person played)."""
    RattusNetApp(table=NetworkGame(node)).run()
    return 0


def run_lobby(lobby: Lobby) -> int:
    """Open the TUI in the lobby of a network table (``rattus host``/``rattus join``)."""
    RattusNetApp(lobby=lobby).run()
    return 0
