"""Every TUI test gets its own data directory: offline games are saved there as they go, and
the menu offers to continue a saved game, so tests must neither read nor leave saves of the
person running them. Likewise its own config directory: the person's settings (such as
"always take") must not change what a test sees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from savewrites import writes

from tui.common.glyphs import use_terminal

__all__ = ["writes"]  # (the offline save's writes, watched: a fixture)


def _own_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, kind: str
) -> Path:
    """A fresh folder named by ``kind`` in ``RATTUS_<KIND>_DIR`` for the test."""
    path = tmp_path_factory.mktemp(kind)
    monkeypatch.setenv(f"RATTUS_{kind.upper()}_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def _own_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    return _own_dir(tmp_path_factory, monkeypatch, "data")


@pytest.fixture(autouse=True)
def _own_config_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Nor the settings (name, colour, bot level, last options) of the person running them."""
    return _own_dir(tmp_path_factory, monkeypatch, "config")


@pytest.fixture(autouse=True)
def _no_files_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nor a folder confinement of the shell running them (a test under ``rattus serve``)."""
    monkeypatch.delenv("RATTUS_FILES_ROOT", raising=False)


@pytest.fixture(autouse=True)
def _a_full_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nor the terminal they run in: every test draws for a terminal with a full font (one on
    the Linux console would draw the map in ASCII: ``tui/common/glyphs.py``) unless it says
    otherwise."""
    monkeypatch.setenv("TERM", "xterm-256color")
    use_terminal(None)
    yield
    use_terminal(None)
