"""The games the TUI plays, by name: what the shell (menu, app, forms, lobby, help) needs of each.

The shell never imports a particular game: it asks this registry how to start a game against
bots, continue its save, open the table of one of its network games, which rules to show, its
title and player counts, and whether its tables can be played on the network (the game
definition's ``network_play`` flag, the same one ``rattus host`` asks). Each game's screens
live in its own package (``tui.cartus``, ``tui.rattus``); only this module imports them, and
only when a game is started, so listing the games costs nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from textual.screen import Screen

from rattus_net.kit.interface import AnyGame
from rattus_net.kit.registry import game_names, get_game, unnamed_game


class Saved(Protocol):
    """A saved game against bots, as the menu offers it."""

    def describe(self) -> str:
        """A few words for the menu: ``round 3 of 9, 3 players``."""
        ...


@dataclass(frozen=True, slots=True)
class MenuChoice:
    """An option of a game's own, chosen in the menu with its other settings (Rattus Cartus's
    buildings). ``key`` is the :class:`rattus_net.settings.Settings` field that keeps it
    between runs; ``values`` are what it keeps, ``names`` what the menu shows."""

    key: str
    label: str
    names: tuple[str, ...]
    values: tuple[str, ...]

    def index(self, value: str) -> int:
        """The position of a kept ``value`` (the first choice for an unknown one)."""
        return self.values.index(value) if value in self.values else 0


class TuiGame(ABC):
    """One game in the TUI, behind what the shell needs of it."""

    name: str
    rules_file: str  # the in-app rules summary, packaged with the TUI
    choices: tuple[MenuChoice, ...] = ()
    table_options: tuple[str, ...] = ()
    """Its own rows of the host form (options of ``rattus_net.net.lobby.TableOptions``)."""

    @property
    def definition(self) -> AnyGame:
        return get_game(self.name)

    @property
    def title(self) -> str:
        return self.definition.title

    @property
    def min_players(self) -> int:
        return self.definition.min_players

    @property
    def max_players(self) -> int:
        return self.definition.max_players

    @property
    def network_play(self) -> bool:
        """Whether its tables can be hosted and joined (the game definition's flag)."""
        return self.definition.network_play

    @abstractmethod
    def saved(self) -> Saved | None:
        """Its saved game against bots, if any; ``SaveError`` if the save is damaged."""

    @abstractmethod
    def new_offline(
        self, players: int, bots: str, seed: int | None, choices: Mapping[str, str]
    ) -> Screen[Any]:
        """The table of a new game against bots (``choices``: its menu choices' values)."""

    @abstractmethod
    def continue_saved(self, saved: Any) -> Screen[Any]:
        """The table of the saved game, where it stopped; ``SaveError`` if it cannot be."""

    @abstractmethod
    def offline_screen(self, game: Any) -> Screen[Any]:
        """The table of a game against bots already set up (``rattus play``, tests)."""

    def network_screen(self, game: Any) -> Screen[Any]:
        """The table of a seat at one of its network tables."""
        raise NotImplementedError(f"{self.title} has no network table yet")

    @abstractmethod
    def run_offline(
        self, players: int, bots: str | None, seed: int | None, choices: Mapping[str, Any]
    ) -> int:
        """``rattus play``: a game against bots straight away; returns an exit status.
        Raises ``ValueError`` for bad options before the screen is taken over."""

    def offline_game(self, options: Any) -> Any:
        """A game against bots set up from the game's own options object (tests)."""
        raise NotImplementedError(f"{self.title} has no options object")

    def set_plain(self, plain: bool) -> None:
        """Draw without colour (NO_COLOR), if its rendering needs telling."""
        return None


class CartusTui(TuiGame):
    name = "cartus"
    rules_file = "rules.md"
    table_options = ("buildings", "simultaneous")
    choices = (
        MenuChoice(
            "buildings",
            "Buildings",
            ("first game", "random buildings", "random cards"),
            ("first-game", "random-buildings", "random-cards"),
        ),
    )

    def saved(self) -> Saved | None:
        from tui.cartus.saves import read_save, save_path

        return read_save(save_path())

    def new_offline(
        self, players: int, bots: str, seed: int | None, choices: Mapping[str, str]
    ) -> Screen[Any]:
        from tui.cartus.app import new_game

        return self.offline_screen(
            new_game(players, bots, seed, choices.get("buildings", "first-game"))
        )

    def continue_saved(self, saved: Any) -> Screen[Any]:
        from tui.cartus.app import continue_game

        return self.offline_screen(continue_game(saved))

    def offline_screen(self, game: Any) -> Screen[Any]:
        from tui.cartus.screens import TableScreen

        return TableScreen(game)

    def network_screen(self, game: Any) -> Screen[Any]:
        from tui.cartus.screens import TableScreen

        return TableScreen(game)

    def run_offline(
        self, players: int, bots: str | None, seed: int | None, choices: Mapping[str, Any]
    ) -> int:
        from tui.cartus.app import run_cartus

        return run_cartus(players, bots, seed, choices.get("buildings", "first-game"))

    def offline_game(self, options: Any) -> Any:
        from tui.cartus.app import from_options

        return from_options(options)

    def set_plain(self, plain: bool) -> None:
        from tui.cartus import render

        render.set_plain(plain)


class RattusTui(TuiGame):
    name = "rattus"
    rules_file = "rules-rattus.md"

    def saved(self) -> Saved | None:
        from tui.rattus.app import saved_game

        return saved_game()

    def new_offline(
        self, players: int, bots: str, seed: int | None, choices: Mapping[str, str]
    ) -> Screen[Any]:
        from tui.rattus.app import new_game

        return self.offline_screen(new_game(players, bots, seed))

    def continue_saved(self, saved: Any) -> Screen[Any]:
        from tui.rattus.app import continue_game

        return self.offline_screen(continue_game(saved))

    def offline_screen(self, game: Any) -> Screen[Any]:
        from tui.rattus.screens import RattusMapScreen

        return RattusMapScreen(game)

    def network_screen(self, game: Any) -> Screen[Any]:
        from tui.rattus.netcontroller import RattusNetwork
        from tui.rattus.screens import RattusMapScreen

        return RattusMapScreen(RattusNetwork(game))

    def run_offline(
        self, players: int, bots: str | None, seed: int | None, choices: Mapping[str, Any]
    ) -> int:
        from rattus_net.games.rattus.loader import components_path, load_custom
        from tui.offline import default_bot_kind
        from tui.rattus.app import run_rattus

        comps, custom = load_custom(components_path(choices))
        return run_rattus(players, bots or default_bot_kind(), seed, comps, custom)


_TUI_GAMES: dict[str, TuiGame] = {g.name: g for g in (CartusTui(), RattusTui())}
assert tuple(_TUI_GAMES) == game_names(), "every registered game has its TUI here"

TUI_GAMES: tuple[TuiGame, ...] = tuple(_TUI_GAMES.values())
"""Every game, the default first, as the registry lists them."""


def tui_game(name: str) -> TuiGame:
    """The game called ``name``; ``KeyError`` for another name."""
    return _TUI_GAMES[name]


def network_table(game: Any) -> Screen[Any]:
    """The table screen of a network game: its own game's (``game_name``: the driver takes
    it from the node's parameters), Rattus Cartus's for a network game that names none."""
    return tui_game(str(getattr(game, "game_name", unnamed_game().name))).network_screen(game)


def network_games() -> tuple[TuiGame, ...]:
    """The games whose tables can be hosted and joined now (their ``network_play`` flag)."""
    return tuple(g for g in TUI_GAMES if g.network_play)


def set_plain(plain: bool) -> None:
    """NO_COLOR or not, for every game's rendering (the app says so when it starts)."""
    for game in TUI_GAMES:
        game.set_plain(plain)


def game_titles(games: tuple[TuiGame, ...] = TUI_GAMES) -> str:
    """``Rattus Cartus`` or ``Rattus Cartus and Rattus``: the titles, joined for a sentence."""
    titles = [g.title for g in games]
    return " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 2 else titles)


__all__ = [
    "TUI_GAMES",
    "MenuChoice",
    "Saved",
    "TuiGame",
    "game_titles",
    "network_games",
    "network_table",
    "set_plain",
    "tui_game",
]
