"""Without a terminal (``ssh -T``, a pipe) the TUI says it needs one and exits non-zero; with
one, the mouse is left to the terminal so that text on screen can be selected and copied."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import pytest
from net.procs import rattus
from textual.app import App

import tui.app
from tui.app import RattusApp


@pytest.mark.slow
@pytest.mark.parametrize("args", [[], ["play", "--players", "2"]])
def test_without_a_terminal_the_tui_says_so_and_exits(args: list[str]) -> None:
    done = subprocess.run(
        rattus(args),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert done.returncode != 0
    assert "needs a terminal" in done.stderr and "ssh -t" in done.stderr
    assert "\x1b[" not in done.stdout  # no screen drawn into the pipe
    assert "Traceback" not in done.stderr


def test_the_mouse_is_left_to_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def run(self: App[None], *args: Any, **kwargs: Any) -> None:
        seen.update(kwargs)

    monkeypatch.setattr(App, "run", run)
    monkeypatch.setattr(tui.app, "has_terminal", lambda: True)
    RattusApp(seed=1).run()
    assert seen.get("mouse") is False
