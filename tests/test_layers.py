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
    "rattus_net/games": {"rattus_net.games", "rattus_net.kit", "rattus_net.bots"},
    # the protocol takes a game by the interface of the kit
    "protocol": {"protocol", "rattus_net.kit"},
    # the bots every game shares (random, the search); a game's own bots are in its folder
    "rattus_net/bots": {"rattus_net.bots", "rattus_net.kit"},
    # the games in OpenSpiel: through the kit's interface (and the shared search's sampling)
    "rattus_net/openspiel": {"rattus_net.openspiel", "rattus_net.kit", "rattus_net.bots"},
    "rattus_net/net": {
        "rattus_net.net",
        "rattus_net.kit",
        "rattus_net.games",
        "rattus_net.bots",
        "rattus_net.paths",
        "protocol",
    },
    "tui": {"tui", "rattus_net", "protocol"},
    # what every game's screens share: never the shell (menu, forms, lobby) nor the app
    "tui/common": {"tui.common", "rattus_net", "protocol"},
    # the SSH server is an adapter at the edge: it runs the TUI as a program, never imports it
    # (its preloaded parent names the game's modules, as data, and imports them by name)
    "rattus_net/serve": {
        "rattus_net.serve",
        "rattus_net.net",
        "rattus_net.kit",
        "rattus_net.paths",
    },
    # the browser's front door shares the SSH server's identities, limits and parent
    "rattus_net/web": {
        "rattus_net.web",
        "rattus_net.serve",
        "rattus_net.net",
        "rattus_net.kit",
        "rattus_net.paths",
    },
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


# A game's screens: Textual over the game, the kit, the network seat and what every game's
# screens share (never the shell).
UI_ALLOWED = {"rattus_net", "protocol", "tui.common"}


def is_ui(path: Path) -> bool:
    """A game's screens: ``rattus_net/games/<game>/ui/``."""
    rel = path.relative_to(ROOT).parts
    return rel[:2] == ("rattus_net", "games") and len(rel) > 4 and rel[3] == "ui"


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_inner_layers(layer: str) -> None:
    bad = []
    for path in layer_files(layer):
        allowed = UI_ALLOWED if is_ui(path) else ALLOWED[layer]
        for name in imports(path):
            if not name.startswith(PROJECT):
                continue
            if not any(name == a or name.startswith(a + ".") for a in allowed):
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


def test_only_the_games_screens_import_textual_or_the_tui() -> None:
    """Under ``rattus_net/`` only a game's screens (``games/<game>/ui/``) are Textual code; the
    commands start the TUI (``rattus_net/cli``) and nothing else names it, so the commands
    without a screen never load Textual."""
    bad = []
    for path in sorted((ROOT / "rattus_net").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if is_ui(path):
            continue
        for name in imports(path):
            screen = name.split(".")[0] in ("textual", "tui")
            if screen and not (rel.parts[1] == "cli" and name.split(".")[0] == "tui"):
                bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)


GAMES_DIR = ROOT / "rattus_net" / "games"
GAME_NAMES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())


def test_shared_code_names_no_game() -> None:
    """Everything outside a game's folder takes the game through the kit (its interface and
    registry), never by importing the game's modules; the games find each other no more. The
    TUI finds each game's screens (``games/<game>/ui/``) through the registry too."""
    bad = []
    for path in sorted(p for package in PROJECT for p in (ROOT / package).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for name in imports(path):  # (those inside functions too)
            for game in GAME_NAMES:
                own = f"rattus_net/games/{game}/"
                prefix = f"rattus_net.games.{game}"
                if (name == prefix or name.startswith(prefix + ".")) and not rel.startswith(own):
                    bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)
    assert GAME_NAMES == ["cartus", "rattus"]


def test_the_tui_names_no_game() -> None:
    """No module of ``tui/`` names a game in its text (a class, a title, a rule): what differs
    between games comes from the games, through the registry."""
    bad = []
    for path in layer_files("tui"):
        text = path.read_text()
        for game in ("Cartus", "cartus"):
            if game in text:
                bad.append(f"{path.relative_to(ROOT)} names {game}")
    assert not bad, "\n".join(bad)


REQUEST_KINDS = frozenset({"TableRequest", "Shuffle", "Reveal", "PublicRandom", "Open", "Rehandle"})
"""The kinds of table request (``rattus_net/kit/table.py``)."""
REQUESTS_TOLD_APART = {
    # the kit: the machine tells a request from a decision (by type, never by shape)
    "rattus_net/kit": {"rattus_net/kit/machine.py"},
    # the protocol: the one module that knows what each kind of request asks of it
    "protocol": {"protocol/requests.py"},
}


def _isinstance_names(path: Path) -> set[str]:
    """The names an ``isinstance`` of ``path`` checks against (``tuple`` for a shape test)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        call = isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"
        if call and len(node.args) == 2:
            names.update(sub.id for sub in ast.walk(node.args[1]) if isinstance(sub, ast.Name))
    return names


@pytest.mark.parametrize("layer", sorted(REQUESTS_TOLD_APART))
def test_table_requests_are_told_apart_in_one_module_per_layer(layer: str) -> None:
    """Each kind of table request says what it asks of every table (``TableRequest.visit``):
    no module dispatches on the kinds with ``isinstance`` but the one of its layer that tells
    a request from a decision or a step's request from another."""
    bad = []
    allowed = REQUESTS_TOLD_APART[layer]
    for path in layer_files(layer):
        rel = str(path.relative_to(ROOT))
        kinds = _isinstance_names(path) & REQUEST_KINDS
        if kinds and rel not in allowed:
            bad.append(f"{rel} dispatches on {sorted(kinds)}")
    machine = ROOT / "rattus_net" / "kit" / "machine.py"
    if "tuple" in _isinstance_names(machine):
        bad.append("rattus_net/kit/machine.py tells a request from a decision by its shape")
    assert not bad, "\n".join(bad)


SHARED = (
    "protocol",
    "rattus_net/net",
    "rattus_net/kit",
    "tui",
    "rattus_net/web",
    "rattus_net/serve",
)
"""The code every game shares: it says nothing in one game's words."""
ENGLISH = frozenset({"magic", "pass", "gold", "office"})
"""Words of a game that are plain English elsewhere (a preamble's magic bytes, a password):
not counted as the game's."""
FIRST_NAMES_KEPT = frozenset({"OLD_KIND_NAMES", "COMMITMENT_DOMAIN"})
"""Constants that keep the first game's words on purpose (``protocol/messages.py``: the
names signed records already carry)."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of a module's docstrings (of the module, its classes, functions and
    attributes): explanations, which may give a game as an example."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            for i, stmt in enumerate(body):
                text = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                after = i > 0 and isinstance(body[i - 1], ast.Assign | ast.AnnAssign)
                if text and (i == 0 or after):
                    out.add(id(getattr(stmt, "value", None)))
    return out


def _words_used(path: Path) -> list[tuple[int, str]]:
    """The words ``path``'s code uses, by line: its names (split at ``_``) and the words of
    its strings, but for docstrings and the constants of ``FIRST_NAMES_KEPT``."""
    import re

    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in FIRST_NAMES_KEPT for t in node.targets
        ):
            skip.update(id(sub) for sub in ast.walk(node.value))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        texts: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
            value = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            texts = re.findall(r"[A-Za-z][A-Za-z'-]*(?: [A-Z][a-z]+)?", value)
            texts += re.findall(r"[A-Za-z]+", value)
        elif isinstance(node, ast.Name):
            texts = node.id.split("_")
        elif isinstance(node, ast.Attribute):
            texts = node.attr.split("_")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            texts = node.name.split("_")
        elif isinstance(node, ast.arg):
            texts = node.arg.split("_")
        out.extend((getattr(node, "lineno", 0), t.lower()) for t in texts if t)
    return out


def test_shared_code_says_nothing_in_a_game_s_words() -> None:
    """No module of the shared code uses a word of one game (its pieces, places, classes:
    ``GameType.words``, and its name) in its names or in what it says: a player of any game
    reads the words of his game, which come from the game's folder (``GameType.step_words``,
    the game's ``TableWords``...)."""
    from rattus_net.kit.registry import games

    words: dict[str, str] = {}
    for game in games():
        for word in game.game_type.words - ENGLISH:
            words[word] = game.name
    assert {"supply", "nun", "knight", "anglia", "hospital"} <= set(words)
    bad = []
    for layer in SHARED:
        for path in layer_files(layer):
            for line, word in _words_used(path):
                if word in words:
                    rel = path.relative_to(ROOT)
                    bad.append(f"{rel}:{line} says {word!r} ({words[word]})")
    assert not bad, "\n".join(sorted(set(bad)))
