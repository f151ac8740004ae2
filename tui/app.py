"""The Textual app of Rattus Net, and the functions that start it.

``run_menu()`` opens the main menu; ``run_offline(players, bots, seed, buildings)`` goes straight
into a game against bots (what ``rattus play`` does); ``run_lobby(lobby)`` opens the lobby of a
network table (``rattus host`` / ``rattus join`` without ``--bot``); ``run_network_game(node)``
the table of a network game resumed from its journal (``rattus resume``). ``python -m tui.app
[--players N] [--bots KIND] [--seed S] [--buildings SEL]`` runs the menu or an offline game.
"""

from __future__ import annotations

import argparse
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from rattus_net.bots import BOT_KINDS
from rattus_net.engine.config import BuildingSelection
from rattus_net.engine.errors import SetupError
from rattus_net.net.node import PeerNode
from tui.controller import OfflineGame, OfflineOptions, default_bot_kind
from tui.netgame import Lobby, NetworkGame
from tui.rattus.controller import RattusOffline
from tui.rattus.screens import RattusMapScreen
from tui.saves import save_path
from tui.screens import MenuScreen, TableScreen


class RattusApp(App[None]):
    """Main menu first; with ``options``, a game against bots on top of it; with ``lobby``,
    the lobby of a network table (hosted or joined) on top of it."""

    TITLE = "Rattus Net"
    CSS_PATH = "rattus.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        options: OfflineOptions | None = None,
        seed: int | None = None,
        controller: OfflineGame | None = None,
        lobby: Lobby | None = None,
        network: NetworkGame | None = None,
        rattus: RattusOffline | None = None,
    ) -> None:
        super().__init__()
        self.rattus = rattus  # an offline game of Rattus (the board game)
        self.lobby = lobby
        self.network = network  # a network game resumed from its journal
        self.options = options
        self.seed = seed if seed is not None else (options.seed if options else None)
        self.controller = controller  # a game already under way (tests, benchmarks)

    def on_mount(self) -> None:
        menu = MenuScreen(self.seed)
        if self.rattus is not None:
            menu.game = 1  # back from a game of Rattus, the menu offers Rattus again
        self.push_screen(menu)
        if self.controller is None and self.options is not None:
            self.controller = OfflineGame(self.options, advance=False, save_to=save_path())
        if self.rattus is not None:
            self.push_screen(RattusMapScreen(self.rattus))
        elif self.controller is not None:
            self.push_screen(TableScreen(self.controller))
        elif self.network is not None:
            self.network.start()
            self.push_screen(TableScreen(self.network))
        elif self.lobby is not None:
            from tui.netscreens import LobbyScreen

            self.push_screen(LobbyScreen(self.lobby))


def run_menu(seed: int | None = None) -> int:
    """Open the main menu; returns an exit status."""
    RattusApp(seed=seed).run()
    return 0


def run_offline(
    players: int = 3,
    bots: str | None = None,
    seed: int | None = None,
    buildings: str | BuildingSelection = "first-game",
) -> int:
    """Start an offline game against bots straight away (``rattus play``); returns an exit
    status. Raises ``ValueError`` (a ``SetupError`` for bad buildings) for bad options,
    before the screen is taken over."""
    selection = BuildingSelection.parse(buildings) if isinstance(buildings, str) else buildings
    options = OfflineOptions(
        players=players, bots=bots or default_bot_kind(), seed=seed, buildings=selection
    )
    # validates before taking the terminal
    controller = OfflineGame(options, advance=False, save_to=save_path())
    RattusApp(controller=controller).run()
    return 0


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
