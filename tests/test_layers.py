"""Inner layers never import outer ones (architecture note, section 1).

Checked on the source, so it holds whether or not a module happens to be imported: every
``import`` statement of a layer may only name the standard library, third-party packages the
layer is allowed, and the layers inside it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# layer -> the project packages it may import (itself included)
ALLOWED = {
    # the kit: the game interface, the registry (which finds the games by name, never by an
    # import statement), and where its one environment variable is defined
    "rattus_net/kit": {"rattus_net.kit", "rattus_net.paths"},
    # (``rattus_net/engine`` only passes the kit's names on to ``protocol/``, for now)
    "rattus_net/engine": {"rattus_net.kit"},
    "rattus_net/games": {"rattus_net.games", "rattus_net.kit", "rattus_net.bots"},
    # the protocol takes a game by the interface of the kit
    "protocol": {"protocol", "rattus_net.engine", "rattus_net.games", "rattus_net.kit"},
    # the bots every game shares (random, the search); a game's own bots are in its folder
    "rattus_net/bots": {"rattus_net.bots", "rattus_net.kit"},
    "rattus_net/net": {
        "rattus_net.net",
        "rattus_net.kit",
        "rattus_net.games",
        "rattus_net.bots",
        "rattus_net.paths",
        "protocol",
    },
    "tui": {"tui", "rattus_net", "protocol"},
    # the SSH server is an adapter at the edge: it runs the TUI as a program, never imports it
    # (its preloaded parent names the game's modules, as data, and imports them by name)
    "rattus_net/serve": {"rattus_net.serve", "rattus_net.net", "rattus_net.paths"},
    # the browser's front door shares the SSH server's identities, limits and parent
    "rattus_net/web": {"rattus_net.web", "rattus_net.serve", "rattus_net.net", "rattus_net.paths"},
}
# Packages only the CLI may import (nothing inside the game depends on them).
EDGE_ONLY = ("rattus_net.serve", "rattus_net.web")
PROJECT = ("rattus_net", "tui", "protocol")


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


def test_only_the_cli_imports_the_ssh_server() -> None:
    """``rattus_net.serve`` and ``rattus_net.web`` sit outside every layer (the TUI's allowance
    of ``rattus_net`` must not reach them): only the CLI and the servers themselves name them
    (the web server shares the SSH server's parts)."""
    bad = []
    for path in sorted(p for package in PROJECT for p in (ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:2] in (("rattus_net", "serve"), ("rattus_net", "web"), ("rattus_net", "cli")):
            continue
        bad += [f"{rel} imports {n}" for n in imports(path) if n.startswith(EDGE_ONLY)]
    assert not bad, "\n".join(bad)


GAMES_DIR = ROOT / "rattus_net" / "games"
GAME_NAMES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())
# Where a game's own modules may be imported from, beside its own folder: the TUI's games and
# their registry (until each game's screens live in its folder).
GAME_DOORS = ("tui/cartus/", "tui/rattus/", "tui/games.py")


def test_shared_code_names_no_game() -> None:
    """Everything outside a game's folder takes the game through the kit (its interface and
    registry), never by importing the game's modules; the games find each other no more."""
    bad = []
    for path in sorted(p for package in PROJECT for p in (ROOT / package).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if rel.startswith(GAME_DOORS):
            continue
        for name in imports(path):  # (those inside functions too)
            for game in GAME_NAMES:
                own = f"rattus_net/games/{game}/"
                prefix = f"rattus_net.games.{game}"
                if (name == prefix or name.startswith(prefix + ".")) and not rel.startswith(own):
                    bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)
    assert GAME_NAMES == ["cartus", "rattus"]


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
