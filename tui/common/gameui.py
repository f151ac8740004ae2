"""Each game's screens, found through the game registry: the TUI names no game.

A game's own screens live in the ``ui`` subpackage of its folder (``rattus_net/games/<game>/ui``,
found by :func:`rattus_net.kit.registry.ui_module`), which exposes a :class:`GameUi` as ``UI``:
the table screen of a seat (offline or at a network table) and richer words for its log if it
has them (its rules summary is the ``rules.md`` beside it: :mod:`tui.common.rules`). A game
without a ``ui`` of its own is played on the generic table (:mod:`tui.common.generic`: the
legal moves in a list, the log in the game's own words), so that any registered game can be
played in the TUI.

Here too are the ways into a table the shell uses: a new or saved game against bots, and a
seat at a network table.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.screen import Screen

from protocol.safetext import safetext
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.offline import OfflineSetup, OfflineTable, WordsFactory
from rattus_net.kit.registry import get_game, ui_module
from rattus_net.kit.saves import SavedGame
from rattus_net.net.netgame import NetworkGame
from tui.common.generic import GenericTable
from tui.common.replay import generic_board
from tui.common.seat import Seat


class GameUi:
    """A game's screens in the TUI. The base is what a game without screens of its own gets:
    the generic table and the game's own words for the log."""

    words: WordsFactory | None = None
    """Words for the log richer than the game's table words (``None``: those)."""

    def table(self, seat: Seat) -> Screen[None]:
        """The table screen of ``seat``."""
        return GenericTable(seat)

    def replay_board(self, view: Any, width: int, everything: bool = False) -> RenderableType:
        """The table as ``view``'s seat saw it, for the replay viewer (:mod:`.replay`),
        but what only the seat held (:meth:`replay_secrets`): by default the players and
        who must act. ``everything``: the view knows every face, and is nobody's (no
        "you")."""
        return generic_board(view)

    def replay_secrets(self, view: Any, width: int) -> Text:
        """What only ``view``'s seat held (its hand), below the board: the viewpoint's, or
        every seat's under its name when the replay shows everything; empty if the board
        shows it all."""
        return Text("")


_UIS: dict[str, GameUi] = {}


def game_ui(game: str | AnyGame) -> GameUi:
    """The screens of ``game`` (a registered game, or its name): its ``ui`` package's ``UI``,
    imported the first time it is asked for, or the generic ones."""
    definition = get_game(game) if isinstance(game, str) else game
    ui = _UIS.get(definition.name)
    if ui is None:
        module = ui_module(definition)
        ui = GameUi() if module is None else importlib.import_module(module).UI
        if not isinstance(ui, GameUi):
            raise TypeError(f"{module}.UI is not a GameUi")
        _UIS[definition.name] = ui
    return ui


def new_offline(
    setup: OfflineSetup, *, save_to: Path | None = None, advance: bool = False
) -> OfflineTable[Any, Any]:
    """A new game against bots as the TUI plays it: its log in the game's screens' words, the
    names made safe to show, saved to ``save_to`` as it goes (if given: the menu saves to
    the game's save file, ``rattus_net.kit.saves.save_path``). Unless ``advance``, nothing is
    played yet: the table screen lets the bots begin, off its loop. Raises ``SetupError`` (a
    ``ValueError``) for options the game cannot start with."""
    words = game_ui(setup.game).words
    return OfflineTable.new(setup, save_to=save_to, words=words, shown=safetext, advance=advance)


def continue_offline(saved: SavedGame, *, save_to: Path | None = None) -> OfflineTable[Any, Any]:
    """The saved game as the TUI plays it, where it stopped, saved to ``save_to`` as it goes
    (``SaveError`` if it cannot be continued)."""
    words = game_ui(saved.game).words
    return OfflineTable.continued(saved, save_to=save_to, words=words, shown=safetext)


def table_screen(seat: Seat) -> Screen[None]:
    """The table of ``seat``, drawn by its game's screens. A network seat first gets the
    game's own words for its log, if the game has richer ones than its table words."""
    ui = game_ui(seat.game_name)
    if isinstance(seat, NetworkGame) and ui.words is not None:
        seat.words = ui.words(seat.names, seat.seat)
    return ui.table(seat)


__all__ = ["GameUi", "Seat", "continue_offline", "game_ui", "new_offline", "table_screen"]
