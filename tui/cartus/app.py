"""Starting Rattus Cartus against bots from the command line or the menu (hooks for the app)."""

from __future__ import annotations

from rattus_net.games.cartus.config import BuildingSelection
from tui.cartus.controller import OfflineGame, OfflineOptions
from tui.cartus.saves import SavedGame, save_path
from tui.offline import default_bot_kind
from tui.saves import SaveError


def new_game(
    players: int = 3,
    bots: str | None = None,
    seed: int | None = None,
    buildings: str | BuildingSelection = "first-game",
) -> OfflineGame:
    """A new offline game, saved as it goes. Raises ``ValueError`` (a ``SetupError`` for bad
    buildings) for bad options, before any screen is shown."""
    selection = BuildingSelection.parse(buildings) if isinstance(buildings, str) else buildings
    options = OfflineOptions(
        players=players, bots=bots or default_bot_kind(), seed=seed, buildings=selection
    )
    return from_options(options)


def from_options(options: OfflineOptions) -> OfflineGame:
    """A new offline game from its options, saved as it goes (``ValueError`` if unfit)."""
    return OfflineGame(options, advance=False, save_to=save_path())


def continue_game(saved: SavedGame) -> OfflineGame:
    """The saved game, where it stopped (``SaveError`` if it cannot be replayed)."""
    return OfflineGame.continued(saved, save_to=save_path())


def run_cartus(
    players: int = 3,
    bots: str | None = None,
    seed: int | None = None,
    buildings: str | BuildingSelection = "first-game",
) -> int:
    """``rattus play``: the table straight away; returns an exit status. Raises
    ``ValueError`` for bad options before the screen is taken over."""
    from tui.app import RattusApp

    controller = new_game(players, bots, seed, buildings)  # validates first
    RattusApp(controller=controller).run()
    return 0


__all__ = ["SaveError", "continue_game", "from_options", "new_game", "run_cartus"]
