"""No import cycles among the project's modules, function-level imports included.

A module that imports another inside a function still depends on it: the cycle is only hidden
until the function runs (or a test imports the two in another order). So every ``import``
statement counts, wherever it is, except those under ``if TYPE_CHECKING:`` (types only, never
run). A package's ``__init__`` importing its own submodules is the package's face, not a cycle.
Checked on the source, like ``tests/test_layers.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("rattus_net", "protocol", "tui")

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Cycles allowed for a while (none now; never add one)."""


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for top in PROJECT:
        for path in (root / top).rglob("*.py"):
            rel = path.relative_to(root).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            found[".".join(parts)] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement may load (the module, and each imported name in
    case it is a submodule)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([node.module] if node.module else [])])
    else:
        base = node.module or ""
    return [base, *(f"{base}.{a.name}" for a in node.names)]


class _Imports(ast.NodeVisitor):
    """Every import statement of a module, at any depth, skipping ``if TYPE_CHECKING:``."""

    def __init__(self) -> None:
        self.found: list[ast.Import | ast.ImportFrom] = []

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.append(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.found.append(node)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module -> the project modules it imports (the nearest module of each name)."""
    mods = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        visitor = _Imports()
        visitor.visit(ast.parse(path.read_text(), str(path)))
        deps: set[str] = set()
        for node in visitor.found:
            for target in _targets(name, path, node):
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name and not target.startswith(name + "."):
                    deps.add(target)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    new = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"


def test_the_known_cycles_still_exist() -> None:
    """An allowed cycle that is gone must leave the list, so that it cannot come back."""
    found = cycles(import_graph())
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"no longer cycles, remove them from KNOWN_CYCLES: {gone}"


def test_a_function_level_import_makes_a_cycle(tmp_path: Path) -> None:
    """The check sees an import inside a function, and skips one under TYPE_CHECKING."""
    pkg = tmp_path / "protocol"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from protocol import b\n")
    (pkg / "b.py").write_text("def f():\n    from protocol.a import x\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from protocol.d import y\n"
    )
    (pkg / "d.py").write_text("from . import c\n")
    assert cycles(import_graph(tmp_path)) == [frozenset({"protocol.a", "protocol.b"})]
