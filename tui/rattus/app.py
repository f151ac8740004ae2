"""Starting the Rattus map from the command line or the menu (the hooks into the app)."""

from __future__ import annotations

from typing import Any

from rattus_net.games.rattus.components import Components
from tui.rattus.controller import RattusOffline, RattusOptions, continued
from tui.rattus.saves import SavedRattusGame, rattus_save_path, read_rattus_save
from tui.saves import SaveError

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def new_game(
    players: int,
    bots: str,
    seed: int | None,
    components: Components | None = None,
    custom_components: Any = None,
) -> RattusOffline:
    """A new offline Rattus game, saved as it goes (raises ``ValueError`` for bad options)."""
    options = RattusOptions(
        players=players,
        bots=bots,
        seed=seed,
        components=components,
        custom_components=custom_components,
    )
    return RattusOffline(options, advance=False, save_to=rattus_save_path())


def saved_game() -> SavedRattusGame | None:
    """The saved offline Rattus game, if any (raises ``SaveError`` if it is damaged)."""
    return read_rattus_save(rattus_save_path())


def continue_game(saved: SavedRattusGame) -> RattusOffline:
    return continued(saved, save_to=rattus_save_path())


def run_rattus(
    players: int,
    bots: str,
    seed: int | None,
    components: Components | None = None,
    custom_components: Any = None,
) -> int:
    """``rattus play --game rattus``: the map straight away; returns an exit status."""
    from tui.app import RattusApp

    controller = new_game(players, bots, seed, components, custom_components)
    RattusApp(rattus=controller).run()
    return 0


__all__ = ["SaveError", "continue_game", "new_game", "run_rattus", "saved_game"]
