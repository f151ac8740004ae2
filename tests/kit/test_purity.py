"""The rules are pure: no I/O, no clock, no hidden randomness, no asyncio, no screen.

Checked on the source, so it holds whether or not a module happens to be imported: every
``import`` statement (those inside functions too) of a game's rules and of the kit's pure part
may name only the standard library's pure modules and the project's inner layers. Where chance
is needed (the local table, filling a record's unfixed card order, sampling hidden cards for a
search bot) it comes from a ``random.Random`` seeded by the caller, never from the global
generator. A game's folder is rules but for its edges: its screens (``ui/``), its bots (they
time their thinking), a ``loader`` (reads its data files) and a ``terminal`` (its plain-text
table); the kit is pure but for its registry (which imports the games by name), the offline
table (it times slow bots to save meanwhile, and draws fresh chance for a continued game) and
the saves (files, and a writer thread).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from test_layers import imports  # every import statement of a file, the layers' reading

ROOT = Path(__file__).resolve().parent.parent.parent
FORBIDDEN = {
    "asyncio",
    "datetime",
    "io",
    "os",
    "pathlib",
    "rich",
    "secrets",
    "socket",
    "subprocess",
    "textual",
    "threading",
    "time",
    "tui",
}
EDGE_NAMES = {"ui", "bots", "loader", "terminal"}
KIT_EDGES = {"registry.py", "offline.py", "saves.py"}
INNER = ("rattus_net.kit", "rattus_net.games", "rattus_net.bots")


def global_random_uses(path: Path) -> list[str]:
    """Uses of the module-level generator: ``random.shuffle(...)``, ``from random import
    choice``... Only the seeded class ``random.Random`` is allowed."""
    bad = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
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


def is_edge(path: Path) -> bool:
    rel = path.relative_to(ROOT / "rattus_net" / "games")
    return any(part.removesuffix(".py") in EDGE_NAMES for part in rel.parts[1:])


def pure_files() -> list[Path]:
    games = [p for p in sorted((ROOT / "rattus_net/games").rglob("*.py")) if not is_edge(p)]
    kit = [p for p in sorted((ROOT / "rattus_net/kit").rglob("*.py")) if p.name not in KIT_EDGES]
    return kit + games


def test_the_rules_do_no_io_and_draw_no_hidden_chance() -> None:
    bad = []
    for path in pure_files():
        rel = path.relative_to(ROOT)
        bad += [f"{rel} imports {n}" for n in imports(path) if n.split(".")[0] in FORBIDDEN]
        bad += [f"{rel} uses {u}" for u in global_random_uses(path)]
    assert not bad, "\n".join(bad)


def test_the_rules_import_no_third_party_package() -> None:
    stdlib = sys.stdlib_module_names
    bad = [
        f"{p.relative_to(ROOT)} imports {n}"
        for p in pure_files()
        for n in imports(p)
        if n.split(".")[0] not in stdlib and not n.startswith(INNER) and n != "__future__"
    ]
    assert not bad, "\n".join(bad)


def test_every_game_and_the_kit_are_checked() -> None:
    names = {str(p.relative_to(ROOT)) for p in pure_files()}
    for game in ("cartus", "rattus"):
        assert f"rattus_net/games/{game}/game.py" in names
        assert f"rattus_net/games/{game}/record.py" in names
    assert "rattus_net/games/rattus/rules.py" in names
    assert "rattus_net/kit/interface.py" in names
    assert "rattus_net/games/rattus/loader.py" not in names
    assert "rattus_net/games/rattus/terminal.py" not in names


def test_the_check_catches_what_it_forbids(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nimport time\n\ndef f():\n    random.shuffle([])\n")
    assert "time" in imports(bad) and global_random_uses(bad) == ["random.shuffle"]
