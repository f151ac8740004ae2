"""Reading a components file: the edge where Rattus data comes from disk.

The engine modules never read files (tests/test_layers.py checks it); this module reads the
shipped ``components.json`` or a user's ``--components FILE`` and hands the parsed value to
:func:`~rattus_net.games.rattus.components.parse_components`. Every failure is one
:class:`ComponentsError` line naming the file and the field, never a traceback.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rattus_net.games.rattus.components import Components, ComponentsError, parse_components

DATA_FILE = "components.json"


def parse_text(text: str, source: str) -> Components:
    """Components from the text of a file (``source`` names it in errors)."""
    try:
        obj: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ComponentsError(
            f"{source}: not a components file: not JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    except RecursionError:
        raise ComponentsError(f"{source}: not a components file: nested too deeply") from None
    try:
        return parse_components(obj)
    except ComponentsError as exc:
        raise ComponentsError(f"{source}: {exc}") from None


@cache
def default_text() -> str:
    """The shipped components file, as text (records embed a custom file, not this one)."""
    return resources.files("rattus_net.games.rattus").joinpath(DATA_FILE).read_text("utf-8")


@cache
def default_components() -> Components:
    """The shipped components (map and token reconstruction, rules section 1)."""
    return parse_text(default_text(), DATA_FILE)


def load_components(path: Path | None) -> Components:
    """The components of ``path`` (a user's file), or the shipped ones for ``None``."""
    if path is None:
        return default_components()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ComponentsError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ComponentsError(f"{path}: is a directory, not a components file") from None
    except UnicodeDecodeError:
        raise ComponentsError(f"{path}: not a components file (not UTF-8 text)") from None
    except OSError as exc:
        raise ComponentsError(f"{path}: cannot be read ({exc.strerror})") from None
    return parse_text(text, str(path))
