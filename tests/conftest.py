"""Every test gets data and config folders of its own: offline games are saved as they go, the
menu offers to continue a saved game, and the person's settings (name, colour, "always take")
would change what a test sees, so no test may read or leave files of the person running it.
Nor may a folder confinement of the shell running the tests (a test under ``rattus serve``)
reach them. Set once here for every test folder; a test that wants a folder of its choosing
sets the variable itself (``monkeypatch.setenv``)."""

from __future__ import annotations

from pathlib import Path

import pytest


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
    """Saves, records and replays of the test (its ``RATTUS_DATA_DIR``)."""
    return _own_dir(tmp_path_factory, monkeypatch, "data")


@pytest.fixture(autouse=True)
def _own_config_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Settings (name, colour, bot level, last options) of the test (``RATTUS_CONFIG_DIR``)."""
    return _own_dir(tmp_path_factory, monkeypatch, "config")


@pytest.fixture(autouse=True)
def _no_files_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """No folder confinement of the shell running the tests (``RATTUS_FILES_ROOT``)."""
    monkeypatch.delenv("RATTUS_FILES_ROOT", raising=False)
