"""The games of Rattus Net, found where they live: no shared module names a game.

A game is a package that registers its :class:`~rattus_net.kit.interface.GameDefinition`
when imported (``register(MyGame())`` in its ``__init__.py``). The registry imports every
subpackage of ``rattus_net.games`` (the games that ship), then every module named in the
environment variable ``RATTUS_NET_GAMES`` (comma-separated: games kept outside the tree, such
as the tests' own). It does so once, the first time a game is asked for. The games are listed
by their declared ``order`` (then name); the first is the default game.

A game's own screens are the ``ui`` subpackage of its package, if it has one
(:func:`ui_module`): the TUI imports it by that name, and nothing else does (the commands
without a screen never load Textual).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Iterator
from typing import TypeVar

from rattus_net.kit.interface import AnyGame
from rattus_net.paths import extra_game_modules

G = TypeVar("G", bound=AnyGame)

GAMES_PACKAGE = "rattus_net.games"
"""The package whose subpackages are the games that ship."""

_GAMES: dict[str, AnyGame] = {}
_found = False


class UnknownGame(ValueError):
    """A game name no registered game has."""


def register(game: G) -> G:
    """Add ``game`` to the registry (a game package calls this when imported)."""
    known = _GAMES.get(game.name)
    if known is not None and type(known) is not type(game):
        raise ValueError(f"two games are called {game.name!r}")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> AnyGame:
    """Take the game called ``name`` out of the registry and return it (a game that only some
    tests may see, registered when its package was imported)."""
    game = _GAMES.pop(name, None)
    if game is None:
        raise UnknownGame(f"no game is called {name!r}")
    return game


@contextlib.contextmanager
def registered(game: G) -> Iterator[G]:
    """``game`` in the registry, beside the games found, for the length of the block; taken
    out again afterwards (and a game of that name it stood in for put back)."""
    _discover()
    before = _GAMES.get(game.name)
    _GAMES[game.name] = game
    try:
        yield game
    finally:
        if before is None:
            _GAMES.pop(game.name, None)
        else:
            _GAMES[game.name] = before


@contextlib.contextmanager
def discovering_again() -> Iterator[None]:
    """The games looked for again at the next ask in the block (the modules named in
    ``RATTUS_NET_GAMES`` then imported, beside the games found so far); the registry as it was
    afterwards."""
    global _found
    _discover()
    saved = dict(_GAMES)
    _found = False
    try:
        yield
    finally:
        _GAMES.clear()
        _GAMES.update(saved)
        _found = True


def _discover() -> None:
    global _found
    if _found:
        return
    _found = True
    package = importlib.import_module(GAMES_PACKAGE)  # (by name: the kit names no game)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.ispkg:
            importlib.import_module(f"{package.__name__}.{info.name}")
    for name in extra_game_modules():
        importlib.import_module(name)


def games() -> tuple[AnyGame, ...]:
    """Every game, in the menu's order (the default first)."""
    _discover()
    return tuple(sorted(_GAMES.values(), key=lambda g: (g.order, g.name)))


def game_names() -> tuple[str, ...]:
    return tuple(g.name for g in games())


def get_game(name: str) -> AnyGame:
    """The game called ``name``; :class:`UnknownGame` (a ``ValueError``) for any other."""
    _discover()
    game = _GAMES.get(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; choose one of {', '.join(game_names())}")
    return game


def default_game() -> AnyGame:
    """The game offered first (the smallest ``order``)."""
    return games()[0]


def unnamed_game() -> AnyGame:
    """The game whose face-level records carry no name (``named_in_formats`` off: the first
    game of the family, whose record format predates the others)."""
    unnamed = [g for g in games() if not g.named_in_formats]
    if len(unnamed) != 1:
        raise ValueError("exactly one game may leave its name out of its formats")
    return unnamed[0]


def network_games() -> tuple[AnyGame, ...]:
    """The games whose tables can be hosted and joined now (their ``network_play`` flag)."""
    return tuple(g for g in games() if g.network_play)


def game_package(game: AnyGame) -> str | None:
    """The name of the package ``game``'s definition lives in (its folder), or ``None`` for a
    definition in a top-level module."""
    return sys.modules[type(game).__module__].__package__ or None


def ui_module(game: AnyGame) -> str | None:
    """The name of ``game``'s screens module: the ``ui`` subpackage of the package its
    definition lives in, or ``None`` for a game without one (the TUI then plays it on its
    generic table)."""
    package = game_package(game)
    if package is None:
        return None
    name = f"{package}.ui"
    return name if importlib.util.find_spec(name) is not None else None


def game_titles(chosen: tuple[AnyGame, ...] | None = None) -> str:
    """``Rattus Cartus and Rattus``: the titles of ``chosen`` (every game), for a sentence."""
    titles = [g.title for g in (games() if chosen is None else chosen)]
    return " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 2 else titles)
