"""Inner layers never import outer ones (architecture note, section 1).

Checked on the source, so it holds whether or not a module happens to be imported: every
``import`` statement of a layer may only name the standard library, third-party packages the
layer is allowed, and the layers inside it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# layer -> the project packages it may import (itself included)
ALLOWED = {
    "rattus_net/engine": {"rattus_net.engine"},
    "rattus_net/games": {"rattus_net.games", "rattus_net.engine"},
    # the protocol takes a game by the interface of ``rattus_net.games``
    "protocol": {"protocol", "rattus_net.engine", "rattus_net.games"},
    "rattus_net/bots": {"rattus_net.bots", "rattus_net.engine", "rattus_net.games"},
    "rattus_net/net": {
        "rattus_net.net",
        "rattus_net.engine",
        "rattus_net.games",
        "rattus_net.bots",
        "protocol",
    },
    "tui": {"tui", "rattus_net", "protocol"},
    # the SSH server is an adapter at the edge: it runs the TUI as a program, never imports it
    # (its preloaded parent names the game's modules, as data, and imports them by name)
    "rattus_net/serve": {"rattus_net.serve", "rattus_net.net"},
    # the browser's front door shares the SSH server's identities, limits and parent
    "rattus_net/web": {"rattus_net.web", "rattus_net.serve", "rattus_net.net"},
}
# Packages only the CLI may import (nothing inside the game depends on them).
EDGE_ONLY = ("rattus_net.serve", "rattus_net.web")
PROJECT = ("rattus_net", "tui", "protocol")
# The pure engine has no I/O, no clock and no hidden randomness: where chance is needed (the
# local table, filling a record's unfixed card order, sampling hidden cards for a search bot)
# it comes from a ``random.Random`` seeded by the caller, never from the global generator.
ENGINE_FORBIDDEN = {"time", "os", "socket", "asyncio", "io", "pathlib", "secrets", "datetime"}


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def layer_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_inner_layers(layer: str) -> None:
    bad = []
    for path in layer_files(layer):
        for name in imports(path):
            if not name.startswith(PROJECT):
                continue
            if not any(name == a or name.startswith(a + ".") for a in ALLOWED[layer]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def global_random_uses(path: Path) -> list[str]:
    """Uses of the module-level generator: ``random.shuffle(...)``, ``from random import
    choice``... Only the seeded class ``random.Random`` is allowed."""
    tree = ast.parse(path.read_text(), str(path))
    bad = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            bad.append(f"random.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            bad += [f"from random import {a.name}" for a in node.names if a.name != "Random"]
    return bad


# The games' rules are held to the engine's purity; only the loader, the edge that reads a
# components file, may do I/O.
GAME_EDGES = {"rattus_net/games/rattus/loader.py"}


def pure_files() -> list[Path]:
    games = [
        p for p in layer_files("rattus_net/games") if str(p.relative_to(ROOT)) not in GAME_EDGES
    ]
    return layer_files("rattus_net/engine") + games


def test_engine_is_pure() -> None:
    bad = []
    for path in pure_files():
        bad += [
            f"{path.relative_to(ROOT)} imports {name}"
            for name in imports(path)
            if name.split(".")[0] in ENGINE_FORBIDDEN
        ]
        bad += [f"{path.relative_to(ROOT)} uses {u}" for u in global_random_uses(path)]
    assert not bad, "\n".join(bad)


def test_engine_imports_no_third_party_package() -> None:
    stdlib = sys.stdlib_module_names
    bad = [
        f"{p.relative_to(ROOT)} imports {n}"
        for p in pure_files()
        for n in imports(p)
        if n.split(".")[0] not in stdlib
        and not n.startswith(("rattus_net.engine", "rattus_net.games"))
        and n.split(".")[0] != "__future__"
    ]
    assert not bad, "\n".join(bad)


def test_the_rattus_engine_is_checked_for_purity() -> None:
    names = {str(p.relative_to(ROOT)) for p in pure_files()}
    assert "rattus_net/games/rattus/game.py" in names
    assert "rattus_net/games/rattus/rules.py" in names
    assert not names & GAME_EDGES


def test_only_the_cli_imports_the_ssh_server() -> None:
    """``rattus_net.serve`` and ``rattus_net.web`` sit outside every layer (the TUI's allowance
    of ``rattus_net`` must not reach them): only the CLI and the servers themselves name them
    (the web server shares the SSH server's parts)."""
    bad = []
    for path in sorted(p for package in PROJECT for p in (ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:2] in (("rattus_net", "serve"), ("rattus_net", "web")) or rel == Path(
            "rattus_net/cli.py"
        ):
            continue
        bad += [f"{rel} imports {n}" for n in imports(path) if n.startswith(EDGE_ONLY)]
    assert not bad, "\n".join(bad)


def test_the_protocol_takes_a_game_by_its_interface() -> None:
    """``protocol/`` serves any game: of ``rattus_net.games`` it may name only the registry
    (``rattus_net.games``) and the interface (``rattus_net.games.base``), never a game."""
    allowed = {"rattus_net.games", "rattus_net.games.base"}
    bad = [
        f"{p.relative_to(ROOT)} imports {n}"
        for p in layer_files("protocol")
        for n in imports(p)
        if n.startswith("rattus_net.games") and n not in allowed
    ]
    assert not bad, "\n".join(bad)
    # The check reads every import statement, those inside functions too.
    assert "rattus_net.games.base" in imports(ROOT / "protocol/params.py")


def test_the_network_stack_takes_a_game_by_its_interface() -> None:
    """``rattus_net/net/`` (the lobby, the network table and session, its words and news)
    serves any game: of ``rattus_net.games`` it may name only the registry and the interface,
    never a game (what it needs of one is a method of ``GameDefinition``)."""
    allowed = {"rattus_net.games", "rattus_net.games.base"}
    bad = [
        f"{p.relative_to(ROOT)} imports {n}"
        for p in layer_files("rattus_net/net")
        for n in imports(p)
        if n.startswith("rattus_net.games") and n not in allowed
    ]
    assert not bad, "\n".join(bad)
    # The check reads the layer's files (its import statements, those in functions too).
    assert "rattus_net.games.base" in imports(ROOT / "rattus_net/net/tablewords.py")
    assert "rattus_net.games" in imports(ROOT / "rattus_net/net/lobby.py")


# The TUI shell takes every game through ``tui.games`` (the registry): these modules may import
# no particular game, neither its rules nor its screens. (The network lobbies and the network
# game's driver live in ``rattus_net/net/``.)
TUI_SHELL = (
    "tui/app.py",
    "tui/screens.py",
    "tui/netscreens.py",
    "tui/help.py",
    "tui/paths.py",
    "tui/saves.py",
    "tui/offline.py",
    "tui/gametable.py",
    "tui/verdict.py",
)
GAME_PACKAGES = ("rattus_net.games.cartus", "rattus_net.games.rattus", "tui.cartus", "tui.rattus")


def test_the_tui_shell_imports_no_particular_game() -> None:
    bad = []
    for rel in TUI_SHELL:
        for name in imports(ROOT / rel):  # (lazy imports in functions included)
            if any(name == p or name.startswith(p + ".") for p in GAME_PACKAGES):
                bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_tui_registry_is_the_only_door_to_the_games() -> None:
    """Every module of ``tui/`` outside the games' packages is either the registry or held to
    the shell's rule above (a new shell module must be added to TUI_SHELL)."""
    outside = {
        str(p.relative_to(ROOT))
        for p in layer_files("tui")
        if p.parent.name not in ("cartus", "rattus") and p.name != "__init__.py"
    }
    assert outside - set(TUI_SHELL) == {"tui/games.py"}
    registry = imports(ROOT / "tui/games.py")
    assert any(n.startswith("tui.cartus.") for n in registry)
    assert any(n.startswith("tui.rattus.") for n in registry)
