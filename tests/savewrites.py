"""The save's writes, watched: which thread wrote each, and a gate to hold them back (a disk
that is stuck), for the tests of the offline save (``tests/kit``, ``tests/tui``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rattus_net.kit.saves as saves


class Writes:
    """Stands in for ``write_file``: notes each write and its thread, and can hold the writes
    back (``gate``) to show the game goes on while a save is being written."""

    def __init__(self) -> None:
        self.threads: list[str] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a write has begun
        self.real = saves.write_file

    def __call__(self, path: Path, body: dict[str, Any] | None) -> None:
        self.entered.set()
        self.gate.wait()
        self.threads.append(threading.current_thread().name)
        self.real(path, body)


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Writes]:
    w = Writes()
    monkeypatch.setattr(saves, "write_file", w)
    yield w
    w.gate.set()  # (a failing test must not leave the writer thread waiting)
