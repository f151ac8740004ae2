"""The web tests' fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from web.webserver import WebServer


@pytest.fixture
def servers() -> Iterator[list[WebServer]]:
    """The servers a test starts (``rattus web`` processes), stopped after it."""
    started: list[WebServer] = []
    yield started
    for server in started:
        server.stop()
