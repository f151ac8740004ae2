"""Every TUI test draws for a terminal with a full font (its own data and config folders come
from the top-level ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from savewrites import writes

from tui.common.glyphs import use_terminal

__all__ = ["writes"]  # (the offline save's writes, watched: a fixture)


@pytest.fixture(autouse=True)
def _a_full_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nor the terminal they run in: every test draws for a terminal with a full font (one on
    the Linux console would draw the map in ASCII: ``tui/common/glyphs.py``) unless it says
    otherwise."""
    monkeypatch.setenv("TERM", "xterm-256color")
    use_terminal(None)
    yield
    use_terminal(None)
